#!/usr/bin/env python3
"""Rename round trip over corpus modules (issue 17, acceptance 2): for every class, defined
type and variable (parameters, assignments, lambda parameters) defined in the chosen modules,
rename it (``x`` -> ``x_rn``) with the whole modulepath as the workspace, check that the renamed
workspace has no new diagnostics, rename it back from where its name now is, and check that
every file is restored byte for byte.

Prints the counts per kind (renamed and restored, refused with each reason, failed) and every
failure.  "New diagnostics" compares, file by file, the number of findings of each code of
``file_diagnostics`` (syntax, validation, static checks against the index; style checks left
out: a longer name may move an arrow or pass 140 characters, and a class renamed away from its
file breaks autoloader_layout by design, since rename moves no file), in every file the rename
edited and every file that spells the old name.

    python3 benchmarks/rename_roundtrip.py [--modules apt,concat,...] [--modulepath DIR] [--limit N]
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import rename as R
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.ide.index import PUPPET_ROLES, index_source
from puppet_ls.server.workspace import build_index, read_text

DEFAULT_MODULES = "apt,concat,haproxy,logrotate,memcached,mysql,ntp,postgresql,redis,rsync"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", default=DEFAULT_MODULES, help="comma-separated module names")
    ap.add_argument("--modulepath", default="/usr/share/puppet/modules")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many symbols (0: all)")
    args = ap.parse_args()
    if not os.path.isdir(args.modulepath):
        print(f"no modulepath at {args.modulepath}: nothing to measure")
        return 0
    t0 = time.perf_counter()
    index = build_index([], [args.modulepath])
    texts: dict = {}

    def source(path: str):
        if path not in texts:
            texts[path] = read_text(path)
        return texts[path]

    modules = [m for m in args.modules.split(",") if m]
    targets = symbols_of(index, source, modules)
    print(f"workspace: {len(index.files)} files of {len(index.module_roots)} modules indexed in "
          f"{time.perf_counter() - t0:.1f} s; modules: {', '.join(modules)}; symbols: {len(targets)}")
    if args.limit:
        targets = targets[:args.limit]

    t1 = time.perf_counter()
    counts, failures = run(index, source, texts, targets)
    print(f"renamed in {time.perf_counter() - t1:.1f} s")
    for line in report(counts, failures):
        print(line)
    return 1 if failures else 0


def report(counts: dict, failures: list) -> list:
    """The counts per kind and in total, each refusal reason with its count, every failure."""
    out = []
    total: collections.Counter = collections.Counter()
    for kind in ("class", "define", "variable"):
        c = counts[kind]
        total.update({k: v for k, v in c.items() if not k.startswith("refused: ")})
        n = sum(v for k, v in c.items() if not k.startswith("refused: "))
        out.append(f"{kind:9} {n:5} symbols: {c['ok']} renamed and restored with no new diagnostics, "
                   f"{c['refused']} refused, {sum(v for k, v in c.items() if k.startswith('FAIL'))} failed")
        for k, v in sorted(c.items()):
            if k.startswith("refused: "):
                out.append(f"{'':9} {v:5} {k}")
    n = sum(total.values())
    out.append(f"total     {n:5} symbols: {total['ok']} ok, {total['refused']} refused, "
               f"{sum(v for k, v in total.items() if k.startswith('FAIL'))} failed")
    return out + failures


def symbols_of(index, source, modules: list) -> list:
    """The symbols of every Puppet file of ``modules`` in the index, in path order."""
    out = []
    for path, entry in sorted(index.files.items()):
        if entry.module in modules and entry.role in PUPPET_ROLES and path.endswith(".pp"):
            text = source(path)
            if text is not None:
                out += _symbols(path, text)
    return out


def run(index, source, texts: dict, targets: list) -> tuple:
    """Round-trip every target: ({kind: Counter of outcomes}, [failure lines]).  ``source``
    reads a file's text into ``texts``, which the round trips edit and restore."""
    cache: dict = {}
    diag_cache: dict = {}
    counts: dict = collections.defaultdict(collections.Counter)
    failures: list = []
    for kind, path, offset, name in targets:
        outcome, detail = _round_trip(index, source, texts, cache, diag_cache, path, offset, name)
        counts[kind][outcome] += 1
        if outcome.startswith("FAIL"):
            failures.append(f"{outcome} {kind} {name} at {path}@{offset}: {detail}")
        elif outcome.startswith("refused"):
            counts[kind]["refused: " + detail] += 1
    return counts, failures


def _symbols(path: str, text: str) -> list:
    """(kind, path, offset of the name, name) of every class, defined type and variable a file
    defines (one per variable of a scope: its first definition)."""
    from puppet_ls.language.check.scopes import FileModel
    from puppet_ls.language.ide.rename import _name_token
    model = FileModel(parse_for_path(text, path))
    out = []
    for n in model.named:
        if n.kind in ("class", "define"):
            tok = _name_token(n)
            if tok is not None:
                out.append((n.kind, path, tok.offset + len(tok.text) - len(tok.text.lstrip(":")), n.name.lstrip(":")))
    seen = set()
    for d in model.definitions:
        key = (id(d.scope), d.name)
        if key in seen:
            continue
        seen.add(key)
        out.append(("variable", path, d.offset + 1, d.name))
    return out


def _diagnostics(index, path: str, text: str, diag_cache: dict, key) -> collections.Counter:
    hit = diag_cache.get((path, key))
    if hit is not None and hit[0] == text:
        return hit[1]
    result = parse_for_path(text, path)
    codes = collections.Counter(d.code for d in file_diagnostics(result, index, analyze(result, index), path=path))
    diag_cache[(path, key)] = (text, codes)
    return codes


def _round_trip(index, source, texts, cache, diag_cache, path, offset, name) -> tuple:
    text = source(path)
    an = analyze(parse_for_path(text, path), index)
    new = name.rpartition("::")[0] + "::" + name.rpartition("::")[2] + "_rn" if "::" in name else name + "_rn"
    try:
        edits = R.rename(an, offset, new, source, path, cache)
    except Exception as exc:  # noqa: BLE001 - a benchmark reports a crash as a failure and goes on
        return "FAIL crash", repr(exc)
    if isinstance(edits, R.Refusal):
        return "refused", edits.message.split(" (")[0].replace(name, "X").replace("$X", "X")
    by_file: dict = collections.defaultdict(list)
    for e in edits:
        by_file[e.path or path].append(e)
    originals = {p: texts[p] if p in texts else source(p) for p in by_file}
    entries = {p: index.files.get(p) for p in by_file}
    # the files a missed use would show in: edited ones and those spelling the old name
    low = name.lower()
    # (Puppet files only: an ERB template's `@name` edits are checked by the byte comparison)
    watch = {p for p in by_file if p.endswith(".pp")} | {p for p, e in index.files.items()
                                                         if e.role in PUPPET_ROLES and low in (source(p) or "").lower()}
    before = {p: _diagnostics(index, p, source(p), diag_cache, "before") for p in watch}
    try:
        for p, es in by_file.items():
            texts[p] = R.apply_edits(originals[p], es)
            entry = entries[p]
            if entry is not None:
                index.add(index_source(p, texts[p], entry.module, entry.role))
        after = {p: _diagnostics(index, p, source(p), diag_cache, "after") for p in watch}
        new_diags = []
        for p in watch:
            grown = after[p] - before[p]
            if grown:
                new_diags.append(f"{p}: {dict(grown)}")
        at = R.moved_offset(offset, sorted(by_file.get(path, []), key=lambda e: e.start))
        back = R.rename(analyze(parse_for_path(texts[path], path), index), at, name, source, path, cache)
        if isinstance(back, R.Refusal):
            return "FAIL rename back refused", back.message
        back_by_file: dict = collections.defaultdict(list)
        for e in back:
            back_by_file[e.path or path].append(e)
        differs = []
        for p in set(by_file) | set(back_by_file):
            restored = R.apply_edits(texts[p] if p in texts else source(p), back_by_file.get(p, []))
            if restored != originals.get(p, source(p)):
                differs.append(p)
    finally:
        for p in by_file:
            texts[p] = originals[p]
            if entries[p] is not None:
                index.add(entries[p])
    if differs:
        return "FAIL not restored", ", ".join(sorted(differs))
    if new_diags:
        return "FAIL new diagnostics", "; ".join(new_diags)
    return "ok", ""


if __name__ == "__main__":
    sys.exit(main())
