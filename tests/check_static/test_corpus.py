"""The real-world corpus (1,920 files Puppet accepts) checked against its own modulepath, as
``puppet-ls check --modulepath /usr/share/puppet/modules`` does: the static checks must report
no error at all (anything they are unsure of is at most a warning)."""
from __future__ import annotations

import os
from collections import Counter

import pytest

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.server.workspace import build_index
from tests.corpus import corpus_files

MODULEPATH = "/usr/share/puppet/modules"
FILES = corpus_files()

pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not FILES or not os.path.isdir(MODULEPATH), reason="corpus not installed")]


def test_no_errors_on_the_corpus_with_its_modulepath() -> None:
    env = build_index([], [MODULEPATH])
    errors = []
    warnings: Counter = Counter()
    for path in FILES:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for d in file_diagnostics(parse_for_path(text, path), env):
            if d.severity == "error":
                errors.append(f"{path}@{d.offset}: {d.code} {d.message}")
            else:
                warnings[d.code] += 1
    assert errors == []
    # the warnings are counted (and were checked by hand, see docs/server.md); a jump in one
    # kind means a check became less sure of itself
    assert sum(warnings.values()) < 600, warnings
