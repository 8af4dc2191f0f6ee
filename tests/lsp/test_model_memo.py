"""The semantic model built with the memo of the revision before (the statements an edit did not
touch are replayed, not walked again) equals the model built from nothing, over random edits of
the bundled examples, the editor demo file and, when the corpus is installed, some of its largest
manifests: the same scopes, definitions, references (and what they resolve to), named things,
calls, resources and type references, holding the same nodes (same green node, offset and
parents up to the root), shared between items exactly as a fresh walk shares them."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.check import Analysis, ModelMemo, analyze
from puppet_ls.language.check.scopes import FileModel
from puppet_ls.language.ide.semantic_tokens import semantic_tokens
from puppet_ls.language.syntax.parser import parse
from tests.corpus import corpus_files
from tests.edits import undoing_edits

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "examples").rglob("*.pp")) + [ROOT / "tests" / "editors" / "demo.pp"]
EDITS = ["x", "$a", " ", "\n", "'", '"', "{", "}", "$x = 1\n", "(", "=>", "# c\n", "if $y { }\n",
         "$y.each |$k| { $k }\n", "class q ($p = $x) { $p }\n", "define d::e (String $n) { $n }\n",
         "notify { 'n': message => $a }\n", ", Integer $z = 1", "[$a, $b] = $c\n", "${", ""]


def dump(model: FileModel) -> list:
    """Everything in ``model``, with nodes as (green identity, offset, index) up to the root,
    scopes and definitions as their positions in the model's lists, and node objects as the
    order they are first met (so that items sharing one node in a fresh walk must share it)."""
    seen: dict = {}
    scopes = {id(s): i for i, s in enumerate(model.scopes)}
    defs = {id(d): i for i, d in enumerate(model.definitions)}

    def node(n):
        if n is None:
            return None
        shared = seen.setdefault(id(n), len(seen))
        chain = []
        while n is not None:
            chain.append((id(n.green), n.offset, n.index))
            n = n.parent
        return shared, tuple(chain)

    def scope(s):
        return None if s is None else scopes[id(s)]

    out: list = [[(s.kind, s.name, node(s.node), scope(s.parent), s.start, s.end, s.parent_class,
                   [(name, [defs[id(d)] for d in ds]) for name, ds in s.variables.items()],
                   [scope(c) for c in s.children]) for s in model.scopes]]
    out.append([(d.name, d.kind, d.offset, d.end, scope(d.scope), node(d.node), d.index)
                for d in model.definitions])
    out.append([(r.name, r.offset, r.end, scope(r.scope), node(r.node), r.status,
                 None if r.target is None else defs[id(r.target)]) for r in model.references])
    out.append([(n.kind, n.name, node(n.node), n.offset, n.end, scope(n.scope)) for n in model.named])
    out.append([(c.name, c.offset, c.end, node(c.node), c.form, scope(c.scope)) for c in model.calls])
    out.append([(t.name, t.offset, t.end, node(t.node)) for t in model.type_refs])
    out.append([(x.type_name, x.offset, x.end, node(x.node), scope(x.scope)) for x in model.resources])
    return out


def _check_edits(text: str, seed: str, edits: int) -> None:
    first = parse(text)
    memo = ModelMemo()
    FileModel(first, memo)
    replayed = 0
    for at, end, piece, result in undoing_edits(first, seed, EDITS, edits):
        before = dict(memo.entries)
        remembered = FileModel(result, memo)
        replayed += sum(1 for k, v in memo.entries.items() if before.get(k) is v)
        assert dump(remembered) == dump(FileModel(result)), (at, end, piece)
        assert semantic_tokens(Analysis(result, None, remembered)) == semantic_tokens(analyze(result)), \
            (at, end, piece)
    if len(text) > 1500:   # (in a small file, a reparse often takes in every statement)
        assert replayed, "no statement was ever replayed"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_memo_gives_the_same_model(path: Path) -> None:
    _check_edits(path.read_text(encoding="utf-8"), path.name, 40)


def _largest_corpus_manifests(n: int) -> list:
    files = [f for f in corpus_files() if f.endswith(".pp")]
    return sorted(files, key=lambda f: -Path(f).stat().st_size)[:n]


@pytest.mark.parametrize("index", range(6))
def test_memo_gives_the_same_model_on_corpus_files(index: int) -> None:
    files = _largest_corpus_manifests(6)
    if index >= len(files):
        pytest.skip("the corpus is not installed (bash ../shared/corpus/corpus.sh)")
    path = Path(files[index])
    _check_edits(path.read_text(encoding="utf-8", errors="replace"), path.name + "/typing", 20)
