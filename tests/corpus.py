"""The test inputs that live outside the clone — ../shared (conformance cases, the Puppet oracle),
the real-world corpus and the real Puppet — found in one place, and the one summary line per
missing input that the test run prints (tests/conftest.py), so a run without them says what it
did not test instead of collecting fewer tests silently."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PUPPET_LS_SHARED", REPO.parent / "shared"))
LIST = SHARED / "corpus" / "corpus_files.txt"
CONFORMANCE = SHARED / "conformance"
ORACLE_DIR = Path(os.environ.get("PUPPET_ORACLE_DIR", SHARED / "oracle"))


def corpus_files() -> list[str]:
    """The corpus file list written by corpus.sh (PUPPET_LS_CORPUS_LIST overrides where it
    is); empty when the corpus is not installed."""
    listing = Path(os.environ.get("PUPPET_LS_CORPUS_LIST", LIST))
    if not listing.exists():
        return []
    files = [line.strip() for line in listing.read_text().splitlines() if line.strip()]
    return [f for f in files if os.path.exists(f)]


def conformance_present() -> bool:
    return (CONFORMANCE / "cases.jsonl").exists()


def puppet_present() -> bool:
    return shutil.which("puppet") is not None and (ORACLE_DIR / "oracle.py").exists()


def puppet_lint_present() -> bool:
    return shutil.which("puppet-lint") is not None


def _count_lines(path: Path) -> int:
    try:
        return sum(1 for line in path.read_text().splitlines() if line.strip())
    except OSError:
        return 0


def missing_inputs() -> list[str]:
    """One line per absent outside input, naming what did not run."""
    out = []
    if not conformance_present():
        # The counts are those the suites pin when the cases are present
        # (tests/conformance/test_syntax_conformance.py and fixtures/eval/conformance_expected.txt).
        syntax = 228 + 8 + 335 + 13
        evaluated = _count_lines(REPO / "fixtures" / "eval" / "conformance_expected.txt")
        out.append(f"conformance: {syntax + evaluated:,} cases skipped ({syntax} lex/parse/validate, "
                   f"{evaluated:,} eval/compile) — {CONFORMANCE} not present")
    if not corpus_files():
        out.append("corpus: the real-world corpus tests skipped — the corpus is not installed "
                   "(bash ../shared/corpus/corpus.sh)")
    if not puppet_present():
        out.append("puppet: the differential tests against the real Puppet skipped — "
                   + ("puppet is not installed (apt-get install puppet-agent)" if shutil.which("puppet") is None
                      else f"the oracle ({ORACLE_DIR}) is not present"))
    if not puppet_lint_present():
        out.append("puppet-lint: the agreement of the lint fixtures with puppet-lint skipped — "
                   "puppet-lint is not installed (apt-get install puppet-lint)")
    return out
