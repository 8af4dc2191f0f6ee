"""Every custom fact of the corpus completes (issue 15, acceptance 3): the facts modules add
with `Facter.add(:name)` in lib/facter, found here by a pattern of this test's own (not the
index's reader), are each offered after `$::` and inside `$facts['` once the modules' fact files
are indexed, as the server indexes them."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import completion
from puppet_ls.language.ide.index import WorkspaceIndex, file_role, index_source
from puppet_ls.language.syntax import parse
from tests.corpus import corpus_files

MODULES = Path("/usr/share/puppet/modules")
pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not corpus_files() or not MODULES.is_dir(),
                                 reason="corpus not installed (../shared/corpus/corpus.sh)")]

# Facter.add(:name), Facter.add('name'), Facter.add("name", ...)
FACT_ADD = re.compile(r"""Facter\.add\(\s*(?::(\w+)|'(\w+)'|"(\w+)")""")


def _fact_files() -> list[tuple[Path, str]]:
    """(file, module) of every .rb file under a module's lib/facter."""
    out = []
    for module in sorted(p for p in MODULES.iterdir() if p.is_dir()):
        for f in sorted((module / "lib" / "facter").rglob("*.rb")) if (module / "lib" / "facter").is_dir() else ():
            out.append((f, module.name))
    return out


def test_every_custom_fact_of_the_corpus_completes() -> None:
    index = WorkspaceIndex()
    expected: dict[str, str] = {}
    for path, module in _fact_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in FACT_ADD.finditer(text):
            expected.setdefault(next(g for g in m.groups() if g), str(path))
        rel = path.relative_to(MODULES / module).as_posix()
        role = file_role(rel)
        assert role == "fact", rel
        index.add(index_source(str(path), text, module, role))
    assert len(expected) >= 50, f"only {len(expected)} custom facts found: is the corpus complete?"

    top = "$x = $::"
    in_facts = "$x = $facts['"
    offered_top = {i.label.lstrip("$:") for i in completion.complete(analyze(parse(top), index), len(top))}
    offered_facts = {i.label.strip("'\"") for i in completion.complete(analyze(parse(in_facts), index), len(in_facts))}
    missing_top = sorted(n for n in expected if n not in offered_top)
    missing_facts = sorted(n for n in expected if n not in offered_facts)
    assert not missing_top, [(n, expected[n]) for n in missing_top]
    assert not missing_facts, [(n, expected[n]) for n in missing_facts]
