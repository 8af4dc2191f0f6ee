#!/usr/bin/env python3
"""Differential of puppet-ls's Hiera lookups against the real Puppet.

Two environments are compared: the fixture control repository
``fixtures/workspace/hiera-repo`` (global, environment and module layers, globs, mapped_paths,
JSON data, lookup_options with unique/hash/deep merges, knockout prefixes, regexp keys and
convert_to, every kind of interpolation) and a bigger generated hierarchy (seeded, so the same
on every run).  For each fact set, Puppet is run once (``puppet lookup --compile`` with a
generated site.pp that calls ``lookup()`` for every key, with and without an explicit merge,
and prints the results with stdlib's ``to_json``); puppet-ls looks the same keys up through
``server/workspace.py:hiera_for_environment`` and ``language/hiera``.  Values are compared as
canonical JSON (so ``1``, ``1.0``, ``true`` and ``"1"`` differ, hash order does not).

    python3 benchmarks/hiera_differential.py [--jobs N] [--show N]

Prints the agreement over (key, merge, fact set) triples and every difference.  Needs
``puppet`` (7) and puppetlabs-stdlib under /usr/share/puppet/modules (for to_json).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import yaml

from puppet_ls.language.hiera import scope_for
from puppet_ls.language.hiera.convert import convert
from puppet_ls.server.workspace import hiera_for_environment

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "fixtures", "workspace", "hiera-repo")
BASEMODULEPATH = "/usr/share/puppet/modules"
NOT_FOUND = "__HIERA_DIFF_NOT_FOUND__"
# What `puppet lookup` puts in $trusted when it is not given a certificate: no certname.
TRUSTED = {"authenticated": "local", "certname": None, "extensions": {}, "hostname": None,
           "domain": None, "external": {}}


# ---- fact sets -------------------------------------------------------------------------------
def fixture_facts() -> list:
    out = []
    combos = [
        ("RedHat", "9", "webserver", ["paris", "dc1"], "ops"),
        ("RedHat", "8", "webserver", ["dc1"], "dev"),
        ("RedHat", "9", "db", [], None),
        ("Debian", "12", "webserver", ["paris"], "ops"),
        ("Debian", "11", None, ["dc1", "paris"], None),
        ("Debian", "12", "db", "dc1", "dev"),
        ("Suse", "15", "webserver", [], "ops"),
        ("Debian", "12", None, [], None),
        ("RedHat", "9", None, ["nowhere"], "qa"),
        ("Suse", "15", None, None, None),
    ]
    for i, (family, major, role, locs, team) in enumerate(combos):
        f: dict = {"os": {"family": family, "name": family.lower(), "release": {"major": major, "full": major + ".1"}},
                   "networking": {"fqdn": f"host{i}.example.com", "domain": "example.com"}}
        if role:
            f["role"] = role
        if locs is not None:
            f["locations"] = locs
        if team:
            f["team"] = team
        out.append(f)
    return out


def fixture_keys(env: str) -> list:
    """Every top-level key of the environment's and modules' data, some dotted keys, missing
    ones; each with no merge, and the hash and array ones with explicit merges too."""
    keys: dict = {}
    for root, _dirs, files in os.walk(env):
        for name in files:
            if name.endswith((".yaml", ".json")) and "/data" in root:
                with open(os.path.join(root, name), encoding="utf-8") as fh:
                    data = yaml.safe_load(fh) or {}
                for k, v in data.items():
                    if k != "lookup_options":
                        keys.setdefault(k, set()).add(type(v).__name__)
    pairs: list = []
    for k in sorted(keys):
        pairs.append((k, None))
        kinds = keys[k]
        if kinds <= {"dict"}:
            pairs += [(k, "hash"), (k, "deep")]
        elif kinds <= {"list", "str"} and "list" in kinds:
            pairs.append((k, "unique"))
    pairs += [("profile::base::sysctl.vm.swappiness", None), ("profile::base::users.alice.shell", None),
              ("ntp::servers.0", None), ("profile::web::vhosts.0.name", None), ("nosuch::key", None),
              ("profile::base::nosuch", None), ("profile::base::sysctl.vm", "deep"),
              ("'profile::base::sysctl'.'net.ipv4.ip_forward'", None)]
    return pairs


# ---- the generated hierarchy -------------------------------------------------------------------
def _rand_value(rng: random.Random, kind: str, depth: int = 0):
    if kind == "scalar":
        return rng.choice([rng.randint(0, 99), f"s{rng.randint(0, 30)}", rng.choice([True, False]),
                           f"%{{facts.zone}}-{rng.randint(0, 9)}", "%{::app}", 1.5])
    if kind == "array":
        return [f"e{rng.randint(0, 12)}" for _ in range(rng.randint(1, 4))]
    out = {}
    for _ in range(rng.randint(1, 4)):
        k = f"h{rng.randint(0, 8)}"
        out[k] = _rand_value(rng, "hash", depth + 1) if depth < 2 and rng.random() < 0.3 else \
            _rand_value(rng, rng.choice(["scalar", "array"]), depth + 1)
    return out


def generate_environment(folder: str, seed: int = 15) -> tuple:
    rng = random.Random(seed)
    levels = [("nodes", "nodes/%{facts.nodename}.yaml", ["n1", "n2", "n3"]),
              ("app", "app/%{facts.app}.yaml", ["web", "db", "cache"]),
              ("zone", "zone/%{facts.zone}.yaml", ["eu", "us", "asia"]),
              ("os", "os/%{facts.os.family}.yaml", ["Debian", "RedHat"]),
              ("groups", None, ["g1", "g2", "g3", "g4"]),
              ("tier", "tier/%{facts.tier}/*.yaml", ["gold", "silver"]),
              ("common", "common.yaml", [None])]
    hierarchy = []
    for name, path, _values in levels:
        if name == "groups":
            hierarchy.append({"name": name, "mapped_paths": ["facts.groups", "g", "groups/%{g}.yaml"]})
        elif "*" in path:
            hierarchy.append({"name": name, "glob": path})
        else:
            hierarchy.append({"name": name, "path": path})
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "hiera.yaml"), "w", encoding="utf-8") as fh:
        yaml.safe_dump({"version": 5, "defaults": {"datadir": "data", "data_hash": "yaml_data"},
                        "hierarchy": hierarchy}, fh, sort_keys=False)
    kinds = {f"gen::k{i:02d}": rng.choice(["scalar", "array", "hash"]) for i in range(40)}
    merges = {}
    for k, kind in kinds.items():
        r = rng.random()
        if kind == "hash" and r < 0.6:
            merges[k] = rng.choice(["hash", "deep", {"strategy": "deep", "merge_hash_arrays": True},
                                    {"strategy": "deep", "sort_merged_arrays": True}])
        elif kind == "array" and r < 0.6:
            merges[k] = rng.choice(["unique", "deep", {"strategy": "deep", "knockout_prefix": "--"}])
    files: dict = {}
    for name, path, values in levels:
        for v in values:
            if name == "groups":
                rel = f"groups/{v}.yaml"
            elif name == "tier":
                rel = f"tier/{v}/part{rng.randint(1, 2)}.yaml"
            else:
                rel = path.replace("%{facts.nodename}", str(v)).replace("%{facts.app}", str(v)) \
                    .replace("%{facts.zone}", str(v)).replace("%{facts.os.family}", str(v))
            data = files.setdefault(rel, {})
            for k, kind in kinds.items():
                if rng.random() < (0.8 if name == "common" else 0.3):
                    val = _rand_value(rng, kind)
                    if kind == "array" and rng.random() < 0.15:
                        val = ["--" + val[0], *val[1:]]
                    data[k] = val
            if rng.random() < 0.2:
                data["gen::alias"] = "%{alias('gen::k01')}"
                data["gen::interp"] = "%{lookup('gen::k02')} and %{facts.zone}"
    files.setdefault("common.yaml", {})["lookup_options"] = {k: {"merge": m} for k, m in merges.items()}
    files["common.yaml"]["lookup_options"]["^gen::k3\\d$"] = {"merge": "unique"}
    for rel, data in files.items():
        full = os.path.join(folder, "data", rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            yaml.safe_dump(data, fh, sort_keys=False)
    facts = []
    for i in range(8):
        f: dict = {"nodename": rng.choice(["n1", "n2", "n3", "n9"]), "app": rng.choice(["web", "db", "cache"]),
                   "zone": rng.choice(["eu", "us", "asia"]), "os": {"family": rng.choice(["Debian", "RedHat"])},
                   "groups": rng.sample(["g1", "g2", "g3", "g4"], rng.randint(0, 3)),
                   "tier": rng.choice(["gold", "silver", "none"])}
        if i % 3 == 0:
            del f["groups"]
        facts.append(f)
    pairs = [(k, None) for k in sorted(kinds)] + [("gen::alias", None), ("gen::interp", None)]
    pairs += [(k, "unique") for k, kind in sorted(kinds.items()) if kind == "array"][:5]
    pairs += [(k, "deep") for k, kind in sorted(kinds.items()) if kind == "hash"][:5]
    return facts, pairs


# ---- Puppet ------------------------------------------------------------------------------------
def _puppet_literal(v) -> str:
    return "undef" if v is None else "'" + str(v).replace("\\", "\\\\").replace("'", "\\'") + "'"


def run_puppet(envpath: str, env: str, facts: dict, pairs: list, work: str, idx: int) -> dict:
    calls = ",\n".join(f"  [{_puppet_literal(k)}, {_puppet_literal(m)}]" for k, m in pairs)
    site = (f"$pairs = [\n{calls}\n]\n"
            "$r = $pairs.map |$p| { [$p[0], $p[1], lookup($p[0], undef, $p[1], '" + NOT_FOUND + "')] }\n"
            "notice(\"HIERA-DIFF-RESULT ${to_json($r)}\")\n")
    with open(os.path.join(envpath, env, "manifests", "site.pp"), "w", encoding="utf-8") as fh:
        fh.write(site)
    facts_file = os.path.join(work, f"facts{idx}.yaml")
    with open(facts_file, "w", encoding="utf-8") as fh:
        yaml.safe_dump(facts, fh)
    global_cfg = os.path.join(envpath, env, "global", "hiera.yaml")
    cmd = ["puppet", "lookup", "nosuch", "--compile", "--node", "difftest.example.com", "--facts", facts_file,
           "--environmentpath", envpath, "--environment", env,
           "--hiera_config", global_cfg if os.path.exists(global_cfg) else os.path.join(work, "none.yaml"),
           "--confdir", os.path.join(work, "conf"), "--vardir", os.path.join(work, "var"),
           "--codedir", os.path.join(work, "code"), "--basemodulepath", BASEMODULEPATH]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    m = re.search(r"HIERA-DIFF-RESULT (.*?)(?:\x1b\[0m)?$", proc.stdout + proc.stderr, re.MULTILINE)
    if not m:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-5:])
        raise RuntimeError(f"puppet failed for {env} facts {idx}: {tail}")
    return {(k, m_): v for k, m_, v in json.loads(m.group(1))}


def ours(envroot: str, facts: dict, pairs: list) -> dict:
    modulepath = [os.path.join(envroot, "site-modules"), os.path.join(envroot, "modules")]
    global_cfg = os.path.join(envroot, "global", "hiera.yaml")
    hiera = hiera_for_environment(envroot, modulepath, global_cfg if os.path.exists(global_cfg) else None, convert)
    scope = scope_for(facts, TRUSTED)
    out = {}
    for k, m in pairs:
        r = hiera.lookup(k, scope, m, explain=False)
        out[(k, m)] = r.value if r.found else (f"ERROR: {r.error}" if r.error else NOT_FOUND)
    return out


def canon(v) -> str:
    return json.dumps(v, sort_keys=True, default=str)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2, help="Puppet runs in parallel (default 2)")
    ap.add_argument("--show", type=int, default=50, help="differences to list (default 50)")
    args = ap.parse_args()
    if shutil.which("puppet") is None or not os.path.isdir(os.path.join(BASEMODULEPATH, "stdlib")):
        print("needs puppet and stdlib under " + BASEMODULEPATH, file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="hiera-diff-")
    try:
        envpath = os.path.join(work, "envs")
        shutil.copytree(FIXTURE, os.path.join(envpath, "fixture"))
        gen = os.path.join(envpath, "generated")
        gen_facts, gen_pairs = generate_environment(gen)
        os.makedirs(os.path.join(gen, "manifests"), exist_ok=True)
        with open(os.path.join(work, "none.yaml"), "w", encoding="utf-8") as fh:
            fh.write("---\nversion: 5\nhierarchy: []\n")
        jobs = [("fixture", f, fixture_keys(os.path.join(envpath, "fixture"))) for f in fixture_facts()]
        jobs += [("generated", f, gen_pairs) for f in gen_facts]
        t0 = time.time()

        def one(i_job):
            i, (env, facts, pairs) = i_job
            # each run gets its own copy of the environment: site.pp differs per run
            own = os.path.join(work, f"run{i}")
            shutil.copytree(os.path.join(envpath, env), os.path.join(own, env))
            theirs = run_puppet(own, env, facts, pairs, work, i)
            return env, i, facts, pairs, theirs, ours(os.path.join(own, env), facts, pairs)
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one, enumerate(jobs)))
        total = agree = found = merged = 0
        diffs = []
        per_env: dict = {}
        for env, i, facts, pairs, theirs, mine in results:
            for p in pairs:
                total += 1
                found += theirs.get(p) != NOT_FOUND
                merged += p[1] is not None
                e = per_env.setdefault(env, [0, 0])
                e[1] += 1
                if canon(theirs.get(p)) == canon(mine.get(p)):
                    agree += 1
                    e[0] += 1
                else:
                    diffs.append((env, i, p, theirs.get(p), mine.get(p)))
        print(f"Puppet found a value for {found} of {total} triples; {merged} triples name a merge "
              "(the others use lookup_options or first found)")
        for env, (a, t) in per_env.items():
            print(f"{env}: {a}/{t} agree")
        print(f"total: {agree}/{total} (key, merge, fact set) triples agree "
              f"({100.0 * agree / max(total, 1):.1f}%), {len(results)} Puppet runs in {time.time() - t0:.0f} s")
        for env, i, (k, m), theirs, mine in diffs[:args.show]:
            print(f"DIFF {env} facts#{i} {k} merge={m}: puppet={canon(theirs)} puppet-ls={canon(mine)}")
        return 0 if not diffs else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
