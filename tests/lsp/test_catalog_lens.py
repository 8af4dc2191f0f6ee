"""The "Preview catalog" code lens through the protocol (issue 16): a lens on each class that
``puppet-ls preview`` can compile, titled with the fact set, whose command answers the catalog
text of ``puppet-ls preview`` for the current fact set and shows it in the editor (a document
the client opens with ``window/showDocument``, else a message)."""
from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlparse

import pytest
from lsprotocol import types

from .conftest import REPO, new_uri, open_doc, wait_for_diagnostics

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

FIXTURE = REPO / "fixtures" / "lsp" / "catalog" / "modules" / "lensdemo" / "manifests" / "init.pp"


async def _configure(client, facts: str) -> dict:
    """Set ``puppet.previews.facts`` and wait until the server uses it (it may read the new
    settings with workspace/configuration first); the answer of ``puppet-ls.factSets``."""
    settings = {"diagnostics": {"debounceMs": 0}, "previews": {"facts": facts}}
    # what a pull answers too (the server's first pull may come after this notification)
    client.set_configuration(settings, section="puppet")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"puppet": settings}))
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="puppet-ls.factSets"))
        if answer["current"] == facts or asyncio.get_running_loop().time() > deadline:
            return answer
        await asyncio.sleep(0.05)


def _count_refreshes(client) -> dict:
    """Count the server's workspace/inlayHint/refresh and workspace/codeLens/refresh requests."""
    seen = {"inlayHint": 0, "codeLens": 0}

    def counter(name):
        def answer(params):
            seen[name] += 1
        return answer
    client.protocol.fm.features[types.WORKSPACE_INLAY_HINT_REFRESH] = counter("inlayHint")
    client.protocol.fm.features[types.WORKSPACE_CODE_LENS_REFRESH] = counter("codeLens")
    return seen


async def _catalog_lenses(client, uri) -> list:
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    return [lens for lens in lenses or []
            if lens.command is not None and lens.command.command == "puppet-ls.previewCatalog"]


async def test_preview_catalog_lens_and_command(client):
    uri = FIXTURE.as_uri()
    text = FIXTURE.read_text()
    open_doc(client, uri, text)
    await wait_for_diagnostics(client, uri)

    lenses = await _catalog_lenses(client, uri)
    assert [(lens.range.start.line, lens.command.title) for lens in lenses] == \
        [(2, "Preview catalog (debian12)")]
    assert list(lenses[0].command.arguments) == [{"uri": uri, "class": "lensdemo"}]

    shown_before = len(client.shown_documents)
    messages_before = len(client.messages)
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.previewCatalog", arguments=list(lenses[0].command.arguments)))
    assert answer["ok"], answer
    lines = answer["text"].splitlines()
    assert lines[0] == "Catalog of class lensdemo on node.example.com (facts: debian12)"
    assert "Package[apache2]  (in Class[Lensdemo])" in lines
    assert "File[/etc/apache2/ports.conf]  (in Class[Lensdemo])" in lines
    assert answer["title"] == "Catalog of lensdemo (debian12)"
    if client.capabilities.window is not None and client.capabilities.window.show_document \
            and client.capabilities.window.show_document.support:
        shown = client.shown_documents[shown_before:]
        assert [s.uri for s in shown] == [answer["uri"]]
        assert Path(urlparse(answer["uri"]).path).read_text(encoding="utf-8") == answer["text"]
    else:
        assert client.shown_documents[shown_before:] == []
        assert [m.message for m in client.messages[messages_before:]] == [lines[-1]]
        assert lines[-1].startswith("3 resources; 0 attribute values unknown")

    # another fact set: the client is asked for hints and lenses again, the lens says so, and
    # the catalog follows it
    refreshed = _count_refreshes(client)
    await _configure(client, "rhel9")
    workspace = client.capabilities.workspace
    for name, cap in (("inlayHint", "inlay_hint"), ("codeLens", "code_lens")):
        support = getattr(getattr(workspace, cap, None), "refresh_support", False) if workspace else False
        deadline = asyncio.get_running_loop().time() + 10
        while support and not refreshed[name] and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert refreshed[name] == (1 if support else 0), (name, client.kind)
    lenses = await _catalog_lenses(client, uri)
    assert [lens.command.title for lens in lenses] == ["Preview catalog (rhel9)"]
    shown_before = len(client.shown_documents)
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.previewCatalog", arguments=[{"uri": uri, "class": "lensdemo", "show": "client"}]))
    assert answer["ok"], answer
    assert "Package[httpd]  (in Class[Lensdemo])" in answer["text"].splitlines()
    assert "File[/etc/httpd/ports.conf]  (in Class[Lensdemo])" in answer["text"].splitlines()
    assert client.shown_documents[shown_before:] == []     # the client shows it itself
    await _configure(client, "")


async def test_preview_catalog_errors_are_answers(client):
    uri = FIXTURE.as_uri()
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.previewCatalog", arguments=[{"uri": uri, "class": "nosuch::klass", "show": "client"}]))
    assert not answer["ok"]
    assert answer["error"] == "class nosuch::klass not found in the modulepath (" + \
        answer["error"].split("(", 1)[1]
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.previewCatalog", arguments=[{"uri": "file:///nowhere/x.pp", "class": "x"}]))
    assert answer == {"ok": False, "error": "file:///nowhere/x.pp is not open"}
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.previewCatalog", arguments=[{"uri": uri, "class": "--help"}]))
    assert answer == {"ok": False, "error": "'--help' is not a class name"}
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.previewCatalog", arguments=[42]))
    assert answer == {"ok": False, "error": "expected {uri, class}: the document and the class to preview"}


async def test_fact_sets_for_the_switch(client):
    answer = await _configure(client, "rhel9")
    assert answer == {"current": "rhel9", "sets": [
        {"name": "debian12", "description": "Debian 12.11 amd64"},
        {"name": "ubuntu2404", "description": "Ubuntu 24.04 amd64"},
        {"name": "rhel9", "description": "RedHat 9.4 x86_64"},
        {"name": "windows2022", "description": "windows 2022 x64"}]}
    await _configure(client, "")


async def test_a_lens_only_where_preview_finds_the_class(client):
    """The file's first class has a lens; a second class of a file that is not where Puppet's
    autoloader looks for it has none (``puppet-ls preview`` could not find it)."""
    uri = new_uri("two_classes.pp")
    open_doc(client, uri, "class first {\n}\nclass second {\n}\n")
    await wait_for_diagnostics(client, uri)
    lenses = await _catalog_lenses(client, uri)
    assert [(lens.range.start.line, list(lens.command.arguments)) for lens in lenses] == \
        [(0, [{"uri": uri, "class": "first"}])]
    # a file that is not on disk: the command says what to do
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.previewCatalog", arguments=list(lenses[0].command.arguments)))
    assert answer == {"ok": False, "class": "first",
                      "error": "save the file first: a catalog preview compiles the files on disk"}
