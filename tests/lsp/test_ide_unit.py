"""Data-driven tests of the pure editor functions (puppet_ls.language.ide): each
fixtures/lsp/ide/*.pp marks cursor positions with ‸ (removed before analysis); the .expect file
holds, for every cursor, the hover, completion labels, signature help, definition, references
and highlights, and for the whole file its previews, folding ranges, outline and semantic
tokens.  Regenerate with UPDATE_EXPECT=1."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import completion, folding, hover, navigation, preview, semantic_tokens, signature
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.ide.symbols import document_symbols
from tests.expect import assert_expected

from .conftest import marked_analysis

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "ide"
CASES = sorted(FIXTURES.glob("*.pp"))


def check(path: Path) -> str:
    text, cursors, an, pos = marked_analysis(path)

    def locs(items) -> str:
        return ", ".join(f"{pos(x.start)}{'(w)' if getattr(x, 'write', False) else ''}" if x.path is None
                         else f"{Path(x.path).name}@{x.start}" for x in items) or "-"

    out = []
    for n, off in enumerate(cursors, 1):
        out.append(f"== cursor {n} at {pos(off)}")
        h = hover.hover(an, off)
        out.append("hover: " + (" | ".join(ln for ln in h.markdown.splitlines() if ln.strip() and ln != "```puppet"
                                           and ln != "```")[:300] if h else "-"))
        items = completion.complete(an, off)
        items.sort(key=lambda i: (i.sort_text or i.label, i.label))
        out.append(f"completion ({len(items)}): " + ", ".join(f"{i.label}" for i in items[:14]))
        s = signature.signature_help(an, off)
        out.append("signature: " + (f"{s.signatures[s.active_signature].label} [param {s.active_parameter}]"
                                    if s else "-"))
        out.append("definition: " + locs(navigation.definition(an, off)))
        out.append("references: " + locs(navigation.references(an, off)))
        out.append("highlights: " + locs(navigation.highlights(an, off)))
    out.append("== previews")
    for p in preview.previews(an, 0, len(text)):
        out.append(f"{pos(p.offset)} {p.label}  : {p.type}")
    out.append("== folding")
    out.append(", ".join(f"{pos(f.start)}-{pos(f.end)}{'c' if f.kind else ''}" for f in folding.folding_ranges(an.result)))
    out.append("== outline")

    def sym(s, depth):
        out.append(f"{'  ' * depth}{s.kind} {s.name} @{pos(s.selection_range[0])}")
        for c in s.children:
            sym(c, depth + 1)
    for s in document_symbols(an.result):
        sym(s, 0)
    out.append("== semantic tokens")
    names = semantic_tokens.TOKEN_TYPES
    out.append(" ".join(f"{text[o:o + n]!r}:{names[t]}{'+' + str(m) if m else ''}"
                        for o, n, t, m in semantic_tokens.semantic_tokens(an) if names[t] not in ("comment",))[:4000])
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_ide(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), check(path))


def test_cases_exist() -> None:
    assert len(CASES) >= 4


def test_hover_without_values_does_not_evaluate() -> None:
    text = "$doubled = [1, 2].map |$x| { $x * 2 }\n"
    an = analyze(parse_for_path(text, "x.pp"))
    with_values = hover.hover(an, 1)
    without = hover.hover(an, 1, values=False)
    assert "Value: `[2, 4]`" in with_values.markdown
    assert "Value" not in without.markdown and "Array[Integer]" in without.markdown
