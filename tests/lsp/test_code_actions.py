"""End-to-end code actions through each recorded editor: the quick fix of a style finding, the
"ignore on this line" control comment, and "fix all" as a source action."""
from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import new_uri, open_doc, wait_for_diagnostics
from .test_formatting import apply

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

TEXT = "# demo\nclass demo {\n  file { '/a':\n    ensure => file,\n    mode => \"0644\",\n  }\n}\n"


async def _actions(client, only=None, line=4):
    uri = new_uri("actions.pp")
    open_doc(client, uri, TEXT)
    diags = await wait_for_diagnostics(client, uri)
    rng = types.Range(types.Position(line, 0), types.Position(line, 20))
    return uri, await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=[d for d in diags if d.range.start.line == line], only=only)))


def _edited(uri, action) -> str:
    return apply(TEXT, action.edit.changes[uri])


async def test_quick_fixes_and_ignore(client):
    # every recorded client takes code action literals
    assert client.init_result.capabilities.code_action_provider
    uri, actions = await _actions(client)
    by_title = {a.title.split(":")[0]: a for a in actions}
    assert set(by_title) == {"Fix double_quoted_strings", "Ignore double_quoted_strings on this line",
                             "Fix arrow_alignment", "Ignore arrow_alignment on this line",
                             "Fix all puppet-lint issues"}
    assert _edited(uri, by_title["Fix double_quoted_strings"]) == TEXT.replace('"0644"', "'0644'")
    assert _edited(uri, by_title["Fix arrow_alignment"]) == TEXT.replace("mode =>", "mode   =>")
    assert _edited(uri, by_title["Ignore arrow_alignment on this line"]) == \
        TEXT.replace('"0644",', '"0644", # lint:ignore:arrow_alignment')


async def test_fix_all_source_action(client):
    uri, actions = await _actions(client, only=[types.CodeActionKind.Source])
    assert [a.title for a in actions] == ["Fix all puppet-lint issues"]
    assert _edited(uri, actions[0]) == TEXT.replace('mode => "0644"', "mode   => '0644'")


CHECKED = ("# demo\nclass demo (String $service_name = 'web') {\n  notice($servce_name)\n}\n"
           "# demo::site\ndefine demo::site (String $host) { }\n")


async def test_quick_fixes_of_the_checker(client):
    """Did you mean, for an unknown variable; the preferred action is the closest name."""
    uri = new_uri("checked.pp")
    open_doc(client, uri, CHECKED)
    diags = await wait_for_diagnostics(client, uri)
    found = [d for d in diags if d.code == "UNDEFINED_VARIABLE"]
    assert len(found) == 1, diags
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=types.CodeActionContext(diagnostics=found, only=[types.CodeActionKind.QuickFix])))
    fixes = [a for a in actions if a.title.startswith("Change to")]
    assert fixes[0].title == "Change to '$service_name'"
    assert apply(CHECKED, fixes[0].edit.changes[uri]) == CHECKED.replace("$servce_name", "$service_name")
    assert fixes[0].diagnostics and fixes[0].diagnostics[0].code == "UNDEFINED_VARIABLE"


async def test_extract_variable_refactor(client):
    """A selected expression becomes a variable assigned before its statement."""
    uri = new_uri("extract.pp")
    text = "# demo\nclass demo {\n  file { '/a':\n    mode => sprintf('%04o', 420),\n  }\n}\n"
    open_doc(client, uri, text)
    await wait_for_diagnostics(client, uri)
    start = text.index("sprintf")
    line = text.count("\n", 0, start)
    col = start - (text.rfind("\n", 0, start) + 1)
    rng = types.Range(types.Position(line, col), types.Position(line, col + len("sprintf('%04o', 420)")))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=rng,
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.Refactor])))
    assert [a.title for a in actions] == ["Extract into variable $mode"]
    assert actions[0].kind == types.CodeActionKind.RefactorExtract
    assert apply(text, actions[0].edit.changes[uri]) == text.replace(
        "  file {", "  $mode = sprintf('%04o', 420)\n  file {").replace("mode => sprintf('%04o', 420)", "mode => $mode")
