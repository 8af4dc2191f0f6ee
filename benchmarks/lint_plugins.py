#!/usr/bin/env python3
"""What the Vox Pupuli plugin checks find on the corpus and what they cost: findings and files
per check (how loud each would be if a team turned it on), and the CPU time of the lint engine
with the default checks, with the plugin checks alone and with every check, in the same run.

    python3 benchmarks/lint_plugins.py [--files LIST]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import corpus_files, read_texts

from puppet_ls.language.lint import CHECKS, all_checks, default_enabled, lint
from puppet_ls.language.syntax.parser import parse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files")
    args = ap.parse_args()
    files = [f for f in corpus_files(args.files) if f.endswith(".pp")]
    parsed = [(path, parse(text)) for path, text in zip(files, read_texts(files))]
    plugins = frozenset(n for n, c in CHECKS.items() if c.family.startswith("plugins_"))
    findings: Counter = Counter()
    in_files: Counter = Counter()
    for path, result in parsed:
        codes = [d.code for d in lint(result, path, plugins)]
        findings.update(codes)
        in_files.update(set(codes))
    print(f"{len(parsed)} manifests, {len(plugins)} plugin checks (off by default)")
    for name in sorted(plugins):
        print(f"  {name:52} {findings[name]:6} findings in {in_files[name]:5} files")
    for label, enabled in (("default checks", default_enabled()), ("plugin checks", plugins),
                           ("every check", all_checks())):
        t0 = time.process_time()
        for path, result in parsed:
            lint(result, path, enabled)
        print(f"lint engine, {label:15} {time.process_time() - t0:6.2f} s CPU")


if __name__ == "__main__":
    main()
