"""Generation of type/type, type/value and value pairs for the differential test against Puppet.

Everything is generated deterministically (fixed seed) as Python terms: TypeCalls for type
references and runtime values for values. ``source`` renders a term as Puppet source text for
the oracle; the same term is built/evaluated through the type API on our side.
"""
from __future__ import annotations

import random
from typing import Any

from puppet_ls.language import types as T
from puppet_ls.language.types import values as V

C = T.TypeCall


def source(x: Any) -> str:
    """Puppet source text of a term (TypeCall or value)."""
    if isinstance(x, C):
        if not x.args:
            return x.name
        return f"{x.name}[{', '.join(source(a) for a in x.args)}]"
    if isinstance(x, list):
        return "[" + ", ".join(source(a) for a in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{source(k)} => {source(v)}" for k, v in x.items()) + "}"
    return T.format_value(x)


ATOMS = [
    C("Any"), C("Undef"), C("Default"), C("Data"), C("RichData"), C("Scalar"), C("ScalarData"),
    C("Numeric"), C("Integer"), C("Integer", (1, 10)), C("Integer", (0,)),
    C("Integer", (V.DEFAULT, 5)), C("Integer", (3, 3)), C("Integer", (-5, 5)), C("Float"),
    C("Float", (0.0, 1.5)), C("Float", (1,)), C("String"), C("String", (1, 3)), C("String", (2,)),
    C("String", (0, 0)), C("Enum", ("a", "b")), C("Enum", ("a", "abc")), C("Enum", ("A", True)),
    C("Enum", ("a",)), C("Pattern", (V.Regexp("a"),)), C("Pattern", (V.Regexp("^a"), V.Regexp("c$"))),
    C("Boolean"), C("Boolean", (True,)), C("Boolean", (False,)), C("Regexp"),
    C("Regexp", (V.Regexp("a"),)), C("SemVer"), C("SemVer", (">=1.0.0",)),
    C("SemVer", ("1.x", "3.x")), C("SemVerRange"), C("Timespan"), C("Timespan", (1, 10)),
    C("Timestamp"), C("Timestamp", (0, 100)), C("Binary"), C("URI"), C("URI", ("http://a.b",)),
    C("Sensitive"), C("Type"), C("Callable"), C("Callable", (C("String"),)),
    C("Callable", (0, 0)), C("Callable", (C("Integer"), 1, 2)), C("CatalogEntry"), C("Resource"),
    C("File"), C("File", ("/a",)), C("Resource", ("file",)), C("Class"), C("Class", ("a",)),
    C("Iterable"), C("Iterator"), C("Collection"), C("Collection", (1, 3)), C("Array"), C("Hash"),
    C("Tuple"), C("Struct"), C("Optional"), C("NotUndef"), C("Runtime"), C("Init"),
    C("Object"), C("Array", (0, 0)), C("Hash", (0, 0)), C("Error"), C("Deferred"),
    C("Runtime", ("ruby", "Foo")), C("Init", (C("Integer"),)),
]

SIMPLE = [a for a in ATOMS if a.name in (
    "Integer", "String", "Float", "Numeric", "Boolean", "Enum", "Pattern", "Undef", "Data",
    "Scalar", "ScalarData", "Any", "Regexp", "Default", "Timespan", "SemVer")]


def gen_type(rng: random.Random, depth: int = 0) -> C:
    if depth >= 2 or rng.random() < 0.45:
        return rng.choice(ATOMS if rng.random() < 0.5 else SIMPLE)
    g = lambda: gen_type(rng, depth + 1)
    k = rng.randrange(16)
    if k == 0:
        return C("Array", (g(),))
    if k == 1:
        lo = rng.randrange(0, 3)
        return C("Array", (g(), lo, lo + rng.randrange(0, 3)))
    if k == 2:
        return C("Hash", (rng.choice([C("String"), C("Integer"), C("Scalar"), g()]), g()))
    if k == 3:
        return C("Hash", (C("String"), g(), 1, rng.randrange(1, 4)))
    if k == 4:
        return C("Tuple", tuple(g() for _ in range(rng.randrange(1, 4))))
    if k == 5:
        return C("Tuple", (g(), rng.randrange(0, 2), rng.randrange(2, 4)))
    if k == 6:
        h = {"a": g()}
        if rng.random() < 0.5:
            h[C("Optional", ("b",))] = g()
        if rng.random() < 0.3:
            h["c"] = g()
        return C("Struct", (h,))
    if k == 7:
        return C("Variant", tuple(g() for _ in range(rng.randrange(2, 4))))
    if k == 8:
        return C("Optional", (g(),))
    if k == 9:
        return C("NotUndef", (g(),))
    if k == 10:
        return C("Type", (g(),))
    if k == 11:
        return C("Iterable", (g(),))
    if k == 12:
        return C("Sensitive", (g(),))
    if k == 13:
        return C("Callable", tuple(g() for _ in range(rng.randrange(1, 3))))
    if k == 14:
        return C("Callable", ([g()], g()))
    return C("Collection", (rng.randrange(0, 2), rng.randrange(2, 5)))


def narrow(rng: random.Random, t: C, depth: int = 0) -> C:
    """A type likely (not certainly) assignable to ``t``: the interesting pairs."""
    if depth > 3 or not isinstance(t, C):
        return t
    n = t.name
    if n == "Variant" and t.args:
        return narrow(rng, rng.choice(t.args), depth + 1)
    if n in ("Optional", "NotUndef", "Type", "Iterable", "Sensitive", "Array") and t.args and \
            isinstance(t.args[0], C):
        inner = narrow(rng, t.args[0], depth + 1)
        if n == "Optional" and rng.random() < 0.3:
            return inner
        return C(n, (inner,) + tuple(t.args[1:]))
    if n == "Hash" and len(t.args) >= 2 and isinstance(t.args[1], C):
        return C("Hash", (t.args[0], narrow(rng, t.args[1], depth + 1)) + tuple(t.args[2:]))
    if n == "Integer":
        return C("Integer", (rng.randrange(-3, 4), rng.randrange(4, 12)))
    if n in ("Numeric", "Scalar", "ScalarData", "Data", "RichData", "Any"):
        return rng.choice(SIMPLE + [C("Array", (C("Integer"),)), C("Hash", (C("String"), C("Data")))])
    if n == "String":
        return rng.choice([C("Enum", ("a", "bc")), C("String", (1, 2)), C("Pattern", (V.Regexp("x"),))])
    if n == "Tuple" and t.args and isinstance(t.args[0], C):
        return C("Tuple", tuple(narrow(rng, a, depth + 1) if isinstance(a, C) else a for a in t.args))
    if n == "Struct" and t.args:
        h = dict(t.args[0])
        return C("Struct", ({k: (narrow(rng, v, depth + 1) if isinstance(v, C) else v)
                             for k, v in h.items()},))
    return gen_type(rng, 2)


def gen_value(rng: random.Random, depth: int = 0) -> Any:
    k = rng.randrange(14 if depth < 2 else 10)
    if k == 0:
        return rng.choice([0, 1, -1, 3, 10, 255, -100, 2 ** 40])
    if k == 1:
        return rng.choice([0.0, 1.5, -2.25, 10.0, 1e-3])
    if k == 2:
        return rng.choice(["", "a", "abc", "A", "bc", "x1", "hello world"])
    if k == 3:
        return rng.choice([True, False])
    if k == 4:
        return None
    if k == 5:
        return rng.choice([V.DEFAULT, V.Regexp("a+"), V.Regexp("^x")])
    if k == 6:
        return rng.choice([V.Timespan.from_seconds(1), V.Timespan.from_seconds(7.5),
                           V.Timestamp.from_seconds(0), V.SemVer.parse("1.2.3"),
                           V.SemVer.parse("2.0.0-rc1"), V.SemVerRange.parse(">=1.0.0")])
    if k == 7:
        return rng.choice([V.Binary(b"abc"), V.URI("http://a.b/c"), V.Sensitive(1)])
    if k == 8:
        return T.build_type(rng.choice(ATOMS))
    if k == 9:
        return rng.choice(["a", 1, None, True])
    if k in (10, 11):
        return [gen_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    if k == 12:
        return {rng.choice(["a", "b", "c", "d"]): gen_value(rng, depth + 1)
                for _ in range(rng.randrange(0, 3))}
    return {rng.choice([1, 2, "a"]): gen_value(rng, depth + 1) for _ in range(rng.randrange(1, 3))}


def value_source(v: Any) -> str:
    if isinstance(v, T.PType):
        return T.type_to_string(v)
    if isinstance(v, V.Sensitive):
        return f"Sensitive({value_source(v.value)})"
    if isinstance(v, list):
        return "[" + ", ".join(value_source(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{value_source(k)} => {value_source(x)}" for k, x in v.items()) + "}"
    return T.format_value(v)


def generate(seed: int = 20240521, n_types: int = 1400, n_values: int = 800, n_infer: int = 300):
    """Lists of (a, b) TypeCall pairs, (TypeCall, value) pairs and values to infer."""
    rng = random.Random(seed)
    tt = []
    for i in range(n_types):
        a = gen_type(rng)
        b = narrow(rng, a) if i % 3 else gen_type(rng)
        tt.append((a, b) if i % 5 else (b, a))
    tv = [(gen_type(rng), gen_value(rng)) for _ in range(n_values)]
    vals = [gen_value(rng) for _ in range(n_infer)]
    return tt, tv, vals
