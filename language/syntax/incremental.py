"""Incremental reparsing: apply a text edit to a parsed file and get the tree a full parse of
the new text would give, reusing every subtree the edit does not touch.

The edit is reparsed inside a *window*: a run of whole statements of the innermost block (or
the file) that holds it, or, failing that, a whole ``{ … }`` block.  The window is lexed and
parsed by the parser's own entry points (``parse_statements_at``, ``parse_block_at``), which
refuse whenever the range cannot be parsed on its own.  The result is only used when it is
provably what a full parse gives:

* the file's braces balance before the edit and the window's braces balance before and after
  it (so brace pairing changes nothing anywhere); or, when the edit unbalanced them (typed or
  deleted a brace, or took one into a string), the window is a run of the file's statements,
  paired on its own with no '{' left open at its end, and every statement outside it is one
  that pairing leaves as written (``paired_as_written``); or, in a file whose braces did not
  balance, the window is such a run that no region pairing read by the indentation crosses
  (``ParseResult.pairing``, ``_Edit.regions_allow``), or lies inside a statement that is in no
  region, has none after it, and stays one that pairing leaves as written;
* the window lexes on its own (no quote or comment runs past it, no heredoc) and the lexer is
  back in step at its end: the first token after it is the old one, at the shifted offset;
* the parse of the window stops exactly at its end, its first statement cannot be glued onto
  the statement before, and the statement after it does not depend on the one before;
* no regular expression runs over its edges (one may hold blanks, and a '/' before it on its
  line that nothing closed may be closed by the edit);
* no lookahead from a brace before it (does ``name {`` open a resource body with a title?)
  read into it, and none inside it reads past the token after it;
* it is parsed as deep as the full parse has it (a bound on the nesting around it), and it
  does not change what a construct around it leaves unreported once an error was reported
  inside it (an ``if`` whose block is missing, a call, array or access whose closer is).

When the window fails, it grows by whole statements on both sides (an opened quote or bracket
reaches further), a few times, within a budget; then the enclosing block is tried, then the
next enclosing window, and in the end the whole file is parsed again, so the result always
equals ``parse(new_text)``.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from . import kinds as K
from .lexer import RANGE_LEX_ERRORS, regex_may_run_into, same_extent
from .parser import (ParseResult, Piece, SyntaxError_, depends_on_previous, gc_paused,
                     last_token_kind, parse, parse_block_at, parse_param_at, parse_statements_at,
                     parse_unclosed, prefer_closed_runaway_string, qname_text)
from .tree import GreenNode, SyntaxNode

# Errors that mean a change anywhere may re-close comments or quotes far away (an unclosed
# comment, interpolation or heredoc, a nesting limit reached).  Unbalanced braces are not among
# them: where pairing read them is recorded (ParseResult.pairing, _BRACE_ERRORS).
_GLOBAL_ERRORS = frozenset({
    "UNCLOSED_MLCOMMENT",
    "UNCLOSED_INTERPOLATION", "NESTING_TOO_DEEP", "HEREDOC_INVALID_SYNTAX",
    "HEREDOC_UNCLOSED_PARENTHESIS", "HEREDOC_EMPTY_ENDTAG",
    "HEREDOC_INVALID_ESCAPE", "HEREDOC_MULTIPLE_ESCAPE", "HEREDOC_WITHOUT_END_TAGGED_LINE",
    "HEREDOC_WITHOUT_TEXT", "EPP_UNCLOSED_COMMENT", "EPP_UNCLOSED_TAG",
})
# Edits inside these tokens that keep them one token of their kind: (characters at the start
# and at the end that the edit must leave alone: the '#', '/*', '*/', quotes).
_TOKEN_MARGINS = {K.COMMENT: (1, 0), K.ML_COMMENT: (2, 2), K.STRING: (1, 1), K.STRING_TEXT: (1, 0)}
_INSIDE_STRINGS = frozenset({K.DQ_STRING, K.INTERPOLATION, K.HEREDOC_BODY, K.HEREDOC_TEXT})
_BRACES = {K.LBRACE: 1, K.SELBRACE: 1, K.RBRACE: -1}
_BRACE_ERRORS = frozenset({"MISSING_RBRACE", "UNMATCHED_BRACE"})
# Tokens that a '{' or '}' typed inside cuts in two, the brace a token of its own between them.
_CUT_BY_BRACE = frozenset({K.WHITESPACE, K.NEWLINE, K.NAME, K.WORD, K.CLASSREF, K.VARIABLE, K.NUMBER})
# How a window grows when it fails: statements added before and after it.
_GROWTH = ((0, 0), (0, 1), (1, 1), (1, 3), (2, 7), (4, 15))


def reparse(old: ParseResult, start: int, end: int, new_text: str, tasks: bool = False) -> ParseResult:
    """The parse of ``old.text`` with characters [start, end) replaced by ``new_text``."""
    with gc_paused():
        return _reparse(old, start, end, new_text, tasks)


def _reparse(old: ParseResult, start: int, end: int, new_text: str, tasks: bool) -> ParseResult:
    text = old.text[:start] + new_text + old.text[end:]
    root = old.root
    if root.kind == K.EPP_FILE:
        # templates switch between text and code at tags: parse them whole
        return parse(text, epp=True, tasks=tasks)
    if root.kind != K.SOURCE_FILE or "@(" in new_text or old.recovered or \
            any(e.code in _GLOBAL_ERRORS or (e.code in _BRACE_ERRORS and old.pairing is None) for e in old.errors):
        # An unclosed comment may be closed by the edit, and so on, so no part of such a file
        # can be reparsed on its own; nor of a file whose braces do not balance when it is not
        # known where brace pairing read them (ParseResult.pairing).
        return parse(text, tasks=tasks)
    edit = _Edit(old, start, end, new_text, text, tasks)
    result = edit.in_token(root, new_text)
    if result is None:
        result = edit.windows(root)
    return result if result is not None else parse(text, tasks=tasks)


def _path(root: SyntaxNode, start: int, end: int) -> list[SyntaxNode]:
    """The nodes from the root down to the deepest one containing [start, end)."""
    path = [root]
    node = root
    while True:
        nxt = None
        for c in node.children():
            if c.kind == K.HEREDOC_BODY:
                continue
            if c.offset <= start and end <= c.end:
                nxt = c
                break
        if nxt is None:
            return path
        path.append(nxt)
        node = nxt


# The time windows may take for one edit (see _Edit.deadline): about twice a full parse.
WINDOW_SECONDS_PER_CHAR = 2e-6
WINDOW_SECONDS_MIN = 0.1


class _Edit:
    """One edit being applied: the old result, the edit, the new text."""

    def __init__(self, old: ParseResult, start: int, end: int, new_text: str, text: str, tasks: bool,
                 forced: frozenset = frozenset()):
        self.old = old
        self.start = start
        self.end = end
        self.new_text = new_text
        self.text = text
        self.delta = len(new_text) - (end - start)
        self.tasks = tasks
        # The quotes taken as never closed: this edit makes the runaway-string recovery's
        # alternative (parser.parse_unclosed), whose windows must hold them.
        self.forced = forced
        # Where brace pairing read the old file's braces by the indentation (its braces do not
        # balance): the full parse of the new text pairs the file again, so only windows of the
        # file's statements, paired on their own, that hold each such region whole or none of
        # it, can be used; or a window inside a statement that is in none and after which there
        # is none, when the statement stays one pairing leaves as written.
        self.regions: tuple = old.pairing or ()
        self.root_only = False
        # Windows tried for one edit may add up to no more than about half a full parse (each
        # is lexed and parsed once); past that, parsing everything once is cheaper.
        self.budget = max(4096, len(old.text) // 2)
        # Characters are a proxy: a hostile line (thousands of nested interpolations, 200,000
        # characters) costs far more per character, and the lexing around windows (what
        # follows them) is not charged.  Past about twice what a full parse of this text costs,
        # no more windows are tried.  (The result is the same either way: only the time it
        # takes depends on the clock.)
        self.deadline = time.perf_counter() + max(WINDOW_SECONDS_MIN, len(text) * WINDOW_SECONDS_PER_CHAR)
        # Windows found with their braces unbalanced by the edit: only a window of the file's
        # statements can pair them, so no other is tried after one is found (only a shortcut:
        # a window that would still have worked costs time, never the result).
        self.unbalanced: list = []

    def windows(self, root: SyntaxNode) -> ParseResult | None:
        """The result from windows around the edit; None when none can be used."""
        start, end = self.start, self.end
        if _adds_or_removes_brace(root, start, end, self.new_text):
            # The braces no longer balance.  Brace pairing leaves each statement of the file
            # whose braces balance on its own as written, so a run of the file's statements
            # around the edit can still be paired and parsed on its own, when no '{' of it
            # stays open past it.
            return self.in_container(root)
        path = _path(root, start, end)
        top = path[1] if len(path) > 1 else None
        if self.regions and (top is None or any(r[0] < top.end and r[1] > top.offset or r[0] >= top.end
                                                for r in self.regions)):
            self.root_only = True
        for node in reversed(path):
            if (self.unbalanced or self.root_only) and node.kind != K.SOURCE_FILE:
                continue
            result = None
            if node.kind == K.PARAM:
                result = self.param(node)
            if result is None and (node.kind == K.BLOCK or node.kind == K.SOURCE_FILE):
                result = self.in_container(node)
            if result is None and node.kind == K.BLOCK and not self.root_only:
                result = self.block(node)
            if result is not None:
                return result
        return None

    def alternative(self, offset: int) -> ParseResult:
        """parser.parse_unclosed of the new text with the quote at ``offset`` never closed,
        from windows when they can make it (the recovery weighs it against this edit's result)."""
        forced = frozenset({offset})
        alt = _Edit(self.old, self.start, self.end, self.new_text, self.text, self.tasks, forced)
        result = alt.windows(self.old.root)
        return result if result is not None else parse_unclosed(self.text, forced, self.tasks)

    def regions_allow(self, lo: int, hi: int, net: int, low: int) -> bool | None:
        """May a window of the file's statements over [lo, hi) (old offsets), whose new braces
        add ``net`` to the depth counted without pairing and reach ``low`` below its start, be
        paired on its own in a file whose braces did not balance?  None: parsed as it is, the
        edit having made the braces balance.  True only when

        * no region that pairing read by the indentation crosses the window's edges;
        * the new file's braces still do not balance (else it is not paired at all);
        * no '{' before the window or in it finds, by counting, a '}' on the other side of an
          edge that the edit moved (pairing asks that of a '{' opened outside any other): a '{'
          before it left open stays open (the depth never comes back to it after the window's
          start, before the edit or after), and one the window leaves open finds no stray '}'
          after it (the depth after the window never goes below its end);
        * the messages of regions after it, which name the line of their '{', stay true (the
          edit adds or removes no line, or none says a '}' is missing after it).

        Outside the regions the braces balance group by group, so the depth there is the sum
        of what the regions before add (each region's (offset, end, net, low))."""
        depth = low_before = 0          # before the window
        old_net = old_low = 0           # the window's old braces
        after = after_low = 0           # after it, from its end
        for a, b, r_net, r_low in self.regions:
            if a < lo < b or a < hi < b or (a < lo and b > hi):
                return False
            if b <= lo:
                low_before = min(low_before, depth + r_low)
                depth += r_net
            elif a >= hi:
                after_low = min(after_low, after + r_low)
                after += r_net
            else:
                old_low = min(old_low, old_net + r_low)
                old_net += r_net
        if depth + net + after == 0 and min(low_before, depth + low, depth + net + after_low) >= 0:
            # The edit made them balance: the file is not paired at all, which the window can
            # tell when every region is in it (the rest is as written).
            return None if all(lo <= a and b <= hi for a, b, _, _ in self.regions) else False
        if net - low > 0 and after_low < 0:
            return False    # a '{' the window leaves open would find a stray '}' after it
        if depth > low_before and (min(low, old_low) < 0 or min(net, old_net) + after_low < 0):
            return False    # a '{' left open before the window might find a '}' now, or lose one
        lines_moved = self.new_text.count("\n") != self.old.text.count("\n", self.start, self.end)
        return not (lines_moved and any(e.code == "MISSING_RBRACE" and e.offset >= hi for e in self.old.errors))

    def quoted_from_before(self, parent: SyntaxNode, off: int) -> bool:
        """May an error before the token at ``off`` (a child of ``parent``) quote it?  A '}'
        that brace pairing put in is zero-width, at the end of the token before, and the syntax
        error reported at it names the next real token: this one, past its trivia.  Told from
        the trivia before the token in its node (when it is the node's first child, any such
        error before it counts)."""
        lead = off
        children = parent.green.children
        for c in reversed(children[:_child_index_at(parent, off)]):
            if type(c) is not tuple or c[0] not in K.TRIVIA:
                break
            lead -= len(c[1])
        else:
            lead = 0
        return any(e.offset == e.end and lead <= e.offset <= off for e in self.old.errors)

    def holds_forced(self, lo: int, hi: int) -> bool:
        """Does the new text's range [lo, hi) hold every quote taken as never closed?"""
        return all(lo <= f < hi for f in self.forced)

    def finish(self, result: ParseResult) -> ParseResult:
        """The recovery from a runaway string, unless this edit makes its alternative."""
        if self.forced:
            result.recovered = True
            return result
        return prefer_closed_runaway_string(result, False, self.tasks, self.alternative)

    def in_token(self, root: SyntaxNode, new_text: str) -> ParseResult | None:
        """An edit inside a comment or inside the text of a string that leaves it the same
        token (no quote closed or opened, no line added or removed): only that token's text
        changes, and nothing the parser decides depends on it."""
        start, end = self.start, self.end
        if "\n" in new_text or "\n" in self.old.text[start:end]:
            return None
        found = _token_at(root, start, end)
        if found is None:
            return None
        path, tok, off = found
        kind = tok[0]
        tok_end = off + len(tok[1])
        margin = _TOKEN_MARGINS.get(kind)
        if margin is None or not (off + margin[0] <= start and end <= tok_end - margin[1]):
            return None
        parent = path[-1]
        if parent.kind == K.ERROR:
            # The tokens a syntax error skipped lie flat in an ERROR node, whatever strings and
            # interpolations the lexer had them in: a comment there may be inside a string's
            # interpolation, whose end (and whether the string runs away) the lexer decided by
            # reading it (fuzz seed 2063: '{' typed in `"${x/*}${x}*/}"` in a broken statement).
            return None
        if any(n.kind in _INSIDE_STRINGS for n in path[:-1]) or \
                (parent.kind in _INSIDE_STRINGS and not (kind == K.STRING_TEXT and parent.kind == K.DQ_STRING)):
            return None   # a '#' or quote in an interpolation changes where its string ends
        if kind == K.STRING_TEXT and parent.kind != K.DQ_STRING:
            return None
        delta = self.delta
        if not same_extent(self.text, kind, off, tok_end + delta) or regex_may_run_into(self.text, off):
            return None
        if self.regions and self.quoted_from_before(parent, off):
            return None
        errors = []
        for e in self.old.errors:
            if e.offset >= tok_end:
                errors.append(_moved(e, delta))
            elif e.offset >= off or off < e.end < tok_end:
                return None   # an error at the token may quote its text
            elif e.end >= tok_end:
                errors.append(SyntaxError_(e.offset, e.end + delta, e.code, e.message, e.hint))
            else:
                errors.append(e)
        runaways = self.runaways_around(off, tok_end)
        if runaways is None:
            return None
        multiline = []
        for a, b in self.old.multiline_strings:
            if b <= off:
                multiline.append((a, b))
            elif a >= tok_end:
                multiline.append((a + delta, b + delta))
            elif a <= off and b >= tok_end:
                multiline.append((a, b + delta))
            else:
                return None
        scans = tuple((b + delta if b >= tok_end else b, e + delta if e >= tok_end else e)
                      for b, e in self.old.scans)
        green: GreenNode | tuple = (kind, self.text[off:tok_end + delta])
        index = _child_index_at(parent, off)
        cur = parent
        while True:
            children = list(cur.green.children)
            children[index] = green
            green = GreenNode(cur.green.kind, children)
            if cur.parent is None:
                break
            index = cur.index
            cur = cur.parent
        assert isinstance(green, GreenNode)
        pairing = tuple((r[0] + delta if r[0] >= tok_end else r[0], r[1] + delta if r[1] >= tok_end else r[1],
                         r[2], r[3]) for r in self.regions)
        return self.finish(ParseResult(green, errors, self.text, tuple(multiline), runaways=runaways,
                                       scans=scans, validation_parts=self.old.validation_parts, pairing=pairing,
                                       as_written=self.old.as_written))

    def runaways_around(self, lo: int, hi: int) -> tuple | None:
        """The old runaway strings outside the reparsed range [lo, hi] (old offsets), moved by
        the edit; None when the decision of one before the range read text the edit changed
        (a quote typed after it may close it, or a character after its would-be closing
        quote changed), and so it must be lexed again.  The same for a multi-line string
        before the range whose closing quote, or the character after it, the edit touched."""
        start, delta = self.start, self.delta
        kept = []
        for p, bound in self.old.runaways:
            if p < lo:
                if start < bound:
                    return None
                kept.append((p, bound))
        for a, b in self.old.multiline_strings:
            if a < lo and start <= b <= hi:
                return None
        # (a string may start right at the range's end, 'a'b: it is the next statement's)
        return tuple(kept) + tuple((p + delta, bound + delta) for p, bound in self.old.runaways if p >= hi)

    def afford(self, size: int) -> bool:
        """Charge a window of ``size`` characters to the budget; False when it is spent, or
        when the windows tried so far have taken longer than a full parse would."""
        self.budget -= size
        if time.perf_counter() > self.deadline:
            self.budget = -1
        return self.budget >= 0

    def in_container(self, node: SyntaxNode) -> ParseResult | None:
        """Reparse a run of statements of this block or file around the edit (of the file: with
        its braces paired when the edit unbalanced them, see parse_statements_at)."""
        children = node.green.children
        offsets = []
        off = node.offset
        for c in children:
            offsets.append(off)
            off += len(c[1]) if type(c) is tuple else c.width
        # significant children: the opener, the statements and ';' between, the closer
        sig = [i for i, c in enumerate(children) if type(c) is not tuple or c[0] not in K.TRIVIA]
        if not sig:
            return None
        closer_i = sig[-1]
        closer = children[closer_i]
        if type(closer) is not tuple or closer[0] != (K.RBRACE if node.kind == K.BLOCK else K.EOF):
            return None
        if node.kind == K.BLOCK:
            opener_i = sig[0]
            if type(children[opener_i]) is not tuple or children[opener_i][0] != K.LBRACE:
                return None
            items = sig[1:-1]
            content_start = offsets[opener_i] + 1
        else:
            items = sig[:-1]
            content_start = node.offset
        closer_offset = offsets[closer_i]
        if self.start < content_start or self.end > closer_offset:
            return None

        def item_end(k: int) -> int:
            i = items[k]
            return offsets[i] + (len(children[i][1]) if type(children[i]) is tuple else children[i].width)

        def span_start(k: int) -> int:
            return item_end(k - 1) if k > 0 else content_start

        n = len(items)
        ia = next((k for k in range(n) if item_end(k) >= self.start), n)
        ib = next((k for k in range(ia, n) if span_start(k) > self.end), n)
        # With the braces unbalanced by the edit, the statements outside the window are paired
        # by the full parse as they were written only when each says so of itself; asked only
        # then, once per edit.
        unsure: list[int] = []

        def pairing_allowed(a: int, b: int) -> Callable[[int, int], bool | None]:
            lo = span_start(a)
            hi = closer_offset if b == n else item_end(b - 1)

            def allowed(net: int, low: int) -> bool | None:
                if self.regions:
                    return self.regions_allow(lo, hi, net, low)
                if not unsure:
                    memo = _memo_for(self.old)
                    unsure.extend(k for k in range(n) if type(children[items[k]]) is not tuple
                                  and not paired_as_written(children[items[k]], memo))
                    unsure.append(n)    # (a sentinel: asked)
                return all(a <= k < b for k in unsure[:-1])
            return allowed

        tried = set()
        for before, after in _GROWTH:
            a, b = max(0, ia - before), min(n, ib + after)
            if (a, b) in tried:
                continue
            tried.add((a, b))
            lo = span_start(a)
            hi = closer_offset if b == n else item_end(b - 1)
            if not self.afford(hi - lo):
                return None
            if self.root_only and node.kind != K.SOURCE_FILE:
                return None
            result = self.window(node, children, items, a, b, lo, hi, b == n, closer[0],
                                 pairing_allowed(a, b) if node.kind == K.SOURCE_FILE else None)
            if result is not None:
                return result
            if self.unbalanced and node.kind != K.SOURCE_FILE:
                return None
            if a == 0 and b == n:
                return None
        return None

    def window(self, node: SyntaxNode, children, items: list, a: int, b: int, lo: int, hi: int,
               tail: bool, closer_kind: str, pair: Callable[[int, int], bool | None] | None = None) -> ParseResult | None:
        old = self.old
        if "@(" in old.text[lo:hi]:
            return None
        old_items = [children[i] for i in items[a:b]]
        paired_file = bool(self.regions) and node.kind == K.SOURCE_FILE
        if not (_no_heredoc_text(old_items) if paired_file else _balanced(old_items)):
            return None
        if a > 0:
            prev = children[items[a - 1]]
            if type(prev) is tuple:
                prev_kind, prev_statement = prev[0], None
            else:
                prev_kind, prev_statement = last_token_kind(prev), prev
                # A statement left open ('foo(1,') may go on into the window: it reports an
                # error somewhere from its start to what ended it.
                prev_start = lo - prev.width
                if any(prev_start <= e.offset <= hi for e in old.errors):
                    return None
        else:
            prev_kind, prev_statement = (K.LBRACE if node.kind == K.BLOCK else None), None
        if a > 0 and a < len(items):
            # The statement before reports what it still expected at the first token after it;
            # that error names the token, so it is redone with that statement.
            first_at = lo + _leading_trivia_width(children[items[a]])
            if any(e.offset == first_at for e in old.errors):
                return None
        if paired_file and a > 0 and any(e.offset == e.end == lo for e in old.errors):
            return None   # a '}' put in at the end of the statement before names the window's first token
        following = None
        if not tail:
            following = children[items[b]]
            if type(following) is tuple or depends_on_previous(following):
                return None
            # an error at its first token may be the last statement's of the window
            first_at = hi + _leading_trivia_width(following)
            if any(e.offset == first_at for e in old.errors):
                return None
        if not self.holds_forced(lo, hi + self.delta):
            return None
        piece = parse_statements_at(self.text, lo, hi + self.delta, prev_kind, prev_statement,
                                    closer_kind if tail else None, self.tasks, _depth_bound(node), pair,
                                    self.unbalanced, self.forced, paired_file)
        if piece is None:
            return None
        if a > 0 and prev_statement is None and any(e.code == "ILLEGAL_COMMA" for e in piece.errors):
            # 'y; t, 1': a comma after the window's first statement names the last statement
            # before it, ';' or not (ARGS_TO_NON_CALL, as Puppet does), which the piece cannot see
            before = next((children[i] for i in reversed(items[:a]) if type(children[i]) is not tuple), None)
            if before is not None and qname_text(before) is not None:
                return None
        if following is not None:
            # The lexer must be back in step after the window, and the statement after it
            # must come after what it came after before (a statement, or a ';').
            old_first = _first_token(following)
            if old_first is None or piece.next_token != old_first:
                return None
            old_last = children[items[b - 1]]
            new_last = next((c for c in reversed(piece.children) if type(c) is not tuple or c[0] not in K.TRIVIA), None)
            if new_last is None or (type(new_last) is tuple) != (type(old_last) is tuple):
                return None
        start = items[a - 1] + 1 if a > 0 else _first_after_opener(node, children)
        stop = len(children) - 1 if tail else items[b - 1] + 1
        return self.splice(node, children, start, stop, piece, lo, hi, tail)

    def param(self, node: SyntaxNode) -> ParseResult | None:
        """Reparse one parameter of a parameter list (a class's list may be hundreds of lines)."""
        parent = node.parent
        if parent is None or parent.kind != K.PARAM_LIST or not self.afford(node.end - node.offset):
            return None
        siblings = parent.green.children
        close = last_token_kind(parent.green)
        nxt = next((c for c in siblings[node.index + 1:] if type(c) is not tuple or c[0] not in K.TRIVIA), None)
        if close not in (K.RPAREN, K.PIPE) or type(nxt) is not tuple or nxt[0] not in (K.COMMA, close):
            return None
        if "@(" in self.old.text[node.offset:node.end] or not _balanced([node.green]):
            return None
        first_at = node.offset + _leading_trivia_width(node.green)
        # the token after it: where the parameter reports what it still expected ('Type )')
        next_at = node.end
        for c in siblings[node.index + 1:]:
            if c is nxt:
                break
            next_at += len(c[1]) if type(c) is tuple else c.width
        if any(e.offset == first_at or e.offset == next_at for e in self.old.errors):
            return None   # reported by the list before this parameter, naming its first token
        if not self.holds_forced(node.offset, node.end + self.delta):
            return None
        piece = parse_param_at(self.text, node.offset, node.end + self.delta, _previous_token_kind(node),
                               close, self.tasks, _depth_bound(parent), self.forced)
        if piece is None or piece.next_token != (nxt[0], nxt[1]):
            return None
        return self.splice(parent, siblings, node.index, node.index + 1, piece, node.offset, node.end, False)

    def block(self, node: SyntaxNode) -> ParseResult | None:
        """Reparse the whole block holding the edit."""
        first = node.first_token()
        last = node.last_token()
        if first is None or first.kind != K.LBRACE or last is None or last.kind != K.RBRACE:
            return None
        # The closing brace must be the block's own, not one swallowed by a broken statement
        # inside it (then the block really ends at the end of the file, where an error says so).
        if last.parent is None or last.parent.offset != node.offset or last.parent.green is not node.green:
            return None
        if not (first.end <= self.start and self.end <= last.offset):
            return None
        if not self.afford(node.end - node.offset) or "@(" in self.old.text[node.offset:node.end]:
            return None
        if not _balanced([node.green]):
            return None
        prev_kind = _previous_token_kind(node)
        if not self.holds_forced(node.offset, node.end + self.delta):
            return None
        piece = parse_block_at(self.text, node.offset, node.end + self.delta, prev_kind, self.tasks,
                               _depth_bound(node.parent), self.forced)
        if piece is None or piece.children[0].kind != K.BLOCK:
            return None
        parent = node.parent
        assert parent is not None   # a block is never the root
        # the construct that owns the block reports its errors at the opening brace
        return self.splice(parent, parent.green.children, node.index, node.index + 1, piece,
                           first.end, last.offset, False)

    def splice(self, container: SyntaxNode, children, i: int, j: int, piece: Piece, lo: int, hi: int,
               closed: bool) -> ParseResult | None:
        """Replace children[i:j] of ``container`` by the piece and rebuild the ancestors; the
        old errors and multi-line strings in [lo, hi] are the window's own and are replaced.
        None when a construct around the window stays quiet about what it misses only while
        something inside it has reported an error, and the window goes from none to some or
        back (only the enclosing statement, reparsed whole, can tell)."""
        old = self.old
        delta = self.delta
        # A lookahead from a brace before the range that read into it (how 'name {' parses
        # depends on brackets and ':' far after the brace) would have to be done again.
        scans_before = []
        for scan in old.scans:
            if scan[0] < lo:
                if scan[1] >= lo:
                    return None
                scans_before.append(scan)
        if _reports_syntax_errors(e for e in old.errors if lo <= e.offset <= hi) != \
                _reports_syntax_errors(piece.errors) and _quiet_after_errors(container):
            return None
        green = GreenNode(container.green.kind, list(children[:i]) + piece.children + list(children[j:]))
        cur = container
        statement = None    # the new statement of the file holding the window, if any
        while cur.parent is not None:
            if cur.parent.parent is None:
                statement = green
            siblings = list(cur.parent.green.children)
            siblings[cur.index] = green
            green = GreenNode(cur.parent.green.kind, siblings)
            cur = cur.parent
        if self.regions and statement is not None and not paired_as_written(statement, _memo_for(old)):
            # In a file whose braces do not balance, a window inside a statement holds only
            # while the statement stays one that pairing leaves as written (asked before the
            # runaway-string recovery weighs this result).
            self.root_only = True
            return None
        # An error before the window may span over it (e.g. '@' followed by a long expression).
        before = [e if e.end <= hi else SyntaxError_(e.offset, e.end + delta, e.code, e.message, e.hint)
                  for e in old.errors if e.offset < lo]
        errors = before + list(piece.errors) + [_moved(e, delta) for e in old.errors if e.offset > hi]
        errors.sort(key=lambda e: (e.offset, e.end))
        multiline = tuple([m for m in old.multiline_strings if m[0] < lo] + list(piece.multiline) +
                          [(x + delta, y + delta) for x, y in old.multiline_strings if x >= hi])
        around = self.runaways_around(lo, hi)
        if around is None:
            return None
        runaways = tuple(sorted(around + piece.runaways))
        scans = tuple(sorted(set(scans_before + list(piece.scans) +
                                 [(b + delta, e + delta) for b, e in old.scans if b >= hi])))
        pairing = tuple([r for r in self.regions if r[1] <= lo] + list(piece.pairing) +
                        [(r[0] + delta, r[1] + delta, r[2], r[3]) for r in self.regions if r[0] >= hi])
        return self.finish(ParseResult(green, errors, self.text, multiline, runaways=runaways,
                                       scans=scans, validation_parts=old.validation_parts, pairing=pairing,
                                       as_written=old.as_written))


_PREFIXES = frozenset({K.AT, K.ATAT})
# the nodes that hold a resource's '@'/'@@' prefixes (Parser.resource)
_PREFIXED = frozenset({K.RESOURCE_EXPR, K.RESOURCE_DEFAULTS, K.RESOURCE_OVERRIDE, K.ERROR})


def paired_as_written(green: GreenNode, memo: dict | None = None) -> bool:
    """Does brace pairing (parser._paired) leave this statement of a file as written whatever
    the rest of the file holds?  It does when its braces balance on their own and each '{'
    opened outside any other is left as written (the '}' that closes it starts its line at
    column 0) or holds no other '{' (the indentation can then close nothing early).  False
    also when that cannot be told from the tree (a heredoc, whose text is read from other
    lines).  ``memo``: the answers known, {id(node): (node, answer)} (ParseResult.as_written),
    to which this one is added."""
    if memo is None:
        return _paired_as_written(green)
    hit = memo.get(id(green))
    if hit is not None and hit[0] is green:
        return hit[1]
    answer = _paired_as_written(green)
    memo[id(green)] = (green, answer)
    return answer


def _memo_for(old: ParseResult) -> dict:
    """The old result's paired_as_written answers, made when first asked; kept to about the
    file's statements (answers for statements edited away are dropped when they pile up)."""
    memo = old.as_written
    if memo is None:
        memo = old.as_written = {}
    elif len(memo) > 2 * len(old.green.children) + 64:
        live = {id(c) for c in old.green.children}
        for key in [k for k in list(memo) if k not in live]:
            del memo[key]
    return memo


def _paired_as_written(green: GreenNode) -> bool:
    # Read once per statement of a file at its first brace edit, so only braces and heredocs
    # stop the loop.  A '{' holding another one, closed by a '}' that does not start its line,
    # is answered "unsure" without asking whether both are on one line: rare at the top level
    # ('$h = { a => { b => 1 } }'), and a wrong "unsure" costs only the window.
    depth = 0
    nested = False     # a '{' inside the outermost one open
    prev: tuple = ("", "")   # the token or trivia before the one being read
    stack = [iter(green.children)]
    special = _AS_WRITTEN_KINDS
    newline = K.NEWLINE
    while stack:
        for c in stack[-1]:
            if type(c) is not tuple:
                if c.kind == K.HEREDOC_BODY:
                    return False
                stack.append(iter(c.children))
                break
            what = special.get(c[0])
            if what is not None:
                if what == 1:
                    nested = depth > 0
                    depth += 1
                elif what == 2:
                    if depth == 0:
                        return False
                    depth -= 1
                    if depth == 0 and nested and prev[0] != newline:
                        return False
                else:
                    return False
            prev = c
        else:
            stack.pop()
    return depth == 0


_AS_WRITTEN_KINDS = {K.LBRACE: 1, K.SELBRACE: 1, K.RBRACE: 2, K.HEREDOC: 3}


def _depth_bound(node: SyntaxNode | None) -> int:
    """A bound on the parser's nesting depth (Parser.depth) inside ``node``: each node around
    it was parsed inside at most two nested assignment()/expression() calls (an array in an
    array: '[' entries, assignment, expression, '['), counted as three, plus one call per
    '@'/'@@' prefix of a resource, which all go into one node."""
    bound = 0
    while node is not None:
        bound += 3
        # (only the nodes the parser puts prefixes in: the file's leading comments, thousands
        # of trivia in a documented manifest, were scanned on every keystroke)
        if node.green.kind in _PREFIXED:
            for c in node.green.children:
                if type(c) is not tuple or (c[0] not in _PREFIXES and c[0] not in K.TRIVIA):
                    break
                if c[0] in _PREFIXES:
                    bound += 1
        node = node.parent
    return bound


def _reports_syntax_errors(errors) -> bool:
    """Are there errors the parser reported (not the lexer: the parser counts only its own)?"""
    return any(e.code not in RANGE_LEX_ERRORS for e in errors)


# Constructs that leave a missing closer unreported when an error was reported inside them
# (Parser.expect_close's ``errors_before``): (kind, closer).
_QUIET_CLOSERS = {K.ARG_LIST: K.RPAREN, K.ARRAY: K.RBRACK, K.ACCESS_EXPR: K.RBRACK}


def _quiet_after_errors(node: SyntaxNode) -> bool:
    """Is ``node`` inside a construct that decides whether to report something it misses by
    whether an error was reported inside it before (so that an error appearing or going away
    at ``node`` may change an error after it)?  A call's argument list, an array, an access
    whose closer was missing (recovery skipped to it, or it is absent), and the condition of
    an ``if``/``unless`` whose block is missing."""
    child = node
    cur = node.parent
    while cur is not None:
        children = cur.green.children
        closer = _QUIET_CLOSERS.get(cur.kind)
        if closer is not None:
            sig = [c for c in children if type(c) is not tuple or c[0] not in K.TRIVIA]
            if not (len(sig) >= 2 and type(sig[-1]) is tuple and sig[-1][0] == closer and
                    (type(sig[-2]) is tuple or sig[-2].kind != K.ERROR)):
                return True
        elif cur.kind == K.IF_EXPR or cur.kind == K.UNLESS_EXPR:
            nodes = [k for k, c in enumerate(children) if type(c) is not tuple]
            # conditional(): the condition, then the block ('block(quiet=...)' when it is missing)
            if nodes and child.index == nodes[0] and (
                    len(nodes) < 2 or children[nodes[1]].kind != K.BLOCK or not children[nodes[1]].children):
                return True
        child = cur
        cur = cur.parent
    return False


def _token_at(root: SyntaxNode, start: int, end: int):
    """The token holding [start, end) strictly after its first character: (the nodes from the
    root down to its parent, the token, its offset); None when there is none."""
    path = [root]
    node = root
    while True:
        off = node.offset
        nxt = None
        for i, c in enumerate(node.green.children):
            w = len(c[1]) if type(c) is tuple else c.width
            if off < start and end <= off + w:
                if type(c) is tuple:
                    return path, c, off
                nxt = SyntaxNode(c, off, node, i)
                break
            if off >= start:
                return None
            off += w
        if nxt is None:
            return None
        path.append(nxt)
        node = nxt


def _leaf_at(root: SyntaxNode, offset: int) -> tuple[list, tuple, int] | None:
    """The token holding the character at ``offset``: (the kinds of the nodes from the root
    down to its parent, the token, its offset); None past the end."""
    kinds = [root.kind]
    green = root.green
    off = root.offset
    while True:
        for c in green.children:
            w = len(c[1]) if type(c) is tuple else c.width
            if off <= offset < off + w:
                if type(c) is tuple:
                    return kinds, c, off
                kinds.append(c.kind)
                green = c
                break
            off += w
        else:
            return None


def _adds_or_removes_brace(root: SyntaxNode, start: int, end: int, new_text: str) -> bool:
    """Does this edit of a file whose braces balance delete a '{' or '}' of the code, or type
    one in the code (between tokens, in blanks or in a word; not in a string or comment)?
    Then the braces no longer balance.  Only a shortcut: a wrong answer costs time, never the
    result (a full parse)."""
    if new_text == "" and end == start + 1:
        found = _leaf_at(root, start)
        return found is not None and found[2] == start and found[1][0] in _BRACES
    if start != end or new_text not in ("{", "}"):
        return False
    found = _leaf_at(root, start)       # None: typed at the end
    if found is not None:
        kinds, tok, off = found
        if any(k in _INSIDE_STRINGS for k in kinds):
            return False
        if off < start:     # inside a token: blanks and words are cut by a brace, strings are not
            return tok[0] in _CUT_BY_BRACE
    before = _leaf_at(root, start - 1) if start > 0 else None
    # a brace typed at the end of a comment or a string's text is part of it
    return before is None or (before[1][0] not in (K.COMMENT, K.STRING_TEXT, K.ERROR_TOKEN)
                              and not any(k in _INSIDE_STRINGS for k in before[0]))


def _child_index_at(node: SyntaxNode, offset: int) -> int:
    off = node.offset
    for i, c in enumerate(node.green.children):
        if off == offset and type(c) is tuple and c[1]:
            return i
        off += len(c[1]) if type(c) is tuple else c.width
    raise AssertionError("no token at the offset")   # _token_at found one there


def _first_after_opener(node: SyntaxNode, children) -> int:
    if node.kind != K.BLOCK:
        return 0
    for i, c in enumerate(children):
        if type(c) is tuple and c[0] == K.LBRACE:
            return i + 1
    return 0


def _balanced(greens: list) -> bool:
    """Do the braces of these green nodes balance (never more '}' than '{' so far), with no
    heredoc text among them (which the lexer takes from lines after its header)?"""
    depth = 0
    stack = list(reversed(greens))
    while stack:
        g = stack.pop()
        if type(g) is tuple:
            d = _BRACES.get(g[0])
            if d is not None:
                depth += d
                if depth < 0:
                    return False
            continue
        if g.kind == K.HEREDOC_BODY:
            return False
        stack.extend(reversed(g.children))
    return depth == 0


def _no_heredoc_text(greens: list) -> bool:
    """Are these green nodes free of heredoc text (which the lexer takes from lines after its
    header, so that a range holding it cannot be lexed on its own)?"""
    stack = list(greens)
    while stack:
        g = stack.pop()
        if type(g) is not tuple:
            if g.kind == K.HEREDOC_BODY:
                return False
            stack.extend(g.children)
    return True


def _leading_trivia_width(green) -> int:
    if type(green) is tuple:
        return 0
    width = 0
    stack = [green]
    while stack:
        g = stack.pop()
        for c in g.children:
            if type(c) is tuple:
                if c[0] not in K.TRIVIA:
                    return width
                width += len(c[1])
            else:
                stack.append(c)
                break
    return width


def _first_token(green: GreenNode) -> tuple | None:
    """(kind, text) of the first significant token of a green node."""
    for c in green.children:
        if type(c) is tuple:
            if c[0] not in K.TRIVIA:
                return c
        else:
            t = _first_token(c)
            if t is not None:
                return t
    return None


def _previous_token_kind(node: SyntaxNode) -> str | None:
    """Kind of the last significant token before ``node`` (the lexer's context for it)."""
    cur = node
    while cur.parent is not None:
        children = cur.parent.green.children
        for i in range(cur.index - 1, -1, -1):
            c = children[i]
            if type(c) is tuple:
                if c[0] not in K.TRIVIA:
                    return c[0]
            else:
                k = last_token_kind(c)
                if k is not None:
                    return k
        cur = cur.parent
    return None


def _moved(e, by: int):
    return SyntaxError_(e.offset + by, e.end + by, e.code, e.message, e.hint)
