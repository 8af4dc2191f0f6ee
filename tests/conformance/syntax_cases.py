"""Run the lex, lex_epp, parse and validate cases of ../shared/conformance against puppet-ls.

Each case is turned into the outcome dict that the corpus's own check.py understands; this
module only produces outcomes, the verdict is check.py's.
"""
from __future__ import annotations

import bisect
import importlib.util
import json
import os
from pathlib import Path

from puppet_ls.language.syntax.parser import parse
from puppet_ls.language.syntax.puppet_format import puppet_dump, puppet_tokens

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PUPPET_LS_SHARED", REPO.parent / "shared"))
CONFORMANCE = SHARED / "conformance"
SYNTAX_MODES = ("lex", "lex_epp", "parse", "validate")


def load_check():
    spec = importlib.util.spec_from_file_location("conformance_check", CONFORMANCE / "check.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_cases(modes=SYNTAX_MODES) -> list[dict]:
    path = CONFORMANCE / "cases.jsonl"
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as fh:
        return [c for c in map(json.loads, filter(str.strip, fh)) if c["mode"] in modes]


def position_suffix(text: str, offset: int) -> str:
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    line = bisect.bisect_right(starts, offset)
    return f" (line: {line}, column: {offset - starts[line - 1] + 1})"


def outcome(case: dict) -> dict:
    src = case["source"]
    settings = case.get("settings") or {}
    tasks = bool(settings.get("tasks"))
    mode = case["mode"]
    if mode in ("lex", "lex_epp"):
        toks, errors = puppet_tokens(src, epp=mode == "lex_epp", tasks=tasks)
        if errors:
            e = errors[0]
            return {"error": e.message + position_suffix(src, e.offset), "phase": "parse"}
        return {"tokens": [[t[0], t[1], t[2]] for t in toks]}
    result = parse(src, tasks=tasks)
    errors = list(result.errors)
    if mode == "validate":
        from puppet_ls.language.syntax.validate import validate
        errors += [d for d in validate(result) if d.severity == "error"]
    if errors:
        errors.sort(key=lambda e: e.offset)
        msg = errors[0].message + position_suffix(src, errors[0].offset)
        if len(errors) > 1:
            msg = f"Found {len(errors)} errors: " + "; ".join(e.message + position_suffix(src, e.offset) for e in errors)
        return {"error": msg, "phase": "parse"}
    if "ast" in case["expect"]:
        return {"ast": puppet_dump(result.root)}
    return {"parsed": True}


if __name__ == "__main__":
    import collections
    import sys
    check = load_check()
    stats = collections.Counter()
    for case in load_cases():
        try:
            ok, why = check.check(case, outcome(case))
        except Exception as exc:  # noqa: BLE001 - a crash is a failure; show it
            ok, why = False, f"CRASH {type(exc).__name__}: {exc}"
        stats[(case["mode"], ok)] += 1
        if not ok and "-v" in sys.argv:
            print(json.dumps(case["source"]), "|", why[:300])
    print(sorted(stats.items()))
