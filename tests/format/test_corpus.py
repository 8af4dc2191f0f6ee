"""The formatter over the real corpus: a seeded sample of files formats safely (Puppet's dump
form, findings, idempotence), and random ranges of them change nothing outside the range.
The whole corpus, broken mutants and the comparison with puppet-lint are in
benchmarks/format_corpus.py."""
from __future__ import annotations

import random

import pytest

from puppet_ls.language.formatter import apply_edits, check_safe, format_range, format_text
from puppet_ls.language.formatter.safety import dump_problem
from puppet_ls.language.syntax import parse
from tests.corpus import corpus_files

FILES = corpus_files()
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not FILES, reason="corpus not installed (../shared/corpus/corpus.sh)")]
SAMPLE = sorted(random.Random(14).sample(FILES, min(150, len(FILES)))) if FILES else []


def _read(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def test_sample_formats_safely() -> None:
    problems = []
    changed = 0
    for path in SAMPLE:
        text = _read(path)
        result = format_text(text)
        changed += result.changed
        found = check_safe(text, result.text, reformat=lambda t: format_text(t).text)
        if found or result.diagnostics:
            problems.append(f"{path}: {found} {[d.code for d in result.diagnostics]}")
    assert not problems, "\n".join(problems[:20])
    assert changed > len(SAMPLE) // 2      # the sample is not already formatted


def test_random_ranges_change_nothing_outside() -> None:
    rng = random.Random(14)
    problems = []
    for path in SAMPLE:
        text = _read(path)
        for _ in range(3):
            a, b = sorted((rng.randrange(len(text) + 1), rng.randrange(len(text) + 1)))
            edits = format_range(text, a, b)
            out = apply_edits(text, edits)
            if (any(e.start < a or e.end > b for e in edits) or out[:a] != text[:a]
                    or out[len(out) - (len(text) - b):] != text[b:] or dump_problem(parse(text), out)):
                problems.append(f"{path} [{a}, {b})")
    assert not problems, "\n".join(problems[:20])
