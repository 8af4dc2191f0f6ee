"""Function signatures in one shape, whatever their source: Puppet's built-in functions (their
declarations in ``knowledge/functions.py``), Puppet-language functions in the file, and
functions from the workspace index.

``Signature`` is what the argument checker, signature help and hover read.  Built-in signatures
are built once per name; tests/check_static/test_signatures.py builds the signature of every
built-in function.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..knowledge.functions import function as declared_function
from ..knowledge.functions import functions as declared_functions
from ..syntax import ast as A
from ..types import model as m
from ..types.build import build_type
from ..types.errors import TypeSystemError
from ..types.from_ast import type_call_from_text
from .analysis import has_unresolved

INF = float("inf")


@dataclass(frozen=True)
class SigParam:
    name: str
    type: m.PType | None           # None: unknown (not checked)
    type_text: str                 # as displayed
    kind: str = "required"         # required, optional, repeated


@dataclass(frozen=True)
class Signature:
    """One way to call a function."""

    name: str
    params: tuple                  # SigParam
    min_args: int
    max_args: float                # INF when repeated
    block: str = "none"            # none, optional, required
    block_type: m.PType | None = None
    block_text: str = ""
    return_text: str = ""

    def label(self) -> str:
        parts = []
        for p in self.params:
            suffix = {"optional": "?", "repeated": "*"}.get(p.kind, "")
            parts.append(f"{p.type_text} ${p.name}{suffix}".strip() if p.type_text else f"${p.name}{suffix}")
        if self.block != "none":
            parts.append(f"{self.block_text or 'Callable'} &block{'?' if self.block == 'optional' else ''}")
        ret = f" >> {self.return_text}" if self.return_text else ""
        return f"{self.name}({', '.join(parts)}){ret}"

    def param_labels(self) -> list:
        """The label of each parameter inside ``label()`` (for signature help)."""
        out = []
        for p in self.params:
            suffix = {"optional": "?", "repeated": "*"}.get(p.kind, "")
            out.append(f"{p.type_text} ${p.name}{suffix}".strip() if p.type_text else f"${p.name}{suffix}")
        if self.block != "none":
            out.append(f"{self.block_text or 'Callable'} &block{'?' if self.block == 'optional' else ''}")
        return out

    def accepts_count(self, n: int) -> bool:
        return self.min_args <= n <= self.max_args


def builtin_function_names() -> list:
    """Every built-in function Puppet ships."""
    return sorted(declared_functions())


@lru_cache(maxsize=256)
def _builtin_signatures(name: str) -> tuple | None:
    facts = declared_function(name)
    if facts is None:
        return None
    return tuple(signatures_of_dispatches(facts.name, facts.dispatches))


def signatures_of_dispatches(name: str, dispatches) -> list:
    """Signatures from declared dispatches (``knowledge.functions.Dispatch``: Puppet's
    built-in functions, Bolt's plan functions)."""
    out = []
    for d in dispatches:
        params = tuple(SigParam(p.name, _declared_type(p.type), p.type,
                                "repeated" if p.kind in ("repeated", "required_repeated") else p.kind)
                       for p in d.params)
        block = "none" if d.block is None else ("optional" if d.block.optional else "required")
        block_type = _declared_type(d.block.type) if d.block is not None else None
        out.append(Signature(name, params, d.min_args, d.max_args, block, block_type,
                             d.block.type if d.block is not None else "", d.return_type or ""))
    return out


def builtin_signatures(name: str) -> list | None:
    """Signatures of a built-in function as declared in ``knowledge/functions.py``, or None."""
    sigs = _builtin_signatures(name.lstrip(":"))
    return None if sigs is None else list(sigs)


def _declared_type(text: str) -> m.PType | None:
    """The type a declared signature names; None (not checked) when it names something this
    program does not know (``Puppet::LookupContext``, a function's recursive local alias)."""
    call = type_call_from_text(text)
    if call is None:
        return None
    try:
        t = build_type(call)
    except (TypeSystemError, RecursionError):
        return None
    return None if has_unresolved(t) else t


def builtin_doc(name: str) -> str:
    facts = declared_function(name.lstrip(":"))
    return facts.summary if facts is not None else ""


def puppet_function_signature(analysis, fdef: A.FunctionDef) -> Signature:
    """The signature of a Puppet-language function defined in the analysed file."""
    params = []
    for p in fdef.params():
        te = p.type_expr()
        t, err = analysis.type_from_expr(te) if te is not None else (m.ANY, None)
        text = te.syntax.trimmed_text() if te is not None else ""
        params.append(SigParam(p.name, t if err is None else None, text, _param_kind(p)))
    lo, hi = _arity(params)
    rt = fdef.return_type()
    return Signature(fdef.qualified_name, tuple(params), lo, hi, "optional", None, "",
                     rt.syntax.trimmed_text() if rt is not None else "")


def _param_kind(p) -> str:
    """'repeated' (captures rest), 'optional' (has a default) or 'required'."""
    if p.captures_rest:
        return "repeated"
    return "optional" if p.has_default else "required"


def _arity(params: list) -> tuple:
    """(least, most) number of arguments the parameters take."""
    lo = sum(1 for p in params if p.kind == "required")
    hi: float = INF if any(p.kind == "repeated" for p in params) else len(params)
    return lo, hi


def entity_signature(analysis, entity) -> Signature | None:
    """The signature of an indexed Puppet-language function (Ruby ones are not checked)."""
    if entity.api != "puppet":
        return None
    params = [SigParam(p.name, analysis.type_from_text(p.type_text) if p.type_text else m.ANY,
                       p.type_text, _param_kind(p)) for p in entity.params]
    lo, hi = _arity(params)
    return Signature(entity.name, tuple(params), lo, hi, "optional", None, "", entity.return_type)
