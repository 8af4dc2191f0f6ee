"""Probes against the real Puppet: puppet-ls answers as Puppet 7 does, except the listed differences.

fixtures/hostile/eval_regexp_probes.jsonl probes Ruby regexp matching,
fixtures/hostile/eval_message_probes.jsonl the text of errors whose causes come from deep inside
(an Object type's declaration, an invalid regexp).  Each probe holds the answer of the real
Puppet 7 (recorded through ../shared/oracle) and, where puppet-ls still differs,
``known_difference`` with the reason.  A probe that agrees while marked as different fails too,
so the list stays true.  An error compares by its message without the preambles puppet-ls
leaves off ("Evaluation Error: ", "Error while evaluating a '[]' expression, ").
``UPDATE_EXPECT=1`` re-records Puppet's answers when the oracle can run.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from puppet_ls.language.eval import run_request
from tests.expect import UPDATE

ROOT = Path(__file__).resolve().parents[2]
PROBE_FILES = [ROOT / "fixtures" / "hostile" / name
               for name in ("eval_regexp_probes.jsonl", "eval_message_probes.jsonl")]
ORACLE_DIR = ROOT.parent / "shared" / "oracle"
PROBES = [dict(json.loads(line), file=path) for path in PROBE_FILES
          for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
PREAMBLES = re.compile(r"^(Evaluation Error: )?(Error while evaluating a '\[\]' expression, )?")
# As the oracle runs Puppet 7 (`puppet apply` defaults): unknown variables warn.
SETTINGS = {"strict": "warning", "strict_variables": False}


def answer(result: dict) -> str:
    if result.get("ok"):
        return result["str"]
    err = result.get("error") or {}
    return "ERR: " + PREAMBLES.sub("", err.get("basic_message") or err.get("message") or "")


def test_rerecord_with_the_oracle():
    if not UPDATE:
        pytest.skip("re-records Puppet's answers only with UPDATE_EXPECT=1")
    if not (ORACLE_DIR / "oracle.py").exists() or shutil.which("puppet") is None:
        pytest.skip("the Puppet oracle (../shared/oracle and puppet) is not available")
    sys.path.insert(0, str(ORACLE_DIR))
    from oracle import PuppetOracle
    with PuppetOracle() as oracle:
        results = oracle.many([p["src"] for p in PROBES])
    lines: dict = {path: [] for path in PROBE_FILES}
    for probe, res in zip(PROBES, results):
        probe = dict(probe, puppet=answer(res))
        lines[probe.pop("file")].append(json.dumps(probe, ensure_ascii=False))
    for path, file_lines in lines.items():
        path.write_text("\n".join(file_lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("probe", PROBES, ids=[p["src"] for p in PROBES])
def test_probe(probe):
    mine = answer(run_request({"src": probe["src"], **SETTINGS}))
    if "known_difference" in probe:
        assert mine != probe["puppet"], (
            f"agrees with Puppet now: remove known_difference from {probe['file'].name}")
    else:
        assert mine == probe["puppet"]
