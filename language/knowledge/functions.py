"""The one declaration of every function Puppet 7 ships, for every layer.

Reads ``functions.json`` (written by ``tools/functions/generate.py`` from the installed Puppet's
function loaders) once, on first use, into frozen dataclasses, and adds the few facts Puppet
does not declare and puppet-ls needs, each kept here and nowhere else:

* **sandbox status**: which functions the evaluator runs, and which need the outside world
  (files, templates, Hiera, processes) and refuse with ``NOT_AVAILABLE_IN_SANDBOX``;
* **typed signatures for functions Puppet gives none**: a function of the 3.x API declares only
  an arity (Puppet wraps it as ``Any`` parameters), and one that needs a library this Puppet lacks
  does not load at all; puppet-ls's typing of those is written here, within Puppet's arity;
* **return types** Puppet does not declare, for static inference (Puppet's own win where it
  declares one);
* **what a call is for**: the functions called for their effect (logging, the catalog, failing),
  whose value is not worth a preview, and the iteration functions whose lambda receives the
  elements of the first argument (what type inference gives the lambda's parameters).

The evaluator registers its implementations against these declarations (``eval/registry.py``);
the static checker, hover, completion and signature help read them.  tests/knowledge/
test_function_drift.py fails when an implementation and its declaration disagree.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

DATA_FILE = "functions.json"

# Parameter kinds, with the suffix the "<Type> <name>" texts use for them.
SUFFIXES = {"required": "", "optional": "?", "repeated": "*", "required_repeated": "+"}
_KINDS = {v: k for k, v in SUFFIXES.items() if v}


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a signature: a type (Puppet's type syntax), a name and a kind."""

    name: str
    type: str
    kind: str = "required"           # required, optional, repeated (*), required_repeated (+)

    @property
    def text(self) -> str:
        """``"<Type> <name>"`` with the kind's suffix (``String paths*``)."""
        return f"{self.type} {self.name}{SUFFIXES[self.kind]}"


@dataclass(frozen=True, slots=True)
class Block:
    """The lambda a signature takes."""

    name: str
    type: str                        # a Callable type
    optional: bool = False

    @property
    def text(self) -> str:
        return f"{self.type} {self.name}{'?' if self.optional else ''}"


@dataclass(frozen=True, slots=True)
class Dispatch:
    """One way to call a function (one of Puppet's ``dispatch`` blocks)."""

    params: tuple[Param, ...]
    block: Block | None = None
    return_type: str | None = None

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if p.kind in ("required", "required_repeated"))

    @property
    def max_args(self) -> float:
        if any(p.kind in ("repeated", "required_repeated") for p in self.params):
            return float("inf")
        return len(self.params)


@dataclass(frozen=True, slots=True)
class FunctionFacts:
    """Everything puppet-ls knows about one built-in function."""

    name: str
    api: str                         # "function" (4.x), "internal" (4.x, scope-aware) or "3x"
    summary: str                     # the first sentence of Puppet's documentation
    doc: str                         # Puppet's documentation (markdown)
    dispatches: tuple[Dispatch, ...]  # as callers see them (what checks and editors read)
    puppet_dispatches: tuple[Dispatch, ...]  # as Puppet's loaders declare them
    evaluable: bool                  # the evaluator runs it (else NOT_AVAILABLE_IN_SANDBOX)
    return_type: str = ""            # a type, "=arg" (see _RETURN_TYPES below) or "" (unknown)
    load_error: str = ""             # why the installed Puppet could not load it, if it could not
    for_effect: bool = False         # called for what it does (logs, catalog, failure), not its value
    iterates: bool = False           # its lambda receives the elements of its first argument


# Functions that need the outside world: files and templates on the node or in modules, Hiera
# data, external commands.  They are known like any other function (checked, hovered, completed);
# the evaluator implements each as a refusal.
_NOT_IN_SANDBOX = frozenset("""
binary_file epp eyaml_lookup_key file find_file find_template generate hiera
hiera_array hiera_hash hiera_include hocon_data inline_template json_data lookup module_directory
template yaml_data
""".split())

# Signatures for the functions Puppet declares only an arity for (3.x API), or that this Puppet
# cannot load (scanf needs the scanf gem, eyaml_lookup_key the hiera-eyaml library): "<Type> <name>[?*+]" texts, a block as "&<Callable>
# <name>[?]".  Each stays within Puppet's arity (tests/knowledge/test_function_drift.py).  Those
# the sandbox refuses only get names: their types are what the outside world decides.
_SIGNATURES: dict[str, tuple[tuple[str, ...], ...]] = {
    "create_resources": (("Any type", "Any instances", "Any defaults?"),),
    "digest": (("String str",),),
    "eyaml_lookup_key": (("String[1] key", "Hash[String[1], Any] options", "Puppet::LookupContext context"),),
    "fail": (("Any message*",),),
    "file": (("Any paths+",),),
    "fqdn_rand": (("Any max", "Any seed?", "Any downcase?"),),
    "generate": (("Any command", "Any args*"),),
    "inline_template": (("Any templates+",),),
    "md5": (("String str",),),
    "realize": (("Any refs+",),),
    "scanf": (("String data", "String format", "&Callable block?"),),
    "sha1": (("String str",),),
    "sha256": (("String str",),),
    "shellquote": (("Any args*",),),
    "sprintf": (("String format", "Any args*"),),
    "tag": (("Any tags+",),),
    "tagged": (("Any tags+",),),
    "template": (("Any templates+",),),
}

# Return types Puppet does not declare, for static inference.  "=arg" means "String for a String
# argument, Array[String] for an Array" (the string functions map arrays).
_RETURN_TYPES: dict[str, str] = {
    "sprintf": "String", "join": "String", "md5": "String", "sha1": "String", "sha256": "String",
    "shellquote": "String", "inline_template": "String", "template": "String", "file": "String",
    "strftime": "String", "digest": "String", "generate": "String",
    "upcase": "=arg", "downcase": "=arg", "capitalize": "=arg", "camelcase": "=arg",
    "strip": "=arg", "lstrip": "=arg", "rstrip": "=arg", "chomp": "=arg", "chop": "=arg",
    "regsubst": "=arg",
    "size": "Integer[0]", "length": "Integer[0]", "versioncmp": "Integer[-1, 1]",
    "compare": "Integer[-1, 1]", "fqdn_rand": "Integer[0]", "index": "Optional[Integer[0]]",
    "empty": "Boolean", "defined": "Boolean", "tagged": "Boolean", "all": "Boolean",
    "any": "Boolean",
    "keys": "Array", "values": "Array", "split": "Array[String]", "map": "Array",
    "flatten": "Array", "sort": "Array",
    "match": "Optional[Array[Optional[String]]]", "reverse_each": "Iterator", "step": "Iterator",
    "abs": "Numeric", "ceiling": "Integer", "floor": "Integer", "round": "Integer",
    "max": "Any", "min": "Any", "type": "Type",
    "include": "Undef", "contain": "Undef", "require": "Undef", "realize": "Undef", "tag": "Undef",
}


# Functions called for their effect: a message in the log, a change to the catalog, a failure,
# or a lambda called for each element (``each`` returns its argument unchanged).
_FOR_EFFECT = frozenset("""
alert crit create_resources contain debug each emerg err fail include info notice realize require
reverse_each tag warning
""".split())

# Iteration functions whose lambda receives the elements of the first argument (for a hash, its
# [key, value] pairs); ``reduce`` (a memo first), ``with`` and ``slice`` are not among them.
_ITERATORS = frozenset("""
all any each filter group_by map partition reverse_each tree_each
""".split())


def _parse_dispatch(texts: tuple[str, ...]) -> Dispatch:
    """A dispatch from "<Type> <name>[?*+]" texts (a block as "&<Callable> <name>[?]")."""
    params = []
    block = None
    for text in texts:
        type_text, _, name = text.rpartition(" ")
        if type_text.startswith("&"):
            optional = name.endswith("?")
            block = Block(name.rstrip("?"), type_text[1:], optional)
            continue
        kind = _KINDS.get(name[-1:], "required")
        params.append(Param(name.rstrip("?*+"), type_text or "Any", kind))
    return Dispatch(tuple(params), block)


def _dispatch(d: dict) -> Dispatch:
    b = d.get("block")
    return Dispatch(tuple(Param(p["name"], p["type"], p["kind"]) for p in d["params"]),
                    Block(b["name"], b["type"], bool(b["optional"])) if b else None,
                    d.get("return_type"))


def _return_type(name: str, dispatches: tuple[Dispatch, ...]) -> str:
    declared = {d.return_type for d in dispatches}
    if len(declared) == 1 and None not in declared:
        return next(iter(declared)) or ""
    return _RETURN_TYPES.get(name, "")


@dataclass(frozen=True)
class _Data:
    puppet_version: str
    functions: dict


@cache
def _data() -> _Data:
    raw = json.loads(resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8"))
    out = {}
    for f in raw["functions"]:
        name = f["name"]
        puppet = tuple(_dispatch(d) for d in f["signatures"])
        typed = _SIGNATURES.get(name)
        seen = tuple(_parse_dispatch(t) for t in typed) if typed is not None else puppet
        out[name] = FunctionFacts(name, f["api"], f["summary"], f["doc"], seen, puppet,
                                  name not in _NOT_IN_SANDBOX, _return_type(name, puppet),
                                  f.get("load_error", ""), name in _FOR_EFFECT, name in _ITERATORS)
    return _Data(raw["puppet_version"], out)


def puppet_version() -> str:
    """The Puppet version the data was generated from."""
    return _data().puppet_version


def functions() -> dict[str, FunctionFacts]:
    """Every built-in function by name."""
    return _data().functions


def function(name: str) -> FunctionFacts | None:
    """The built-in function ``name`` (``::name`` too), or None."""
    return _data().functions.get(name.removeprefix("::"))


def overlay_names() -> dict[str, frozenset]:
    """The names each of this module's own tables mentions (for the drift test)."""
    return {"not in sandbox": _NOT_IN_SANDBOX, "signatures": frozenset(_SIGNATURES),
            "return types": frozenset(_RETURN_TYPES), "for effect": _FOR_EFFECT,
            "iterators": _ITERATORS}
