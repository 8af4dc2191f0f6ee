"""No input makes the syntax layer raise or recurse out of the stack: pathological nesting,
huge operator chains, and seeded random garbage all parse (with errors), round-trip, validate,
dump and outline."""
from __future__ import annotations

import random

import pytest

from puppet_ls.language.ide.diagnostics import file_diagnostics
from puppet_ls.language.ide.symbols import document_symbols
from puppet_ls.language.syntax import ENGINE, parse, reparse
from puppet_ls.language.syntax.puppet_format import puppet_dump, puppet_tokens
from puppet_ls.language.syntax.tree import dump_tree

# These count calls by patching a method of a syntax class: the compiled engine's classes call
# one another directly, past the patch, so the count would prove nothing there.
counted_in_python = pytest.mark.skipif(
    ENGINE.compiled, reason="counts calls through a patched method, which the compiled syntax engine bypasses")


PATHOLOGICAL = {
    "brackets": "[" * 3000 + "]" * 3000,
    "parens": "(" * 3000 + "1" + ")" * 3000,
    "braces": "{" * 3000 + "}" * 3000,
    "sum": "$a = " + "+".join(["1"] * 20000),
    "ifs": "if true {" * 2000 + "}" * 2000,
    "interpolation": '"${' * 500 + "}\"" * 500,
    "strings in interpolations": '"${' * 3000 + '"' * 3000 + '}' * 3000,
    "unary": "-" * 20000 + "1",
    "not": "!" * 20000 + "1",
    "calls": "f(" * 3000 + ")" * 3000,
    "methods": "$a = $b" + ".x" * 20000,
    "relationships": "a -> " * 20000 + "b",
    "assignments": "$a = " * 20000 + "1",
    "virtual": "@" * 20000 + "file { x: }",
    "classes": "class a { " * 2000 + "}" * 2000,
    "arrays": "$x = [" + "[1," * 3000 + "]" * 3000 + "]",
    "heredocs": "@(E)\n" * 500 + "E\n" * 500,
    "selectors": "$a = $b ? { " * 2000 + "}" * 2000,
    "chained selectors": "$a = $b" + " ? { 1 => 2, default => 3 }" * 3000,
    # each chain below MAX_CHAIN, but nested in parentheses they used to stack to 3,000 levels
    "stacked chains": "$a = " + "(" * 10 + "1" + (" + 1" * 299 + ")") * 10,
    "stacked chains in arrays": "$a = " + "[" * 10 + "1" + (" + 1" * 299 + "]") * 10,
    "unclosed": "class a { " * 3000,
    "closers": "}" * 5000 + ")" * 5000 + "]" * 5000,
    # validation's variable-name pattern backtracked exponentially on this (froze)
    "variable name failing at its end": "$::" + "a" * 40 + "::é = 1\n",
    "epp": "<% if true { %>" * 2000,
    # a type's parameters take only '[…]': that loop had no bound (fuzz seed 2034 case 8453,
    # a 2,300-level tree whose walks ran out of stack)
    "type parameter accesses": "type T = Pattern[\n$x = $a" + "[0]" * 3000 + "]\n",
    "type alias accesses": "type T = Foo" + "[0]" * 3000 + "\n",
}


def exercise(text: str, epp: bool = False) -> None:
    result = parse(text, epp=epp)
    assert result.green.text() == text
    assert result.green == parse(text, epp=epp).green
    file_diagnostics(result)
    puppet_dump(result.root)
    dump_tree(result.root)
    document_symbols(result)
    if not epp:
        puppet_tokens(text)
        middle = len(text) // 2
        assert reparse(result, middle, middle, "x").green.text() == text[:middle] + "x" + text[middle:]


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological_input(name: str) -> None:
    exercise(PATHOLOGICAL[name], epp=name == "epp")


ALPHABET = list("{}[]()<>|@$'\"/\\#*=-+~!?:;,.%\n\t ") + ["class", "define", "if", "else", "node", "=>",
            "->", "<|", "|>", "@(E)", "E\n", "${", "<%", "%>", "$x", "Foo", "foo", "1", "0x", "/*", "*/"]


@pytest.mark.parametrize("seed", range(8))
def test_random_garbage(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(60):
        text = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(1, 400)))
        exercise(text)
        exercise(text, epp=True)


@counted_in_python
def test_closing_unclosed_braces_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of '{' left open at the end of input are closed in one pass (closing them one by
    one rescanned the tokens each time: seconds; found by benchmarks/fuzz.py).  Counted, not
    timed: how often the brace pairing asks whether a token starts a line."""
    from puppet_ls.language.syntax import parser

    calls = []
    real = parser._LineInfo.column_if_first

    def counting(self, tok):
        calls.append(1)
        return real(self, tok)
    monkeypatch.setattr(parser._LineInfo, "column_if_first", counting)
    text = "if $x {" * 3000 + "\nnotice(1)\n"
    result = parse(text)
    assert sum(e.code == "MISSING_RBRACE" for e in result.errors) == 3000
    assert len(calls) < 4 * len(text)


@counted_in_python
def test_closing_inner_braces_before_an_outer_one_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same, for '{' left open inside a block whose '}' comes at a lower indentation: they
    are closed before it in one pass (one by one it took 4.5 s for an edit; found by
    benchmarks/fuzz.py)."""
    from puppet_ls.language.syntax import parser

    calls = []
    real = parser._LineInfo.column_if_first

    def counting(self, tok):
        calls.append(1)
        return real(self, tok)
    monkeypatch.setattr(parser._LineInfo, "column_if_first", counting)
    text = "class a {\n  " + "if $x {" * 3000 + "\n}\nnotice(1)\n"
    result = parse(text)
    assert sum(e.code == "MISSING_RBRACE" for e in result.errors) == 3000
    assert len(calls) < 4 * len(text)


@pytest.mark.parametrize("text, what", [
    ("$x = " + "[" * 300 + "]" * 300, "Brackets, blocks and expressions nested too deeply"),
    ("$x = " + "(" * 300 + "1" + ")" * 300, "Brackets, blocks and expressions nested too deeply"),
])
def test_too_deep_nesting_says_what_is_nested(text: str, what: str) -> None:
    """The one error for nesting beyond the parser's limit names what is nested and the limit
    (it said "Interpolation nested too deeply" for brackets too)."""
    errors = [e for e in parse(text).errors if e.code == "NESTING_TOO_DEEP"]
    assert len(errors) == 1
    assert errors[0].full_message.startswith(what) and "100 levels" in errors[0].full_message


def test_too_deep_interpolation_is_one_lexer_error() -> None:
    from puppet_ls.language.syntax.lexer import lex
    text = '"' + '${"' * 150 + '"}' * 150 + '"'
    errors = [e for e in lex(text).errors if e.code == "NESTING_TOO_DEEP"]
    assert len(errors) == 1 and errors[0].message.startswith("Interpolations nested too deeply")


@counted_in_python
@pytest.mark.parametrize("text, parses", [
    # every line break of the string follows a backslash: it was continued on purpose, and the
    # error after it is not a reason to read it again as a string that ends at its first line
    ('fail"Either this one or \\\nthat one."\n  )\nnotice(1)\n', 1),
    # an escaped backslash at the line end continues nothing: that string may be a runaway
    ('fail"Either this one or \\\\\nthat one."\n  )\nnotice(1)\n', 2),
    ('fail"Either this one or\nthat one."\n  )\nnotice(1)\n', 2),
])
def test_strings_continued_with_a_backslash_are_not_runaways(monkeypatch: pytest.MonkeyPatch, text: str,
                                                            parses: int) -> None:
    from puppet_ls.language.syntax import parser

    calls = []
    real = parser._parse

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(parser, "_parse", counting)
    result = parse(text)
    assert len(calls) == parses
    assert [e.message for e in result.errors] == ["Syntax error at ')'"]
