#!/usr/bin/env python3
"""Start-up of the language server on a large workspace (issue 13, acceptance 2), measured as an
editor sees it, with the shared driver's LSP client (../shared/bench/lsp_drive.py) over stdio.

    python3 benchmarks/server_startup.py [--runs 3] [--modules /usr/share/puppet/modules]
                                         [--file ntp/manifests/init.pp] [--server CMD] [--from-source]

The workspace is a temporary control repository: ``environment.conf`` says
``modulepath = modules`` and ``modules`` is a symbolic link to the corpus modules folder (93
module folders on the corpus machine), the layout of a real control repository whose modules
were installed by r10k.  One corpus file is opened (through the workspace path) and hovered
right away, on a class of its own module (``contain ntp::install``), so the answer needs the
open document's module in the index.

Each run starts a fresh server and measures, wall clock from spawn:
  initialize      the answer to ``initialize``
  first hover     the first hover answered with the class's signature from the index (re-asked
                  every 20 ms until then)
  index complete  the ``$/progress`` end of the indexing (the client offers workDoneProgress)
  CPU             the server's CPU time until then, and its finished children's (the
                  processes that parse files for the index, counted once they have stored
                  their entries in the cache and ended, which they do after the index is
                  complete): on a loaded machine the CPU times say more than the wall clock
  RSS             of the server process after indexing (``VmRSS``, and the evaluation
                  worker's beside it), from /proc
twice: cold (an empty cache folder, ``PUPPET_LS_CACHE_DIR``) and warm (the cache a previous run
left). Medians over --runs. In the same run it times, as the floor, a bare interpreter start and
``import lsprotocol.types``.  The package's bytecode is compiled first as ``pip install`` does
(this machine sets PYTHONDONTWRITEBYTECODE); --from-source skips that.  Likewise the code the
server keeps between starts (server/code_cache.py) is made by one start before the runs, in a
folder of its own; --no-code-cache starts every server without it.
Exit status 1 when a target is missed.  Timings are wall clock on a shared machine: compare
figures of one run, and rerun when the load is high.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _lsp import DRIVER, REPO, control_repo, initialize, load_driver, wait_for_index

# name: target in ms (MB for RSS)
TARGETS = {"first hover": 400.0, "index complete cold": 2000.0, "index complete warm": 500.0,
           "RSS after indexing": 250.0}
HOVER_AT = "contain ntp::install@+12"
HOVER_WANT = "class ntp::install"   # the class's signature, from the index (not just "Value: 'ntp::install'")


def children(pid: int) -> list:
    """(/proc folder, state letter) of each child process of ``pid``."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                out.append((d, fields[0]))
        except (OSError, IndexError, ValueError):
            pass
    return out


def children_rss_kb(pid: int) -> int:
    total = 0
    for d, _ in children(pid):
        try:
            for line in (d / "status").read_text().splitlines():
                if line.startswith("VmRSS"):
                    total += int(line.split()[1])
        except (OSError, IndexError, ValueError):
            pass
    return total


def index_workers(pid: int) -> list:
    """The server's indexing processes that have not ended, or ended and not been waited for
    (their CPU is not counted before)."""
    out = []
    for d, state in children(pid):
        try:
            if state == "Z" or b"puppet_ls.server.index_worker" in (d / "cmdline").read_bytes():
                out.append(d)
        except OSError:
            pass
    return out


def one_run(drv, server: list, root: Path, rel: str, cache: Path, code: dict, timeout: float = 60.0) -> dict:
    path = root / "modules" / rel
    text = path.read_text()
    uri = path.as_uri()
    env = dict(os.environ, PUPPET_LS_CACHE_DIR=str(cache), **code)
    t_spawn = drv.now_ms()
    c = drv.LspClient(server, None, env, None)
    out: dict = {}
    try:
        initialize(c, root, {"hover": {"contentFormat": ["markdown", "plaintext"]}}, timeout)
        out["initialize"] = drv.now_ms() - t_spawn
        c.notify("initialized", {})
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "puppet", "version": 1,
                                                           "text": text}})
        line, col = drv.find_pos(text, HOVER_AT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            _, h = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                    "position": {"line": line, "character": col}}, timeout)
            hover = drv.summarize_hover(h)
            if hover and HOVER_WANT in hover:
                out["first hover"] = drv.now_ms() - t_spawn
                out["hover text"] = hover.replace("\n", " ")[:60]
                break
            time.sleep(0.02)
        t, m = wait_for_index(c, timeout)
        out["index complete"] = t - t_spawn
        out["index message"] = m["params"]["value"].get("message", "")
        # the index is complete once its files are answered; its processes then store their
        # entries in the cache and end: their CPU counts once they have
        until = time.monotonic() + timeout
        while index_workers(c.proc.pid) and time.monotonic() < until:
            time.sleep(0.01)
        cpu = c.cpu_seconds()     # the server's own, and its finished children's (index workers)
        out["server CPU"] = cpu.get("server_cpu_s", 0) * 1000
        out["index workers CPU"] = cpu.get("reaped_children_cpu_s", 0) * 1000
        time.sleep(0.1)
        out["RSS after indexing"] = c.rss_kb().get("VmRSS", 0) / 1024
        out["worker RSS"] = children_rss_kb(c.proc.pid) / 1024
        c.request("shutdown", None, 10)
        c.notify("exit", None)
        c.proc.wait(timeout=10)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()
    return out


def timed(cmd: list, runs: int) -> float:
    xs = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        xs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--modules", default="/usr/share/puppet/modules")
    ap.add_argument("--file", default="ntp/manifests/init.pp", help="the file to open, relative to --modules")
    ap.add_argument("--server", default=f"{sys.executable} -m puppet_ls.server.cli --stdio")
    ap.add_argument("--from-source", action="store_true", help="do not precompile the package's bytecode")
    ap.add_argument("--no-code-cache", action="store_true",
                    help="start the server without its kept code (server/code_cache.py), to compare")
    a = ap.parse_args()
    modules = Path(a.modules)
    if not (modules / a.file).is_file():
        print(f"the corpus modules are missing ({modules / a.file}): nothing to measure")
        return 0
    if not DRIVER.exists():
        print(f"the driver is missing: {DRIVER}")
        return 2
    if not a.from_source:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "language"), str(REPO / "server")],
                       check=False, capture_output=True)
    drv = load_driver()
    server = shlex.split(a.server)
    root = control_repo(modules, "puppet-ls-startup-")
    caches = Path(tempfile.mkdtemp(prefix="puppet-ls-startup-cache-"))
    # The code the server keeps between starts (as the bytecode above, made by a start after
    # installing: one start with no client fills it), or none with --no-code-cache.
    code = {"PUPPET_LS_NO_CACHE": "1"} if a.no_code_cache else {"PUPPET_LS_CODE_CACHE_DIR": str(caches / "code")}
    subprocess.run(server, input=b"", env=dict(os.environ, **code), check=False, capture_output=True)
    try:
        floor = {"python -c pass": timed([sys.executable, "-c", "pass"], 5),
                 "import lsprotocol.types": timed([sys.executable, "-c", "import lsprotocol.types"], 5),
                 "import puppet_ls.server.lsp": timed([sys.executable, "-c", "import puppet_ls.server.lsp"], 5)}
        cold, warm = [], []
        warm_cache = caches / "warm"
        for i in range(a.runs):
            cold.append(one_run(drv, server, root, a.file, caches / f"cold{i}", code))
            if i == 0:      # the warm runs start from the cache the first cold run left
                if (caches / "cold0").exists():
                    shutil.copytree(caches / "cold0", warm_cache)
                else:
                    warm_cache.mkdir()
            warm.append(one_run(drv, server, root, a.file, warm_cache, code))
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(caches, ignore_errors=True)

    def med(rows: list, key: str) -> float:
        return statistics.median(r[key] for r in rows if key in r) if any(key in r for r in rows) else float("nan")

    print(f"server: {a.server}   runs: {a.runs}   workspace: control repo, modulepath = modules -> {modules}"
          f"   kept code: {'off' if a.no_code_cache else 'on'}")
    print(f"opened {a.file}, hover on {HOVER_AT!r}: {cold[0].get('hover text')!r}")
    print(f"index: {cold[0].get('index message')} (cold) / {warm[0].get('index message')} (warm)")
    print("floor (median of 5): " + ", ".join(f"{k} {v:.0f} ms" for k, v in floor.items()))
    print(f"{'':22}{'cold':>10}{'warm':>10}")
    for key, unit in (("initialize", "ms"), ("first hover", "ms"), ("index complete", "ms"),
                      ("server CPU", "ms"), ("index workers CPU", "ms"),
                      ("RSS after indexing", "MB"), ("worker RSS", "MB")):
        print(f"{key + ' (' + unit + ')':22}{med(cold, key):>10.0f}{med(warm, key):>10.0f}")
    results = {"first hover": max(med(cold, "first hover"), med(warm, "first hover")),
               "index complete cold": med(cold, "index complete"),
               "index complete warm": med(warm, "index complete"),
               "RSS after indexing": max(med(cold, "RSS after indexing"), med(warm, "RSS after indexing"))}
    ok = True
    for key, target in TARGETS.items():
        value = results[key]
        good = value <= target
        ok = ok and good
        if "RSS" in key:
            print(f"  {'ok    ' if good else 'MISSED'} {key}: {value:.0f} MB (target <= {target:.0f} MB)")
        else:
            print(f"  {'ok    ' if good else 'MISSED'} {key}: {value:.0f} ms (target <= {target:.0f} ms;"
                  f" {value / floor['import lsprotocol.types']:.1f}x importing lsprotocol.types)")
    print("all targets met" if ok else "some targets were missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
