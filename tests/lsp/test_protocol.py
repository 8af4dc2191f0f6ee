"""End-to-end protocol behaviour: position encodings, incremental edits, diagnostics on
open/change/save/close (the end-of-file case and three independent errors), settings, and
isolation of failing or stale requests."""
from __future__ import annotations

import pytest
from lsprotocol import types

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.lint import default_enabled
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server.lsp import uri_to_path

from .conftest import SAMPLES, new_uri, open_doc, wait_for_diagnostics

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]


async def test_initialize_negotiates_capabilities(client):
    uri = new_uri("enc.pp")
    text = "$s = 'é𝄞x'\n$t = $undefined_top\nclass c { notice($nope) }\n"
    open_doc(client, uri, text)
    diags = await wait_for_diagnostics(client, uri)
    nope = [d for d in diags if d.code == "UNDEFINED_VARIABLE"]
    assert len(nope) == 1
    assert nope[0].range.start == types.Position(2, 17)


async def test_positions_follow_the_negotiated_encoding(client):
    uri = new_uri("unicode.pp")
    text = "class u {\n  $v = 'é𝄞'; notice($v, $missing)\n}\n"
    open_doc(client, uri, text)
    diags = await wait_for_diagnostics(client, uri)
    [d] = [d for d in diags if d.code == "UNDEFINED_VARIABLE"]
    # 'é' is 2 UTF-8 bytes / 1 UTF-16 unit; '𝄞' is 4 bytes / 2 units
    utf8 = client.kind in ("emacs", "neovim@v0.11.0")
    prefix = "  $v = 'é𝄞'; notice($v, "
    expected = len(prefix.encode("utf-8")) if utf8 else len(prefix.encode("utf-16-le")) // 2
    assert d.range.start == types.Position(1, expected)
    # and positions sent by the client are read in the same encoding: hover on $v after it
    col = expected - len("$v, ")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, col + 1)))
    assert hover is not None and "$v" in hover.contents.value


async def test_end_of_file_and_three_errors(client):
    uri = new_uri("eof.pp")
    text = (SAMPLES / "eof.pp").read_text()
    open_doc(client, uri, text)
    diags = await wait_for_diagnostics(client, uri)
    errors = [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    assert errors, "the unfinished file must get a diagnostic"
    assert {d.code for d in errors} >= {"MISSING_RBRACE"}
    last_line = text.count("\n")
    assert max(d.range.start.line for d in errors) >= last_line - 1

    uri3 = new_uri("three.pp")
    three = "class a {\n  $x = [1, 2\n}\nclass b {\n  notify { 'x': message => }\n}\nclass c {\n  if { }\n}\n"
    open_doc(client, uri3, three)
    diags3 = await wait_for_diagnostics(client, uri3)
    lines = sorted({d.range.start.line for d in diags3 if d.severity == types.DiagnosticSeverity.Error})
    assert len([ln for ln in lines if ln in (1, 2)]) >= 1 and 4 in lines and 7 in lines, lines


async def test_incremental_edits_equal_a_fresh_parse(client):
    uri = new_uri("edit.pp")
    text = "class e {\n  $a = 1\n}\n"
    open_doc(client, uri, text)
    await wait_for_diagnostics(client, uri, 1)
    edits = [((1, 7), (1, 8), "[1, 2"), ((1, 12), (1, 12), "]"), ((2, 1), (2, 1), "\nclass f { notice($b) }")]
    version = 1
    for (l1, c1), (l2, c2), new in edits:
        version += 1
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(l1, c1), types.Position(l2, c2)), text=new)]))
        lines = text.split("\n")
        start = sum(len(x) + 1 for x in lines[:l1]) + c1
        end = sum(len(x) + 1 for x in lines[:l2]) + c2
        text = text[:start] + new + text[end:]
    diags = await wait_for_diagnostics(client, uri, version)
    path = uri_to_path(uri)
    expected = file_diagnostics(parse_for_path(text, path), path=path, lint=default_enabled())
    assert text == "class e {\n  $a = [1, 2]\n}\nclass f { notice($b) }\n"
    index = LineIndex(text)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diags] == \
        [(d.code, *index.position(d.offset)) for d in expected]
    assert [d.code for d in expected if index.position(d.offset) == (3, 17)] == ["UNDEFINED_VARIABLE", "variable_scope"]


async def test_save_and_close(client):
    uri = new_uri("close.pp")
    open_doc(client, uri, "class x { notice($y) }\n")
    assert await wait_for_diagnostics(client, uri)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    for _ in range(200):
        if uri in client.diagnostics and not client.diagnostics[uri]:
            break
        import asyncio
        await asyncio.sleep(0.02)
    assert uri in client.diagnostics and len(client.diagnostics[uri]) == 0


async def test_bad_settings_give_a_message_and_defaults(client):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"puppet": {"diagnostics": {"debounceMs": "soon"}, "previews": {"maxSteps": -5}}}))
    import asyncio
    for _ in range(200):
        if any("debounceMs" in m.message for m in client.messages):
            break
        await asyncio.sleep(0.02)
    msgs = [m.message for m in client.messages if "puppet-ls settings" in m.message]
    assert msgs and "debounceMs" in msgs[-1] and "maxSteps" in msgs[-1]
    # the server still works with the defaults
    uri = new_uri("after_settings.pp")
    open_doc(client, uri, "class s { notice($z) }\n")
    assert await wait_for_diagnostics(client, uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"puppet": {"diagnostics": {"debounceMs": 0}}}))


async def test_requests_for_unknown_documents_are_empty_not_errors(client):
    uri = new_uri("never_opened.pp")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0)))
    assert hover is None
    comp = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0)))
    assert comp is None or len(comp.items) == 0
    # positions past the end of a document are clamped, not errors
    uri2 = new_uri("short.pp")
    open_doc(client, uri2, "$a = 1\n")
    await wait_for_diagnostics(client, uri2)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri2), position=types.Position(99, 99)))
    assert hover is None


async def test_a_puppetfile_is_not_analysed_as_puppet(client):
    """A generic client may send the Puppetfile (a Ruby DSL) to this server: it gets no
    diagnostics, and requests on it answer nothing, instead of false Puppet errors."""
    uri = new_uri("Puppetfile")
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="ruby", version=1, text="mod 'puppetlabs/stdlib', '9.4.1'\n")))
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 1)))
    assert hover is None
    # a Puppet document opened after it gets its diagnostics; the Puppetfile never does
    after = new_uri("after_puppetfile.pp")
    open_doc(client, after, "notice(1)\n")
    await wait_for_diagnostics(client, after)
    assert uri not in client.diagnostics


async def test_diagnostics_have_codes_and_related_locations(client):
    uri = new_uri("related.pp")
    text = "define own::conf(Integer $mode) { }\nown::conf { 'a': mode => 'x', colour => 1 }\n"
    open_doc(client, uri, text)
    diags = await wait_for_diagnostics(client, uri)
    by_code = {d.code: d for d in diags}
    assert set(by_code) == {"PARAMETER_TYPE_MISMATCH", "NO_SUCH_PARAMETER", "documentation", "autoloader_layout"}
    d = by_code["NO_SUCH_PARAMETER"]
    assert d.severity == types.DiagnosticSeverity.Error and d.source == "puppet-ls"
    assert d.range.start == types.Position(1, 30)
    supports_related = client.kind != "emacs"      # Emacs 29's capabilities say no
    if supports_related:
        [rel] = d.related_information
        assert rel.location.uri == uri and rel.location.range.start == types.Position(0, 7)
    else:
        assert not d.related_information
