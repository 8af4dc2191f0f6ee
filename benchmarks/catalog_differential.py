#!/usr/bin/env python3
"""Catalog differential (issue 16, acceptance 1): the resources and attribute values of
``puppet-ls preview CLASS`` against the catalog the real Puppet 7 compiles for the same class,
node, facts and modulepath.

Every class of the corpus modules (each ``<module>/manifests/**.pp`` that defines a class) is
compiled by Puppet (``tools/catalog/compile.rb``, one Ruby process) with a built-in fact set;
the classes Puppet compiles are then previewed by puppet-ls in this process through the CLI's
own code path (``server/catalog_preview.run``), and the two catalogs are compared.

Normalisation (both sides, so that only what a catalog means is compared):
- Puppet's own resources are left out: ``Stage[main]``, ``Class[Settings]``, ``Class[main]``.
- A resource is keyed by ``Type[title]`` with every segment of the type capitalised and a
  class's title lower case (Puppet writes ``Class[Apache::Params]``, the title ``apache::params``).
- A namevar (``name``, or the type's own: ``path`` of a file, ``command`` of an exec) equal to
  the title is dropped: Puppet's catalog writes it out, puppet-ls leaves it implicit.
- A parameter whose value is ``undef`` is dropped (Puppet leaves it out of the catalog).
- The relationship metaparameters (``before``, ``require``, ``notify``, ``subscribe``) are
  compared as sets of references; puppet-ls's chaining arrows (``->``, ``~>``, ``<-``, ``<~``)
  are added to the source's ``before``/``notify``, as Puppet's compiler does.
- Values are compared as the conformance corpus' canonical text (Puppet's ``%p``), a
  Sensitive value as its content (Puppet's catalog keeps it unwrapped, marked sensitive).

Kinds of difference, counted apart: ``compile`` (puppet-ls does not compile a class Puppet
compiles), ``missing``/``extra`` resources, ``missing_param``/``extra_param``, ``wrong`` values,
``unknown`` values (puppet-ls shows a value it cannot know, e.g. a template's text, or a
resource whose title it cannot know: not wrong, but not equal either), ``container`` (a
different containing resource).

    python3 benchmarks/catalog_differential.py [--facts debian12] [--node N] [--limit N]
        [--cache FILE] [--refresh] [--show N] [--json]

Puppet's answers are cached (``--cache``, default /tmp/catalog-differential-<facts>.jsonl);
``--refresh`` asks Puppet again.  Needs ``ruby``/``puppet`` 7 and the corpus
(``bash ../shared/corpus/corpus.sh``; ``PUPPET_LS_CORPUS`` names another list).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _corpus import corpus_files

from puppet_ls.language.eval.conformance import canonical
from puppet_ls.language.ide.preview import PreviewContext
from puppet_ls.language.knowledge.resource_types import resource_type
from puppet_ls.server.catalog_preview import first_class, manifest_of, run as run_preview
from puppet_ls.server.factsfile import load_context
from puppet_ls.server.workspace import read_text

COMPILE_RB = ROOT / "tools" / "catalog" / "compile.rb"
MODULEPATH = ["/usr/share/puppet/modules"]
RELATION_PARAMS = frozenset({"before", "require", "notify", "subscribe"})
_ARROW_PARAM = {"->": ("before", False), "~>": ("notify", False), "<-": ("before", True), "<~": ("notify", True)}
_REF = re.compile(r"([A-Za-z][\w:]*)\[\s*(?:'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|([^\]'\"]*))\s*\]")
UNKNOWN_MARK = "⟨unknown: "


def puppet_available() -> bool:
    return shutil.which("ruby") is not None and shutil.which("puppet") is not None


# ---- the Puppet side ------------------------------------------------------------------------------

def puppet_catalogs(classes: list, ctx: PreviewContext, modulepath: list, timeout: float = 60.0) -> dict:
    """class -> Puppet's answer (``compile.rb``'s JSON line) for each class, compiled in one
    Ruby process with the context's node, facts (those the evaluator sees, agent facts
    included) and ``$trusted``."""
    settings = ctx.evaluator_settings()
    with tempfile.TemporaryDirectory(prefix="catalog-diff-") as tmp:
        facts_file, trusted_file = os.path.join(tmp, "facts.json"), os.path.join(tmp, "trusted.json")
        with open(facts_file, "w", encoding="utf-8") as f:
            json.dump(settings["facts"], f)
        with open(trusted_file, "w", encoding="utf-8") as f:
            json.dump(settings["trusted"], f)
        proc = subprocess.run(
            ["ruby", str(COMPILE_RB), "--modulepath", os.pathsep.join(modulepath), "--facts", facts_file,
             "--trusted", trusted_file, "--node", ctx.node, "--timeout", str(timeout)],
            input="\n".join(classes) + "\n", capture_output=True, text=True, check=False)
    out = {}
    for line in proc.stdout.splitlines():
        if line.strip():
            d = json.loads(line)
            out[d["class"]] = d
    if not out and proc.returncode != 0:
        raise RuntimeError(f"compile.rb failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return out


# ---- normalisation --------------------------------------------------------------------------------

def cap_type(name: str) -> str:
    return "::".join(p[:1].upper() + p[1:].lower() for p in name.removeprefix("::").split("::"))


def ref_key(type_name: str, title: str) -> str:
    t = cap_type(type_name)
    return f"Class[{title.lower().removeprefix('::')}]" if t == "Class" else f"{t}[{title}]"


def refs_in(text: str) -> frozenset:
    """The resource references in a relationship parameter's canonical text (references
    ``Package['x']``, or strings ``'Package[x]'`` as Puppet's chaining arrows write them)."""
    out = set()
    for m in _REF.finditer(text):
        title = next((g for g in m.groups()[1:] if g is not None), "")
        out.add(ref_key(m.group(1), title.replace("\\'", "'")))
    return frozenset(out)


def namevars(type_name: str) -> frozenset:
    t = resource_type(type_name.lower())
    return frozenset(("name", *t.namevars)) if t is not None else frozenset({"name"})


def normalise(resources: list, relationships: list = ()) -> dict:
    """``{ref: {"params": {name: text}, "container": ref}}`` (see the module docstring)."""
    out: dict = {}
    for r in resources:
        key = ref_key(r["type"], r["title"])
        if key in ("Class[settings]", "Class[main]", "Stage[main]"):
            continue
        params = {}
        names = namevars(r["type"])
        title = canonical(r["title"])
        for k, v in r["parameters"].items():
            if v == "undef" or k in names and v == title:
                continue
            if v.startswith("Sensitive(") and v.endswith(")"):
                v = v[len("Sensitive("):-1]     # the catalog keeps it unwrapped, marked sensitive
            params[k] = refs_in(v) if k in RELATION_PARAMS else v
        container = r.get("container") or None       # "": in nothing (a stage)
        if container:
            m = _REF.fullmatch(container)
            container = ref_key(m.group(1), next((g for g in m.groups()[1:] if g is not None), "")) if m else container
        out[key] = {"params": params, "container": container}
    for left, arrow, right in relationships:
        param, swap = _ARROW_PARAM.get(arrow, (None, False))
        if param is None:
            continue
        if swap:
            left, right = right, left
        sources, targets = refs_in(left), refs_in(right)
        for s in sources:
            if s in out:
                p = out[s]["params"]
                p[param] = frozenset(p.get(param, frozenset()) | targets)
    return out


def show(v) -> str:
    return "{" + ", ".join(sorted(v)) + "}" if isinstance(v, frozenset) else str(v)


def compare(puppet: dict, ours: dict) -> list:
    """The differences between two normalised catalogs: ``(kind, what, detail)``; ``what``
    names the class of difference (``Type`` or ``Type.param``), ``detail`` the example."""
    diffs = []
    for ref, pr in puppet.items():
        t = ref.split("[", 1)[0]
        mine = ours.get(ref)
        if mine is None:
            diffs.append(("missing", t, ref))
            continue
        if pr["container"] != mine["container"]:
            diffs.append(("container", t, f"{ref}: Puppet {pr['container']}, puppet-ls {mine['container']}"))
        for k, v in pr["params"].items():
            w = mine["params"].get(k)
            if w is None:
                diffs.append(("missing_param", f"{t}.{k}", f"{ref} {k} => {show(v)}"))
            elif w != v:
                kind = "unknown" if isinstance(w, str) and UNKNOWN_MARK in w else "wrong"
                diffs.append((kind, f"{t}.{k}", f"{ref} {k}: Puppet {show(v)}, puppet-ls {show(w)}"))
        for k, w in mine["params"].items():
            if k not in pr["params"]:
                diffs.append(("extra_param", f"{t}.{k}", f"{ref} {k} => {show(w)}"))
    for ref in ours:
        if ref not in puppet:
            # a title puppet-ls cannot know stands for a resource of its own kind of difference
            kind = "unknown" if UNKNOWN_MARK in ref else "extra"
            diffs.append((kind, ref.split("[", 1)[0] + ".title" if kind == "unknown" else ref.split("[", 1)[0], ref))
    return diffs


# ---- the puppet-ls side ---------------------------------------------------------------------------

def preview(cls: str, ctx: PreviewContext, modulepath: list):
    """(normalised catalog, None) or (None, error text) of ``puppet-ls preview cls``."""
    res = run_preview(cls, ctx, list(modulepath))
    if isinstance(res, str):
        return None, res
    cat = res.catalog
    if not cat.ok:
        return None, cat.error
    return normalise(cat.resources, cat.relationships), None


def error_class(text: str) -> str:
    """An error message with its names and numbers taken out: what errors of one kind share."""
    text = " ".join(text.split())          # one line, however many lines Puppet's text has
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"\b[a-z_][\w]*(::[\w]+)+\b|\b\d+\b", "…", text)
    text = re.sub(r"\((file|line)[^)]*\)|\bat [^ ]+:\d+(:\d+)?", "", text)
    return text[:140]


def corpus_classes(paths: list, modulepath: list = MODULEPATH) -> list:
    """Each class defined by a manifest of ``paths`` where Puppet's autoloader finds it in
    ``modulepath``."""
    out = []
    for p in paths:
        if "/manifests/" not in p:
            continue
        text = read_text(p)
        name = first_class(text) if text is not None else None
        if name and manifest_of(name, modulepath) == p:
            out.append(name.removeprefix("::").lower())
    return sorted(set(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", default="debian12", help="a built-in fact set or a facts file")
    ap.add_argument("--node", default="")
    ap.add_argument("--limit", type=int, default=0, help="only the first N classes")
    ap.add_argument("--classes", nargs="*", help="these classes instead of the corpus'")
    ap.add_argument("--cache", default="", help="Puppet's answers (default /tmp/catalog-differential-<facts>.jsonl)")
    ap.add_argument("--refresh", action="store_true", help="ask Puppet again")
    ap.add_argument("--show", type=int, default=1, help="examples per difference class")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not puppet_available():
        print("ruby/puppet not installed: nothing to compare with", file=sys.stderr)
        return 2
    ctx, problem = load_context(args.facts, args.node)
    if ctx is None:
        print(problem, file=sys.stderr)
        return 2
    if args.classes:
        classes = args.classes
    else:
        paths = corpus_files()
        if not paths:
            print("corpus not found (../shared/corpus/corpus_files.txt)", file=sys.stderr)
            return 2
        classes = corpus_classes(paths)
    if args.limit:
        classes = classes[:args.limit]
    cache = args.cache or os.path.join(tempfile.gettempdir(), f"catalog-differential-{ctx.label}.jsonl")
    answers: dict = {}
    if not args.refresh and os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            answers = {d["class"]: d for d in map(json.loads, f) if d.get("node") == ctx.node}
    todo = [c for c in classes if c not in answers]
    t0 = time.monotonic()
    if todo:
        fresh = puppet_catalogs(todo, ctx, MODULEPATH)
        with open(cache, "a", encoding="utf-8") as f:
            for c in todo:
                d = fresh.get(c, {"class": c, "ok": False, "error": {"message": "no answer from compile.rb"}})
                d["node"] = ctx.node
                answers[c] = d
                f.write(json.dumps(d) + "\n")
    puppet_s = time.monotonic() - t0

    per_class: dict = {}
    kinds: Counter = Counter()
    groups: dict = defaultdict(list)
    t0 = time.monotonic()
    for c in classes:
        pa = answers.get(c)
        if not pa or not pa.get("ok"):
            continue
        theirs = normalise(pa["resources"])
        ours, err = preview(c, ctx, MODULEPATH)
        if ours is None:
            diffs = [("compile", error_class(err or ""), f"{c}: {err}")]
            agree = 0
        else:
            diffs = compare(theirs, ours)
            bad = {d[2].split(" ", 1)[0].rstrip(":") for d in diffs if d[0] != "extra"}
            agree = sum(1 for ref in theirs if ref not in bad)
        per_class[c] = {"resources": len(theirs), "equal": agree, "differences": Counter(d[0] for d in diffs)}
        for kind, what, example in diffs:
            kinds[kind] += 1
            groups[(kind, what)].append(f"{c}: {example}" if kind != "compile" else example)
    ours_s = time.monotonic() - t0

    tried = len(classes)
    compiled = sum(1 for c in classes if answers.get(c, {}).get("ok"))
    full = sum(1 for v in per_class.values() if not v["differences"])
    resources = sum(v["resources"] for v in per_class.values())
    equal = sum(v["equal"] for v in per_class.values())
    with_kind = Counter(k for v in per_class.values() for k in v["differences"])
    summary = {"facts": ctx.label, "node": ctx.node, "classes_tried": tried, "compiled_by_puppet": compiled,
               "fully_equal": full, "resources": resources, "resources_equal": equal,
               "differences_by_kind": dict(kinds.most_common()), "classes_with_kind": dict(with_kind.most_common()),
               "puppet_seconds": round(puppet_s, 1), "puppet_ls_seconds": round(ours_s, 1)}
    if args.json:
        print(json.dumps({"summary": summary, "classes": {c: {**v, "differences": dict(v["differences"])}
                                                          for c, v in per_class.items()},
                          "difference_classes": [{"kind": k, "what": w, "count": len(ex), "examples": ex[:args.show]}
                                                 for (k, w), ex in sorted(groups.items(), key=lambda x: -len(x[1]))]},
                         indent=1, ensure_ascii=False))
        return 0
    print(f"{'class':48} {'equal':>9}  differences")
    for c, v in per_class.items():
        d = ", ".join(f"{k} {n}" for k, n in v["differences"].most_common())
        print(f"{c:48} {v['equal']:>4}/{v['resources']:<4}  {d}")
    print()
    print("Difference classes (kind, what: count; example):")
    for (k, w), ex in sorted(groups.items(), key=lambda x: (-len(x[1]), x[0])):
        print(f"  {k:13} {w}: {len(ex)}")
        for e in ex[:args.show]:
            print(f"      {e[:300]}")
    print()
    print(f"facts {ctx.label}, node {ctx.node}: {tried} classes tried, {compiled} compiled by Puppet, "
          f"{full} fully equal in puppet-ls preview ({full / compiled:.1%} of those compiled)" if compiled else "")
    print(f"resources: {equal}/{resources} equal ({equal / resources:.1%})" if resources else "")
    print("classes with a difference, by kind: " + ", ".join(f"{k} {n}" for k, n in with_kind.most_common()))
    print("differences by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    print(f"Puppet {puppet_s:.1f} s ({len(todo)} compiled now, the rest cached in {cache}); "
          f"puppet-ls {ours_s:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
