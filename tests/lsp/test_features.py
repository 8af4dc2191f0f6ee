"""End-to-end editor features against the test workspace (fixtures/lsp/workspace: a control
repository with environment.conf, a site profile and a 'webapp' module): hover, completion,
signature help, definition, references, highlights, symbols, folding, semantic tokens,
evaluated previews (inlay hints or code lenses), evaluate selection and workspace symbols
with $/progress."""
from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import WORKSPACE, new_uri, open_doc, position, wait_for_diagnostics, wait_for_index

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

BASE = WORKSPACE / "site" / "profile" / "manifests" / "base.pp"
DOC = """class profile::demo (
  Integer[1, 10] $count = 3,
) {
  $doubled = [1, 2, 3].map |$x| { $x * 2 }
  $words = ['a', 'b']
  $label = sprintf('%s-%d', 'n', $count)
  $words.each |$w| {
    notice($w, $count)
  }
  package { 'nginx':
    ensure => installed,
  }
  class { 'webapp':
    port => 8080,
  }
  webapp::vhost { 'site':
    port => $count,
  }
  $greeting = webapp::greet('x')
}
"""


def tdi(uri):
    return types.TextDocumentIdentifier(uri=uri)


async def _open(client, text=DOC, name="demo.pp"):
    uri = new_uri(name)
    open_doc(client, uri, text)
    await wait_for_diagnostics(client, uri)
    return uri


async def _hover(client, uri, text, marker, delta=1):
    res = await client.text_document_hover_async(types.HoverParams(text_document=tdi(uri),
                                                                   position=position(text, marker, delta)))
    assert res is not None, marker
    return res.contents.value


async def test_hover(client):
    await wait_for_index(client)
    uri = await _open(client)
    h = await _hover(client, uri, DOC, "$doubled")
    assert "Array[Integer]" in h and "[2, 4, 6]" in h            # inferred type and value
    h = await _hover(client, uri, DOC, "$words", 1)
    assert "Tuple[String, String]" in h and "Array[String]" in h  # precise and general forms
    h = await _hover(client, uri, DOC, "Integer[1, 10]")
    assert "Integer[from?, to?]" in h and "whole number" in h    # type doc and signature
    h = await _hover(client, uri, DOC, "sprintf", 2)
    assert "sprintf(String $format" in h                          # function signature
    h = await _hover(client, uri, DOC, "$count", 1)
    assert "Integer[1, 10]" in h and "parameter" in h
    h = await _hover(client, uri, DOC, "|$w|", 2)
    assert "String" in h and "lambda parameter" in h
    h = await _hover(client, uri, DOC, "class", 1)
    assert "keyword" in h
    h = await _hover(client, uri, DOC, "ensure", 2)
    assert "present" in h and "installed" in h                    # attribute doc and values
    h = await _hover(client, uri, DOC, "webapp::greet", 3)
    assert "Says hello" in h                                      # a function from the workspace
    h = await _hover(client, uri, DOC, "'webapp'", 2)
    assert "Installs and configures" in h                         # a class from the modulepath


async def test_completion(client):
    await wait_for_index(client)
    snippets = client.kind in ("visual-studio-code", "neovim@v0.11.0")
    text = "class profile::comp (Integer $port) {\n  $local = 1\n  [1].each |$item| {\n    notice($)\n  }\n  $t = Optional[\n  $u = Int\n  file { '/x':\n    ens\n  }\n  service { 's':\n    ensure => \n  }\n  include web\n  $v = $local.\n}\n"
    uri = new_uri("comp.pp")
    open_doc(client, uri, text)
    await wait_for_diagnostics(client, uri)

    async def labels(marker, delta, trigger=None):
        ctx = types.CompletionContext(trigger_kind=types.CompletionTriggerKind.TriggerCharacter,
                                      trigger_character=trigger) if trigger else None
        res = await client.text_document_completion_async(types.CompletionParams(
            text_document=tdi(uri), position=position(text, marker, delta), context=ctx))
        return res.items

    items = await labels("notice($)", 8, "$")
    names = {i.label for i in items}
    assert {"port", "local", "item", "facts", "trusted"} <= names      # in scope, lambda, built-ins
    items = await labels("Optional[", 9, "[")
    assert {"String", "Integer", "Webapp::Port"} <= {i.label for i in items}
    items = await labels("Int\n", 3)
    integer = next(i for i in items if i.label == "Integer")
    if snippets:
        assert integer.insert_text_format == types.InsertTextFormat.Snippet
        # its edit, or (a client that reads LSP 3.17's list item defaults: the list's one
        # edit range) its textEditText
        inserted = integer.text_edit.new_text if integer.text_edit else (integer.text_edit_text or integer.insert_text)
        assert inserted == "Integer[${1:from}, ${2:to}]"
    else:
        assert integer.insert_text_format in (None, types.InsertTextFormat.PlainText)
    items = await labels("ens\n", 3)
    assert {"ensure", "content", "mode", "require", "notify"} <= {i.label for i in items}
    items = await labels("ensure => \n", 10, " ")
    assert {"running", "stopped"} <= {i.label for i in items}
    items = await labels("include web", 11)
    assert "webapp" in {i.label for i in items}
    items = await labels("$local.", 7, ".")
    fn = {i.label for i in items}
    assert {"map", "each", "upcase"} <= fn


async def test_signature_help(client):
    text = "$s = sprintf('%s', \n"
    uri = await _open(client, text, "sig.pp")
    res = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=tdi(uri), position=position(text, "'%s', ", 6)))
    assert res is not None
    assert res.signatures[0].label.startswith("sprintf(String $format")
    assert res.active_parameter == 1
    # per signature too: an unset one is sent as null, which overrides the top-level value
    assert [sig.active_parameter for sig in res.signatures] == [1] * len(res.signatures)


async def test_definition_references_highlights(client):
    await wait_for_index(client)
    uri = await _open(client, DOC, "nav.pp")
    # a variable: definition in the same file
    res = await client.text_document_definition_async(types.DefinitionParams(
        text_document=tdi(uri), position=position(DOC, "$count)", 1)))
    assert res and res[0].range.start == position(DOC, "$count =")
    # a class from the modulepath, a defined type and a function
    for marker, path in (("'webapp'", "modules/webapp/manifests/init.pp"),
                         ("webapp::vhost {", "modules/webapp/manifests/vhost.pp"),
                         ("webapp::greet", "modules/webapp/functions/greet.pp")):
        res = await client.text_document_definition_async(types.DefinitionParams(
            text_document=tdi(uri), position=position(DOC, marker, 2)))
        assert res and res[0].uri.endswith(path), (marker, res)
    # references to the class 'webapp': here and in the site profile
    res = await client.text_document_references_async(types.ReferenceParams(
        text_document=tdi(uri), position=position(DOC, "'webapp'", 2),
        context=types.ReferenceContext(include_declaration=True)))
    uris = {r.uri for r in res}
    assert uri in uris and BASE.as_uri() in uris
    assert any(r.uri.endswith("modules/webapp/manifests/init.pp") for r in res)
    # references/highlights of a variable
    res = await client.text_document_references_async(types.ReferenceParams(
        text_document=tdi(uri), position=position(DOC, "$count =", 1),
        context=types.ReferenceContext(include_declaration=True)))
    assert len(res) == 4          # the parameter and its three uses
    hl = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=tdi(uri), position=position(DOC, "$count =", 1)))
    assert len(hl) == 4 and hl[0].kind == types.DocumentHighlightKind.Write


async def test_symbols_folding_semantic_tokens(client):
    uri = await _open(client, DOC, "outline.pp")
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=tdi(uri)))
    assert isinstance(syms[0], types.DocumentSymbol)
    assert syms[0].name == "profile::demo" and {c.name for c in syms[0].children} >= {"$count", "$doubled", "package['nginx']"}
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=tdi(uri)))
    assert any(f.start_line == 0 and f.end_line >= 19 for f in folds)
    if client.kind in ("visual-studio-code", "neovim@v0.11.0"):
        toks = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=tdi(uri)))
        data = list(toks.data)
        assert len(data) % 5 == 0 and len(data) > 50
        # decode: the first token is the keyword 'class' at 0:0
        assert data[:3] == [0, 0, 5]
        await _semantic_tokens_range_and_delta(client, uri, toks)


def _absolute(data: list) -> list:
    """(line, start, length, type, modifiers) of relative semantic-token data."""
    out, line, start = [], 0, 0
    for i in range(0, len(data), 5):
        dl, ds, n, t, m = data[i:i + 5]
        line, start = line + dl, (start + ds if dl == 0 else ds)
        out.append((line, start, n, t, m))
    return out


async def _semantic_tokens_range_and_delta(client, uri, full):
    # a range answers the tokens of those lines, as the full answer has them
    part = await client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(
        text_document=tdi(uri), range=types.Range(types.Position(3, 0), types.Position(6, 0))))
    assert _absolute(list(part.data)) == [t for t in _absolute(list(full.data)) if 3 <= t[0] < 6]
    # a delta after an edit, applied to the previous answer, gives the new full answer
    assert full.result_id
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(4, 0), types.Position(4, 0)), text="  $extra = 'x'\n")]))
    delta = await client.text_document_semantic_tokens_full_delta_async(types.SemanticTokensDeltaParams(
        text_document=tdi(uri), previous_result_id=full.result_id))
    assert isinstance(delta, types.SemanticTokensDelta) and len(delta.edits) == 1
    edit = delta.edits[0]
    assert len(edit.data or []) < 30          # the new line's tokens, not the file's
    data = list(full.data)
    data[edit.start:edit.start + edit.delete_count] = list(edit.data or [])
    again = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=tdi(uri)))
    assert data == list(again.data)
    # a result id the server does not hold: the whole answer
    stale = await client.text_document_semantic_tokens_full_delta_async(types.SemanticTokensDeltaParams(
        text_document=tdi(uri), previous_result_id="no-such-result"))
    assert isinstance(stale, types.SemanticTokens) and list(stale.data) == data


async def test_previews_and_evaluate_selection(client):
    uri = await _open(client, DOC, "preview.pp")
    caps = client.capabilities.text_document
    if caps.inlay_hint is not None:
        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
            text_document=tdi(uri), range=types.Range(types.Position(0, 0), types.Position(20, 0))))
        labels = {h.label for h in hints}
        assert "⟶ [2, 4, 6]" in labels
        assert not any("count" in str(h.label) for h in hints)    # parameters are not static
    elif caps.code_lens is not None:
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=tdi(uri)))
        assert "⟶ [2, 4, 6]" in {lens.command.title for lens in lenses}
    start = position(DOC, "[1, 2, 3].map")
    end = position(DOC, "$x * 2 }", 8)
    res = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="puppet-ls.evaluateSelection",
        arguments=[{"uri": uri, "range": {"start": {"line": start.line, "character": start.character},
                                          "end": {"line": end.line, "character": end.character}}}]))
    assert res["ok"] and res["value"] == "[2, 4, 6]"


async def test_workspace_index_progress_and_symbols(client):
    found = await wait_for_index(client, "vhost")
    assert any(s.name == "webapp::vhost" for s in found)
    ends = [v for values in client.progress_reports.values() for v in values
            if isinstance(v, types.WorkDoneProgressEnd)]
    assert ends, "indexing reports $/progress"
    # names from the index are known: no unknown-class warning in the site profile; only the
    # style check that asks for $::site_owner (a top-scope variable) remains
    text = BASE.read_text()
    uri = BASE.as_uri()
    open_doc(client, uri, text)
    diags = await wait_for_diagnostics(client, uri)
    assert [d.code for d in diags] == ["variable_scope"]


async def test_multi_root_workspace(client):
    """A folder added to the workspace is indexed too (its module's functions become known)."""
    extra = WORKSPACE.parents[1] / "check_static" / "modulepath"
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(
            added=[types.WorkspaceFolder(uri=extra.as_uri(), name="extra")], removed=[])))
    found = await wait_for_index(client, "mymod::double")
    assert any(s.name == "mymod::double" for s in found)
    # the first folder is still indexed
    assert await wait_for_index(client, "webapp::vhost")
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(
            added=[], removed=[types.WorkspaceFolder(uri=extra.as_uri(), name="extra")])))
