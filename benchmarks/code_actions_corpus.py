#!/usr/bin/env python3
"""Code actions on the corpus: are the quick fixes and refactors offered where they should be,
and does each leave the code better and nothing worse?

With the corpus modules as the index (as `check --modulepath /usr/share/puppet/modules`):

1. every finding of the checker with a quick fix: how many get one, and whether the preferred
   one clears it without a new finding elsewhere in the file;
2. seeded typos (``--typos N`` per kind, ``--seed``): an attribute name, a function name or a
   variable of real code with one letter dropped, doubled or two swapped; counted: the typo is
   reported, a did-you-mean is offered, and the preferred one restores the original text;
3. refactors: "document the parameters" on every class and defined type that
   ``parameter_documentation`` finds undocumented parameters in (none may be left), "one
   resource per title" on every resource with a literal title array, and "extract variable"
   on a sample of attribute values that are calls or operations (``--extracts N``): the edited
   file must parse, and have no finding the original had not.

    python3 benchmarks/code_actions_corpus.py [--files LIST] [--typos 200] [--extracts 300] [--seed 17]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _corpus import corpus_files, read_texts

from puppet_ls.language.check import analyze
from puppet_ls.language.ide.code_actions import (UNKNOWN_NAME_CODES, checker_fixes, refactors)
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.syntax import kinds as K
from puppet_ls.server.workspace import build_index

MODULES = "/usr/share/puppet/modules"
FIXED = frozenset(UNKNOWN_NAME_CODES) | {"MISSING_RESOURCE_PARAMETER"}
LINT = frozenset({"parameter_documentation"})


def edited(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[:e.start] + e.text + text[e.end:]
    return text


def diagnose(text: str, path: str, index):
    result = parse_for_path(text, path)
    an = analyze(result, index)
    return an, file_diagnostics(result, index, an, path=path, lint=LINT)


def keys(diags) -> Counter:
    return Counter((d.code, d.message) for d in diags)


def typo(word: str, rng: random.Random) -> str | None:
    if len(word) < 5:
        return None
    i = rng.randrange(1, len(word) - 1)
    how = rng.choice(("drop", "double", "swap"))
    if how == "drop":
        return word[:i] + word[i + 1:]
    if how == "double":
        return word[:i] + word[i] + word[i:]
    if word[i] == word[i + 1] if i + 1 < len(word) else True:
        return None
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def seed_sites(an, text: str) -> list:
    """(kind, start, end) of names whose typos the checker must catch: attributes of
    resources, calls of functions, references to variables defined in the file."""
    out = []
    for node in an.result.root.descendants():
        if node.kind == K.ATTRIBUTE_OP:
            t = node.first_token()
            if t is not None and t.kind == K.NAME:
                out.append(("attribute", t.offset, t.end))
    for c in an.model.calls:
        if c.form in ("call", "statement") and "::" not in c.name:
            out.append(("function", c.offset, c.end))
    for ref in getattr(an.model, "references", []):
        if getattr(ref, "target", None) is not None and "::" not in ref.name:
            s = text.find(ref.name, ref.offset, ref.end)
            if s >= 0:
                out.append(("variable", s, s + len(ref.name)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files")
    ap.add_argument("--typos", type=int, default=200)
    ap.add_argument("--extracts", type=int, default=300)
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()
    paths = corpus_files(args.files)
    if not paths:
        sys.exit("no corpus files (../shared/corpus/corpus_files.txt)")
    t0 = time.perf_counter()
    index = build_index([], [MODULES])
    texts = read_texts(paths)
    rng = random.Random(args.seed)
    stats: Counter = Counter()
    sites: list = []
    extract_sites: list = []
    for path, text in zip(paths, texts):
        an, diags = diagnose(text, path, index)
        before = keys(diags)
        # 1. quick fixes of the checker's findings (and parameter_documentation's)
        for d in diags:
            if d.code not in FIXED:
                continue
            stats[d.code, "findings"] += 1
            actions = [a for a in checker_fixes(an, [d], d.offset, d.end) if a.preferred]
            if not actions:
                continue
            stats[d.code, "offered"] += 1
            new = edited(text, actions[0].edits)
            _, after = diagnose(new, path, index)
            gone = keys(after)
            if gone[(d.code, d.message)] < before[(d.code, d.message)]:
                stats[d.code, "cleared"] += 1
            if any(n > before[k] for k, n in gone.items()):
                stats[d.code, "new findings"] += 1
        sites += [(path, text, s) for s in seed_sites(an, text)]
        # 3. refactors
        for node in an.result.root.descendants():
            if node.kind == K.RESOURCE_BODY:
                first = next(node.children(), None)
                if first is not None and first.kind == K.ARRAY:
                    stats["split", "titles"] += 1
                    acts = [a for a in refactors(an, first.range[0] + 1, first.range[0] + 1) if a.kind == "refactor.rewrite"
                            and a.title.startswith("Declare")]
                    if acts:
                        stats["split", "offered"] += 1
                        _, after = diagnose(edited(text, acts[0].edits), path, index)
                        stats["split", "new findings"] += any(n > before[k] for k, n in keys(after).items())
            elif node.kind == K.ATTRIBUTE_OP:
                children = list(node.children())
                if children and children[-1].kind in (K.CALL_EXPR, K.BINARY_EXPR, K.SELECTOR_EXPR, K.ACCESS_EXPR):
                    extract_sites.append((path, text, children[-1].range))
        # one "document the parameters" per definition: its first finding
        firsts: dict = {}
        for d in diags:
            if d.code == "parameter_documentation":
                firsts.setdefault(d.message.split(" of this ")[0].rsplit("::", 1)[0], d)
        for owner, d in firsts.items():
            acts = [a for a in checker_fixes(an, [d], d.offset, d.end) if a.title.startswith("Document")]
            stats["document", "definitions"] += 1
            if not acts:
                continue
            stats["document", "offered"] += 1
            _, after = diagnose(edited(text, acts[0].edits), path, index)
            stats["document", "all documented"] += not any(
                x.code == "parameter_documentation" and x.message.split(" of this ")[0].rsplit("::", 1)[0] == owner
                for x in after)
            stats["document", "new findings"] += any(n > before[k] for k, n in keys(after).items()
                                                     if k[0] != "parameter_documentation")
    # 2. seeded typos
    by_kind: dict = {}
    for s in sites:
        by_kind.setdefault(s[2][0], []).append(s)
    for kind, lst in sorted(by_kind.items()):
        rng.shuffle(lst)
        tried = 0
        for path, text, (_, s, e) in lst:
            if tried >= args.typos:
                break
            word = text[s:e]
            bad = typo(word, rng)
            if bad is None:
                continue
            new = text[:s] + bad + text[e:]
            an, diags = diagnose(new, path, index)
            if an.result.errors:
                continue
            tried += 1
            stats[kind, "typos"] += 1
            at = [d for d in diags if d.code in UNKNOWN_NAME_CODES and d.offset <= s < max(d.end, d.offset + 1)]
            if not at:
                continue
            stats[kind, "reported"] += 1
            acts = [a for a in checker_fixes(an, at, s, s) if a.preferred]
            if acts:
                stats[kind, "offered"] += 1
                stats[kind, "restored"] += edited(new, acts[0].edits) == text
    rng.shuffle(extract_sites)
    for path, text, (s, e) in extract_sites[:args.extracts]:
        an, diags = diagnose(text, path, index)
        stats["extract", "selections"] += 1
        acts = [a for a in refactors(an, s, e) if a.kind == "refactor.extract"]
        if acts:
            stats["extract", "offered"] += 1
            new = edited(text, acts[0].edits)
            _, after = diagnose(new, path, index)
            stats["extract", "new findings"] += any(n > keys(diags)[k] for k, n in keys(after).items())
    print(f"{len(paths)} files, {time.perf_counter() - t0:.0f} s")
    groups: dict = {}
    for (group, what), n in stats.items():
        groups.setdefault(group, {})[what] = n
    for group in sorted(groups):
        print(f"{group}: " + ", ".join(f"{what} {n}" for what, n in groups[group].items()))


if __name__ == "__main__":
    main()
