"""The evaluator survives hostile input: every case of fixtures/hostile/eval_cases.jsonl ends
with its expected verdict and issue code, quickly, inside one ``puppet-ls eval --jsonl`` batch.

Each case is a line of the batch (a request, or a raw line for the protocol's own failures),
so the batch itself is under test too: a bad line must answer for itself and the lines after
it must still be answered.  The cases were written by hand (program, verdict, code); the full
answers are kept in eval_cases.expected.jsonl (``UPDATE_EXPECT=1`` rewrites it).  A hang
fails the case instead of the whole run: answers are read with a deadline and the batch
process is killed when one does not come.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.expect import assert_expected

ROOT = Path(__file__).resolve().parents[2]
CASES_FILE = ROOT / "fixtures" / "hostile" / "eval_cases.jsonl"
EXPECTED_FILE = ROOT / "fixtures" / "hostile" / "eval_cases.expected.jsonl"
# Generous: a case that hangs never answers; a healthy one takes at most its timeout (1-2 s)
# plus start-up.  Counted in CPU seconds of the batch process where /proc tells them, so that
# other work on a loaded machine does not count (wall time once failed a case at load 6).
MAX_SECONDS = 10.0
# How long the batch may stay silent before it is declared hung and killed.
HANG_SECONDS = 30.0

CASES = [json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines()
         if line.strip()]


def _input_line(case: dict) -> bytes:
    if "raw_hex" in case:
        return bytes.fromhex(case["raw_hex"])
    if "raw" in case:
        return case["raw"].encode("utf-8")
    req = {"id": case["id"], "src": case["src"]}
    for field in ("timeout", "max_steps"):
        if field in case:
            req[field] = case[field]
    # surrogates travel as JSON escapes, as a client would send them
    return json.dumps(req, ensure_ascii=True).encode("ascii")


def _cpu_seconds(pid: int) -> float | None:
    """User and system CPU time process ``pid`` has used (None where /proc does not tell)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _run_batch() -> list:
    """(answer or None, seconds) per case, in order: the batch process's CPU seconds, or wall
    seconds where its CPU time cannot be read."""
    proc = subprocess.Popen([sys.executable, "-m", "puppet_ls.server.cli", "eval", "--jsonl"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=ROOT,
                            env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    cpu = [_cpu_seconds(proc.pid)]

    def clock() -> float:
        if cpu[0] is None:
            return time.monotonic()
        cpu[0] = _cpu_seconds(proc.pid) or cpu[0]   # an exited process keeps its last figure
        return cpu[0]

    answers: queue.Queue = queue.Queue()

    def feed() -> None:
        assert proc.stdin is not None
        for case in CASES:
            proc.stdin.write(_input_line(case) + b"\n")
        proc.stdin.close()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            answers.put((clock(), line))
        answers.put((clock(), None))

    threading.Thread(target=feed, daemon=True).start()
    threading.Thread(target=read, daemon=True).start()
    out = []
    last = clock()
    try:
        for _ in CASES:
            try:
                when, line = answers.get(timeout=HANG_SECONDS)
            except queue.Empty:
                break
            if line is None:
                break
            try:
                # strictly UTF-8: an answer the client cannot decode is a failure of its own
                answer = json.loads(line.decode("utf-8"))
            except ValueError as exc:
                answer = {"undecodable": f"{exc}: {line[:200]!r}"}
            out.append((answer, when - last))
            last = when
    finally:
        proc.kill()
        proc.wait()
    return out + [(None, None)] * (len(CASES) - len(out))


@pytest.fixture(scope="module")
def batch() -> dict:
    results = _run_batch()
    by_id = {case["id"]: r for case, r in zip(CASES, results)}
    lines = []
    for case, (answer, _) in zip(CASES, results):
        lines.append(json.dumps({"id": case["id"], "answer": _stable(answer)}, ensure_ascii=True,
                                sort_keys=True))
    by_id["__expected_text__"] = "\n".join(lines) + "\n"
    return by_id


def _stable(answer: dict | None) -> dict | None:
    """The parts of an answer that do not depend on the machine (no timings)."""
    if answer is None:
        return None
    keep = {k: answer[k] for k in ("ok", "str", "type") if k in answer}
    if not answer.get("ok"):
        err = answer.get("error") or {}
        keep["error"] = {k: err.get(k) for k in ("message", "issue_code", "line", "pos")}
    return keep


def test_case_file_is_well_formed():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    classes = {c["class"] for c in CASES}
    assert {"regexp", "size", "numbers", "format", "ranges", "cli"} <= classes
    for c in CASES:
        assert c["verdict"] in ("ok", "error"), c["id"]
        assert ("src" in c) != ("raw" in c or "raw_hex" in c), c["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_hostile_case(batch, case):
    answer, seconds = batch[case["id"]]
    assert answer is not None, f"no answer: the batch hung or died at {case['id']}"
    assert "undecodable" not in answer, answer["undecodable"]
    assert seconds < MAX_SECONDS, f"{case['id']} took {seconds:.1f} s (CPU where /proc tells it)"
    if "src" in case:
        assert answer.get("id") == case["id"], "answers must stay in step with the requests"
    if case["verdict"] == "ok":
        assert answer["ok"] is True, answer
    else:
        assert answer["ok"] is False, answer
        assert answer["error"]["issue_code"] == case["code"], answer["error"]


def test_answers_match_expected(batch):
    assert_expected(EXPECTED_FILE, batch["__expected_text__"])
