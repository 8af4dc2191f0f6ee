#!/usr/bin/env python3
"""Differential of ``puppet-ls check --fix`` against ``puppet-lint --fix`` on the corpus.

Every corpus manifest is copied twice into a temporary directory; puppet-lint 3.0.1 fixes one
copy (one process, every check on, as benchmarks/lint_differential.py runs it) and puppet-ls
fixes the other with the function behind ``check --fix`` (``server.fix_cli.fix_file`` and its
atomic write, in process; every check on but ``legacy_facts`` and ``top_scope_facts``, which
3.0.1 does not have).  Then, per file:

* equal: the two fixed texts are the same;
* each difference gets a class with its reason (``classify``), or "unexplained";
* acceptance of puppet-ls's result: it parses (when the original did), its tree is the
  original's apart from the fixed literals (the dumps compared after ``normalise``, a check
  independent of the proof each fix passes), ``check`` on it reports none of the fixes it made
  and no fixable finding except those whose fix failed the proof, and fixing it again changes
  nothing.

    python3 benchmarks/lint_fix_differential.py [--files LIST] [--keep DIR] [--show N] [--every-check]

Exit status 0 when >= 99% of the files are equal and every acceptance check holds.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import corpus_files
from lint_differential import NEWER_THAN_3, OFF_BY_DEFAULT

from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.lint import all_checks
from puppet_ls.language.lint.fix import fix_text, fixable_findings
from puppet_ls.language.syntax.puppet_format import format_dump, puppet_dump_data
from puppet_ls.server.fix_cli import fix_file, write_atomic

ENABLED = all_checks() - NEWER_THAN_3


def copy_corpus(files: list[str], root: str) -> list[str]:
    out = []
    for i, path in enumerate(files):
        d = os.path.join(root, f"{i:05d}")
        os.makedirs(d, exist_ok=True)
        dest = os.path.join(d, os.path.basename(path))
        shutil.copyfile(path, dest)
        out.append(dest)
    return out


def run_puppet_lint(paths: list[str]) -> tuple[float, list[str]]:
    """Run puppet-lint --fix over ``paths``; returns the wall time and the files it crashed on
    (its "Whoops!" handler ends the whole run: the run goes on after the file that crashed)."""
    exe = shutil.which("puppet-lint")
    if exe is None:
        sys.exit("puppet-lint is not installed (apt-get install puppet-lint)")
    crashed = []
    t0 = time.perf_counter()
    todo = list(paths)
    while todo:
        chunk, todo = todo[:500], todo[500:]
        out = subprocess.run([exe, "--fix", "--json"] + [f"--{n}-check" for n in OFF_BY_DEFAULT] + chunk,
                             capture_output=True, text=True, errors="replace", check=False).stdout
        m = re.search(r"^file path: (.*)$", out, re.MULTILINE)
        if "Whoops!" in out and m and m.group(1) in chunk:
            crashed.append(m.group(1))
            todo = chunk[chunk.index(m.group(1)) + 1:] + todo
    return time.perf_counter() - t0, crashed


def read(path: str) -> str:
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


# ---- the independent tree comparison ---------------------------------------------------------

_MODE = re.compile(r"\A0?([0-7]{3})\Z")


def normalise(data):
    """A dump with what the fixes change made equal: quotes and case of words and strings,
    'modules/' in puppet:// URLs, 3-digit modes, "${x}" and $x, $::x and $facts['x'],
    'ensure => /path' and 'ensure => symlink, target => /path', and the order of a body's
    attributes."""
    if isinstance(data, str):
        s = data
        if len(s) >= 2 and s[0] == s[-1] == "'":
            s = s[1:-1]
        s = s.lower().replace("puppet:///modules/", "puppet:///").replace("/modules/", "/")
        m = _MODE.match(s)
        return m.group(1) if m else s
    if not isinstance(data, list):
        return None            # layout markers
    items = [normalise(x) for x in data]
    items = [x for x in items if x is not None]
    if len(items) == 2 and items[0] == "cat" and isinstance(items[1], list) and items[1][:1] == ["str"]:
        return items[1][1]
    if len(items) == 3 and items[:2] == ["slice", "$facts"] and isinstance(items[2], str):
        return "$::" + items[2]      # top_scope_facts: $::x is $facts['x']
    ops = [x for x in items if isinstance(x, list) and len(x) == 3 and x[1] in ("=>", "+>")]
    if len(ops) > 1:
        names = {x[0]: x for x in ops if isinstance(x[0], str)}
        if names.get("ensure", [None, None, None])[2] == "symlink" and "target" in names:
            ops.remove(names["target"])
            names["ensure"][2] = names["target"][2]
        rest = [x for x in items if not (isinstance(x, list) and len(x) == 3 and x[1] in ("=>", "+>"))]
        items = rest + sorted(ops, key=repr)
    return items


def same_tree(before: str, after: str, path: str) -> bool:
    a = parse_for_path(before, path)
    b = parse_for_path(after, path)
    if [e.code for e in a.errors] != [e.code for e in b.errors]:
        return False
    da, db = puppet_dump_data(a.root, complete=True), puppet_dump_data(b.root, complete=True)
    return format_dump(da) == format_dump(db) or normalise(da) == normalise(db)


# ---- classes of differences --------------------------------------------------------------------

STAR = "star_comments: puppet-lint copies the line break before a '/* */' comment as its indentation (blank lines between the '#' lines)"
VARIABLE_INDEX = ("variables_not_enclosed: Puppet reads \"$x[0]\" as $x and the text [0]; puppet-lint's \"${x[0]}\" "
                  "makes it an access (puppet-ls writes \"${x}[0]\")")
REALIGNED = ("arrow_alignment: another fix moved an aligned arrow (hard_tabs widening an indentation, an outer arrow "
             "realigned before a nested hash); puppet-ls aligns again in a second round, puppet-lint fixes in one pass "
             "and leaves it misaligned")


def classify(original: str, theirs: str, ours: str, result) -> str:
    """Why puppet-lint's fixed text and ours differ: the classes of the differing hunks."""
    if "\r\n" in ours and theirs == ours.replace("\r\n", "\n"):
        return "crlf: puppet-lint writes every line break as LF (its NEWLINE token prints '\\n'); puppet-ls keeps CRLF"
    if theirs == original and result.fixed:
        return "puppet-lint wrote nothing: its lexer rejects the file (syntax error)"
    if ours == original and result.reason:
        return f"puppet-ls fixes nothing in a file with {result.reason}"
    a, b = theirs.splitlines(), ours.splitlines()
    found = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        t, o = a[i1:i2], b[j1:j2]
        if all(ln.strip() == "" or ln.lstrip().startswith("#") for ln in t) and \
                all(ln.lstrip().startswith("#") for ln in o) and "/*" in original:
            found.add(STAR)
        elif any(re.search(r"\$\{[\w:]+\[", ln) for ln in t) and any(re.search(r"\$\{[\w:]+\}\[", ln) for ln in o):
            found.add(VARIABLE_INDEX)
        elif result.rounds > 1 and len(t) == len(o) and all(
                x.replace(" ", "") == y.replace(" ", "") and "=>" in x for x, y in zip(t, o)):
            found.add(REALIGNED)
        elif result.rejected:
            names = sorted({d.code for d in result.rejected})
            found.add("puppet-lint's fix changes what the code means (puppet-ls's proof refused it): " + ", ".join(names))
        else:
            found.add("unexplained")
    return " + ".join(sorted(found)) or "unexplained"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", help="a list of files (default: the shared corpus)")
    ap.add_argument("--keep", help="work in this directory and keep it")
    ap.add_argument("--show", type=int, default=5, help="files shown per class")
    ap.add_argument("--every-check", action="store_true",
                    help="puppet-ls only, with every check on (legacy_facts and top_scope_facts too): "
                         "the acceptance checks without the comparison")
    args = ap.parse_args()
    enabled = all_checks() if args.every_check else ENABLED
    files = [f for f in corpus_files(args.files) if f.endswith(".pp")]
    if not files:
        sys.exit("no corpus files found")
    root = args.keep or tempfile.mkdtemp(prefix="lint-fix-diff-")
    originals = [read(f) for f in files]
    theirs_paths = copy_corpus(files, os.path.join(root, "puppet-lint"))
    ours_paths = copy_corpus(files, os.path.join(root, "puppet-ls"))
    pl_seconds, crashed = (0.0, []) if args.every_check else run_puppet_lint(theirs_paths)
    crashed_set = set(crashed)
    t0 = time.perf_counter()
    results = []
    for p in ours_paths:
        ff = fix_file(p, enabled)
        if ff.changed and ff.result is not None:
            write_atomic(p, ff.bom + ff.result.text.encode("utf-8"))
        results.append(ff.result)
    ls_seconds = time.perf_counter() - t0
    classes: dict[str, list[str]] = defaultdict(list)
    problems: dict[str, list[str]] = defaultdict(list)
    fixed_total: Counter = Counter()
    equal = changed = 0
    for path, original, tp, op, result in zip(files, originals, theirs_paths, ours_paths, results):
        theirs, ours = read(tp), read(op)
        if result is None:
            continue
        fixed_total.update(result.fixed)
        changed += ours != original
        if args.every_check:
            pass
        elif theirs == ours:
            equal += 1
        elif tp in crashed_set:
            classes["puppet-lint crashes on the file (its \"Whoops!\" report) and writes nothing"].append(path)
        else:
            classes[classify(original, theirs, ours, result)].append(path)
        if ours == original:
            continue
        after = parse_for_path(ours, op)
        if after.errors and not parse_for_path(original, op).errors:
            problems["the result does not parse"].append(path)
        if not same_tree(original, ours, op):
            problems["the tree differs beyond the fixed literals"].append(path)
        left = [d for d in fixable_findings(after, os.path.abspath(op), enabled)
                if (d.code, d.offset, d.end) not in result.refused]
        if left:
            problems["check after --fix still reports a fixable finding"].append(
                f"{path} ({', '.join(sorted({d.code for d in left}))})")
        again = fix_text(ours, os.path.abspath(op), enabled, reparse=lambda t, op=op: parse_for_path(t, os.path.abspath(op)))
        if again.text != ours:
            problems["a second --fix changes the text"].append(path)
    n = len(results)
    print(f"files: {n}; changed by puppet-ls: {changed}; fixes made: {sum(fixed_total.values())}")
    for name, k in sorted(fixed_total.items()):
        print(f"  {name:32} {k}")
    if args.every_check:
        print(f"\npuppet-ls fix {ls_seconds:.1f} s (wall); not compared with puppet-lint (--every-check)")
    else:
        print(f"\nequal to puppet-lint --fix: {equal} of {n} ({100 * equal / n:.2f}%, target >= 99%)")
        print(f"puppet-lint --fix {pl_seconds:.1f} s; puppet-ls fix {ls_seconds:.1f} s (wall, same run)")
    for label, items in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{len(items):5} {label}")
        for p in items[:args.show]:
            print(f"        {p}")
    print("\nacceptance of puppet-ls's results:")
    for label in ("the result does not parse", "the tree differs beyond the fixed literals",
                  "check after --fix still reports a fixable finding", "a second --fix changes the text"):
        items = problems.get(label, [])
        print(f"  {label}: {len(items)}")
        for p in items[:args.show]:
            print(f"        {p}")
    rejected = Counter(d.code for r in results if r is not None for d in r.rejected)
    if rejected:
        print("fixes refused by the proof (their findings stay): "
              + ", ".join(f"{k} {v}" for k, v in sorted(rejected.items())))
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    ok = (args.every_check or equal >= 0.99 * n) and not problems and "unexplained" not in classes
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
