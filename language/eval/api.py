"""The evaluator's entry points: ``evaluate`` (previews), ``compile_catalog`` (a manifest into a
catalog) and ``run_request`` (the JSON-lines protocol shared with ../shared/oracle).

Nothing here raises: syntax and validation errors, evaluation errors, an exhausted budget and
even an internal failure all come back as data (an error with Puppet's message, issue code
and location), never as a Python exception or traceback.
"""
from __future__ import annotations

import json
import math
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic
from ..syntax import kinds as K, ast
from ..syntax.parser import ParseResult, parse
from ..syntax.validate import validate
from ..types import guard
from .budget import Budget
from .context import Context, LogEntry, Settings
from .errors import BreakSignal, BudgetExceeded, EvalError, NextSignal, ReturnSignal, Signal
from .scope import Scope
from . import functions  # noqa: F401  (importing the library registers the built-in functions)
from ..messages import render
import dataclasses
from .evaluator import static_heredoc_errors, Evaluator
from .catalog import Resource
from .operators import regexp_search
from .runtime import Regexp
from ..types.format import type_to_string
from .stringconv import StringFormatError, string_convert
from .typecheck import infer_set_of
from .type_strings import type_value_string
from ..types import model as m
from ..types.errors import TypeSystemError

_MIN_RECURSION = 12000


@dataclass
class EvalResult:
    """The outcome of an evaluation: a value or an error, plus logs, catalog and diagnostics."""

    ok: bool
    value: Any = None
    error: EvalError | None = None
    logs: list = field(default_factory=list)
    catalog: Any = None
    diagnostics: list = field(default_factory=list)
    context: Any = None

    def error_message(self, node_name: str | None = None) -> str:
        """The error as Puppet prints it (with location, and ``on node`` when given)."""
        if self.error is None:
            return ""
        return format_error(self.error, self.context, node_name)


def format_error(err: EvalError, ctx: Context | None, node_name: str | None = None) -> str:
    msg = err.basic_message
    if err.code == "CONTROL_FLOW":
        text = msg
    else:
        if err.phase == "eval":
            msg = render("EVALUATION_ERROR", message=msg)
        text = msg
        lines = getattr(err, "lines", None) or (ctx.lines if ctx is not None else None)
        if err.offset is not None and lines is not None:
            line, col = lines.position(err.offset)
            where = f"file: {err.file}, " if err.file else ""
            text = f"{msg} ({where}line: {line}, column: {col})"
    if node_name:
        text += f" on node {node_name}"
    return text


def _position(ctx: Context | None, offset: int | None) -> tuple:
    if ctx is None or offset is None:
        return (None, None)
    return ctx.lines.position(offset)


class _Unparsable:
    """Stands in for a parse result when the parser itself failed (e.g. nesting too deep)."""

    def __init__(self, text: str, err: EvalError):
        self.text = text
        self.errors = [err]
        self.root = None


def safe_parse(text: str, epp: bool = False, tasks: bool = False):
    """Parse with a raised recursion limit; a parser failure becomes a syntax error."""
    old = sys.getrecursionlimit()
    if old < _MIN_RECURSION:
        sys.setrecursionlimit(_MIN_RECURSION)
    try:
        return parse(text, epp=epp, tasks=tasks)
    except RecursionError:
        return _Unparsable(text, EvalError(render("SYNTAX_ERROR_SOURCE_NESTED_TOO"),
                                           "NESTING_TOO_DEEP", 0, 0, phase="parse"))
    # isolation boundary: the parser never raises by contract; if it did, the source is
    # reported unparsable, not a traceback
    except Exception as exc:  # noqa: BLE001
        return _Unparsable(text, EvalError(render("SYNTAX_ERROR_DETAIL", exc=exc), "SYNTAX_ERROR",
                                           0, 0,
                                           phase="parse"))
    finally:
        if old < _MIN_RECURSION:
            sys.setrecursionlimit(old)


def _syntax_error(pr: ParseResult) -> EvalError | None:
    if pr.errors:
        e = pr.errors[0]
        if isinstance(e, EvalError):
            return e
        return EvalError(e.message, e.code, e.offset, e.end, phase="parse")
    return _encoding_error(pr)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _encoding_error(pr: ParseResult) -> EvalError | None:
    """A ``\\u`` escape naming a surrogate (``"\\u{D800}"``) makes a string that is not
    UTF-8: Puppet refuses the whole source before running any of it, as here."""
    if "\\u" not in pr.text:
        return None
    for node in pr.root.descendants():
        if node.kind == K.DQ_STRING:
            texts = [ast.dq_text_value(t.text) for t in node.children_with_tokens()
                     if t.kind == K.STRING_TEXT and "\\u" in t.text]
        elif node.kind == K.HEREDOC_EXPR:
            texts = [p for p in ast.HeredocExpr(node).parts() if isinstance(p, str)]
        else:
            continue
        if any(_SURROGATE.search(t) for t in texts):
            # Puppet's message has neither an issue code nor a location
            err = EvalError(render("INVALID_UTF8_PLAIN"), None, phase="parse")
            err.diag_code = "EVAL_INVALID_UTF8"
            err.diag_range = (node.offset, node.end)
            return err
    return None


def _validation_error(pr: ParseResult) -> tuple:
    old = sys.getrecursionlimit()
    if old < _MIN_RECURSION:
        sys.setrecursionlimit(_MIN_RECURSION)
    try:
        return _validation_error_inner(pr)
    except RecursionError:
        return EvalError(render("SOURCE_NESTED_TOO_DEEPLY_VALIDATED"), "NESTING_TOO_DEEP",
                         0, 0, phase="parse"), []
    finally:
        if old < _MIN_RECURSION:
            sys.setrecursionlimit(old)


# A proper match variable as written in the source ($0, $12), not $00 or $123a.
_MATCH_VARIABLE = re.compile(r"\$(?:0|[1-9][0-9]*)\Z")


# The validator predicts these runtime errors statically (useful in an editor); Puppet only
# reports them when evaluation reaches the assignment, as an evaluation error located at the
# operator, so the evaluator leaves them to the run.
_RUNTIME_PREDICTIONS = frozenset({"ILLEGAL_REASSIGNMENT", "ILLEGAL_BUILTIN_ASSIGNMENT",
                                  "CONDITIONAL_REASSIGNMENT", "ILLEGAL_RESERVED_ASSIGNMENT"})


def _spurious(pr: ParseResult, d: Diagnostic) -> bool:
    """A validator diagnostic Puppet does not report (worked around here, see docs/eval.md).

    Puppet's checker only calls an assignment to ``$00`` or ``$123a`` an illegal numeric
    *name*; ILLEGAL_NUMERIC_ASSIGNMENT is for proper match variables (``$0``, ``$12``).
    """
    if d.code in _RUNTIME_PREDICTIONS:
        return True
    # decided from the variable in the source (the diagnostic's range), not the message text
    return (d.code == "ILLEGAL_NUMERIC_ASSIGNMENT"
            and _MATCH_VARIABLE.match(pr.text[d.offset:d.end].strip()) is None)


_IDEM_CODES = frozenset({"IDEM_EXPRESSION_NOT_LAST", "IDEM_NOT_ALLOWED_LAST"})


def _relocated(pr: ParseResult, d: Diagnostic) -> Diagnostic:
    """Puppet locates an idempotent binary expression at its operator (as for any error
    about a binary expression); the validator blames its start."""
    if d.code not in _IDEM_CODES or pr.root is None:
        return d
    stack = [pr.root]
    while stack:
        n = stack.pop()
        start, end = n.range
        if start > d.offset or end <= d.offset:
            continue
        if start == d.offset and n.kind in (K.BINARY_EXPR, K.RELATIONSHIP):
            op = next(iter(n.significant_tokens()), None)
            if op is not None:
                return dataclasses.replace(d, offset=op.offset)
            return d
        stack.extend(n.children())
    return d


def _validation_error_inner(pr: ParseResult) -> tuple:
    herr = static_heredoc_errors(pr.root) if "@(" in pr.text else None
    if herr is not None:
        return herr, []
    diags = [_relocated(pr, d) for d in validate(pr) if not _spurious(pr, d)]
    errors = [d for d in diags if d.severity == "error"]
    warnings = [d for d in diags if d.severity != "error"]
    if not errors:
        return None, warnings
    if len(errors) == 1:
        d = errors[0]
        return EvalError(d.message, d.code, d.offset, d.end, phase="parse"), warnings
    # Puppet's summary of several validation errors has no position (each error has one).
    err = EvalError(render("VALIDATION_GIVING_UP", count=len(errors)), errors[0].code, None, None,
                    phase="parse")
    err.validation_errors = errors
    return err, warnings


def _guarded(fn, ctx: Context) -> tuple:
    """Run ``fn`` turning every failure into an EvalError (never a traceback)."""
    old = sys.getrecursionlimit()
    if old < _MIN_RECURSION:
        sys.setrecursionlimit(_MIN_RECURSION)
    try:
        with guard.active(ctx.budget.limits()):
            return fn(), None
    except guard.LimitExceeded as exc:
        return None, limit_error(exc)
    except EvalError as exc:
        return None, exc
    except BreakSignal as sig:
        return None, _control_error("break", sig, ctx)
    except NextSignal as sig:
        return None, _control_error("next", sig, ctx)
    except ReturnSignal as sig:
        return None, _control_error("return", sig, ctx)
    except RecursionError:
        return None, BudgetExceeded(render("EVALUATION_STOPPED_NESTING_TOO_DEEP"),
                                    "EVAL_RECURSION_LIMIT")
    except MemoryError:
        return None, BudgetExceeded(render("EVALUATION_STOPPED_OUT_MEMORY"), "EVAL_MEMORY_LIMIT")
    # isolation boundary: a bug in puppet-ls is still data, not a traceback
    except Exception as exc:  # noqa: BLE001
        return None, EvalError(render("INTERNAL_ERROR_IN_EVALUATOR", name=type(exc).__name__,
                                      exc=exc),
                               "INTERNAL_ERROR")
    finally:
        if old < _MIN_RECURSION:
            sys.setrecursionlimit(old)


def limit_error(exc: guard.LimitExceeded) -> EvalError:
    """The Puppet error for a guard limit, located where the evaluator saw it."""
    err = BudgetExceeded(exc.message, exc.code)
    if exc.where is not None:
        err.offset, err.end = exc.where
    return err


def _control_error(word: str, sig: Signal, ctx: Context) -> EvalError:
    line = ctx.lines.position(sig.offset)[0] if sig.offset is not None else 0
    err = EvalError(render("FROM_CONTEXT_WHERE_THIS_ILLEGAL", word=word, line=line),
                    "CONTROL_FLOW", sig.offset, sig.end)
    return err


def _top_scope(ctx: Context) -> Scope:
    top = Scope(ctx, None, "top", "")
    s = ctx.settings
    facts = dict(s.facts)
    top.table.symbols["facts"] = facts
    # What an agent-less compilation (puppet apply, the oracle) sees: no certificate data.
    top.table.symbols["trusted"] = dict(s.trusted) if s.trusted is not None else \
        {"authenticated": "local", "certname": None, "extensions": {}, "hostname": None,
         "domain": None, "external": {}}
    top.table.symbols["server_facts"] = {"environment": s.environment}
    top.table.symbols["environment"] = s.environment
    top.table.symbols["module_name"] = ""
    top.table.symbols["title"] = "main"
    top.table.symbols["name"] = "main"
    for k, v in facts.items():
        if isinstance(k, str) and k not in top.table.symbols:
            top.table.symbols[k] = v
            ctx.qualified[k] = v          # $::osfamily as well as $osfamily
    for k in ("facts", "trusted", "environment"):
        ctx.qualified[k] = top.table.symbols[k]
    return top


def _prepare(pr: ParseResult, ctx: Context, top: Scope):
    ev = Evaluator(ctx)
    ev.catalog.register_definitions(pr.root, top)
    ev.catalog.define_aliases(top)
    return ev


def _diagnostics(ctx: Context | None, err: EvalError | None, warnings: list) -> list:
    out = list(warnings)
    if ctx is not None:
        for log in ctx.logs:
            if log.level == "warning" and log.code and log.offset is not None:
                out.append(Diagnostic(log.offset, log.end or log.offset, "warning", log.code,
                                      log.message))
    details = err.validation_errors if err is not None else None
    if details:
        return out + list(details)  # each validation error where it is
    if err is not None:
        start, end = err.diag_range or (err.offset, err.end)
        start = start if start is not None else 0
        end = end if end is not None else start
        code = err.code or err.diag_code or "EVAL_ERROR"
        out.append(Diagnostic(start, end, "error", code, err.basic_message))
    return out


def evaluate(parse_result: ParseResult, settings: Settings | dict | None = None,
             budget: Budget | None = None, scope: str = "top", setup: list | None = None,
             text: str | None = None) -> EvalResult:
    """Evaluate a parsed program and return its value (the value of the last expression).

    ``scope`` is "top" (evaluate in the top scope, like ``puppet apply``'s main code) or
    "node" (a node scope below the top scope).  ``setup`` are further sources evaluated first
    in the same scope.  Never raises.
    """
    if not isinstance(settings, Settings):
        settings = Settings.from_dict(settings if isinstance(settings, dict) else None)
    src = text if text is not None else parse_result.text
    ctx = Context(src, settings, budget or Budget())
    ctx.budget.restart()
    err = _syntax_error(parse_result)
    warnings: list = []
    if err is None:
        err, warnings = _validation_error(parse_result)
    if err is not None:
        return EvalResult(False, None, err, [], None, _diagnostics(ctx, err, warnings), ctx)
    top = _top_scope(ctx)
    holder: dict = {}

    def run():
        ev = _prepare(parse_result, ctx, top)
        holder["ev"] = ev
        where = top if scope == "top" else Scope(ctx, top, "node", settings.node_name)
        for s in setup or ():
            spr = safe_parse(s, tasks=settings.tasks)
            serr = _syntax_error(spr) or _validation_error(spr)[0]
            if serr is not None:
                raise serr
            ev.catalog.register_definitions(spr.root, top)
            ev.catalog.define_aliases(top)
            ev.eval(spr.root, where)
        return ev.eval(parse_result.root, where)

    value, err = _guarded(run, ctx)
    ev = holder.get("ev")
    catalog = ev.catalog if ev is not None else None
    return EvalResult(err is None, value, err, list(ctx.logs), catalog,
                      _diagnostics(ctx, err, warnings), ctx)


def evaluate_text(text: str, settings: Settings | dict | None = None,
                  budget: Budget | None = None, **kw) -> EvalResult:
    st = settings if isinstance(settings, Settings) else Settings.from_dict(settings)
    return evaluate(safe_parse(text, tasks=st.tasks), st, budget, **kw)


def compile_catalog(text: str, settings: Settings | dict | None = None,
                    budget: Budget | None = None) -> EvalResult:
    """Compile a whole manifest into the in-memory catalog for ``settings.node_name``."""
    if not isinstance(settings, Settings):
        settings = Settings.from_dict(settings if isinstance(settings, dict) else None)
    pr = safe_parse(text, tasks=settings.tasks)
    ctx = Context(text, settings, budget or Budget())
    ctx.budget.restart()
    err = _syntax_error(pr)
    warnings: list = []
    if err is None:
        err, warnings = _validation_error(pr)
    if err is not None:
        return EvalResult(False, None, err, [], None, _diagnostics(ctx, err, warnings), ctx)
    top = _top_scope(ctx)
    holder: dict = {}

    def run():
        ev = _prepare(pr, ctx, top)
        holder["ev"] = ev
        cat = ev.catalog
        cat.compiling = True
        cat.resources[("Class", "main")] = Resource("Class", "main", top, None)
        ev.eval(pr.root, top)
        _evaluate_node(ev, top, settings.node_name)
        cat.evaluate_generators()
        cat.finish()

    value, err = _guarded(run, ctx)
    ev = holder.get("ev")
    catalog = ev.catalog if ev is not None else None
    return EvalResult(err is None, value, err, list(ctx.logs), catalog,
                      _diagnostics(ctx, err, warnings), ctx)


def _evaluate_node(ev, top: Scope, node_name: str) -> None:
    cat = ev.catalog
    if not cat.nodes:
        return
    chosen = None
    default = None
    for d in cat.nodes:
        for hn in ast.NodeDef(d.node).matches():
            v = hn.value()
            if v is ast.DEFAULT:
                default = d
            elif isinstance(v, ast.Regex):
                if regexp_search(Regexp(v.source), node_name):
                    chosen = chosen or d
            elif isinstance(v, str):
                if v.lower() == node_name.lower():
                    chosen = d
            elif isinstance(v, ast.DqString):
                s = "".join(p for p in v.parts() if isinstance(p, str))
                if s.lower() == node_name.lower():
                    chosen = d
        if chosen is not None and chosen is d:
            break
    chosen = chosen or default
    if chosen is None:
        raise EvalError(render("NO_NODE_MATCH", node=node_name),
                        "NO_NODE_MATCH")
    scope = Scope(ev.ctx, top, "node", node_name)
    cat.resources[("Node", node_name)] = Resource("Node", node_name, scope, chosen.node)
    body = chosen.node.child(K.BLOCK)
    if body is not None:
        try:
            ev.eval_block(body, scope)
        except (NextSignal, ReturnSignal):
            pass


# ---- the JSON-lines protocol (same shape as ../shared/oracle) -------------------------------------

def _log_dict(ctx: Context, log: LogEntry) -> dict:
    """A log entry as the oracle reports it (Puppet's log destination fields)."""
    msg = log.message
    if log.note == "line" and log.offset is not None:
        msg += f"\n   (file: unknown, line: {ctx.lines.position(log.offset)[0]})"
    elif log.note is not None:
        msg += "\n   (file & line not available)"
    d: dict[str, Any] = {"level": log.level, "message": msg}
    if log.source is not None:
        d["source"] = log.source
    elif log.offset is not None and log.note is None:
        line, pos = ctx.lines.position(log.offset)
        d["line"] = line
        d["pos"] = pos
    if log.code:
        d["issue_code"] = log.code
    return d


def _error_logs(err: EvalError, ctx: Context | None, node_name: str) -> list:
    """The ``err`` log lines Puppet writes for a failed evaluation (after any other logs)."""
    if err.code == "CONTROL_FLOW" or (err.offset is None and err.code is None):
        return [{"level": "err", "message": format_error(err, ctx, node_name)}]
    out = []
    details = err.validation_errors
    if details:
        # Several validation errors: each is logged, then the summary (without a position).
        for diag in details:
            line, pos = _position(ctx, diag.offset)
            out.append({"level": "err", "message": diag.message, "line": line, "pos": pos,
                        "issue_code": diag.code})
        out.append({"level": "err", "message": err.basic_message})
        return out
    msg = err.basic_message
    if err.phase == "eval":
        msg = render("EVALUATION_ERROR", message=msg)
    d: dict = {"level": "err", "message": msg}
    if err.offset is not None:
        d["line"], d["pos"] = _position(ctx, err.offset)
    if err.puppet_issue_code:
        d["issue_code"] = err.puppet_issue_code
    return [d]


def render_value(value: Any, limits: guard.Limits | None = None) -> dict:
    """``str``, ``repr`` and ``type`` of a value, as the oracle reports them.

    Without ``limits`` a value over the default size limit renders as ``<error: ...>``; with
    them (the evaluation's own) :class:`guard.LimitExceeded` is raised for the caller to report.
    """
    if limits is None:
        try:
            with guard.active(guard.Limits()):
                return render_value(value, guard.current())
        except guard.LimitExceeded as exc:
            return {k: f"<error: {exc.message}>" for k in ("str", "repr", "type")}
    with guard.active(limits):
        return _render(value)


def _render(value: Any) -> dict:
    out = {}
    try:
        out["str"] = string_convert(value)
    except (StringFormatError, RecursionError) as exc:
        out["str"] = f"<error: {exc}>"
    try:
        out["repr"] = string_convert(value, "%p")
    except (StringFormatError, RecursionError) as exc:
        out["repr"] = f"<error: {exc}>"
    try:
        inferred = infer_set_of(value)
        # Puppet's to_s writes a declared Object type out in full at the top level only
        out["type"] = type_value_string(inferred) if isinstance(inferred, m.ObjectType) \
            else type_to_string(inferred)
    except (TypeSystemError, RecursionError) as exc:  # inference is total; a last line of defence
        out["type"] = f"<error: {exc}>"
    return out


def run_request(req: dict) -> dict:
    """Evaluate one protocol request ``{"src", "strict", "strict_variables"}``; never raises."""
    old = sys.getrecursionlimit()
    if old < _MIN_RECURSION:
        sys.setrecursionlimit(_MIN_RECURSION)
    try:
        return _run_request(req)
    finally:
        if old < _MIN_RECURSION:
            sys.setrecursionlimit(old)


def bad_request(message: str, req: Any = None) -> dict:
    """The protocol's answer to a request it cannot run (the batch goes on after it)."""
    out: dict = {}
    if isinstance(req, dict) and "id" in req:
        out["id"] = req["id"]
    out.update(ok=False, error={"message": render("BAD_REQUEST", detail=message),
                                "issue_code": "BAD_REQUEST",
                                "line": None, "pos": None}, logs=[])
    return out


# Field -> (accepted Python types, what the message says it must be).
_FIELDS = {
    "src": ((str,), "a string"),
    "strict": ((str,), "one of 'off', 'warning', 'error'"),
    "strict_variables": ((bool,), "a boolean"),
    "tasks": ((bool,), "a boolean"),
    "node_name": ((str,), "a string"),
    "environment": ((str,), "a string"),
    "facts": ((dict,), "an object"),
    "max_steps": ((int,), "a positive integer"),
    "timeout": ((int, float), "a positive number of seconds"),
}


def request_problem(req: dict) -> str | None:
    """What is wrong with the fields of a protocol request, or None."""
    for name, (types, what) in _FIELDS.items():
        if name not in req or (req[name] is None and name not in ("src", "strict")):
            continue
        v = req[name]
        ok = isinstance(v, types) and not (bool not in types and isinstance(v, bool))
        if ok and name == "strict":
            ok = v in ("off", "warning", "error")
        if ok and name in ("max_steps", "timeout"):
            ok = v > 0 and (name == "max_steps" or math.isfinite(v))
        if not ok:
            return f"'{name}' must be {what}, got {json.dumps(v)[:60]}"
    return None


def _run_request(req: dict) -> dict:
    try:
        if isinstance(req, str):
            req = {"src": req}
        if not isinstance(req, dict):
            return bad_request("a request must be an object or a string")
        problem = request_problem(req)
        if problem is not None:
            return bad_request(problem, req)
        src = req.get("src")
        if not isinstance(src, str):
            src = ""
        settings = Settings.from_dict(req)
        if "node_name" not in req:
            settings.node_name = "oracle"
        if "environment" not in req:
            settings.environment = "oracle"
        budget = Budget()
        if isinstance(req.get("max_steps"), int):
            budget.steps = req["max_steps"]
        if isinstance(req.get("timeout"), (int, float)):
            budget.seconds = float(req["timeout"])
        res = evaluate(safe_parse(src, tasks=settings.tasks), settings, budget)
        ctx = res.context
        out: dict = {}
        if "id" in req:
            out["id"] = req["id"]
        err = res.error
        if res.ok:
            limits = budget.limits()
            if budget.seconds is not None:
                # rendering gets the budget's time again (the evaluation may have used it up)
                limits.deadline = time.monotonic() + budget.seconds
            try:
                out.update(ok=True, **render_value(res.value, limits))
            except guard.LimitExceeded as exc:
                # the result itself is too large to show: an error like any other
                err = limit_error(exc)
                res.ok = False
                res.error = err
        if not res.ok:
            assert err is not None   # a failed result always carries its error
            line, pos = _position(ctx, err.offset)
            if err.code == "CONTROL_FLOW":
                line = pos = None
            out["ok"] = False
            out["error"] = {"message": format_error(err, ctx, settings.node_name),
                            "basic_message": err.basic_message,
                            # Puppet's "validation logged N errors" summary has no code.
                            "issue_code": None if err.validation_errors
                            else err.puppet_issue_code, "line": line, "pos": pos}
        # The oracle runs Puppet at log level info: debug messages are not shown.
        out["logs"] = [_log_dict(ctx, log) for log in (ctx.logs if ctx else [])
                       if log.level != "debug"]
        if res.error is not None:
            out["logs"].extend(_error_logs(res.error, ctx, settings.node_name))
        return out
    # isolation boundary: one answer per request line
    except (Exception, guard.LimitExceeded) as exc:  # noqa: BLE001
        return {"ok": False, "error": {"message": render("INTERNAL_ERROR_IN_PROTOCOL",
                                                         name=type(exc).__name__, exc=exc),
                                       "issue_code": "INTERNAL_ERROR", "line": None, "pos": None},
                "logs": []}
