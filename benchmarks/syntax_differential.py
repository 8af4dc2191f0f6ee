#!/usr/bin/env python3
"""Differential of syntax and validation errors against the real Puppet, on mutated code.

Each mutant is a corpus manifest with one token changed (seeded: deleted, duplicated, swapped
with the next, replaced by or preceded with a token from a pool of Puppet's punctuation,
keywords and operands).  Puppet 7 parses and validates it through the oracle (``puppet parser
validate``'s work, ../shared/oracle); puppet-ls parses and validates it (``ours``: its parse
errors, else its validation errors).  Each mutant falls in one class:

  both accept           neither reports an error
  same first error      both reject it, with the same first message at the same line and column
  other first error     both reject it, with another first message or place
  missed                Puppet rejects it, puppet-ls says nothing
  extra                 Puppet accepts it, puppet-ls reports an error

    python3 benchmarks/syntax_differential.py [--mutants 2000] [--seed 1] [--show 20] [--out DIR]

Prints the count of each class and the most common kinds of difference (messages with their
quoted parts elided), and writes up to --show mutants of each kind to --out, with a line of
what each side said.  Needs the oracle (ruby and puppet 7) and the corpus; exits with status 2
without them.  Mutants on which Puppet itself fails (a Ruby error inside it) are left out.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import ORACLE_DIR, corpus_files

from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax.lexer import lex
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.language.syntax.parser import parse
from puppet_ls.language.syntax.validate import validate

# What a replacement or insertion puts in: Puppet's punctuation, operators, keywords, operands.
POOL = ["=>", "=", ",", ";", ":", "{", "}", "(", ")", "[", "]", "$x", "x", "X", "'s'", '"d${y}"', "if",
        "else", "unless", "case", "default", "undef", "true", "and", "in", "->", "~>", "<|", "|>", "@",
        "@@", "+>", "!", "-", "*", "/", "?", "|", "1", "0x1", "1.5", "class", "define", "node",
        "function", "type", "Integer[1]", ".", "=~", "/r/", "<<", "<<|", "|>>"]
MUTATIONS = ("delete", "dup", "swap", "replace", "insert")


def ours(text: str) -> tuple | None:
    """(message, line, column) of puppet-ls's first error on ``text``, 1-based: its parse
    errors first (Puppet validates only what parses), else its validation errors."""
    result = parse(text)
    found = [(e.offset, e.message) for e in result.errors] or \
        [(d.offset, d.message) for d in validate(result) if d.severity == "error"]
    if not found:
        return None
    offset, message = min(found, key=lambda f: f[0])     # (the first reported, at a place)
    line, col = LineIndex(text).position(offset)
    return message, line + 1, col + 1


def puppets(oracle, text: str) -> tuple | None:
    """(message, line, column) of Puppet's first error on ``text``, None when it accepts it.
    Raises RuntimeError when Puppet itself fails (a Ruby error, not a verdict)."""
    r = oracle.parse(src=text)
    if r.get("ok"):
        return None
    err = r.get("error") or {}
    if not str(err.get("class", "")).startswith("Puppet::") or _RUBY_CRASH.search(str(err.get("message", ""))):
        raise RuntimeError(str(err.get("message", "")))
    diags = [d for d in r.get("diagnostics", []) if d.get("severity") == "error"]
    if diags:       # (several: "Language validation logged 2 errors. Giving up")
        d = min(diags, key=lambda d: (d.get("line") or 0, d.get("pos") or 0))
        return d.get("message"), d.get("line"), d.get("pos")
    if "basic_message" in err:
        return err["basic_message"], err.get("line"), err.get("pos")
    # an error the grammar raises itself comes without an issue: its place is in its text
    m = _PLAIN.match(str(err.get("message", "")))
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else (err.get("message"), None, None)


_PLAIN = re.compile(r"Could not parse for environment \w+: (.*) \((?:file: [^,]*, )?line: (\d+), column: (\d+)\)$")
_RUBY_CRASH = re.compile(r"undefined method|NilClass|NoMethodError|TypeError")
_QUOTED = re.compile(r"'[^']*'")


def mutate(text: str, rng: random.Random) -> tuple[str, str] | None:
    """(what was done, the mutant) of one manifest, or None when it has too few tokens."""
    toks = [t for t in lex(text).tokens if t[0] not in K.TRIVIA and t[0] != K.EOF]
    if len(toks) < 5:
        return None
    kind = rng.choice(MUTATIONS)
    i = rng.randrange(len(toks) - 1)
    tok = toks[i]
    start, end = tok[2], tok[2] + len(tok[1])
    if kind == "delete":
        out = text[:start] + text[end:]
    elif kind == "dup":
        out = text[:end] + " " + tok[1] + text[end:]
    elif kind == "swap":
        nxt = toks[i + 1]
        out = text[:start] + nxt[1] + text[end:nxt[2]] + tok[1] + text[nxt[2] + len(nxt[1]):]
    elif kind == "replace":
        out = text[:start] + rng.choice(POOL) + text[end:]
    else:
        out = text[:start] + rng.choice(POOL) + " " + text[start:]
    return f"{kind} token {i} {tok[1][:30]!r}", out


def classify(mine: tuple | None, theirs: tuple | None) -> str:
    if mine is None:
        return "both accept" if theirs is None else "missed"
    if theirs is None:
        return "extra"
    return "same first error" if tuple(mine) == tuple(theirs) else "other first error"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mutants", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=20, help="mutants written per kind of difference")
    ap.add_argument("--out", default="syntax-differential", help="folder for the mutants that differ")
    opts = ap.parse_args()
    files = [f for f in corpus_files() if "/manifests/" in f and f.endswith(".pp")]
    if not files:
        print("no corpus (see ../shared/corpus)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ORACLE_DIR))
    try:
        from oracle import PuppetOracle  # type: ignore[import-not-found]
        oracle = PuppetOracle(timeout=20)
    except Exception as exc:  # noqa: BLE001 - whatever stops the oracle, say it and stop
        print(f"the oracle does not start: {exc}", file=sys.stderr)
        return 2
    os.makedirs(opts.out, exist_ok=True)
    rng = random.Random(opts.seed)
    counts: collections.Counter = collections.Counter()
    kinds: collections.Counter = collections.Counter()
    crashed = 0
    t0 = time.monotonic()
    with oracle:
        while sum(counts.values()) < opts.mutants:
            path = rng.choice(files)
            with open(path, encoding="utf-8", errors="replace", newline="") as f:
                made = mutate(f.read(), rng)
            if made is None:
                continue
            what, text = made
            try:
                theirs = puppets(oracle, text)
            except RuntimeError:
                crashed += 1
                continue
            mine = ours(text)
            verdict = classify(mine, theirs)
            counts[verdict] += 1
            if verdict in ("both accept", "same first error"):
                continue
            kind = (verdict, _QUOTED.sub("'…'", str((theirs or ("",))[0]))[:70],
                    _QUOTED.sub("'…'", str((mine or ("",))[0]))[:70])
            kinds[kind] += 1
            if kinds[kind] <= opts.show:
                n = sum(kinds.values())
                with open(os.path.join(opts.out, f"{n:04d}.pp"), "w", encoding="utf-8") as f:
                    f.write(text)
                with open(os.path.join(opts.out, "index.txt"), "a", encoding="utf-8") as f:
                    f.write(f"{n:04d}.pp  {verdict}  {path}  {what}\n    Puppet: {theirs}\n    ours:   {mine}\n")
            done = sum(counts.values())
            if done % 250 == 0:
                print(f"  {done} mutants, {time.monotonic() - t0:.0f} s", file=sys.stderr)
    total = sum(counts.values())
    rejected = counts["same first error"] + counts["other first error"]
    print(f"{total} mutants (seed {opts.seed}; {crashed} left out: Puppet failed on them)")
    for verdict in ("both accept", "same first error", "other first error", "missed", "extra"):
        print(f"  {verdict:18s} {counts[verdict]:6d}  {100.0 * counts[verdict] / max(total, 1):5.1f}%")
    agree = counts["both accept"] + counts["same first error"] + counts["other first error"]
    print(f"same verdict: {100.0 * agree / max(total, 1):.1f}%;  same first error where both reject: "
          f"{100.0 * counts['same first error'] / max(rejected, 1):.1f}%")
    print("most common differences (Puppet's message | ours):")
    for (verdict, theirs_m, mine_m), n in kinds.most_common(25):
        print(f"  {n:5d}  {verdict:17s} {theirs_m} | {mine_m}")
    print(f"mutants that differ: {opts.out}/index.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
