"""Differential test: the evaluator against the real Puppet 7 (../shared/oracle).

Generated programs across every family (see differential.py) are evaluated by both, each with
its strictness settings, through the shared JSON-lines protocol.  For each program the verdict
(ok or error) must agree and, when both succeed, ``String(value)`` and the inferred type must
agree.  Agreement must stay at or above 97% and no program outside the documented list
(fixtures/eval/differential_disagreements.txt, rewritten with ``UPDATE_EXPECT=1``) may
disagree.  Programs that agree there are also compared on error message, issue code and log
lines; the known differences of that kind (mostly Ruby crashes inside Puppet, and messages the
type system words differently) are listed in fixtures/eval/differential_message_disagreements.txt
and no new one may appear.  Skips cleanly when ``ruby``/``puppet`` are not installed.
"""
from __future__ import annotations

import collections
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from differential import generate
from puppet_ls.language.eval import run_request

ROOT = Path(__file__).resolve().parents[2]
ORACLE_DIR = Path(os.environ.get("PUPPET_ORACLE_DIR", ROOT.parent / "shared" / "oracle"))
KNOWN = ROOT / "fixtures/eval/differential_disagreements.txt"
KNOWN_DETAILS = ROOT / "fixtures/eval/differential_message_disagreements.txt"

pytestmark = pytest.mark.oracle

# Parts of a result that legitimately differ: Ruby object addresses in %p of time values.
_TIME_TYPES = ("Timespan", "Timestamp")


def _oracle():
    if not shutil.which("ruby") or not shutil.which("puppet") or not ORACLE_DIR.is_dir():
        pytest.skip("puppet (the oracle) is not installed")
    sys.path.insert(0, str(ORACLE_DIR))
    try:
        from oracle import PuppetOracle
        return PuppetOracle()
    except Exception as exc:  # noqa: BLE001 - whatever stops the oracle starting, the test skips and says why
        pytest.skip(f"oracle does not start: {exc}")


def compare(ours: dict, theirs: dict) -> str | None:
    """None when the two results agree, else a short description of the difference."""
    if bool(ours.get("ok")) != bool(theirs.get("ok")):
        o = ours.get("str") if ours.get("ok") else ours.get("error", {}).get("message", "")[:120]
        t = theirs.get("str") if theirs.get("ok") else theirs.get("error", {}).get("message", "")[:120]
        return f"verdict ours={'ok' if ours.get('ok') else 'error'}:{o!r} puppet={'ok' if theirs.get('ok') else 'error'}:{t!r}"
    if not ours.get("ok"):
        return None
    if ours.get("str") != theirs.get("str"):
        return f"str ours={ours.get('str')!r} puppet={theirs.get('str')!r}"
    if ours.get("type") != theirs.get("type"):
        return f"type ours={ours.get('type')!r} puppet={theirs.get('type')!r}"
    return None


_ADDRESS = re.compile(r"#<[A-Z][\w:]*:0x[0-9a-f]+")


def _logs(res: dict) -> list:
    """The comparable log lines: deprecation notes are logged once per Puppet process (the
    oracle runs many programs in one), and Ruby object addresses differ from run to run."""
    out = []
    for entry in res.get("logs", []):
        msg = entry.get("message", "")
        if "deprecated" in msg or _ADDRESS.search(msg) or \
                entry.get("issue_code") == "SERIALIZATION_UNKNOWN_CONVERTED_TO_STRING":
            continue
        out.append((entry.get("level"), msg, entry.get("source"), entry.get("line"),
                    entry.get("pos"), entry.get("issue_code")))
    return out


def compare_detail(ours: dict, theirs: dict) -> str | None:
    """For programs whose verdicts agree: error message, issue code and log lines."""
    if not ours.get("ok") and not theirs.get("ok"):
        oe, te = ours.get("error", {}), theirs.get("error", {})
        if oe.get("message") != te.get("message"):
            return f"message ours={oe.get('message')!r} puppet={te.get('message')!r}"
        if oe.get("issue_code") != te.get("issue_code"):
            return f"issue_code ours={oe.get('issue_code')!r} puppet={te.get('issue_code')!r}"
    if _logs(ours) != _logs(theirs):
        return f"logs ours={_logs(ours)!r} puppet={_logs(theirs)!r}"
    return None


def test_differential_against_puppet():
    reqs = generate()
    with _oracle() as oracle:
        answers = oracle.many([{"op": "eval", **{k: v for k, v in r.items() if k != "family"}}
                               for r in reqs])
    per = collections.Counter()
    agree = collections.Counter()
    exact = collections.Counter()   # also the same message, issue code and logs
    disagreements = []
    details: list = []
    for req, theirs in zip(reqs, answers):
        ours = run_request({k: v for k, v in req.items() if k != "family"})
        fam = req["family"]
        per[fam] += 1
        diff = compare(ours, theirs)
        if diff is None:
            agree[fam] += 1
            detail = compare_detail(ours, theirs)
            if detail is None:
                exact[fam] += 1
            else:
                details.append(f"{json.dumps(req['src'])}\t{req['strict']}\t{detail}")
        else:
            disagreements.append(f"{json.dumps(req['src'])}\t{req['strict']}\t{diff}")
    total = len(reqs)
    for fam in per:
        print(f"{fam:16} {agree[fam]:4}/{per[fam]}  exact {exact[fam]:4}/{per[fam]}")
    rate = sum(agree.values()) / total
    print(f"differential: {sum(agree.values())}/{total} agree ({rate:.2%}) on verdict, value "
          f"and type; {sum(exact.values())}/{total} ({sum(exact.values()) / total:.2%}) also on "
          "error message, issue code and logs")
    if os.environ.get("UPDATE_EXPECT"):
        KNOWN.write_text("".join(d.split("\t")[0] + "\t" + d.split("\t")[1] + "\n"
                                 for d in sorted(disagreements)))
        KNOWN_DETAILS.write_text("".join("\t".join(d.split("\t")[:2]) + "\n"
                                         for d in sorted(set(details))))
        return
    assert total >= 2000
    assert rate >= 0.97, f"agreement {rate:.2%} is below 97%"
    known = set(KNOWN.read_text().splitlines()) if KNOWN.exists() else set()
    new = [d for d in disagreements if "\t".join(d.split("\t")[:2]) not in known]
    assert not new, "new disagreements with Puppet:\n" + "\n".join(new[:40])
    known_details = set(KNOWN_DETAILS.read_text().splitlines()) if KNOWN_DETAILS.exists() else set()
    new_details = [d for d in details if "\t".join(d.split("\t")[:2]) not in known_details]
    assert not new_details, ("new message/log disagreements with Puppet:\n"
                             + "\n".join(new_details[:40]))
