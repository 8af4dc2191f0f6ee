"""The real corpus (1,920 valid files): no error diagnostics at all, and every file
round-trips byte for byte."""
from __future__ import annotations

import pytest

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from tests.corpus import corpus_files

FILES = corpus_files()
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not FILES, reason="corpus not installed (../shared/corpus/corpus.sh)")]


def test_corpus_is_complete() -> None:
    assert len(FILES) == 1920


def test_no_errors_and_round_trip() -> None:
    problems = []
    for path in FILES:
        with open(path, "rb") as fh:
            data = fh.read()
        text = data.decode("utf-8")
        result = parse_for_path(text, path)
        if result.green.text().encode("utf-8") != data:
            problems.append(f"{path}: does not round-trip")
        for d in file_diagnostics(result):
            if d.severity == "error":
                problems.append(f"{path}@{d.offset}: {d.code} {d.message}")
    assert not problems, "\n".join(problems[:50])
