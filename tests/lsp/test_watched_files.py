"""Files changed outside the editor (a pull, a checkout): the server asks a client that can
watch files for a server to report changes to the files it reads, and the index follows what
the client reports: a class added on disk is known, a deleted one forgotten, and a file in an
excluded folder (vendor/) stays out, as it does when the workspace is indexed."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.conftest import SERVER, initialize_as_vscode

pytestmark = pytest.mark.asyncio


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "acme" / "manifests").mkdir(parents=True)
    (tmp_path / "acme" / "metadata.json").write_text('{"name": "example-acme", "version": "1.0.0"}\n')
    (tmp_path / "acme" / "manifests" / "init.pp").write_text("# Acme.\nclass acme {\n  include acme::extra\n}\n")
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, workspace: Path):
    await initialize_as_vscode(lsp_client, workspace, initialization_options={"diagnostics": {"debounceMs": 0}})
    yield
    await lsp_client.shutdown_session()


async def symbols(client: LanguageClient, query: str) -> list:
    res = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
    return sorted(s.name for s in res or [])


async def eventually(client: LanguageClient, query: str, expected: list) -> None:
    found: list = []
    for _ in range(500):
        found = await symbols(client, query)
        if found == expected:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"workspace symbols for {query!r}: {found}, expected {expected}")


def changed(client: LanguageClient, path: Path, kind: types.FileChangeType) -> None:
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=path.as_uri(), type=kind)]))


async def test_the_index_follows_files_changed_on_disk(client: LanguageClient) -> None:
    root: Path = client.workspace
    await eventually(client, "acme", ["acme"])      # the index is ready
    # (tests/conftest.py answers the registration and keeps it)
    watched = [r for r in getattr(client, "registrations", []) if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert len(watched) == 1
    globs = {w["globPattern"] for w in watched[0].register_options["watchers"]}
    assert {"**/*.pp", "**/metadata.json", "**/environment.conf"} <= globs

    extra = root / "acme" / "manifests" / "extra.pp"
    extra.write_text("# More.\nclass acme::extra {\n}\n")
    changed(client, extra, types.FileChangeType.Created)
    await eventually(client, "acme", ["acme", "acme::extra"])

    extra.write_text("# Renamed.\nclass acme::more {\n}\n")
    changed(client, extra, types.FileChangeType.Changed)
    await eventually(client, "acme", ["acme", "acme::more"])

    # a file under an excluded folder is not the index's, whatever the client reports
    vendored = root / "vendor" / "acme" / "manifests" / "vendored.pp"
    vendored.parent.mkdir(parents=True)
    vendored.write_text("class acme::vendored {\n}\n")
    changed(client, vendored, types.FileChangeType.Created)

    extra.unlink()
    changed(client, extra, types.FileChangeType.Deleted)
    await eventually(client, "acme", ["acme"])
