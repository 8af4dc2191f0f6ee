"""Type related functions: ``new``, ``type``, ``assert_type``, ``convert_to``, ``unwrap``."""
from __future__ import annotations

from ...types import model as m
from ...types.algebra import generalize
from ..convert import new_instance
from ..errors import EvalError
from ..mismatch import describe_mismatch
from ..typecheck import infer_of, infer_set_of, instance_of
from . import define

new = define("new", "Creates a new instance of a type (calling the type is the same).")


@new.dispatch("Type type", "Any args*", block="Callable block?")
def _new(c, t, *args):
    result = new_instance(c, t, list(args))
    if c.block is not None:
        return c.block.call([result])
    return result


type_ = define("type", "The type of a value (detailed, reduced or generalized).")


@type_.dispatch("Any value", "Enum[detailed] inference_method?")
def _type_detailed(c, v, method=None):
    return infer_set_of(v)


@type_.dispatch("Any value", "Enum[reduced] inference_method")
def _type_reduced(c, v, method):
    return infer_of(v)


@type_.dispatch("Any value", "Enum[generalized] inference_method")
def _type_generalized(c, v, method):
    return generalize(infer_of(v))


assert_type = define("assert_type", "Returns the value if it is an instance of the type, else fails.")


def _assert(c, t, v):
    if instance_of(t, v):
        return v
    inferred = infer_set_of(v)
    if c.block is not None:
        return c.block.call([t, inferred])
    raise EvalError(describe_mismatch("assert_type():", t, inferred))


@assert_type.dispatch("Type type", "Any value", block="Callable[Type, Type] block?")
def _assert_type(c, t, v):
    return _assert(c, t, v)


@assert_type.dispatch("String type_string", "Any value", block="Callable[Type, Type] block?")
def _assert_type_s(c, s, v):
    from ..convert import parse_type_string
    return _assert(c, parse_type_string(c.ev, s), v)


convert_to = define("convert_to", "Converts a value to the given type (new with the value first).")


@convert_to.dispatch("Any value", "Type type", "Any args*", block="Callable[1,1] block?")
def _convert_to(c, v, t, *args):
    result = new_instance(c, t, [v] + list(args))
    return c.block.call([result]) if c.block is not None else result


unwrap = define("unwrap", "The value inside a Sensitive (other values as they are).")


@unwrap.dispatch("Sensitive arg", block="Callable block?")
def _unwrap_sensitive(c, s):
    v = s.value
    return c.block.call([v]) if c.block is not None else v


@unwrap.dispatch("Any arg", block="Callable block?")
def _unwrap_any(c, v):
    return c.block.call([v]) if c.block is not None else v


# annotate needs Puppet's Annotation object types, which the type system does not model yet:
# declared (for completion and checking of the call's shape) but refused with a clear message.
annotate = define("annotate", "Adds, reads or clears annotations (Annotation objects) of a value.")


@annotate.dispatch("Type type", "Any value", "Any annotation_hash?", block="Callable[0,0] block?")
def _annotate(c, type_, value, annotation_hash=None):
    raise EvalError("The function 'annotate' is not supported by this evaluator (Annotation "
                    "types are not modelled)", "NOT_AVAILABLE_IN_SANDBOX")
