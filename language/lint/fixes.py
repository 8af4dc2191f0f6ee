"""The corrections of the fixable style checks, as ``Fix`` values (text edits on the source).

Each builder writes what puppet-lint's ``--fix`` writes for its check (its behaviour, read from
its sources and re-derived here over our token view), except where puppet-lint's rewrite would
change what the code means or break it: there the meaning-keeping edit is made instead (the
differences are listed in benchmarks/README.md, "lint fix differential").  Every fix also says
what it means to change in the tree (``expect``), stated from the original alone (never from
the edited text, which is what is being proven), so that ``fix.verify`` can prove that the
fixed text means exactly that:

* nothing: a change of layout or spelling only (whitespace, comment style, quote style);
* ``("dump", start, end, data)``: the expression at [start, end) now dumps as ``data`` (a
  bare word or a number made the string ``'…'``, a quoted boolean made ``true``);
* ``("unwrap", start, end)``: the string at [start, end) is now the one expression it
  interpolates (``"${x}"`` made ``$x``);
* ``("url", start, end)``: the string at [start, end) now has ``modules/`` after each
  ``puppet://<server>/`` of its first piece;
* ``("fact", start, end, name)``: the variable ``$::name`` at [start, end) is now
  ``$facts['name']`` (its interpolation too, when it is one);
* ``("ops", start, end, text)``: the attribute operation at [start, end) is now the
  operations written in ``text`` (attributes swapped, ``ensure => /path`` made a symlink;
  ``text`` is made of the original's own source);
* ``("rename", cls, start, end, old, new)``: the class or defined type at [start, end) is
  renamed;
* ``("blank", start, end)``: the text at [start, end) was never code (a ``//`` comment, which
  Puppet itself reads as code).
"""
from __future__ import annotations

import re

from ..diagnostics import Fix
from .tokens import FORMATTING, Tok, TokenView

_SPACE = ("WHITESPACE", "INDENT")


def newline(ctx) -> str:
    """The line break the file uses (its first one), for the lines a fix adds."""
    nl = ctx.cache.get("newline")
    if nl is None:
        i = ctx.text.find("\n")
        nl = ctx.cache["newline"] = "\r\n" if i > 0 and ctx.text[i - 1] == "\r" else "\n"
    return nl


def replace(tok: Tok, text: str, *expect: tuple) -> Fix:
    return Fix(((tok.offset, tok.end, text),), expect)


def delete(tok: Tok) -> Fix:
    return Fix(((tok.offset, tok.end, ""),))


def quote(tok: Tok) -> Fix:
    """A bare word or number written as a single-quoted string."""
    return replace(tok, f"'{tok.value}'", ("dump", tok.offset, tok.end, f"'{tok.value}'"))


def hard_tabs(tok: Tok) -> Fix:
    return replace(tok, tok.value.replace("\t", "  "))


def slash_comment(tok: Tok) -> Fix:
    return Fix(((tok.offset, tok.offset + 2, "#"),), (("blank", tok.offset, tok.end),))


def star_comment(ctx, i: int, tok: Tok) -> Fix:
    """A '/* */' comment as '#' lines, each indented as the comment was."""
    lines = [line.strip() for line in tok.value.strip().split("\n")]
    prev = ctx.view.toks[i - 1] if i > 0 else None
    indent = prev.value if prev is not None and prev.type in _SPACE else ""
    nl = newline(ctx)
    return replace(tok, (nl + indent).join("# " + line if line else "# " for line in lines))


def arrow_on_right_operand(ctx, i: int, tok: Tok) -> Fix | None:
    """The arrow moved from the end of the line to just before its right operand; the
    whitespace it leaves at the end of the line goes too."""
    view = ctx.view
    toks = view.toks
    left, right = view.prev_code(i), view.next_code(i)
    if left is None or right is None:
        return None
    edits = [(tok.offset, tok.end, "")]
    after_left = left + 1
    if after_left < i and toks[after_left].type == "WHITESPACE":
        follow = after_left + 1 if after_left + 1 != i else i + 1
        if follow < len(toks) and toks[follow].type in ("NEWLINE", "WHITESPACE"):
            edits.insert(0, (toks[after_left].offset, toks[after_left].end, ""))
    edits.append((toks[right].offset, toks[right].offset, tok.value + " "))
    return Fix(tuple(edits))


def string_end(view: TokenView, i: int) -> int:
    """Where the value starting with token ``i`` ends (a whole string for its first piece)."""
    tok = view.toks[i]
    if tok.type in ("DQPRE", "HEREDOC_PRE"):
        for t in view.toks[i + 1:]:
            if t.start == tok.offset:
                return t.end
    return tok.end


def only_variable_string(ctx, pre: Tok, var: Tok, post: Tok) -> Fix:
    """'"${x}"' (or '"$x"') as the variable itself."""
    dollar = "$" if var.type == "VARIABLE" and not ctx.text.startswith("$", var.offset) else ""
    edits = ((pre.offset, var.offset, dollar), (post.offset, post.end, ""))
    return Fix(edits, (("unwrap", pre.offset, post.end),))


_PUPPET_URL_HEAD = re.compile(r"puppet://.*?/")


def puppet_url(ctx, i: int, tok: Tok) -> Fix:
    """'modules/' inserted after each 'puppet://<server>/' of the string's first piece."""
    inner_end = tok.end if tok.type == "DQPRE" else tok.end - 1
    edits = tuple((m.end(), m.end(), "modules/") for m in _PUPPET_URL_HEAD.finditer(ctx.text, tok.offset + 1, inner_end))
    return Fix(edits, (("url", tok.offset, string_end(ctx.view, i)),))


def enclose_variable(tok: Tok) -> Fix:
    """'$x' in a string as '${x}'.  A dash ends the name (Puppet reads "$a-b" as $a and "-b");
    so does a '[' (Puppet reads "$x[0]" as $x and the text "[0]", which puppet-lint's fix would
    turn into an access)."""
    name = tok.value.split("-", 1)[0]
    return replace_range(tok.offset, tok.offset + 1 + len(name), "${" + name + "}")


def replace_range(start: int, end: int, text: str, *expect: tuple) -> Fix:
    return Fix(((start, end, text),), expect)


def file_mode(tok: Tok) -> Fix | None:
    """A three-digit octal mode as its four-digit string (puppet-lint fixes no other)."""
    digits = tok.value
    if not re.fullmatch(r"[0-7]{3}", digits):
        return None
    return replace(tok, f"'0{digits}'", ("dump", tok.offset, tok.end, f"'0{digits}'"))


def ensure_first(ctx, span: tuple[int, int], params: list[int], ensure: int) -> Fix | None:
    """The 'ensure' attribute and the first attribute swapped (puppet-lint's way: each takes
    the other's place, from its name to its comma)."""
    view = ctx.view
    first = params[0]
    a = _attribute_range(view, span, first)
    b = _attribute_range(view, span, ensure)
    if a is None or b is None or a[1] > b[0]:
        return None
    text = ctx.text
    ta, tb = text[a[0]:a[1]], text[b[0]:b[1]]
    oa, ob = _code_range(view, a), _code_range(view, b)
    if oa is None or ob is None:
        return None
    return Fix(((a[0], a[1], tb), (b[0], b[1], ta)),
               (("ops", *oa, text[ob[0]:ob[1]]), ("ops", *ob, text[oa[0]:oa[1]])))


def _attribute_range(view: TokenView, span: tuple[int, int], name: int) -> tuple[int, int] | None:
    """From an attribute's name to its comma (or ';'), or to the end of its value when it is
    the last one without a comma."""
    toks = view.toks
    depth = 0
    last = name
    for j in range(name + 1, span[1] + 1):
        t = toks[j].type
        if t in ("LBRACE", "LBRACK", "LPAREN"):
            depth += 1
        elif t in ("RBRACE", "RBRACK", "RPAREN"):
            if depth == 0:
                return toks[name].offset, toks[last].end
            depth -= 1
        elif depth == 0 and t in ("COMMA", "SEMIC"):
            return toks[name].offset, toks[j].offset
        if t not in FORMATTING:
            last = j
    return None


def _code_range(view: TokenView, rng: tuple[int, int]) -> tuple[int, int] | None:
    span = view.code_span(*rng)
    if span is None:
        return None
    return view.toks[span[0]].offset, view.toks[span[1]].end


def symlink_target(ctx, name: int, value: int) -> Fix:
    """'ensure => "/path"' as 'ensure => symlink, target => "/path"' (the target on a line of
    its own, indented as 'ensure')."""
    view = ctx.view
    toks = view.toks
    prev = toks[name - 1] if name > 0 else None
    indent = prev.value if prev is not None and prev.type in _SPACE else ""
    at = toks[value].offset
    end = string_end(view, value)
    target = ctx.text[at:end]
    return Fix(((at, at, f"symlink,{newline(ctx)}{indent}target => "),),
               (("ops", toks[name].offset, end, f"ensure => symlink, target => {target}"),))


def arrow_alignment(ctx, a: int, expected: int, new_line: bool, indent: int) -> Fix | None:
    """The whitespace before an arrow resized to put it in the expected column; an attribute
    sharing its line with an earlier one first moves to a line of its own."""
    view = ctx.view
    toks = view.toks
    arrow = toks[a]
    edits = []
    if new_line:
        p = view.prev_code(a)
        if p is None:
            return None
        param = toks[p]
        first = param.start if param.type == "DQPOST" else param.offset
        k = view.index_at(first) - 1
        brk = newline(ctx) + " " * indent
        if k >= 0 and toks[k].type == "WHITESPACE":
            edits.append((toks[k].offset, toks[k].end, brk))
        else:
            edits.append((first, first, brk))
        width = expected - (indent + (param.end - first) + 1)
    else:
        before = toks[a - 1] if a > 0 else None
        width = (len(before.value) if before is not None and before.type == "WHITESPACE" else 0)
        width += expected - view.column(arrow.offset)
    if width < 0:
        return None
    before = toks[a - 1] if a > 0 else None
    if before is not None and before.type == "WHITESPACE":
        edits.append((before.offset, before.end, " " * width))
    else:
        edits.append((arrow.offset, arrow.offset, " " * width))
    return Fix(tuple(edits))


def rename_definition(node, name: Tok) -> Fix:
    cls = "ClassDef" if node.kind == "CLASS_DEF" else "DefineDef"
    start, end = node.range
    return replace(name, name.value.lower(), ("rename", cls, start, end, name.value, name.value.lower()))


def top_scope_fact(ctx, tok: Tok, name: str, replacement: str) -> Fix | None:
    """'$::name' as '$facts['name']', and '"${::name}"' as '"${facts['name']}"'."""
    text = ctx.text
    var_end = tok.offset + len(name) + 2 + (1 if text.startswith("$", tok.offset) else 0)
    if replacement.startswith("$"):
        return replace(tok, replacement, ("fact", tok.offset, var_end, name))
    if not text.startswith("${", tok.offset - 2):
        return None
    # the interpolation's '}' is where the string's next piece starts (or just before it)
    toks = ctx.view.toks
    j = ctx.view.index_at(tok.end)
    while j < len(toks) and toks[j].type not in _PIECES:
        j += 1
    if j == len(toks):
        return None
    close = toks[j].offset if text.startswith("}", toks[j].offset) else toks[j].offset - 1
    if not text.startswith("}", close) or close < tok.end:
        return None
    return replace(tok, replacement, ("fact", tok.offset, var_end, name), ("fact", tok.offset - 2, close + 1, name))


_PIECES = frozenset({"DQMID", "DQPOST", "HEREDOC_MID", "HEREDOC_POST"})


def apply(text: str, edits, start: int = 0, end: int | None = None) -> str:
    """``text[start:end]`` with ``edits`` (sorted, not overlapping, inside the range) made."""
    end = len(text) if end is None else end
    out = []
    pos = start
    for s, e, new in sorted(edits, key=lambda x: (x[0], x[1])):
        out.append(text[pos:s])
        out.append(new)
        pos = e
    out.append(text[pos:end])
    return "".join(out)
