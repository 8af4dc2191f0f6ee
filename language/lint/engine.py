"""Running the style checks on one parsed file: the shared token pass, the shared tree walk,
and the per-file checks, each only for the enabled checks."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ..diagnostics import Diagnostic, Fix
from ..syntax import kinds as K
from ..syntax.parser import ParseResult, gc_paused
from ..syntax.tree import SyntaxNode
from .registry import FILE_HANDLERS, NODE_HANDLERS, OPTIONS, TOKEN_HANDLERS
from .tokens import TokenView

# Nodes every run collects (in its one walk of the tree) for the checks that look at
# definitions as a whole.
STRUCTURE = frozenset({K.CLASS_DEF, K.DEFINE_DEF})


class LintContext:
    """What a check sees: the text, its path (for the autoloader layout), the tree, the
    token view; ``report`` records a finding of the check being run."""
    __slots__ = ("text", "path", "result", "root", "view", "findings", "current", "cache", "nodes", "options")

    def __init__(self, result: ParseResult, path: str, node_kinds: frozenset = frozenset(),
                 options: frozenset = frozenset()):
        self.text = result.text
        self.path = path
        self.result = result
        self.root = result.root
        self.view = TokenView(result.text, result.green, nodes=node_kinds | STRUCTURE)
        self.findings: list[Diagnostic] = []
        self.current = ""
        self.cache: dict = {}
        self.nodes: list[SyntaxNode] = self.view.nodes   # the nodes checks need, in source order
        self.options = options                          # registry.OPTIONS that are on

    def report(self, offset: int, end: int | None = None, check: str | None = None,
               fix: Fix | None = None, **args) -> None:
        code = check or self.current
        d = Diagnostic.of(code, offset, offset if end is None else end, **args)
        self.findings.append(d if fix is None else replace(d, fix=fix))


def _handlers(table: dict, enabled: frozenset) -> dict:
    out: dict = {}
    for key, items in table.items():
        chosen = [(n, f) for n, f in items if n in enabled]
        if chosen:
            out[key] = chosen
    return out


@lru_cache(maxsize=16)
def _plan(enabled: frozenset) -> tuple[dict, dict, list]:
    """The handlers to call for a set of enabled checks (the same few sets recur)."""
    return (_handlers(TOKEN_HANDLERS, enabled), _handlers(NODE_HANDLERS, enabled),
            [(n, f) for n, f in FILE_HANDLERS if n in enabled])


def run_checks(result: ParseResult, path: str, enabled: frozenset) -> list[Diagnostic]:
    # Like parsing, a run makes many small objects and no cycles: the collector's passes over
    # the trees alive around it would cost more than the checks.
    with gc_paused():
        return _run(result, path, enabled)


def _run(result: ParseResult, path: str, enabled: frozenset) -> list[Diagnostic]:
    token_handlers, node_handlers, file_handlers = _plan(enabled)
    ctx = LintContext(result, path, frozenset(node_handlers), enabled & OPTIONS)
    if token_handlers:
        get = token_handlers.get
        for i, tok in enumerate(ctx.view.toks):
            hs = get(tok[0])
            if hs is not None:
                for name, fn in hs:
                    ctx.current = name
                    fn(ctx, i, tok)
    if node_handlers:
        for node in ctx.nodes:
            for name, fn in node_handlers.get(node.kind, ()):
                ctx.current = name
                fn(ctx, node)
    for name, fn in file_handlers:
        ctx.current = name
        fn(ctx)
    return ctx.findings
