"""End to end through a real client (pytest-lsp, VS Code's capabilities) over
fixtures/bolt/controlrepo, whose environment.conf puts fixtures/bolt/modulepath (the Bolt module
``deploy``) on the modulepath: hover, completion and signature help in a plan, task names and
definition, a Bolt helper function without false warnings, the Puppetfile's missing modules as
information, and Hiera data never parsed as Puppet."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import position, track_versions, wait_for_diagnostics

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "bolt"
REPO = FIXTURES / "controlrepo"
PLANS = FIXTURES / "modulepath" / "deploy" / "plans"
FUNCTIONS = FIXTURES / "modulepath" / "deploy" / "functions"

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

PLAN = """plan deploy::lsp_demo (TargetSpec $targets) {
  $r = run_command('uptime', $targets)
  run_task('deploy::read_file', $targets, path => '/etc/hosts')
  run_
}
"""
HELPER = """function deploy::lsp_helper(ResultSet $results) >> Array[Target] {
  $results.ok_set.targets
}
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "puppet_ls.server.cli", "--stdio"]),
                    scope="module")
async def client(lsp_client: LanguageClient):
    track_versions(lsp_client)
    lsp_client.set_configuration({"diagnostics": {"debounceMs": 0}}, section="puppet")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=REPO.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=REPO.as_uri(), name="controlrepo")],
        initialization_options={"diagnostics": {"debounceMs": 0}}))
    yield
    await lsp_client.shutdown_session()


def _open(client, uri: str, text: str, language_id: str = "puppet") -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=text)))


async def _until(check, timeout: float = 30.0):
    """Ask again until ``check()`` gives something (the index is built in the background)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        got = await check()
        if got:
            return got
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("no answer")
        await asyncio.sleep(0.1)


async def test_plan_hover_completion_signature_task(client):
    uri = (PLANS / "lsp_demo.pp").as_uri()
    _open(client, uri, PLAN)
    doc = types.TextDocumentIdentifier(uri=uri)

    async def task_hover():
        res = await client.text_document_hover_async(types.HoverParams(
            text_document=doc, position=position(PLAN, "read_file", 2)))
        return res if res is not None and "Bolt task" in res.contents.value else None
    hover = await _until(task_hover)
    assert "Absolute path of the file to read" in hover.contents.value

    res = await client.text_document_hover_async(types.HoverParams(text_document=doc,
                                                                   position=position(PLAN, "run_command", 2)))
    assert res is not None and "**run_command** — function" in res.contents.value
    assert "Bolt plan function" in res.contents.value
    res = await client.text_document_hover_async(types.HoverParams(text_document=doc,
                                                                   position=position(PLAN, "TargetSpec", 2)))
    assert res is not None and "Bolt data type" in res.contents.value

    items = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=position(PLAN, "run_\n", 4)))
    labels = {i.label for i in (items.items if isinstance(items, types.CompletionList) else items or [])}
    assert {"run_task", "run_command", "run_plan", "run_script"} <= labels

    sig = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=doc, position=position(PLAN, "'uptime'", 0)))
    assert sig is not None and sig.signatures[0].label.startswith("run_command(String[1] $command")

    loc = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc, position=position(PLAN, "read_file", 2)))
    locs = loc if isinstance(loc, list) else [loc]
    assert any(getattr(x, "uri", getattr(x, "target_uri", "")).endswith("/deploy/tasks/read_file.json") for x in locs)


async def test_helper_function_has_no_false_warnings(client):
    uri = (FUNCTIONS / "lsp_helper.pp").as_uri()
    _open(client, uri, HELPER)
    diags = await wait_for_diagnostics(client, uri)
    assert [d.code for d in diags if str(d.code).startswith("UNDEFINED")] == []


async def test_puppetfile_and_yaml(client):
    uri = (REPO / "Puppetfile").as_uri()
    _open(client, uri, (REPO / "Puppetfile").read_text(encoding="utf-8"), language_id="ruby")

    async def published():
        got = client.diagnostics.get(uri)
        return got if got else None
    diags = await _until(published)
    assert sorted(d.code for d in diags) == ["PUPPETFILE_MODULE_NOT_INSTALLED"] * 2
    assert all(d.severity == types.DiagnosticSeverity.Information for d in diags)
    assert {"puppetlabs-stdlib", "concat"} == {d.message.split("'")[1] for d in diags}

    yaml_uri = (REPO / "data" / "common.yaml").as_uri()
    _open(client, yaml_uri, "---\ndeploy::port: 8140\n", language_id="puppet")
    res = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=yaml_uri), position=types.Position(1, 2)))
    # never analysed as Puppet: a data file of the Hiera datadir, whose key binds a parameter
    assert res is not None and "automatic parameter lookup" in res.contents.value, res
    await asyncio.sleep(0.3)
    assert all(str(d.code).startswith("HIERA_") for d in client.diagnostics.get(yaml_uri, [])), \
        client.diagnostics.get(yaml_uri)
