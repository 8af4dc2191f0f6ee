"""Render our tokens and trees in the formats Puppet's own tools print, for comparison with it.

* ``puppet_dump(root)``: the S-expression form of Puppet's model tree dumper, e.g.
  ``(= $a (+ 1 (* 2 3)))``, built from the AST views (qualified class names, ``call`` vs
  ``invoke``, single statements unwrapped from blocks where Puppet unwraps them).
* ``puppet_tokens(text)``: the token stream as Puppet's lexer names it (DQPRE/DQMID/DQPOST,
  SUBLOCATE, RENDER_STRING, …) with Puppet's positions (byte offsets and lengths).

Both exist so that the conformance cases of Puppet's own test suite can be checked exactly;
``puppet-ls parse --dump --format puppet`` also prints the dump.
"""
from __future__ import annotations

import math
import re
from typing import ClassVar

from . import ast as A
from . import kinds as K
from .lexer import lex

_INDENT = object()
_DEDENT = object()
_BREAK = object()


def _fmt_float(x: float) -> str:
    """Ruby's Float#to_s."""
    if math.isnan(x):
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    s = repr(x)
    if "e" in s:
        mant, exp = s.split("e")
        if "." not in mant:
            mant += ".0"
        sign = exp[0] if exp[0] in "+-" else "+"
        digits = exp.lstrip("+-").lstrip("0") or "0"
        if len(digits) < 2:
            digits = "0" + digits
        return f"{mant}e{sign}{digits}"
    return s


class Ops(list):
    """Several attribute operations dumped in place of one (an override's result)."""


class _Dumper:
    def __init__(self, complete: bool = False, overrides: dict | None = None):
        self.complete = complete
        self.overrides = overrides

    def dump(self, node) -> object:
        if node is None:
            return "()"
        if self.overrides:
            override = self.overrides.get((type(node).__name__, *node.syntax.range))
            if override is not None:
                return override(self, node)
        return self.plain(node)

    def plain(self, node) -> object:
        """The node's dump, without looking at the overrides for the node itself."""
        fn = getattr(self, "d_" + type(node).__name__, None)
        if fn is None:
            return ["error", node.syntax.text.strip()]
        return fn(node)

    # -- statements ------------------------------------------------------------------------
    def block_or_expr(self, statements: list):
        statements = [s for s in statements if s is not None]
        if not statements:
            return "()"
        if len(statements) == 1:
            return self.dump(statements[0])
        return self.block(statements)

    def block(self, statements: list):
        out: list = ["block", _INDENT]
        for s in statements:
            out.append(_BREAK)
            out.append(self.dump(s))
        out += [_DEDENT, _BREAK]
        return out

    def body(self, block):
        stmts = block.statements() if block is not None else []
        return self.block(stmts) if stmts else []

    def d_SourceFile(self, n):
        # a file with nothing but comments and blanks is Puppet's no-op program
        return self.block_or_expr(n.statements()) if n.statements() else ":nop"

    def d_EppFile(self, n):
        return ["epp", self.block_or_expr(n.statements())]

    def d_Block(self, n):
        return self.block_or_expr(n.statements())

    def d_Error(self, n):
        return ["error", n.syntax.text.strip()]

    # -- literals --------------------------------------------------------------------------
    def d_Literal(self, n):
        t = n.token
        if t is None:
            return "()"
        k = t.kind
        if k == K.NUMBER:
            v = A.number_value(t.text)
            if isinstance(v, float):
                return _fmt_float(v)
            radix = A.number_radix(t.text)
            if radix == 16:
                return f"0x{v:X}"
            if radix == 8:
                return f"0{v:o}"
            return str(v)
        if k == K.STRING:
            return f"'{A.single_quoted_value(t.text)}'"
        if k == K.BOOLEAN:
            return t.text
        if k == K.UNDEF:
            return ":undef"
        if k == K.DEFAULT:
            return ":default"
        if k == K.REGEX:
            return t.text
        return t.text

    def d_QName(self, n):
        t = n.syntax.first_token()
        # keywords used as names, and hyphenated words (Puppet's WORD token), are strings to
        # Puppet, not qualified names
        if t is not None and (t.kind in (K.TYPE, K.FUNCTION, K.PLAN, K.APPLY, K.WORD)):
            return f"'{t.text}'"
        return n.name

    def d_ReservedWord(self, n):
        return ["reserved", n.name]

    def d_TypeRef(self, n):
        return n.name

    def d_VariableExpr(self, n):
        return "$" + n.name

    def d_DqString(self, n: A.DqString) -> object:
        parts = n.parts()
        if not any(isinstance(p, A.Interpolation) for p in parts):
            return "'" + "".join(parts) + "'"
        out: list = ["cat"]
        for p in parts:
            if isinstance(p, str):
                if p:
                    out.append(f"'{p}'")
            else:
                out.append(self.dump(p))
        return out

    def d_Interpolation(self, n):
        if n.is_simple_variable():
            return ["str", "$" + n.variable_name]
        return ["str", self.dump(n.expr())]

    def d_HeredocExpr(self, n):
        parts = n.parts()
        if not any(isinstance(p, A.Interpolation) for p in parts):
            text = "'" + "".join(parts) + "'"
        else:
            text = ["cat"]
            for p in parts:
                if isinstance(p, str):
                    if p:
                        text.append(f"'{p}'")
                else:
                    text.append(self.dump(p))
        return [f"@({n.syntax_name})", _INDENT, _BREAK, text, _DEDENT, _BREAK]

    def d_Array(self, n):
        return ["[]"] + [self.dump(e) for e in n.elements()]

    def d_Hash(self, n):
        return ["{}"] + [[self.dump(e.key()), self.dump(e.value())] for e in n.entries()]

    def d_ParenExpr(self, n):
        return self.dump(n.expr())

    # -- operators -------------------------------------------------------------------------
    _OPS: ClassVar[dict[str, str]] = {"and": "&&", "or": "||"}

    def d_BinaryExpr(self, n):
        return [self._OPS.get(n.op, n.op), self.dump(n.left()), self.dump(n.right())]

    def d_Assignment(self, n):
        return [n.op, self.dump(n.left()), self.dump(n.right())]

    def d_Relationship(self, n):
        return [n.op, self.dump(n.left()), self.dump(n.right())]

    def d_UnaryExpr(self, n):
        op = n.op
        return ["unfold" if op == "*" else op, self.dump(n.operand())]

    def d_AccessExpr(self, n):
        keys = n.keys()
        if len(keys) <= 1:
            return ["slice", self.dump(n.target()), self.dump(keys[0]) if keys else "()"]
        return ["slice", self.dump(n.target()), [self.dump(k) for k in keys]]

    def d_SelectorExpr(self, n):
        return ["?", self.dump(n.test())] + [[self.dump(e.matching()), "=>", self.dump(e.value())] for e in n.entries()]

    # -- calls -----------------------------------------------------------------------------
    def call(self, n, rvalue: bool):
        out = ["call" if rvalue else "invoke", self.dump(n.functor())]
        out += [self.dump(a) for a in n.args()]
        lam = n.lambda_()
        if lam is not None:
            out.append(self.dump(lam))
        return out

    def d_CallExpr(self, n):
        # a call that is itself a statement is an "invoke" (its value is not used)
        parent = n.syntax.parent
        return self.call(n, parent is None or parent.kind not in (K.SOURCE_FILE, K.BLOCK, K.EPP_FILE))

    def d_StatementCall(self, n):
        args = n.args()
        if len(args) == 1 and isinstance(args[0], A.Hash) and args[0].braced:
            # Puppet reads 'notice {a => 1}' as a resource body turned into a hash, so its keys
            # are attribute names, i.e. strings
            h = args[0]
            return ["invoke", n.name, ["{}"] + [[f"'{e.key().name}'" if isinstance(e.key(), A.QName) else self.dump(e.key()),
                                                  self.dump(e.value())] for e in h.entries()]]
        return ["invoke", n.name] + [self.dump(a) for a in args]

    def d_MethodCall(self, n):
        out = ["call-method", [".", self.dump(n.receiver()), n.name]]
        out += [self.dump(a) for a in n.args()]
        lam = n.lambda_()
        if lam is not None:
            out.append(self.dump(lam))
        return out

    def d_Lambda(self, n: A.Lambda) -> object:
        out: list = ["lambda"]
        params = n.params()
        if params:
            out.append(["parameters"] + [self.dump(p) for p in params])
        rt = n.return_type()
        if rt is not None:
            out.append(["return_type", self.dump(rt)])
        out.append(self.body(n.body()))
        return out

    def d_Param(self, n):
        name = ("*" if n.captures_rest else "") + n.name
        t = n.type_expr()
        d = n.default() if n.has_default else None
        if d is not None and t is not None:
            return ["=t", self.dump(t), name, self.dump(d)]
        if d is not None:
            return ["=", name, self.dump(d)]
        if t is not None:
            return ["t", self.dump(t), name]
        return name

    # -- conditionals ----------------------------------------------------------------------
    def d_IfExpr(self, n):
        then = n.then_block()
        out = [n.keyword if n.keyword != "elsif" else "if", self.dump(n.condition()), _INDENT, _BREAK,
               ["then", _INDENT, self.block_or_expr(then.statements() if then else []), _DEDENT]]
        elsif = n.elsif()
        els = n.else_block()
        if elsif is not None:
            out += [_BREAK, ["else", _INDENT, self.dump(elsif), _DEDENT], _DEDENT]
        elif els is not None and els.statements():
            out += [_BREAK, ["else", _INDENT, self.block_or_expr(els.statements()), _DEDENT], _DEDENT]
        return out

    def d_UnlessExpr(self, n):
        out = self.d_IfExpr(n)
        out[0] = "unless"
        return out

    def d_CaseExpr(self, n: A.CaseExpr) -> object:
        out: list = ["case", self.dump(n.test()), _INDENT]
        for o in n.options():
            body = o.body()
            out += [_BREAK, ["when", [self.dump(v) for v in o.values()],
                             # Puppet keeps a case option's body as a block even for one statement
                             # (unlike if/unless): `(then (block …))`, or `(then ())` when empty
                             ["then", self.body(body) or "()"]]]
        out.append(_DEDENT)
        return out

    # -- resources -------------------------------------------------------------------------
    def _form(self, n) -> str:
        return "" if n.form == "regular" else n.form + "-"

    def _ops(self, ops) -> list:
        out: list = []
        for op in ops:
            d = self.dump(op)
            for one in d if isinstance(d, Ops) else (d,):
                out += [_BREAK, one]
        return out

    def d_AttributeOp(self, n):
        if n.is_splat:
            return ["* =>", self.dump(n.value())]
        return [n.name, n.op, self.dump(n.value())]

    def d_ResourceExpr(self, n: A.ResourceExpr) -> object:
        out: list = [self._form(n) + "resource", self.dump(n.type_expr()), _INDENT]
        bodies = n.bodies()
        if not bodies:
            # an untitled resource (an error); show its operations as one body
            out += [_BREAK, ["()", _INDENT] + self._ops(n.ops()) + [_DEDENT]]
        for b in bodies:
            out += [_BREAK, [self.dump(b.title()), _INDENT] + self._ops(b.ops()) + [_DEDENT]]
        out.append(_DEDENT)
        return out

    def d_ResourceDefaults(self, n):
        return [self._form(n) + "resource-defaults", self.dump(n.type_ref()), _INDENT] + self._ops(n.ops()) + [_DEDENT]

    def d_ResourceOverride(self, n):
        return [self._form(n) + "override", self.dump(n.target()), _INDENT] + self._ops(n.ops()) + [_DEDENT]

    def d_CollectExpr(self, n):
        q = ["<<| |>>" if n.exported else "<| |>"]
        query = n.query()
        if query is not None:
            q.append(self.dump(query))
        # Puppet's dumper never prints a collector's attribute operations (`{ tag +> 'x' }`):
        # it hands `operations` a block that the method ignores.  Printed as Puppet prints them
        # unless `complete` asks for the whole tree (safety checks of rewrites need it).
        ops = self._ops(n.ops()) if self.complete else []
        return ["collect", self.dump(n.type_expr()), _INDENT, _BREAK, q, _INDENT] + ops + [_DEDENT, _DEDENT]

    # -- definitions -----------------------------------------------------------------------
    def _params(self, n) -> list:
        params = n.params()
        return [["parameters"] + [self.dump(p) for p in params]] if params else []

    def d_ClassDef(self, n: A.ClassDef) -> object:
        out: list = ["class", n.qualified_name]
        parent = n.parent_name()
        if parent is not None:
            out.append(["inherits", parent])
        out += self._params(n)
        out.append(self.body(n.body()))
        return out

    def d_DefineDef(self, n):
        return ["define", n.qualified_name] + self._params(n) + [self.body(n.body())]

    def d_PlanDef(self, n):
        return ["plan", n.name] + self._params(n) + [self.body(n.body())]

    def d_FunctionDef(self, n):
        out = ["function", n.name] + self._params(n)
        rt = n.return_type()
        if rt is not None:
            out.append(["return_type", self.dump(rt)])
        out.append(self.body(n.body()))
        return out

    def _host(self, h):
        v = h.value()
        if isinstance(v, str):
            return f"'{v}'"
        if v is A.DEFAULT:
            return ":default"
        if isinstance(v, A.Regex):
            return f"/{v.source}/"
        if isinstance(v, A.DqString):
            return self.dump(v)
        return "()"

    def d_NodeDef(self, n: A.NodeDef) -> object:
        out: list = ["node", ["matches"] + [self._host(m) for m in n.matches()]]
        parent = n.parent()
        if parent is not None:
            out.append(["parent", self._host(parent)])
        out.append(self.body(n.body()))
        return out

    def d_TypeAlias(self, n):
        body = n.object_body()
        if body is not None:
            # Puppet rewrites the short form into Object[{..., parent => Parent}]
            h = self.dump(body)
            parent = n.value()
            if not (isinstance(parent, A.TypeRef) and parent.name == "Object"):
                h = h + [["parent", self.dump(parent)]]
            return ["type-alias", n.name, ["slice", "Object", h]]
        return ["type-alias", n.name, self.dump(n.value())]

    def d_TypeDefinition(self, n):
        return ["type-definition", n.name, "", self.body(n.body())]

    def d_ApplyExpr(self, n):
        return ["apply"] + [self.dump(a) for a in n.args()] + [self.body(n.body())]

    def d_EppRenderString(self, n):
        return ["render-s", f" '{n.text}'"]

    def d_EppRenderExpr(self, n):
        return ["render", self.dump(n.expr())]


def _format(x) -> str:
    indent = [0]
    parts: list = []

    def walk(v):
        if v is _BREAK:
            parts.append("\n" + "  " * indent[0])
        elif v is _INDENT:
            indent[0] += 1
        elif v is _DEDENT:
            indent[0] -= 1
        elif isinstance(v, list):
            parts.append("(")
            for e in v:
                walk(e)
            parts.append(")")
        else:
            parts.append(str(v))

    walk(x)
    out: list = []
    for i, p in enumerate(parts):
        if i > 0 and p != ")" and not _ENDS_A_LINE_OPEN.search(parts[i - 1]) and not _STARTS_A_LINE_BLANK.search(p):
            out.append(" ")
        out.append(p)
    return "".join(out)


# Puppet's dumper separates two parts with a space unless a line of the first ends with
# whitespace or '(' or a line of the second starts with whitespace: its regexps are tested line
# by line (Ruby's ^ and $), so a string holding a line break can lose the space before it
# (`(content =>'#!/bin/sh⏎  …`).  Ruby's \s is ASCII whitespace only.
_ENDS_A_LINE_OPEN = re.compile(r".*(?:[ \t\r\n\f\v]+|\()$", re.MULTILINE)
_STARTS_A_LINE_BLANK = re.compile(r"^[ \t\r\n\f\v]+", re.MULTILINE)


def puppet_dump(node, complete: bool = False) -> str:
    """Puppet's model-tree dump of a parsed file (a SyntaxNode root) or an AST view, exactly as
    `puppet parser dump` prints it; ``complete`` adds what Puppet's dumper leaves out (the
    attribute operations of collectors), for comparing two trees in full."""
    return format_dump(puppet_dump_data(node, complete))


def puppet_dump_data(node, complete: bool = False, overrides: dict | None = None) -> object:
    """The dump before it is printed: nested lists of strings (and layout markers), for tools
    that compare dumps modulo a normalisation (the formatter's safety check, which wants it
    ``complete``).  ``overrides`` maps (AST class name, start, end) of a node to a function
    (dumper, node) -> its dump instead (how a rewrite states what it means to change: the lint
    fixes); an attribute operation's override may return several as ``Ops``."""
    if not isinstance(node, A.AstNode):
        node = A.view(node)
    return _Dumper(complete, overrides).dump(node)


def format_dump(data) -> str:
    """Print ``puppet_dump_data``'s result as ``puppet_dump`` does."""
    return _format(data)


# ---- tokens ----------------------------------------------------------------------------------

_SAME_NAME = {K.ERROR_TOKEN: "OTHER", K.TILDE: "OTHER"}


def puppet_tokens(text: str, epp: bool = False, tasks: bool = False):
    """Our token stream renamed and re-cut as Puppet's lexer delivers it.  Returns
    ``(tokens, errors)`` where tokens are ``[name, value, {line, pos, length, offset}]``."""
    lexed = lex(text, epp=epp, tasks=tasks)
    heredocs = {hd.header_offset: hd for hd in lexed.heredocs}
    # char offset -> byte offset, line, column
    char_to_byte = []
    acc = 0
    for ch in text:
        char_to_byte.append(acc)
        acc += len(ch.encode("utf-8"))
    char_to_byte.append(acc)
    line_starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            line_starts.append(i + 1)

    import bisect

    def attrs(start: int, end: int) -> dict:
        line = bisect.bisect_right(line_starts, start)
        return {"line": line, "pos": start - line_starts[line - 1] + 1,
                "length": char_to_byte[end] - char_to_byte[start], "offset": char_to_byte[start]}

    out: list = []

    def emit(name, value, start, end):
        out.append([name, value, attrs(start, end)])

    def emit_string_parts(toks, i, open_start, close_kind):
        """Map string pieces starting at toks[i] up to close_kind; returns next index."""
        seg_start = open_start
        seg_text = ""
        first = True
        interpolated = False
        while i < len(toks):
            kind, tt, off, _ = toks[i]
            if kind == K.STRING_TEXT:
                seg_text += tt
                i += 1
            elif kind == K.STRING_VAR:
                emit("DQPRE" if first else "DQMID", A.dq_text_value(seg_text) if close_kind == K.DQ_CLOSE else seg_text, seg_start, off)
                emit("VARIABLE", tt[1:], off, off + len(tt))
                first = False
                interpolated = True
                seg_start = off + len(tt)
                seg_text = ""
                i += 1
            elif kind == K.INTERP_OPEN:
                emit("DQPRE" if first else "DQMID", A.dq_text_value(seg_text) if close_kind == K.DQ_CLOSE else seg_text, seg_start, off + 2)
                first = False
                interpolated = True
                i += 1
                while i < len(toks) and toks[i][0] != K.INTERP_CLOSE:
                    i = emit_token(toks, i)
                if i < len(toks):
                    seg_start = toks[i][2] + 1
                    i += 1
                seg_text = ""
            else:
                break
        return i, seg_start, seg_text, interpolated

    def emit_token(toks: list, i: int) -> int:
        kind, tt, off, _ = toks[i]
        if kind == K.DQ_OPEN:
            j, seg_start, seg_text, interp = emit_string_parts(toks, i + 1, off, K.DQ_CLOSE)
            close = toks[j] if j < len(toks) else None
            end = close[2] + len(close[1]) if close else len(text)
            emit("DQPOST" if interp else "STRING", A.dq_text_value(seg_text), seg_start if interp else off, end)
            return j + 1
        if kind == K.HEREDOC:
            hd = heredocs.get(off)
            m = A._HEREDOC_HEADER.match(tt)
            emit("HEREDOC", (m.group(2) or "") if m else "", off, off + len(tt))
            if hd is not None:
                emit("SUBLOCATE", None, off, off + len(tt))
                btoks = list(hd.tokens)
                at_line_start = True
                # decode pieces like HeredocExpr.parts does
                j = 0
                segs: list = []
                while j < len(btoks):
                    bk, btt, boff, _ = btoks[j]
                    if bk == K.STRING_TEXT:
                        segs.append(("t", A._strip_margin(btt, hd.margin, at_line_start), boff))
                        at_line_start = btt.endswith("\n")
                        j += 1
                    else:
                        segs.append(("x", j, boff))
                        # skip to the end of this interpolation
                        if bk == K.INTERP_OPEN:
                            j += 1
                            while j < len(btoks) and btoks[j][0] != K.INTERP_CLOSE:
                                j += 1
                        j += 1
                        at_line_start = False
                if hd.trim and segs and segs[-1][0] == "t":
                    s = segs[-1][1]
                    s = s[:-2] if s.endswith("\r\n") else s.removesuffix("\n")
                    segs[-1] = ("t", s, segs[-1][2])
                if not any(s[0] == "x" for s in segs):
                    emit("STRING", A.heredoc_text_value("".join(s[1] for s in segs), hd.escapes), hd.body_offset, hd.text_end)
                else:
                    first = True
                    acc_text = ""
                    for s in segs:
                        if s[0] == "t":
                            acc_text += s[1]
                            continue
                        bj = s[1]
                        bk, btt, boff, _ = btoks[bj]
                        emit("DQPRE" if first else "DQMID", A.heredoc_text_value(acc_text, hd.escapes), boff, boff)
                        first = False
                        acc_text = ""
                        if bk == K.STRING_VAR:
                            emit("VARIABLE", btt[1:], boff, boff + len(btt))
                        else:
                            k2 = bj + 1
                            while k2 < len(btoks) and btoks[k2][0] != K.INTERP_CLOSE:
                                k2 = emit_token(btoks, k2)
                    emit("DQPOST", A.heredoc_text_value(acc_text, hd.escapes), hd.text_end, hd.text_end)
            return i + 1
        if kind == K.EOF:
            return i + 1
        if kind == K.VARIABLE:
            emit("VARIABLE", A.variable_name(tt), off, off + len(tt))
        elif kind == K.STRING:
            emit("STRING", A.single_quoted_value(tt), off, off + len(tt))
        elif kind == K.BOOLEAN:
            emit("BOOLEAN", tt == "true", off, off + len(tt))
        elif kind == K.EPP_TEXT:
            emit("RENDER_STRING", tt.replace("<%%", "<%").replace("%%>", "%>"), off, off + len(tt))
        elif kind == K.RENDER_EXPR:
            emit("RENDER_EXPR", None, off, off + len(tt))
        else:
            emit(_SAME_NAME.get(kind, kind), tt, off, off + len(tt))
        return i + 1

    toks = lexed.tokens
    if epp:
        out.append(["EPP_START", None, attrs(0, 0)])
    i = 0
    while i < len(toks):
        i = emit_token(toks, i)
    errors = [e for e in lexed.errors if e.code != "ILLEGAL_CHARACTER"]
    return out, errors
