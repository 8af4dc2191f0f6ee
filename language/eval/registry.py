"""Implementing built-in functions and dispatching calls to them: the registry the evaluator
looks functions up in (the functions themselves are the library, ``eval/functions/``).

Every built-in function is *declared* once, in ``language/knowledge/functions.py`` (generated
from the installed Puppet: names, signatures, documentation, sandbox status).  The library
implements a declared function with :func:`define` and one implementation per dispatch::

    each = define("each")

    @each.dispatch("Hash hash", block="Callable[2, 2] block")
    def _(c, h): ...

``define`` takes the documentation and the sandbox status from the declaration (an undeclared
name is a programming error), and tests/knowledge/test_function_drift.py checks that the
dispatches are the declared signatures.  Parameter texts are ``"<Type> <name>"`` with an
optional suffix: ``?`` optional, ``*`` any number of repeated values, ``+`` at least one.  The implementation receives a :class:`Call`
(the evaluator, scope, block and call node) followed by the arguments.  The registry is empty
until the library is imported (``eval/functions/__init__.py`` imports its modules, each of which
declares its functions; ``eval/api.py`` imports the library).
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..knowledge.functions import function as declaration
from ..types import model as m
from ..types.guard import measure
from ..types.relations import is_assignable
from .typecheck import instance_of as is_instance
from .context import Unknown
from .errors import ArgumentsError, EvalError
from .mismatch import INF, SignatureInfo, describe_signatures
from .typetext import type_from_text
from ..messages import render

FUNCTIONS: dict[str, Function] = {}


class Call:
    """What an implementation gets besides its arguments."""

    __slots__ = ("ev", "scope", "block", "node", "name")

    def __init__(self, ev, scope, block, node, name: str):
        self.ev = ev
        self.scope = scope
        self.block = block
        self.node = node
        self.name = name

    @property
    def ctx(self):
        return self.ev.ctx

    def fail(self, message: str, code: str = "RUNTIME_ERROR") -> EvalError:
        """An error the evaluator will locate at the call (Puppet's unlocated ParseError)."""
        return EvalError(message, code)


class Dispatch:
    def __init__(self, fn: Function, params: list, block: str | None, impl: Callable):
        self.fn = fn
        self.param_texts = params
        self.block_text = block
        self.impl = impl
        self._sig: tuple | None = None

    def _compile(self) -> tuple:
        if self._sig is None:
            types, names = [], []
            lo: int = 0
            hi: float = 0  # INF for a repeated parameter
            for text in self.param_texts:
                t_text, _, name = text.rpartition(" ")
                suffix = name[-1] if name and name[-1] in "?*+" else ""
                name = name.rstrip("?*+")
                t = type_from_text(t_text) if t_text else m.ANY
                types.append(t)
                names.append(name)
                if suffix == "?":
                    hi += 1
                elif suffix == "*":
                    hi = INF
                elif suffix == "+":
                    lo += 1
                    hi = INF
                else:
                    lo += 1
                    hi += 1
            block_t = None
            block_name = "block"
            block_opt = False
            if self.block_text:
                bt, _, bn = self.block_text.rpartition(" ")
                if bn.endswith("?"):
                    block_opt = True
                    bn = bn[:-1]
                block_t = type_from_text(bt)
                block_name = bn
            self._sig = (types, names, (lo, hi), block_t, block_name, block_opt)
        return self._sig

    def info(self) -> SignatureInfo:
        types, names, size, bt, bn, bo = self._compile()
        return SignatureInfo(types, names, size, bt, bn, bo)

    def matches(self, args: list, block) -> bool:
        types, _, (lo, hi), bt, _, bopt = self._compile()
        n = len(args)
        if n < lo or n > hi:
            return False
        if types:
            last = len(types) - 1
            for i, a in enumerate(args):
                t = types[min(last, i)]
                if t is not m.ANY and not is_instance(t, a):
                    return False
        if block is None:
            return bt is None or bopt
        if bt is None:
            return False
        return block_matches(bt, block)


def block_matches(bt: m.PType, block) -> bool:
    """Does the lambda accept being called the way the signature's Callable says?"""
    if not isinstance(bt, m.CallableType) or bt.params is None:
        return True
    want = bt.params
    size = want.size_range()
    lo, hi = size[0] or 0, size[1]
    blo, bhi = block.size_range()
    if hi is None:
        if bhi != INF:
            return False
    elif not (blo <= lo and hi <= bhi):
        return False
    if not (blo <= lo):
        return False
    btypes = block.element_types()
    for i, t in enumerate(want.types):
        if i < len(btypes) and not is_assignable(btypes[i], t):
            return False
    return True


class Function:
    """A built-in function: a name, a one-line doc and its dispatches (signatures)."""

    def __init__(self, name: str, doc: str = "", sandboxed: bool = True):
        self.name = name
        self.doc = doc
        self.dispatches: list[Dispatch] = []
        self.mismatches: list[Dispatch] = []
        self.sandboxed = sandboxed

    def dispatch(self, *params: str, block: str | None = None):
        def deco(impl: Callable) -> Callable:
            self.dispatches.append(Dispatch(self, list(params), block, impl))
            return impl
        return deco

    def argument_mismatch(self, *params: str, block: str | None = None):
        """A dispatch consulted when no real one matches; its result is the error text."""
        def deco(impl: Callable) -> Callable:
            self.mismatches.append(Dispatch(self, list(params), block, impl))
            return impl
        return deco

    def signatures(self) -> list[str]:
        """Human readable signatures (for hover and completion)."""
        return [f"{self.name}({d.info().string()})" for d in self.dispatches]

    def call(self, ev, args: list, block, scope, node) -> Any:
        # Every value a function walks or returns is within the size limit (sizes are
        # remembered, so values measured when they were built cost a look-up here).
        for a in args:
            measure(a)
        for d in self.dispatches:
            if d.matches(args, block):
                result = d.impl(Call(ev, scope, block, node, self.name), *args)
                measure(result)
                return result
        for d in self.mismatches:
            if d.matches(args, block):
                msg = d.impl(Call(ev, scope, block, node, self.name), *args)
                raise ArgumentsError(render("FUNCTION_ARGUMENTS", name=self.name, msg=msg))
        if any(isinstance(a, Unknown) for a in args):
            # a preview's unknown value (a template's text) where the function wants another
            # type: what it would have given is unknown too, not an error of the manifest
            return Unknown.of_call(self.name)
        block_type = block.callable_type() if block is not None else None
        raise ArgumentsError(describe_signatures(self.name, [d.info() for d in self.dispatches],
                                                 args, block_type))


def define(name: str) -> Function:
    """Start implementing the declared built-in function ``name``."""
    facts = declaration(name)
    if facts is None:
        raise LookupError(f"{name} is not a built-in function of language/knowledge/functions.py")
    f = Function(name, facts.summary, facts.evaluable)
    FUNCTIONS[name] = f
    return f



# Functions of modules (puppetlabs-stdlib's) that previews re-implement: called only when the
# preview's modulepath has the module's function (``Settings.module_functions``), never as
# built-ins.
MODULE_FUNCTIONS: dict[str, Function] = {}


def define_module_function(name: str, doc: str) -> Function:
    """Start re-implementing the function ``name`` of a module, for previews."""
    f = Function(name, doc)
    MODULE_FUNCTIONS[name] = f
    return f


def lookup_module_function(name: str) -> Function | None:
    return MODULE_FUNCTIONS.get(name.removeprefix("::"))


def lookup_function(name: str) -> Function | None:
    f = FUNCTIONS.get(name)
    if f is None and name.startswith("::"):
        f = FUNCTIONS.get(name[2:])
    return f


def all_functions() -> dict:
    return dict(FUNCTIONS)
