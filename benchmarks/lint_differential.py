#!/usr/bin/env python3
"""Differential of puppet-ls's style checks against puppet-lint on the corpus.

puppet-lint runs once with every check on (the four off by default are switched on, no
--only-checks), its JSON is cached (default /tmp/puppet-lint-corpus.json; --refresh runs it
again), and puppet-ls runs every check through the engine behind `puppet-ls check`
(``file_diagnostics`` with control comments).  Findings are compared by (file, line, check
name) as multisets: a line where puppet-lint reports two findings of a check needs two.

    python3 benchmarks/lint_differential.py [--cache FILE] [--refresh] [--files LIST] [--show N]

Prints matched / missed / extra per check with ratios, the totals against the targets (>= 99%
of puppet-lint's findings matched; extras <= 1% of its total), and every remaining difference
with the reason recorded for it in KNOWN (or "unexplained").
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import corpus_files, read_texts

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.lint import CHECKS, all_checks
from puppet_ls.language.syntax.lines import LineIndex

# puppet-lint 4 made these core; 3.0.1 (Debian's) does not have them, so they are counted
# apart, not compared.
NEWER_THAN_3 = frozenset({"legacy_facts", "top_scope_facts"})
# The Vox Pupuli plugin checks (language/lint/plugins_*.py): Debian's puppet-lint has none of
# their gems, so they are neither asked of it nor compared.
PLUGINS = frozenset(name for name, c in CHECKS.items() if c.family.startswith("plugins_"))
OFF_BY_DEFAULT = sorted(name for name, c in CHECKS.items()
                        if not c.enabled and name not in NEWER_THAN_3 | PLUGINS)

# Differences understood, by (check, path suffix, line): the reason is printed beside them.
# Categories are described in benchmarks/README.md ("lint differential").
KNOWN: dict[tuple[str, str, int], str] = {}


def run_puppet_lint(files: list[str], cache: str) -> None:
    exe = shutil.which("puppet-lint")
    if exe is None:
        sys.exit("puppet-lint is not installed (apt-get install puppet-lint)")
    args = [exe, "--json"] + [f"--{name}-check" for name in OFF_BY_DEFAULT] + files
    t0 = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    print(f"puppet-lint: {time.perf_counter() - t0:.1f} s wall", file=sys.stderr)
    with open(cache, "w", encoding="utf-8") as f:
        f.write(out.stdout)


def puppet_lint_findings(cache: str) -> Counter:
    with open(cache, encoding="utf-8") as f:
        data = json.load(f)
    found: Counter = Counter()
    for per_file in data:
        for p in per_file:
            if p.get("kind") == "ignored":
                continue
            found[(p["path"], int(p["line"]), str(p["check"]))] += 1
    return found


def puppet_ls_findings(files: list[str]) -> tuple[Counter, float]:
    checks = all_checks() - PLUGINS
    found: Counter = Counter()
    t0 = time.perf_counter()
    for path, text in zip(files, read_texts(files)):
        result = parse_for_path(text, path)
        index = LineIndex(text)
        for d in file_diagnostics(result, None, path=path, lint=checks):
            if d.code in checks:
                found[(path, index.position(d.offset)[0] + 1, d.code)] += 1
    return found, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", default="/tmp/puppet-lint-corpus.json")
    ap.add_argument("--refresh", action="store_true", help="run puppet-lint again")
    ap.add_argument("--files", help="a list of files (default: the shared corpus)")
    ap.add_argument("--show", type=int, default=20, help="differences shown per check and side")
    args = ap.parse_args()
    files = corpus_files(args.files)
    if not files:
        sys.exit("no corpus files found")
    if args.refresh or not os.path.exists(args.cache):
        run_puppet_lint(files, args.cache)
    theirs = puppet_lint_findings(args.cache)
    ours, seconds = puppet_ls_findings(files)
    newer = Counter()
    for key in [k for k in ours if k[2] in NEWER_THAN_3]:
        newer[key[2]] += ours.pop(key)
    names = sorted({k[2] for k in theirs} | {k[2] for k in ours})
    per: dict[str, list[int]] = {}
    missed: dict[str, list] = defaultdict(list)
    extra: dict[str, list] = defaultdict(list)
    for key in set(theirs) | set(ours):
        a, b = theirs.get(key, 0), ours.get(key, 0)
        row = per.setdefault(key[2], [0, 0, 0, 0])
        row[0] += a
        row[1] += min(a, b)
        row[2] += max(a - b, 0)
        row[3] += max(b - a, 0)
        if a > b:
            missed[key[2]].append((key, a - b))
        if b > a:
            extra[key[2]].append((key, b - a))
    print(f"{'check':36} {'puppet-lint':>11} {'matched':>8} {'missed':>7} {'extra':>6} {'matched%':>9}")
    total = [0, 0, 0, 0]
    for name in names:
        row = per.get(name, [0, 0, 0, 0])
        total = [x + y for x, y in zip(total, row)]
        ratio = f"{100 * row[1] / row[0]:.1f}" if row[0] else "-"
        print(f"{name:36} {row[0]:11} {row[1]:8} {row[2]:7} {row[3]:6} {ratio:>9}")
    ratio = 100 * total[1] / total[0] if total[0] else 100.0
    extra_ratio = 100 * total[3] / total[0] if total[0] else 0.0
    print(f"{'total':36} {total[0]:11} {total[1]:8} {total[2]:7} {total[3]:6} {ratio:9.2f}")
    print(f"\nmatched {ratio:.2f}% of puppet-lint's findings (target >= 99%); "
          f"extras {extra_ratio:.2f}% of its total (target <= 1%); "
          f"puppet-ls {seconds:.1f} s for {len(files)} files")
    for name, n in sorted(newer.items()):
        print(f"not compared ({name} is not a puppet-lint 3.0.1 check): {n} findings")
    for label, table in (("missed (puppet-lint only)", missed), ("extra (puppet-ls only)", extra)):
        for name in sorted(table):
            items = sorted(table[name])
            print(f"\n{label}: {name} ({sum(n for _, n in items)})")
            for (path, line, check), n in items[:args.show]:
                reason = next((why for (c, suffix, ln), why in KNOWN.items()
                               if c == check and ln == line and path.endswith(suffix)), "unexplained")
                print(f"  {path}:{line} x{n}  {reason}")
    sys.exit(0 if ratio >= 99 and extra_ratio <= 1 else 1)


if __name__ == "__main__":
    main()
