"""The whole control repository in the editor (issue 15, acceptance 1): the fixture
fixtures/workspace/hiera-repo has roles and profiles, a three-layer Hiera (tests/lsp/test_hiera.py
covers it on the same repository), a Bolt plan and its task, a custom fact (lib/facter) and an
external fact (facts.d), and a Puppetfile.  Here: the plan knows Bolt's functions and types and
checks `run_task` against the task's metadata, task names and custom facts complete, and the
Puppetfile is read as a Puppetfile (its uninstalled modules reported), never parsed as Puppet.
`puppet-ls check` over the same repository: tests/hiera (check-hiera-repo.expect)."""
from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import HIERA_REPO as REPO
from .conftest import position, wait_for_diagnostics

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

PLAN = REPO / "site-modules" / "profile" / "plans" / "deploy.pp"
LOCATION = REPO / "site-modules" / "profile" / "manifests" / "location.pp"
PUPPETFILE = REPO / "Puppetfile"
INDEX_READY = "profile::location"   # a symbol that the index has once it is built
SETTINGS = {"diagnostics": {"debounceMs": 0}}


@pytest.fixture(scope="module")
def client(hiera_repo_client: LanguageClient) -> LanguageClient:
    return hiera_repo_client


def _open(client: LanguageClient, path: Path, language: str, text: str | None = None, version: int = 1) -> tuple:
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id=language, version=version, text=text)))
    return path.as_uri(), text


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


async def _hover(client: LanguageClient, uri: str, text: str, marker: str, delta: int = 2) -> str:
    res = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, marker, delta)))
    assert res is not None, marker
    return res.contents.value


async def _labels(client: LanguageClient, uri: str, text: str, marker: str, delta: int) -> list:
    res = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, marker, delta)))
    items = res.items if isinstance(res, types.CompletionList) else (res or [])
    return [i.label for i in items]


async def test_plan_knows_bolt(client: LanguageClient):
    uri, text = _open(client, PLAN, "puppet")
    diags = await wait_for_diagnostics(client, uri, 1)
    assert not [d for d in diags if d.severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)], diags
    run_command = await _hover(client, uri, text, "run_command(")
    assert "run_command" in run_command and "Unknown function" not in run_command, run_command
    target_spec = await _hover(client, uri, text, "TargetSpec $targets")
    assert "TargetSpec" in target_spec and "Unknown type" not in target_spec, target_spec
    task = await _hover(client, uri, text, "'profile::restart'", 3)
    assert "Restart a service and wait until it is up" in task, task
    _close(client, uri)


async def test_run_task_is_checked_against_the_task(client: LanguageClient):
    text = PLAN.read_text(encoding="utf-8").replace("service => $service, timeout => 30", "servce => $service")
    uri, _ = _open(client, PLAN, "puppet", text, version=2)
    diags = await wait_for_diagnostics(client, uri, 2)
    codes = sorted(str(d.code) for d in diags)
    assert codes == ["TASK_MISSING_PARAMETER", "TASK_UNKNOWN_PARAMETER"], [(d.code, d.message) for d in diags]
    labels = await _labels(client, uri, text, "run_task('profile::", len("run_task('profile::"))
    assert "profile::restart" in labels, labels
    _close(client, uri)


async def test_custom_and_external_facts_complete(client: LanguageClient):
    text = LOCATION.read_text(encoding="utf-8")
    text = text.replace("$facts['datacenter']", "$facts['datac']").replace("$::rack", "$::ra")
    uri, _ = _open(client, LOCATION, "puppet", text)
    await wait_for_diagnostics(client, uri, 1)
    in_facts = await _labels(client, uri, text, "$facts['datac", len("$facts['datac"))
    assert any(label.strip("'") == "datacenter" for label in in_facts), in_facts
    top_scope = await _labels(client, uri, text, "$::ra", len("$::ra"))
    assert any(label.lstrip("$:") == "rack" for label in top_scope), top_scope
    _close(client, uri)


@pytest.mark.parametrize("language", ["ruby", "plaintext", "puppet"])
async def test_puppetfile_is_read_as_a_puppetfile(client: LanguageClient, language: str):
    """Whatever language the client says, a file named Puppetfile is a Puppetfile: its modules
    that are not on the modulepath are reported as information, and it gets no syntax error."""
    uri, _ = _open(client, PUPPETFILE, language)
    diags = await wait_for_diagnostics(client, uri)
    assert sorted((d.range.start.line, str(d.code), d.severity) for d in diags) == [
        (4, "PUPPETFILE_MODULE_NOT_INSTALLED", types.DiagnosticSeverity.Information),
        (5, "PUPPETFILE_MODULE_NOT_INSTALLED", types.DiagnosticSeverity.Information),
    ], [(d.range.start.line, d.code, d.message) for d in diags]
    _close(client, uri)
    client.diagnostics.pop(uri, None)
