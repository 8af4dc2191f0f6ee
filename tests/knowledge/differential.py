"""Cases and verdicts for the differential test of built-in resource types against Puppet.

``cases()`` builds small manifests, one resource each: every built-in type with each of its
attributes and every metaparameter, with 200 generated bogus attribute names, and with sample
values (valid and invalid) for every attribute whose values Puppet lists.  ``puppet_verdicts``
runs them all through the installed Puppet in one Ruby process (puppet_compile.rb);
``puppet_ls_verdicts`` asks ``check`` and the evaluator.  ``report`` renders the comparison.

Speed: cases that puppet-ls expects Puppet to accept are sent in batches (one manifest holding
many resources, each with its own title); a batch that Puppet accepts whole proves each of its
resources acceptable, and a batch it refuses is split in halves down to single cases, whose
verdicts are then Puppet's own.  Puppet-ls's expectation only chooses the batches, never a
verdict.
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from puppet_ls.language.eval.api import compile_catalog
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.knowledge.resource_types import (
    metaparameters,
    puppet_version,
    resource_types,
)

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "puppet_compile.rb"
BOGUS_COUNT = 200

# Titles under which a bare resource of each type compiles and becomes a RAL resource, so that a
# refusal can only come from the attribute under test.
_TITLES = {"file": "/tmp/puppet-ls-differential", "tidy": "/tmp/puppet-ls-differential",
           "exec": "/bin/true", "resources": "notify"}
# Each bogus name is tried on this many types (chosen round robin), which keeps the whole run
# well under a minute while every type meets many bogus names.
_TYPES_PER_BOGUS = 2
# Keywords Puppet's grammar takes as attribute names (some are real attributes: exec's unless,
# file's type).
_KEYWORDS = ("and", "application", "attr", "case", "class", "consumes", "default", "define", "else",
             "elsif", "function", "if", "in", "inherits", "node", "or", "private", "produces", "site",
             "type", "unless", "undef", "true", "false")


@dataclass(frozen=True)
class Case:
    kind: str          # "attribute", "bogus", "value" or "baseline"
    type_name: str
    attr: str
    value: str         # Puppet source of the value
    source: str

    @property
    def batchable(self) -> bool:
        # resources titles name types (too few to be unique), component needs a class to live
        # in, and stage is refused on every resource that is not a class.
        return self.type_name not in ("resources", "component") and self.attr != "stage"


def _literal(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return "'" + str(v).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _resource(type_name: str, attr: str | None, value: str, n: int = 0) -> str:
    title = _TITLES.get(type_name, "puppet-ls")
    if n and type_name != "resources":        # a resources title must name a type
        title += f" {n}" if type_name == "exec" else f"-{n}"
    body = f" {attr} => {value}" if attr else ""
    return f"{type_name} {{ '{title}':{body} }}\n"


def _neutral_value(type_name: str, attr: str) -> str:
    a = resource_types()[type_name].attribute(attr)
    if attr in ("before", "require", "notify", "subscribe"):
        return "[]"
    if a is not None and a.values:
        return _literal(a.values[0].name)
    return "'puppet-ls'"


def bogus_names(count: int = BOGUS_COUNT, seed: int = 7) -> list:
    """Attribute names no built-in type has (or only some have): typos of real names, names of
    other types' attributes, keywords, Puppet 6 metaparameters and random words."""
    rng = random.Random(seed)
    real = sorted({a for t in resource_types().values() for a in t.attributes} | set(metaparameters()))
    names: list = ["title", "data_sync", "consume", "export", "forcelocal", "name_", "_name", "ensure2",
                   "notify_", "requires", "befor", "subscribes", "tags", "aliases", "audits"]
    names += [n for n in rng.sample(real, 40)]
    names += [n for n in _KEYWORDS]
    letters = "abcdefghijklmnopqrstuvwxyz"
    while len(names) < count * 3 // 4:
        base = rng.choice(real)
        i = rng.randrange(len(base))
        op = rng.randrange(4)
        if op == 0:
            typo = base[:i] + base[i + 1:]
        elif op == 1:
            typo = base[:i] + rng.choice(letters) + base[i:]
        elif op == 2:
            typo = base + rng.choice(("s", "_", "x", "2"))
        else:
            typo = base[:i] + rng.choice(letters) + base[i + 1:]
        if typo and typo[0] in letters and typo not in names:
            names.append(typo)
    while len(names) < count:
        w = rng.choice(letters) + "".join(rng.choice(letters + "_0123456789") for _ in range(rng.randrange(2, 14)))
        if w not in names:
            names.append(w)
    return names[:count]


def _value_samples(a) -> list:
    vals: list = []
    for v in a.values:
        vals.append(v.name)
        vals.extend(v.aliases)
    vals += ["puppet_ls_bogus", "", True, 3]
    if a.regexes:
        vals += ["1", "-1", "2024-01-01", "abc"]
    out = []
    for v in vals:
        if v not in out or type(v) is not type(out[out.index(v)]):
            out.append(v)
    return out


def cases() -> list:
    out = []
    type_names = sorted(resource_types())
    bogus_on: dict = {n: [] for n in type_names}
    for i, name in enumerate(bogus_names()):
        for k in range(_TYPES_PER_BOGUS):
            bogus_on[type_names[(i + k * 7) % len(type_names)]].append(name)
    for tname in type_names:
        t = resource_types()[tname]
        out.append(Case("baseline", tname, "", "", _resource(tname, None, "")))
        attrs = list(t.attributes) + list(metaparameters()) + ["name"]
        for attr in dict.fromkeys(attrs):
            value = _neutral_value(tname, attr)
            out.append(Case("attribute", tname, attr, value, _resource(tname, attr, value, len(out))))
        for attr in bogus_on[tname]:
            if attr in attrs:
                continue
            out.append(Case("bogus", tname, attr, "'puppet-ls'", _resource(tname, attr, "'puppet-ls'", len(out))))
        for attr in dict.fromkeys(attrs):
            a = t.attribute(attr)
            if a is None or not (a.values or a.regexes):
                continue
            for v in _value_samples(a):
                lit = _literal(v)
                out.append(Case("value", tname, attr, lit, _resource(tname, attr, lit, len(out))))
    return out


def puppet_available() -> str | None:
    """Why the installed Puppet cannot be used, or None when it can."""
    ruby = shutil.which("ruby")
    if ruby is None:
        return "ruby is not installed"
    proc = subprocess.run([ruby, "-e", "require 'puppet'; print Puppet.version"], capture_output=True,
                          text=True, timeout=120, check=False)
    if proc.returncode != 0:
        return "Puppet's Ruby library is not installed (apt-get install puppet-agent)"
    return None


class PuppetProcess:
    """puppet_compile.rb running as one process: a manifest in, its verdict out."""

    def __enter__(self):
        self.proc = subprocess.Popen([shutil.which("ruby") or "ruby", str(DRIVER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.runs = 0
        return self

    def __exit__(self, *exc):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)

    def verdict(self, source: str) -> dict:
        self.runs += 1
        self.proc.stdin.write(json.dumps(source) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("puppet_compile.rb stopped")
        return json.loads(line)


_CLEAN = {"compile": None, "ral": None}


def puppet_verdicts(all_cases: list, expected: list) -> tuple:
    """Puppet's verdict for every case, and how many manifests Puppet compiled to find them.
    ``expected[i]`` says whether puppet-ls expects case i to be accepted (it chooses batches)."""
    out: list = [None] * len(all_cases)
    with PuppetProcess() as puppet:
        def solve(idx: list) -> None:
            if len(idx) == 1:
                out[idx[0]] = puppet.verdict(all_cases[idx[0]].source)
                return
            r = puppet.verdict("".join(all_cases[i].source for i in idx))
            # Attribute names are judged by the compile alone; values also by the RAL step.
            names_only = all_cases[idx[0]].kind == "attribute"
            if r == _CLEAN or (names_only and r["compile"] is None):
                for i in idx:
                    out[i] = {"compile": None, "ral": None if r == _CLEAN else "(not asked: batched)"}
                return
            mid = len(idx) // 2
            solve(idx[:mid])
            solve(idx[mid:])

        groups: dict = {}
        for i, c in enumerate(all_cases):
            if c.batchable and expected[i] and c.kind != "baseline":
                groups.setdefault((c.type_name, c.kind), []).append(i)
            else:
                out[i] = puppet.verdict(c.source)
        for idx in groups.values():
            solve(idx)
        return out, puppet.runs


def expected_clean(c: Case, ours: dict) -> bool:
    """Whether puppet-ls expects Puppet to take the case (its name, or its value too)."""
    return ours["eval"] is None and ("NO_SUCH_PARAMETER" not in ours["check"] if c.kind == "attribute"
                                     else not ours["check"])


def puppet_ls_verdicts(c: Case) -> dict:
    pr = parse_for_path(c.source, "differential.pp")
    diags = file_diagnostics(pr, None)
    ev = compile_catalog(c.source)
    return {"check": sorted({d.code for d in diags}),
            "eval": None if ev.ok else (ev.error.code if ev.error is not None else "?")}


def report(all_cases: list, puppet: list, ours: list) -> str:
    """The comparison as text: figures, then every disagreement (an empty list is the goal)."""
    head = (f"puppet {puppet_version()} (data) - {len(resource_types())} types, "
            f"{len(metaparameters())} metaparameters, {BOGUS_COUNT} bogus names")
    lines = [head]
    name_disagree, eval_disagree, false_warn, missed, syntax, bad_base = [], [], [], [], [], set()
    counts = {"attribute": [0, 0], "bogus": [0, 0], "value": [0, 0]}
    for c, p, o in zip(all_cases, puppet, ours):
        label = c.source.strip()
        if c.kind == "baseline" and c.type_name == "component":
            bad_base.add(c.type_name)   # Puppet's internal container of classes: never declared alone
            continue
        if c.kind == "baseline":
            if p["compile"] or p["ral"] or o["eval"]:
                bad_base.add(c.type_name)
                lines.append(f"baseline refused: {label}: {p['compile'] or p['ral'] or o['eval']}")
            continue
        if c.kind in ("attribute", "bogus"):
            if p["compile"] and "Syntax error" in p["compile"]:
                if "SYNTAX_ERROR" not in o["check"]:
                    syntax.append(f"{label}  puppet: {p['compile']}  check: {o['check']}")
                continue
            refused = bool(p["compile"]) and f"no parameter named '{c.attr}'" in p["compile"]
            counts[c.kind][0] += 1
            counts[c.kind][1] += refused
            if refused != ("NO_SUCH_PARAMETER" in o["check"]):
                name_disagree.append(f"{label}  puppet: {p['compile'] or 'compiles'}  check: {o['check']}")
            if refused != (o["eval"] == "RESOURCE_NO_SUCH_PARAMETER"):
                eval_disagree.append(f"{label}  puppet: {p['compile'] or 'compiles'}  eval: {o['eval']}")
            continue
        if c.type_name in bad_base:
            continue
        msg = p["compile"] or p["ral"] or ""
        refused = f"Parameter {c.attr} failed on" in msg
        warned = "INVALID_ATTRIBUTE_VALUE" in o["check"]
        counts["value"][0] += 1
        counts["value"][1] += refused
        a = resource_types()[c.type_name].attribute(c.attr)
        if warned and not refused:
            # Puppet ignores an attribute (value unseen) when the provider lacks its features.
            reason = "feature" if a is not None and a.required_features else ""
            false_warn.append((reason, f"{label}  puppet: {msg or 'accepts'}"))
        elif refused and not warned:
            reason = ("validate block" if a is not None and a.validation == "custom" else
                      "provider feature" if "must have features" in msg else
                      "munge block" if "Munging failed" in msg else "")
            missed.append((reason, f"{label}  puppet: {msg.splitlines()[0]}"))
    lines.append(f"attribute cases: {counts['attribute'][0]} (Puppet refuses the name in {counts['attribute'][1]})")
    lines.append(f"bogus-name cases: {counts['bogus'][0]} (Puppet refuses the name in {counts['bogus'][1]})")
    lines.append(f"value cases: {counts['value'][0]} (Puppet refuses the value in {counts['value'][1]})")
    lines.append(f"check NO_SUCH_PARAMETER disagreements: {len(name_disagree)}")
    lines.extend("  " + x for x in name_disagree)
    lines.append(f"evaluator disagreements: {len(eval_disagree)}")
    lines.extend("  " + x for x in eval_disagree)
    lines.append(f"not a name question - Puppet's grammar refuses the name, and puppet-ls reports no "
                 f"syntax error: {len(syntax)}")
    lines.extend("  " + x for x in syntax)
    lines.append("INVALID_ATTRIBUTE_VALUE where Puppet accepts the value: "
                 f"{sum(1 for r, _ in false_warn if not r)}")
    lines.extend("  " + x for r, x in false_warn if not r)
    lines.append("  kept - the attribute needs provider features this machine's default provider lacks, so "
                 "Puppet ignores it unseen (a provider with them refuses the value): "
                 f"{sum(1 for r, _ in false_warn if r)}")
    lines.extend("    " + x for r, x in false_warn if r)
    lines.append(f"values Puppet refuses without a warning from check, unexplained: {sum(1 for r, _ in missed if not r)}")
    lines.extend("  " + x for r, x in missed if not r)
    for reason, why in (("validate block", "a validate block of the type decides (code, not data)"),
                        ("munge block", "a munge block of the type refuses a listed value"),
                        ("provider feature", "the value needs a provider feature (provider-dependent)")):
        kept = [x for r, x in missed if r == reason]
        lines.append(f"  kept - {why}: {len(kept)}")
        lines.extend("    " + x for x in kept)
    return "\n".join(lines) + "\n"
