"""Formatter fixtures: each fixtures/format/NAME.pp|epp has NAME.pp.expect holding the formatted
text (carriage returns shown as <CR>) and the formatter's diagnostics.  Every case must also be
safe (same tree, same findings), idempotent, and range formatting of any single line must leave
the rest of the file alone.  Files named *.nocomma.* are formatted with trailing_commas off."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.formatter import (
    FormatOptions, apply_edits, check_safe, format_range, format_text, on_type_edits,
)
from puppet_ls.language.syntax import parse
from puppet_ls.language.syntax.lines import LineIndex
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "format"
CASES = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".pp", ".epp"))


def options_for(path: Path) -> FormatOptions:
    return FormatOptions(trailing_commas=".nocomma." not in path.name)


def check(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    epp = path.suffix == ".epp"
    options = options_for(path)
    result = format_text(text, epp=epp, options=options)
    index = LineIndex(text)
    out = ["== formatted", result.text.replace("\r", "<CR>"), "== diagnostics"]
    for d in result.diagnostics:
        line, col = index.position(d.offset)
        out.append(f"{line + 1}:{col + 1} {d.severity} {d.code} {d.message}")
    assert_expected(path.with_name(path.name + ".expect"), "\n".join(out) + "\n")

    assert not any(d.code == "FORMAT_UNSAFE" for d in result.diagnostics)
    assert check_safe(text, result.text, epp, lambda t: format_text(t, epp=epp, options=options).text) == []
    if parse(text, epp=epp).errors:
        # broken files: every changed character lies inside a clean top-level statement
        assert any(d.code == "FORMAT_SKIPPED_STATEMENT" for d in result.diagnostics)


def test_fixture_count() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_fixture(path: Path) -> None:
    check(path)


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_range_of_each_line_touches_only_that_line(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    epp = path.suffix == ".epp"
    before = parse(text, epp=epp)
    start = 0
    for line in text.splitlines(keepends=True):
        end = start + len(line)
        edits = format_range(text, start, end, epp=epp, options=options_for(path))
        assert all(start <= e.start and e.end <= end for e in edits)
        out = apply_edits(text, edits)
        assert out[:start] == text[:start] and out[len(out) - (len(text) - end):] == text[end:]
        assert check_safe(text, out, epp) == [] or before.errors
        start = end


def test_on_type_aligns_the_arrows_of_the_typed_group() -> None:
    text = "file { '/x':\n  ensure => file,\n  mode =>\n}\n$h = { 'a' => 1,\n 'bbbb' => 2 }\n"
    offset = text.index("mode =>") + len("mode =>")
    out = apply_edits(text, on_type_edits(text, offset))
    assert out == "file { '/x':\n  ensure => file,\n  mode   =>\n}\n$h = { 'a' => 1,\n 'bbbb' => 2 }\n"
    assert on_type_edits(text, text.index("'a' =>") + 3) == []   # not right after an arrow
