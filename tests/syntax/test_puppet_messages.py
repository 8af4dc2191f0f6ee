"""Puppet's own messages, statement by statement: each statement of the fixtures below (up to
a line ending in ';'), followed by one more statement so that a value it leaves is "not last",
is parsed by the real Puppet 7 (../shared/oracle) and by puppet-ls: the first error is the
same message at the same line and column, or neither reports one.  The fixtures hold what
Puppet calls expressions in its messages (syntax/labels.py), the resource bodies after a
statement (validate.bodies_after_statements), and the places of keywords and parameter names
in Puppet's grammar."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from benchmarks.syntax_differential import ours, puppets
from tests.corpus import ORACLE_DIR

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "syntax"
CASES = ["puppet_labels.pp", "resource_after_statement.pp", "puppet_grammar.pp"]
AFTER = "\n$after = 1\n"

pytestmark = pytest.mark.oracle


def statements(path: Path) -> list[str]:
    """The fixture's statements: runs of lines up to one ending in ';' (comments left out)."""
    out: list[str] = []
    pending: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pending.append(line)
        if line.endswith(";"):
            out.append("\n".join(pending))
            pending = []
    if pending:
        out.append("\n".join(pending))
    return out


@pytest.fixture(scope="module")
def oracle():
    if not shutil.which("ruby") or not shutil.which("puppet") or not ORACLE_DIR.is_dir():
        pytest.skip("puppet (the oracle) is not installed")
    sys.path.insert(0, str(ORACLE_DIR))
    try:
        from oracle import PuppetOracle
        o = PuppetOracle()
    except Exception as exc:  # noqa: BLE001 - whatever stops the oracle starting, the test skips and says why
        pytest.skip(f"oracle does not start: {exc}")
    with o:
        yield o


@pytest.mark.parametrize("name", CASES)
def test_first_error_as_puppet_reports_it(oracle, name: str) -> None:
    differ = []
    for statement in statements(FIXTURES / name):
        text = statement + AFTER
        mine, theirs = ours(text), puppets(oracle, text)
        if mine != theirs:
            differ.append(f"{statement!r}: puppet-ls {mine}, Puppet {theirs}")
    assert not differ, "\n".join(differ)
