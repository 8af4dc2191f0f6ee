"""Every function of the evaluator's library has signatures the checker can read: the checker
no longer turns a library it cannot read into unchecked calls, so a function whose signature
fails to build must fail here rather than in a user's file."""
from __future__ import annotations

import pytest

from puppet_ls.language.check.signatures import builtin_function_names, builtin_signatures

NAMES = builtin_function_names()


def test_the_library_has_functions() -> None:
    assert len(NAMES) > 50


@pytest.mark.parametrize("name", NAMES)
def test_builtin_signatures_build(name: str) -> None:
    sigs = builtin_signatures(name)
    assert sigs, f"{name}: no signature"
    for s in sigs:
        assert s.label().startswith(f"{name}(")
