"""prepareRename and rename end to end, with the recorded capabilities of VS Code, Neovim and
Emacs (tests/lsp/conftest.py): the edits come back in the form each client takes (versioned
document changes or a plain ``changes`` map), a parameter renamed from an attribute in an open
document is renamed in the module's files and nowhere else, and a refusal is an error whose
message says why."""
from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.uris import to_fs_path

from .conftest import WORKSPACE, new_uri, open_doc, position, wait_for_diagnostics, wait_for_index

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

DOC = """class profile::renamed {
  $total = 1
  notice("${total} $total")
  class { 'webapp':
    port => $total,
  }
}
"""


def _edits(client, res: types.WorkspaceEdit) -> dict:
    """file name -> [(line, character, new text)], checking the form against the client's
    capabilities."""
    caps = client_caps(client)
    out: dict = {}
    if res.document_changes is not None:
        assert caps, "document changes sent to a client that does not take them"
        for dc in res.document_changes:
            assert isinstance(dc, types.TextDocumentEdit)
            out[Path(to_fs_path(dc.text_document.uri)).name] = sorted(
                (e.range.start.line, e.range.start.character, e.new_text) for e in dc.edits)
    else:
        assert not caps, "a client that takes document changes should get them"
        for uri, es in (res.changes or {}).items():
            out[Path(to_fs_path(uri)).name] = sorted((e.range.start.line, e.range.start.character, e.new_text)
                                                     for e in es)
    return out


def client_caps(client) -> bool:
    ws = client.capabilities.workspace if client.capabilities is not None else None
    we = ws.workspace_edit if ws is not None else None
    return bool(we is not None and we.document_changes)


def _prepare_support(client) -> bool:
    td = client.capabilities.text_document if client.capabilities is not None else None
    return bool(td is not None and td.rename is not None and td.rename.prepare_support)


async def _open(client):
    uri = new_uri("renamed.pp")
    open_doc(client, uri, DOC)
    await wait_for_diagnostics(client, uri)
    return uri


async def test_rename_local_variable(client):
    await wait_for_index(client)
    uri = await _open(client)
    at = position(DOC, "$total", 2)
    if _prepare_support(client):
        p = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=at))
        assert isinstance(p, types.PrepareRenamePlaceholder) and p.placeholder == "total"
        assert (p.range.start.line, p.range.start.character, p.range.end.character) == (1, 3, 8)
    res = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at, new_name="sum"))
    assert res is not None
    name = Path(to_fs_path(uri)).name
    assert _edits(client, res) == {name: [(1, 3, "sum"), (2, 12, "sum"), (2, 20, "sum"), (4, 13, "sum")]}


async def test_rename_class_parameter_from_an_attribute(client):
    await wait_for_index(client)
    uri = await _open(client)
    res = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(DOC, "port =>", 1),
        new_name="listen_port"))
    assert res is not None
    got = _edits(client, res)
    # webapp's own parameter and its use, the attribute in profile::base and in this document;
    # `port => $port` of webapp::vhost in init.pp is the defined type's parameter: untouched
    assert got == {"init.pp": [(4, 17, "listen_port"), (8, 13, "listen_port")],
                   "base.pp": [(5, 4, "listen_port")],
                   Path(to_fs_path(uri)).name: [(4, 4, "listen_port")]}
    # nothing was written to disk: the client applies the edit
    assert "listen_port" not in (WORKSPACE / "modules" / "webapp" / "manifests" / "init.pp").read_text()


async def test_refusal_says_why(client):
    await wait_for_index(client)
    uri = await _open(client)
    with pytest.raises(JsonRpcException) as err:
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position(DOC, "notice", 2),
            new_name="say"))
    assert "built into Puppet" in str(err.value)
    if _prepare_support(client):
        with pytest.raises(JsonRpcException) as err:
            await client.text_document_prepare_rename_async(types.PrepareRenameParams(
                text_document=types.TextDocumentIdentifier(uri=uri), position=position(DOC, "notice", 2)))
        assert "built into Puppet" in str(err.value)
    with pytest.raises(JsonRpcException) as err:
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position(DOC, "$total", 2),
            new_name="Not-A-Name"))
    assert "not a valid variable name" in str(err.value)
