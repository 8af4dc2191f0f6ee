"""Every user-visible message and code of ``language/`` comes from ``language/messages.py``.

An AST scan over ``language/``: wherever a diagnostic, an evaluation error, a type-system error
or a warning is built (the *sinks* below), the message must not be text written on the spot
(a string literal, an f-string, a concatenation or ``%``/``.format`` of a literal, or a local
variable assigned one of those), and every code named there, every ``code=`` argument and
every key given to ``render``/``issue`` must be registered; a message rendered from key ``K``
and reported under a literal code must be reported under ``K``'s own code.
"""
from __future__ import annotations

import ast
from pathlib import Path

from puppet_ls.language import messages

ROOT = Path(__file__).resolve().parents[1]

# callee name -> (index of the message argument, index of the code argument); None: absent.
SINKS: dict[str, tuple[int | None, int | None]] = {
    "EvalError": (0, 1),
    "ArgumentsError": (0, 1),
    "BudgetExceeded": (0, 1),
    "TypeSystemError": (0, 2),
    "TypeBuildError": (0, 2),
    "LimitExceeded": (0, 1),
    # EvalError subclasses whose code is fixed by the class
    "TimeFormatError": (0, None),
    "ConversionError": (0, None),
    "DigError": (0, None),
    # Ruby's format errors, raised again as evaluation errors (RUNTIME_ERROR) with their text
    "FormatError": (0, None),
    "RubyFormatError": (0, None),
    "StringFormatError": (0, None),
    # Ruby's reasons, which become parts of other messages (registered fragments)
    "CompareError": (0, None),
    "RubyRegexpError": (0, None),
    # Puppet's loader errors for a name defined twice (eval/catalog.py)
    "_definition_error": (0, None),
    "OpError": (1, 0),
    "fail": (1, 0),             # Evaluator.fail(code, message, where)
    "optionally_fail": (2, 1),  # Evaluator.optionally_fail(level, code, message, where)
    "warn": (1, 0),             # Evaluator.warn(code, message, where)
    "log": (1, 4),              # Context.log(level, message, offset, end, code)
    "err": (1, 3),              # types.build's Builder.err(call, message, index, code)
    "Diagnostic": (4, 3),
    "of": (None, 0),            # Diagnostic.of(code, ...)
    "issue": (None, 0),
    "render": (None, 0),
}
# variables and attributes that hold a code
_CODE_NAMES = {"code", "diag_code", "issue_code"}
# Functions whose result is message text (a reason or a whole message): what they return must
# not be text written on the spot either.
MESSAGE_FUNCTIONS = {"regexp_error"}
# callee name -> index of a preamble argument ("Error while evaluating a Function Call, ")
PREFIXES: dict[str, int] = {"fail": 3, "locate": 2, "EvalError": 4}


def _callee(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


def _is_text(node: ast.AST) -> bool:
    """Text written on the spot."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _is_text(node.left) or _is_text(node.right)
    if isinstance(node, ast.IfExp):
        return _is_text(node.body) or _is_text(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and _is_text(node.func.value)
    return False


def _literal_codes(node: ast.AST | None) -> list[str]:
    """The string constants a code argument can evaluate to (``x.code or "ILLEGAL_TYPE"``)."""
    if node is None:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.BoolOp):
        return [c for v in node.values for c in _literal_codes(v)]
    if isinstance(node, ast.IfExp):
        return _literal_codes(node.body) + _literal_codes(node.orelse)
    return []


def _arg(call: ast.Call, index: int | None, names: tuple[str, ...]) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg in names:
            return kw.value
    if index is not None and index < len(call.args) \
            and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return call.args[index]
    return None


def _scan(path: Path):
    """(line, problem) for every violation in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    registered = {i.code for i in messages.all_issues()}
    out: list[tuple[int, str]] = []

    def text_vars(func: ast.AST) -> set[str]:
        names = set()
        for n in ast.walk(func):
            if isinstance(n, ast.Assign) and _is_text(n.value):
                names.update(t.id for t in n.targets if isinstance(t, ast.Name))
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and _is_text(n.value):
                names.add(n.target.id)
        return names

    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    owner: dict[int, set[str]] = {}
    for fn in scopes:
        tv = text_vars(fn)
        for n in ast.walk(fn):
            owner[id(n)] = tv  # innermost function wins: scopes are walked outer first

    for fn in scopes:
        if fn.name in MESSAGE_FUNCTIONS:
            tv = text_vars(fn)
            for n in ast.walk(fn):
                if isinstance(n, ast.Return) and n.value is not None and (
                        _is_text(n.value) or isinstance(n.value, ast.Name) and n.value.id in tv):
                    out.append((n.lineno, f"ad-hoc message text returned by {fn.name}()"))

    for node in ast.walk(tree):
        if isinstance(node, ast.arguments):
            # a parameter named ``code`` with a default: that default is a code
            for a, d in zip(node.args[len(node.args) - len(node.defaults):], node.defaults):
                if a.arg == "code":
                    for c in _literal_codes(d):
                        if c not in registered:
                            out.append((d.lineno, f"unregistered default code {c!r}"))
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            # code = x.code or "EVAL_ERROR", err.diag_code = "...": codes too
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in _CODE_NAMES
                   or isinstance(t, ast.Attribute) and t.attr in _CODE_NAMES for t in targets):
                for c in _literal_codes(node.value):
                    if c not in registered:
                        out.append((node.lineno, f"unregistered code {c!r}"))
            continue
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "__init__" \
                and isinstance(node.func.value, ast.Call) and _callee(node.func.value) == "super":
            # an error class passing its own code: super().__init__(message, "TIME_FORMAT_ERROR")
            for a in node.args[1:2]:
                for c in _literal_codes(a):
                    if c.isupper() and c not in registered:
                        out.append((node.lineno, f"unregistered code {c!r}"))
        name = _callee(node)
        if name in PREFIXES:
            prefix = _arg(node, PREFIXES[name], ("prefix",))
            if prefix is not None and _is_text(prefix) and not (
                    isinstance(prefix, ast.Constant) and prefix.value == ""):
                out.append((node.lineno, f"ad-hoc prefix text passed to {name}()"))
        if name not in SINKS:
            continue
        mi, ci = SINKS[name]
        if name == "of" and not (isinstance(node.func, ast.Attribute)
                                 and isinstance(node.func.value, ast.Name)
                                 and node.func.value.id == "Diagnostic"):
            continue
        code = _arg(node, ci, ("code",))
        codes = _literal_codes(code)
        for c in codes:
            if name == "render":
                if not messages.is_registered(c):
                    out.append((node.lineno, f"unregistered message key {c!r}"))
            elif c not in registered:
                out.append((node.lineno, f"unregistered code {c!r}"))
        if mi is None:
            continue
        msg = _arg(node, mi, ("message", "msg"))
        if msg is None:
            continue
        if _is_text(msg):
            if name == "log" and _arg(node, 0, ("level",)) is not None \
                    and _literal_codes(_arg(node, 0, ("level",))) == ["notice"]:
                continue
            out.append((node.lineno, f"ad-hoc message text passed to {name}()"))
        elif isinstance(msg, ast.Name) and msg.id in owner.get(id(node), set()):
            out.append((node.lineno, f"ad-hoc message text (variable {msg.id!r}) passed to {name}()"))
        elif isinstance(msg, ast.Call) and _callee(msg) == "render" and codes:
            keys = _literal_codes(msg.args[0] if msg.args else None)
            for k in keys:
                if messages.is_fragment(k):
                    out.append((node.lineno, f"fragment {k!r} reported as a whole message"))
                elif messages.is_registered(k) and messages.code_of(k) not in codes:
                    what = (f"message {k!r} is reported under its code "
                            f"{messages.code_of(k)!r}, not {codes}")
                    out.append((node.lineno, what))
    return out


def _python_files():
    return sorted(p for p in (ROOT / "language").rglob("*.py") if p.name != "messages.py")


def test_no_ad_hoc_messages_and_no_unregistered_codes() -> None:
    problems = [f"{p.relative_to(ROOT)}:{line}: {what}"
                for p in _python_files() for line, what in _scan(p)]
    assert not problems, "\n".join(problems)


def test_scan_finds_what_it_forbids(tmp_path: Path) -> None:
    # The scan itself can fail: each forbidden shape is caught.
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(ev, x):\n"
        "    raise ev.fail('UNKNOWN_VARIABLE', f'Unknown variable: {x}', None)\n"
        "def g(x):\n"
        "    msg = 'Oops ' + x\n"
        "    raise EvalError(msg)\n"
        "def h():\n"
        "    raise EvalError(render('NOT_A_KEY'), 'NOT_A_REGISTERED_CODE')\n"
        "def i():\n"
        "    raise OpError('DIV_BY_ZERO', render('UNKNOWN_VARIABLE', name='x'))\n"
        "def j(err):\n"
        "    code = err.code or 'NOT_REGISTERED_EITHER'\n"
        "def k(a):\n"
        "    raise CompareError('A String is not comparable to ' + a)\n"
        "def regexp_error(p):\n"
        "    return f'premature end of char-class: /{p}/'\n"
        "def m():\n"
        "    raise EvalError(render('COMPARE_SYMBOL'), 'RUNTIME_ERROR')\n",
        encoding="utf-8")
    found = sorted(what for _, what in _scan(sample))
    assert found == sorted([
        "ad-hoc message text passed to fail()",
        "ad-hoc message text (variable 'msg') passed to EvalError()",
        "unregistered code 'NOT_A_REGISTERED_CODE'",
        "unregistered message key 'NOT_A_KEY'",
        "unregistered code 'NOT_REGISTERED_EITHER'",
        "ad-hoc message text passed to CompareError()",
        "ad-hoc message text returned by regexp_error()",
        "fragment 'COMPARE_SYMBOL' reported as a whole message",
        ("message 'UNKNOWN_VARIABLE' is reported under its code 'UNKNOWN_VARIABLE', not "
         "['DIV_BY_ZERO']"),
    ]), found
