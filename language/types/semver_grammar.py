"""The grammar of SemVerRange expressions (``>=1.2 <2``, ``~1.2``, ``^1.2.3``, ``1.x``,
``1.2.3 - 2.3.4``, ``a || b``), as a small declarative lark grammar; parsing only.

The parser is built on first use, so importing puppet-ls does not pay for lark.  It gives the
range as a list of alternatives, each either ``("hyphen", low, high)`` or
``("comparators", [(op, partial), ...])``; values.py turns them into version intervals.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

# Versions may be partial (1, 1.2) and use x/X/* wildcards; a pre-release and build are only
# allowed on a full version.  Whitespace separates comparators and surrounds the hyphen.
GRAMMAR = r"""
?start: range
range: conj ("||" conj)*
conj: PARTIAL "-" PARTIAL       -> hyphen
    | comparator+               -> comparators
    |                           -> anything
comparator: OP? PARTIAL
OP: ">=" | "<=" | "~>" | ">" | "<" | "=" | "~" | "^"
PARTIAL: /(0|[1-9][0-9]*|[xX*])(\.(0|[1-9][0-9]*|[xX*])(\.(0|[1-9][0-9]*|[xX*])(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?)?)?/
%ignore /[ \t]+/
"""


class RangeSyntaxError(ValueError):
    """The text is not a version range."""


@lru_cache(maxsize=1)
def _parser():
    from lark import Lark   # lazily: only ranges pay for the import
    return Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)


@lru_cache(maxsize=1024)
def parse_range(text: str) -> tuple:
    """The alternatives of a range text (see the module docstring); RangeSyntaxError if none."""
    from lark.exceptions import LarkError
    try:
        tree = _parser().parse(text)
    except LarkError:
        raise RangeSyntaxError(text) from None
    out: list[tuple[Any, ...]] = []
    for conj in tree.children:
        if conj.data == "hyphen":
            out.append(("hyphen", str(conj.children[0]), str(conj.children[1])))
        elif conj.data == "anything":
            out.append(("comparators", ()))
        else:
            comps = []
            for comp in conj.children:
                toks = [str(t) for t in comp.children]
                comps.append((toks[0], toks[1]) if len(toks) == 2 else ("", toks[0]))
            out.append(("comparators", tuple(comps)))
    return tuple(out)
