"""Call hierarchy, type definition and workspace (pull) diagnostics end to end, with the
recorded capabilities of each editor: ``webapp::greet`` is called from ``profile::base`` in the
test workspace and from an open document; an item the server made comes back through
incoming/outgoing calls; ``Webapp::Port $port`` goes to the alias; the pull capability is
offered only to a client that has pull diagnostics, which then gets every unopened Puppet file
of the workspace with a result id, and "unchanged" when it asks again with those ids."""
from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.uris import to_fs_path

from .conftest import WORKSPACE, new_uri, open_doc, position, wait_for_diagnostics, wait_for_index

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

DOC = """class profile::calling (
  Webapp::Port $listen = 80,
  String $label = 'x',
) {
  $a = webapp::greet('one')
  $b = upcase(webapp::greet($label))
  notice($listen)
}
"""


async def _open(client, name: str) -> str:
    uri = new_uri(name)
    open_doc(client, uri, DOC)
    await wait_for_diagnostics(client, uri)
    return uri


def _where(uri: str, r: types.Range) -> str:
    return f"{Path(to_fs_path(uri)).name}:{r.start.line + 1}:{r.start.character + 1}"


async def test_call_hierarchy(client):
    await wait_for_index(client)
    uri = await _open(client, "calls.pp")
    items = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(DOC, "greet('one')", 2)))
    assert [(i.name, i.kind, _where(i.uri, i.selection_range)) for i in items] == [
        ("webapp::greet", types.SymbolKind.Function, "greet.pp:2:10")]
    incoming = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=items[0]))
    got = sorted((c.from_.name, _where(c.from_.uri, c.from_.selection_range),
                  [_where(c.from_.uri, r) for r in c.from_ranges]) for c in incoming)
    assert got == [("profile::base", "base.pp:2:7", ["base.pp:8:15"]),
                   ("profile::calling", Path(to_fs_path(uri)).name + ":1:7",
                    [Path(to_fs_path(uri)).name + ":5:8", Path(to_fs_path(uri)).name + ":6:15"])]
    caller = next(c.from_ for c in incoming if c.from_.name == "profile::calling")
    outgoing = await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=caller))
    assert [(c.to.name, c.to.detail, len(c.from_ranges)) for c in outgoing] == [
        ("webapp::greet", "greet.pp", 2), ("upcase", "built-in function", 1), ("notice", "built-in function", 1)]
    # the function's own body calls nothing
    assert not await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=items[0]))


async def test_type_definition(client):
    uri = await _open(client, "typedef.pp")
    for marker, expected in (("$listen = 80", ["port.pp:1:6"]), ("listen)", ["port.pp:1:6"]), ("$label", [])):
        res = await client.text_document_type_definition_async(types.TypeDefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position(DOC, marker, 2)))
        assert [_where(loc.uri, loc.range) for loc in res or []] == expected, marker


def _pull_support(client) -> bool:
    td = client.capabilities.text_document if client.capabilities is not None else None
    return td is not None and td.diagnostic is not None


async def test_workspace_diagnostics(client):
    provider = client.init_result.capabilities.diagnostic_provider
    if not _pull_support(client):
        assert provider is None
        return
    assert provider is not None and provider.workspace_diagnostics
    await wait_for_index(client)
    uri = await _open(client, "pulled.pp")
    client.progress_reports["ws-diag-1"] = []        # the token this request gives (pytest-lsp knows only its own)
    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(
        previous_result_ids=[], work_done_token="ws-diag-1"))
    files = {Path(to_fs_path(i.uri)).relative_to(WORKSPACE).as_posix(): i for i in report.items}
    assert sorted(files) == ["manifests/site.pp", "modules/webapp/functions/greet.pp",
                             "modules/webapp/manifests/init.pp", "modules/webapp/manifests/vhost.pp",
                             "modules/webapp/types/port.pp", "site/profile/manifests/base.pp"]
    kinds = [getattr(p, "kind", None) or p.get("kind") for p in client.progress_reports["ws-diag-1"]]
    assert kinds[0] == "begin" and kinds[-1] == "end", kinds
    assert uri not in {i.uri for i in report.items}          # open: its diagnostics are pushed
    assert all(isinstance(i, types.WorkspaceFullDocumentDiagnosticReport) and i.result_id for i in report.items)
    # what `puppet-ls check` reports for the file (the workspace's lint configuration)
    assert [(d.code, d.range.start.line) for d in files["site/profile/manifests/base.pp"].items] == [
        ("variable_scope", 8)]
    again = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(
        previous_result_ids=[types.PreviousResultId(uri=i.uri, value=i.result_id) for i in report.items]))
    assert {i.uri for i in again.items} == {i.uri for i in report.items}
    assert all(isinstance(i, types.WorkspaceUnchangedDocumentDiagnosticReport) for i in again.items)

