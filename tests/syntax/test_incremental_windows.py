"""Incremental reparse windows (seeded, data-driven): typing or deleting each character that
can unbalance the lexer or the tree (quotes, brackets, braces, '|') anywhere in a file, valid
or broken, gives exactly what a full parse of the new text gives: the tree (kinds, shape,
every token's text), the errors with their positions and messages, and the multi-line strings
that recovery looks at, and the parser's lookaheads past braces.  Chains of edits start from the previous incremental result, as an
editor's do."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from puppet_ls.language.syntax import ENGINE
from puppet_ls.language.syntax.incremental import reparse
from puppet_ls.language.syntax.parser import ParseResult, parse
from tests.corpus import corpus_files

# Tests that count calls by patching a function or method of a compiled syntax module: the
# compiled engine's code calls them directly, past the patch (as in test_robustness.py).
counted_in_python = pytest.mark.skipif(
    ENGINE.compiled, reason="counts calls through a patched method, which the compiled syntax engine bypasses")

FIXTURES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "syntax").glob("*.pp"))
CHARACTERS = "'\"{}[]()|x;,=$#\n"
# Damage done to a file before the edits, so that the windows are tried on broken code too.
DAMAGE = ["", "{", "}", "'", '"', "(", "[", "=>", "/*", "if ", ",", "$"]


def check(old: ParseResult, start: int, end: int, new: str) -> tuple[ParseResult, str | None]:
    """The incremental result, and a description of how it differs from a full parse (None
    when equal)."""
    inc = reparse(old, start, end, new)
    text = old.text[:start] + new + old.text[end:]
    full = parse(text)
    if inc.text != text or inc.green.text() != text:
        return inc, "text"
    if inc.green != full.green:
        return inc, "tree"
    errs_inc = [(e.offset, e.end, e.code, e.message, e.hint) for e in inc.errors]
    errs_full = [(e.offset, e.end, e.code, e.message, e.hint) for e in full.errors]
    if errs_inc != errs_full:
        return inc, f"errors {errs_inc[:3]} != {errs_full[:3]}"
    if tuple(inc.multiline_strings) != tuple(full.multiline_strings):
        return inc, "multi-line strings"
    if (tuple(inc.runaways), inc.recovered) != (tuple(full.runaways), full.recovered):
        return inc, "runaway strings"
    if tuple(inc.scans) != tuple(full.scans):
        return inc, "lookaheads"
    if inc.pairing != full.pairing:
        return inc, f"brace pairing {inc.pairing} != {full.pairing}"
    return inc, None


def texts(seed: int, corpus: int) -> list[str]:
    files = corpus_files()
    rnd = random.Random(seed)
    chosen = rnd.sample(files, min(corpus, len(files))) if files else []
    return [p.read_text(encoding="utf-8") for p in FIXTURES] + \
        [Path(f).read_text(encoding="utf-8") for f in chosen]


def damaged(text: str, rnd: random.Random) -> str:
    damage = rnd.choice(DAMAGE)
    at = rnd.randrange(len(text) + 1)
    return text[:at] + damage + text[at:]


# (text, start, end, inserted): edits a window once got wrong (found by the tests below and by
# benchmarks/fuzz.py), each the smallest text that showed it
KNOWN_EDITS = [
    # where a double-quoted string ends was decided by a single-quoted string in one of its
    # interpolations, whose runaway test read past the double-quoted string's end: a quote
    # typed there changed it (an exploratory incremental fuzz run)
    ("class s{{{}{\"${'\n}}if$::s {{\"s 'e\n}}}", 30, 30, "'"),
    # a comma after a statement names the last statement before it even across a ';'
    # ('attempt to pass argument list to the function 'y'', as Puppet says), which a window
    # starting after the ';' does not see (an exploratory incremental fuzz run)
    ("y; t,{}", 6, 6, ","),
    # a parameter with no name reports it at the token after it; once the parameter has an
    # error of its own (an illegal character typed in it), that report goes (fuzz seed 2047)
    ("class(\n::P ){}", 10, 10, "\\"),
    # whether 'name {' opens a titled resource body is decided by a lookahead for ':' at depth 0
    # that reads past the statements in the body: a quote that takes a ')' into a string, or a
    # ']', changes its depth count (fuzz seed 2046, cases 18029 and 18823)
    ("e{case{'' {t for)\n}:{}}}", 11, 16, "'"),
    ("${{case$::s{t{ $::staging_windir\n  }}'':{}}}", 15, 35, "]"),
    # a hash made by recovery (the class's name went into an error) stays quiet about a later
    # '=>' once an error was reported before it in the hash: an error appearing in the 'if'
    # block inside it takes that report away (fuzz seed 2045; a brace-pairing window kept it)
    (("(Install the\n$e = 1\nclass filebeat::install::linux {\n  if $::kernel != 'Linux' {\n"
      "    fail('filebeat::install::linux shouldn\\'t run on Windows')\n  }\ud800at':\n"
      "    ensure => $filebeat::package_ensure,\n  }\n}\n"), 86, 91, "=>"),
    # an 'if' whose block is missing reports it only while its condition has no error: an error
    # appearing inside the condition (here in a block of it) takes that report away
    ("if class a {\n  define v($d) {}\n}\ndefine b {}\n", 27, 27, "["),
    ("if class a {\n  $x = 1\n}\ndefine b {}\n", 21, 21, "["),
    # a '/' typed in a window closes a regex that starts there and ends past the window
    ("$c = $a == 3 and $b != 4 o*/ 1 < 2\n", 15, 15, "*/"),
    # ... or one that starts before the window (a '/' lexed as a division) on the same line,
    ("$x = foo(/) $y = 1 $z = 2\n$w = 3\n", 24, 24, "/"),
    # ... even when typed inside a string or a comment
    ("$x = foo(/) $y = 'ab'\n", 19, 19, "/"),
    ("$x = foo(/) # ab\n", 14, 14, "/"),
    # an untitled resource body is reported at its own brace, not at that of the last resource
    # parsed inside it (a window in a lambda of its body changed that one)
    ("foo { x => $l.map |$y| {\n  $z = 1\n} }\n", 27, 27, "bar { y => 1 }\n"),
    ("foo { x => $l.map |$y| {\n  bar { y => 1 }\n} }\n", 27, 31, ""),
    # a window deep inside blocks is that deep in a full parse, where nesting is limited
    ("if $a {\n" * 48 + "$x = 1\n" + "}\n" * 48, 384, 384, "if $b { $y = 2 }\n"),
    # ... or inside resources with many '@@' (each a level of nesting, all in one node)
    (("@@" * 30 + "foo { 'a': x => $l.map |$y| {\n") * 3 + "$x = 1\n" + "} }\n" * 3, 270, 270, "$z = [[1]]\n"),
    # a block whose closing brace a broken interpolation swallowed ends at the end of the file:
    # its last token is a '}' but not its own, so it cannot be reparsed as '{ ... }'
    ("class c {\n  $p = \"${a[_dir}/b\"\n}\n", 21, 22, ""),
    # a quote typed before a string on a later line makes a runaway, ended at its line end,
    ("$a = 1\n$b = 2\nfile { 'x': mode => '0644' }\n", 5, 5, "'"),
    ("$a = 1\n$b = 2\nfile { 'x': mode => '0644' }\n", 5, 5, '"'),
    # ... and an edit far from it that changes what follows its would-be closing quote (here a
    # blank: the string is then one string over three lines) or adds a closing quote for it
    ("$a = 'x\n$b = 2\n$c = 'y'\n", 21, 21, " "),
    ("$a = 'x\n$b = 2\n$c = 3\n", 18, 18, "'"),
    ("$a = \"x\n$b = 2\n# it's \"so\"\n$c = 3\n", 26, 27, ""),
    # a string typed over lines closes again
    ("$a = 'x\n$b = 2\n$c = 'y'\n", 7, 7, "'"),
    # a runaway string right after the window, with nothing between (fuzz seed 2040, case 18)
    ("inclu/l'td\n\n  uuid_file => '/etc/uuid',\nclass { 'collectd::plugin::uuid':\n}\n", 4, 6, "é"),
    # a '{' right after a statement looks ahead to its first ',': an error at that ',' is not
    # reported a second time because another error came between (the window's error did)
    ("${if([]) {vese {}},{}}", 10, 15, "["),
    # a '(' or '[' left open ends at the closer of what holds it (the parameter list, the
    # interpolation): the edit is reparsed in the parameter's or the statement's window
    ("class a (\n  Boolean $x = false,\n  Boolean $y = true,\n) {\n  notify { 'a': }\n}\nclass b {}\n", 15, 15, "["),
    ("class a (\n  Boolean $x = false,\n  Boolean $y = true,\n) {\n  notify { 'a': }\n}\nclass b {}\n", 30, 30, "("),
    ('exec { \'x\':\n  command => "${tdc::gen} ${n} b",\n}\n$z = 1\n', 31, 31, "("),
    ('exec { \'x\':\n  command => "${tdc::gen} ${n} b",\n}\n$z = 1\n', 31, 31, "["),
    ('exec { \'x\':\n  command => "${tdc(::gen} ${n} b",\n}\n$z = 1\n', 31, 32, ""),
    # in a file whose braces do not balance, the syntax error at a '}' put in by brace pairing
    # names the next real token: typing in that string changes the message (a stress
    # differential of edits in unbalanced files)
    ("    package { $mime_support_package:\n      before => File['mi#[#\n'#me.conf'],", 67, 67, "{"),
]


@pytest.mark.parametrize("case", KNOWN_EDITS, ids=lambda c: repr(c[0][:c[1]] + "|" + c[3]))
def test_known_edits(case) -> None:
    text, start, end, inserted = case
    _, why = check(parse(text), start, end, inserted)
    assert why is None, why


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_single_character_edits(seed: int) -> None:
    """Insert each character at random places, and delete random occurrences of it."""
    rnd = random.Random(seed)
    differences = []
    for text in texts(seed, 10):
        if seed % 2:
            text = damaged(text, rnd)
        old = parse(text)
        for ch in CHARACTERS:
            for _ in range(3):
                at = rnd.randrange(len(text) + 1)
                _, why = check(old, at, at, ch)
                if why:
                    differences.append((f"insert {ch!r} at {at}", text[max(0, at - 30):at + 30], why))
            where = [i for i, c in enumerate(text) if c == ch]
            for at in rnd.sample(where, min(3, len(where))):
                _, why = check(old, at, at + 1, "")
                if why:
                    differences.append((f"delete {ch!r} at {at}", text[max(0, at - 30):at + 30], why))
    assert not differences, differences[:5]


@pytest.mark.parametrize("seed", [21, 22])
def test_chains_of_edits(seed: int) -> None:
    """Keystrokes at one place then another, each reparse starting from the previous
    incremental result (damage included: the file is broken half of the time)."""
    rnd = random.Random(seed)
    differences = []
    for text in texts(seed, 10):
        result = parse(damaged(text, rnd))
        for _ in range(4):
            at = rnd.randrange(len(result.text) + 1)
            for _ in range(6):
                if rnd.random() < 0.3 and at > 0:
                    result, why = check(result, at - 1, at, "")
                    at -= 1
                else:
                    ch = rnd.choice(CHARACTERS)
                    result, why = check(result, at, at, ch)
                    at += 1
                if why:
                    differences.append((at, result.text[max(0, at - 30):at + 30], why))
                    result = parse(result.text)
    assert not differences, differences[:5]


def test_each_lookahead_is_recorded_once() -> None:
    # Recovery asks the same lookahead twice at a stray '${'; an incremental result once kept
    # both copies where a full parse of the edited text made one (an exploratory incremental
    # fuzz run).  The scans are a sorted set.
    assert parse("${").scans == ((1, 2),)
    assert parse("$a = 1\n${\n").scans == ((8, 9),)


# Edits that add or remove a brace token of the code (the braces then no longer balance and
# no window is tried), and edits that look alike but leave the braces alone.  '|' marks where
# the edit is: a '{' or '}' after it is deleted, otherwise the character after "=" is typed.
BRACE_EDITS = [
    ("class a |{ }", "", True),
    ("class a { |}", "", True),
    ("$h = |{ 'a' => 1 }", "", True),             # a hash's brace (SELBRACE after '=')
    ("class a { }\n|", "}", True),
    ("class a { | }", "{", True),
    ("class a {|}", "{", True),                   # between two tokens
    ("class a { $x = ab|c }", "{", True),         # in a word: it cuts it
    ("class a { $x| = 1 }", "}", True),           # at the end of a variable
    ("class a { $x = 1|0 }", "}", True),          # in a number
    ("$s = 'a |{ b'", "", False),                 # in a single-quoted string
    ("$s = \"a |{ b\"", "", False),               # in a double-quoted string's text
    ("$s = \"${|x}\"", "{", False),               # in an interpolation
    ("class a { } # b|", "{", False),             # at the end of a comment: part of it
    ("$s = \"a|\"", "}", False),                  # at the end of a string's text
    ("class a { |}", "x", False),                 # not a brace
]


@pytest.mark.parametrize("case", BRACE_EDITS, ids=[c[0] for c in BRACE_EDITS])
def test_edits_that_unbalance_braces_are_told(case) -> None:
    from puppet_ls.language.syntax.incremental import _adds_or_removes_brace
    marked, typed, unbalances = case
    at = marked.index("|")
    text = marked.replace("|", "", 1)
    old = parse(text)
    end = at + 1 if typed == "" else at
    assert _adds_or_removes_brace(old.root, at, end, typed) is unbalances
    assert check(old, at, end, typed)[1] is None


# Edits that type or delete a brace of the code: brace pairing leaves each statement of the
# file whose braces balance on their own as written (parser._paired), so the statements around
# the edit are paired and parsed in a window, unless a statement outside it may be paired
# anew (its braces nest and its closing '}' is indented: class z here).  '|' marks the edit as
# in BRACE_EDITS; the last field: reparsed without a full parse.
_CLASSES = ("class a (\n  $p = 1,\n  $q = 2,\n) {\n  if $x {\n    notice('x')\n  }\n}\n\n"
            "class b {\n  notice('b')\n}\n\nclass c {\n  $h = { 'k' => 1 }\n}\n")
_ODD = "class z {\n  if $y {\n    notice('y')\n  }\n  }\n"
_FILLER = "".join(f"$f{i} = {i}\n" for i in range(20))
BRACE_WINDOWS = [
    (_CLASSES.replace("if $x {", "if $x |{"), "", True),             # an 'if' loses its '{'
    (_CLASSES.replace("$p = 1,", "$p = 1,|"), "{", True),            # typed in a parameter list
    (_CLASSES.replace("  }\n}\n\nclass b", "  }\n|}\n\nclass b"), "", True),   # a class's own '}'
    (_CLASSES.replace("    notice('x')", "|    notice('x')"), "}", True),    # a stray '}'
    (_CLASSES.replace("{ 'k'", "|{ 'k'"), "", True),                 # a hash's brace
    (_CLASSES.replace("notice('b')", "notice('b')|"), "{", True),
    # class z further away than any window reaches
    (_ODD + _FILLER + _CLASSES.replace("if $x {", "if $x |{"), "", False),
    (_CLASSES.replace("if $x {", "if $x |{") + _FILLER + _ODD, "", False),
    (_ODD + _CLASSES.replace("if $x {", "if $x |{"), "", True),      # ... or not: it is in one
    (_ODD.replace("if $y {", "if $y |{") + _CLASSES, "", True),      # the edit is in it
]


@pytest.mark.parametrize("case", BRACE_WINDOWS, ids=range(len(BRACE_WINDOWS)))
def test_brace_edits_are_reparsed_in_a_window(monkeypatch: pytest.MonkeyPatch, case) -> None:
    from puppet_ls.language.syntax import incremental
    marked, typed, windowed = case
    at = marked.index("|")
    text = marked.replace("|", "", 1)
    old = parse(text)
    assert not old.errors
    end = at + 1 if typed == "" else at
    full_parses = []

    def counting(*args, **kwargs):
        full_parses.append(args)
        return parse(*args, **kwargs)

    monkeypatch.setattr(incremental, "parse", counting)
    result, why = check(old, at, end, typed)
    assert why is None, why
    assert any(e.code in ("MISSING_RBRACE", "UNMATCHED_BRACE") for e in result.errors)
    assert (len(full_parses) == 0) is windowed


def _statements_at(green, offset: int) -> dict:
    """The statement nodes of a file by where they start (shifted by ``offset``)."""
    found = {}
    for c in green.children:
        if type(c) is tuple:
            offset += len(c[1])
        else:
            found[offset] = c
            offset += c.width
    return found


def test_statements_paired_as_written_are_what_pairing_leaves() -> None:
    """paired_as_written says of a statement that pairing leaves it as written whatever the rest
    of the file holds; checked against the parser: with a stray '{' or '}' added after or
    before it, every statement it says so of (but the first, which a stray '}' before it
    joins) parses to the same node."""
    from puppet_ls.language.syntax.incremental import paired_as_written
    checked = 0
    # class m is re-paired when the file's braces do not balance: its '}' at column 1 closes
    # the 'if' and the class, which is what it looks like, and the last '}' is a stray one
    misindented = "class m {\n  if $x {\n    notice('x')\n }\n  }\n"
    for text in texts(31, 60) + [_CLASSES + _ODD + misindented]:
        base = parse(text)
        if base.errors:
            continue
        statements = _statements_at(base.green, 0)
        for prefix, suffix in (("", "\n{\n"), ("}\n", ""), ("", "\n}\n")):
            damaged = _statements_at(parse(prefix + text + suffix).green, -len(prefix))
            for at, statement in statements.items():
                if at and paired_as_written(statement):
                    checked += 1
                    assert damaged.get(at) == statement, (text[:60], at)
    assert checked > 50


@counted_in_python
def test_validation_of_an_edit_walks_only_the_statements_parsed_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """validate() of an incremental result takes the findings of every statement the edit did
    not touch from the old result (moved), walks the rest, and redoes the checks across
    statements (a reassignment in the top scope), so it finds what validating a full parse
    finds."""
    import importlib
    V = importlib.import_module("puppet_ls.language.syntax.validate")
    text = ("$a = 1\nclass a ($x, $x) {\n  $b = 1\n  $b = 2\n}\n"
            "class b {\n  notice('b')\n}\n\ndefine c ($name) {}\n")
    old = parse(text)
    V.validate(old)
    walked = []
    real_walk = V._Validator.walk

    def walk(self, node):
        if node.parent is not None and node.parent.kind == "SOURCE_FILE":
            walked.append(node.kind)
        return real_walk(self, node)

    monkeypatch.setattr(V._Validator, "walk", walk)
    at = text.index("notice('b')")
    for inserted in ("$a = 2\n  ", "$x = 1\n"):
        walked.clear()
        result = reparse(old, at, at, inserted)
        found = [(d.offset, d.end, d.code, d.message) for d in V.validate(result)]
        assert walked == ["CLASS_DEF"]
        walked.clear()
        assert found == [(d.offset, d.end, d.code, d.message) for d in V.validate(parse(result.text))]
    edited = reparse(old, 0, 0, "$z = 0\n")      # everything after moves
    assert [d.offset for d in V.validate(edited)] == [d.offset + 7 for d in V.validate(old)]


@counted_in_python
def test_runaway_string_recovery_weighs_an_alternative_made_in_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quote deleted makes a string run over lines; the recovery weighs the parse in which it
    ends at its line end (parser.parse_unclosed), which the windows around the edit make too:
    no parse of the whole text, the result what a full parse gives (the recovered one for each
    closing quote of an 'include' here), with the file's validation already known, as the
    server has it."""
    import importlib
    P = importlib.import_module("puppet_ls.language.syntax.parser")
    from puppet_ls.language.syntax.validate import validate
    text = ("class a {\n  include '::a::install'\n  include '::a::config'\n  include '::a::service'\n\n"
            "  Class['::a::install'] -> Class['::a::config']\n}\n\nclass b {\n  $x = 'y'\n}\n")
    base = parse(text)
    validate(base)
    whole = []
    real = P._parse

    def counting(*args, **kwargs):
        whole.append(args[0])
        return real(*args, **kwargs)

    recovered = 0
    for at in [i for i, c in enumerate(text) if c == "'"]:
        monkeypatch.setattr(P, "_parse", counting)
        result = reparse(base, at, at + 1, "")
        monkeypatch.setattr(P, "_parse", real)
        assert not whole, at
        _, why = check(base, at, at + 1, "")
        assert why is None, (at, why)
        recovered += result.recovered
    assert recovered == 6


def test_typing_in_a_file_whose_braces_do_not_balance_is_reparsed_in_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keystroke by keystroke, a block typed without its '}' (as an editor without closing
    pairs has it), then more typing elsewhere in the file, whose braces then do not balance:
    what a full parse gives every time, and most keystrokes in a window (the file's pairing
    regions, ParseResult.pairing, tell which statements pairing reads by the indentation)."""
    from puppet_ls.language.syntax import incremental
    full_parses = []

    def counting(*args, **kwargs):
        full_parses.append(args)
        return parse(*args, **kwargs)

    text = _CLASSES + _FILLER
    result = parse(text)
    monkeypatch.setattr(incremental, "parse", counting)
    keystrokes = 0
    for where, typed in ((text.index("  notice('b')"), "  if $y {\n    notice('y')\n"),
                         (len(text) + len("  if $y {\n    notice('y')\n"), "$g = 1\n"),
                         (text.index("class c"), "$before = 2\n")):
        for ch in typed:
            result, why = check(result, where, where, ch)
            assert why is None, (where, why)
            where += 1
            keystrokes += 1
        assert result.pairing, "the braces balance again"
    assert len(full_parses) <= keystrokes // 10, (len(full_parses), keystrokes)


def test_answers_about_statements_are_kept_for_the_statements_of_the_file() -> None:
    """What paired_as_written said of each statement is shared by the revisions of a file
    (ParseResult.as_written), and the answers for statements edited away do not pile up."""
    text = _CLASSES + _FILLER
    result = parse(text)
    at = text.index("  notice('b')")
    for _ in range(150):
        result, why = check(result, at, at, "{")     # the braces no longer balance...
        assert why is None
        result, why = check(result, at, at + 1, "")  # ... and balance again
        assert why is None
    assert result.as_written is not None
    assert len(result.as_written) <= 2 * len(result.green.children) + 64 + 8
