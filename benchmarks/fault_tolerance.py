#!/usr/bin/env python3
"""Measure how puppet-ls copes with broken Puppet code: mutate corpus files in six ways, keep
the mutants the real Puppet rejects, and check for each one that puppet-ls

(a) reports at least one error (syntax errors + validation diagnostics of severity error),
(b) reports one within 3 lines of the damage (Puppet's own figure measured alongside),
(c) still lists every definition (class/define/node/function/plan/type alias, by name and
    kind) of the original file that does not contain the damage,

and that parse, validate and document_symbols never raise on any mutant.

Mutation kinds (fixed seed, so every run makes the same mutants): drop a brace, drop an arrow
(``=>``), drop a comma, drop a quote, truncate the file, insert junk.  Positions are taken from
puppet-ls's own tokens of the (valid) original so that a "brace" is a real brace and not one
inside a string or comment.

Two populations: single corpus files as they are, and "bundles" of three corpus files
concatenated.  No corpus file holds more than one definition, so only the bundles have
definitions outside the damaged one, which check (c) needs to mean anything.

    python3 benchmarks/fault_tolerance.py [--per-kind 110] [--bundle-per-kind 50] [--seed 20240607]

Prints per-kind and total percentages plus failing examples; writes the mutant list to
benchmarks/results/fault_tolerance.tsv and every failing example to
benchmarks/results/fault_tolerance_failures.txt.
"""
from __future__ import annotations

import argparse
import bisect
import os
import random
import re
import statistics
import sys
import time
import traceback
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import ORACLE_DIR, corpus_files

from puppet_ls.language.diagnostics import from_syntax_errors
from puppet_ls.language.ide.symbols import document_symbols, flatten
from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax.lexer import lex
from puppet_ls.language.syntax.parser import parse
from puppet_ls.language.syntax.validate import validate

KINDS = ("brace", "arrow", "comma", "quote", "truncate", "junk")
DEF_KINDS = frozenset({"class", "define", "node", "function", "plan", "type_alias"})
NEAR = 3  # lines: "within 3 lines of the damage"

# Junk is drawn from these: stray punctuation and operators, keywords and plain words.  No line
# breaks, so the damaged line is well defined.
_JUNK = ("@", "%", "^", "&", "*", "?", ":", ";", ",", "!", "~", "|", "=>", "->", "=", "==",
         "(", ")", "[", "]", "<|", "|>", "{", "}", "'", '"', "$", "`", "\\", "+", "-", "<<",
         "foo", "bar baz", "if", "else", "class", "define", "node", "case", "unless", "in",
         "and", "Xyz", "$junk", "123abc", "0x", "undef", "=> foo", "notify {", "} }")


@dataclass(slots=True)
class Mutant:
    path: str
    kind: str
    original: str
    text: str
    damage: int          # offset of the damage in the original (insertion point / deleted char / cut)
    damage_end: int      # end of the damaged characters in the original (== damage for insertion)
    description: str
    population: str = "file"   # "file": one corpus file; "bundle": three concatenated

    @property
    def damage_line(self) -> int:
        """1-based line of the damage; for truncation the last line of the mutant (end of file)."""
        return self.original.count("\n", 0, self.damage) + 1


@dataclass(slots=True)
class Outcome:
    mutant: Mutant
    errors: list = field(default_factory=list)       # (line, col, code, message), ours, severity error
    exceptions: list = field(default_factory=list)   # (stage, "Type: message", last frame)
    missing_defs: list = field(default_factory=list)  # (kind, name) of the original lost in the mutant
    checked_defs: int = 0                             # how many of the original's definitions (c) checked
    puppet_lines: list = field(default_factory=list)  # lines of Puppet's errors (None = no position)
    puppet_messages: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def got_error(self) -> bool:
        return bool(self.errors)

    @property
    def near(self) -> bool:
        d = self.mutant.damage_line
        return any(abs(line - d) <= NEAR for line, *_ in self.errors)

    @property
    def first_near(self) -> bool:
        """The first error (the one a reader meets first) is the one within 3 lines."""
        return bool(self.errors) and abs(self.errors[0][0] - self.mutant.damage_line) <= NEAR

    @property
    def puppet_near(self) -> bool:
        d = self.mutant.damage_line
        return any(line is not None and abs(line - d) <= NEAR for line in self.puppet_lines)

    @property
    def defs_kept(self) -> bool:
        return not self.missing_defs


# ---- mutation ---------------------------------------------------------------------------------

def _token_offsets(text: str, kinds) -> list[tuple[int, str]]:
    return [(off, tok) for kind, tok, off, _tv in lex(text).tokens if kind in kinds]


def _quote_offsets(text: str) -> list[int]:
    out = []
    for kind, tok, off, _tv in lex(text).tokens:
        if kind in (K.DQ_OPEN, K.DQ_CLOSE):
            out.append(off)
        elif kind == K.STRING and len(tok) >= 2 and tok[0] == "'":
            out.append(off)
            if tok[-1] == "'":
                out.append(off + len(tok) - 1)
    return out


def mutate(kind: str, path: str, text: str, rng: random.Random) -> Mutant | None:
    """One mutant of ``text`` of the given kind, or None when the file offers no place for it."""
    if kind in ("brace", "arrow", "comma"):
        kinds = {"brace": (K.LBRACE, K.SELBRACE, K.RBRACE), "arrow": (K.FARROW,), "comma": (K.COMMA,)}[kind]
        spots = _token_offsets(text, kinds)
        if not spots:
            return None
        off, tok = rng.choice(spots)
        return Mutant(path, kind, text, text[:off] + text[off + len(tok):], off, off + len(tok),
                      f"dropped {tok!r}")
    if kind == "quote":
        spots = _quote_offsets(text)
        if not spots:
            return None
        off = rng.choice(spots)
        return Mutant(path, kind, text, text[:off] + text[off + 1:], off, off + 1, f"dropped {text[off]!r}")
    if kind == "truncate":
        # Cut somewhere before the trailing blank space, else the "damage" is no damage at all.
        last = len(text.rstrip())
        if last < 2:
            return None
        cut = rng.randrange(1, last)
        return Mutant(path, kind, text, text[:cut], cut, len(text), f"truncated at offset {cut} of {len(text)}")
    if kind == "junk":
        toks = [t for t in lex(text).tokens if t[0] != K.EOF]
        if not toks:
            return None
        # Insert right before a token (after its leading trivia): that is where code is, so the
        # junk lands in code rather than mostly in comments and blank lines.
        off = rng.choice(toks)[2]
        junk = " ".join(rng.choice(_JUNK) for _ in range(rng.randint(1, 3)))
        ins = " " + junk + " "
        return Mutant(path, kind, text, text[:off] + ins + text[off:], off, off, f"inserted {ins!r}")
    raise ValueError(kind)


# ---- measuring one mutant ---------------------------------------------------------------------

class _Lines:
    def __init__(self, text: str):
        self.starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def line_col(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1


def definitions(text: str) -> list[tuple[str, str, int, int]]:
    """(kind, name, start, end) of every definition puppet-ls's outline lists for ``text``."""
    return [(s.kind, s.name, s.range[0], s.range[1])
            for s in flatten(document_symbols(parse(text))) if s.kind in DEF_KINDS]


def _expected_defs(m: Mutant, orig_defs) -> list[tuple[str, str]]:
    """The original's definitions that the damage leaves alone."""
    out = []
    for kind, name, start, end in orig_defs:
        if m.kind == "truncate":
            untouched = end <= m.damage          # wholly before the cut; later ones are gone
        elif m.damage == m.damage_end:           # insertion: touching either edge counts as inside
            untouched = m.damage < start or m.damage > end
        else:                                    # deletion of [damage, damage_end)
            untouched = m.damage_end <= start or m.damage >= end
        if untouched:
            out.append((kind, name))
    return out


def _exc(stage: str, exc: BaseException) -> tuple[str, str, str]:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f"{os.path.basename(tb[-1].filename)}:{tb[-1].lineno} in {tb[-1].name}" if tb else "?"
    return (stage, f"{type(exc).__name__}: {exc}", where)


def evaluate(m: Mutant, orig_defs=None) -> Outcome:
    """Run puppet-ls on the mutant and record errors, lost definitions and exceptions.  Each
    stage is guarded separately so one failure does not hide another."""
    out = Outcome(m)
    lines = _Lines(m.text)
    t0 = time.perf_counter()
    result = None
    try:
        result = parse(m.text)
        for d in from_syntax_errors(result.errors):
            out.errors.append((*lines.line_col(d.offset), d.code, d.message))
    except Exception as exc:  # noqa: BLE001 - the point is to catch everything
        out.exceptions.append(_exc("parse", exc))
    if result is not None:
        try:
            for d in validate(result):
                if d.severity == "error":
                    out.errors.append((*lines.line_col(d.offset), d.code, d.message))
        except Exception as exc:  # noqa: BLE001
            out.exceptions.append(_exc("validate", exc))
        try:
            have = {(s.kind, s.name) for s in flatten(document_symbols(result))}
            if orig_defs is None:
                orig_defs = definitions(m.original)
            expected = _expected_defs(m, orig_defs)
            out.checked_defs = len(expected)
            out.missing_defs = [d for d in expected if d not in have]
        except Exception as exc:  # noqa: BLE001
            out.exceptions.append(_exc("symbols", exc))
    out.seconds = time.perf_counter() - t0
    out.errors.sort()
    return out


# ---- the oracle -------------------------------------------------------------------------------

def open_oracle():
    """The real Puppet as a persistent process, or None when it cannot be started here."""
    try:
        sys.path.insert(0, str(ORACLE_DIR))
        from oracle import PuppetOracle  # type: ignore[import-not-found]
        return PuppetOracle(timeout=20)
    except Exception:  # noqa: BLE001 - no ruby, no puppet, no shared/ folder: all mean "absent"
        return None


def puppet_verdict(oracle, text: str) -> tuple[str, list, list]:
    """("rejects" | "accepts" | "crashes", error lines, error messages) of Puppet on ``text``.

    Some rejections come as a plain Puppet::Error with no issue code (e.g. "A quoted string is
    not valid as a name here (line: 4, column: 10)"): they are verdicts, and their line is in
    the message.  A Ruby error inside Puppet (NoMethodError on nil) is Puppet crashing, not a
    judgement on the text, so such mutants are left out."""
    r = oracle.parse(src=text)
    if r.get("ok"):
        return "accepts", [], []
    err = r.get("error") or {}
    message = str(err.get("message", ""))
    if not str(err.get("class", "")).startswith("Puppet::") or _RUBY_CRASH.search(message):
        return "crashes", [], [message.replace("\n", " ")]
    diags = [d for d in r.get("diagnostics", []) if d.get("severity") == "error"]
    if not diags:
        at = _AT_LINE.search(message)
        line = err.get("line") or (int(at.group(1)) if at else None)
        diags = [{"line": line, "message": err.get("basic_message") or message}]
    return "rejects", [d.get("line") for d in diags], [d.get("message") for d in diags]


_RUBY_CRASH = re.compile(r"undefined method|NilClass|NoMethodError|TypeError")
_AT_LINE = re.compile(r"\(line: (\d+)")


# ---- the run ----------------------------------------------------------------------------------

def _source(population: str, order: list[str], rng: random.Random, read) -> tuple[str, str] | None:
    """(label, text) of the next original: one corpus file, or for "bundle" three distinct ones
    concatenated.  No corpus file holds more than one definition, so only bundles give
    definitions on both sides of the damage for check (c) to look at."""
    if population == "file":
        p = rng.choice(order)
        t = read(p)
        return None if t is None else (p, t)
    picks = rng.sample(order, 3)
    texts = [read(p) for p in picks]
    if any(t is None for t in texts):
        return None
    return "+".join(picks), "".join(t if t.endswith("\n") else t + "\n" for t in texts)


def generate(paths: list[str], per_kind: int, seed: int, oracle, population: str = "file",
             max_tries: int = 25, log=print):
    """Mutants Puppet rejects, ``per_kind`` of each kind, with their outcomes; plus counts."""
    files: dict[str, str | None] = {}
    ok_originals: dict[str, bool] = {}
    defs_cache: dict[str, list] = {}
    outcomes: list[Outcome] = []
    stats = {k: {"tried": 0, "accepted": 0, "crashed": 0} for k in KINDS}
    crashes: list = []   # (mutant, Puppet's error): Puppet itself failed, no verdict on the text
    order = sorted(paths)

    def read(p: str) -> str | None:
        if p not in files:
            try:
                with open(p, encoding="utf-8", newline="") as f:
                    files[p] = f.read()
            except (OSError, UnicodeDecodeError):
                files[p] = None
        return files[p]

    def usable(label: str, t: str) -> bool:
        # Only originals both tools accept: otherwise an error "near the damage" may be an
        # error that was there before the damage.
        if label not in ok_originals:
            r = parse(t)
            ours = not r.errors and not any(d.severity == "error" for d in validate(r))
            ok_originals[label] = ours and puppet_verdict(oracle, t)[0] == "accepts"
        return ok_originals[label]

    for kind in KINDS:
        # One generator per population and kind (seeded by name) so changing one kind's count
        # leaves the others' mutants unchanged.
        rng = random.Random(f"{seed}:{population}:{kind}")
        kept = 0
        for _ in range(per_kind * max_tries):
            if kept >= per_kind:
                break
            src = _source(population, order, rng, read)
            if src is None or not usable(*src):
                continue
            label, text = src
            m = mutate(kind, label, text, rng)
            if m is None:
                continue
            m.population = population
            stats[kind]["tried"] += 1
            verdict, plines, pmsgs = puppet_verdict(oracle, m.text)
            if verdict == "accepts":
                stats[kind]["accepted"] += 1
                continue
            if verdict == "crashes":
                stats[kind]["crashed"] += 1
                crashes.append((m, pmsgs[0]))
                continue
            if label not in defs_cache:
                defs_cache[label] = definitions(text)
            o = evaluate(m, defs_cache[label])
            o.puppet_lines, o.puppet_messages = plines, pmsgs
            outcomes.append(o)
            kept += 1
        log(f"  {population:<6} {kind:<9} {kept} kept of {stats[kind]['tried']} mutants "
            f"({stats[kind]['accepted']} accepted by Puppet, {stats[kind]['crashed']} crashed it)")
    for m, err in crashes:
        log(f"    (Puppet crashed on {m.path} [{m.kind}] {m.description} at line {m.damage_line}: {err[:160]})")
    return outcomes, stats


def snippet(o: Outcome, context: int = 3) -> str:
    """The mutant's lines around the damage, numbered, the damaged line marked."""
    m = o.mutant
    lines = m.text.split("\n")
    d = min(m.damage_line, len(lines))
    lo, hi = max(1, d - context), min(len(lines), d + context)
    out = []
    for n in range(lo, hi + 1):
        mark = ">>" if n == d else "  "
        out.append(f"    {mark}{n:5} | {lines[n - 1]}")
    if m.kind == "truncate":
        out.append("    (end of file)")
    return "\n".join(out)


def describe(o: Outcome) -> str:
    m = o.mutant
    head = f"{m.path} [{m.population} / {m.kind}] {m.description} at line {m.damage_line}"
    ours = "; ".join(f"{line}:{col} {code} {msg}" for line, col, code, msg in o.errors[:4]) or "(none)"
    if len(o.errors) > 4:
        ours += f"; … {len(o.errors) - 4} more"
    puppet = "; ".join(f"{'line ' + str(line) if line else 'no position'}: {msg}"
                       for line, msg in zip(o.puppet_lines, o.puppet_messages)) or "(n/a)"
    parts = [head, snippet(o), f"    puppet-ls: {ours}", f"    Puppet:    {puppet}"]
    if o.missing_defs:
        parts.append("    lost definitions: " + ", ".join(f"{k} {n}" for k, n in o.missing_defs))
    for stage, msg, where in o.exceptions:
        parts.append(f"    EXCEPTION in {stage}: {msg} ({where})")
    return "\n".join(parts)


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:6.1f}%" if d else "    n/a"


def report(outcomes: list[Outcome], title: str) -> list[str]:
    rows = [title,
            "kind        mutants  error    within3  first-w3  Puppet-w3  errors(med)  defs-kept (checked)  exceptions",
            "----------  -------  -------  -------  --------  ---------  -----------  -------------------  ----------"]
    for kind in (*KINDS, None):
        sel = [o for o in outcomes if kind is None or o.mutant.kind == kind]
        n = len(sel)
        med = statistics.median(len(o.errors) for o in sel) if sel else 0
        rows.append(f"{kind or 'TOTAL':<10}  {n:7}  {_pct(sum(o.got_error for o in sel), n)}  "
                    f"{_pct(sum(o.near for o in sel), n)}  {_pct(sum(o.first_near for o in sel), n)}   "
                    f"{_pct(sum(o.puppet_near for o in sel), n)}    {med:9g}  "
                    f"{_pct(sum(o.defs_kept for o in sel), n)} ({sum(o.checked_defs > 0 for o in sel):3}/"
                    f"{sum(o.checked_defs for o in sel):4})  {sum(bool(o.exceptions) for o in sel):10}")
    return rows


def write_results(outcomes: list[Outcome], directory: str) -> tuple[str, str]:
    os.makedirs(directory, exist_ok=True)
    tsv = os.path.join(directory, "fault_tolerance.tsv")
    with open(tsv, "w", encoding="utf-8") as f:
        f.write("population\tfile\tkind\tdescription\tdamage_line\tour_first_error_line\tour_nearest_error_line\t"
                "puppet_line\tgot_error\twithin3\tpuppet_within3\tmissing_defs\texceptions\tms\n")
        for o in outcomes:
            m = o.mutant
            first = o.errors[0][0] if o.errors else ""
            nearest = min((line for line, *_ in o.errors), key=lambda x: abs(x - m.damage_line), default="")
            pl = ",".join("eoi" if line is None else str(line) for line in o.puppet_lines)
            f.write("\t".join(str(x) for x in (
                m.population, m.path, m.kind, m.description.replace("\t", "\\t"), m.damage_line, first, nearest, pl,
                int(o.got_error), int(o.near), int(o.puppet_near),
                ";".join(f"{k} {n}" for k, n in o.missing_defs),
                ";".join(f"{s}: {msg}" for s, msg, _ in o.exceptions), f"{o.seconds * 1000:.1f}")) + "\n")
    fails = os.path.join(directory, "fault_tolerance_failures.txt")
    with open(fails, "w", encoding="utf-8") as f:
        for title, pred in _FAILURE_CLASSES:
            sel = [o for o in outcomes if pred(o)]
            f.write(f"===== {title}: {len(sel)}\n\n")
            for o in sel:
                f.write(describe(o) + "\n\n")
    return tsv, fails


_FAILURE_CLASSES = (
    ("exceptions", lambda o: bool(o.exceptions)),
    ("no error at all", lambda o: not o.got_error),
    ("no error within 3 lines", lambda o: o.got_error and not o.near),
    ("definitions lost", lambda o: not o.defs_kept),
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-kind", type=int, default=110,
                    help="Puppet-rejected mutants to keep per kind, of single corpus files")
    ap.add_argument("--bundle-per-kind", type=int, default=50,
                    help="Puppet-rejected mutants to keep per kind, of three-file bundles")
    ap.add_argument("--seed", type=int, default=20240607)
    ap.add_argument("--failures", type=int, default=6, help="failing examples printed per failure class")
    ap.add_argument("--results", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    ns = ap.parse_args(argv)

    paths = corpus_files()
    if not paths:
        print("no corpus files found; install them with ../shared/corpus/corpus.sh")
        return 0
    oracle = open_oracle()
    if oracle is None:
        print("the Puppet oracle is not available (apt-get install puppet-agent); without it no "
              "mutant can be confirmed as broken, so nothing is measured")
        return 0
    t0 = time.perf_counter()
    print(f"generating mutants (seed {ns.seed}; per kind {ns.per_kind} of single files and "
          f"{ns.bundle_per_kind} of three-file bundles, each one rejected by Puppet)")
    try:
        outcomes, _ = generate(paths, ns.per_kind, ns.seed, oracle, "file")
        bundles, _ = generate(paths, ns.bundle_per_kind, ns.seed, oracle, "bundle")
    finally:
        oracle.close()
    outcomes += bundles
    for population, title in (("file", "single corpus files"), ("bundle", "three-file bundles"),
                              (None, "all mutants")):
        sel = [o for o in outcomes if population is None or o.mutant.population == population]
        print()
        for row in report(sel, f"-- {title}"):
            print(row)
    print()
    print("error = puppet-ls reports >= 1 error; within3 = one of them within 3 lines of the damage;")
    print("first-w3 = our first error is (Puppet reports one error, so this is the like-for-like figure);")
    print("errors(med) = median number of errors puppet-ls reports per mutant (cascades show up here);")
    print("Puppet-w3 = the same for Puppet's errors (end-of-input errors have no line: counted as not);")
    print("defs-kept = every definition outside the damage is still in the outline; (checked) = how many")
    print("mutants had such definitions / how many definitions were checked in all (no corpus file")
    print("holds more than one definition, so only the bundles exercise this check).")
    tsv, fails = write_results(outcomes, ns.results)
    slowest = max(outcomes, key=lambda o: o.seconds, default=None)
    if slowest is not None:
        print(f"slowest mutant: {slowest.seconds * 1000:.1f} ms ({slowest.mutant.path}, {slowest.mutant.kind})")
    print(f"mutant list: {tsv}\nfailing examples: {fails}\n({time.perf_counter() - t0:.1f} s)")
    for title, pred in _FAILURE_CLASSES:
        sel = [o for o in outcomes if pred(o)]
        if not sel:
            continue
        print(f"\n===== {title}: {len(sel)} (first {min(len(sel), ns.failures)})\n")
        for o in sel[:ns.failures]:
            print(describe(o) + "\n")
    bad = sum(bool(o.exceptions) for o in outcomes)
    if bad:
        print(f"BUG: {bad} mutant(s) made puppet-ls raise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
