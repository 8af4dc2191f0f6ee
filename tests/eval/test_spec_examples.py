"""Every example with a stated result in the specification (../shared/spec) holds.

fixtures/eval/spec_examples.jsonl holds the examples (source, the result the specification
states, the reference "spec/<file>:<line>"); each was checked against Puppet 7, and where the
specification's text is wrong the fixture records Puppet's result and the stated one
("spec_states"), since the real Puppet wins.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from puppet_ls.language.eval import evaluate_text
from puppet_ls.language.eval.conformance import canonical

ROOT = Path(__file__).resolve().parents[2]
CASES = [json.loads(line) for line in
         (ROOT / "fixtures/eval/spec_examples.jsonl").read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['ref']}:{c['src'][:40]}" for c in CASES])
def test_spec_example(case):
    res = evaluate_text(case["src"])
    if case["expect"] == "error":
        assert not res.ok, f"expected an error, got {canonical(res.value)}"
        return
    assert res.ok, res.error_message()
    assert canonical(res.value) == case["expect"]
