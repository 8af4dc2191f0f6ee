"""End-to-end formatting through each recorded editor: whole document, a range (nothing outside
it changes), and '=>' alignment when '>' is typed; the capabilities are advertised."""
from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import new_uri, open_doc, wait_for_diagnostics

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

UGLY = "class demo {\n    file { '/a': mode=>'0644', ensure=>file }\n  $x = \"é\"\n  $y   =   1\n}\n"
PRETTY = "class demo {\n  file { '/a':\n    ensure => file,\n    mode   => '0644',\n  }\n  $x = 'é'\n  $y = 1\n}\n"
FORMATTING_OPTIONS = types.FormattingOptions(tab_size=4, insert_spaces=True)


def apply(text: str, edits: list) -> str:
    """Apply LSP text edits (ASCII-only positions in these tests' edited lines) to ``text``."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def off(p: types.Position) -> int:
        return starts[p.line] + p.character if p.line < len(lines) else len(text)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:off(e.range.start)] + e.new_text + text[off(e.range.end):]
    return text


async def _open(client, text):
    uri = new_uri("fmt.pp")
    open_doc(client, uri, text)
    await wait_for_diagnostics(client, uri)
    return types.TextDocumentIdentifier(uri=uri)


async def test_capabilities_are_advertised(client):
    caps = client.init_result.capabilities
    assert caps.document_formatting_provider
    assert caps.document_range_formatting_provider
    assert caps.document_on_type_formatting_provider.first_trigger_character == ">"


async def test_document_formatting(client):
    doc = await _open(client, UGLY)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=doc, options=FORMATTING_OPTIONS))
    assert apply(UGLY, edits) == PRETTY
    again = await _open(client, PRETTY)
    assert not await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=again, options=FORMATTING_OPTIONS))


async def test_range_formatting_touches_only_the_range(client):
    doc = await _open(client, UGLY)
    line3 = types.Range(types.Position(3, 0), types.Position(4, 0))     # '  $y   =   1'
    edits = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(text_document=doc, range=line3, options=FORMATTING_OPTIONS))
    assert apply(UGLY, edits) == UGLY.replace("$y   =   1", "$y = 1")


async def test_on_type_aligns_arrows(client):
    text = "file { '/a':\n  ensure => file,\n  mode =>\n}\n"
    doc = await _open(client, text)
    edits = await client.text_document_on_type_formatting_async(types.DocumentOnTypeFormattingParams(
        text_document=doc, position=types.Position(2, 9), ch=">", options=FORMATTING_OPTIONS))
    assert apply(text, edits) == "file { '/a':\n  ensure => file,\n  mode   =>\n}\n"
