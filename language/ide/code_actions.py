"""Code actions: the quick fix of each fixable style finding in a range, "fix all puppet-lint
issues" for the file, "ignore <check> on this line" (a control comment), and the quick fixes
of the checker's findings (did you mean, add a missing parameter).

Every edit offered is proven as ``check --fix`` proves its edits (``lint.fix``): a quick fix is
offered only if its result keeps the tree, and a control comment is only written where it is
a comment to Puppet (never inside a multi-line string or heredoc).
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..check.analysis import Analysis
from ..check.builtins import BUILTIN_VARIABLES
from ..check.checks import DATA_TYPE_NAMES
from ..check.signatures import builtin_function_names
from ..diagnostics import Diagnostic
from ..messages import WARNING
from ..knowledge.resource_types import metaparameters
from ..syntax import ast as A
from ..syntax import kinds as K
from ..types.build import BUILTIN_RESOURCE_TYPES
from . import lookup
from .docs import leading_comment_lines, parse_doc
from ..lint import CHECKS
from ..lint.fix import fix_one, fix_text, verify
from ..lint.tokens import COMMENTS, TokenView
from ..syntax.parser import ParseResult, parse
from ..syntax.tree import SyntaxNode

QUICKFIX = "quickfix"
FIX_ALL = "source.fixAll.puppet-ls"


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Action:
    title: str
    kind: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic | None = None
    preferred: bool = False


def _overlaps(d: Diagnostic, start: int, end: int) -> bool:
    return d.offset <= end and start <= max(d.end, d.offset)


def quick_fixes(result: ParseResult, diags: list[Diagnostic], start: int, end: int,
                tasks: bool = False, cache: dict | None = None) -> list[Action]:
    """A fix for each fixable style finding of ``diags`` touching [start, end], and an
    "ignore" action for each style finding and each warning of the checker there.  ``cache`` (one per text) keeps the proofs:
    editors ask again at every move of the cursor."""
    cache = {} if cache is None else cache
    out: list[Action] = []
    view: TokenView | None = None
    seen: set[tuple[str, int]] = set()
    for d in diags:
        style = d.code in CHECKS
        if not (style or _silenceable(d)) or not _overlaps(d, start, end):
            continue
        proof = ("fix", d.code, d.offset, d.end)
        if style and d.fix is not None and proof not in cache:
            cache[proof] = fix_one(result, d, tasks) is not None
        if style and d.fix is not None and cache[proof]:
            out.append(Action(f"Fix {d.code}: {d.message}", QUICKFIX,
                              tuple(Edit(*e) for e in d.fix.edits), d, preferred=True))
        if view is None:
            view = TokenView(result.text, result.green)
        line = view.line(d.offset)
        if (d.code, line) in seen:
            continue
        seen.add((d.code, line))
        place = ("ignore", d.code, line)
        if place not in cache:
            # a checker's code is written in lower case, as puppet-lint's check names are
            cache[place] = ignore_edit(result, view, d.code if style else d.code.lower(), line, tasks)
        edit = cache[place]
        if edit is not None:
            out.append(Action(f"Ignore {d.code} on this line", QUICKFIX, (edit,), d))
    return out


def _silenceable(d: Diagnostic) -> bool:
    """A checker's warning, which a control comment may silence where the author knows better
    (a variable set by an ENC, a module not installed here); errors are not offered."""
    return d.severity == WARNING and d.code.isupper()


def fix_all(result: ParseResult, path: str, enabled: frozenset[str], tasks: bool = False) -> Action | None:
    """Every fix ``check --fix`` would make to the file, as one action (None: nothing to fix)."""
    from ..formatter import minimal_edits
    fixed = fix_text(result.text, path, enabled, reparse=None, tasks=tasks)
    if not fixed.changed:
        return None
    edits = tuple(Edit(e.start, e.end, e.text) for e in minimal_edits(result.text, fixed.text))
    return Action("Fix all puppet-lint issues", FIX_ALL, edits)


def ignore_edit(result: ParseResult, view: TokenView, code: str, line: int, tasks: bool = False) -> Edit | None:
    """The edit writing a control comment that silences ``code`` on ``line`` (1-based): after
    the line's code (``# lint:ignore:<check>``, or added to the control comment already there),
    or, when the line ends with another comment, as a ``# lint:ignore`` … ``# lint:endignore``
    block around the line.  None where no comment can go (the line ends inside a string)."""
    text = result.text
    starts = view.lines.starts
    if line > len(starts):
        return None
    start = starts[line - 1]
    eol = starts[line] - 1 if line < len(starts) else len(text)
    if eol > start and text[eol - 1] == "\r":
        eol -= 1
    toks = view.toks
    i = view.index_at(eol)
    # the line must end with a line break (or the file's end) that is code, not string text
    if i < len(toks) and not (toks[i].type == "NEWLINE" and toks[i].offset == eol):
        return None
    j = i - 1
    while j >= 0 and toks[j].type == "WHITESPACE":
        j -= 1
    if j < 0 or toks[j].offset < start or toks[j].type in ("NEWLINE", "INDENT"):
        return None                          # a blank line: nothing to silence
    last = toks[j]
    word = f"lint:ignore:{code}"
    if last.type in COMMENTS:
        prev = view.prev_code(j)
        trailing = prev is not None and toks[prev].offset >= start
        if last.type == "COMMENT" and last.value.strip().startswith("lint:ignore:") and trailing:
            edit: Edit | None = _after_control_words(last, word)
        else:
            edit = _block(text, view, start, eol, word)
    else:
        edit = Edit(last.end, last.end, f" # {word}")
    if edit is None or not verify(result, text[:edit.start] + edit.text + text[edit.end:], [], tasks):
        return None
    return edit


def _after_control_words(comment, word: str) -> Edit:
    """``word`` added after the control words of a ``# lint:ignore:a reason`` comment."""
    pos = comment.offset + 1
    end = pos
    for w in comment.value.split(" "):
        if w.startswith("lint:"):
            end = pos + len(w)
        elif w:
            break
        pos += len(w) + 1
    return Edit(end, end, f" {word}")


def _block(text: str, view: TokenView, start: int, eol: int, word: str) -> Edit | None:
    """A control block around the line [start, eol): its own comment lines, indented as it."""
    i = view.index_at(start)
    if start > 0:
        # the line must start as code does (after a line break token), not inside a string
        prev = view.toks[i - 1] if i > 0 else None
        if prev is None or prev.type != "NEWLINE" or prev.end != start:
            return None
    indent = text[start:start + len(text[start:eol]) - len(text[start:eol].lstrip(" \t"))]
    nl = "\r\n" if text.find("\n") > 0 and text[text.find("\n") - 1] == "\r" else "\n"
    return Edit(start, eol, f"{indent}# {word}{nl}{text[start:eol]}{nl}{indent}# lint:endignore")


# ---- quick fixes of the checker's findings -----------------------------------------------------

#: the checker's codes for a name that is not known, and what kind of name each is
UNKNOWN_NAME_CODES = {"UNDEFINED_VARIABLE": "variable", "UNDEFINED_CLASS_VARIABLE": "class_variable",
                      "UNDEFINED_FUNCTION": "function", "UNDEFINED_CLASS": "class",
                      "UNDEFINED_RESOURCE_TYPE": "resource_type", "UNDEFINED_TYPE": "type",
                      "NO_SUCH_PARAMETER": "attribute", "UNKNOWN_PARAMETER": "attribute",
                      "RESOURCE_NO_SUCH_PARAMETER": "attribute"}
_NAME = re.compile(r"(?:::)?[A-Za-z_][\w]*(?:::[A-Za-z_]\w*)*")


def did_you_mean(name: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The known names a typo away from ``name`` (the one place suggestions are made): at most
    one edit (a letter added, dropped, changed or two swapped) for a last name segment of up
    to 5 letters, two up to 10, three beyond, compared without case; closest first.  Bounding
    the edits by the last segment keeps ``Stdlib::Ipv4`` from suggesting ``Stdlib::Port``."""
    low = name.lower()
    last = len(low.rsplit("::", 1)[-1])
    bound = 1 if last <= 5 else 2 if last <= 10 else 3
    scored: dict[str, tuple[int, float, str]] = {}
    for c in candidates:
        cl = c.lower() if c else ""
        if not cl or cl == low or cl in scored or abs(len(cl) - len(low)) > bound:
            continue
        dist = _edits(low, cl, bound)
        if dist <= bound:
            scored[cl] = (dist, -difflib.SequenceMatcher(None, low, cl).ratio(), c)
    return [c for _, _, c in sorted(scored.values())[:limit]]


def _edits(a: str, b: str, bound: int) -> int:
    """The optimal string alignment distance of ``a`` and ``b``, or ``bound + 1`` once over it."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > bound:
            return bound + 1
        prev2, prev = prev, cur
    return prev[-1]


def checker_fixes(an: Analysis, diags: list[Diagnostic], start: int, end: int,
                  tasks: bool = False) -> list[Action]:
    """For the checker's findings touching [start, end]: "Change to 'x'" where a name is not
    known and close ones are, "Add parameter 'p'" where an instance of a defined type misses
    one (with a placeholder value of the parameter's type, to be filled in), and the missing
    ``@param`` lines for puppet-lint-param-docs' ``parameter_documentation``."""
    out: list[Action] = []
    missing: dict[int, list[Diagnostic]] = {}
    for d in diags:
        if not _overlaps(d, start, end):
            continue
        if d.code in UNKNOWN_NAME_CODES:
            out += _rename_fixes(an, d, tasks)
        elif d.code == "MISSING_RESOURCE_PARAMETER":
            missing.setdefault(d.offset, []).append(d)
        elif d.code == "parameter_documentation":
            doc = _document_params(an, d.offset, d.offset, tasks)
            if doc is not None and all(a.edits != doc.edits for a in out):
                out.append(Action(doc.title, QUICKFIX, doc.edits, d, preferred=True))
    for group in missing.values():
        out += _missing_parameter_fixes(an, group, tasks)
    return out


def _rename_fixes(an: Analysis, d: Diagnostic, tasks: bool) -> list[Action]:
    text = an.result.text
    m = _NAME.search(text, d.offset, d.end)
    if m is None:
        return []
    written = m.group(0)
    s, e = m.start(), m.end()
    if written.startswith("::"):
        s += 2
        written = written[2:]
    kind = UNKNOWN_NAME_CODES[d.code]
    if kind == "class_variable":
        # only the variable's own part after the class: $class::name
        cls, _, var = written.rpartition("::")
        s += len(cls) + 2
        written, names = var, _class_variables(an, cls)
    else:
        names = _known_names(an, kind, d)
    capital = written[:1].isupper()
    out: list[Action] = []
    for name in did_you_mean(written, names):
        if kind in ("type", "resource_type") and capital:
            name = "::".join(p[:1].upper() + p[1:] for p in name.split("::"))
        elif kind == "resource_type":
            name = name.lower()
        if not _parses_alike(an.result, text[:s] + name + text[e:], tasks):
            continue
        shown = f"${text[m.start():s].lstrip(':')}{name}" if kind in ("variable", "class_variable") else name
        out.append(Action(f"Change to '{shown}'", QUICKFIX, (Edit(s, e, name),), d, preferred=not out))
    return out


def _known_names(an: Analysis, kind: str, d: Diagnostic) -> list[str]:
    """The names of ``kind`` known where the finding ``d`` is."""
    env, model = an.env, an.model
    own = {n.name.lstrip(":").lower() for n in model.named if n.kind in ("class", "define", "function", "type_alias")}
    if kind == "variable":
        return list(model.visible_variables(d.offset)) + sorted(BUILTIN_VARIABLES)
    if kind == "function":
        return ([n.name.lstrip(":") for n in model.named if n.kind == "function"]
                + list(builtin_function_names()) + list(env.names("function")))
    if kind == "class":
        return [n.name.lstrip(":") for n in model.named if n.kind == "class"] + list(env.names("class"))
    if kind == "resource_type":
        return (sorted(BUILTIN_RESOURCE_TYPES) + [n for n in own if any(x.kind == "define" and x.name.lstrip(":").lower() == n
                                                                      for x in model.named)]
                + list(env.names("define")) + list(env.names("resource_type")))
    if kind == "type":
        aliases = [n.name.lstrip(":") for n in model.named if n.kind == "type_alias"] + list(env.names("type_alias"))
        return sorted(DATA_TYPE_NAMES) + aliases + sorted(BUILTIN_RESOURCE_TYPES) + list(env.names("define"))
    if kind == "attribute":
        return list(_resource_params(an, d.offset)) + list(metaparameters())
    return []


def _class_variables(an: Analysis, cls: str) -> list[str]:
    low = cls.lower()
    for n in an.model.named:
        if n.kind == "class" and n.name.lstrip(":").lower() == low and n.scope is not None:
            return list(n.scope.variables)
    return [v for e in an.env.lookup("class", low) for v in e.variables]


def _resource_of(an: Analysis, offset: int):
    """The resource body holding ``offset`` and its resource expression (None, None outside one)."""
    tok = an.result.root.token_at(offset)
    node = tok.parent if tok is not None else None
    while node is not None and node.kind != K.RESOURCE_BODY:
        node = node.parent
    if node is None or node.parent is None or node.parent.kind != K.RESOURCE_EXPR:
        return None, None
    return A.ResourceBody(node), A.ResourceExpr(node.parent)


def _resource_params(an: Analysis, offset: int) -> dict:
    """name -> (type text, default text, doc) of the parameters of the resource at ``offset``."""
    body, res = _resource_of(an, offset)
    if body is None or res is None:
        return {}
    te = res.type_expr()
    type_name = te.name if isinstance(te, (A.QName, A.TypeRef)) else "class" if te is None else ""
    if type_name.lower() == "class":
        title = an.const_value(body.title()) if body.title() is not None else None
        targets = lookup.find(an, "class", title) if isinstance(title, str) else []
        return targets[0].params if targets else {}
    t = lookup.resource_type_target(an, type_name) if type_name else None
    return t.params if t is not None else {}


def _placeholder(type_text: str) -> str:
    """A value of a parameter's type for the user to replace (``undef`` would count as not given)."""
    t = re.sub(r"\s+", "", type_text)
    while True:
        m = re.fullmatch(r"(?:Optional|NotUndef|Sensitive)\[(.*)\]", t)
        if m is None:
            break
        t = m.group(1)
    head = t.split("[", 1)[0]
    enum = re.fullmatch(r"Enum\[\s*(['\"])(.*?)\1.*\]", t)
    if enum:
        return f"'{enum.group(2)}'"
    return {"Integer": "0", "Float": "0.0", "Numeric": "0", "Boolean": "false", "Array": "[]", "Tuple": "[]",
            "Hash": "{}", "Struct": "{}"}.get(head, "''")


def _missing_parameter_fixes(an: Analysis, group: list[Diagnostic], tasks: bool) -> list[Action]:
    body, _ = _resource_of(an, group[0].offset)
    if body is None:
        return []
    params = _resource_params(an, group[0].offset)
    names = [m.group(1) for d in group if (m := re.search(r"parameter '(\w+)'", d.message))]
    out = []
    for d, name in zip(group, names):
        edit = _add_attribute(an, body, [(name, _placeholder(params.get(name, ("",))[0]))], tasks)
        if edit is not None:
            out.append(Action(f"Add parameter '{name}'", QUICKFIX, (edit,), d, preferred=len(group) == 1))
    if len(names) > 1:
        edit = _add_attribute(an, body, [(n, _placeholder(params.get(n, ("",))[0])) for n in names], tasks)
        if edit is not None:
            out.append(Action(f"Add the {len(names)} missing parameters", QUICKFIX, (edit,), group[0], preferred=True))
    return out


def _add_attribute(an: Analysis, body, attrs: list[tuple[str, str]], tasks: bool) -> Edit | None:
    """The edit adding ``name => value`` attributes at the end of a resource body: each on its
    own line, arrows aligned with the last one, where the body's attributes are one a line;
    else after the last one (or the title's colon) on the same line."""
    text = an.result.text
    ops = body.ops()
    if ops:
        last = ops[-1].syntax
        after = last.range[1]
        tok = an.result.root.token_at(after)
        while tok is not None and tok.is_trivia and "\n" not in tok.text:
            tok = an.result.root.token_at(tok.end)
        comma = tok is not None and tok.kind == K.COMMA
        at = tok.end if comma and tok is not None else after
        lead = "" if comma else ","
        line_start = text.rfind("\n", 0, last.range[0]) + 1
        own_line = not text[line_start:last.range[0]].strip()
        indent = text[line_start:last.range[0]]
        arrow = last.token(K.FARROW)
        width = arrow.offset - last.range[0] if arrow is not None and own_line else 0
    else:
        colon = body.syntax.token(K.COLON)
        if colon is None:
            return None
        at, lead, own_line, width = colon.end, "", False, 0
        after_colon = text[colon.end:body.syntax.end]
        if "\n" in text[colon.end:colon.end + len(after_colon) - len(after_colon.lstrip())] or (
                "\n" in text[colon.end:body.syntax.parent.range[1]] if body.syntax.parent is not None else False):
            line_start = text.rfind("\n", 0, colon.offset) + 1
            indent = text[line_start:len(text[:line_start]) + len(text[line_start:]) - len(text[line_start:].lstrip(" \t"))]
            indent += "  "
            own_line = True
    if own_line:
        new = lead + "".join(f"\n{indent}{n.ljust(width - 1) if width else n} => {v}," for n, v in attrs)
    else:
        new = lead + "".join(f" {n} => {v}," for n, v in attrs)
    return Edit(at, at, new) if _parses_alike(an.result, text[:at] + new + text[at:], tasks) else None


def _parses_alike(before: ParseResult, after_text: str, tasks: bool) -> bool:
    """Does the edited text parse with the same errors (none, where actions are offered)?"""
    return [x.code for x in parse(after_text, tasks=tasks).errors] == [x.code for x in before.errors]


# ---- refactors -------------------------------------------------------------------------------

EXTRACT = "refactor.extract"
REWRITE = "refactor.rewrite"

# What may be taken out into a variable: values, never names (a function's, a type's in a
# resource declaration) nor variables themselves.
_EXTRACTABLE = frozenset({K.LITERAL, K.DQ_STRING, K.ARRAY, K.HASH, K.PAREN_EXPR, K.BINARY_EXPR, K.UNARY_EXPR,
                          K.ACCESS_EXPR, K.SELECTOR_EXPR, K.CALL_EXPR, K.METHOD_CALL, K.TYPE_REF})
# Evaluated only on some paths, or once per something: moving them before their statement
# would evaluate them when Puppet would not (or once instead of many times).
_CONDITIONAL = frozenset({K.ELSIF_CLAUSE, K.ELSE_CLAUSE, K.CASE_OPTION, K.SELECTOR_ENTRY, K.COLLECT_QUERY,
                          K.PARAM_LIST, K.PARAM, K.INTERPOLATION, K.HEREDOC_EXPR, K.RESOURCE_DEFAULTS})
_STATEMENT_LISTS = frozenset({K.BLOCK, K.STATEMENTS, K.SOURCE_FILE})


def refactors(an: Analysis, start: int, end: int, tasks: bool = False) -> list[Action]:
    """The refactors offered for a selection or a cursor position: extract the selected
    expression into a variable, declare each title of a resource's title array as its own
    resource, add the missing ``@param`` lines to a class's or defined type's doc comment."""
    if an.result.errors or an.result.green.kind == K.EPP_FILE:
        return []
    out: list[Action] = []
    for make in (_extract_variable, _split_titles, _document_params):
        try_action = make(an, start, end, tasks)
        if try_action is not None:
            out.append(try_action)
    return out


def _extract_variable(an: Analysis, start: int, end: int, tasks: bool) -> Action | None:
    text = an.result.text
    s, e = start, end
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    if s >= e:
        return None
    node: SyntaxNode | None = an.result.root.covering_node(s, e)
    while node is not None and node.range != (s, e):
        node = node.parent if node.range[0] >= s and node.range[1] <= e else None
    if node is None or node.kind not in _EXTRACTABLE:
        return None
    parent = node.parent
    if parent is None or (node.kind == K.TYPE_REF and parent.kind in (K.RESOURCE_EXPR, K.COLLECT_EXPR)):
        return None
    # the statement the expression belongs to, and nothing evaluated only on some paths between
    stmt = node
    while stmt.parent is not None and stmt.parent.kind not in _STATEMENT_LISTS:
        child, stmt = stmt, stmt.parent
        if stmt.kind in _CONDITIONAL or stmt.kind in (K.LAMBDA, K.BLOCK, K.CLASS_DEF, K.DEFINE_DEF,
                                                      K.FUNCTION_DEF, K.NODE_DEF, K.PLAN_DEF, K.TYPE_ALIAS):
            return None
        first = next(stmt.children(), None)
        if stmt.kind == K.BINARY_EXPR and (child.range != first.range if first is not None else True) and \
                any(t.kind in (K.AND, K.OR) for t in stmt.tokens() if t.parent is not None and t.parent.range == stmt.range):
            return None          # the right operand of 'and'/'or' is evaluated only sometimes
        if stmt.kind == K.ASSIGNMENT and first is not None and child.range == first.range:
            return None          # the variable being assigned
    if stmt.parent is None:
        return None
    at = stmt.range[0]
    line_start = text.rfind("\n", 0, at) + 1
    indent = text[line_start:at]
    if indent.strip():
        return None              # the statement does not start its line
    name = _free_name(an, _name_for(node, parent), at)
    new_text = text[:at] + f"${name} = {text[s:e]}\n{indent}" + text[at:s] + f"${name}" + text[e:]
    if not _parses_alike(an.result, new_text, tasks) or not _validates_alike(an.result, new_text, tasks):
        return None
    return Action(f"Extract into variable ${name}", EXTRACT,
                  (Edit(at, at, f"${name} = {text[s:e]}\n{indent}"), Edit(s, e, f"${name}")))


def _name_for(node, parent) -> str:
    if parent.kind == K.ATTRIBUTE_OP:
        tok = parent.first_token()
        if tok is not None and tok.kind == K.NAME:
            return tok.text
    if node.kind in (K.CALL_EXPR, K.METHOD_CALL):
        names = [t.text for t in node.tokens((K.NAME,))]
        if names:
            return (names[0] if node.kind == K.CALL_EXPR else names[-1]).split("::")[-1]
    return "value"


def _free_name(an: Analysis, base: str, offset: int) -> str:
    """``base``, or ``base_2``…, a name no variable in scope has (Puppet refuses reassignment)."""
    scope = an.model.scope_at(offset)
    taken = set(an.model.visible_variables(offset)) | set(scope.variables)
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


def _validates_alike(before: ParseResult, after_text: str, tasks: bool) -> bool:
    from ..syntax.validate import validate
    return [d.code for d in validate(parse(after_text, tasks=tasks))] == [d.code for d in validate(before)]


def _split_titles(an: Analysis, start: int, end: int, tasks: bool) -> Action | None:
    """``type { ['a', 'b']: attrs }`` as one declaration per title (only that simple form: one
    body, a literal array of literal titles, the cursor on the array)."""
    tok = an.result.root.token_at(start)
    node = tok.parent if tok is not None else None
    while node is not None and node.kind != K.ARRAY:
        node = node.parent
    if node is None or node.parent is None or node.parent.kind != K.RESOURCE_BODY:
        return None
    body, res = node.parent, node.parent.parent
    if res is None or res.kind != K.RESOURCE_EXPR or A.ResourceBody(body).title() is None \
            or A.ResourceBody(body).title().syntax.range != node.range or len(A.ResourceExpr(res).bodies()) != 1:
        return None
    items = [c for c in node.children() if c.kind in (K.LITERAL, K.DQ_STRING)]
    if len(items) < 2 or len(items) != sum(1 for _ in node.children()):
        return None
    text = an.result.text
    rs, re_ = res.range
    line_start = text.rfind("\n", 0, rs) + 1
    indent = text[line_start:rs]
    if indent.strip():
        return None
    ts, te = node.range
    copies = [text[rs:ts] + text[i.range[0]:i.range[1]] + text[te:re_] for i in items]
    new = f"\n{indent}".join(copies)
    if not _parses_alike(an.result, text[:rs] + new + text[re_:], tasks):
        return None
    return Action(f"Declare each of the {len(items)} titles separately", REWRITE, (Edit(rs, re_, new),))


def _document_params(an: Analysis, start: int, end: int, tasks: bool) -> Action | None:
    """``# @param name`` lines for the parameters a class's or defined type's doc comment does
    not describe, in parameter order, where the cursor is on its name or a parameter."""
    tok = an.result.root.token_at(start)
    node = tok.parent if tok is not None else None
    while node is not None and node.kind not in (K.CLASS_DEF, K.DEFINE_DEF):
        if node.kind == K.BLOCK:
            return None          # inside the body: not on the definition's head
        node = node.parent
    if node is None:
        return None
    text = an.result.text
    view = A.ClassDef(node) if node.kind == K.CLASS_DEF else A.DefineDef(node)
    names = [p.name for p in view.params()]
    comment_lines = leading_comment_lines(text, node.range[0])
    documented = parse_doc("\n".join(t for _, t in comment_lines)).params
    missing = [n for n in names if n not in documented]
    if not missing:
        return None
    line_start = text.rfind("\n", 0, node.range[0]) + 1
    indent = text[line_start:node.range[0]]
    if indent.strip():
        return None
    nl = "\r\n" if "\r\n" in text else "\n"
    edits = []
    # after the @param block of the nearest documented parameter declared before, else before
    # the first tag that is not a @param (or the end of the comment)
    blocks = _param_blocks(comment_lines + [(line_start, "")])
    for name in missing:
        before = [n for n in names[:names.index(name)] if n in blocks]
        if before:
            at = blocks[before[-1]]
        else:
            after_tags = [off for off, t in comment_lines if t.lstrip().startswith("@") and not t.lstrip().startswith("@param")]
            first_param = min((blocks_start for blocks_start in _param_starts(comment_lines)), default=None)
            at = first_param if first_param is not None else (after_tags[0] if after_tags else line_start)
        edits.append(Edit(at, at, f"{indent}# @param {name}{nl}"))
    merged: dict[int, str] = {}
    for ed in edits:
        merged[ed.start] = merged.get(ed.start, "") + ed.text
    final = tuple(Edit(k, k, v) for k, v in sorted(merged.items()))
    new_text = text
    for ed in sorted(final, key=lambda x: x.start, reverse=True):
        new_text = new_text[:ed.start] + ed.text + new_text[ed.end:]
    if not _parses_alike(an.result, new_text, tasks):
        return None
    what = f"${missing[0]}" if len(missing) == 1 else f"the {len(missing)} undocumented parameters"
    return Action(f"Document {what} (@param)", REWRITE, final)


def _param_starts(lines: list[tuple[int, str]]) -> list[int]:
    return [off for off, t in lines if t.startswith("@param")]


def _param_blocks(lines: list[tuple[int, str]]) -> dict[str, int]:
    """Parameter name -> the offset just after its @param tag and continuation lines (``lines``
    ends with the line after the comment)."""
    out: dict[str, int] = {}
    current = None
    for i, (off, t) in enumerate(lines):
        if t.startswith("@param"):
            words = _without_types_words(t[len("@param"):])
            current = words.lstrip("$") if words else None
        elif not (current and t.startswith((" ", "\t"))):
            current = None
        if current and i + 1 < len(lines):
            out[current] = lines[i + 1][0]
    return out


def _without_types_words(rest: str) -> str:
    """The parameter name of a ``@param`` tag's text (types in brackets skipped)."""
    return next(iter(parse_doc("@param" + rest).params), "")
