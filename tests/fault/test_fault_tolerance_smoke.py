"""Fast smoke check of puppet-ls on broken corpus code: 30 seeded mutants (drop a brace, arrow,
comma or quote; truncate; insert junk) built by benchmarks/fault_tolerance.py, asserting the
invariants the full benchmark measures: nothing raises, every mutant Puppet rejects gets an
error, and the definitions the damage leaves alone stay in the outline.

The full measurement (960 mutants, percentages, Puppet's own figures) is
``python3 benchmarks/fault_tolerance.py``; this test only guards against regressions.
"""
from __future__ import annotations

import random
import sys

import pytest

from tests.scripts import load_benchmark

SEED = 20240607
PER_KIND = {"file": 3, "bundle": 2}   # 6 kinds x 5 = 30 mutants


ft = load_benchmark("fault_tolerance")
_corpus = sys.modules["_corpus"]
PATHS = _corpus.corpus_files()

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not PATHS, reason="corpus not installed (../shared/corpus/corpus.sh)"),
]


def _mutants():
    """30 mutants, the same on every run.  Originals with puppet-ls errors are skipped (an error
    that was already there would make 'got an error' meaningless); Puppet's verdict is not
    consulted here, so the set does not depend on whether puppet-agent is installed."""
    order = sorted(PATHS)
    cache: dict = {}

    def read(p):
        if p not in cache:
            cache[p] = _corpus.read_texts([p])[0]
        return cache[p]

    out = []
    for population, n in PER_KIND.items():
        for kind in ft.KINDS:
            rng = random.Random(f"{SEED}:smoke:{population}:{kind}")
            got = 0
            while got < n:
                label, text = ft._source(population, order, rng, read)
                if ft.parse(text).errors:
                    continue
                m = ft.mutate(kind, label, text, rng)
                if m is None:
                    continue
                m.population = population
                out.append(m)
                got += 1
    return out


@pytest.fixture(scope="module")
def outcomes():
    if not PATHS:
        pytest.skip("corpus not installed")
    return [ft.evaluate(m) for m in _mutants()]


def _ids(bad):
    return "\n\n".join(ft.describe(o) for o in bad)


def test_sample_is_spread_over_kinds(outcomes):
    assert len(outcomes) == 30
    assert {o.mutant.kind for o in outcomes} == set(ft.KINDS)
    # the bundles are there so that the definitions check has something to check
    assert sum(o.checked_defs for o in outcomes) >= 10


def test_nothing_raises(outcomes):
    bad = [o for o in outcomes if o.exceptions]
    assert not bad, _ids(bad)


def test_definitions_outside_the_damage_are_kept(outcomes):
    bad = [o for o in outcomes if o.mutant.kind != "quote" and not o.defs_kept]
    assert not bad, _ids(bad)


def test_definitions_outside_a_dropped_quote_are_kept(outcomes):
    bad = [o for o in outcomes if o.mutant.kind == "quote" and not o.defs_kept]
    assert not bad, _ids(bad)


def test_dropped_brace_always_reported(outcomes):
    # Dropping a real '{' or '}' token always unbalances the file, so Puppet rejects it: this
    # part needs no oracle.
    bad = [o for o in outcomes if o.mutant.kind == "brace" and not o.got_error]
    assert not bad, _ids(bad)


@pytest.mark.oracle
def test_every_mutant_puppet_rejects_gets_an_error(outcomes):
    oracle = ft.open_oracle()
    if oracle is None:
        pytest.skip("the Puppet oracle needs puppet-agent")
    try:
        rejected = [o for o in outcomes if ft.puppet_verdict(oracle, o.mutant.text)[0] == "rejects"]
    finally:
        oracle.close()
    assert len(rejected) >= 20   # most mutants are real damage; if not, the generator broke
    bad = [o for o in rejected if not o.got_error]
    assert not bad, _ids(bad)
