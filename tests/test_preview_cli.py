"""``puppet-ls preview``: the catalog of a class of fixtures/preview/modules (a params class,
a module type alias, a contained class, a defined type, a module's Ruby type, functions that
need the outside world) on each built-in fact set, as text and JSON.  Regenerate with
UPDATE_EXPECT=1."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from puppet_ls.server.cli import main
from tests.expect import assert_expected

REPO = Path(__file__).resolve().parents[1]
MODULES = REPO / "fixtures" / "preview" / "modules"
EXPECT = REPO / "fixtures" / "preview" / "cli"


def run(*args: str):
    result = CliRunner().invoke(main, ["preview", *args], catch_exceptions=False)
    return result.exit_code, result.output.replace(str(REPO), "<repo>")


@pytest.mark.parametrize("facts", ["debian12", "rhel9", "ubuntu2404", "windows2022"])
def test_catalog_text(facts: str) -> None:
    code, out = run("demo", "--modulepath", str(MODULES), "--facts", facts, "--node", "web01.example.com")
    assert_expected(EXPECT / f"demo_{facts}.txt", f"exit {code}\n{out}")


def test_catalog_json_of_a_file() -> None:
    code, out = run(str(MODULES / "demo" / "manifests" / "init.pp"), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    by_ref = {r["ref"]: r for r in doc["resources"]}
    assert by_ref["Package[nginx-full]"]["parameters"]["ensure"] == "'present'"
    assert by_ref["File[/etc/demo.conf]"]["unknown"] == ["content"]      # template(): never run
    assert by_ref["File[/srv/node]"]["container"] == "Demo::Site[main]"
    assert ["Package['nginx-full']", "->", "Class[demo::config]"] in doc["relationships"]
    assert doc["notices"] == ["demo on node.example.com"]


def test_a_missing_class_and_bad_facts_are_usage_errors() -> None:
    code, out = run("nosuch", "--modulepath", str(MODULES))
    assert code == 2 and "class nosuch not found" in out
    code, out = run("demo", "--modulepath", str(MODULES), "--facts", "nosuchset")
    assert code == 2 and "debian12" in out


HIERA_ENVS = REPO / "fixtures" / "preview"


@pytest.mark.parametrize("env,cls,facts,extra", [
    ("hiera", "hdemo", "debian12", ()),            # environment and module data, merges, alias, convert_to
    ("hiera", "hdemo", "rhel9", ()),
    ("hiera", "hdemo", "debian12", ("--no-hiera",)),   # the defaults (package has none: an error)
    ("hiera_role", "hrole", "debian12", ()),       # a level needs a fact the set lacks: unknown values
])
def test_catalog_with_hiera(env: str, cls: str, facts: str, extra: tuple) -> None:
    root = HIERA_ENVS / env
    code, out = run(cls, "--modulepath", str(root / "modules"), "--environment", str(root), "--facts", facts,
                    "--node", "web01.example.com", *extra)
    name = f"{cls}_{facts}{'_no_hiera' if extra else ''}.txt"
    assert_expected(EXPECT / name, f"exit {code}\n{out}")


def test_a_missing_environment_is_a_usage_error() -> None:
    code, out = run("hdemo", "--modulepath", str(HIERA_ENVS / "hiera" / "modules"), "--environment", "/nonexistent")
    assert code == 2 and "--environment" in out


def test_check_with_facts_reports_the_fail_calls_the_node_reaches() -> None:
    path = str(REPO / "fixtures" / "preview" / "node_fails.pp")

    def check(*args: str) -> tuple:
        result = CliRunner().invoke(main, ["check", "--no-cache", "--select", "NODE_FAILS", *args, path],
                                    catch_exceptions=False)
        return result.exit_code, [ln.replace(str(REPO), "<repo>") for ln in result.output.splitlines()]

    code, lines = check("--facts", "windows2022", "--node", "win01.example.com")
    where = "<repo>/fixtures/preview/node_fails.pp"
    said = "warning NODE_FAILS On win01.example.com (facts: windows2022) the catalog fails here:"
    assert lines[:2] == [f"{where}:9:16: {said} 'windows is not supported by demo'",
                         f"{where}:12:5: {said} 'demo::support needs a POSIX system'"]
    code, lines = check("--facts", "debian12")          # supported: nothing to report
    assert code == 0 and not any("NODE_FAILS" in ln for ln in lines)
    code, lines = check()                               # without --facts: no node, no finding
    assert code == 0 and not any("NODE_FAILS" in ln for ln in lines)
    code, lines = check("--node", "x")
    assert code == 2 and "--node needs --facts" in "\n".join(lines)


def test_manifests_a_class_names_are_loaded_before_it_is_compiled() -> None:
    # demo names demo::params, demo::config, demo::site and Demo::Port: each one the
    # compilation had to ask for would cost one more compilation of everything loaded so far
    from puppet_ls.server.catalog_preview import run as run_preview
    from puppet_ls.server.factsfile import load_context
    ctx, _ = load_context("debian12")
    res = run_preview("demo", ctx, [str(MODULES)])
    assert not isinstance(res, str) and res.catalog.ok
    assert res.compilations == 1
    assert len(res.files) == 5


EXTERNAL = REPO / "fixtures" / "preview" / "external"


@pytest.mark.parametrize("extra", [(), ("--external-facts", str(EXTERNAL))])
def test_catalog_with_the_modules_and_a_sites_external_facts(extra: tuple) -> None:
    # sitefacts' own facts.d is read with any fact set (pluginsync gives it to every node); the
    # site folder only when given: without it, its facts are undef, as on a node without them
    code, out = run("sitefacts", "--modulepath", str(MODULES), "--facts", "debian12", *extra)
    name = f"sitefacts_debian12{'_external' if extra else ''}.txt"
    assert_expected(EXPECT / name, f"exit {code}\n{out}")


def test_external_fact_files_are_read_as_facter_reads_them(tmp_path: Path) -> None:
    from puppet_ls.server.factsfile import external_facts, module_fact_dirs
    dirs = module_fact_dirs([str(MODULES)])
    assert dirs == [str(MODULES / "sitefacts" / "facts.d")]
    assert module_fact_dirs([str(MODULES / "sitefacts")]) == dirs        # a module given itself
    facts, problems = external_facts([*dirs, str(EXTERNAL)])
    # .txt: split at the first '=', names lower-cased, lines without a value skipped; YAML dates
    # become strings; the executable is never run; .json read
    assert facts == {"site_default": "<SERVICE DEFAULT>", "site_role": "web=front", "rack": "r12",
                     "datacenter": "ams1", "kernel": "Plan9", "built": "2024-01-02"}
    assert problems == []
    (tmp_path / "broken.json").write_text('{"a": ')
    (tmp_path / "list.yaml").write_text("- a\n- b\n")
    (tmp_path / "fine.txt").write_text("fine=yes\n")
    facts, problems = external_facts([str(tmp_path)])
    assert facts == {"fine": "yes"}
    assert [p.split(": ", 2)[1].rsplit("/", 1)[1] for p in problems] == ["broken.json", "list.yaml"]


def test_an_external_fact_never_replaces_one_the_set_has() -> None:
    from puppet_ls.server.factsfile import load_context
    ctx, problem = load_context("debian12", modulepath=[str(MODULES)], external=[str(EXTERNAL)])
    assert problem is None and ctx is not None
    assert ctx.facts["kernel"] == "Linux" and ctx.facts["datacenter"] == "ams1"
    assert ctx.facts["site_default"] == "<SERVICE DEFAULT>"


def test_check_with_facts_reads_the_external_facts_given() -> None:
    path = str(MODULES / "sitefacts" / "manifests" / "dc.pp")

    def check(*args: str) -> tuple:
        result = CliRunner().invoke(main, ["check", "--no-cache", "--select", "NODE_FAILS", "--facts", "debian12",
                                           *args, path], catch_exceptions=False)
        return result.exit_code, [ln.replace(str(REPO), "<repo>") for ln in result.output.splitlines()]

    assert check() == (0, ["1 file checked: 0 errors, 0 warnings"])    # the rack is unknown: no finding
    code, lines = check("--external-facts", str(EXTERNAL))
    assert code == 0 and lines[0] == ("<repo>/fixtures/preview/modules/sitefacts/manifests/dc.pp:4:5: warning "
                                      "NODE_FAILS On node.example.com (facts: debian12) the catalog fails here: "
                                      "'rack r12 is being retired'")
    assert len(lines) == 2      # never the Plan9 kernel: debian12's kernel stays


@pytest.mark.parametrize("extra", [(), ("--show-sensitive",)])
def test_sensitive_values_are_redacted_unless_asked_for(extra: tuple) -> None:
    code, out = run("vault", "--modulepath", str(MODULES), *extra)
    assert_expected(EXPECT / f"vault{'_shown' if extra else ''}.txt", f"exit {code}\n{out}")
    code, out = run("vault", "--modulepath", str(MODULES), "--format", "json", *extra)
    by_ref = {r["ref"]: r for r in json.loads(out)["resources"]}
    assert by_ref["Exec[vault-login]"]["sensitive"] == ["environment"]
    assert by_ref["File[/etc/vault.conf]"]["sensitive"] == ["content"]
    assert ("t0ken" in out) == bool(extra) and ("s3cret" in out) == bool(extra)


def test_the_environments_modulepath_is_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a control repository whose environment.conf names its own module folder, as the editor
    # and `check` read it; from the repository, or with a file of it from anywhere
    (tmp_path / "environment.conf").write_text("modulepath = site-modules:$basemodulepath\n")
    manifests = tmp_path / "site-modules" / "app" / "manifests"
    manifests.mkdir(parents=True)
    (manifests / "init.pp").write_text("class app {\n  include app::config\n}\n")
    (manifests / "config.pp").write_text("class app::config {\n  file { '/etc/app.conf': ensure => file }\n}\n")
    monkeypatch.chdir(tmp_path)
    code, out = run("app")
    assert code == 0 and "File[/etc/app.conf]  (in Class[App::Config])" in out
    monkeypatch.chdir(REPO)
    code, out = run(str(manifests / "init.pp"))
    assert code == 0 and "File[/etc/app.conf]  (in Class[App::Config])" in out
    code, out = run("app")
    assert code == 2 and "class app not found" in out
