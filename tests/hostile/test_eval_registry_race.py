"""The function registry is complete for every thread from the first lookup on.

The library is imported on the first lookup.  It used to mark itself loaded before its modules
were imported, so a lookup from another thread during that first import saw a half-filled
registry ("Unknown function" on the first hover of a fresh server).  Each run here is a fresh
interpreter (the import must really be the first) in which several threads, released
together, look up one function of every module of the library while the import happens.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# One function defined by each module of language/eval/functions, in import order, so a
# registry cut short anywhere misses at least one of them.
NAMES = ["include", "flatten", "fail", "each", "notice", "abs", "file", "regsubst",
         "strftime", "type"]

CHILD = r"""
import json, sys, threading
from puppet_ls.language.eval import functions
names = json.loads(sys.argv[1])
threads = int(sys.argv[2])
barrier = threading.Barrier(threads)
missing = []

def hammer():
    barrier.wait()
    for _ in range(200):
        for n in names:
            if functions.lookup_function(n) is None:
                missing.append(n)

workers = [threading.Thread(target=hammer) for _ in range(threads)]
for w in workers:
    w.start()
for w in workers:
    w.join()
print(json.dumps({"missing": sorted(set(missing)), "count": len(missing)}))
"""

RUNS = 6
THREADS = 8


def test_names_cover_every_module():
    # the list must name real functions, or the race test below could not fail for them
    from puppet_ls.language.eval.functions import lookup_function
    assert all(lookup_function(n) is not None for n in NAMES)


def test_no_lookup_sees_a_half_loaded_registry():
    failures = []
    for _ in range(RUNS):
        proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(NAMES), str(THREADS)],
                              capture_output=True, text=True, check=False, cwd=ROOT, timeout=120)
        assert proc.returncode == 0, proc.stderr
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        if result["missing"]:
            failures.append(result)
    assert not failures, f"lookups during the first import found nothing: {failures}"
