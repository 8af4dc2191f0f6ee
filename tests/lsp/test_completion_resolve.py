"""A long completion list (every class of a workspace) goes to a client that can ask for
documentation item by item (completionItem/resolve, VS Code's capabilities) without it, and
the documentation comes with the resolve; a client that cannot ask gets it in the list."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient

from puppet_ls.language.ide.completion import CompletionItem
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server import convert
from puppet_ls.server.lsp import RESOLVE_MIN
from puppet_ls.server.positions import PositionCodec
from tests.lsp.conftest import SERVER, initialize_as_vscode

CLASSES = RESOLVE_MIN + 20
CONVERTER = default_converter()
SITE = "node default {\n  include \n}\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    manifests = tmp_path / "big" / "manifests"
    manifests.mkdir(parents=True)
    (tmp_path / "big" / "metadata.json").write_text('{"name": "example-big", "version": "1.0.0"}\n')
    for n in range(CLASSES):
        (manifests / f"c{n}.pp").write_text(f"# Class number {n}, documented.\nclass big::c{n} {{\n}}\n")
    (tmp_path / "site.pp").write_text(SITE)
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, workspace: Path):
    await initialize_as_vscode(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


async def class_items(client: LanguageClient, uri: str) -> list:
    for _ in range(500):
        res = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=10)))
        items = [i for i in (res.items if isinstance(res, types.CompletionList) else res or [])
                 if i.label.startswith("big::")]
        if len(items) == CLASSES:
            return items
        await asyncio.sleep(0.02)       # the index is not complete yet
    raise AssertionError(f"{len(items)} classes offered, expected {CLASSES}")


@pytest.mark.asyncio
async def test_long_list_documentation_comes_with_resolve(client: LanguageClient) -> None:
    caps = client.capabilities.text_document.completion.completion_item.resolve_support
    assert "documentation" in caps.properties       # what VS Code says it can resolve
    uri = (client.workspace / "site.pp").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="puppet", version=1, text=SITE)))
    items = await class_items(client, uri)
    assert all(i.documentation is None and isinstance(i.data, int) for i in items)
    item = next(i for i in items if i.label == "big::c7")
    resolved = await client.completion_item_resolve_async(item)
    assert resolved.label == "big::c7"
    doc = resolved.documentation
    assert isinstance(doc, types.MarkupContent) and "Class number 7, documented." in doc.value


def completion_list(*args, **kwargs) -> types.CompletionList:
    """``convert.completion_list`` (the JSON form the server sends as it is) read as lsprotocol
    reads it; written back, it must be the same JSON: no field lsprotocol does not know, none
    of the wrong type, nothing set to null that it would leave out."""
    wire = convert.completion_list(*args, **kwargs)
    found = CONVERTER.structure(wire, types.CompletionList)
    assert CONVERTER.unstructure(found) == wire
    return found


def test_without_resolve_the_documentation_is_in_the_list() -> None:
    text = "include \n"
    items = [CompletionItem(f"c{n}", "class", "class", later=lambda n=n: f"Class {n}.") for n in range(3)]
    codec = PositionCodec(LineIndex(text))
    inline = completion_list(codec, 8, items, False, [types.MarkupKind.Markdown]).items
    assert [(i.documentation.value, i.data) for i in inline] == [("Class 0.", None), ("Class 1.", None),
                                                                ("Class 2.", None)]
    later = completion_list(codec, 8, items, False, [types.MarkupKind.Markdown], resolve=True).items
    assert [(i.documentation, i.data) for i in later] == [(None, 0), (None, 1), (None, 2)]


def test_list_item_defaults() -> None:
    """One edit range for every item: said once (LSP 3.17 item defaults) to a client that reads
    them, each item carrying its text only when it is not its label; otherwise an edit each."""
    text = "include ap\n"
    items = [CompletionItem("apache", "class", "class", edit_start=8),
             CompletionItem("apt", "class", "class", insert_text="apt::", edit_start=8),
             CompletionItem("apt::x", "class", "class", snippet="apt::${1:x}", edit_start=8)]
    codec = PositionCodec(LineIndex(text))
    plain = types.InsertTextFormat.PlainText
    snippet = types.InsertTextFormat.Snippet
    with_defaults = completion_list(codec, 10, items, True, [], defaults=True)
    edit_range = types.Range(types.Position(0, 8), types.Position(0, 10))
    assert with_defaults.item_defaults == types.CompletionItemDefaults(edit_range=edit_range, insert_text_format=plain)
    assert [(i.text_edit, i.text_edit_text, i.insert_text_format) for i in with_defaults.items] == [
        (None, None, None), (None, "apt::", None), (None, "apt::${1:x}", snippet)]
    each = completion_list(codec, 10, items, True, [], defaults=False)
    assert each.item_defaults is None
    assert [(i.text_edit, i.insert_text_format) for i in each.items] == [
        (types.TextEdit(edit_range, "apache"), plain), (types.TextEdit(edit_range, "apt::"), plain),
        (types.TextEdit(edit_range, "apt::${1:x}"), snippet)]
    # items that do not all replace the same range: an edit each, whatever the client reads
    mixed = items + [CompletionItem("ensure", "keyword")]
    assert completion_list(codec, 10, mixed, True, [], defaults=True).item_defaults is None


def test_a_wire_result_is_right_through_pygls_usual_path_too() -> None:
    """Should pygls stop calling the ``_send_response`` that sends a ``Wire`` as it is, its own
    path writes the same JSON (only slower)."""
    text = "include ap\n"
    items = [CompletionItem("apache", "class", "class", edit_start=8), CompletionItem("ensure", "keyword")]
    wire = convert.completion_list(PositionCodec(LineIndex(text)), 10, items, True, [types.MarkupKind.Markdown])
    response = CONVERTER.unstructure(types.CompletionResponse(id=7, result=wire))
    assert response == {"id": 7, "jsonrpc": "2.0", "result": wire}
