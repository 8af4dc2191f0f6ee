"""The catalog differential on fixture classes (issue 16, acceptance 1, kept by CI): the catalog
``puppet-ls preview`` gives each class of fixtures/catalog/modules equals the one the real
Puppet 7 compiles (recorded in fixtures/catalog/expected/, normalised as
benchmarks/catalog_differential.py does), and the recording is still Puppet's (that part needs
``puppet``; UPDATE_EXPECT=1 with Puppet installed records again)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from puppet_ls.server.factsfile import load_context
from tests.expect import UPDATE
from tests.scripts import load_benchmark

REPO = Path(__file__).resolve().parents[1]
MODULES = REPO / "fixtures" / "catalog" / "modules"
# stdlib's and openstacklib's layout with the functions previews re-implement (names only, for
# puppet-ls); Puppet compiles with the real modules
STDLIB_NAMES = REPO / "fixtures" / "catalog" / "stdlib_names"
STDLIB = Path("/usr/share/puppet/modules")
EXPECTED = REPO / "fixtures" / "catalog" / "expected"
FACTS, NODE = "debian12", "web01.example.com"

diff = load_benchmark("catalog_differential")
CLASSES = diff.corpus_classes(sorted(str(p) for p in MODULES.glob("*/manifests/**/*.pp")), [str(MODULES)])


def _context():
    ctx, problem = load_context(FACTS, NODE)
    assert ctx is not None, problem
    return ctx


def _to_json(catalog: dict) -> str:
    def value(v):
        return {"refs": sorted(v)} if isinstance(v, frozenset) else v
    return json.dumps({ref: {"container": r["container"], "params": {k: value(v) for k, v in r["params"].items()}}
                       for ref, r in catalog.items()}, indent=1, ensure_ascii=False) + "\n"


def _from_json(text: str) -> dict:
    def value(v):
        return frozenset(v["refs"]) if isinstance(v, dict) else v
    return {ref: {"container": r["container"], "params": {k: value(v) for k, v in r["params"].items()}}
            for ref, r in json.loads(text).items()}


def _expected_path(cls: str) -> Path:
    return EXPECTED / (cls.replace("::", "__") + ".json")


def test_the_fixture_classes_are_found() -> None:
    assert CLASSES == [
        "difftest", "difftest::base", "difftest::byos", "difftest::chain", "difftest::collected",
        "difftest::contained", "difftest::created", "difftest::derived", "difftest::early", "difftest::late",
        "difftest::lax", "difftest::module_name", "difftest::os::debian", "difftest::service_default", "difftest::site",
        "difftest::staged", "difftest::stdlib", "difftest::templated", "difftest::tuning"]


@pytest.mark.parametrize("cls", CLASSES)
def test_preview_equals_puppets_catalog(cls: str) -> None:
    path = _expected_path(cls)
    assert path.exists(), f"{path} is missing: record it with UPDATE_EXPECT=1 where Puppet is installed"
    puppet = _from_json(path.read_text(encoding="utf-8"))
    ours, error = diff.preview(cls, _context(), [str(MODULES), str(STDLIB_NAMES)])
    assert error is None
    assert diff.compare(puppet, ours) == []


@pytest.mark.skipif(not diff.puppet_available() or not (STDLIB / "stdlib").is_dir(),
                    reason="ruby/puppet or puppetlabs-stdlib (/usr/share/puppet/modules) not installed: the recorded "
                    "catalogs in fixtures/catalog/expected are not checked against the real Puppet")
def test_recorded_catalogs_are_puppets() -> None:
    answers = diff.puppet_catalogs(CLASSES, _context(), [str(MODULES), str(STDLIB)])
    for cls in CLASSES:
        answer = answers.get(cls)
        assert answer is not None and answer["ok"], answer
        actual = _to_json(diff.normalise(answer["resources"]))
        path = _expected_path(cls)
        if UPDATE:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8")
            continue
        assert path.read_text(encoding="utf-8") == actual, f"Puppet's catalog of {cls} is no longer {path}"
