"""Every issue code the evaluator raises is in the one registry of messages."""
from __future__ import annotations

import re
from pathlib import Path

from puppet_ls.language import messages

ROOT = Path(__file__).resolve().parents[2]
_CALL = re.compile(r"""(?:fail|EvalError|OpError|optionally_fail|BudgetExceeded|Diagnostic\.of)\(\s*(?:[a-z_]+,\s*)?"([A-Z][A-Z_]{3,})\"""")
_CODE_KW = re.compile(r"""code(?:=|\s*:\s*str\s*=\s*)"([A-Z][A-Z_]{3,})\"""")


def _codes() -> set:
    out = set()
    for p in (ROOT / "language/eval").rglob("*.py"):
        text = p.read_text()
        out.update(_CALL.findall(text))
        out.update(_CODE_KW.findall(text))
        out.update(re.findall(r'raise self\.fail\(\s*"([A-Z][A-Z_]{3,})"', text))
        out.update(re.findall(r'ev\.fail\(\s*"([A-Z][A-Z_]{3,})"', text))
    return out


def test_all_eval_codes_registered():
    registered = {i.code for i in messages.all_issues()}
    missing = sorted(c for c in _codes() if c not in registered)
    assert not missing, f"issue codes used by the evaluator but not registered: {missing}"
