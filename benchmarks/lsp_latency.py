#!/usr/bin/env python3
"""Latency of the language server as an editor sees it, measured with the shared driver
(../shared/bench/lsp_drive.py) over stdio, against the targets of the language-server issue.

    python3 benchmarks/lsp_latency.py [--runs 3] [--repeat 30] [--server 'puppet-ls --stdio'] [--from-source]

For samples/basic.pp (43 lines) and samples/large.pp (1,703 lines) it runs the driver --runs
times (a fresh server each time) and prints the median over runs of:
  spawn -> first useful hover   (process start to the answer of the first hover, which is sent
                                 right after the first diagnostics; the hover must have content)
  hover / completion medians    (warm, --repeat requests each)
  didChange -> diagnostics      (an edit appended to the file, to the diagnostics of that version)
then checks that samples/eof.pp and fixtures/lsp/three_errors.pp get the right diagnostics.
By default the package's bytecode is compiled first (``compileall``, into the usual
__pycache__ folders, which git ignores), as ``pip install`` does: this machine sets
PYTHONDONTWRITEBYTECODE, which would otherwise make every server start compile the whole
package from source (--from-source measures that case).
Exit status 1 when a target is missed or a diagnostic check fails.  Timings are wall clock on
a shared machine: compare figures of one run, and rerun when the load is high.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PUPPET_LS_SHARED", REPO.parent / "shared"))
DRIVER = SHARED / "bench" / "lsp_drive.py"
SAMPLES = SHARED / "bench" / "samples"

TARGETS = {
    # name: (file, hover spec, completion spec, spawn->hover ms, hover/completion median ms, edit ms)
    "basic": ("basic.pp", "package { 'nginx'@+2", "    ensure => present,", 1500, 10, None),
    "large": ("large.pp", "package { 'pkg5'@+2", "    ensure => installed,", 1500, 25, 150),
}
EDIT = "\n$appended = [1, 2, 3].map |$x| { $x * 2 }\n"


ENV: list = []      # KEY=VALUE for the server's environment


def drive(server: list, path: Path, hover: str | None, completion: str | None, repeat: int,
          edit: str | None) -> dict:
    cmd = [sys.executable, str(DRIVER), "--file", str(path), "--repeat", str(repeat)]
    for kv in ENV:
        cmd += ["--env", kv]
    if hover:
        cmd += ["--hover", hover]
    if completion:
        cmd += ["--completion", completion]
    if edit is not None:
        cmd += ["--edit-append", edit]
    out = subprocess.run(cmd + ["--"] + server, capture_output=True, text=True, check=False, timeout=300)
    if out.returncode != 0:
        raise SystemExit(f"lsp_drive failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout)


def median(xs: list):
    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs), 1) if xs else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--server", default=f"{sys.executable} -m puppet_ls.server.cli --stdio")
    ap.add_argument("--from-source", action="store_true", help="do not precompile the package's bytecode")
    a = ap.parse_args()
    server = shlex.split(a.server)
    if a.from_source:
        for folder in ("language", "server"):
            for cache in (REPO / folder).rglob("__pycache__"):
                shutil.rmtree(cache, ignore_errors=True)
    else:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "language"), str(REPO / "server")],
                       check=False, capture_output=True)
    if not DRIVER.exists():
        print(f"the driver is missing: {DRIVER}")
        return 2
    ok = True
    print(f"server: {a.server}   runs: {a.runs}   warm repeats: {a.repeat}   "
          f"bytecode: {'none (compiled from source at every start)' if a.from_source else 'precompiled'}")
    print(f"{'file':<10}{'lines':>6}{'spawn->hover':>14}{'hover':>9}{'compl.':>9}{'edit->diag':>12}   hover text")
    for name, (fname, hover, completion, t_spawn, t_req, t_edit) in TARGETS.items():
        runs = [drive(server, SAMPLES / fname, hover, completion, a.repeat, EDIT) for _ in range(a.runs)]
        spawn_hover = median([r["steps"]["spawn_to_first_diagnostics_ms"] + (r["steps"]["hover_cold_ms"] or 0)
                              for r in runs if r.get("hover_cold")])
        hov = median([r["steps"]["hover_warm"].get("median_ms") for r in runs])
        comp = median([r["steps"]["completion_warm"].get("median_ms") for r in runs])
        edit = median([r["steps"].get("didChange_to_diagnostics_ms") for r in runs])
        useful = all(r.get("hover_cold") and r.get("completion_cold_items") for r in runs)
        left = [p for r in runs for p in r.get("leftover_processes", [])]
        print(f"{name:<10}{runs[0]['lines']:>6}{spawn_hover!s:>14}{hov!s:>9}{comp!s:>9}{edit!s:>12}   "
              f"{(runs[0].get('hover_cold') or '').splitlines()[0][:40]!r}")
        checks = [("spawn->first useful hover", spawn_hover, t_spawn), ("hover median", hov, t_req),
                  ("completion median", comp, t_req)]
        if t_edit is not None:
            checks.append(("didChange->diagnostics", edit, t_edit))
        for what, value, target in checks:
            if value is None or value >= target:
                print(f"  MISSED {what}: {value} ms (target < {target} ms)")
                ok = False
        if not useful:
            print("  MISSED: the first hover or completion was empty")
            ok = False
        if left:
            print(f"  processes left behind: {left}")
            ok = False
        loads = {r.get("loadavg_at_end", ["?"])[0] for r in runs}
        print(f"  (load average during the runs: {', '.join(sorted(loads))}; server RSS "
              f"{runs[-1].get('server_memory_kb', {}).get('VmHWM', '?')} kB)")

    # Diagnostics the Ruby peer gets wrong: an unfinished file, and three independent errors.
    for path, want_lines, want_codes in (
            (SAMPLES / "eof.pp", {3, 4}, {"MISSING_RBRACE", "SYNTAX_ERROR"}),
            (REPO / "fixtures" / "lsp" / "three_errors.pp", {3, 8, 13}, {"SYNTAX_ERROR"})):
        r = drive(server, path, None, None, 1, None)
        diags = r.get("diagnostics")
        if not isinstance(diags, list):
            print(f"{path.name}: no diagnostics ({diags})")
            ok = False
            continue
        errors = [d for d in diags if d["severity"] == 1]
        lines = {d["line"] for d in errors}
        codes = {d["code"] for d in errors}
        good = want_lines <= lines and want_codes <= codes
        ok = ok and good
        print(f"{path.name}: {'ok' if good else 'WRONG'}: " +
              "; ".join(f"{d['line'] + 1}:{d['col'] + 1} {d['code']}" for d in errors))
    print("all targets met" if ok else "some targets were missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
