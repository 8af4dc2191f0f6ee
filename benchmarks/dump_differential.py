#!/usr/bin/env python3
"""Is `puppet-ls parse --dump --format puppet` the same text as `puppet parser dump`, file by
file, over the corpus?  Both are run here, in the same run: Puppet over the files in batches
(one Ruby process per batch, its output split at Puppet's `--- PATH` headers), puppet-ls in
process.  Prints how many files are byte-for-byte equal, every file that differs with the first
difference in context, and both wall times.

    python3 benchmarks/dump_differential.py [--files LIST] [--batch 500] [--show 20]

Exit status 1 when a file differs (or Puppet is missing: status 2).  Puppet's own dumper quirks
are reproduced on purpose (see language/syntax/puppet_format.py): the line-wise spacing rule,
`:nop` for an empty program, case bodies kept as blocks, hyphenated words as strings, collector
operations left out (a Puppet dumper bug, printed in full with ``puppet_dump(complete=True)``).
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpus import corpus_files, read_texts

from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.syntax.puppet_format import puppet_dump


def puppet_dumps(paths: list[str], batch: int) -> dict[str, str]:
    """path -> what `puppet parser dump` printed for it (text after its `--- PATH` header)."""
    out: dict[str, str] = {}
    for i in range(0, len(paths), batch):
        chunk = paths[i:i + batch]
        raw = subprocess.run(["puppet", "parser", "dump", *chunk], capture_output=True, check=False).stdout
        text = raw.decode("utf-8", errors="replace")
        # Headers are found in order, by the exact paths given, so a file whose dump happens
        # to contain '--- ' cannot split another.
        starts = []
        pos = 0
        for p in chunk:
            at = text.find(f"--- {p}", pos)
            if at < 0:
                continue
            starts.append((p, at, at + len(p) + 4))
            pos = at + len(p) + 4
        for k, (p, _at, body) in enumerate(starts):
            end = starts[k + 1][1] if k + 1 < len(starts) else len(text)
            out[p] = text[body:end]
    return out


def first_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", help="a file listing the .pp files (default: the shared corpus list)")
    ap.add_argument("--batch", type=int, default=500, help="files per Puppet process")
    ap.add_argument("--show", type=int, default=20, help="differing files to print")
    args = ap.parse_args()
    if shutil.which("puppet") is None:
        print("puppet is not installed (apt-get install puppet-agent)", file=sys.stderr)
        return 2
    paths = corpus_files(args.files)
    if not paths:
        print("no corpus files (see ../shared/corpus/README.md)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    theirs = puppet_dumps(paths, args.batch)
    t_puppet = time.perf_counter() - t0
    t0 = time.perf_counter()
    ours = {p: puppet_dump(parse_for_path(text, p).root) for p, text in zip(paths, read_texts(paths))}
    t_ours = time.perf_counter() - t0
    compared = [p for p in paths if p in theirs]
    differ = [p for p in compared if ours[p].strip() != theirs[p].strip()]
    for p in differ[:args.show]:
        a, b = ours[p].strip(), theirs[p].strip()
        i = first_difference(a, b)
        print(f"differs: {p}\n  puppet-ls: {a[max(0, i - 60):i + 40]!r}\n  puppet:    {b[max(0, i - 60):i + 40]!r}")
    equal = len(compared) - len(differ)
    print(f"{equal} of {len(compared)} files dump exactly as `puppet parser dump` prints them "
          f"({100 * equal / max(1, len(compared)):.2f}%); {len(paths) - len(compared)} without a Puppet dump")
    print(f"wall: puppet parser dump {t_puppet:.1f} s, puppet-ls {t_ours:.1f} s "
          f"({t_puppet / max(t_ours, 1e-9):.1f}x)")
    return 1 if differ or len(compared) < len(paths) else 0


if __name__ == "__main__":
    sys.exit(main())
