"""Control flow and small core functions: ``fail``, ``break``, ``next``, ``return``,
``with``, ``then``, ``lest``, ``call``, ``getvar``, ``import``.
"""
from __future__ import annotations

import re

from ..errors import BreakSignal, EvalError, NextSignal, ReturnSignal
from ..scope import MISSING
from ..stringconv import to_s
from ..registry import define, lookup_function
from ...messages import render
from .collections import dig_dotted

fail = define("fail")


@fail.dispatch("Any message*")
def _fail(c, *message):
    raise EvalError(" ".join(to_s(m) for m in message), "RUNTIME_ERROR")


_break = define("break")


@_break.dispatch()
def _do_break(c):
    raise BreakSignal(None, *c.node.range)


_next = define("next")


@_next.dispatch("Any value?")
def _do_next(c, value=None):
    raise NextSignal(value, *c.node.range)


_return = define("return")


@_return.dispatch("Any value?")
def _do_return(c, value=None):
    raise ReturnSignal(value, *c.node.range)


with_ = define("with")


@with_.dispatch("Any arg*", block="Callable block")
def _with(c, *args):
    return c.block.call(list(args))


then = define("then")


@then.dispatch("Any arg", block="Callable[1,1] block")
def _then(c, arg):
    if arg is None:
        return None
    return c.block.call([arg])


lest = define("lest")


@lest.dispatch("Any arg", block="Callable[0,0] block")
def _lest(c, arg):
    if arg is None:
        return c.block.call([])
    return arg


call = define("call")


@call.dispatch("String function_name", "Any arguments*", block="Callable block?")
def _call(c, function_name, *arguments):
    if lookup_function(function_name) is None and c.ev.ctx.functions.get(function_name) is None:
        raise EvalError(render("CALL_UNKNOWN_FUNCTION", function_name=function_name))
    return c.ev.call_function(function_name, list(arguments), None, c.node, c.scope, c.node,
                              block=c.block)


@call.dispatch("Deferred deferred")
def _call_deferred(c, deferred):
    args = list(deferred.arguments or ())
    return c.ev.call_function(deferred.name, args, None, c.node, c.scope, c.node)


imp = define("import")


@imp.dispatch("Any args*")
def _import(c, *args):
    raise EvalError(render("DISCONTINUED_IMPORT"), "DISCONTINUED_IMPORT")


# ---- getvar -----------------------------------------------------------------------------------

getvar = define("getvar")

_VAR_START = re.compile(r"^(::)?(([a-z]\w*::)*[a-z_]\w*|\d+)(?=\.|$)")


@getvar.dispatch("Pattern[/\\A(?:::)?(?:[a-z]\\w*::)*[a-z_]\\w*(?:\\..*)?\\z/] get_string",
                 "Any default_value?", block="Callable[1,1] block?")
def _getvar(c, get_string, default_value=None):
    return _getvar_impl(c, get_string, default_value)


@getvar.dispatch("Pattern[/\\A(?:::)?(?:[a-z]\\w*::)*[a-z_]\\w*(?:\\..*)?\\z/] get_string",
                 "Any default_value?")
def _getvar2(c, get_string, default_value=None):
    return _getvar_impl(c, get_string, default_value)


@getvar.dispatch("String get_string", "Any default_value?", block="Callable[1,1] block?")
def _getvar_bad(c, get_string, default_value=None):
    raise EvalError(render("GETVAR_GIVEN_STRING_DOES_NOT"))


def _getvar_impl(c, get_string, default_value):
    mt = re.match(r"^((?:::)?(?:[a-z]\w*::)*[a-z_]\w*)", get_string)
    if not mt:
        raise EvalError(render("GETVAR_GIVEN_STRING_DOES_NOT"))
    name = mt.group(1)
    rest = get_string[mt.end():]
    if rest and not rest.startswith("."):
        raise EvalError(render("FIRST_CHARACTER_AFTER_VAR_NAME", value=rest[0]))
    v = c.scope.lookup(name)
    if v is MISSING:
        return default_value
    return dig_dotted(c, v, rest[1:], default_value, from_getvar=True)


def _default(c, default_value, text):
    if c.block is not None:
        return c.block.call([None])
    return default_value
