"""The evaluation-free checks of one file: undefined variables, unknown functions, classes,
resource types and data types, argument counts and types of calls to built-in functions and to
the file's (and workspace's) own functions, unknown parameters of classes and defined types,
and defaults of typed parameters that their type rejects.

Every finding is chosen so that it cannot be a false alarm:
* "unknown" findings are warnings, made only when the index covers the place the name would
  be defined (a qualified name whose module was indexed, or any name when the whole modulepath
  was indexed);
* type findings are made only for *constant* values (literals) checked against types that are
  fully known (no unresolved names);
* an undefined variable is only reported inside a class, defined type, function or plan, when
  it is not a parameter, a built-in variable, a fact, a top-scope variable or something a
  parent class may define.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..knowledge.resource_types import metaparameters, resource_type
from ..syntax import ast as A
from ..syntax import kinds as K
from ..types import model as m
from ..types.algebra import generalize, infer_set
from ..types.build import BUILTIN_RESOURCE_TYPES
from ..types.format import format_value, type_to_string
from ..types.relations import is_instance
from . import bolt
from .analysis import NOT_CONST, Analysis, has_unresolved
from .builtins import BUILTIN_VARIABLES, is_core_fact
from .scopes import Named
from .tasks import check_run_task
from .signatures import INF, builtin_signatures, entity_signature, puppet_function_signature

# the data type names Puppet knows (read by the quick fixes of UNDEFINED_TYPE too)
DATA_TYPE_NAMES = frozenset(m.SIMPLE_TYPES) | frozenset({
    "Node", "TypeReference", "TypeAlias", "TypeSet", "Object", "Error", "Deferred", "Init",
    "CatalogEntry", "Resource", "Class"})
_CLASS_DECLARERS = frozenset({"include", "contain", "require"})
_VARIABLE_SCOPES = frozenset({"class", "define", "function", "plan"})


def check(analysis: Analysis) -> list[Diagnostic]:
    """All static findings of the analysed file, in source order."""
    c = _Checker(analysis)
    c.run()
    c.out.sort(key=lambda d: (d.offset, d.end, d.code))
    return c.out


class _Checker:
    def __init__(self, an: Analysis):
        self.an = an
        self.model = an.model
        self.env = an.env
        self.out: list[Diagnostic] = []
        self._own_lower: dict[tuple[str, str], list[Named]] = {}
        for n in self.model.named:
            self._own_lower.setdefault((n.kind, n.name.lstrip(":").lower()), []).append(n)
        # Bolt plans run with Bolt's own functions and types (run_task, Target, ResultSet ...),
        # known from knowledge/bolt.json; the functions of other modules a Bolt project installs
        # (its .modules/) are not indexed, so unknown names are not reported in plans.
        self.in_plan = any(n.kind == "plan" for n in self.model.named)
        # Plans and Bolt helper code (a module's functions and types using Bolt's API).
        self.bolt = bolt.is_bolt_code(an)
        # variables of node definitions are visible in the classes the nodes declare
        self.node_variables = {name for sc in self.model.scopes if sc.kind == "node" for name in sc.variables}
        self._defaults_for: frozenset | None = None     # types given resource defaults in this file

    def add(self, code: str, start: int, end: int, related: tuple = (), **args) -> None:
        self.out.append(Diagnostic.of(code, start, end, related, **args))

    def run(self) -> None:
        self.variables()
        self.calls()
        self.resources()
        self.type_refs()
        self.parameter_defaults()

    # ---- knowing names -----------------------------------------------------------------------
    def _own(self, kind: str, name: str) -> list:
        return self._own_lower.get((kind, name.lstrip(":").lower()), [])

    def _known_in_env(self, kind: str, name: str) -> bool:
        return bool(self.env.lookup(kind, name.lstrip(":").lower() if kind != "type_alias" else name.lstrip(":")))

    def _sure_missing(self, name: str, global_kind: bool) -> bool:
        """May a name that was not found be reported?  Global kinds (functions, Ruby resource
        types) can come from any module, so only a complete index settles them; names of
        classes, defined types and aliases live in the module their first segment names."""
        if self.env.complete:
            return True
        name = name.lstrip(":")
        if global_kind and "::" not in name:
            return False
        return name.split("::", 1)[0].lower() in self.env.modules()

    # ---- variables ---------------------------------------------------------------------------
    def variables(self) -> None:
        if self.model.top.kind == "epp":
            return     # a template sees whatever its caller passes or has in scope
        for ref in self.model.references:
            st = ref.status
            if st in ("local", "builtin"):
                continue
            name = ref.name
            if st == "qualified":
                self._qualified_variable(ref)
                continue
            scope = ref.scope.definition_scope
            if scope.kind not in _VARIABLE_SCOPES:
                continue
            if self._global_variable(name):
                continue
            if st.startswith("inherited:") and not self._inherited_missing(st.split(":", 1)[1], name, set()):
                continue
            self.add("UNDEFINED_VARIABLE", ref.offset, ref.end, name=name)

    def _global_variable(self, name: str) -> bool:
        return (name in BUILTIN_VARIABLES or is_core_fact(name) or self.env.has_fact(name)
                or self.env.has_top_variable(name) or name in self.node_variables)

    def _class_has_variable(self, cls: str, var: str, seen: set) -> bool | None:
        """True/False when the class (and its parents) are known, None when not."""
        if cls in seen or len(seen) > 10:
            return None
        seen.add(cls)
        own = self._own("class", cls)
        if own:
            scope = own[0].scope
            if scope is None:
                return None
            if var in scope.variables:
                return True
            return self._class_has_variable(scope.parent_class, var, seen) if scope.parent_class else False
        found = self.env.lookup("class", cls.lower())
        if len(found) != 1:
            return None
        e = found[0]
        if var in e.variables:
            return True
        if e.parent:
            return self._class_has_variable(e.parent.lstrip(":"), var, seen)
        return False

    def _inherited_missing(self, parent: str, name: str, seen: set) -> bool:
        return self._class_has_variable(parent, name, seen) is False

    def _qualified_variable(self, ref) -> None:
        name = ref.name.lstrip(":")
        cls, _, var = name.rpartition("::")
        if not cls or cls == "settings":
            return
        if not self._own("class", cls) and not self._sure_missing(cls, False):
            return
        has = self._class_has_variable(cls, var, set())
        if has is False:
            self.add("UNDEFINED_CLASS_VARIABLE", ref.offset, ref.end, name=ref.name, cls=cls, var=var)

    # ---- calls -------------------------------------------------------------------------------
    def calls(self) -> None:
        for call in self.model.calls:
            name = call.name.lstrip(":")
            node = call.node
            v: A.CallExpr | A.MethodCall | A.StatementCall
            if call.form == "call":
                v = A.CallExpr(node)
                args, lam = v.args(), v.lambda_()
            elif call.form == "method":
                v = A.MethodCall(node)
                recv = v.receiver()
                args, lam = ([recv] if recv is not None else []) + v.args(), v.lambda_()
            else:
                v = A.StatementCall(node)
                args, lam = v.args(), None
            own = self._own("function", name)
            if own:
                fdef = A.FunctionDef(own[0].node)
                self._check_args(call, name, [puppet_function_signature(self.an, fdef)], args, lam,
                                 related=((own[0].offset, own[0].end, "defined here"),))
                continue
            sigs = builtin_signatures(name) if "::" not in name else None
            if sigs is not None:
                if sigs:
                    self._check_args(call, name, sigs, args, lam)
                continue
            found = self.env.lookup("function", name.lower())
            if found:
                if len(found) == 1:
                    sig = entity_signature(self.an, found[0])
                    if sig is not None:
                        self._check_args(call, name, [sig], args, lam, indexed=True)
                continue
            if name in ("break", "next", "return"):   # control flow, not found as functions
                continue
            if self.bolt:
                if call.form == "method" and bolt.knows_method(name):
                    continue      # $result.ok, $target.vars: Bolt's objects answer them
                bolt_sigs = bolt.function_signatures(name)
                if bolt_sigs is not None:
                    self._check_args(call, name, bolt_sigs, args, lam)
                    if name == "run_task" and call.form == "call":
                        self.out += check_run_task(self.an, call)
                    continue
            if self._sure_missing(name, True) and not self.in_plan:
                self.add("UNDEFINED_FUNCTION", call.offset, call.end, name=name)
            if name in _CLASS_DECLARERS:
                continue

        for call in self.model.calls:
            if call.name in _CLASS_DECLARERS and call.form in ("call", "statement"):
                decl = A.CallExpr(call.node) if call.form == "call" else A.StatementCall(call.node)
                for a in decl.args():
                    self._class_name_use(a)

    def _check_args(self, call, name: str, sigs: list, args: list, lam, related: tuple = (),
                    indexed: bool = False) -> None:
        if any(isinstance(a, A.UnaryExpr) and a.op_kind == K.TIMES for a in args):
            return     # an unfolded array: the count is not known
        n = len(args)
        has_block = lam is not None
        lam_range = _lambda_arity(lam) if lam is not None else None
        # A Puppet function's last Callable parameter takes the lambda.
        sigs2 = []
        for s in sigs:
            if has_block and s.block == "optional" and s.params and isinstance(s.params[-1].type, m.CallableType):
                s = _drop_last(s)
            sigs2.append(s)
        sigs = sigs2
        by_count = [s for s in sigs if s.accepts_count(n)]
        if not by_count:
            self.add("ARGUMENT_COUNT_MISMATCH" if indexed else "WRONG_ARGUMENT_COUNT", call.offset, call.end,
                     related, name=name,
                     expected=_expected_count(sigs), actual=_count_text(n))
            return
        by_block = [s for s in by_count if (s.block != "none") if has_block] if has_block else \
            [s for s in by_count if s.block != "required"]
        if not by_block:
            code = "BLOCK_NOT_ACCEPTED" if has_block else "BLOCK_REQUIRED"
            start, end = (lam.range if has_block else (call.offset, call.end))
            self.add(code, start, end, related, name=name)
            return
        if has_block and lam_range is not None:
            by_arity = [s for s in by_block if _arity_ok(s, lam_range)]
            if not by_arity:
                expected = _block_arity_text(by_block)
                if expected:
                    plist = lam.syntax.child(K.PARAM_LIST)
                    rng = plist.range if plist is not None else lam.range
                    self.add("WRONG_LAMBDA_ARITY", rng[0], rng[1], related, name=name, expected=expected,
                             actual=_arity_text(lam_range))
                return
            by_block = by_arity
        consts = [self.an.const_value(a) for a in args]
        failures = []
        for s in by_block:
            bad = _first_bad_arg(s, consts)
            if bad is None:
                return
            failures.append((s, bad))
        if len(failures) == 1:
            s, (i, p) = failures[0]
            rng = args[i].range
            self.add("ARGUMENT_TYPE_MISMATCH" if indexed else "WRONG_ARGUMENT_TYPE", rng[0], rng[1], related,
                     name=name, param=p.name,
                     expected=p.type_text or type_to_string(p.type), actual=_value_type_text(consts[i]))
        else:
            self.add("NO_MATCHING_SIGNATURE", call.offset, call.end, related, name=name,
                     signatures="; ".join(f"({', '.join(s.param_labels())})" for s, _ in failures))

    def _class_name_use(self, arg, v=None) -> None:
        if v is None:
            v = self.an.const_value(arg)
        if not isinstance(v, str) or not v:
            return
        name = v.lstrip(":").lower()
        if not name or not all(part and part[0].isalpha() for part in name.split("::")):
            return
        if self._own("class", name) or self._known_in_env("class", name):
            return
        if self._sure_missing(name, False):
            rng = arg.range
            self.add("UNDEFINED_CLASS", rng[0], rng[1], name=name)

    # ---- resources ---------------------------------------------------------------------------
    def resources(self) -> None:
        for site in self.model.resources:
            tname = site.type_name.lstrip(":")
            low = tname.lower()
            res = A.ResourceExpr(site.node)
            if low == "class":
                for body in res.bodies():
                    title = self.an.const_value(body.title())
                    titles = title if isinstance(title, list) else [title]
                    for t in titles:
                        if isinstance(t, str):
                            self._class_resource(t.lstrip(":").lower(), body)
                            self._class_name_use(body.title(), t)
                continue
            info = resource_type(low)
            if info is not None:
                for body in res.bodies():
                    self._builtin_body(info, tname, body)
                continue
            if low in BUILTIN_RESOURCE_TYPES:
                continue
            own = self._own("define", low)
            if own:
                self._check_params(tname, A.DefineDef(own[0].node), res, (own[0].offset, own[0].end))
                continue
            found = self.env.lookup("define", low)
            if found:
                if len(found) == 1:
                    self._check_params_entity(tname, found[0], res)
                continue
            if self.env.lookup("resource_type", low) or self._own("class", low) or self.env.lookup("class", low):
                continue
            if self._sure_missing(low, True):
                self.add("UNDEFINED_RESOURCE_TYPE", site.offset, site.end, name=tname)

    def _builtin_body(self, info, tname: str, body) -> None:
        """Attribute names (Puppet refuses unknown ones when compiling: an error) and, where
        Puppet's type lists its values, the literal values (refused only when the catalog is
        applied: a warning)."""
        for op in body.ops():
            t = op.name_token
            if op.is_splat or t is None:
                continue      # a splat ('* =>') or broken code
            attr = info.attribute(t.text)
            if not info.has_attribute(t.text):
                self.add("NO_SUCH_PARAMETER", t.offset, t.end, resource=_title_text(tname, body, self.an),
                         param=t.text)
                continue
            if attr is None or attr.validation != "values":
                continue
            v = self.an.const_value(op.value())
            if v is NOT_CONST or attr.accepts(v) is not False:
                continue
            # A property checks each element of an array: Puppet names the first one it refuses.
            bad = next((x for x in v if attr.accepts(x) is False), v) if isinstance(v, list) else v
            rng = op.value().range
            self.add("INVALID_ATTRIBUTE_VALUE", rng[0], rng[1], resource=_title_text(tname, body, self.an),
                     param=t.text, value=_ruby_inspect(bad), valid=attr.valid_text())

    def _class_resource(self, name: str, body) -> None:
        own = self._own("class", name)
        if own:
            params = {p.name: p for p in A.ClassDef(own[0].node).params()}
            self._check_body(f"Class[{name}]", body, {k: self._param_type(p) for k, p in params.items()},
                             ((own[0].offset, own[0].end, "defined here"),))
            return
        found = self.env.lookup("class", name)
        if len(found) == 1:
            e = found[0]
            self._check_body(f"Class[{name}]", body, {p.name: self._text_type(p.type_text) for p in e.params},
                             indexed=True)

    def _check_params(self, tname: str, d: A.DefineDef, res: A.ResourceExpr, name_range: tuple) -> None:
        params = {p.name: self._param_type(p) for p in d.params()}
        related = ((name_range[0], name_range[1], "defined here"),)
        for body in res.bodies():
            self._check_body(_title_text(tname, body, self.an), body, params, related)
        self._required_given(tname, [p.name for p in d.params() if not p.has_default and not p.captures_rest],
                             res, related)

    def _check_params_entity(self, tname: str, e, res: A.ResourceExpr) -> None:
        params = {p.name: self._text_type(p.type_text) for p in e.params}
        for body in res.bodies():
            self._check_body(_title_text(tname, body, self.an), body, params, indexed=True)
        self._required_given(tname, [p.name for p in e.params if not p.has_default and not p.captures_rest], res)

    def _required_given(self, tname: str, required: list, res: A.ResourceExpr, related: tuple = ()) -> None:
        """Each declared instance of a defined type gives every parameter without a default
        (Puppet: "expects a value for parameter"; Optional types too).  Not said where a value
        may come from elsewhere: a splat, a ``default:`` body, or resource defaults for the type
        in this file (defaults set by a calling scope are not seen: hence a warning)."""
        if not required or tname.lstrip(":").lower() in self._types_with_defaults():
            return
        bodies = res.bodies()
        if any(_is_default_title(b) for b in bodies):
            return
        for body in bodies:
            ops = body.ops()
            title = body.title()
            if title is None or any(op.is_splat for op in ops):
                continue
            given = {t.text for t in (op.syntax.first_token() for op in ops) if t is not None}
            for name in required:
                if name not in given:
                    rng = title.range
                    self.add("MISSING_RESOURCE_PARAMETER", rng[0], rng[1], related,
                             resource=_title_text(tname, body, self.an, first=True), param=name)

    def _types_with_defaults(self) -> frozenset:
        if self._defaults_for is None:
            names = set()
            for node in self.an.result.root.descendants():
                if node.kind == K.RESOURCE_DEFAULTS:
                    ref = A.ResourceDefaults(node).type_ref()
                    names.add(ref.syntax.trimmed_text().lstrip(":").lower() if ref is not None else "")
            self._defaults_for = frozenset(names)
        return self._defaults_for

    def _param_type(self, p: A.Param):
        te = p.type_expr()
        if te is None:
            return None
        t, err = self.an.type_from_expr(te)
        return t if err is None else None

    def _text_type(self, text: str):
        return self.an.type_from_text(text) if text else None

    def _check_body(self, resource: str, body, params: dict, related: tuple = (), indexed: bool = False) -> None:
        for op in body.ops():
            if op.is_splat or op.name_token is None:
                continue
            name = op.name
            if name not in params:
                if name in metaparameters() or name in ("name", "title"):
                    continue
                t = op.name_token
                self.add("UNKNOWN_PARAMETER" if indexed else "NO_SUCH_PARAMETER", t.offset, t.end, related,
                         resource=resource, param=name)
                continue
            ptype = params[name]
            if ptype is None or has_unresolved(ptype):
                continue
            v = self.an.const_value(op.value())
            if v is NOT_CONST:
                continue
            if not is_instance(ptype, v):
                rng = op.value().range
                self.add("PARAMETER_VALUE_MISMATCH" if indexed else "PARAMETER_TYPE_MISMATCH", rng[0], rng[1],
                         related, resource=resource, param=name,
                         expected=type_to_string(ptype), actual=_value_type_text(v))

    # ---- type references ---------------------------------------------------------------------
    def type_refs(self) -> None:
        for ref in self.model.type_refs:
            name = ref.name.lstrip(":")
            if name in DATA_TYPE_NAMES or name in m.SIMPLE_TYPES or name.startswith("Puppet::") or self.in_plan:
                continue      # (Puppet::LookupContext and friends are Puppet's own object types)
            if self.bolt and bolt.knows_type(name):
                continue
            low = name.lower()
            if low in BUILTIN_RESOURCE_TYPES:
                continue
            if self._own("type_alias", name) or self._own("class", low) or self._own("define", low):
                continue
            if any(n.kind == "type_alias" and n.name.lower() == low for n in self.model.named):
                continue
            if (self.env.lookup("type_alias", name) or self.env.lookup("class", low)
                    or self.env.lookup("define", low) or self.env.lookup("resource_type", low)):
                continue
            if self._sure_missing(name, "::" not in name):
                self.add("UNDEFINED_TYPE", ref.offset, ref.end, name=name)

    # ---- parameter defaults ------------------------------------------------------------------
    def parameter_defaults(self) -> None:
        for d in self.model.definitions:
            if d.kind not in ("parameter", "template_parameter"):
                continue
            p = A.Param(d.node)
            te = p.type_expr()
            if te is None or not p.has_default:
                continue
            v = self.an.const_value(p.default())
            if v is NOT_CONST or v is None:
                continue   # undef defaults are the "set it in Hiera" idiom
            t, err = self.an.type_from_expr(te)
            if t is None or err is not None or has_unresolved(t):
                continue
            if not is_instance(t, v):
                rng = p.default().range
                self.add("DEFAULT_TYPE_MISMATCH", rng[0], rng[1], param=p.name,
                         expected=type_to_string(t), actual=_value_type_text(v))


# ---- helpers ---------------------------------------------------------------------------------

def _is_default_title(body) -> bool:
    """Is this the ``default:`` body of a resource (its values go to the other bodies)?"""
    t = body.title()
    tok = t.syntax.first_token() if t is not None else None
    return tok is not None and tok.kind == K.DEFAULT and t.syntax.trimmed_text() == "default"


def _title_text(tname: str, body, an: Analysis, first: bool = False) -> str:
    v = an.const_value(body.title()) if body.title() is not None else NOT_CONST
    if first and isinstance(v, list) and v:
        v = v[0]       # an array of titles: Puppet names the first resource that fails
    cap = "::".join(s[:1].upper() + s[1:] for s in tname.lstrip(":").split("::"))
    if isinstance(v, str):
        return f"{cap}[{v}]"
    return cap


def _ruby_inspect(v) -> str:
    """A value as Ruby's ``inspect`` shows it in Puppet's "Invalid value" messages."""
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_ruby_inspect(x) for x in v) + "]"
    if v is True or v is False:
        return "true" if v else "false"
    return str(v)


def _value_type_text(v) -> str:
    try:
        t = infer_set(v)
        g = generalize(t)
        text = type_to_string(g if isinstance(v, (list, dict)) else t)
        if isinstance(v, (str, int, float)) and not isinstance(v, bool):
            return f"{text} ({format_value(v)})" if len(format_value(v)) < 40 else text
        return text
    except (ValueError, RecursionError):   # an integer Python will not print (over 4,300 digits), or too deep
        return "a value"


def _count_text(n: int) -> str:
    return "none" if n == 0 else str(n)


def _expected_count(sigs: list) -> str:
    lo = min(s.min_args for s in sigs)
    hi = max(s.max_args for s in sigs)
    if hi == INF:
        return f"at least {lo} argument{'s' if lo != 1 else ''}"
    if lo == hi:
        return f"{lo} argument{'s' if lo != 1 else ''}"
    return f"between {lo} and {int(hi)} arguments"


def _lambda_arity(lam) -> tuple:
    params = lam.params()
    lo = sum(1 for p in params if not p.has_default and not p.captures_rest)
    hi = INF if any(p.captures_rest for p in params) else len(params)
    return lo, hi


def _callable_size(t) -> tuple[int, float] | None:   # (min, max), max INF if unbounded
    if not isinstance(t, m.CallableType) or t.params is None:
        return None
    sz = t.params.size
    n = len(t.params.types)
    if sz is None:
        return n, n
    lo, hi = sz
    return (lo if lo is not None else 0), (INF if hi is None else hi)


def _arity_ok(sig, lam_range: tuple) -> bool:
    size = _callable_size(sig.block_type)
    if size is None:
        return True
    lo, hi = size
    blo, bhi = lam_range
    # The function calls its lambda with between lo and hi arguments: the lambda must accept
    # every such count (Puppet's rule).
    return blo <= lo and hi <= bhi


def _block_arity_text(sigs: list) -> str:
    sizes = [_callable_size(s.block_type) for s in sigs]
    known = [s for s in sizes if s is not None]
    if len(known) < len(sizes):
        return ""
    counts = sorted(set(known))
    parts = []
    for lo, hi in counts:
        if lo == hi:
            parts.append(f"{lo} argument{'s' if lo != 1 else ''}")
        elif hi == INF:
            parts.append(f"at least {lo} arguments")
        else:
            parts.append(f"{lo} to {int(hi)} arguments")
    return " or ".join(parts)


def _arity_text(r: tuple) -> str:
    lo, hi = r
    if lo == hi:
        return f"{lo} parameter{'s' if lo != 1 else ''}"
    if hi == INF:
        return f"at least {lo} parameters"
    return f"{lo} to {int(hi)} parameters"


def _first_bad_arg(sig, consts: list):
    """(index, param) of the first constant argument the signature's type rejects, or None."""
    if not sig.params:
        return None
    last = len(sig.params) - 1
    for i, v in enumerate(consts):
        if v is NOT_CONST:
            continue
        p = sig.params[min(i, last)]
        t = p.type
        if t is None or isinstance(t, m.AnyType) or has_unresolved(t):
            continue
        if not is_instance(t, v):
            return i, p
    return None


def _drop_last(s):
    from dataclasses import replace
    params = s.params[:-1]
    lo = min(s.min_args, len(params))
    hi = s.max_args if s.max_args == INF else max(0, s.max_args - 1)
    return replace(s, params=params, min_args=lo, max_args=hi, block="optional")
