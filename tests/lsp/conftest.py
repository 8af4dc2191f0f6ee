"""pytest-lsp set-up shared by the end-to-end tests: one puppet-ls server per client kind and
test module, started with the recorded capabilities of a real editor, with pytest-lsp's
capability checks turned into errors."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parents[2]
WORKSPACE = REPO / "fixtures" / "lsp" / "workspace"
HIERA_REPO = REPO / "fixtures" / "workspace" / "hiera-repo"   # a whole control repository
SAMPLES = REPO / "fixtures" / "lsp" / "samples"   # copies of ../shared/bench/samples, so the tests need nothing beside the clone
SERVER = [sys.executable, "-m", "puppet_ls.server.cli", "--stdio"]
CLIENTS = ["visual-studio-code", "neovim@v0.7.0", "neovim@v0.11.0", "emacs"]

_counter = [0]


def new_uri(name: str = "doc.pp") -> str:
    """A fresh document URI inside the test workspace (documents need not exist on disk)."""
    _counter[0] += 1
    return (WORKSPACE / "site" / "profile" / "manifests" / f"t{_counter[0]}_{name}").as_uri()


def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="puppet", version=version, text=text)))


async def wait_for_diagnostics(client: LanguageClient, uri: str, version: int | None = None,
                               timeout: float = 20.0) -> list:
    """Poll until diagnostics for ``uri`` (at ``version`` when given) have been published."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        got = client.diagnostics.get(uri)
        ver = getattr(client, "_versions", {}).get(uri)
        if got is not None and (version is None or ver == version):
            return got
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"no diagnostics for {uri} (version {version})")
        await asyncio.sleep(0.02)


async def wait_for_index(client: LanguageClient, query: str = "webapp", timeout: float = 30.0) -> list:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        res = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
        if res:
            return res
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the workspace index never became ready")
        await asyncio.sleep(0.05)


async def initialize_as_vscode(lsp_client: LanguageClient, root: Path, name: str = "workspace",
                               initialization_options=None):
    """Start ``lsp_client``'s session with VS Code's capabilities on the workspace folder
    ``root`` (kept as ``lsp_client.workspace``); the initialize result."""
    lsp_client.workspace = root
    return await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=name)],
        initialization_options=initialization_options))


def position(text: str, marker: str, delta: int = 0) -> types.Position:
    """The position of ``marker`` in ``text`` (UTF-16 columns; the tests' texts are ASCII
    unless a test says otherwise)."""
    i = text.index(marker) + delta
    line = text.count("\n", 0, i)
    return types.Position(line, i - (text.rfind("\n", 0, i) + 1))


def track_versions(lsp_client: LanguageClient) -> None:
    """Remember which document version each diagnostics publication was for (pytest-lsp
    keeps only the latest list)."""
    versions: dict = {}

    def _published(params: types.PublishDiagnosticsParams):
        versions[params.uri] = params.version
        lsp_client.diagnostics[params.uri] = params.diagnostics

    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _published
    lsp_client._versions = versions


def answer_refreshes(lsp_client: LanguageClient) -> None:
    """Answer the server's requests to refresh inlay hints and code lenses, as an editor does
    (the server sends them after a new fact set; pytest-lsp fails a test on a request it has
    no handler for)."""
    for method in (types.WORKSPACE_INLAY_HINT_REFRESH, types.WORKSPACE_CODE_LENS_REFRESH):
        lsp_client.protocol.fm.features.setdefault(method, lambda params: None)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=SERVER),
    params=CLIENTS,
    scope="module",
)
async def client(lsp_client: LanguageClient, request):
    capabilities = client_capabilities(request.param)
    track_versions(lsp_client)
    lsp_client.kind = request.param
    lsp_client.set_configuration({"diagnostics": {"debounceMs": 0}}, section="puppet")
    lsp_client.init_result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities,
        root_uri=WORKSPACE.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=WORKSPACE.as_uri(), name="workspace")],
        initialization_options={"diagnostics": {"debounceMs": 0}},
    ))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def hiera_repo_client(lsp_client: LanguageClient, request):
    """VS Code's client on the control repository HIERA_REPO, configured with the test module's
    ``SETTINGS`` and ready once the workspace index finds the module's ``INDEX_READY`` symbol."""
    settings = request.module.SETTINGS
    track_versions(lsp_client)
    answer_refreshes(lsp_client)
    lsp_client.set_configuration(settings, section="puppet")
    await initialize_as_vscode(lsp_client, HIERA_REPO, "hiera-repo", settings)
    await wait_for_index(lsp_client, request.module.INDEX_READY)
    yield
    await lsp_client.shutdown_session()


def marked_analysis(path):
    """A fixture file with ‸ cursor marks, analysed: (text, cursor offsets, analysis, pos), where
    ``pos(offset)`` is the 1-based "line:column" the expectation files show."""
    from puppet_ls.language.check import analyze
    from puppet_ls.language.ide.diagnostics import parse_for_path
    from puppet_ls.language.syntax.lines import LineIndex
    from tests.expect import read_marked

    text, cursors = read_marked(path)
    index = LineIndex(text)

    def pos(offset: int) -> str:
        line, col = index.position(offset)
        return f"{line + 1}:{col + 1}"

    return text, cursors, analyze(parse_for_path(text, str(path))), pos
