#!/usr/bin/env python3
"""Issue 13, acceptance 3: incremental reparse of a 7,000-line file after every kind of
one-character edit, including the ones that unbalance quotes and brackets.

The file is built reproducibly (seeded choice of corpus files, as benchmarks/incremental.py
does).  For each character of ``' " { } [ ( |`` (and a letter, as a control) it times
``reparse(base, p, p, ch)`` at ``--positions`` random positions (fixed seed), and a one-character
delete of each occurrence of that character at up to ``--positions`` random places where it is
found.  Every result is compared with ``parse(new_text)`` outside the timed region (tree,
errors with positions and messages, multi-line strings).  A full parse of the same file is timed
in the same run as the peer.

    python3 benchmarks/incremental_chars.py [--lines 7000] [--positions 500] [--seed 13] [--chars "'\\"{}[(|"]

Prints per edit kind: median, p99, max (ms), the ratio of the full-parse median to the median,
and the number of results different from a full parse; then whether the acceptance (median
<= 5 ms, p99 <= 20 ms, 0 differences) is met.  Exit status 1 when it is not.
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
from _corpus import corpus_files, count_lines
from incremental import build_text

from puppet_ls.language.syntax.incremental import reparse
from puppet_ls.language.syntax.parser import parse
from puppet_ls.language.syntax.validate import validate

MEDIAN_MS = 5.0
P99_MS = 20.0


def same(a, b) -> bool:
    """Equal as a full parse: tree (kinds, shape, every token's text), errors with their
    positions and messages, the multi-line and runaway strings the recovery looks at, and
    where brace pairing read the braces by the indentation."""
    ea = [(e.offset, e.end, e.code, e.message, e.hint) for e in a.errors]
    eb = [(e.offset, e.end, e.code, e.message, e.hint) for e in b.errors]
    return a.green == b.green and ea == eb and a.text == b.text and \
        (tuple(a.multiline_strings), tuple(a.runaways), a.recovered, a.pairing) == \
        (tuple(b.multiline_strings), tuple(b.runaways), b.recovered, b.pairing)


def _timed(fn, *args):
    t0 = time.perf_counter()
    r = fn(*args)
    return (time.perf_counter() - t0) * 1000, r


def _p(ms: list[float], q: float) -> float:
    ms = sorted(ms)
    return ms[min(len(ms) - 1, int(len(ms) * q))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=7000)
    ap.add_argument("--positions", type=int, default=500, help="edits per character and kind")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--chars", default="'\"{}[(|x")
    ap.add_argument("--full-runs", type=int, default=9)
    ap.add_argument("--show", type=int, default=3, help="differences printed per edit kind")
    ns = ap.parse_args(argv)

    paths = corpus_files()
    if not paths:
        print("no corpus files found; install them with ../shared/corpus/corpus.sh")
        return 0
    text, used = build_text(paths, ns.lines, 7)
    base = parse(text)
    # The server's analysis of a revision asks every node's width (its offsets) and validates
    # it (its diagnostics), so an edit reaches a tree whose widths are known and whose
    # statements' findings are kept (what the runaway-string recovery reuses); both are done
    # here before anything is timed.
    _ = base.green.width
    validate(base)
    print(f"file: {len(used)} corpus files concatenated (seed 7), {count_lines(text)} lines, "
          f"{len(text)} characters, {len(base.errors)} syntax errors")
    gc.collect()
    full = [_timed(parse, text)[0] for _ in range(ns.full_runs)]
    full_med = statistics.median(full)
    print(f"full parse: median {full_med:.2f} ms (n={ns.full_runs})")
    print(f"{'edit':<12} {'median':>8} {'p99':>8} {'max':>8} {'full/med':>9} {'differ':>7}  n")

    rng = random.Random(ns.seed)
    failed = False
    bad_examples = []
    for ch in ns.chars:
        inserts = [(p, p, ch) for p in (rng.randrange(len(text) + 1) for _ in range(ns.positions))]
        where = [i for i, c in enumerate(text) if c == ch]
        deletes = [(p, p + 1, "") for p in rng.sample(where, min(ns.positions, len(where)))]
        for label, edits in ((f"insert {ch}", inserts), (f"delete {ch}", deletes)):
            if not edits:
                continue
            ms = []
            differ = 0
            for start, end, new in edits:
                t, r = _timed(reparse, base, start, end, new)
                ms.append(t)
                full_r = parse(text[:start] + new + text[end:])
                if not same(r, full_r):
                    differ += 1
                    if len(bad_examples) < ns.show * 20:
                        bad_examples.append((label, start, text[max(0, start - 40):start + 40]))
            med = statistics.median(ms)
            p99 = _p(ms, 0.99)
            ok = med <= MEDIAN_MS and p99 <= P99_MS and differ == 0
            failed |= not ok
            print(f"{label:<12} {med:8.2f} {p99:8.2f} {max(ms):8.2f} {full_med / med:8.1f}x {differ:7d}  {len(ms)}"
                  f"{'' if ok else '   MISSED'}")
    for label, start, ctx in bad_examples:
        print(f"  differs: {label} at {start} (line {text.count(chr(10), 0, start) + 1}): {ctx!r}")
    print(f"acceptance (median <= {MEDIAN_MS} ms, p99 <= {P99_MS} ms, equal to a full parse): "
          f"{'MISSED' if failed else 'met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
