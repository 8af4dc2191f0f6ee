"""Fuzzing through the protocol: thousands of random edits (characters and whole tokens
inserted and deleted) applied with didChange to real corpus files, with requests of every
kind at random positions in between.  The server must answer every request within a time
bound, never crash, and end in exactly the state a fresh parse of the final text gives
(its diagnostics equal those computed from scratch)."""
from __future__ import annotations

import asyncio
import glob
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.lint import default_enabled
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server.lsp import uri_to_path
from puppet_ls.server.positions import PositionCodec
from puppet_ls.server.workspace import build_index, modulepath_from_environment
from tests.corpus import corpus_files

from .conftest import SAMPLES, SERVER, WORKSPACE, track_versions, wait_for_diagnostics

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

STEPS = int(os.environ.get("PUPPET_LS_FUZZ_STEPS", "3000"))
SEED = int(os.environ.get("PUPPET_LS_FUZZ_SEED", "20261121"))
REQUEST_TIMEOUT = 10.0
LOG = os.path.join(tempfile.gettempdir(), f"puppet-ls-fuzz-{os.getpid()}.log")
TOKENS = ["{", "}", "[", "]", "(", ")", "$x", "${", "\"", "'", "@(END)\n", "END\n", "=>", "->", "|$v|",
          "class ", "define ", "if ", "else ", "case ", "node ", "function ", "type ", "<|", "|>",
          "#", "/*", "*/", "\n", ",", ":", ";", "=", "==", "=~", "/re/", "Integer[", "::", "@@",
          "notify { 'x': }", "$facts['os']", "\\", "€", "𝄞", "\t", "<%", "%>", "default"]
CHARS = "abcxyz_$:{}[]()\"'=>,;|@#\n \t/\\*-+!?.%<>~0123456789"


def _files(rng: random.Random) -> list:
    files = corpus_files()
    if files:
        rng.shuffle(files)
        picked = [f for f in files if 300 < os.path.getsize(f) < 20_000][:6]
        # and EPP templates of the same modules (parsed whole, not incrementally)
        templates = sorted(glob.glob("/usr/share/puppet/modules/*/templates/*.epp"))
        rng.shuffle(templates)
        picked += [t for t in templates if os.path.getsize(t) > 200][:2]
        if picked:
            return picked
    return [str(SAMPLES / "basic.pp"), str(SAMPLES / "errors.pp"), str(SAMPLES / "large.pp")]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER + ["--log-file", LOG]),
                    params=["visual-studio-code"], scope="module")
async def fuzz_client(lsp_client: LanguageClient, request):
    track_versions(lsp_client)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(request.param), root_uri=WORKSPACE.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=WORKSPACE.as_uri(), name="workspace")]))
    yield
    await lsp_client.shutdown_session()
    if os.path.exists(LOG):
        os.remove(LOG)


def _random_edit(rng: random.Random, text: str) -> tuple:
    """(start, end, new_text) in code-point offsets."""
    n = len(text)
    pos = rng.randint(0, n)
    r = rng.random()
    if r < 0.35:
        return pos, pos, rng.choice(CHARS)
    if r < 0.6:
        return pos, pos, rng.choice(TOKENS)
    if r < 0.85:
        return pos, min(n, pos + rng.randint(1, 6)), ""
    # delete or duplicate a whole line
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    end = n if end < 0 else end + 1
    if rng.random() < 0.5:
        return start, end, ""
    return start, start, text[start:end]


async def _bounded(coro, what: str):
    t0 = time.monotonic()
    try:
        return await asyncio.wait_for(coro, REQUEST_TIMEOUT)
    except asyncio.TimeoutError:
        raise AssertionError(f"{what} took longer than {REQUEST_TIMEOUT} s: the server is unresponsive")
    finally:
        assert time.monotonic() - t0 < REQUEST_TIMEOUT


async def _requests(client, uri: str, codec: PositionCodec, offset: int, rng: random.Random) -> None:
    line, char = codec.position(offset)
    pos = types.Position(line, char)
    doc = types.TextDocumentIdentifier(uri=uri)
    kind = rng.randrange(8)
    if kind == 0:
        await _bounded(client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos)), "hover")
    elif kind == 1:
        await _bounded(client.text_document_completion_async(types.CompletionParams(text_document=doc, position=pos)),
                       "completion")
    elif kind == 2:
        await _bounded(client.text_document_signature_help_async(
            types.SignatureHelpParams(text_document=doc, position=pos)), "signature help")
    elif kind == 3:
        await _bounded(client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos)),
                       "definition")
    elif kind == 4:
        await _bounded(client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc)),
                       "symbols")
    elif kind == 5:
        await _bounded(client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc)),
                       "semantic tokens")
    elif kind == 6:
        await _bounded(client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc)),
                       "folding")
    else:
        await _bounded(client.text_document_code_lens_async(types.CodeLensParams(text_document=doc)), "code lens")


async def test_random_edits_never_break_the_server(fuzz_client: LanguageClient):
    rng = random.Random(SEED)
    files = _files(rng)
    env = build_index([str(WORKSPACE)], modulepath_from_environment(str(WORKSPACE), []))
    per_file = max(1, STEPS // len(files))
    t0 = time.monotonic()
    requests = 0
    for i, path in enumerate(files):
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        uri = (WORKSPACE / "fuzz" / f"f{i}_{os.path.basename(path)}").as_uri()
        version = 1
        fuzz_client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="puppet", version=version, text=text)))
        for step in range(per_file):
            start, end, new = _random_edit(rng, text)
            codec = PositionCodec(LineIndex(text), "utf-16")
            (l1, c1), (l2, c2) = codec.position(start), codec.position(end)
            version += 1
            change = types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(l1, c1), types.Position(l2, c2)), text=new)
            text = text[:start] + new + text[end:]
            changes = [change]
            r = rng.random()
            if r < 0.05:
                # some clients send the whole text
                changes = [types.TextDocumentContentChangeWholeDocument(text=text)]
            elif r < 0.1:
                # several changes in one notification, each relative to the previous one
                s2, e2, new2 = _random_edit(rng, text)
                codec2 = PositionCodec(LineIndex(text), "utf-16")
                (m1, d1), (m2, d2) = codec2.position(s2), codec2.position(e2)
                changes.append(types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(m1, d1), types.Position(m2, d2)), text=new2))
                text = text[:s2] + new2 + text[e2:]
            fuzz_client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=changes))
            if step % 25 == 0:
                codec = PositionCodec(LineIndex(text), "utf-16")
                await _requests(fuzz_client, uri, codec, rng.randint(0, len(text)), rng)
                requests += 1
        # the final state equals a fresh parse and check of the final text
        diags = await wait_for_diagnostics(fuzz_client, uri, version, timeout=REQUEST_TIMEOUT)
        doc_path = uri_to_path(uri)
        expected = file_diagnostics(parse_for_path(text, path), env, path=doc_path, lint=default_enabled())
        codec = PositionCodec(LineIndex(text), "utf-16")
        want = [(d.code, codec.position(d.offset)) for d in expected]
        got = [(d.code, (d.range.start.line, d.range.start.character)) for d in diags]
        assert got == want, f"{path}: the server's state differs from a fresh parse after {per_file} edits"
        fuzz_client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    elapsed = time.monotonic() - t0
    # every request was answered; no handler may have failed internally either
    await _bounded(fuzz_client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0))), "final hover")
    log = Path(LOG).read_text(encoding="utf-8", errors="replace") if os.path.exists(LOG) else ""
    assert "Traceback" not in log, log[log.find("Traceback") - 300:][:3000]
    sys.stderr.write(f"fuzz: {per_file * len(files)} edits on {len(files)} files, {requests} requests, {elapsed:.1f} s\n")
    assert elapsed < 300
