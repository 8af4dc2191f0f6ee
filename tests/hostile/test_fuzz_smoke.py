"""A few seconds of the fuzzer (benchmarks/fuzz.py) in this process, on the bundled fixture
files with a fixed seed: every stage (parse, validate, check, symbols, hover, completion,
previews, incremental reparse, ...) answers every mutated text without an exception or a
mismatch.  The >= 30-minute run over the corpus, with hangs killed in a child process, is
``python3 benchmarks/fuzz.py --minutes 30`` (figures in benchmarks/README.md).

The harness is checked too: an exception injected into one stage and an incremental reparse
made to differ from the full parse must both come out as findings."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_benchmark

SEED = 10
CASES = 40


fuzz = load_benchmark("fuzz")
FILES = fuzz.fixture_files()


def _findings(tmp_path: Path, cases: int = CASES) -> tuple:
    tot, rec = fuzz.run(FILES, SEED, tmp_path, cases=cases, in_process=True, quiet=True)
    lines = (tmp_path / "findings.jsonl").read_text(encoding="utf-8").splitlines() if rec.total else []
    return tot, rec, lines


def test_fixture_files_are_there() -> None:
    assert len(FILES) >= 10
    assert any(f.endswith(".epp") for f in FILES)


def test_no_findings_on_mutated_fixtures(tmp_path: Path) -> None:
    tot, rec, lines = _findings(tmp_path)
    assert tot.cases == CASES
    assert set(tot.ops) == set(fuzz.STAGES), "every stage ran"
    assert rec.total == 0, lines[:3]


def test_an_exception_in_a_stage_is_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puppet_ls.language.ide import hover

    def broken(*args, **kwargs):
        raise ValueError("injected")
    monkeypatch.setattr(hover, "hover", broken)
    _tot, rec, lines = _findings(tmp_path, cases=2)
    assert rec.total == 2 * fuzz.OFFSETS
    assert '"stage": "hover", "kind": "exception"' in lines[0] and "injected" in lines[0]


def test_an_incremental_mismatch_is_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puppet_ls.language.syntax import incremental

    def stale(old, start, end, new_text, tasks=False):
        return old                      # "forgets" the edit
    monkeypatch.setattr(incremental, "reparse", stale)
    _tot, rec, lines = _findings(tmp_path, cases=3)
    assert rec.total >= 1
    assert any('"stage": "incremental", "kind": "mismatch"' in ln for ln in lines)
