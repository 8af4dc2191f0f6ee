"""Differential test of the built-in resource types against the installed Puppet: every type x
every attribute and metaparameter, 200 bogus attribute names, and sample values; Puppet compiles
each one-resource manifest (and turns it into resources, where values are checked) and its
verdict is compared with ``check`` and the evaluator.  The figures and every difference kept, with
its reason, are in fixtures/knowledge/differential.expect (UPDATE_EXPECT=1 rewrites it); the
targets are asserted on their own so that rewriting the file cannot hide a regression."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.expect import assert_expected
from tests.knowledge import differential as d

EXPECT = Path(__file__).resolve().parents[2] / "fixtures" / "knowledge" / "differential.expect"

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def report() -> str:
    why = d.puppet_available()
    if why is not None:
        pytest.skip(f"the installed Puppet is needed: {why}")
    cases = d.cases()
    ours = [d.puppet_ls_verdicts(c) for c in cases]
    puppet, runs = d.puppet_verdicts(cases, [d.expected_clean(c, o) for c, o in zip(cases, ours)])
    print(f"{len(cases)} cases, {runs} Puppet compiles")
    return d.report(cases, puppet, ours)


def _figure(report: str, label: str) -> int:
    for line in report.splitlines():
        if line.startswith(label):
            return int(line.rsplit(":", 1)[1])
    raise AssertionError(f"no line {label!r} in the report")


def test_no_false_no_such_parameter(report: str) -> None:
    assert _figure(report, "check NO_SUCH_PARAMETER disagreements") == 0, report


def test_evaluator_agrees(report: str) -> None:
    assert _figure(report, "evaluator disagreements") == 0, report


def test_no_unexplained_value_differences(report: str) -> None:
    assert _figure(report, "INVALID_ATTRIBUTE_VALUE where Puppet accepts the value") == 0, report
    assert _figure(report, "values Puppet refuses without a warning from check, unexplained") == 0, report


def test_report(report: str) -> None:
    assert_expected(EXPECT, report)
