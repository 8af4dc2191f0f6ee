"""Hiera end to end in the editor, on the fixture control repository
fixtures/workspace/hiera-repo (global, environment and module layers): hover and definition
of lookup('...') keys and of class parameters (automatic parameter lookup), lookup key
completion, and in data files diagnostics (YAML errors, keys that bind no parameter, values of
the wrong type) and completion of keys from class parameters.  The fact set comes from the
`puppet.hiera.facts` setting; YAML documents are never parsed as Puppet."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import HIERA_REPO as REPO
from .conftest import position, wait_for_diagnostics

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")]

FACTS = {"os": {"family": "RedHat", "name": "Rocky", "release": {"major": "9"}},
         "networking": {"fqdn": "web01.example.com", "domain": "example.com"},
         "clientcert": "web01.example.com", "role": "webserver", "locations": ["paris", "dc1"], "team": "ops"}
INDEX_READY = "profile::web"   # a symbol that the index has once it is built
SETTINGS = {"diagnostics": {"debounceMs": 0},
            "hiera": {"facts": FACTS, "globalConfig": str(REPO / "global" / "hiera.yaml")}}


@pytest.fixture(scope="module")
def client(hiera_repo_client: LanguageClient) -> LanguageClient:
    return hiera_repo_client


def _open(client: LanguageClient, path: Path, language: str, text: str | None = None) -> tuple:
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id=language, version=1, text=text)))
    return path.as_uri(), text


async def _hover(client, uri, text, marker, delta=2) -> str:
    res = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, marker, delta)))
    assert res is not None, marker
    return res.contents.value


async def _definition(client, uri, text, marker, delta=2) -> list:
    res = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, marker, delta)))
    return [(Path(types_uri_path(loc.uri)).relative_to(REPO).as_posix(), loc.range.start.line) for loc in res]


def types_uri_path(uri: str) -> str:
    from urllib.parse import unquote, urlparse
    return unquote(urlparse(uri).path)


async def test_hover_on_a_lookup_key_shows_each_level_and_the_merge(client: LanguageClient):
    uri, text = _open(client, REPO / "site-modules" / "profile" / "manifests" / "base.pp", "puppet")
    md = await _hover(client, uri, text, "ntp::servers')")
    # unique merge from the module's lookup_options: node data, then the module's levels
    assert "`ntp::servers`" in md and "unique" in md
    assert '["ntp1.example.com", "ntp2.example.com", "rhel.pool.ntp.org", "0.pool.ntp.org", "1.pool.ntp.org"]' in md
    assert "| environment: Per-node data | `data/nodes/web01.example.com.yaml` |" in md
    assert "| module: OS family | `modules/ntp/data/os/RedHat.yaml` |" in md


async def test_definition_of_a_lookup_key_goes_to_the_yaml_keys(client: LanguageClient):
    uri, text = _open(client, REPO / "site-modules" / "profile" / "manifests" / "web.pp", "puppet")
    found = await _definition(client, uri, text, "profile::base::motd')")
    assert found == [("data/nodes/web01.example.com.yaml", 1)]


async def test_class_parameter_hover_and_definition_use_automatic_parameter_lookup(client: LanguageClient):
    uri, text = _open(client, REPO / "site-modules" / "profile" / "manifests" / "web.pp", "puppet")
    md = await _hover(client, uri, text, "$http_port,")
    assert "`profile::web::http_port`" in md and "9090" in md
    assert "| environment: Per-node data | `data/nodes/web01.example.com.yaml` | `9090` |" in md
    assert await _definition(client, uri, text, "$http_port,") == [("data/nodes/web01.example.com.yaml", 4)]
    # convert_to from a ^pattern in lookup_options: the string in common.yaml becomes an Integer
    md = await _hover(client, uri, text, "$https_port")
    assert "8443" in md and '"8443"' in md and "converted to `Integer`" in md


async def test_lookup_key_completion(client: LanguageClient):
    text = "class profile::t {\n  $x = lookup('profile::base::m')\n}\n"
    uri, _ = _open(client, REPO / "site-modules" / "profile" / "manifests" / "t_completion.pp", "puppet", text)
    res = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, "m')", 1)))
    labels = [i.label for i in res.items]
    assert labels == ["profile::base::mode", "profile::base::motd"]
    assert res.items[0].text_edit.range.start == position(text, "profile::base::m")


async def test_data_file_diagnostics(client: LanguageClient):
    uri, _ = _open(client, REPO / "data" / "role" / "webserver.yaml", "yaml")
    diags = await wait_for_diagnostics(client, uri)
    got = sorted((d.range.start.line, d.code, d.message) for d in diags)
    # profile::web::docroot's type is the repository's own alias Profile::Absolutepath, which
    # '/srv/web' matches
    assert got == [
        (3, "HIERA_UNBOUND_CLASS_KEY", ("'profile::web::vhosts' is in the namespace of class 'profile::web' but "
                                        "binds none of its parameters; only an explicit lookup() reads it")),
        (8, "HIERA_UNKNOWN_CLASS_PARAMETER", ("'profile::web::http_prot': class 'profile::web' has no parameter "
                                              "'http_prot'; did you mean 'profile::web::http_port'?")),
        (9, "HIERA_VALUE_TYPE_MISMATCH", ("'profile::web::workers' is bound to parameter $workers of class "
                                          "'profile::web', which expects a value of type Integer[1], got String ('many')")),
        (10, "HIERA_VALUE_TYPE_MISMATCH", ("'role::webserver::tier' is bound to parameter $tier of class 'role::webserver', "
                                           "which expects a value of type Enum['bronze', 'silver', 'gold'], got String ('platinum')")),
    ]


async def test_classes_array_links_to_manifests(client: LanguageClient):
    text = "---\nclasses:\n  - profile::web\n  - 'role::webserver'\n  - profile::missing\n"
    uri, _ = _open(client, REPO / "data" / "t_classes.yaml", "yaml", text)
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert [(link.range.start.line, link.range.start.character, Path(types_uri_path(link.target)).relative_to(REPO).as_posix())
            for link in links] == [(2, 4, "site-modules/profile/manifests/web.pp"),
                                   (3, 5, "site-modules/role/manifests/webserver.pp")]


async def test_broken_yaml_and_hiera_yaml(client: LanguageClient):
    uri, _ = _open(client, REPO / "data" / "t_broken.yaml", "yaml", "---\nprofile::base::motd: \"unclosed\nx: [1\n")
    diags = await wait_for_diagnostics(client, uri)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diags] == [("HIERA_YAML_SYNTAX", 1, 21)]
    text = "---\nversion: 5\nhierarchy:\n  - name: common\n    pathz: common.yaml\n"
    uri, _ = _open(client, REPO / "modules" / "ntp" / "hiera.yaml", "yaml", text)
    diags = await wait_for_diagnostics(client, uri)
    # without `defaults`, Puppet's default data_hash (yaml_data) applies: only the typo is wrong
    assert [(d.code, d.range.start.line) for d in diags] == [("HIERA_UNKNOWN_KEY", 4)]


async def test_yaml_outside_a_datadir_is_not_hiera_data(client: LanguageClient):
    uri, _ = _open(client, REPO / ".gitlab-ci.yml", "yaml", "- not: hiera\n- profile::web::nope: 1\n")
    assert list(await wait_for_diagnostics(client, uri)) == []


async def test_data_file_key_completion_from_class_parameters(client: LanguageClient):
    text = "---\nprofile::web::h"
    uri, _ = _open(client, REPO / "data" / "t_keys.yaml", "yaml", text)
    res = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, 15)))
    assert [(i.label, i.detail) for i in res.items] == [
        ("profile::web::http_port", "Integer $http_port (required)"),
        ("profile::web::https_port", "Integer $https_port (has a default)")]


async def test_data_file_key_hover_shows_the_parameter(client: LanguageClient):
    uri, text = _open(client, REPO / "data" / "nodes" / "web01.example.com.yaml", "yaml")
    md = await _hover(client, uri, text, "profile::web::http_port", 3)
    assert md == ("Binds parameter `$http_port` of class `profile::web` (automatic parameter lookup)\n\n"
                  "```puppet\nInteger $http_port\n```\n\nThe HTTP port.")
    res = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, "ntp::servers", 2)))
    assert res is not None and "`$servers` of class `ntp`" in res.contents.value


async def _hints_until(client: LanguageClient, uri: str, want: tuple, tries: int = 200) -> set:
    """(line, label) of the inlay hints of ``uri``'s first 16 lines, asked again until ``want``
    is among them (the previews' worker may be starting; data may be read again)."""
    labels: set = set()
    for _ in range(tries):
        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(16, 0))))
        labels = {(h.position.line, str(h.label)) for h in hints or []}
        if want in labels:
            break
        await asyncio.sleep(0.1)
    return labels


def _preview_node(client: LanguageClient, tmp_path) -> str:
    """Previews for web01.example.com (a facts file with the custom facts the environment's
    hierarchy interpolates: role, locations, team); the uri of ntp's manifest, opened."""
    import json
    facts = tmp_path / "web01.json"
    facts.write_text(json.dumps(FACTS), encoding="utf-8")
    uri, _ = _open(client, REPO / "modules" / "ntp" / "manifests" / "init.pp", "puppet")
    settings = {**SETTINGS, "previews": {"facts": str(facts), "node": "web01.example.com", "timeoutMs": 2000}}
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"puppet": settings}))
    return uri


async def test_class_parameter_inlay_hints_show_the_hiera_value_and_its_file(client: LanguageClient, tmp_path):
    # previews evaluate with the node of puppet.previews.facts
    uri = _preview_node(client, tmp_path)
    # a unique merge over the node's file and the module's levels (lookup_options of the module)
    want = ("⟶ ['ntp1.example.com', 'ntp2.example.com', 'rhel.pool.ntp.org… "
            "(hiera data/nodes/web01.example.com.yaml, ntp/data/os/RedHat.yaml, ntp/data/common.yaml)")
    try:
        labels = await _hints_until(client, uri, (8, want))
        assert (8, want) in labels
        assert (9, "⟶ 'chrony' (hiera data/os/RedHat.yaml)") in labels          # the environment's OS level
        assert (10, "⟶ true (hiera ntp/data/common.yaml)") in labels            # the module's data
        assert (14, "⟶ 'chrony'") in labels                     # the resource title reads the parameter
    finally:
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"puppet": SETTINGS}))


async def test_saved_data_are_read_again_and_the_previews_computed_again(client: LanguageClient, tmp_path):
    # the value of the parameter, and the faded branches: the open manifests' diagnostics are
    # published again (VS Code 1.65's capabilities, the client's, have no inlay hint refresh)
    uri = _preview_node(client, tmp_path)
    data = REPO / "data" / "os" / "RedHat.yaml"
    original = data.read_text(encoding="utf-8")
    features = client.protocol.fm.features
    publish = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    published: list = []

    def record(params: types.PublishDiagnosticsParams) -> None:
        published.append(params.uri)
        publish(params)
    data_uri, _ = _open(client, data, "yaml")

    def save(text: str) -> None:
        data.write_text(text, encoding="utf-8")
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=data_uri)))
    try:
        assert (9, "⟶ 'chrony' (hiera data/os/RedHat.yaml)") in await _hints_until(
            client, uri, (9, "⟶ 'chrony' (hiera data/os/RedHat.yaml)"))
        await wait_for_diagnostics(client, uri)
        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
        save(original.replace("ntp::package_name: chrony", "ntp::package_name: ntpsec"))
        want = (9, "⟶ 'ntpsec' (hiera data/os/RedHat.yaml)")
        assert want in await _hints_until(client, uri, want)
        for _ in range(100):
            if uri in published:
                break
            await asyncio.sleep(0.05)
        assert uri in published
    finally:
        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
        save(original)
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=data_uri)))
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"puppet": SETTINGS}))
