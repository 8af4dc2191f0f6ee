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

    python3 benchmarks/preview_coverage.py [--facts debian12] [--limit N] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _corpus import corpus_files, read_texts

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import preview
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.knowledge.factsets import fact_set, fact_set_names
from puppet_ls.language.syntax import kinds as K
from puppet_ls.server.catalog_preview import manifest_of
from puppet_ls.server.factsfile import class_resolver, parameter_resolver
from puppet_ls.server.workspace import hiera_for_environment


def has_class(an) -> bool:
    return any(n.kind == K.CLASS_DEF for n in an.result.root.descendants())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", default="debian12", choices=fact_set_names())
    ap.add_argument("--limit", type=int, default=0, help="only the first N corpus files")
    ap.add_argument("--file-seconds", type=float, default=2.0, help="wall budget of one file's previews")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-modulepath", action="store_true",
                    help="each file alone: other classes' variables stay unknown")
    ap.add_argument("--no-hiera", action="store_true", help="class parameters take their defaults only")
    args = ap.parse_args()
    paths = corpus_files()
    if not paths:
        print("corpus not found (../shared/corpus/corpus_files.txt)", file=sys.stderr)
        return 2
    if args.limit:
        paths = paths[:args.limit]
    facts = fact_set(args.facts)
    assert facts is not None
    ctx = preview.make_context(facts, None, args.facts, rename=True)
    modulepath = sorted({str(Path(p).parents[2]) for p in paths if "/manifests/" in p})
    if not args.no_modulepath:
        # what the server does with its index: other classes' files, found as Puppet's autoloader finds them
        ctx.classes = class_resolver(lambda name: manifest_of(name, modulepath))
    plain = None
    if not args.no_hiera:
        # the same node without Hiera data: what previews showed before they read it
        plain = preview.make_context(facts, None, args.facts, rename=True)
        plain.classes = ctx.classes
        # no environment layer: the corpus is modules only (a folder without hiera.yaml gives none)
        hiera = hiera_for_environment("/nonexistent", modulepath)
        ctx.parameters = parameter_resolver(lambda: hiera, ctx)
    counts = {"files": len(paths), "with_class": 0, "preview_with_facts": 0, "preview_without_facts": 0,
              "preview_without_hiera": 0, "hiera_values": 0,
              "faded_branch": 0, "hint_or_faded": 0, "previews_with_facts": 0, "previews_without_facts": 0}
    t0 = time.perf_counter()
    silent = []
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
    n = counts["with_class"] or 1
    counts["share_with_facts"] = round(counts["preview_with_facts"] / n, 4)
    counts["share_without_hiera"] = round(counts["preview_without_hiera"] / n, 4)
    counts["share_without_facts"] = round(counts["preview_without_facts"] / n, 4)
    counts["share_faded"] = round(counts["faded_branch"] / n, 4)
    counts["share_hint_or_faded"] = round(counts["hint_or_faded"] / n, 4)
    counts["seconds"] = round(time.perf_counter() - t0, 1)
    counts["facts"] = args.facts
    if args.json:
        counts["silent_files"] = silent
        print(json.dumps(counts, indent=1))
    else:
        print(f"corpus files: {counts['files']}, defining a class: {counts['with_class']}")
        print(f"with fact set {args.facts}: {counts['preview_with_facts']} files show a preview "
              f"({counts['share_with_facts']:.1%}; {counts['previews_with_facts']} previews), "
              f"{counts['faded_branch']} a faded branch ({counts['share_faded']:.1%}), "
              f"{counts['hint_or_faded']} either ({counts['share_hint_or_faded']:.1%})")
        if plain is not None:
            print(f"the same without Hiera data: {counts['preview_without_hiera']} files "
                  f"({counts['share_without_hiera']:.1%}); {counts['hiera_values']} parameter values from Hiera")
        print(f"without a fact set: {counts['preview_without_facts']} files "
              f"({counts['share_without_facts']:.1%}; {counts['previews_without_facts']} previews)")
        print(f"{counts['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
