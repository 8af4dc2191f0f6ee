"""Document links and selection ranges end to end, with the recorded capabilities of each
editor: ``puppet:///modules/...`` sources, ``template()``, ``epp()`` and ``file()`` arguments link
to the files of the test workspace's 'webapp' module (a missing file gets no link), and
``textDocument/selectionRange`` answers, for each position, nested ranges from the word under
the cursor to the whole file."""
from __future__ import annotations

import itertools

import pytest
from lsprotocol import types
from puppet_ls.language.ide.links import document_links
from puppet_ls.language.ide.selection import selection_range
from puppet_ls.language.syntax import parse

from .conftest import WORKSPACE, new_uri, open_doc, position, wait_for_diagnostics, wait_for_index

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

WEBAPP = WORKSPACE / "modules" / "webapp"
DOC = """class profile::linked {
  file { '/etc/motd':
    source  => ['puppet:///modules/webapp/motd', 'puppet:///modules/webapp/missing'],
    content => template('webapp/vhost.conf.erb'),
  }
  $page = epp('webapp/page.epp', { 'port' => 80 })
  $same = file("webapp/motd")
  $none = template("webapp/${name}.erb")
}
"""


async def _open(client, text: str, name: str) -> str:
    uri = new_uri(name)
    open_doc(client, uri, text)
    await wait_for_diagnostics(client, uri)
    return uri


def _text_of(text: str, r: types.Range) -> str:
    lines = text.split("\n")
    if r.start.line == r.end.line:
        return lines[r.start.line][r.start.character:r.end.character]
    return "\n".join([lines[r.start.line][r.start.character:], *lines[r.start.line + 1:r.end.line],
                      lines[r.end.line][:r.end.character]])


async def test_document_links(client):
    assert client.init_result.capabilities.document_link_provider is not None
    await wait_for_index(client)     # modules are found through the index
    uri = await _open(client, DOC, "links.pp")
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    got = [(_text_of(DOC, link.range), link.target) for link in links]
    assert got == [
        ("puppet:///modules/webapp/motd", (WEBAPP / "files" / "motd").as_uri()),
        ("webapp/vhost.conf.erb", (WEBAPP / "templates" / "vhost.conf.erb").as_uri()),
        ("webapp/page.epp", (WEBAPP / "templates" / "page.epp").as_uri()),
        ("webapp/motd", (WEBAPP / "files" / "motd").as_uri()),
    ]


async def test_selection_ranges(client):
    assert client.init_result.capabilities.selection_range_provider is not None
    uri = await _open(client, DOC, "select.pp")
    res = await client.text_document_selection_range_async(types.SelectionRangeParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        positions=[position(DOC, "vhost.conf"), position(DOC, "page =", 1)]))
    assert len(res) == 2
    chains = []
    for sel in res:
        chain = []
        while sel is not None:
            chain.append(_text_of(DOC, sel.range))
            sel = sel.parent
        chains.append(chain)
    first, second = chains
    assert first[:4] == ["webapp/vhost.conf.erb", "'webapp/vhost.conf.erb'", "('webapp/vhost.conf.erb')",
                         "template('webapp/vhost.conf.erb')"]
    assert first[-1] == DOC and "content => template('webapp/vhost.conf.erb')" in first
    assert second[0] == "$page" and second[1].startswith("$page = epp(") and second[-1] == DOC
    for chain in chains:           # each range holds the one before
        for inner, outer in itertools.pairwise(chain):
            assert inner in outer and len(inner) < len(outer)


# ---- the pure functions, on their edges ---------------------------------------------------------

def test_links_read_only_literal_module_paths() -> None:
    text = ("$a = template('m/x.erb', \"m/${v}.erb\", 'not a path', 'M/upper.erb')\n"
            "$b = 'puppet:///modules/m/dir/f.conf'\n$c = 'puppet:///files/f'\n$d = 'm/x.erb'\n"
            "$e = file('m/a\\\\b')\n")
    got = [(text[x.start:x.end], x.relative) for x in document_links(parse(text))]
    assert got == [("m/x.erb", "m/templates/x.erb"), ("puppet:///modules/m/dir/f.conf", "m/files/dir/f.conf")]


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n", "class {", "$x = 'unterminated"])
def test_selection_ranges_on_any_text(text: str) -> None:
    result = parse(text)
    for offset in range(len(text) + 1):
        chain = selection_range(result, offset)
        assert chain[-1] == (0, len(text))
        for (s1, e1), (s2, e2) in itertools.pairwise(chain):
            assert s2 <= s1 <= offset <= e1 <= e2 and (s1, e1) != (s2, e2)
