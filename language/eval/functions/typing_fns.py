"""Type related functions: ``new``, ``type``, ``assert_type``, ``convert_to``, ``unwrap``."""
from __future__ import annotations

from ...types import model as m
from ...types.algebra import generalize
from ...types.format import type_to_string
from ..convert import new_instance, parse_type_string
from ..errors import EvalError
from ..mismatch import describe_mismatch
from ..typecheck import infer_of, infer_set_of, instance_of
from ..registry import define
from ...messages import render
from ...types.relations import resolve

new = define("new")


@new.dispatch("Type type", "Any args*", block="Callable block?")
def _new(c, t, *args):
    result = new_instance(c, t, list(args))
    if c.block is not None:
        return c.block.call([result])
    return result


type_ = define("type")


@type_.dispatch("Any value", "Enum[detailed] inference_method?")
def _type_detailed(c, v, method=None):
    return infer_set_of(v)


@type_.dispatch("Any value", "Enum[reduced] inference_method")
def _type_reduced(c, v, method):
    return infer_of(v, puppet_undef=True)


@type_.dispatch("Any value", "Enum[generalized] inference_method")
def _type_generalized(c, v, method):
    return generalize(infer_of(v, puppet_undef=True))


assert_type = define("assert_type")


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
    return _assert(c, parse_type_string(c.ev, s), v)


convert_to = define("convert_to")


@convert_to.dispatch("Any value", "Type type", "Any args*", block="Callable[1,1] block?")
def _convert_to(c, v, t, *args):
    result = new_instance(c, t, [v] + list(args))
    return c.block.call([result]) if c.block is not None else result


unwrap = define("unwrap")


@unwrap.dispatch("Sensitive arg", block="Callable block?")
def _unwrap_sensitive(c, s):
    v = s.value
    return c.block.call([v]) if c.block is not None else v


@unwrap.dispatch("Any arg", block="Callable block?")
def _unwrap_any(c, v):
    return c.block.call([v]) if c.block is not None else v


annotate = define("annotate")


def _annotation_store(c) -> dict:
    """Annotations attached during this evaluation: target key -> (target, {name: value}).

    Values are keyed by identity (two equal objects are still two objects), types by value;
    the target is kept in the entry so that its identity stays unique while annotated.
    """
    return c.ev.ctx.__dict__.setdefault("_annotations", {})


def _target_key(value):
    if isinstance(value, m.PType):
        return ("type", _resolved(value))
    return ("value", id(value))


def _resolved(t):
    return resolve(t)


def _ann_name(t) -> str:
    r = _resolved(t)
    return getattr(r, "type_name", None) or type_to_string(t)


def _declared(value, ann_type):
    """The init hash an Object type declares for ``ann_type`` in its ``annotations``, or None."""
    if not isinstance(value, m.PType):
        return None
    target = _resolved(value)
    if not isinstance(target, m.ObjectType):
        return None
    want = _ann_name(ann_type)
    for k, init in target.annotations:
        if _ann_name(k) == want:
            return {n: v for n, v in init}
    return None


def _target_label(value) -> str:
    if isinstance(value, m.PType):
        return getattr(_resolved(value), "type_name", None) or type_to_string(value)
    return type_to_string(infer_of(value))


def _slot(c, value) -> dict:
    store = _annotation_store(c)
    key = _target_key(value)
    entry = store.get(key)
    if entry is None:
        entry = store[key] = (value, {})
    return entry[1]


@annotate.dispatch("Type[Annotation] type", "Any value", block="Callable[0,0] block?")
def _annotate_get(c, ann_type, value):
    slot = _slot(c, value)
    name = _ann_name(ann_type)
    if name in slot:
        return slot[name]
    init = _declared(value, ann_type)
    if init is None and c.block is not None:
        init = c.block.call([])
    if init is None:
        return None
    slot[name] = new_instance(c, ann_type, [init])
    return slot[name]


@annotate.dispatch("Type[Annotation] type", "Any value",
                   "Variant[Enum[clear], Hash[Pattern[/\\A[a-z_]\\w*\\z/], Any]] annotation_hash")
def _annotate_set(c, ann_type, value, annotation_hash):
    name = _ann_name(ann_type)
    if _declared(value, ann_type) is not None:
        # an annotation declared by the type itself cannot be changed at runtime
        what = "clear" if annotation_hash == "clear" else "redefine"
        raise EvalError(render("ATTEMPT_ANNOTATION_DECLARED_ON", what=what, name=name,
                               target_label=_target_label(value)),
                        "ARGUMENT_ERROR")
    slot = _slot(c, value)
    if annotation_hash == "clear":
        return slot.pop(name, None)
    slot[name] = new_instance(c, ann_type, [annotation_hash])
    return slot[name]


@annotate.dispatch("Type[Pcore] type", "Any value",
                   "Hash[Type[Annotation], Hash[Pattern[/\\A[a-z_]\\w*\\z/], Any]] annotations")
def _annotate_many(c, pcore, value, annotations):
    for ann_type, init in annotations.items():
        _annotate_set(c, ann_type, value, init)
    return value
