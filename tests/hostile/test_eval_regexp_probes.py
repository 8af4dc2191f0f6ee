"""Ruby regexp probes: puppet-ls matches as the real Puppet does, except the listed differences.

fixtures/hostile/eval_regexp_probes.jsonl holds each probe with the answer of the real Puppet 7
(recorded through ../shared/oracle) and, where puppet-ls still differs, ``known_difference``
with the reason.  A probe that agrees while marked as different fails too, so the list stays
true.  ``UPDATE_EXPECT=1`` re-records Puppet's answers when the oracle can run.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from puppet_ls.language.eval import run_request
from tests.expect import UPDATE

ROOT = Path(__file__).resolve().parents[2]
PROBES_FILE = ROOT / "fixtures" / "hostile" / "eval_regexp_probes.jsonl"
ORACLE_DIR = ROOT.parent / "shared" / "oracle"
PROBES = [json.loads(line) for line in PROBES_FILE.read_text(encoding="utf-8").splitlines()
          if line.strip()]
# As the oracle runs Puppet 7 (`puppet apply` defaults): unknown variables warn.
SETTINGS = {"strict": "warning", "strict_variables": False}


def answer(result: dict) -> str:
    if result.get("ok"):
        return result["str"]
    err = result.get("error") or {}
    return "ERR: " + (err.get("basic_message") or err.get("message") or "")


def test_rerecord_with_the_oracle():
    if not UPDATE:
        pytest.skip("re-records Puppet's answers only with UPDATE_EXPECT=1")
    if not (ORACLE_DIR / "oracle.py").exists() or shutil.which("puppet") is None:
        pytest.skip("the Puppet oracle (../shared/oracle and puppet) is not available")
    sys.path.insert(0, str(ORACLE_DIR))
    from oracle import PuppetOracle
    with PuppetOracle() as oracle:
        results = oracle.many([p["src"] for p in PROBES])
    lines = []
    for probe, res in zip(PROBES, results):
        probe = dict(probe, puppet=answer(res))
        lines.append(json.dumps(probe, ensure_ascii=False))
    PROBES_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("probe", PROBES, ids=[p["src"] for p in PROBES])
def test_probe(probe):
    mine = answer(run_request({"src": probe["src"], **SETTINGS}))
    if "known_difference" in probe:
        assert mine != probe["puppet"], (
            f"agrees with Puppet now: remove known_difference from {PROBES_FILE.name}")
    else:
        assert mine == probe["puppet"]
