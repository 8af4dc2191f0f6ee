"""Unit tests of the server's own pieces that need no client: settings parsing (a table of
inputs and expected settings/problems), document URIs to paths (a table), position conversion
in every encoding (round trips over random Unicode text), and document revisions (random edits
through apply_changes equal a fresh parse)."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server.documents import apply_changes, is_puppet_document, open_document
from puppet_ls.server.lsp import uri_to_path
from puppet_ls.server.positions import UTF8, UTF16, UTF32, PositionCodec
from puppet_ls.server.settings import DEFAULTS, parse_settings

SETTINGS_CASES = [
    # (raw JSON, expected differences from the defaults, problem substrings)
    (None, {}, []),
    ({}, {}, []),
    ({"puppet": {"diagnostics": {"debounceMs": 250}}}, {"diagnostics_debounce_ms": 250}, []),
    ({"diagnostics": {"enable": False}}, {"diagnostics_enable": False}, []),
    ({"modulepath": "a:b"}, {"modulepath": ("a", "b")}, []),
    ({"modulepath": ["/x", "y"]}, {"modulepath": ("/x", "y")}, []),
    ({"modulepath": 3}, {}, ["puppet.modulepath"]),
    ({"diagnostics": {"debounceMs": "soon"}}, {}, ["debounceMs", "whole number"]),
    ({"diagnostics": {"debounceMs": 99999}}, {}, ["between 0 and 10000"]),
    ({"diagnostics": {"enable": "yes"}}, {}, ["true or false"]),
    ({"previews": {"maxSteps": 5000.0}}, {"previews_max_steps": 5000}, []),
    ({"previews": {"maxSteps": True}}, {}, ["maxSteps"]),
    ({"log": {"level": "loud"}}, {}, ["one of error, warning, info, debug"]),
    ({"unknown": {"key": 1}, "hover": {"values": False}}, {"hover_values": False}, []),
    ("not an object", {}, ["must be an object"]),
]


@pytest.mark.parametrize("raw, changed, problems", SETTINGS_CASES)
def test_parse_settings(raw, changed, problems) -> None:
    got, found = parse_settings(raw)
    for name in DEFAULTS.__dataclass_fields__:
        want = changed.get(name, getattr(DEFAULTS, name))
        assert getattr(got, name) == want, name
    joined = " ".join(found)
    for p in problems:
        assert p in joined
    assert bool(found) == bool(problems)


@hsettings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80), st.data())
def test_positions_round_trip(text, data) -> None:
    index = LineIndex(text)
    for enc in (UTF8, UTF16, UTF32):
        codec = PositionCodec(index, enc)
        offset = data.draw(st.integers(0, len(text)))
        line, char = codec.position(offset)
        assert codec.offset(line, char) == offset
        # the column counts the encoding's units of the line's prefix
        start = index.starts[line]
        prefix = text[start:offset]
        units = {UTF8: len(prefix.encode("utf-8")), UTF16: len(prefix.encode("utf-16-le")) // 2,
                 UTF32: len(prefix)}[enc]
        assert char == units


def test_positions_past_the_end_are_clamped() -> None:
    codec = PositionCodec(LineIndex("ab\ncd"), UTF16)
    assert codec.offset(0, 99) == 2
    assert codec.offset(5, 0) == 5
    assert codec.offset(-1, 0) == 0


URI_CASES = [
    ("file:///etc/puppet/site.pp", "/etc/puppet/site.pp"),
    ("file:///a%20b/c.pp", "/a b/c.pp"),
    ("untitled:Untitled-1", "Untitled-1"),
    # not parseable (an unclosed IPv6 host): the document still opens, under its URI
    ("file://[/x.pp", "file://[/x.pp"),
    ("http://[x", "http://[x"),
]


@pytest.mark.parametrize("uri, path", URI_CASES)
def test_uri_to_path(uri, path) -> None:
    assert uri_to_path(uri) == path


DOCUMENT_CASES = [
    # (languageId the client sent, path, analysed as Puppet?)
    ("puppet", "/r/manifests/site.pp", True),
    ("puppet-epp", "/r/templates/motd.epp", True),
    ("epuppet", "/r/templates/motd.epp", True),
    ("plaintext", "/r/manifests/init.pp", True),      # the file name says Puppet
    ("", "/r/x.epp", True),
    ("puppet", "/tmp/untitled-1", True),               # the client says Puppet
    ("ruby", "/r/Puppetfile", False),
    ("puppet", "/r/Puppetfile", False),                # a Ruby DSL, whatever it is called
    ("yaml", "/r/data/common.yaml", False),
    ("puppet", "/r/hiera.yaml", False),
    ("json", "/r/metadata.json", False),
    ("ruby", "/r/lib/facter/role.rb", False),
    ("plaintext", "/r/README", False),
]


@pytest.mark.parametrize("language_id, path, puppet", DOCUMENT_CASES)
def test_which_documents_are_puppet(language_id, path, puppet) -> None:
    assert is_puppet_document(language_id, path) is puppet


def _change(codec, start, end, text):
    (l1, c1), (l2, c2) = codec.position(start), codec.position(end)
    rng = SimpleNamespace(start=SimpleNamespace(line=l1, character=c1), end=SimpleNamespace(line=l2, character=c2))
    return SimpleNamespace(range=rng, text=text)


@pytest.mark.parametrize("seed", range(5))
def test_revisions_equal_a_fresh_parse(seed) -> None:
    rng = random.Random(seed)
    text = "class a (Integer $x = 1) {\n  $y = [$x, 'é𝄞']\n  notify { 'n': message => \"${y}\" }\n}\n"
    doc = open_document("file:///t.pp", "/t.pp", 1, text, UTF16)
    pieces = ["{", "}", "$z", "'", "\"", "\n", "[", "]", "é", "𝄞", "x", ""]
    for version in range(2, 300):
        start = rng.randint(0, len(doc.text))
        end = min(len(doc.text), start + rng.choice([0, 0, 1, 3]))
        new = rng.choice(pieces)
        expected_text = doc.text[:start] + new + doc.text[end:]
        if rng.random() < 0.1:
            change = SimpleNamespace(range=None, text=expected_text)
        else:
            change = _change(doc.codec, start, end, new)
        doc = apply_changes(doc, [change], version)
        assert doc.text == expected_text
        fresh = open_document("file:///t.pp", "/t.pp", version, expected_text, UTF16)
        assert doc.result.green == fresh.result.green
        assert doc.lines.starts == fresh.lines.starts
        assert [(e.offset, e.code) for e in doc.result.errors] == [(e.offset, e.code) for e in fresh.result.errors]


@pytest.mark.parametrize("old, new", [
    ([], []),
    ([0, 0, 5, 1, 0], [0, 0, 5, 1, 0]),
    ([0, 0, 5, 1, 0], []),
    ([], [0, 0, 5, 1, 0]),
    ([0, 0, 5, 1, 0, 1, 2, 3, 4, 0], [0, 0, 5, 1, 0, 0, 4, 1, 2, 0, 1, 2, 3, 4, 0]),   # a token inserted
    ([0, 0, 5, 1, 0, 1, 2, 3, 4, 0, 2, 0, 1, 1, 0], [0, 0, 5, 1, 0, 2, 0, 1, 1, 0]),   # a token deleted
    ([0, 0, 5, 1, 0, 1, 2, 3, 4, 0], [0, 0, 6, 1, 0, 1, 2, 3, 4, 0]),                  # a length changed
    ([0, 0, 5, 5, 0, 0, 6, 5, 5, 0], [0, 0, 5, 5, 0, 0, 6, 5, 5, 0, 0, 6, 5, 5, 0]),   # repeats: no overlap
])
def test_semantic_tokens_splice(old, new):
    """One splice of whole tokens turns the previous array into the new one."""
    from puppet_ls.server.convert import tokens_splice
    start, delete, insert = tokens_splice(old, new)
    assert start % 5 == 0 and delete % 5 == 0 and len(insert) % 5 == 0
    assert old[:start] + insert + old[start + delete:] == new


@pytest.mark.parametrize("seed", range(20))
def test_semantic_tokens_splice_of_long_arrays(seed):
    """In arrays longer than the blocks compared at once, the splice is still the smallest
    one of whole tokens: it starts at the common prefix and ends at the common suffix."""
    from puppet_ls.server.convert import tokens_splice
    rng = random.Random(seed)
    old = [rng.randint(0, 3) for _ in range(5 * rng.randint(0, 900))]
    new = list(old)
    for _ in range(rng.randint(0, 3)):
        at = 5 * rng.randint(0, len(new) // 5)
        new[at:at + 5 * rng.randint(0, 3)] = [rng.randint(0, 3) for _ in range(5 * rng.randint(0, 3))]
    start, delete, insert = tokens_splice(old, new)
    assert old[:start] + insert + old[start + delete:] == new
    prefix = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    suffix = next((i for i, (a, b) in enumerate(zip(old[::-1], new[::-1])) if a != b), min(len(old), len(new)))
    suffix = min(suffix, min(len(old), len(new)) - prefix + prefix % 5)
    assert start == prefix - prefix % 5
    assert len(old) - start - delete == suffix - suffix % 5


# '$a = \'é𝄞\'' then a string over two lines: columns and lengths in each encoding's units,
# multi-line tokens split at line ends unless the client takes them whole
_TOKENS_TEXT = "$a = 'é𝄞'\n$b = 'x\ny'\n"
_TOKENS = [(0, 2, 4, 0), (5, 4, 10, 0), (10, 2, 4, 1), (15, 5, 10, 0)]


@pytest.mark.parametrize("encoding, multiline, data", [
    (UTF16, False, [0, 0, 2, 4, 0, 0, 5, 5, 10, 0, 1, 0, 2, 4, 1, 0, 5, 2, 10, 0, 1, 0, 2, 10, 0]),
    (UTF8, False, [0, 0, 2, 4, 0, 0, 5, 8, 10, 0, 1, 0, 2, 4, 1, 0, 5, 2, 10, 0, 1, 0, 2, 10, 0]),
    (UTF32, False, [0, 0, 2, 4, 0, 0, 5, 4, 10, 0, 1, 0, 2, 4, 1, 0, 5, 2, 10, 0, 1, 0, 2, 10, 0]),
    (UTF16, True, [0, 0, 2, 4, 0, 0, 5, 5, 10, 0, 1, 0, 2, 4, 1, 0, 5, 5, 10, 0]),
])
def test_semantic_tokens_array(encoding, multiline, data):
    from puppet_ls.server.convert import semantic_tokens
    codec = PositionCodec(LineIndex(_TOKENS_TEXT), encoding)
    assert semantic_tokens(codec, _TOKENS_TEXT, _TOKENS, multiline) == data


def _tokens_reference(codec, text: str, tokens: list, multiline: bool) -> list:
    """The LSP array computed the slow, obvious way: each piece's position from the codec."""
    out: list = []
    prev = (0, 0)
    for offset, length, ttype, mods in tokens:
        pieces = [(offset, offset + length)]
        if not multiline:
            pieces, s = [], offset
            while "\n" in text[s:offset + length]:
                e = text.index("\n", s)
                pieces.append((s, e))
                s = e + 1
            pieces.append((s, offset + length))
        for s, e in pieces:
            if e <= s:
                continue
            line, char = codec.position(s)
            size = codec.position(e)[1] - char if not multiline or "\n" not in text[s:e] else \
                len(text[s:e].encode("utf-16-le")) // 2 if codec.encoding == UTF16 else \
                len(text[s:e].encode()) if codec.encoding == UTF8 else e - s
            out += [line - prev[0], char - prev[1] if line == prev[0] else char, size, ttype, mods]
            prev = (line, char)
    return out


_TOKEN_FILES = ["examples/control-repo/site-modules/profile/manifests/webserver.pp", "tests/editors/demo.pp"]


@pytest.mark.parametrize("encoding", [UTF8, UTF16, UTF32])
@pytest.mark.parametrize("multiline", [False, True])
@pytest.mark.parametrize("extra", ["", "$s = 'é\n𝄞'\n$h = @(E)\n  x\n  | E\n"])
def test_semantic_tokens_array_of_files(encoding, multiline, extra):
    """Whole files (ASCII ones, which take the shortcut for a token on its line, and with a
    non-ASCII multi-line string) give the array that each piece's position gives."""
    from pathlib import Path

    from puppet_ls.language.check import analyze
    from puppet_ls.language.ide.semantic_tokens import semantic_tokens as classify
    from puppet_ls.language.syntax import parse
    from puppet_ls.server.convert import semantic_tokens
    root = Path(__file__).resolve().parents[2]
    for name in _TOKEN_FILES:
        text = (root / name).read_text(encoding="utf-8") + extra
        codec = PositionCodec(LineIndex(text), encoding)
        tokens = classify(analyze(parse(text)))
        assert semantic_tokens(codec, text, tokens, multiline) == _tokens_reference(codec, text, tokens, multiline)


def test_workspace_rounds_continue_where_they_stopped(monkeypatch) -> None:
    """A round that runs out of time reports what it checked; the next starts at the first file
    it left, so every file is reported in turn (at least one file a round)."""
    from pathlib import Path

    from pygls.uris import to_fs_path

    from puppet_ls.server import lsp as server_lsp
    from puppet_ls.server.workspace import build_index

    from .conftest import WORKSPACE

    ls = server_lsp.PuppetServer()
    try:
        ls.index = build_index([str(WORKSPACE)], [])
        monkeypatch.setattr(server_lsp, "WORKSPACE_ROUND_SECONDS", -1.0)     # every round out of time at once
        seen = []
        for _ in range(7):
            report = server_lsp._workspace_diagnostics(ls, {}, None)
            assert len(report.items) == 1
            seen.append(Path(to_fs_path(report.items[0].uri)).name)
        assert sorted(seen[:6]) == ["base.pp", "greet.pp", "init.pp", "port.pp", "site.pp", "vhost.pp"]
        assert seen[6] == seen[0]
    finally:
        ls.work_pool.shutdown(wait=False)
        ls.interactive_pool.shutdown(wait=False)
        ls.eval_pool.shutdown(wait=False)


# (what differs from the document the early front opened) -> is its parse taken?
REOPENED = {"the same": ({}, True), "another text": ({"text": "class b {}\n"}, False),
            "another path": ({"path": "/u.pp"}, False), "a template": ({"path": "/t.epp"}, False),
            "now too large": ({"max_size": 4}, False), "another version and encoding": ({"version": 9, "encoding": UTF8}, True)}


@pytest.mark.parametrize("name", list(REOPENED))
def test_open_document_takes_the_early_parse_only_of_the_same_document(name):
    """The server opens again what the early front opened (server/early.py): the parse is
    taken only when it would be the same, and the new document shares nothing else."""
    base = {"path": "/t.pp", "version": 1, "text": "class a {}\n", "encoding": UTF16, "max_size": 1000, "language_id": "puppet"}
    early = open_document("file:///t.pp", base["path"], base["version"], base["text"], base["encoding"],
                          base["max_size"], base["language_id"])
    early.analysis(None, 1)
    changes, taken = REOPENED[name]
    a = {**base, **changes}
    doc = open_document("file:///t.pp", a["path"], a["version"], a["text"], a["encoding"], a["max_size"],
                        a["language_id"], parsed=early)
    assert (doc.result is early.result) == taken
    fresh = open_document("file:///t.pp", a["path"], a["version"], a["text"], a["encoding"], a["max_size"], a["language_id"])
    assert (doc.version, doc.encoding, doc.too_large, doc.kind, doc.text) == \
        (fresh.version, fresh.encoding, fresh.too_large, fresh.kind, fresh.text)
    assert (doc.result.text, [str(e) for e in doc.result.errors]) == (fresh.result.text, [str(e) for e in fresh.result.errors])
    assert doc._analysis is None and doc.cache == {} and doc.model_memo is not early.model_memo
