"""The editor and CI agree: the language server reads the workspace's lint configuration
(puppet-ls.toml and .puppet-lint.rc, fixtures/config/workspace) and publishes, for each file,
the findings `puppet-ls check` prints for it there; a file under an excluded folder gets none."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from click.testing import CliRunner
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from puppet_ls.server.cli import main

WORKSPACE = Path(__file__).resolve().parents[2] / "fixtures" / "config" / "workspace"
pytestmark = pytest.mark.asyncio
FILES = ["ntp/manifests/init.pp", "ntp/manifests/service.pp", "vendor/other/manifests/init.pp"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "puppet_ls.server.cli", "--stdio"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=WORKSPACE.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=WORKSPACE.as_uri(), name="workspace")],
        initialization_options={"diagnostics": {"debounceMs": 0}}))
    yield
    await lsp_client.shutdown_session()


def cli_findings(monkeypatch) -> dict:
    """(line, column, code) of each file's findings as `check` prints them in the workspace."""
    monkeypatch.chdir(WORKSPACE)
    out = CliRunner().invoke(main, ["check", "--force-exclude", *FILES], catch_exceptions=False).stdout
    found: dict = {f: [] for f in FILES}
    for line in out.splitlines():
        path, row, col, rest = line.split(":", 3)
        found[path].append((int(row), int(col), rest.split()[1]))
    return found


async def published(client: LanguageClient, uri: str) -> list:
    for _ in range(1000):
        if uri in client.diagnostics:
            return client.diagnostics[uri]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics for {uri}")


async def test_editor_and_check_report_the_same(client: LanguageClient, monkeypatch) -> None:
    expected = cli_findings(monkeypatch)
    assert expected["vendor/other/manifests/init.pp"] == []
    assert {code for f in FILES for _, _, code in expected[f]} >= {"double_quoted_strings", "trailing_whitespace"}
    for name in FILES:
        path = WORKSPACE / name
        uri = path.as_uri()
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="puppet", version=1, text=path.read_text())))
        diags = await published(client, uri)
        got = sorted((d.range.start.line + 1, d.range.start.character + 1, d.code) for d in diags)
        assert got == sorted(expected[name]), name


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "puppet_ls.server.cli", "--stdio"]))
async def bare_client(lsp_client: LanguageClient):
    yield
    if lsp_client.protocol.writer is not None and not getattr(lsp_client, "_stopped", False):
        await lsp_client.shutdown_session()


async def test_a_mistake_in_the_configuration_is_shown(bare_client: LanguageClient, tmp_path) -> None:
    """What makes `check` stop (exit 2) is left out by the server, and the editor says so;
    once the file is corrected (the client reports the change), the server reads it again."""
    (tmp_path / "puppet-ls.toml").write_text('extend_select = ["arrow_alignment"]\nignore = ["documentation"]\n')
    (tmp_path / "init.pp").write_text("class foo {\n}\n")
    await bare_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="t")],
        initialization_options={"diagnostics": {"debounceMs": 0}}))
    uri = (tmp_path / "init.pp").as_uri()
    bare_client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="puppet", version=1, text="class foo {\n}\n")))
    diags = await published(bare_client, uri)
    assert [m.message for m in bare_client.messages] == [
        ("puppet-ls configuration (left out): puppet-ls.toml:1: error: unknown key 'extend_select' "
         "(did you mean 'extend-select'?)")]
    # the rest of the file applies: documentation is ignored, autoloader_layout is not
    assert sorted(d.code for d in diags) == ["autoloader_layout"]
    # corrected: the client reports the change of the watched file and the server reads it again
    (tmp_path / "puppet-ls.toml").write_text('ignore = ["documentation", "autoloader_layout"]\n')
    del bare_client.diagnostics[uri]
    bare_client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[types.FileEvent(
        uri=(tmp_path / "puppet-ls.toml").as_uri(), type=types.FileChangeType.Changed)]))
    assert list(await published(bare_client, uri)) == []
