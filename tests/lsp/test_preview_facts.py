"""Data-driven tests of previews evaluated with a preview context (issue 16): each
fixtures/preview/*.pp names on its first line the fact sets it is previewed with
(``# facts: debian12 rhel9``, optionally ``node: NAME``, ``file: FACTS_FILE``, ``modules: DIR``
— where other classes are found — or ``hiera: DIR`` — an environment whose ``hiera.yaml`` and
``modules/`` give class parameters their values by automatic lookup — beside it; a module's
manifest under such an environment is a case too) and
marks hover positions with ‸; the .expect file holds, per fact set, the inlay-hint previews, the
``fail()`` calls the node reaches (``check --facts``), the branches not taken and the hover values.  Regenerate with UPDATE_EXPECT=1."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import hover, preview
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.knowledge.factsets import fact_set
from puppet_ls.server.catalog_preview import manifest_of
from puppet_ls.server.factsfile import class_resolver, load_context, parameter_resolver
from puppet_ls.server.workspace import hiera_for_environment
from tests.expect import assert_expected

from .conftest import marked_analysis

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "preview"
CASES = sorted(FIXTURES.glob("*.pp")) + sorted(FIXTURES.glob("hiera*/modules/*/manifests/*.pp"))


def _contexts(first_line: str) -> list:
    sets = re.search(r"facts:\s*([\w ]+?)\s*(?:node:|file:|modules:|hiera:|$)", first_line)
    node = re.search(r"node:\s*(\S+)", first_line)
    facts_file = re.search(r"file:\s*(\S+)", first_line)
    modules = re.search(r"modules:\s*(\S+)", first_line)
    env = re.search(r"hiera:\s*(\S+)", first_line)
    out = []
    for name in (sets.group(1).split() if sets else []):
        if name == "none":
            out.append(("none", None))
            continue
        facts = fact_set(name)
        assert facts is not None, f"no built-in fact set {name}"
        ctx = preview.make_context(facts, node.group(1) if node else None, name, rename=True)
        if modules:
            mp = [str(FIXTURES / modules.group(1))]
            ctx.classes = class_resolver(lambda cls, mp=mp: manifest_of(cls, mp))
        if env:
            root = FIXTURES / env.group(1)
            hiera = hiera_for_environment(str(root), [str(root / "modules")])
            ctx.parameters = parameter_resolver(lambda hiera=hiera: hiera, ctx)
        out.append((name, ctx))
    if facts_file:
        ctx, problem = load_context(facts_file.group(1), node.group(1) if node else "", str(FIXTURES))
        out.append((facts_file.group(1), ctx if ctx is not None else problem))
    return out


def check(path: Path) -> str:
    text, cursors, an, pos = marked_analysis(path)

    out = []
    for name, ctx in _contexts(text.splitlines()[0]):
        out.append(f"== {name}")
        if isinstance(ctx, str):
            out.append(f"problem: {ctx}")
            continue
        budget = preview.PreviewBudget(steps=200_000, seconds=2.0, total_seconds=60.0, context=ctx)
        for p in preview.previews(an, 0, len(text), budget):
            out.append(f"{pos(p.offset)} {p.label}")
        for d in preview.node_findings(an, budget):
            out.append(f"{d.code} {pos(d.offset)}-{pos(d.end)}: {d.message}")
        for b in preview.branches(an, 0, len(text), budget):
            out.append(f"branch {pos(b.offset)} taken {b.taken}: not taken "
                       + ", ".join(f"{pos(s)}-{pos(e)}" for s, e in b.unreached))
        for off in cursors:
            h = hover.hover(an, off, budget)
            values = [ln for ln in (h.markdown.splitlines() if h else []) if ln.startswith(("Value", "Effective"))]
            out.append(f"hover {pos(off)}: " + (" | ".join(values) or "-"))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_preview_with_facts(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), check(path))


def test_hiera_cases_exist() -> None:
    assert sum(1 for p in CASES if "hiera" in p.parts[-5]) >= 2


def test_cases_exist() -> None:
    assert len(CASES) >= 3


def test_an_unknown_fact_set_is_a_problem_not_a_guess() -> None:
    ctx, problem = load_context("nosuchset")
    assert ctx is None and problem is not None and "debian12" in problem


def test_evaluate_selection_reads_other_classes_as_previews_do() -> None:
    # "evaluate selection" knows what inlay hints know: a params class's variable, and says
    # which variable is not known when one is not
    path = FIXTURES / "other_classes.pp"
    text = path.read_text(encoding="utf-8")
    an = analyze(parse_for_path(text, str(path)))
    ctx = _contexts(text.splitlines()[0])[0][1]
    budget = preview.PreviewBudget(steps=200_000, seconds=2.0, total_seconds=10.0, context=ctx)
    start = text.index("$demo::params::package")
    p = preview.evaluate_range(an, start, start + len("$demo::params::package"), budget)
    assert (p.ok, p.value) == (True, "'nginx-full'")
    start = text.index("$other::thing")
    p = preview.evaluate_range(an, start, start + len("$other::thing"), budget)
    assert not p.ok and "$other::thing" in p.error
