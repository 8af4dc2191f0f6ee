#!/usr/bin/env python3
"""Preview coverage on real module code (issue 16, acceptance 2): of the corpus files that
define a class, the share that show at least one evaluated preview (an inlay hint) with a
built-in fact set chosen, beside the same share without a fact set (what previews did before
they knew facts), measured in the same run.  Also counted: files with a faded branch (a
``case``/``if``/selector whose choice the fact set decides).

Previews are computed as the server computes them (``language/ide/preview.previews`` and
``branches``), in this process, with the server's default budget per expression and a wall
budget per file (``--file-seconds``).  Class parameters take the values Hiera gives them (the
corpus modules' own data: each module's ``hiera.yaml`` layer, as the server reads a modulepath),
and the share is also given without Hiera, in the same run (``--no-hiera`` skips Hiera).

With ``--why``, each file that shows nothing is given the reason that comes first in
``REASONS`` among the reasons of its candidate expressions (what the inlay hints would be
shown for): a fact the set lacks, a class parameter without a default, another class's
variable, a built-in variable, a lambda's parameter, a module function (never run), a
function that needs the outside world, or nothing but literals to evaluate.

External facts: the corpus modules' own ``facts.d`` folders are read as the server reads them
(Puppet's pluginsync gives them to every agent); ``--external-facts DIR`` adds a folder, and
``--packaged-facts`` adds the external fact files the corpus's Debian packages install in
``/etc/facter/facts.d`` (where Debian puts a module's ``facts.d``: openstacklib's
``os_service_default``).

    python3 benchmarks/preview_coverage.py [--facts debian12|FACTS_FILE] [--external-facts DIR]
        [--packaged-facts] [--limit N] [--why] [--json]
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _corpus import corpus_files, packaged_external_facts, read_texts

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import preview
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.knowledge.factsets import fact_set_names
from puppet_ls.language.syntax import ast as A
from puppet_ls.language.syntax import kinds as K
from puppet_ls.server.catalog_preview import manifest_of
from puppet_ls.server.factsfile import class_resolver, load_context, parameter_resolver
from puppet_ls.server.workspace import hiera_for_environment


def has_class(an) -> bool:
    return any(n.kind == K.CLASS_DEF for n in an.result.root.descendants())


# Why a file shows nothing, the first that applies (see the docstring).
REASONS = ("fact the set lacks", "class parameter without a default", "another class's variable",
           "built-in variable", "lambda parameter", "module function (not run)",
           "function needing the outside world", "evaluation failed", "nothing but literals")


def _value_of(node):
    """The expression a candidate statement would be previewed for (None: a literal)."""
    view = A.view(node)
    if node.kind == K.ATTRIBUTE_OP:
        v = A.AttributeOp(node).value()
    elif node.kind == K.ASSIGNMENT:
        v = A.Assignment(node).right()
    elif node.kind == K.PARAM:
        v = A.Param(node).default()
    else:
        v = view
    return None if v is None or preview._trivial(v) else v.syntax


def _blockers(deps, start: int, end: int, seen: set, depth: int = 0) -> set:
    """The unknown inputs an expression reads, followed through parameters' defaults and
    the assignments of variables to where they come from."""
    out: set = set()
    if depth > 20:
        return out
    for r in deps.free_references(start, end):
        if deps._collect(r.offset, r.end, {}, 0):
            continue
        d = r.target
        name = r.name.lstrip(":")
        if d is None:
            if r.status == "builtin":
                out.add(("built-in variable", name))
            elif "::" in name:
                out.add(("another class's variable", name.rpartition("::")[0]))
            elif r.status.startswith("inherited"):
                out.add(("another class's variable", r.status.split(":", 1)[1]))
            else:
                out.add(("fact the set lacks", name))
            continue
        if (d.offset, d.kind) in seen:
            continue
        seen.add((d.offset, d.kind))
        source = None
        if d.kind == "parameter":
            source = A.Param(d.node).default()
            if source is None:
                out.add(("class parameter without a default", "") if d.scope.kind == "class" else
                        ("evaluation failed", f"{d.scope.kind} parameter"))
                continue
        elif d.kind == "variable" and d.node.kind == K.ASSIGNMENT:
            source = A.Assignment(d.node).right()
        elif d.kind == "lambda_parameter":
            out.add(("lambda parameter", name))
            continue
        if source is None:
            out.add(("evaluation failed", f"{d.kind} ${name}"))
            continue
        out |= _blockers(deps, source.syntax.offset, source.syntax.end, seen, depth + 1) \
            or {("evaluation failed", f"${name}")}
    return out


def silence_reasons(an, ctx) -> set:
    """Why no candidate expression of a silent file gives a preview."""
    out: set = set()
    budget = preview.PreviewBudget(context=ctx)
    for c in preview._candidates(an.result.root, 0, len(an.result.text)):
        node = _value_of(c)
        if node is None:
            continue
        deps = preview._Deps(an, ctx)
        found = _blockers(deps, node.offset, node.end, set())
        if not found:
            closure = deps.static_closure(node.offset, node.end)
            program = preview._program(an, closure, node.trimmed_text(), deps.prelude()) \
                if closure is not None else None
            ok, error = False, "variables of different scopes share a name"
            if program is not None:
                ok, _v, _t, error = preview.evaluate_source(program, budget)
            if ok:
                found = {("evaluation failed", "a value not shown")}
            elif "Unknown function" in error:
                found = {("module function (not run)", error.split("'")[1] if "'" in error else "")}
            elif "not available" in error:
                found = {("function needing the outside world", "")}
            else:
                found = {("evaluation failed", error[:60])}
        out |= found
    return out or {("nothing but literals", "")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", default="debian12",
                    help=f"a built-in fact set ({', '.join(fact_set_names())}) or a facts file (facter --json)")
    ap.add_argument("--why", action="store_true", help="count the reasons of the files that show nothing")
    ap.add_argument("--limit", type=int, default=0, help="only the first N corpus files")
    ap.add_argument("--file-seconds", type=float, default=2.0, help="wall budget of one file's previews")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-modulepath", action="store_true",
                    help="each file alone: other classes' variables stay unknown")
    ap.add_argument("--no-hiera", action="store_true", help="class parameters take their defaults only")
    ap.add_argument("--external-facts", action="append", default=[], metavar="DIR",
                    help="a folder of external facts the nodes also have (Facter's facts.d; repeatable), "
                         "as `check`/`preview --external-facts` and puppet.previews.externalFacts take it; "
                         "the corpus modules' own facts.d folders are always read")
    ap.add_argument("--packaged-facts", action="store_true",
                    help="also the external fact files the corpus's Debian module packages install in "
                         "/etc/facter/facts.d (their modules' facts.d, moved there by Debian)")
    args = ap.parse_args()
    paths = corpus_files()
    if not paths:
        print("corpus not found (../shared/corpus/corpus_files.txt)", file=sys.stderr)
        return 2
    if args.limit:
        paths = paths[:args.limit]
    modulepath = sorted({str(Path(p).parents[2]) for p in paths if "/manifests/" in p})
    external = list(args.external_facts)
    packaged: list = []
    if args.packaged_facts:
        # only the packages' own files, copied to a folder of their own
        packaged = packaged_external_facts()
        folder = tempfile.mkdtemp(prefix="puppet-ls-packaged-facts-")
        for f in packaged:
            shutil.copy(f, folder)
        external.append(folder)
    ctx, problem = load_context(args.facts, modulepath=[] if args.no_modulepath else modulepath,
                                external=external)
    if args.packaged_facts:
        shutil.rmtree(folder)
    if ctx is None or problem:
        print(problem, file=sys.stderr)
        return 2
    facts = ctx.facts
    if not args.no_modulepath:
        # what the server does with its index: other classes' files, found as Puppet's autoloader finds them
        ctx.classes = class_resolver(lambda name: manifest_of(name, modulepath))
    plain = None
    if not args.no_hiera:
        # the same node without Hiera data: what previews showed before they read it
        plain = preview.make_context(facts, ctx.node, ctx.label)
        plain.classes = ctx.classes
        # no environment layer: the corpus is modules only (a folder without hiera.yaml gives none)
        hiera = hiera_for_environment("/nonexistent", modulepath)
        ctx.parameters = parameter_resolver(lambda: hiera, ctx)
    counts = {"files": len(paths), "with_class": 0, "preview_with_facts": 0, "preview_without_facts": 0,
              "preview_without_hiera": 0, "hiera_values": 0,
              "faded_branch": 0, "hint_or_faded": 0, "previews_with_facts": 0, "previews_without_facts": 0}
    t0 = time.perf_counter()
    silent = []
    why: dict = {}
    details: dict = {}
    for path, text in zip(paths, read_texts(paths)):
        an = analyze(parse_for_path(text, path))
        if not has_class(an):
            continue
        counts["with_class"] += 1
        with_facts = preview.previews(an, 0, len(text), preview.PreviewBudget(total_seconds=args.file_seconds,
                                                                              context=ctx))
        without = preview.previews(an, 0, len(text), preview.PreviewBudget(total_seconds=args.file_seconds))
        faded = preview.branches(an, 0, len(text), preview.PreviewBudget(total_seconds=args.file_seconds,
                                                                         context=ctx))
        if plain is not None:
            counts["preview_without_hiera"] += bool(preview.previews(
                an, 0, len(text), preview.PreviewBudget(total_seconds=args.file_seconds, context=plain)))
            counts["hiera_values"] += sum(1 for p in with_facts if p.origin.startswith("hiera "))
        counts["previews_with_facts"] += len(with_facts)
        counts["previews_without_facts"] += len(without)
        counts["preview_with_facts"] += bool(with_facts)
        counts["preview_without_facts"] += bool(without)
        counts["faded_branch"] += bool(faded)
        counts["hint_or_faded"] += bool(with_facts or faded)
        if not with_facts:
            silent.append(path)
            if args.why:
                found = silence_reasons(an, ctx)
                kinds = {k for k, _ in found}
                first = next(r for r in REASONS if r in kinds)
                why[first] = why.get(first, 0) + 1
                for k, detail in found:
                    details[f"{k}: {detail}" if detail else k] = details.get(f"{k}: {detail}" if detail else k, 0) + 1
    n = counts["with_class"] or 1
    counts["share_with_facts"] = round(counts["preview_with_facts"] / n, 4)
    counts["share_without_hiera"] = round(counts["preview_without_hiera"] / n, 4)
    counts["share_without_facts"] = round(counts["preview_without_facts"] / n, 4)
    counts["share_faded"] = round(counts["faded_branch"] / n, 4)
    counts["share_hint_or_faded"] = round(counts["hint_or_faded"] / n, 4)
    counts["seconds"] = round(time.perf_counter() - t0, 1)
    counts["facts"] = args.facts
    counts["external_facts"] = args.external_facts
    counts["packaged_facts"] = packaged
    if args.why:
        counts["silent_reasons"] = {r: why[r] for r in REASONS if r in why}
        counts["silent_details"] = dict(sorted(details.items(), key=lambda kv: -kv[1])[:30])
    if args.json:
        counts["silent_files"] = silent
        print(json.dumps(counts, indent=1))
    else:
        print(f"corpus files: {counts['files']}, defining a class: {counts['with_class']}")
        extra = [*args.external_facts, *packaged]
        if extra:
            print(f"external facts beside the modules' facts.d: {', '.join(extra)}")
        print(f"with fact set {args.facts}: {counts['preview_with_facts']} files show a preview "
              f"({counts['share_with_facts']:.1%}; {counts['previews_with_facts']} previews), "
              f"{counts['faded_branch']} a faded branch ({counts['share_faded']:.1%}), "
              f"{counts['hint_or_faded']} either ({counts['share_hint_or_faded']:.1%})")
        if plain is not None:
            print(f"the same without Hiera data: {counts['preview_without_hiera']} files "
                  f"({counts['share_without_hiera']:.1%}); {counts['hiera_values']} parameter values from Hiera")
        print(f"without a fact set: {counts['preview_without_facts']} files "
              f"({counts['share_without_facts']:.1%}; {counts['previews_without_facts']} previews)")
        if args.why:
            print(f"files that show nothing, by first reason ({len(silent)}):")
            for r, k in counts["silent_reasons"].items():
                print(f"  {k:5} {r}")
            print("most frequent inputs:")
            for r, k in counts["silent_details"].items():
                print(f"  {k:5} {r}")
        print(f"{counts['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
