#!/usr/bin/env python3
"""Hover and completion latency at many positions of the 1,700-line sample, and the completion
of every class of a 93-module workspace (issue 13, acceptance 4), as an editor sees them, with
the shared driver's LSP client (../shared/bench/lsp_drive.py, imported, not copied) over stdio.

    python3 benchmarks/request_latency.py [--requests 300] [--seed 4] [--modules /usr/share/puppet/modules]
                                          [--server CMD]

The workspace is a temporary control repository (``environment.conf``: ``modulepath = modules``;
``modules`` a link to the corpus modules folder) whose ``manifests/large.pp`` is the shared
sample ``samples/large.pp`` (1,703 lines).  The server is started, the sample opened, and the
run waits for the end of indexing (``$/progress``) and the sample's diagnostics.  Then, one
request at a time, each timed from send to answer:
  hover        at --requests seeded random positions inside words of the sample;
  completion   at --requests seeded random positions just after a word character (as when
               typing);
  class list   completion after ``include `` on a line added at the end of the sample
               (didChange; timed once that edit's diagnostics are published), every class of
               the workspace, 20 times.
The first 5 requests of each kind are a warm-up and are not counted.  Prints median, p99 and
max, the number of class items, and the targets (hover and completion p99 <= 20 ms, class
list <= 30 ms); exit status 1 when one is missed.  Wall clock on a shared machine: compare
figures of one run, and rerun when the load is high.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _lsp import DRIVER, REPO, SHARED, control_repo, initialize, load_driver, wait_for_index

SAMPLE = SHARED / "bench" / "samples" / "large.pp"
TARGETS = {"hover p99": 20.0, "completion p99": 20.0, "class list p99": 30.0}
WARM_UP = 5
TIMEOUT = 60.0


def percentile(xs: list, q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def positions(text: str, count: int, rng: random.Random, after: bool) -> list:
    """(line, character) of ``count`` random places inside words (``after``: just after a
    word character, where a completion is asked while typing)."""
    lines = text.split("\n")
    spots = []
    for n, line in enumerate(lines):
        for m in re.finditer(r"[A-Za-z_$:][\w:]*", line):
            lo, hi = (m.start() + 1, m.end()) if after else (m.start(), m.end() - 1)
            if hi >= lo:
                spots.append((n, lo, hi))
    out = []
    for n, lo, hi in rng.sample(spots, min(count, len(spots))):
        out.append((n, rng.randint(lo, hi)))
    return out


def timed_requests(c, method: str, uri: str, where: list) -> tuple[list, list]:
    """Each request's wall time (ms) and answer."""
    times, answers = [], []
    for line, col in where:
        dt, msg = c.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}},
                            TIMEOUT)
        if msg is None or "error" in msg:
            raise SystemExit(f"{method} failed at {line + 1}:{col + 1}: {msg}")
        times.append(dt)
        answers.append(msg.get("result"))
    return times, answers


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--modules", default="/usr/share/puppet/modules")
    ap.add_argument("--server", default=f"{sys.executable} -m puppet_ls.server.cli --stdio")
    a = ap.parse_args()
    modules = Path(a.modules)
    if not modules.is_dir() or not any(modules.iterdir()):
        print(f"the corpus modules are missing ({modules}): nothing to measure")
        return 0
    if not DRIVER.exists() or not SAMPLE.exists():
        print(f"the shared driver or sample is missing ({DRIVER}, {SAMPLE})")
        return 2
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "language"), str(REPO / "server")],
                   check=False, capture_output=True)
    drv = load_driver()
    rng = random.Random(a.seed)
    root = control_repo(modules, "puppet-ls-latency-")
    cache = Path(tempfile.mkdtemp(prefix="puppet-ls-latency-cache-"))
    (root / "manifests").mkdir()
    path = root / "manifests" / "large.pp"
    shutil.copy(SAMPLE, path)
    text = path.read_text()
    uri = path.as_uri()
    c = drv.LspClient(shlex.split(a.server), None, dict(os.environ, PUPPET_LS_CACHE_DIR=str(cache)), None)
    rows: dict = {}
    try:
        initialize(c, root, {"hover": {"contentFormat": ["markdown", "plaintext"]},
                             # what VS Code says of its completion items
                             "completion": {"completionItem": {
                                 "snippetSupport": True, "documentationFormat": ["markdown", "plaintext"],
                                 "resolveSupport": {"properties": ["documentation", "detail", "additionalTextEdits"]}},
                                 "completionList": {"itemDefaults": [
                                     "commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"]}}},
                   TIMEOUT)
        c.notify("initialized", {})
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "puppet", "version": 1,
                                                           "text": text}})
        _, m = wait_for_index(c, TIMEOUT)
        index_message = m["params"]["value"].get("message", "")
        time.sleep(1.0)     # the diagnostics the index completion starts

        hover_at = positions(text, a.requests + WARM_UP, rng, after=False)
        times, answers = timed_requests(c, "textDocument/hover", uri, hover_at)
        rows["hover"] = times[WARM_UP:]
        with_content = sum(1 for x in answers[WARM_UP:] if x)

        complete_at = positions(text, a.requests + WARM_UP, rng, after=True)
        times, answers = timed_requests(c, "textDocument/completion", uri, complete_at)
        rows["completion"] = times[WARM_UP:]
        with_items = sum(1 for x in answers[WARM_UP:] if drv.completion_items({"result": x}))

        lines = text.split("\n")
        extra = "include "
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": len(lines) - 1, "character": len(lines[-1])},
                       "end": {"line": len(lines) - 1, "character": len(lines[-1])}},
             "text": "\n" + extra}]})
        # (the edit's diagnostics first: a request that meets them waits for the analysis of the
        # whole file, which is the diagnostics' cost, not the completion's)
        c.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                   and m["params"].get("version") == 2, TIMEOUT)
        where = [(len(lines), len(extra))] * (20 + WARM_UP)
        times, answers = timed_requests(c, "textDocument/completion", uri, where)
        rows["class list"] = times[WARM_UP:]
        classes = len(drv.completion_items({"result": answers[-1]}))
        c.request("shutdown", None, 10)
        c.notify("exit", None)
        c.proc.wait(timeout=10)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)

    print(f"server: {a.server}   sample: {SAMPLE.name} ({len(text.splitlines())} lines)   index: {index_message}")
    print(f"{'request':<12}{'n':>5}{'median':>10}{'p99':>10}{'max':>10}")
    ok = True
    for name, xs in rows.items():
        p99 = percentile(xs, 0.99)
        print(f"{name:<12}{len(xs):>5}{statistics.median(xs):>10.2f}{p99:>10.2f}{max(xs):>10.2f}")
        target = TARGETS[f"{name} p99"]
        if p99 > target:
            print(f"  MISSED {name} p99: {p99:.1f} ms (target <= {target:.0f} ms)")
            ok = False
    print(f"hovers with content: {with_content}/{len(rows['hover'])}; completions with items: "
          f"{with_items}/{len(rows['completion'])}; class list: {classes} items")
    print("all targets met" if ok else "some targets were missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
