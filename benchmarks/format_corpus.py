#!/usr/bin/env python3
"""Measure the formatter on the real-world corpus: safety, broken files, ranges, speed against
``puppet-lint --fix``, and the layout findings puppet-lint has left after formatting.

1. Every corpus file is formatted; it counts as *safe* when the result parses with the same
   syntax errors and validation findings, its tree in Puppet's dump form equals the original's
   modulo the documented normalisations (language/formatter/safety.py), and formatting it again
   changes nothing.  Files the formatter refused (FORMAT_UNSAFE) are counted apart.
2. Broken files: corpus files mutated with a fixed seed (truncated at a random token, a brace
   deleted), kept when they have syntax errors.  *No corruption*: the same errors, the same
   tree (errors included), every statement left unformatted byte for byte the same, idempotent.
3. Ranges: random [start, end) ranges of random corpus files; every edit must lie inside the
   range, the text outside it must be unchanged and the result must parse to the same tree.
4. Speed, in the same run, each tool on its own copy of the corpus: CPU time of formatting the
   whole corpus in-process (files read first); wall and CPU time of ``puppet-ls format DIR``
   (its default ``--jobs``: a worker process per core) against ``puppet-lint --fix DIR``; and one file at a time (``--per-file`` sampled files), as
   editors run them: ``puppet-lint --fix FILE`` (what the official extension does on format)
   against ``puppet-ls format FILE`` and against the server's in-process formatting.
5. Layout findings of ``puppet-lint --only-checks <layout checks>`` on the original copy and on
   the copy ``puppet-ls format`` wrote.

    python3 benchmarks/format_corpus.py [--broken 300] [--ranges 1000] [--per-file 100] [--seed 14] [--no-lint]

Failing examples go to benchmarks/results/format_corpus_failures.txt.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import REPO, corpus_files, engine_line, read_texts

from puppet_ls.language.formatter import apply_edits, check_safe, clean_statements, format_range, format_text
from puppet_ls.language.formatter.safety import tree_problem
from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax import parse

LAYOUT_CHECKS = ("arrow_alignment", "2sp_soft_tabs", "hard_tabs", "trailing_whitespace",
                 "arrow_on_right_operand_line")


def _fmt(text: str, path: str) -> str:
    return format_text(text, epp=path.endswith(".epp"), tasks="/plans/" in path).text


def corpus_safety(paths: list, texts: list, failures: list) -> None:
    t0 = time.process_time()
    results = [format_text(t, epp=p.endswith(".epp"), tasks="/plans/" in p) for p, t in zip(paths, texts, strict=True)]
    cpu = time.process_time() - t0
    lines = sum(t.count("\n") for t in texts)
    safe = refused = changed = 0
    for p, t, r in zip(paths, texts, results, strict=True):
        if any(d.code == "FORMAT_UNSAFE" for d in r.diagnostics):
            refused += 1
            failures.append(f"refused {p}: {r.diagnostics[0].message}")
            continue
        changed += r.changed
        problems = check_safe(t, r.text, p.endswith(".epp"), lambda x, p=p: _fmt(x, p), tasks="/plans/" in p)
        if problems:
            failures.append(f"unsafe {p}: {'; '.join(problems)}")
        else:
            safe += 1
    n = len(paths)
    print(engine_line())
    print(f"corpus: {n} files, {lines:,} lines; formatted in {cpu:.2f} s CPU ({lines / cpu:,.0f} lines/s, "
          "parse + layout + safety re-parse)")
    print(f"  safe (same tree modulo normalisations, same findings, idempotent): {safe}/{n} "
          f"({100 * safe / n:.1f}%); changed by formatting: {changed}; refused as unsafe: {refused}")


def _mutants(paths: list, texts: list, count: int, rng: random.Random) -> list:
    out: list = []
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        i = rng.randrange(len(paths))
        text = texts[i]
        toks = [t for t in parse(text).root.all_tokens() if t.kind not in K.TRIVIA and t.kind != K.EOF]
        if not toks:
            continue
        if rng.random() < 0.5:
            cut = rng.choice(toks)
            kind, mutant = "truncate", text[:cut.offset]
        else:
            braces = [t for t in toks if t.kind in (K.LBRACE, K.RBRACE)]
            if not braces:
                continue
            b = rng.choice(braces)
            kind, mutant = "brace", text[:b.offset] + text[b.end:]
        if parse(mutant).errors:
            out.append((paths[i], kind, mutant))
    return out


def _unformatted(result) -> list:
    return [s.trimmed_text() for s in clean_statements(result)[1]]


def broken_files(paths: list, texts: list, count: int, rng: random.Random, failures: list) -> None:
    mutants = _mutants(paths, texts, count, rng)
    ok = formatted = 0
    for path, kind, text in mutants:
        res = format_text(text)
        before = parse(text)
        problems = []
        if any(d.code == "FORMAT_UNSAFE" for d in res.diagnostics):
            problems.append("refused")
        p = tree_problem(before, res.text)
        if p:
            problems.append(p)
        if _unformatted(parse(res.text)) != _unformatted(before):
            problems.append("a statement with errors changed")
        if format_text(res.text).text != res.text:
            problems.append("not idempotent")
        if problems:
            failures.append(f"broken ({kind}) {path}: {'; '.join(problems)}")
        else:
            ok += 1
        formatted += res.changed
    kinds = {k: sum(1 for _, kk, _ in mutants if kk == k) for k in ("truncate", "brace")}
    print(f"broken files: {len(mutants)} mutants ({kinds['truncate']} truncated, {kinds['brace']} without a brace); "
          f"no corruption: {ok}/{len(mutants)} ({100 * ok / max(1, len(mutants)):.1f}%); "
          f"partly formatted: {formatted}")


def ranges(paths: list, texts: list, count: int, rng: random.Random, failures: list) -> None:
    ok = with_edits = 0
    for _ in range(count):
        i = rng.randrange(len(paths))
        text = texts[i]
        if not text:
            ok += 1
            continue
        a, b = sorted((rng.randrange(len(text) + 1), rng.randrange(len(text) + 1)))
        epp = paths[i].endswith(".epp")
        edits = format_range(text, a, b, epp=epp)
        out = apply_edits(text, edits)
        tail = len(text) - b
        good = (all(a <= e.start and e.end <= b for e in edits) and out[:a] == text[:a]
                and out[len(out) - tail:] == text[b:] and tree_problem(parse(text, epp=epp), out, epp) is None)
        with_edits += bool(edits)
        if good:
            ok += 1
        else:
            failures.append(f"range {paths[i]} [{a}, {b}): changed text outside the range or the tree")
    print(f"range formatting: {count} random ranges ({with_edits} with edits); nothing changed outside the "
          f"range and same tree: {ok}/{count}")


def _lint_findings(directory: str) -> dict:
    proc = subprocess.run(["puppet-lint", "--only-checks", ",".join(LAYOUT_CHECKS),
                           "--log-format", "%{check}", "--relative", "."],
                          cwd=directory, capture_output=True, text=True, check=False)
    counts: dict = {}
    for line in proc.stdout.splitlines():
        if line.strip():
            counts[line.strip()] = counts.get(line.strip(), 0) + 1
    return counts


def _timed(cmd: list, cwd: str) -> tuple:
    """(wall seconds, CPU seconds of the child: user + system) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def speed_and_lint(paths: list, per_file: int, rng: random.Random) -> None:
    pp = [p for p in paths if p.endswith(".pp")]
    exe = os.path.join(os.path.dirname(sys.executable), "puppet-ls")
    ours_cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "puppet_ls.server.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        dirs = {}
        for name in ("original", "puppet-ls", "puppet-lint", "per-file-ls", "per-file-lint"):
            d = os.path.join(tmp, name)
            os.mkdir(d)
            for i, p in enumerate(pp):
                shutil.copy(p, os.path.join(d, f"{i:04d}.pp"))
            dirs[name] = d
        ours = _timed([*ours_cmd, "format", "."], dirs["puppet-ls"])
        theirs = _timed(["puppet-lint", "--fix", "."], dirs["puppet-lint"])
        print(f"speed, one command over the {len(pp)} .pp files: puppet-ls format {ours[0]:.1f} s wall / "
              f"{ours[1]:.1f} s CPU; puppet-lint --fix {theirs[0]:.1f} s wall / {theirs[1]:.1f} s CPU: "
              f"{theirs[0] / ours[0]:.1f}x (wall), {theirs[1] / ours[1]:.1f}x (CPU)")
        # How editors run them: the official extension starts 'puppet-lint --fix FILE' per
        # document; puppet-ls answers textDocument/formatting in its running server.
        sample = sorted(rng.sample(range(len(pp)), min(per_file, len(pp))))
        lint_wall = lint_cpu = ls_wall = ls_cpu = 0.0
        for i in sample:
            w, c = _timed(["puppet-lint", "--fix", f"{i:04d}.pp"], dirs["per-file-lint"])
            lint_wall += w
            lint_cpu += c
            w, c = _timed([*ours_cmd, "format", f"{i:04d}.pp"], dirs["per-file-ls"])
            ls_wall += w
            ls_cpu += c
        texts = read_texts([pp[i] for i in sample])
        t0 = time.process_time()
        for t in texts:
            format_text(t)
        in_server = time.process_time() - t0
        n = len(sample)
        print(f"speed, one file at a time ({n} files sampled): puppet-lint --fix FILE {1000 * lint_cpu / n:.0f} ms CPU "
              f"({1000 * lint_wall / n:.0f} ms wall) per file; puppet-ls format FILE {1000 * ls_cpu / n:.0f} ms CPU "
              f"({1000 * ls_wall / n:.0f} ms wall): {lint_cpu / ls_cpu:.1f}x (CPU); the server's formatting "
              f"{1000 * in_server / n:.1f} ms CPU per file: {lint_cpu / in_server:.0f}x (CPU)")
        before = _lint_findings(dirs["original"])
        after = _lint_findings(dirs["puppet-ls"])
        fixed = _lint_findings(dirs["puppet-lint"])
        for label, counts in (("original", before), ("after puppet-ls format", after),
                              ("after puppet-lint --fix", fixed)):
            total = sum(counts.values())
            detail = ", ".join(f"{k} {counts.get(k, 0)}" for k in LAYOUT_CHECKS)
            print(f"puppet-lint layout findings, {label}: {total} ({detail})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--broken", type=int, default=300, help="broken files to make (default 300)")
    ap.add_argument("--ranges", type=int, default=1000, help="random ranges to format (default 1000)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--per-file", type=int, default=100,
                    help="files formatted one process at a time by each tool (default 100)")
    ap.add_argument("--no-lint", action="store_true", help="skip the comparison with puppet-lint")
    ap.add_argument("--files", help="a corpus list other than ../shared/corpus/corpus_files.txt")
    args = ap.parse_args()
    paths = corpus_files(args.files)
    if not paths:
        sys.exit("no corpus: install it with ../shared/corpus/corpus.sh (or give --files)")
    texts = read_texts(paths)
    failures: list = []
    rng = random.Random(args.seed)
    corpus_safety(paths, texts, failures)
    broken_files(paths, texts, args.broken, rng, failures)
    ranges(paths, texts, args.ranges, rng, failures)
    if args.no_lint:
        pass
    elif shutil.which("puppet-lint") is None:
        print("puppet-lint is not installed (apt-get install puppet-lint): speed and layout comparison skipped")
    else:
        speed_and_lint(paths, args.per_file, rng)
    out = REPO / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "format_corpus_failures.txt").write_text("\n".join(failures) + "\n" if failures else "")
    print(f"{len(failures)} failures" + (f" (listed in {out / 'format_corpus_failures.txt'})" if failures else ""))


if __name__ == "__main__":
    main()
