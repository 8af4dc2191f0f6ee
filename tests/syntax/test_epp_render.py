"""EPP templates render as Puppet 7 renders them (text, tags, trimming, escapes): the expected
outputs in fixtures/syntax/epp_render.jsonl were recorded from the real Puppet."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from puppet_ls.language.eval import run_request

CASES = [json.loads(l) for l in (Path(__file__).resolve().parents[2] / "fixtures/syntax/epp_render.jsonl").read_text().splitlines() if l.strip()]


@pytest.mark.parametrize("case", CASES, ids=[repr(c["template"])[:40] for c in CASES])
def test_render(case) -> None:
    src = f"inline_epp({json.dumps(case['template'])}" + (f", {case['args']})" if case["args"] else ")")
    res = run_request({"src": src.replace("$", "\\$")})
    assert (res.get("str") if res.get("ok") else None) == case["puppet"], res
