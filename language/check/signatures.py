"""Function signatures in one shape, whatever their source: the evaluator's built-in library,
Puppet-language functions in the file, and functions from the workspace index.

``Signature`` is what the argument checker, signature help and hover read.  The evaluator's
library is imported lazily (the checker needs it only when a file calls a function).  A
failure to read it is a bug, not a reason to stop checking calls silently: it surfaces as the
internal-error diagnostic of the static checks (``ide.diagnostics``), and
tests/check_static/test_signatures.py builds the signature of every built-in function.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..syntax import ast as A
from ..types import model as m
from ..types.format import type_to_string

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


def builtin_function(name: str):
    """The evaluator library's Function object for ``name`` (None when unknown)."""
    from ..eval.functions import lookup_function
    return lookup_function(name)


def builtin_function_names() -> list:
    from ..eval.functions import all_functions
    return sorted(all_functions())


def builtin_signatures(name: str) -> list | None:
    """Signatures of a built-in function from the evaluator's library, or None."""
    f = builtin_function(name)
    if f is None:
        return None
    out = []
    for d in f.dispatches:
        info = d.info()
        types = list(info.param_types)
        names = list(info.names)
        lo, hi = info.size
        params = []
        for i, (t, n) in enumerate(zip(types, names)):
            if hi == INF and i == len(names) - 1:
                kind = "repeated"
            elif i >= lo:
                kind = "optional"
            else:
                kind = "required"
            params.append(SigParam(n, t, type_to_string(t), kind))
        bt = info.block_type
        block = "none" if bt is None else ("optional" if info.block_optional else "required")
        out.append(Signature(name, tuple(params), lo, hi, block, bt,
                             type_to_string(bt) if bt is not None else ""))
    return out


def builtin_doc(name: str) -> str:
    f = builtin_function(name)
    return getattr(f, "doc", "") or "" if f is not None else ""


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
