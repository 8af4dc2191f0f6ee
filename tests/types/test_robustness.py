"""No input, however wrong or deeply recursive, raises anything but TypeSystemError or hangs."""
from __future__ import annotations

import time

import pytest

from puppet_ls.language import types as T
from puppet_ls.language.types import model as M
from puppet_ls.language.types import values as V

C = T.TypeCall


def _nested_call(depth: int) -> C:
    t = C("Integer")
    for _ in range(depth):
        t = C("Array", (t,))
    return t


def _nested_type(depth: int) -> M.PType:
    t: M.PType = M.INTEGER
    for _ in range(depth):
        t = M.ArrayType(t)
    return t


@pytest.mark.parametrize("depth", [50, 99, 101, 1000, 20000])
def test_deep_type_calls_give_errors_not_tracebacks(depth):
    try:
        t = T.build_type(_nested_call(depth))
    except T.TypeSystemError as exc:
        assert exc.code == "TYPE_TOO_DEEP"
    else:
        assert depth < 101 and T.is_assignable(t, t)


@pytest.mark.parametrize("depth", [10, 500, 5000])
def test_deep_types_and_values_never_raise(depth):
    start = time.monotonic()
    t = _nested_type(depth)
    v: object = 1
    for _ in range(depth):
        v = [v]
    for fn in (lambda: T.is_assignable(t, t), lambda: T.is_instance(t, v),
               lambda: T.type_to_string(t), lambda: T.infer(v), lambda: T.infer_set(v),
               lambda: T.format_value(v), lambda: T.normalize(t), lambda: T.generalize(t),
               lambda: T.common_type(t, M.STRING)):
        fn()  # must not raise
    assert time.monotonic() - start < 20


def test_self_containing_values():
    lst: list = []
    lst.append(lst)
    d: dict = {}
    d["me"] = d
    for v in (lst, d):
        T.infer(v)
        T.infer_set(v)
        T.is_instance(T.DATA, v)
        T.format_value(v)


def test_deeply_nested_argument_lists():
    arg: object = "a"
    for _ in range(50000):
        arg = [arg]
    with pytest.raises(T.TypeSystemError):
        T.build_type(C("Enum", (arg,)))


@pytest.mark.parametrize("bodies,name", [
    ({"A": C("A")}, "A"),
    ({"A": C("B"), "B": C("A")}, "A"),
    ({"A": C("Variant", (C("A"), C("Integer")))}, "A"),
    ({"A": C("Optional", (C("A"),))}, "A"),
    ({"A": C("NotUndef", (C("B"),)), "B": C("Variant", (C("A"), C("String")))}, "A"),
])
def test_aliases_that_never_resolve_are_errors(bodies, name):
    scope = M.AliasScope()
    for k, b in bodies.items():
        T.define_alias(scope, k, b)
    err = T.check_alias(scope, name)
    assert isinstance(err, T.TypeSystemError)
    alias = T.build_type(C(name), scope)
    # relations treat an unresolvable alias as an opaque reference: no exception, no hang
    assert T.is_assignable(alias, alias)
    assert not T.is_assignable(alias, M.INTEGER)
    assert not T.is_instance(alias, 1)
    T.type_to_string(alias)


def test_recursive_alias_terminates_and_works():
    scope = M.AliasScope()
    T.define_alias(scope, "Tree", C("Variant", (C("Integer"), C("Array", (C("Tree"),)))))
    T.define_alias(scope, "Tree2", C("Variant", (C("Integer"), C("Array", (C("Tree2"),)))))
    T.define_alias(scope, "Json", C("Variant", (C("ScalarData"), C("Undef"),
                                                 C("Array", (C("Json"),)),
                                                 C("Hash", (C("String"), C("Json"))))))
    tree = T.build_type(C("Tree"), scope)
    tree2 = T.build_type(C("Tree2"), scope)
    assert T.check_alias(scope, "Tree") is None
    assert T.is_instance(tree, [1, [2, [3, []]]])
    assert not T.is_instance(tree, [1, ["x"]])
    assert T.is_assignable(tree, tree2) and T.is_assignable(tree2, tree)
    assert T.is_assignable(T.DATA, T.build_type(C("Json"), scope))
    assert T.is_assignable(T.build_type(C("Json"), scope), T.DATA)
    assert T.type_to_string(tree) == "Tree"


@pytest.mark.parametrize("call", [
    C("Integer", (1, 2, 3)), C("Integer", ("a",)), C("Integer", (3, 1)), C("Float", (True,)),
    C("String", ("x",)), C("Enum", (1,)), C("Pattern", (1,)), C("Boolean", (1,)),
    C("Array", (1,)), C("Array", (C("Integer"), 1, 2, 3)), C("Hash", (C("String"),)),
    C("Hash", (1, 2, 3)), C("Tuple", (1,)), C("Struct", (1,)), C("Struct", ({1: C("Integer")},)),
    C("Variant", (1,)), C("Optional", (1,)), C("Optional", (C("Integer"), C("String"))),
    C("NotUndef", (1,)), C("Type", (1,)), C("Sensitive", (1,)), C("Iterable", (1,)),
    C("SemVer", (1,)), C("SemVer", ("bad",)), C("Timespan", ("x",)), C("Timestamp", (1, 0)),
    C("Class", (1,)), C("Resource", (1,)), C("Collection", ("a",)), C("Any", (1,)),
    C("Numeric", (1,)), C("Data", (1,)), C("Runtime", ("ruby",)), C("URI", (1,)),
    C("Object", (1,)), C("Object", ({"bogus": 1},)), C("TypeSet", (1,)), C("", ()),
    C("Callable", ("a", 1, C("Integer"))), C("Regexp", (1,)), C("Init", ()),
    C("Struct", ({"a": C("Integer"), C("Optional", ("a",)): C("String")},)),
    C("File", (1,)), C("Integer", (object(),)),
])
def test_bad_parameters_give_positioned_errors(call):
    call = C(call.name, call.args, span=(1, 2))
    try:
        T.build(call)
    except T.TypeSystemError as exc:
        assert exc.span == (1, 2) and exc.message
    # Init[] with no args is just Init; every other case must be an error
    else:
        assert call.name == "Init"


def test_values_constructors_reject_garbage():
    for fn, arg in ((V.SemVer.parse, "x.y"), (V.SemVerRange.parse, ">>1"),
                    (V.Timespan.parse, "nope"), (V.Timestamp.parse, "2020-13-45"),
                    (V.Binary.from_base64, "!!!")):
        with pytest.raises(ValueError):
            fn(arg)


def test_a_deferred_alias_body_is_made_once_when_first_needed():
    """An index's aliases are bodies made on demand (from their text): none is made before a
    check asks for it, and each at most once."""
    made = []

    def make():
        made.append("A")
        return C("Integer")
    scope = M.AliasScope({"A": M.Deferred(make), "B": M.Deferred(lambda: made.append("B"))})
    a = T.build_type(C("A"), scope)
    assert made == []
    assert T.is_assignable(a, M.IntegerType(1, 2)) and not T.is_assignable(a, M.STRING)
    assert T.check_alias(scope, "A") is None and T.is_assignable(a, M.IntegerType(1, 2))
    assert made == ["A"]


def test_redefining_an_alias_is_seen_by_cached_answers():
    scope = M.AliasScope()
    T.define_alias(scope, "A", C("B"))
    a = T.build_type(C("A"), scope)
    # B is not defined yet: A stands for the unresolved reference B
    assert T.check_alias(scope, "A") is None and not T.is_assignable(a, M.INTEGER)
    T.define_alias(scope, "B", C("Integer"))
    assert T.check_alias(scope, "A") is None and T.is_assignable(a, M.IntegerType(1, 2))
    T.define_alias(scope, "B", C("String"))
    assert not T.is_assignable(a, M.IntegerType(1, 2)) and T.is_assignable(a, M.STRING)


# Puppet 7's own text for a string no default format reads (its error lists the formats)
@pytest.mark.parametrize(("call", "message"), [
    ("Timespan['bogus']", ("Unable to parse 'bogus' using any of the formats %D-%H:%M:%S.%-N, %H:%M:%S.%-N, "
                           "%M:%S.%-N, %S.%-N, %D-%H:%M:%S, %H:%M:%S, %D-%H:%M, %S")),
    ("Timestamp['bogus']", ("Unable to parse 'bogus' using any of the formats %FT%T.%N %Z, %FT%T %Z, "
                            "%F %T.%N %Z, %F %T %Z, %F %Z, %FT%T.%N, %FT%T, %F %T.%N, %F %T, %F")),
])
def test_unparsable_time_strings_name_puppets_formats(call, message):
    from puppet_ls.language.eval import evaluate_text
    result = evaluate_text(call)
    assert not result.ok and result.error is not None
    assert result.error.message == message
