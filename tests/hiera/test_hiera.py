"""Hiera 5 (language/hiera): hiera.yaml problems, data file reading, and lookups with their
explain trails, each pinned in an expected-output file (UPDATE_EXPECT=1 rewrites them).

Agreement with the real Puppet is measured by benchmarks/hiera_differential.py; these files
pin what puppet-ls shows, so that a change of it is seen in review."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from puppet_ls.language.hiera import read_config, read_data, scope_for
from puppet_ls.language.check.env import EMPTY
from puppet_ls.language.hiera.convert import convert
from puppet_ls.language.hiera.editor import class_links, data_diagnostics
from puppet_ls.language.hiera.interpolate import HieraError, split_key
from puppet_ls.language.hiera.lookup import glob_regex
from puppet_ls.language.hiera.merge import deep_merge, strategy
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server.workspace import hiera_for_environment
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
HIERA = FIXTURES / "hiera"


def _diags(text: str, diags: list) -> list:
    lines = LineIndex(text)
    out = []
    for d in diags:
        line, col = lines.position(d.offset)
        out.append(f"{line + 1}:{col + 1} {d.severity} {d.code}: {d.message}")
    return out


def check(path: Path, actual: list) -> None:
    assert_expected(path.with_suffix(path.suffix + ".expect"), "\n".join(actual) + "\n")


@pytest.mark.parametrize("path", sorted((HIERA / "config").glob("*.yaml")), ids=lambda p: p.name)
def test_config_problems(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    config = read_config(str(path), str(path.parent), text, "environment")
    out = [f"version: {config.version}, usable: {config.usable}"]
    out += [f"level {lv.name!r}: {lv.kind}={lv.function} datadir={lv.datadir} "
            f"{lv.location_kind}={list(lv.locations)} readable={lv.readable}" for lv in config.hierarchy]
    out += _diags(text, config.diagnostics)
    check(path, out)


@pytest.mark.parametrize("path", sorted(p for p in (HIERA / "data").iterdir() if p.suffix in (".yaml", ".json")),
                         ids=lambda p: p.name)
def test_data_files(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    df = read_data(str(path), text, eyaml=True)
    out = [f"ok: {df.ok}"]
    lines = LineIndex(text)
    for key, value in df.data.items():
        line, col = lines.position(df.key_spans[key][0])
        out.append(f"{line + 1}:{col + 1} {key!r} = {json.dumps(value, default=str)}")
    # what the file says on its own (no class is known): reading and interpolation problems
    out += _diags(text, data_diagnostics(df, EMPTY))
    check(path, out)


def _hiera_of(env: Path):
    modulepath = [str(env / "site-modules"), str(env / "modules")]
    glob = env / "global" / "hiera.yaml"
    return hiera_for_environment(str(env), modulepath, str(glob) if glob.exists() else None, convert)


def test_lookups() -> None:
    cases = yaml.safe_load((HIERA / "lookups.yaml").read_text(encoding="utf-8"))
    out: list = []
    for case in cases:
        env = FIXTURES / case["env"]
        hiera = _hiera_of(env)
        trusted = case.get("trusted")
        scope = scope_for(case["facts"], None if trusted is None else {"authenticated": "remote", "extensions": {}, **trusted})
        out.append(f"== {case['env']} {json.dumps(case['facts'], sort_keys=True)}")
        for lookup in case["lookups"]:
            key, merge = lookup[0], (lookup[1] if len(lookup) > 1 else None)
            r = hiera.lookup(key, scope, merge)
            head = f"{key} (merge {json.dumps(r.merge)}{' from lookup_options' if r.merge_source else ''})"
            if r.error:
                out.append(f"{head}: ERROR {r.error_code}: {r.error}")
            elif not r.found:
                out.append(f"{head}: not found")
            else:
                out.append(f"{head}: {json.dumps(r.value, default=str)}")
            for s in r.trail:
                where = os.path.relpath(s.path, env)
                what = ("found " + json.dumps(s.value, default=str)) if s.found else (
                    "no such key" if s.exists else "file not found")
                out.append(f"    {s.layer} / {s.level} / {where}: {what}")
    assert_expected(HIERA / "lookups.expect", "\n".join(out) + "\n")


@pytest.mark.parametrize(("key", "segments"), [
    ("a", ["a"]), ("a.b.0", ["a", "b", 0]), ("'a.b'.c", ["a.b", "c"]), ('x."y.z"', ["x", "y.z"]),
    ("facts.os.family", ["facts", "os", "family"]), ("ntp::servers.1", ["ntp::servers", 1]),
])
def test_split_key(key: str, segments: list) -> None:
    assert split_key(key) == segments


@pytest.mark.parametrize("key", ["a..b", ".a", "a.", "'a"])
def test_split_key_syntax_errors(key: str) -> None:
    with pytest.raises(HieraError):
        split_key(key)


@pytest.mark.parametrize(("source", "dest", "options", "expected"), [
    ({"a": [1], "b": {"x": 1}}, {"a": [2], "b": {"y": 2}, "c": 3}, {},
     {"a": [2, 1], "b": {"y": 2, "x": 1}, "c": 3}),
    ({"a": ["--x", "z"]}, {"a": ["x", "y"]}, {"knockout_prefix": "--"}, {"a": ["y", "z"]}),
    (["c", "a"], ["b"], {"sort_merged_arrays": True}, ["a", "b", "c"]),
    ([{"a": 1}], [{"b": 2}, {"c": 3}], {"merge_hash_arrays": True}, [{"b": 2, "a": 1}, {"c": 3}]),
    ("new", {"old": 1}, {}, "new"),
    (None, {"kept": 1}, {}, {"kept": 1}),
    ({"k": 1}, {"k": False}, {}, {"k": 1}),
])
def test_deep_merge(source, dest, options, expected) -> None:
    assert deep_merge(source, dest, options) == expected


def test_unique_merge_keeps_ruby_identity() -> None:
    # Ruby's `|` keeps 1, 1.0 and true apart; Python's equality would not.
    got = strategy("unique").merge([1, True], [1.0, 1, [True]])
    assert [(type(v).__name__, v) for v in got] == [("int", 1), ("bool", True), ("float", 1.0)]


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    ("/d/teams/*.yaml", "/d/teams/a.yaml", True),
    ("/d/teams/*.yaml", "/d/teams/x/a.yaml", False),
    ("/d/**/*.yaml", "/d/x/y/a.yaml", True),
    ("/d/{a,b}.yaml", "/d/b.yaml", True),
    ("/d/?.yaml", "/d/ab.yaml", False),
])
def test_glob(pattern: str, path: str, matches: bool) -> None:
    assert bool(glob_regex(pattern).fullmatch(path)) is matches


def test_check_reports_hiera_files(monkeypatch) -> None:
    """`puppet-ls check` on a control repository reports its Hiera files too: hiera.yaml
    problems, and in the data files keys that bind no parameter and values of the wrong type."""
    from click.testing import CliRunner

    from puppet_ls.server.cli import main
    monkeypatch.chdir(FIXTURES / "workspace")
    result = CliRunner().invoke(main, ["check", "--no-cache", "hiera-repo"], catch_exceptions=False)
    assert_expected(HIERA / "check-hiera-repo.expect", result.stdout)
    assert "26 files checked: 0 errors, 6 warnings" in result.stderr


def test_lookups_are_shown_for_the_preview_node() -> None:
    """The facts Hiera lookups are shown for: `puppet.hiera.facts` when set, else the node
    previews are computed for (`puppet.previews.facts`, issue 16's context), else this machine's."""
    from puppet_ls.language.ide.preview import PreviewContext
    from puppet_ls.server.hiera_ls import HieraSupport, machine_facts
    from puppet_ls.server.settings import Settings

    preview = PreviewContext({"os": {"family": "RedHat"}}, "web01.example.com", "rhel9")
    assert HieraSupport.facts(Settings(), preview) == {"os": {"family": "RedHat"}}
    assert HieraSupport.facts(Settings(hiera_facts={"os": {"family": "Debian"}}), preview) == {"os": {"family": "Debian"}}
    assert HieraSupport.facts(Settings(), None) == machine_facts()


@pytest.mark.parametrize(("text", "links"), [
    ("---\nclasses:\n  - profile::base\n  - \"role::web\"\n  - 'Bad Name'\n  - 42\n  - \"a\\x62\"\n",
     ["profile::base", "role::web"]),
    ("profile::classes: [ntp, '::apache']\nother: [x]\nclasses: x\n", ["ntp", "::apache"]),
    ("classes: [\n", []), ("", []), ("- a\n", []), ("classes: {a: 1}\n", []),
])
def test_class_links(text: str, links: list) -> None:
    """The classes of ``classes`` arrays, at the characters that spell them (a scalar whose
    text differs from its value, an escape say, gets no link)."""
    got = class_links(text)
    assert [text[s:e] for s, e, _ in got] == links
    assert [n for _, _, n in got] == [x.lstrip(":") for x in links]

