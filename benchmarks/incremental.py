#!/usr/bin/env python3
"""Latency of an incremental reparse after a one-character edit in a ~2,000-line file,
against a full reparse of the same text, in one run.

The file is built by concatenating corpus files chosen with a fixed seed (or given with
--file).  Three edit workloads, each edit applied to a parsed base:

* ``insert letter``  one letter typed inside a word (name, variable, string text);
* ``delete char``    one non-blank character deleted anywhere (may break the syntax);
* ``typing``         a six-letter word typed one keystroke at a time, each reparse starting
                     from the previous incremental result (what an editor really does).

Every incremental result is compared with ``parse(new_text)`` outside the timed region; a
mismatch is a bug in the incremental parser and is counted.  Times are wall-clock
(time.perf_counter), which is what a user waiting for diagnostics experiences.

    python3 benchmarks/incremental.py [--edits 200] [--lines 2000] [--seed 7] [--file PATH]
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import corpus_files, count_lines, read_texts

from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax.lexer import lex
from puppet_ls.language.syntax.parser import parse

_WORD_KINDS = frozenset({K.NAME, K.VARIABLE, K.STRING_TEXT, K.STRING, K.CLASSREF})


def build_text(paths: list[str], lines: int, seed: int) -> tuple[str, list[str]]:
    """Concatenate seeded-random corpus files of at most 400 lines until ``lines`` is reached
    (small files so the result holds many definitions, like a real edited manifest)."""
    rng = random.Random(seed)
    order = sorted(paths)
    rng.shuffle(order)
    parts: list[str] = []
    used: list[str] = []
    total = 0
    for p, t in zip(order, read_texts(order)):
        n = count_lines(t)
        if n > 400 or parse(t).errors:
            continue
        parts.append(t if t.endswith("\n") else t + "\n")
        used.append(p)
        total += n
        if total >= lines:
            break
    return "".join(parts), used


def _word_sites(text: str) -> list[int]:
    """Offsets strictly inside word-like tokens, where inserting a letter keeps the token a token
    of the same kind (after the '$' of a variable, after the opening quote of a string)."""
    sites = []
    for kind, tok, off, _trivia in lex(text).tokens:
        if kind in _WORD_KINDS and len(tok) >= 3:
            sites.append(off + len(tok) // 2)
    return sites


def _timed(fn, *args):
    gc.collect()  # garbage of the previous edit is not billed to this one
    t0 = time.perf_counter()
    r = fn(*args)
    return time.perf_counter() - t0, r


def _same(a, b) -> bool:
    ea = [(e.offset, e.end, e.code) for e in a.errors]
    eb = [(e.offset, e.end, e.code) for e in b.errors]
    return a.green == b.green and ea == eb and a.green.text() == b.text


def _stats(ms: list[float], full_median: float | None = None) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    out = f"median {statistics.median(ms):7.3f} ms   p90 {p90:7.3f} ms   max {ms[-1]:7.3f} ms   (n={len(ms)})"
    if full_median is not None:
        # An edit costing half a full parse or more almost certainly fell back to one.
        slow = sum(1 for m in ms if m >= full_median / 2)
        out += f"   >= half a full parse: {slow}"
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=200, help="edits per workload")
    ap.add_argument("--lines", type=int, default=2000, help="size of the concatenated file")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--full-runs", type=int, default=30, help="full reparses timed (median reported)")
    ap.add_argument("--file", help="benchmark this file instead of a concatenation of corpus files")
    ns = ap.parse_args(argv)

    if ns.file:
        text = read_texts([ns.file])[0]
        print(f"file: {ns.file}")
    else:
        paths = corpus_files()
        if not paths:
            print("no corpus files found; install them with ../shared/corpus/corpus.sh, or pass --file")
            return 0
        text, used = build_text(paths, ns.lines, ns.seed)
        print(f"file: {len(used)} corpus files concatenated (seed {ns.seed})")
    base = parse(text)
    print(f"      {count_lines(text)} lines, {len(text)} characters, {len(base.errors)} syntax errors")

    full = [_timed(parse, text)[0] * 1000 for _ in range(ns.full_runs)]
    full_med = statistics.median(full)
    print(f"full reparse        {_stats(full)}")

    try:
        from puppet_ls.language.syntax.incremental import reparse
    except Exception as exc:  # noqa: BLE001 - any failure to import means "not there yet"
        print(f"incremental reparse not available ({type(exc).__name__}: {exc})")
        return 0

    rng = random.Random(ns.seed)
    word_sites = _word_sites(text)
    nonblank = [i for i, c in enumerate(text) if not c.isspace()]
    letters = "abcdefghijklmnopqrstuvwxyz"

    workloads: dict[str, list[tuple[int, int, str]]] = {
        "insert letter": [(s, s, rng.choice(letters)) for s in rng.sample(word_sites, min(ns.edits, len(word_sites)))],
        "delete char": [(s, s + 1, "") for s in rng.sample(nonblank, min(ns.edits, len(nonblank)))],
    }
    mismatches: dict[str, list] = {}
    median_by_name: dict[str, float] = {}
    for name, edits in workloads.items():
        ms = []
        bad = []
        for start, end, new in edits:
            t, r = _timed(reparse, base, start, end, new)
            ms.append(t * 1000)
            new_text = text[:start] + new + text[end:]
            if not _same(r, parse(new_text)):
                bad.append((start, end, new))
        median_by_name[name] = statistics.median(ms)
        mismatches[name] = bad
        print(f"{name:<19} {_stats(ms, full_med)}")

    # Typing: each keystroke's reparse starts from the previous keystroke's incremental result.
    ms = []
    bad = []
    sessions = max(1, ns.edits // 6)
    for site in rng.sample(word_sites, min(sessions, len(word_sites))):
        cur = base
        for k, ch in enumerate("abcdef"):
            t, nxt = _timed(reparse, cur, site + k, site + k, ch)
            ms.append(t * 1000)
            if not _same(nxt, parse(nxt.text)):
                bad.append((site + k, site + k, ch))
            cur = nxt
    median_by_name["typing"] = statistics.median(ms)
    mismatches["typing"] = bad
    print(f"{'typing':<19} {_stats(ms, full_med)}")

    print()
    for name, m in median_by_name.items():
        print(f"{name:<19} {full_med / m:6.1f}x faster than a full reparse (medians)")
    target = median_by_name["insert letter"]
    print(f"target: one-character edit under 5 ms median: {'met' if target < 5 else 'MISSED'} ({target:.3f} ms)")
    total_bad = sum(len(v) for v in mismatches.values())
    print(f"results different from a full parse: {total_bad}")
    for name, bad in mismatches.items():
        for start, end, new in bad[:5]:
            line = text.count("\n", 0, start) + 1
            print(f"  {name}: replace [{start},{end}) (line {line}) with {new!r}: "
                  f"context {text[max(0, start - 30):end + 30]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
