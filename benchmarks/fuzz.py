#!/usr/bin/env python3
"""Fuzz the engine with mutated Puppet files: every stage the editor and ``puppet-ls check`` run
must answer every text without an exception, within 2 s, and incremental reparsing must give
exactly what a full parse gives.

Each *case* takes one file (the shared corpus, else the bundled fixtures), applies 1-4 seeded
mutations to it (character level: delete/insert/duplicate/swap spans, quotes, brackets, ``$``,
``${``, heredoc and EPP tags, non-ASCII and astral characters, lone surrogates, NUL, CR, tabs,
very long lines; line level: delete/duplicate/move lines, truncate; hostile snippets: deep
nesting, catastrophic regexps, exponential reduce, huge strings and loops) and runs on the
result, each one timed as one *operation*:

  parse, validate, analyze (scopes and types), check (``file_diagnostics``, what
  ``puppet-ls check`` and the server publish), symbols, folding, semantic tokens; hover,
  completion, signature help and highlights at 5 seeded offsets; previews (``ide.preview.previews``
  over the whole file with the server's default budget: the inlay hints); hover values and
  previews are evaluated by the server's own supervised worker (``server/evalworker.py``,
  killed at the request's deadline), and an internal error of the evaluator is a finding;
  incremental (6
  seeded edits, each ``reparse`` of the previous result compared with ``parse`` of the new
  text: equal green trees and equal errors, as tests/syntax/test_edits.py compares them; in a
  quarter of the cases then a construct typed a keystroke at a time and deleted again, each
  keystroke compared the same way; the reparse and the reference parse are timed as two
  operations, the comparison not at all).

A *finding* is an exception (including a ``CHECK_INTERNAL_ERROR`` diagnostic, which is one
swallowed), a hang (an operation using more than 2 s of CPU; one that has used ``--kill``
seconds of CPU, or ten times that in wall time, is killed and the worker restarted), or a mismatch
(incremental != full, or a tree that does not give back its text).  CPU time is the measure
because the machine may be shared; operations over 2 s of *wall* time are counted and shown
apart ("slow wall").  The cases run in a child process watched by this one: a real hang is
killed and recorded, and the run goes on; the child writes its main thread's stack (a SIGALRM
handler) for any operation still running after 2 s, so a hang in Python code comes with where it
was (one stuck in C code shows it when it returns, or not at all when it is killed).

With ``PUPPET_LS_FUZZ_CORES=1`` in the environment a crashing worker leaves a core file in
``--out`` (``gdb python3 core``: the C stack of a crash that left no Python stack).

Every finding is written to ``--out`` as a reproducer file (shrunk line by line while the
same finding persists, when it is an exception or a hang) plus one JSON line in
``findings.jsonl`` (stage, kind, seed, case, operation, traceback or stack).  Replay one with
``--replay FILE [--stage S] [--offset N]``.  Exit status 1 when there was any finding.

    python3 benchmarks/fuzz.py [--minutes 30] [--seed 1] [--files LIST] [--out DIR]
                               [--cases N] [--kill 12]
"""
from __future__ import annotations

import argparse
import faulthandler
import signal
import json
import multiprocessing as mp
import os
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import REPO, corpus_files, read_texts

HANG_S = 2.0              # an operation using more CPU than this is a hang
KILL_S = 12.0             # CPU time after which the worker is killed (a hang for sure)
WALL_FACTOR = 10          # ... or this many times that in wall time (blocked, not computing)
OFFSETS = 5               # cursor positions per case for hover, completion, ...
EDITS = 6                 # incremental edits per case
TYPING_SHARE = 0.25       # the share of cases that also type a construct and delete it (see TYPED)
MEMORY_MB = 3072          # the worker's address-space cap: a blow-up becomes MemoryError
FIXTURE_GLOBS = ("fixtures/syntax/*.pp", "fixtures/syntax/*.epp", "fixtures/lsp/samples/*.pp",
                 "fixtures/check/*.pp", "fixtures/check/*.epp")

STAGES = ("parse", "validate", "analyze", "check", "symbols", "folding", "semantic_tokens",
          "hover", "completion", "signature", "highlights", "previews", "incremental")

# ---- mutations ------------------------------------------------------------------------------

CHAR_SNIPPETS = [
    "'", '"', "{", "}", "[", "]", "(", ")", "|", "$", "${", "${x", "}", "@(", "@(E", "${@(", "@(END)\n", '@("END"/L)\n',
    "@(END:json)\n", "\nEND\n", "| END\n", "-END\n", "<%", "<%=", "<%-", "%>", "-%>", "<%#", "%%>",
    "é", "É", "::É", "::école", "日本語", "😀", "\U0010ffff", "\ud800", "\udfff", "\udc00\ud800",
    "\x00", "\r", "\r\n", "\t", "\x0b", "\x0c", "\x1b", "\\", "/", "#", "/*", "*/", "=>", "->", "~>",
    "<-", "<~", "<|", "|>", "<<|", "|>>", "::", "=~", "!~", "?", ":", "@@", "@", "-", "'\\", '"\\',
    "\\u{", "\\u{D800}", "\\u{110000}", "\\u", "\ufeff", "\u2028", "\u200b", "\u0301", "$::", "$_",
    "%", "*", "+=", "==", ",", ";", "0x", "0777", "1e", "1.5e-", "undef", "default", "node",
    "class", "define", "if", "unless", "case", "else", "elsif", "function", "type", "plan", "apply",
    "Resource[", "Pattern[/", "Regexp[", "Integer[", "Enum[", "Sensitive(", "~", "`", "^",
]

LONG_LINES = [
    lambda r: "x" * r.choice([4_000, 30_000, 120_000]),
    lambda r: "$long = '" + "a" * r.choice([10_000, 200_000]) + "'\n",
    lambda r: '$dq = "' + "${x}" * r.choice([1_000, 20_000]) + '"\n',
    lambda r: "$arr = [" + "1, " * r.choice([2_000, 50_000]) + "]\n",
    lambda r: "$h = {" + "".join(f"'k{i}' => {i}, " for i in range(r.choice([1_000, 20_000]))) + "}\n",
    lambda r: "notice(" + "$a + " * r.choice([1_000, 10_000]) + "1)\n",
    lambda r: "# " + "comment " * 20_000 + "\n",
]


def _nest(open_: str, close: str, inner: str = "1"):
    def make(r: random.Random) -> str:
        n = r.choice([30, 99, 100, 101, 300, 1_000, 3_000])
        return open_ * n + inner + close * n
    return make


HOSTILE = [
    _nest("[", "]"), _nest("(", ")"), _nest("{", "}", ""), _nest("{a=>", "}"), _nest("-", ""),
    _nest("!", "", "$x"), _nest("if $x {", "}", ""), _nest("class c { ", "}", ""),
    _nest('"${', '}"', "1"), _nest('"${"', '"}"', ""), _nest("[1,", "]"), _nest("Array[", "]", "Integer"),
    _nest("$x ? { 1 => ", " }", "2"), _nest("case $x { 1: { ", "} }", ""), _nest("@(E)\n", "\nE\n", ""),
    _nest("f(", ")"), _nest("$a.map |$x| { ", " }", "$x"), _nest("<%= ", " %>", "1"),
    lambda r: "$x = 1" + " ? { 1 => 2, default => 3 }" * r.choice([100, 300, 1_000, 3_000]) + "\n",
    lambda r: "$x = 1" + ".then |$v| { $v }" * r.choice([100, 1_000]) + "\n",
    lambda r: "$x = $a" + "[0]" * r.choice([300, 3_000]) + "\n",
    lambda r: "$x = 1" + " + 1" * r.choice([300, 3_000, 20_000]) + "\n",
    lambda r: "$x = " + "$y = " * r.choice([300, 3_000]) + "1\n",
    lambda r: "$m = '" + "a" * r.choice([30, 40, 60]) + "!' =~ " + r.choice(
        ["/^(a|aa)+$/", "/^(a+)+$/", "/(a*)*b/", "/^(\\w+\\s?)*$/", "/(a|a)*c/"]) + "\n",
    lambda r: "$m = match('" + "a" * 40 + "!', /^(a+)+$/)\n",
    lambda r: "$m = regsubst('" + "a" * 40 + "!', /^(a|aa)+$/, 'x')\n",
    lambda r: "$m = split('" + "a" * 40 + "!', /^(a+)+$/)\n",
    lambda r: "$m = '" + "a" * 40 + "!' ? { /^(a+)+$/ => 1, default => 2 }\n",
    lambda r: "case '" + "a" * 40 + "!' { /^(a+)+$/: { notice(1) } }\n",
    lambda r: "$m = '" + "a" * 40 + "!' =~ Pattern[/^(a+)+$/]\n",
    lambda r: "$m = Regexp('^(a+)+$') =~ '" + "a" * 40 + "'\n",
    lambda r: "$e = Integer[1,40].reduce([1]) |$a,$x| { [$a,$a] }\n",
    lambda r: "$e = Integer[1,40].reduce({a=>1}) |$a,$x| { {a=>$a, b=>$a} }\n",
    lambda r: "$e = Integer[1,34].reduce('ab') |$a,$x| { \"${a}${a}\" }\n",
    lambda r: "$e = Integer[1,40].reduce([1]) |$a,$x| { $a + $a }\n",
    lambda r: "$e = range(1, 100000000).map |$x| { $x }\n",
    lambda r: "$e = Integer[1, 100000000].each |$x| { }\n",
    lambda r: "$e = 'x' * 100000000\n",
    lambda r: "$e = sprintf('%0999999999d', 1)\n",
    lambda r: "$e = '%s' % ['a' * 10]\n",
    lambda r: "$e = 9" + "9" * r.choice([20, 400, 5_000]) + "\n",
    lambda r: "$e = 1e" + "9" * r.choice([3, 10, 400]) + "\n",
    lambda r: "$e = 0x" + "f" * r.choice([17, 400]) + "\n",
    lambda r: "$e = \"" + "\\u{D800}" * 3 + "\"\n",
    lambda r: "$e = \"a\\u{110000}b\"\n",
    lambda r: "function f($n) { f($n + 1) }\n$e = f(1)\n",
    lambda r: "$e = [1,2,3].map |$x| { $e }\n",
    lambda r: "type A = Array[A]\n$e = [[1]] =~ A\n",
    lambda r: "type T = Variant[Integer, Array[T]]\n$e = " + "[" * 200 + "1" + "]" * 200 + " =~ T\n",
    lambda r: "$e = String(" + "[" * 300 + "]" * 300 + ")\n",
    lambda r: "$e = 'a'.repeat(100000000)\n",
    lambda r: "$e = Timestamp('2020-01-01') + " + "9" * 30 + "\n",
    lambda r: "$e = Binary('" + "QUJD" * 10_000 + "')\n",
]


def _pos(r: random.Random, text: str) -> int:
    return r.randrange(len(text) + 1)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    i = text.find("\n")
    while i != -1:
        starts.append(i + 1)
        i = text.find("\n", i + 1)
    return starts


def _span(r: random.Random, text: str) -> tuple[int, int]:
    a = _pos(r, text)
    n = r.choice([1, 1, 2, 3, 5, 10, 40, 200])
    return a, min(len(text), a + n)


def m_delete(r, t):
    a, b = _span(r, t)
    return t[:a] + t[b:], f"delete {a}:{b}"


def m_insert(r, t):
    a = _pos(r, t)
    s = r.choice(CHAR_SNIPPETS)
    return t[:a] + s + t[a:], f"insert {a} {s!r}"


def m_duplicate(r, t):
    a, b = _span(r, t)
    return t[:b] + t[a:b] + t[b:], f"duplicate {a}:{b}"


def m_swap(r, t):
    a, b = _span(r, t)
    c, d = _span(r, t)
    if c < a:
        a, b, c, d = c, d, a, b
    if b > c:
        return t, "swap (overlap: none)"
    return t[:a] + t[c:d] + t[b:c] + t[a:b] + t[d:], f"swap {a}:{b} {c}:{d}"


def m_long_line(r, t):
    a = r.choice(_line_starts(t))
    return t[:a] + r.choice(LONG_LINES)(r) + t[a:], f"long line at {a}"


def m_line_delete(r, t):
    lines = t.splitlines(keepends=True)
    if not lines:
        return t, "delete line (none)"
    i = r.randrange(len(lines))
    n = r.choice([1, 1, 2, 5])
    return "".join(lines[:i] + lines[i + n:]), f"delete lines {i}+{n}"


def m_line_duplicate(r, t):
    lines = t.splitlines(keepends=True)
    if not lines:
        return t, "duplicate line (none)"
    i = r.randrange(len(lines))
    return "".join(lines[:i + 1] + lines[i:]), f"duplicate line {i}"


def m_line_move(r, t):
    lines = t.splitlines(keepends=True)
    if len(lines) < 2:
        return t, "move line (none)"
    i = r.randrange(len(lines))
    line = lines.pop(i)
    j = r.randrange(len(lines) + 1)
    lines.insert(j, line)
    return "".join(lines), f"move line {i}->{j}"


def m_truncate(r, t):
    a = _pos(r, t)
    return t[:a], f"truncate {a}"


def m_hostile(r, t):
    k = r.randrange(len(HOSTILE))
    a = r.choice(_line_starts(t)) if r.random() < 0.7 else _pos(r, t)
    return t[:a] + HOSTILE[k](r) + t[a:], f"hostile #{k} at {a}"


MUTATIONS = [(m_delete, 6), (m_insert, 10), (m_duplicate, 3), (m_swap, 2), (m_long_line, 1),
             (m_line_delete, 3), (m_line_duplicate, 2), (m_line_move, 2), (m_truncate, 2), (m_hostile, 3)]
_FNS = [f for f, _ in MUTATIONS]
_WEIGHTS = [w for _, w in MUTATIONS]


def mutate(text: str, r: random.Random) -> tuple[str, list[str]]:
    done = []
    for fn in r.choices(_FNS, _WEIGHTS, k=r.choice([1, 1, 2, 3, 4])):
        text, what = fn(r, text)
        done.append(what)
    return text, done


# Edits for the incremental stage: what typing and deleting does, plus the lexically nasty.
EDIT_SNIPPETS = ["", "x", "{", "}", "'", '"', "$a = 1\n", ",", "=>", "(", ")", " ", "\n", "[", "]",
                 "#", "@(E)", "|", "-> ", "foo(", "if $x {", "1", "${", "/*", "*/", "<|", "\\", "::",
                 "é", "😀", "\ud800", "\x00", "\r", "\t", "E\n", "<%", "%>", "/", "class a {", "node",
                 "@(", "${@("]


# Constructs typed a keystroke at a time by the incremental stage (and deleted again), whose
# every prefix is unfinished code: quotes, braces, interpolations, heredocs, comments, regexps.
TYPED = [
    "file { '/tmp/x':\n  ensure => present,\n}\n",
    "if $facts['os']['family'] == 'Debian' {\n  notice(\"${x}\")\n}\n",
    "$h = { 'a' => [1, 2], 'b' => { 'c' => $d } }\n",
    "class a::b (String $x = 'y') inherits a {\n}\n",
    "$t = @(EOT)\n  text ${v}\n  | EOT\n",
    "case $x {\n  /^a/: { }\n  default: { }\n}\n",
    "# a comment with 'quotes\" and {\n",
    "/* block */ $y = $x ? { 'a' => 1, default => 2 }\n",
    "Package['a'] -> Service['b'] ~> Exec[\"c ${d}\"]\n",
    "$z = [1, 2, 3].map |$i| { $i * 2 }\n",
]


# ---- the stages -----------------------------------------------------------------------------

@dataclass
class Finding:
    stage: str
    kind: str                   # exception, hang, mismatch
    message: str
    detail: str = ""            # traceback, stack dump, or what differs
    arg: object = None          # the operation's argument (offset, edit)
    wall: float = 0.0
    cpu: float = 0.0
    base: str | None = None     # incremental: the text the failing edit was applied to

    def signature(self) -> str:
        return f"{self.stage}|{self.kind}|{self.message.split(':')[0]}|{_last_frame(self.detail)}"


def _last_frame(tb: str) -> str:
    lines = [ln.strip() for ln in tb.splitlines() if ln.strip().startswith("File ")]
    return lines[-1] if lines else ""


@dataclass
class CaseResult:
    ops: dict = field(default_factory=dict)          # stage -> count
    wall: dict = field(default_factory=dict)         # stage -> max wall s
    cpu: dict = field(default_factory=dict)          # stage -> max cpu s
    slow_wall: dict = field(default_factory=dict)    # stage -> ops over HANG_S wall (not CPU)
    worst: dict = field(default_factory=dict)        # stage -> (cpu, wall, arg) of its costliest op
    findings: list = field(default_factory=list)


class Runner:
    """Runs the stages on one text, timing each operation; ``state`` (shared with the watching
    parent) holds the running operation's stage and start time, ``dump`` a file for stack dumps.
    Hover values and previews are evaluated as the server evaluates them: by its supervised
    worker process (``server/evalworker.py``, killed at the request's deadline) when
    ``server_evaluator``, else in this process (the CLI's evaluator)."""

    def __init__(self, state=None, dump=None, server_evaluator: bool = False):
        self.state = state
        self.dump = dump
        self.server_evaluator = server_evaluator
        self._evalworker = None
        self.eval_errors: list[str] = []

    def evaluator(self, total_seconds: float):
        """The evaluator of one request (a deadline of ``total_seconds`` from now) that also
        notes the evaluator's internal errors, which it answers as ordinary failures."""
        from puppet_ls.language.ide.preview import evaluate_in_process
        if self.server_evaluator and self._evalworker is None:
            from puppet_ls.server.evalworker import EvalWorker
            self._evalworker = EvalWorker()
            self._evalworker.ever_ready.wait(60)
        worker = self._evalworker
        deadline = time.monotonic() + total_seconds

        def evaluate(program: str, budget) -> tuple:
            if worker is not None:
                res = worker.evaluate(program, budget.steps, budget.seconds, deadline)
            else:
                res = evaluate_in_process(program, budget)
            error = res[3] or ""
            if "Internal error" in error or error.startswith("evaluation failed"):
                self.eval_errors.append(error)
            return res
        return evaluate

    def evaluating(self, fn):
        """``fn`` raising when the evaluator reported an internal error while it ran."""
        def run():
            self.eval_errors.clear()
            out = fn()
            if self.eval_errors:
                raise RuntimeError(f"the evaluator failed: {self.eval_errors[0]}")
            return out
        return run

    def run(self, text: str, path: str, ops_seed: str, only: str | None = None,
            offset: int | None = None) -> CaseResult:
        from puppet_ls.language.check import analyze
        from puppet_ls.language.ide import completion as ide_completion
        from puppet_ls.language.ide import folding as ide_folding
        from puppet_ls.language.ide import hover as ide_hover
        from puppet_ls.language.ide import navigation as ide_navigation
        from puppet_ls.language.ide import preview as ide_preview
        from puppet_ls.language.ide import semantic_tokens as ide_tokens
        from puppet_ls.language.ide import signature as ide_signature
        from puppet_ls.language.ide import symbols as ide_symbols
        from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
        from puppet_ls.language.syntax.validate import validate

        res = CaseResult()
        r = random.Random(ops_seed)
        want = (lambda s: s == only) if only else (lambda s: True)

        def parse_lossless():
            result = parse_for_path(text, path)
            return result, result.green.text() == text
        parsed = self.op(res, "parse", parse_lossless)
        if parsed is None:
            return res
        result, lossless = parsed
        if not lossless:
            res.findings.append(Finding("parse", "mismatch", "the tree does not give back the text"))
            return res
        if want("validate"):
            self.op(res, "validate", lambda: validate(result))
        an = self.op(res, "analyze", lambda: analyze(result))
        if an is None:
            return res
        if want("check"):
            diags = self.op(res, "check", lambda: file_diagnostics(result, None, an))
            for d in diags or ():
                if d.code == "CHECK_INTERNAL_ERROR":
                    res.findings.append(Finding("check", "exception", d.message, d.message))
        if want("symbols"):
            self.op(res, "symbols", lambda: ide_symbols.flatten(ide_symbols.document_symbols(result)))
        if want("folding"):
            self.op(res, "folding", lambda: ide_folding.folding_ranges(result))
        if want("semantic_tokens"):
            self.op(res, "semantic_tokens", lambda: ide_tokens.semantic_tokens(an))

        # The server's defaults (server/settings.py, lsp.py:_budget): 20,000 steps and 50 ms an
        # expression, 0.3 s a request.
        def budget():
            b = ide_preview.PreviewBudget(steps=20_000, seconds=0.05, total_seconds=0.3)
            b.evaluator = self.evaluator(b.total_seconds)
            return b
        offsets = [r.randrange(len(text) + 1) for _ in range(OFFSETS)]
        if offset is not None:
            offsets = [offset]
        for off in offsets:
            if want("hover"):
                self.op(res, "hover", self.evaluating(lambda off=off: ide_hover.hover(an, off, budget(), values=True)),
                        off)
            if want("completion"):
                self.op(res, "completion", lambda off=off: ide_completion.complete(an, off), off)
            if want("signature"):
                self.op(res, "signature", lambda off=off: ide_signature.signature_help(an, off), off)
            if want("highlights"):
                self.op(res, "highlights", lambda off=off: ide_navigation.highlights(an, off), off)
        if want("previews"):
            self.op(res, "previews", self.evaluating(lambda: ide_preview.previews(an, 0, len(text), budget())))
        if want("incremental"):
            self.incremental(res, r, text, path, result)
        return res

    def incremental(self, res: CaseResult, r: random.Random, text: str, path: str, result) -> None:
        old = result
        for _ in range(EDITS):
            a = r.randrange(len(text) + 1)
            b = min(len(text), a + r.choice([0, 0, 1, 2, 5, 20]))
            step = self._edit(res, old, text, (a, b, r.choice(EDIT_SNIPPETS)), path)
            if step is None:
                return
            old, text = step
        if r.random() >= TYPING_SHARE:
            return
        # Typing: a construct typed a character at a time at one place and deleted again from
        # its end, each keystroke reparsed from the previous one's result, as in an editor; every
        # state in between is unfinished (an open quote, brace, heredoc or interpolation).
        line_starts = _line_starts(text)
        at = r.choice(line_starts) if r.random() < 0.5 else r.randrange(len(text) + 1)
        typed = r.choice(TYPED)
        for i, ch in enumerate(typed):
            step = self._edit(res, old, text, (at + i, at + i, ch), path)
            if step is None:
                return
            old, text = step
        for i in range(len(typed) - 1, -1, -1):
            step = self._edit(res, old, text, (at + i, at + i + 1, ""), path)
            if step is None:
                return
            old, text = step

    def _edit(self, res: CaseResult, old, text: str, edit: tuple, path: str):
        """One edit reparsed incrementally and compared with a full parse: (result, new text), or
        None once it made a finding."""
        from puppet_ls.language.ide.diagnostics import parse_for_path
        from puppet_ls.language.syntax.incremental import reparse
        tasks = "/plans/" in path.replace("\\", "/")
        a, b, ins = edit
        new_text = text[:a] + ins + text[b:]
        # The server's operation (the reparse) and the reference (a full parse, also what the
        # server does on open) are timed as two operations: each must stay under HANG_S.
        # The comparison of the trees is the fuzzer's own work and is not timed.
        inc = self.op(res, "incremental", lambda: reparse(old, a, b, ins, tasks=tasks), edit)
        full = None if inc is None else self.op(res, "incremental", lambda: parse_for_path(new_text, path), edit)
        if inc is None or full is None:
            res.findings[-1].base = text
            return None
        why = _difference(inc, full, new_text)
        if why:
            res.findings.append(Finding("incremental", "mismatch", why, arg=edit, base=text))
            return None
        return inc, new_text

    def op(self, res: CaseResult, stage: str, fn, arg=None):
        res.ops[stage] = res.ops.get(stage, 0) + 1
        if self.state is not None:
            self.state["name"].value = stage.encode()
            self.state["start"].value = time.monotonic()
            self.state["cpu0"].value = time.process_time()
        if self.dump is not None:
            self._arm_watchdog()
        t0, c0 = time.perf_counter(), time.process_time()
        out = None
        error = None
        try:
            out = fn()
        except Exception:  # noqa: BLE001 - an exception of any stage is what we look for
            error = traceback.format_exc()
        finally:
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            if self.dump is not None:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if self.state is not None:
                self.state["start"].value = 0.0
        res.wall[stage] = max(res.wall.get(stage, 0.0), wall)
        res.cpu[stage] = max(res.cpu.get(stage, 0.0), cpu)
        if cpu > res.worst.get(stage, (-1.0,))[0]:
            res.worst[stage] = (cpu, wall, arg if not isinstance(arg, tuple) else list(arg))
        stack = self._take_dump() if wall > HANG_S else ""
        if wall > HANG_S and cpu <= HANG_S:
            res.slow_wall[stage] = res.slow_wall.get(stage, 0) + 1
        if error is not None:
            last = error.strip().splitlines()[-1]
            res.findings.append(Finding(stage, "exception", last, error, arg, wall, cpu))
            return None
        if cpu > HANG_S:
            res.findings.append(Finding(stage, "hang", f"{cpu:.2f} s CPU ({wall:.2f} s wall)", stack, arg,
                                        wall, cpu))
        return out

    def _arm_watchdog(self) -> None:
        """After HANG_S of wall time, write where the operation is to the dump file.  A SIGALRM
        handler, run by the main thread itself: faulthandler's watchdog thread reads the other
        threads' frames while they run (the evaluation worker's client threads), which is not
        safe, and the fuzz worker died of SIGSEGV twice in 30 minutes, each time after a slow
        operation, without a trace."""
        dump = self.dump
        assert dump is not None

        def on_alarm(signum, frame) -> None:
            where = "".join(traceback.format_stack(frame))
            os.write(dump.fileno(), f"still running after {HANG_S:g} s:\n{where}".encode("utf-8", "replace"))
        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, HANG_S)

    def _take_dump(self) -> str:
        if self.dump is None:
            return ""
        fd = self.dump.fileno()
        if os.fstat(fd).st_size == 0:
            return ""
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, 1 << 20).decode("utf-8", "replace")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        return data


def _difference(inc, full, text: str) -> str:
    """What differs between an incremental and a full parse ('' when nothing does)."""
    if inc.green.text() != text:
        return "incremental tree does not give back the text"
    if inc.green != full.green:
        return "trees differ"
    ei = [(e.offset, e.end, e.code, e.message) for e in inc.errors]
    ef = [(e.offset, e.end, e.code, e.message) for e in full.errors]
    if ei != ef:
        return f"errors differ: incremental {sorted(set(ei) - set(ef))[:3]} full {sorted(set(ef) - set(ei))[:3]}"
    # what the next incremental edit reads: the strings the recovery looked at
    if (tuple(inc.multiline_strings), tuple(inc.runaways), inc.recovered) != \
            (tuple(full.multiline_strings), tuple(full.runaways), full.recovered):
        return "multi-line or runaway strings differ"
    if tuple(inc.scans) != tuple(full.scans):
        return "lookaheads differ"
    return ""


# ---- the watched worker -----------------------------------------------------------------------

def _worker_main(conn, state, dump_path: str) -> None:
    import ctypes
    import resource
    import signal
    try:    # end with the fuzzer, even when it is killed (Linux)
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    cap = MEMORY_MB * 1024 * 1024
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):
        pass
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    if os.environ.get("PUPPET_LS_FUZZ_CORES"):
        # a crash leaves a core file in --out (for gdb: its C stack), where faulthandler cannot
        # help (a thread without an alternate signal stack overflowing its C stack)
        resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        os.chdir(os.path.dirname(os.path.abspath(dump_path)))
    # A crash in C code (SIGSEGV, SIGABRT) writes every thread's Python stack to a file the
    # watcher reads when the worker dies: the finding then says where.
    crash = open(dump_path + ".crash", "w", encoding="utf-8")   # noqa: SIM115 - open for the process's life
    faulthandler.enable(file=crash, all_threads=True)
    with open(dump_path, "w+", encoding="utf-8") as dump:
        runner = Runner(state, dump, server_evaluator=True)
        while True:
            try:
                job = conn.recv()
            except EOFError:
                return
            if job is None:
                return
            text, path, ops_seed, only, offset = job
            try:
                res = runner.run(text, path, ops_seed, only, offset)
            except Exception:  # noqa: BLE001 - a failure of the harness itself: report, go on
                res = CaseResult(findings=[Finding("harness", "exception", "the fuzzer failed",
                                                   traceback.format_exc())])
            conn.send(res)


class Worker:
    """A child process running cases, killed and restarted when an operation overruns."""

    def __init__(self, out: Path, kill_s: float):
        self.kill_s = kill_s
        self.dump_path = str(out / "worker-stack.txt")
        self.ctx = mp.get_context("spawn")      # a clean interpreter: nothing inherited
        self.proc = None
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        self.state = {"name": self.ctx.Array("c", 32, lock=False), "start": self.ctx.Value("d", 0.0, lock=False),
                      "cpu0": self.ctx.Value("d", 0.0, lock=False)}
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker_main, args=(child, self.state, self.dump_path), daemon=True)
        self.proc.start()
        child.close()

    def run(self, text: str, path: str, ops_seed: str, only=None, offset=None, kill_s=None) -> CaseResult:
        limit = kill_s or self.kill_s
        try:
            self.conn.send((text, path, ops_seed, only, offset))
        except (BrokenPipeError, OSError):
            self._restart()
            self.conn.send((text, path, ops_seed, only, offset))
        while True:
            if self.conn.poll(0.2):
                try:
                    return self.conn.recv()
                except (EOFError, OSError):
                    self.proc.join(2)     # reaped, its exit code (a signal: negative) is known
                    return self._died(f"the worker died (exit code {self.proc.exitcode})")
            start = self.state["start"].value
            # An operation is killed when it has used ``limit`` seconds of CPU (what HANG_S
            # measures too): on a loaded machine wall time says more about the neighbours than
            # about the operation.  Wall time still ends one that blocks without computing.
            cpu = max(0.0, self._cpu() - self.state["cpu0"].value) if start else 0.0
            if start and (cpu > limit or time.monotonic() - start > limit * WALL_FACTOR):
                stage = self.state["name"].value.decode()
                elapsed = time.monotonic() - start
                res = CaseResult()
                stack = ""
                try:
                    with open(self.dump_path, encoding="utf-8", errors="replace") as f:
                        stack = f.read()
                except OSError:
                    pass
                res.findings.append(Finding(stage, "hang", f"killed after {cpu:.1f} s CPU ({elapsed:.1f} s wall)",
                                            stack, wall=elapsed, cpu=cpu))
                res.wall[stage] = elapsed
                self._restart()
                return res
            if not self.proc.is_alive():
                return self._died(f"the worker died (exit code {self.proc.exitcode})")

    def _cpu(self) -> float:
        """The worker's CPU time so far (the clock its ``time.process_time`` reads), or 0 where
        /proc cannot tell: then only the wall-time bound applies."""
        try:
            with open(f"/proc/{self.proc.pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError, AttributeError):
            return 0.0

    def _died(self, why: str) -> CaseResult:
        stage = self.state["name"].value.decode()
        res = CaseResult()
        try:
            with open(self.dump_path + ".crash", encoding="utf-8", errors="replace") as f:
                stack = f.read()
        except OSError:
            stack = ""
        res.findings.append(Finding(stage, "exception", why, stack))
        self._restart()
        return res

    def _restart(self) -> None:
        self.restarts += 1
        if self.proc is not None and self.proc.is_alive():
            self.proc.kill()
        if self.proc is not None:
            self.proc.join(5)
        self._start()

    def close(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        if self.proc is not None:
            self.proc.join(5)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join()


class InProcess:
    """The same interface without a child: for the smoke test (no protection against hangs)."""

    def __init__(self):
        self.runner = Runner()
        self.restarts = 0

    def run(self, text, path, ops_seed, only=None, offset=None, kill_s=None) -> CaseResult:
        return self.runner.run(text, path, ops_seed, only, offset)

    def close(self) -> None:
        pass


# ---- shrinking and saving ------------------------------------------------------------------------

def shrink(worker, f: Finding, text: str, path: str, ops_seed: str, budget_s: float = 60.0) -> tuple[str, int | None]:
    """A smaller text (line by line, then by characters when short) on which the same stage
    still fails the same way; offsets move with the text.  Incremental mismatches and
    exceptions keep their base text (their edit sequence depends on it)."""
    if f.stage == "incremental":
        return text, None
    offset = f.arg if isinstance(f.arg, int) else None
    sig = f.signature()
    deadline = time.monotonic() + budget_s
    kill = max(HANG_S * 2, 5.0)

    def still(t: str, off: int | None) -> bool:
        if time.monotonic() > deadline:
            return False
        res = worker.run(t, path, ops_seed, only=f.stage, offset=off, kill_s=kill)
        for g in res.findings:
            if g.stage == f.stage and g.kind == f.kind and (f.kind == "hang" or g.signature() == sig):
                return True
        return False

    for unit in ("line", "char"):
        if unit == "char" and len(text) > 2_000:
            break
        pieces = text.splitlines(keepends=True) if unit == "line" else list(text)
        n = max(1, len(pieces) // 2)
        while n >= 1 and time.monotonic() < deadline:
            i = 0
            changed = False
            while i < len(pieces) and time.monotonic() < deadline:
                cut = "".join(pieces[i:i + n])
                start = len("".join(pieces[:i]))
                off = offset
                if off is not None:
                    if start <= off < start + len(cut):
                        i += n
                        continue
                    if off >= start + len(cut):
                        off -= len(cut)
                cand = pieces[:i] + pieces[i + n:]
                if still("".join(cand), off):
                    pieces, offset, changed = cand, off, True
                else:
                    i += n
            if not changed:
                n //= 2
        text = "".join(pieces)
    return text, offset


class Recorder:
    """Findings: counted by signature, the first few of each saved as a reproducer."""

    def __init__(self, out: Path, seed: int, keep: int = 3):
        self.out = out
        self.seed = seed
        self.keep = keep
        self.by_sig: dict[str, int] = {}
        self.total = 0
        self.saved = 0
        self.log = out / "findings.jsonl"

    def add(self, worker, f: Finding, case: int, path: str, text: str, mutations: list, ops_seed: str) -> None:
        self.total += 1
        sig = f.signature()
        self.by_sig[sig] = self.by_sig.get(sig, 0) + 1
        if self.by_sig[sig] > self.keep:
            return
        self.saved += 1
        # an incremental finding keeps the text its failing edit was applied to (f.base)
        small, offset = (f.base or text, f.arg) if f.kind == "mismatch" else \
            shrink(worker, f, f.base or text, path, ops_seed)
        ext = ".epp" if path.endswith(".epp") else ".pp"
        name = f"finding-{self.saved:03d}-{f.stage}-{f.kind}{ext}"
        (self.out / name).write_text(small, encoding="utf-8", errors="surrogatepass", newline="")
        rec = {"n": self.saved, "stage": f.stage, "kind": f.kind, "message": f.message, "seed": self.seed,
               "case": case, "ops_seed": ops_seed, "file": path, "mutations": mutations,
               "reproducer": name, "arg": f.arg if f.stage != "incremental" else None,
               "offset": offset if isinstance(offset, int) else None,
               "edit": list(f.arg) if f.stage == "incremental" and f.arg else None,
               "wall_s": round(f.wall, 3), "cpu_s": round(f.cpu, 3), "detail": f.detail[-6000:]}
        with open(self.log, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(rec, ensure_ascii=True) + "\n")
        print(f"  FINDING {self.saved}: {f.stage} {f.kind}: {f.message[:160]} -> {name}", flush=True)


# ---- the run ----------------------------------------------------------------------------------

def fixture_files() -> list[str]:
    """The bundled sample files (valid and broken manifests, templates)."""
    out: list[str] = []
    for g in FIXTURE_GLOBS:
        out += sorted(str(p) for p in REPO.glob(g))
    return out


def source_files(explicit: str | None) -> list[str]:
    return corpus_files(explicit) or fixture_files()


@dataclass
class Totals:
    cases: int = 0
    files: set = field(default_factory=set)
    ops: dict = field(default_factory=dict)
    wall: dict = field(default_factory=dict)
    cpu: dict = field(default_factory=dict)
    slow_wall: dict = field(default_factory=dict)
    findings: dict = field(default_factory=dict)     # stage -> count
    worst: dict = field(default_factory=dict)        # stage -> (cpu, wall, arg, case, path)

    def add(self, res: CaseResult, case: int = -1, path: str = "") -> None:
        for k, (cpu, wall, arg) in res.worst.items():
            if cpu > self.worst.get(k, (-1.0,))[0]:
                self.worst[k] = (cpu, wall, arg, case, path)
        for k, v in res.ops.items():
            self.ops[k] = self.ops.get(k, 0) + v
        for k, v in res.wall.items():
            self.wall[k] = max(self.wall.get(k, 0.0), v)
        for k, v in res.cpu.items():
            self.cpu[k] = max(self.cpu.get(k, 0.0), v)
        for k, v in res.slow_wall.items():
            self.slow_wall[k] = self.slow_wall.get(k, 0) + v
        for f in res.findings:
            self.findings[f.stage] = self.findings.get(f.stage, 0) + 1

    def table(self) -> str:
        rows = [f"{'stage':<16}{'operations':>11}{'max wall ms':>13}{'max CPU ms':>12}{'wall>2s':>9}{'findings':>10}"]
        for s in STAGES:
            rows.append(f"{s:<16}{self.ops.get(s, 0):>11}{self.wall.get(s, 0) * 1000:>13.0f}"
                        f"{self.cpu.get(s, 0) * 1000:>12.0f}{self.slow_wall.get(s, 0):>9}{self.findings.get(s, 0):>10}")
        rows.append(f"{'total':<16}{sum(self.ops.values()):>11}{max(self.wall.values(), default=0) * 1000:>13.0f}"
                    f"{max(self.cpu.values(), default=0) * 1000:>12.0f}{sum(self.slow_wall.values()):>9}"
                    f"{sum(self.findings.values()):>10}")
        return "\n".join(rows)


def make_case(seed: int, case: int, paths: list[str], texts: dict) -> tuple[str, str, list, str]:
    """Case ``case`` of ``seed``: (path, mutated text, mutations, seed of its operations)."""
    r = random.Random(f"{seed}:{case}")
    path = r.choice(paths)
    if path not in texts:
        texts[path] = read_texts([path])[0]
    text, mutations = mutate(texts[path], r)
    return path, text, mutations, f"{seed}:{case}:ops"


def run(paths: list[str], seed: int, out: Path, minutes: float | None = None, cases: int | None = None,
        in_process: bool = False, kill_s: float = KILL_S, progress_s: float = 30.0, quiet: bool = False) -> tuple[Totals, Recorder]:
    out.mkdir(parents=True, exist_ok=True)
    worker = InProcess() if in_process else Worker(out, kill_s)
    rec = Recorder(out, seed)
    tot = Totals()
    texts: dict = {}
    t0 = time.monotonic()
    end = t0 + minutes * 60 if minutes else None
    next_progress = t0 + progress_s
    case = 0
    try:
        while (end is None or time.monotonic() < end) and (cases is None or case < cases):
            path, text, mutations, ops_seed = make_case(seed, case, paths, texts)
            res = worker.run(text, path, ops_seed)
            tot.cases += 1
            tot.files.add(path)
            tot.add(res, case, path)
            for f in res.findings:
                rec.add(worker, f, case, path, text, mutations, ops_seed)
            case += 1
            if not quiet and time.monotonic() >= next_progress:
                next_progress += progress_s
                el = time.monotonic() - t0
                ops = " ".join(f"{s}={tot.ops.get(s, 0)}" for s in STAGES)
                print(f"[{el / 60:5.1f} min] files {len(tot.files)} mutations {tot.cases} findings {rec.total} "
                      f"restarts {worker.restarts} | {ops}", flush=True)
    finally:
        worker.close()
    return tot, rec


def replay(path: str, stage: str | None, offset: int | None, ops_seed: str) -> int:
    with open(path, encoding="utf-8", errors="surrogatepass", newline="") as fh:
        text = fh.read()
    res = Runner().run(text, path, ops_seed, stage, offset)
    for f in res.findings:
        print(f"{f.stage} {f.kind}: {f.message}\n{f.detail}")
    print(json.dumps({"ops": res.ops, "max_wall_ms": {k: round(v * 1000) for k, v in res.wall.items()}}))
    return 1 if res.findings else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=None, help="run this long (default 2 unless --cases)")
    ap.add_argument("--cases", type=int, default=None, help="stop after this many mutated texts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--files", help="file list, one path a line (default: the shared corpus, else fixtures/)")
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "fuzz"), help="where findings go")
    ap.add_argument("--kill", type=float, default=KILL_S, help="CPU seconds after which a running operation is killed (or 10 times that in wall seconds)")
    ap.add_argument("--replay", help="run the stages once on this file (a saved reproducer)")
    ap.add_argument("--stage", choices=STAGES, help="with --replay: only this stage (after parse/analyze)")
    ap.add_argument("--offset", type=int, help="with --replay: the cursor offset for hover etc.")
    ap.add_argument("--ops-seed", default="replay", help="with --replay: the ops_seed of the finding")
    ns = ap.parse_args(argv)
    if ns.replay:
        return replay(ns.replay, ns.stage, ns.offset, ns.ops_seed)
    minutes = ns.minutes if ns.minutes is not None or ns.cases is not None else 2.0
    paths = source_files(ns.files)
    if not paths:
        print("no input files (no corpus list and no fixtures)")
        return 2
    out = Path(ns.out)
    print(f"fuzz: seed {ns.seed}, {len(paths)} files, "
          f"{f'{minutes:g} min' if minutes else ''}{'' if ns.cases is None else f' {ns.cases} cases'}, "
          f"findings to {out}", flush=True)
    t0 = time.monotonic()
    tot, rec = run(paths, ns.seed, out, minutes, ns.cases, kill_s=ns.kill)
    el = time.monotonic() - t0
    print(f"\n{tot.cases} mutations of {len(tot.files)} files in {el / 60:.1f} min, "
          f"{sum(tot.ops.values())} operations, {rec.total} findings ({len(rec.by_sig)} distinct)")
    print(tot.table())
    print("costliest operation of each stage (CPU ms, wall ms, case, argument, file):")
    for s in STAGES:
        if s in tot.worst:
            cpu, wall, arg, case, path = tot.worst[s]
            print(f"  {s:<16}{cpu * 1000:>7.0f}{wall * 1000:>8.0f}  case {case}  {str(arg)[:40]!s:<12} {path}")
    if rec.total:
        print(f"findings: {rec.log}")
    return 1 if rec.total else 0


if __name__ == "__main__":
    sys.exit(main())
