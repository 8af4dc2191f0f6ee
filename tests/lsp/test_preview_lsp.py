"""Previews with a fact set through the protocol (issue 16): choosing ``puppet.previews.facts``
turns on inlay hints for code that reads facts and class parameter defaults, fades the branches
the node does not take (hint diagnostics with the ``unnecessary`` tag), and switching the set
changes both."""
from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from .conftest import answer_refreshes, new_uri, open_doc, wait_for_diagnostics

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

DOC = """class demo::web (
  Integer $port = 8080,
) {
  case $facts['os']['family'] {
    'Debian': { $package = 'apache2' }
    'RedHat': { $package = 'httpd' }
    default:  { $package = 'unknown' }
  }
  $conf = "/etc/${package}/${port}.conf"
  $who = $trusted['certname']
}
"""


def _configure(client, facts: str, node: str = "") -> None:
    answer_refreshes(client)     # a new fact set makes the server ask for hints and lenses again
    # (a generous evaluation budget: this tests what the previews say, and on a loaded machine
    # the default 50 ms an expression can run out before the faded branches are decided)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"puppet": {"diagnostics": {"debounceMs": 0},
                             "previews": {"facts": facts, "node": node, "timeoutMs": 2000}}}))


async def _labels(client, uri) -> set:
    caps = client.capabilities.text_document
    if caps.inlay_hint is not None:
        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(12, 0))))
        return {str(h.label) for h in hints or []}
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    return {lens.command.title for lens in lenses or [] if lens.command is not None}


async def _until(client, uri, want: str, timeout: float = 20.0) -> set:
    """Inlay hints, asked again until ``want`` is among them (the worker may be starting)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        labels = await _labels(client, uri)
        if want in labels or asyncio.get_running_loop().time() > deadline:
            return labels
        await asyncio.sleep(0.1)


async def _faded(client, uri, lines: set, timeout: float = 20.0) -> list:
    """The faded branches, once they are on ``lines`` (or at the timeout)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = [d for d in client.diagnostics.get(uri) or [] if d.code == "UNREACHED_BRANCH"]
        if {d.range.start.line for d in found} == lines or asyncio.get_running_loop().time() > deadline:
            return found
        await asyncio.sleep(0.05)


async def test_inlay_hints_follow_the_fact_set(client):
    uri = new_uri("facts_preview.pp")
    open_doc(client, uri, DOC)
    await wait_for_diagnostics(client, uri)
    try:
        before = await _labels(client, uri)
        assert not any("apache2" in x or "httpd" in x for x in before)    # no facts: unknown

        _configure(client, "debian12", "web01.example.com")
        labels = await _until(client, uri, "⟶ '/etc/apache2/8080.conf'")
        assert "⟶ '/etc/apache2/8080.conf'" in labels
        assert "⟶ 'web01.example.com'" in labels
        faded = await _faded(client, uri, {5, 6})
        assert {d.range.start.line for d in faded} == {5, 6}              # RedHat and default
        assert [(list(d.tags or []), d.severity) for d in faded] == [([types.DiagnosticTag.Unnecessary], types.DiagnosticSeverity.Hint)] * 2
        assert "web01.example.com" in faded[0].message and "debian12" in faded[0].message

        _configure(client, "rhel9")
        labels = await _until(client, uri, "⟶ '/etc/httpd/8080.conf'")
        assert "⟶ '/etc/httpd/8080.conf'" in labels
        assert "⟶ 'node.example.com'" in labels
        faded = await _faded(client, uri, {4, 6})
        assert {d.range.start.line for d in faded} == {4, 6}              # Debian and default
    finally:
        _configure(client, "")


async def test_external_facts_of_the_settings_are_known_to_previews(client):
    # puppet.previews.externalFacts: a site's facts.d folder (relative to the workspace folder)
    uri = new_uri("external_facts.pp")
    open_doc(client, uri, "class site {\n  $dc = \"dc-${facts['datacenter']}\"\n}\n")
    await wait_for_diagnostics(client, uri)
    try:
        _configure(client, "debian12")
        assert not any("ams1" in x for x in await _labels(client, uri))     # a fact the set lacks: unknown
        answer_refreshes(client)
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"puppet": {"diagnostics": {"debounceMs": 0},
                                 "previews": {"facts": "debian12", "timeoutMs": 2000,
                                              "externalFacts": ["../../preview/external"]}}}))
        assert "⟶ 'dc-ams1'" in await _until(client, uri, "⟶ 'dc-ams1'")
    finally:
        _configure(client, "")
