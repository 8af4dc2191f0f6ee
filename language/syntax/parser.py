"""The Puppet parser: tokens to a lossless green tree plus syntax errors; it never raises.

Hand-written recursive descent with a precedence-climbing loop for operators (see
docs/decisions.md for why not a generated parser).  The layering follows Puppet's grammar:

    statement   := statement-call | assignment
    assignment  := relationship (('=' | '+=' | '-=') assignment)?
    relationship:= resource (('->' | '~>' | '<-' | '<~') resource)*
    resource    := '@' resource | '@@' resource | 'class' '{' bodies '}' | expression ('{' … '}')?
    expression  := operators by precedence over primaries with postfix access/call/method

Operator precedence, loosest first, as Puppet 7 actually parses (the selector binds looser than
comparisons but tighter than 'and', which differs from a naive reading of the grammar file):
``or``, ``and``, selector ``?``, ``< <= > >=``, ``== !=``, ``<< >>``, ``+ -``, ``* / %``,
``=~ !~``, ``in``, unary ``- ! *``, then postfix ``[ ]``, ``.name``, ``( )`` and collectors.

Recovery: braces are paired before parsing (``_pair_braces``; a missing ``}`` is placed by
indentation and inserted as a zero-width token), so a block's damage cannot leak out of it; a
statement of the file whose braces balance on their own is left as written.
Inside a block, an unexpected token is wrapped in an ERROR node together with what follows up
to the next token that can start a statement, skipping whole bracketed groups.
"""
from __future__ import annotations

import bisect
import gc
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate, repeat
from collections.abc import Callable

from ..messages import issue
from . import kinds as K
from .lexer import AFTER_STRING, RANGE_LEX_ERRORS, Heredoc, LexResult, lex, lex_range, next_tokens
from .ast import single_quoted_value, variable_name
from .tree import GreenNode, SyntaxNode, green_token

STATEMENT_CALLS = frozenset({
    "require", "realize", "include", "contain", "tag", "debug", "info", "notice", "warning",
    "err", "fail", "import", "break", "next", "return",
})

# binding powers of binary operators
_BINARY = {
    K.OR: 10, K.AND: 20,
    K.GREATEREQUAL: 30, K.GREATERTHAN: 30, K.LESSTHAN: 30, K.LESSEQUAL: 30,
    K.NOTEQUAL: 40, K.ISEQUAL: 40,
    K.LSHIFT: 50, K.RSHIFT: 50,
    K.MINUS: 60, K.PLUS: 60,
    K.TIMES: 70, K.DIV: 70, K.MODULO: 70,
    K.MATCH: 80, K.NOMATCH: 80,
    K.IN: 90,
}
_SELECTOR_BP = 25
_UNARY_BP = 100
_RELATIONSHIP = frozenset({K.IN_EDGE, K.IN_EDGE_SUB, K.OUT_EDGE, K.OUT_EDGE_SUB})
_ASSIGN = frozenset({K.EQUALS, K.APPENDS, K.DELETES})
_CHAIN_OPERATORS = frozenset(_BINARY) | _RELATIONSHIP | frozenset({K.DOT, K.LBRACK, K.LPAREN, K.QMARK})

# tokens that can start an expression
EXPR_START = frozenset({
    K.VARIABLE, K.NAME, K.WORD, K.CLASSREF, K.NUMBER, K.STRING, K.REGEX, K.BOOLEAN, K.UNDEF,
    K.DEFAULT, K.DQ_OPEN, K.HEREDOC, K.LISTSTART, K.LBRACK, K.LBRACE, K.LPAREN, K.WSLPAREN,
    K.MINUS, K.NOT, K.TIMES, K.IF, K.UNLESS, K.CASE, K.CLASS, K.DEFINE, K.NODE, K.FUNCTION,
    K.TYPE, K.PLAN, K.APPLY, K.PRIVATE, K.ATTR, K.AT, K.ATAT, K.RENDER_EXPR, K.EPP_TEXT,
    K.ERROR_TOKEN,
})
# tokens at which recovery stops skipping (a statement may start here)
_RECOVERY_STOP = frozenset({
    K.RBRACE, K.EOF, K.SEMIC, K.VARIABLE, K.IF, K.UNLESS, K.CASE, K.CLASS, K.DEFINE, K.NODE,
    K.FUNCTION, K.TYPE, K.PLAN, K.AT, K.ATAT, K.RENDER_EXPR, K.EPP_TEXT,
})
# Bounds on the shape of trees: recursive descent goes at most MAX_NESTING constructs deep, and
# an operator chain (left-nested) grows no taller than MAX_CHAIN levels, its first operand's
# height included (so chains nested in parentheses do not add up).  Beyond: NESTING_TOO_DEEP.
MAX_NESTING = 100
MAX_CHAIN = 300
_ENTRY_RECOVERY = frozenset({K.COMMA, K.RBRACE, K.EOF})
_SQUARE_OR_ROUND_OPEN = frozenset({K.LBRACK, K.LISTSTART, K.LPAREN, K.WSLPAREN})
_POSTFIX_START = frozenset({K.LBRACK, K.DOT, K.LPAREN, K.LCOLLECT, K.LLCOLLECT})

_STRINGISH = frozenset({K.STRING, K.DQ_OPEN, K.STRING_TEXT, K.DQ_CLOSE})
_STRONG_STARTS = frozenset({K.IF, K.UNLESS, K.CASE, K.CLASS, K.DEFINE, K.NODE, K.FUNCTION,
                            K.PLAN, K.RBRACE})
_OPENERS = {K.LBRACE: K.RBRACE, K.SELBRACE: K.RBRACE, K.LBRACK: K.RBRACK,
            K.LISTSTART: K.RBRACK, K.LPAREN: K.RPAREN, K.WSLPAREN: K.RPAREN}
_CLOSERS = frozenset({K.RBRACE, K.RBRACK, K.RPAREN})
# an attribute's name: a name or a keyword, but not 'true' or 'false' (Puppet's attribute_name)
_ATTRIBUTE_NAME_KINDS = (frozenset({K.NAME}) | K.KEYWORD_KINDS) - {K.BOOLEAN}
_COLLECTION_KEYWORDS = frozenset({K.TYPE, K.FUNCTION, K.PLAN, K.APPLY})
_LITERAL_KINDS = frozenset({K.NUMBER, K.STRING, K.REGEX, K.BOOLEAN, K.UNDEF, K.DEFAULT})

_DESCRIBE = {
    K.EOF: "end of input", K.RBRACE: "'}'", K.RBRACK: "']'", K.RPAREN: "')'",
}


@dataclass(slots=True)
class SyntaxError_:
    """A syntax error: a range of the source, a stable code, a message worded as Puppet words
    it, and an optional hint (what was expected) that tools may append."""
    offset: int
    end: int
    code: str
    message: str
    hint: str = ""

    @property
    def full_message(self) -> str:
        return f"{self.message}; expected {self.hint}" if self.hint else self.message


@dataclass(slots=True)
class ParseResult:
    green: GreenNode
    errors: list          # lexical and syntax errors, in source order
    text: str
    multiline_strings: tuple = ()   # (start, end) offsets of strings that span lines
    validation: list | None = None  # validate()'s findings, cached by it
    # validate()'s findings for each statement of the file: {id(node): (node, offset, findings)};
    # an incremental result starts from its old one's, so only the statements it parsed anew
    # are walked again
    validation_parts: dict | None = None
    # The regions of the text whose braces brace pairing read by the indentation and changed,
    # as (offset, end, net, low), sorted (parser._paired): empty when the braces balance; None
    # when not known (then an edit of a file whose braces do not balance is a full parse)
    pairing: tuple | None = None
    # incremental.paired_as_written's answers for the statements of the file, by node identity
    # ({id(node): (node, answer)}), made at its first brace edit and shared with later revisions
    as_written: dict | None = None
    runaways: tuple = ()            # LexResult.runaways: strings ended at their line end
    # The tree is the recovery's second parse (prefer_closed_runaway_string), chosen by
    # comparing whole-file error counts: no part of it can be reparsed on its own.
    recovered: bool = False
    # The parser's lookaheads past a '{' (Parser.scans), as (offset of the brace, offset of
    # the token where the scan stopped), sorted: what incremental reparsing must not cut through.
    scans: tuple = ()

    @property
    def root(self) -> SyntaxNode:
        return SyntaxNode(self.green)


# Longer token values are cut in messages (Puppet's are whole: a string of many lines too).
_DESCRIBE_MAX = 100


def _describe(toks: list, j: int) -> str:
    """The token at ``j`` as Puppet's parser names it in a syntax error: by its value, so a
    variable without its '$', a single-quoted string's text without its quotes, a regexp as
    Ruby prints one (Regexp#to_s)."""
    kind, text = toks[j][0], toks[j][1]
    if kind == K.EOF:
        return "end of input"
    if text == "":
        return _DESCRIBE.get(kind, kind)
    if kind == K.VARIABLE:
        text = variable_name(text)
    elif kind == K.STRING:
        text = single_quoted_value(text)
    elif kind == K.REGEX:
        text = f"(?-mix:{text[1:-1]})"
    elif kind == K.DQ_CLOSE:
        text = ""       # (the end of a string's text: see Parser.syntax_error)
    # (At a double-quoted string's opening quote Puppet names the text after it; that would make
    # the message of a one-character token depend on text an edit can change without reparsing
    # the token: the incremental reparse kept stale ones. It stays '"'.)
    if len(text) > _DESCRIBE_MAX:
        text = text[:_DESCRIBE_MAX - 3] + "..."
    return f"'{text}'"


def _interpolation_ends(kinds: list) -> dict[int, int]:
    """Token index of each '${' -> that of the '}' that closes it (the lexer nests them
    properly; one left open has none).  The tokens are searched in C, kind by kind: a walk from
    each '${' to its '}' would cost the depth of nesting times the length of a hostile line."""
    n = len(kinds)
    ends: dict[int, int] = {}
    stack: list[int] = []
    o = _next_index(kinds, K.INTERP_OPEN, 0, n)
    c = _next_index(kinds, K.INTERP_CLOSE, 0, n)
    while o < n or c < n:
        if o < c:
            stack.append(o)
            o = _next_index(kinds, K.INTERP_OPEN, o + 1, n)
        else:
            if stack:
                ends[stack.pop()] = c
            c = _next_index(kinds, K.INTERP_CLOSE, c + 1, n)
    return ends


def _next_index(kinds: list, kind: str, start: int, n: int) -> int:
    try:
        return kinds.index(kind, start)
    except ValueError:
        return n


class Parser:
    def __init__(self, lexed: LexResult | None, epp: bool = False, pair_braces: bool = True):
        # lexed None: an empty parser, which heredoc_body fills with a heredoc's tokens (a
        # constructor, not Parser.__new__, so that the class can be compiled: docs/decisions.md)
        self.toks = lexed.tokens if lexed is not None else []
        self.errors: list = []
        self.heredocs: dict[int, Heredoc] = {}
        if lexed is not None:
            for e in lexed.errors:
                self.errors.append(SyntaxError_(e.offset, e.end, e.code, e.message))
            self.heredocs = {hd.header_offset: hd for hd in lexed.heredocs}
        self.epp = epp
        self.kinds = [t[0] for t in self.toks]
        self.pairing: tuple = ()   # what brace pairing read by the indentation (_paired)
        if pair_braces and not _braces_balance(self.kinds):
            _pair_braces(self)   # may insert tokens, so token indices are only final after it
            self.kinds = [t[0] for t in self.toks]
        self.body_tokens = set()
        if lexed is not None and lexed.heredocs:
            for idx, tok in enumerate(self.toks):
                for tv in tok[3]:
                    if tv[0] == K.HEREDOC_BODY:
                        self.body_tokens.add(idx)
                        break
        self.i = 0
        self.error_tokens: set[int] = set()
        self.untitled_prefixed = False
        self.dq_open = -1
        self.dq_multiline = False
        self.multiline: list = []
        self.depth = 0
        self.reported_depth = False
        self.stop = -1   # statements() ends at this token index too (parse_statements_at)
        # The '}' that ends the interpolation being parsed ('${...}'; -1 outside one): the lexer
        # has decided where it ends, so recovery from an error inside it never goes past it
        # (a '(' left open there would otherwise take the rest of the file into the string).
        self.interp_end = -1
        self.interp_ends: dict[int, int] | None = None     # _interpolation_ends, when first needed
        # The closers of the '(' and '[' open around the current token since the innermost
        # block, hash, parameter list or interpolation: an entry of an inner list that meets
        # one of them ends there (a '[' typed in a parameter's type leaves the list's ')' to
        # the list, instead of taking the class's body and the rest of the file with it).
        self.enclosing: tuple = ()
        # Lookaheads that decide how a '{' parses by reading tokens after it (titled_body,
        # brace_after_statement, hash_condition): (brace index, index of the last token read).
        # They may read past the statement that holds the brace, so a range reparsed on its
        # own must not cut through one (parse_statements_at, incremental.py).
        self.scans: list = []

    # ---- token helpers ----------------------------------------------------------------------
    def peek(self, n: int = 0) -> str:
        j = self.i + n
        kinds = self.kinds
        return kinds[j] if j < len(kinds) else K.EOF

    def bump(self, ch: list) -> None:
        i = self.i
        tok = self.toks[i]
        trivia = tok[3]
        if trivia:
            if i in self.body_tokens:
                for tv in trivia:
                    ch.append(self.heredoc_body(tv) if tv[0] == K.HEREDOC_BODY else tv)
            else:
                ch.extend(trivia)
        kind = tok[0]
        ch.append(green_token(kind, tok[1]))
        if kind in _STRINGISH:
            self.note_string(kind, tok)
        if kind != K.EOF:
            self.i = i + 1

    def note_string(self, kind: str, tok) -> None:
        """Remember strings that run over more than one line, as (start, end) offsets: when a
        syntax error follows one, recovery tries it as a string whose closing quote is
        missing."""
        if kind == K.DQ_OPEN:
            self.dq_open = tok[2]
            self.dq_multiline = False
        elif kind == K.DQ_CLOSE:
            if self.dq_multiline:
                self.multiline.append((self.dq_open, tok[2] + len(tok[1])))
                self.dq_multiline = False
        elif "\n" in tok[1]:
            if kind == K.STRING:
                self.multiline.append((tok[2], tok[2] + len(tok[1])))
            else:
                self.dq_multiline = True

    def bump_as(self, ch: list, kind: str) -> None:
        """Consume the current token under another kind (e.g. a keyword used as a name)."""
        self.bump(ch)
        ch[-1] = (kind, ch[-1][1])

    def error(self, code: str, tok_index: int | None = None, hint: str = "", **args) -> None:
        j = self.i if tok_index is None else tok_index
        if j >= len(self.toks):
            j = len(self.toks) - 1
        tok = self.toks[j]
        if j in self.error_tokens and tok[0] != K.EOF:
            # one error per token is enough (a look-ahead such as brace_after_statement's may
            # come back to a token an error was reported at before the last one)
            return
        if code == "SYNTAX_ERROR" and tok[0] == K.ERROR_TOKEN:
            return   # the lexer has said what is wrong with this text (Puppet stops there too)
        self.error_tokens.add(j)
        self.errors.append(SyntaxError_(tok[2], tok[2] + len(tok[1]), code, issue(code).format(**args), hint))

    def syntax_error(self, expected: str | None = None) -> None:
        tok = self.toks[self.i]
        shown = tok
        j = self.i
        while shown[0] == K.RBRACE and shown[1] == "" and j + 1 < len(self.toks):
            # a '}' inserted by brace pairing: name what really is there
            j += 1
            shown = self.toks[j]
        if shown[0] == K.INTERP_CLOSE and j + 1 < len(self.toks) and self.toks[j + 1][0] in (K.STRING_TEXT, K.DQ_CLOSE):
            # Puppet's lexer reads the '}' that closes an interpolation with the string's text
            # after it (DQMID, DQPOST): the error is at that text, named by it
            self.error("SYNTAX_ERROR", j + 1, hint=expected or "", at=_describe(self.toks, j + 1))
            return
        self.error("SYNTAX_ERROR", hint=expected or "", at=_describe(self.toks, j))

    def expect(self, ch: list, kind: str, what: str) -> bool:
        if self.kinds[self.i] == kind:
            self.bump(ch)
            return True
        self.syntax_error(what)
        return False

    def starts_line(self, j: int) -> bool:
        """Is token j the first on its line?"""
        if j == 0:
            return True
        for tv in self.toks[j][3]:
            if tv[0] == K.NEWLINE or tv[0] == K.HEREDOC_BODY:
                return True
        return False

    def strong_statement_start(self, j: int) -> bool:
        """Does token j clearly begin a new statement (so that a construct left open before it
        is more likely missing its closer than continuing)?"""
        k = self.kinds[j]
        if k in _STRONG_STARTS:
            return True
        nxt = self.kinds[j + 1] if j + 1 < len(self.kinds) else K.EOF
        if k == K.VARIABLE and nxt in _ASSIGN:
            return True
        if k in (K.NAME, K.CLASSREF) and nxt == K.LBRACE:
            return True
        if k == K.NAME and nxt == K.LPAREN:
            return True   # a function call on a line of its own
        return k == K.NAME and self.toks[j][1] in STATEMENT_CALLS and nxt in EXPR_START

    def skip_group(self, ch: list) -> None:
        """Consume a bracketed group (or one token) as part of error recovery.  Iterative, so
        that deeply nested input cannot exhaust the stack."""
        kinds = self.kinds
        close = _OPENERS.get(kinds[self.i])
        self.bump(ch)
        if close is None:
            return
        if close == K.RBRACE:
            depth = 1   # braces are paired before parsing, so their count is exact
            while kinds[self.i] != K.EOF and self.i != self.interp_end:
                k = kinds[self.i]
                if k == K.LBRACE or k == K.SELBRACE:
                    depth += 1
                elif k == K.RBRACE:
                    depth -= 1
                    if depth == 0:
                        self.bump(ch)
                        return
                self.bump(ch)
            return
        # A '(' or '[' group: skip braced groups inside whole, and never eat a '}' that
        # belongs to an enclosing block.
        depth = 1
        braces = 0
        while kinds[self.i] != K.EOF and self.i != self.interp_end:
            k = kinds[self.i]
            if k == K.LBRACE or k == K.SELBRACE:
                braces += 1
            elif k == K.RBRACE:
                if braces == 0:
                    return
                braces -= 1
            elif braces == 0:
                if k in _SQUARE_OR_ROUND_OPEN:
                    depth += 1
                elif k == K.RBRACK or k == K.RPAREN:
                    depth -= 1
                    if depth == 0:
                        self.bump(ch)
                        return
            self.bump(ch)

    def chain_too_long(self, left: GreenNode) -> GreenNode:
        """An operator chain longer than MAX_CHAIN (left-nested trees would be that deep):
        report it and keep the rest of the chain flat in an ERROR node."""
        self.report_too_deep()
        node = [left]
        kinds = self.kinds
        while kinds[self.i] in _CHAIN_OPERATORS:
            self.skip_group(node)
            if kinds[self.i] == K.SELBRACE:
                self.skip_group(node)      # a selector's { cases }
                continue
            if kinds[self.i] in EXPR_START and kinds[self.i] not in _CHAIN_OPERATORS:
                node.append(self.primary())
        return GreenNode(K.ERROR, node)

    def report_too_deep(self) -> None:
        if not self.reported_depth:
            self.reported_depth = True
            tok = self.toks[self.i]
            self.errors.append(SyntaxError_(tok[2], tok[2] + len(tok[1]), "NESTING_TOO_DEEP",
                                            issue("NESTING_TOO_DEEP").format(what="Brackets, blocks and expressions",
                                                                             limit=MAX_NESTING)))

    def too_deep(self) -> GreenNode:
        """Nesting beyond MAX_NESTING: report it once and skip the group here, so that no
        input can exhaust the stack of the parser or of anything that walks the tree."""
        self.report_too_deep()
        err: list = []
        if self.kinds[self.i] != K.EOF and self.kinds[self.i] != K.RBRACE:
            self.skip_group(err)
        return GreenNode(K.ERROR, err)

    def recover(self, ch: list, stop=_RECOVERY_STOP) -> None:
        """Wrap tokens up to a plausible restart point in an ERROR node."""
        err: list = []
        kinds = self.kinds
        while kinds[self.i] not in stop and self.i != self.interp_end:
            self.skip_group(err)
        if err:
            ch.append(GreenNode(K.ERROR, err))

    # ---- heredoc bodies ---------------------------------------------------------------------
    def heredoc_body(self, tv) -> GreenNode:
        hd: Heredoc = tv[2]
        sub = Parser(None, pair_braces=False)
        sub.toks = list(hd.tokens) + [(K.EOF, "", hd.text_end, hd.trailing)]
        sub.kinds = [t[0] for t in sub.toks]
        sub.errors = self.errors
        sub.epp = False
        sub.heredocs = self.heredocs
        sub.body_tokens = set()
        for idx, tok in enumerate(sub.toks):
            for t2 in tok[3]:
                if t2[0] == K.HEREDOC_BODY:
                    sub.body_tokens.add(idx)
        sub.i = 0
        sub.error_tokens = set()
        sub.untitled_prefixed = False
        sub.dq_open = -1
        sub.dq_multiline = False
        sub.depth = self.depth
        sub.reported_depth = self.reported_depth
        sub.stop = -1
        sub.interp_end = -1
        sub.multiline = []   # heredoc text is not a quoted string
        ch: list = []
        sub.string_parts(ch, K.EOF)
        if sub.kinds[sub.i] != K.EOF:
            sub.recover(ch, frozenset({K.EOF}))
        sub.bump(ch)
        ch.pop()  # the synthetic EOF token (its trivia stays)
        text_node = GreenNode(K.HEREDOC_TEXT, ch)
        end_text = tv[1][hd.text_end - hd.body_offset:]
        children: list = [text_node]
        if end_text:
            children.append((K.HEREDOC_END, end_text))
        return GreenNode(K.HEREDOC_BODY, children)

    # ---- entry points -----------------------------------------------------------------------
    def parse_file(self) -> GreenNode:
        ch: list = []
        if self.epp:
            self.epp_params(ch)
        self.statements(ch, top=True)
        while self.kinds[self.i] != K.EOF:
            # only a stray '}' (turned into an error token by brace pairing) gets here
            self.recover(ch, frozenset({K.EOF}))
            self.statements(ch, top=True)
        self.bump(ch)
        return GreenNode(K.EPP_FILE if self.epp else K.SOURCE_FILE, ch)

    def epp_params(self, ch: list) -> None:
        kinds = self.kinds
        j = self.i
        # the parameter list may only be preceded by whitespace-only text
        if kinds[j] == K.EPP_TEXT and self.toks[j][1].strip() == "" and kinds[j + 1] == K.PIPE:
            self.bump(ch)
        if kinds[self.i] == K.PIPE:
            node: list = []
            self.param_list(node, K.PIPE, K.PIPE)
            ch.append(GreenNode(K.EPP_PARAMS, node))

    # ---- statements -------------------------------------------------------------------------
    def statements(self, ch: list, top: bool = False, after_statement: bool = False,
                   after_semicolon: bool = False) -> None:
        """Statements up to a '}' (not consumed) or end of input (or the token ``self.stop``).
        ``after_statement``/``after_semicolon``: what came before the first one."""
        kinds = self.kinds
        stop = self.stop
        while True:
            if self.i == stop:
                return
            k = kinds[self.i]
            if k == K.RBRACE or k == K.EOF:
                if after_semicolon:
                    # Puppet allows ';' only between two statements
                    self.syntax_error("a statement after ';'")
                return
            if k == K.SEMIC:
                if not after_statement:
                    self.syntax_error("a statement before ';'")
                self.bump(ch)
                after_statement = False
                after_semicolon = True
                continue
            after_semicolon = False
            follows_statement = after_statement
            after_statement = True
            if k not in EXPR_START:
                self.syntax_error()
                self.recover(ch, _RECOVERY_STOP - {K.SEMIC} | {K.SEMIC})
                if kinds[self.i] == k and k not in (K.RBRACE, K.EOF, K.SEMIC):
                    # recovery did not move (the token is itself a restart token)
                    err: list = []
                    self.skip_group(err)
                    ch.append(GreenNode(K.ERROR, err))
                continue
            before = self.i
            self.statement(ch)
            if k == K.LBRACE and follows_statement:
                self.brace_after_statement(before)
            if self.i == before:
                err = []
                self.skip_group(err)
                ch.append(GreenNode(K.ERROR, err))

    def brace_after_statement(self, lbrace: int) -> None:
        """A '{' right after a statement (no ';' between) continues that statement in Puppet's
        grammar, as the body of a resource: `$x = 1 {'a' => 1}`, even across lines.  A hash
        there is a syntax error at its first '=>' (where Puppet wants the ':' of a title)."""
        toks = self.toks
        depth = 0
        floors: list[int] = []
        j = lbrace + 1
        first = None
        while j < len(toks):
            kind = toks[j][0]   # (trivia hang on the tokens: every one here is significant)
            if first is None:
                first = kind
            depth = _bracket_step(kind, depth, floors)
            if depth < 0 or kind == K.EOF:
                break
            if depth == 0 and not floors and kind in (K.FARROW, K.PARROW, K.COMMA):
                if first not in (K.NAME, K.FARROW, K.PARROW):
                    # (a bare word key makes it an attribute list: another error in Puppet)
                    self.error("SYNTAX_ERROR", j, at=_describe(toks, j))
                break
            j += 1
        self.scans.append((lbrace, min(j, len(toks) - 1)))

    def statement(self, ch: list) -> None:
        kinds = self.kinds
        tok = self.toks[self.i]
        if tok[0] == K.NAME and tok[1] in STATEMENT_CALLS:
            nxt = kinds[self.i + 1]
            if nxt in EXPR_START and nxt != K.LPAREN and not (nxt in (K.MINUS, K.TIMES) and not self.spaced_unary(self.i + 1)) \
                    and not (nxt == K.LBRACE and self.titled_body(self.i + 1)):
                node: list = []
                self.bump_as(node, K.NAME)
                self.call_args_unparenthesized(node)
                ch.append(GreenNode(K.STATEMENT_CALL, node))
                return
        expr = self.assignment()
        if kinds[self.i] == K.COMMA:
            # 'foo 10, 3' / '$a = 10, 3': arguments without parentheses to something that is not
            # a statement function
            node = [expr]
            k = len(ch) - 1
            while k >= 0 and type(ch[k]) is tuple:
                k -= 1
            prev = ch[k] if k >= 0 else None
            name = qname_text(prev) if prev is not None else None
            if name is not None:
                self.error("ARGS_TO_NON_CALL", name=name)
            else:
                self.error("ILLEGAL_COMMA")
            while kinds[self.i] == K.COMMA:
                self.bump(node)
                if kinds[self.i] in EXPR_START:
                    node.append(self.assignment())
            ch.append(GreenNode(K.ERROR, node))
            return
        ch.append(expr)

    def spaced_unary(self, j: int) -> bool:
        """'notice -1' passes -1, but 'notice - 1' is a subtraction."""
        tok = self.toks[j]
        nxt = self.toks[j + 1] if j + 1 < len(self.toks) else None
        return nxt is not None and not nxt[3] and bool(tok[3])

    def call_args_unparenthesized(self, node: list) -> None:
        node.append(self.assignment())
        kinds = self.kinds
        while kinds[self.i] == K.COMMA:
            self.bump(node)
            if kinds[self.i] in EXPR_START:
                node.append(self.assignment())
            else:
                self.syntax_error("an argument")
                return

    def titled_body(self, j: int) -> bool:
        """Does the brace at token j start a resource body with a title ('title: ...')?
        Scans to the first ':' or '=>'/'+>' at nesting depth 0 (titles are short)."""
        found, stop = _titled_scan(self.kinds, j)
        self.scans.append((j, stop))
        return found

    # ---- assignment / relationship / resource -----------------------------------------------
    def assignment(self) -> GreenNode:
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                return self.too_deep()
            left = self.relationship()
            if self.kinds[self.i] in _ASSIGN:
                node = [left]
                self.bump(node)
                node.append(self.assignment_operand())
                return GreenNode(K.ASSIGNMENT, node)
            return left
        finally:
            self.depth -= 1

    def assignment_operand(self) -> GreenNode:
        if self.kinds[self.i] in EXPR_START:
            return self.assignment()
        return self.missing("an expression")

    def relationship(self) -> GreenNode:
        left = self.resource()
        kinds = self.kinds
        while kinds[self.i] in _RELATIONSHIP:
            if left.height >= MAX_CHAIN:
                return self.chain_too_long(left)
            node = [left]
            self.bump(node)
            if kinds[self.i] in EXPR_START:
                node.append(self.resource())
            else:
                node.append(self.missing("an expression"))
            left = GreenNode(K.RELATIONSHIP, node)
        return left

    def resource(self, prefixed: bool = False) -> GreenNode:
        kinds = self.kinds
        k = kinds[self.i]
        if (k == K.AT or k == K.ATAT) and self.depth + 1 > MAX_NESTING:
            return self.too_deep()
        if k == K.AT or k == K.ATAT:
            at_offset = self.toks[self.i][2]
            prefix: list = []
            self.bump(prefix)
            if kinds[self.i] in EXPR_START:
                self.depth += 1
                try:
                    inner = self.resource(prefixed=True)
                finally:
                    self.depth -= 1
            else:
                inner = self.missing("a resource expression")
            untitled = self.untitled_prefixed
            self.untitled_prefixed = False
            if inner.kind in (K.RESOURCE_EXPR, K.RESOURCE_DEFAULTS, K.RESOURCE_OVERRIDE) and not untitled:
                return GreenNode(inner.kind, prefix + list(inner.children))
            if inner.kind != K.ERROR:
                which = "Virtual (@)" if k == K.AT else "Exported (@@)"
                tok = self.toks[self.i - 1]
                self.errors.append(SyntaxError_(at_offset, tok[2] + len(tok[1]), "NOT_VIRTUALIZEABLE", issue("NOT_VIRTUALIZEABLE").format(which=which)))
            return GreenNode(K.ERROR, prefix + [inner])
        if k == K.CLASS and kinds[self.i + 1] == K.LBRACE:
            node: list = []
            self.bump_as(node, K.CLASS)
            type_node = GreenNode(K.QNAME, [node.pop()])
            node.append(type_node)
            opened = False
            if kinds[self.i + 1] == K.RBRACE:
                # `class { }`: Puppet's grammar wants at least one titled body here
                self.bump(node)
                self.syntax_error("a resource title")
                opened = True
            self.resource_block(node, titled=True, opened=opened)
            return GreenNode(K.RESOURCE_EXPR, node)
        expr = self.expression(0)
        if kinds[self.i] == K.LBRACE:
            shape = expr.kind
            titled = self.titled_body(self.i)
            if titled or shape in (K.TYPE_REF, K.ACCESS_EXPR) or (shape == K.QNAME and qname_text(expr) not in STATEMENT_CALLS):
                if shape not in (K.QNAME, K.TYPE_REF, K.ACCESS_EXPR, K.RESERVED_WORD) and not titled:
                    return expr
                node = [expr]
                # where an untitled body is reported (a resource in the body has its own brace)
                brace = self.toks[self.i][2]
                if titled:
                    self.resource_block(node, titled=True)
                    return GreenNode(K.RESOURCE_EXPR, node)
                mark = len(self.errors)
                self.resource_block(node, titled=False)
                if shape == K.TYPE_REF:
                    return GreenNode(K.RESOURCE_DEFAULTS, node)
                if shape == K.ACCESS_EXPR:
                    return GreenNode(K.RESOURCE_OVERRIDE, node)
                if prefixed:
                    # '@file { x => 1 }' is a name followed by a hash, which cannot be virtual
                    self.untitled_prefixed = True
                    return GreenNode(K.RESOURCE_EXPR, node)
                # Without a '+>' this is a name and a hash to Puppet's parser, whose checker
                # names the mistake (validate: RESOURCE_WITHOUT_TITLE); with one, no hash: a
                # syntax error, unless the body has one already.
                if len(self.errors) == mark and any(
                        type(c) is not tuple and c.kind == K.ATTRIBUTE_OP and
                        any(type(t) is tuple and t[0] == K.PARROW for t in c.children) for c in node):
                    self.errors.append(SyntaxError_(brace, brace + 1, "UNTITLED_RESOURCE_BODY",
                                                    issue("UNTITLED_RESOURCE_BODY").format()))
                return GreenNode(K.RESOURCE_EXPR, node)
        return expr

    def resource_block(self, node: list, titled: bool, opened: bool = False) -> None:
        """'{' (title ':' attribute-ops (';' title ':' attribute-ops)*)? '}' or, untitled,
        '{' attribute-ops '}' (``opened``: the '{' is already in ``node``)."""
        if not opened:
            self.bump(node)   # '{'
        kinds = self.kinds
        if not titled:
            self.attribute_ops(node, undecided=True)
        else:
            while kinds[self.i] not in (K.RBRACE, K.EOF):
                body: list = []
                if kinds[self.i] in EXPR_START:
                    body.append(self.expression(0))
                else:
                    self.syntax_error("a resource title")
                    self.recover(body, frozenset({K.COLON, K.SEMIC, K.RBRACE, K.EOF}))
                if kinds[self.i] == K.COLON:
                    self.bump(body)
                    self.attribute_ops(body)
                else:
                    self.syntax_error("':' after the resource title")
                    self.recover(body, frozenset({K.SEMIC, K.RBRACE, K.EOF}))
                node.append(GreenNode(K.RESOURCE_BODY, body))
                if kinds[self.i] == K.SEMIC:
                    self.bump(node)
                    continue
                if kinds[self.i] != K.RBRACE:
                    self.syntax_error("';' or '}'")
                    self.recover(node, frozenset({K.SEMIC, K.RBRACE, K.EOF}))
                    if kinds[self.i] == K.SEMIC:
                        self.bump(node)
        self.close_brace(node)

    def close_brace(self, node: list) -> None:
        if self.kinds[self.i] == K.RBRACE:
            self.bump(node)
        else:
            self.syntax_error("'}'")
            self.recover(node, frozenset({K.RBRACE, K.EOF}))
            if self.kinds[self.i] == K.RBRACE:
                self.bump(node)

    def attribute_ops(self, node: list, undecided: bool = False) -> None:
        """attribute operations up to ';' or '}' (not consumed); trailing comma allowed.
        ``undecided``: the body after a name or type, where Puppet's grammar reads an expression
        first that is either the body's title (before a ':') or an attribute's name; when it is
        not a name, the syntax error is at the token after it (``Notify { true => 1 }``: at the
        '=>'), as Puppet reports it."""
        kinds = self.kinds
        if kinds[self.i] == K.COMMA:
            # 'title: ,' (no operations, then the optional trailing comma)
            self.bump(node)
        first = undecided
        while True:
            k = kinds[self.i]
            if k in (K.RBRACE, K.SEMIC, K.EOF):
                return
            op: list = []
            if k in _ATTRIBUTE_NAME_KINDS:
                self.bump_as(op, K.NAME)
                if kinds[self.i] in (K.FARROW, K.PARROW):
                    self.bump(op)
                    op.append(self.expression_or_missing())
                else:
                    self.syntax_error("'=>' or '+>'")
                    self.recover(op, frozenset({K.COMMA, K.SEMIC, K.RBRACE, K.EOF}))
            elif k == K.TIMES and kinds[self.i + 1] == K.FARROW:
                self.bump(op)
                self.bump(op)
                op.append(self.expression_or_missing())
            else:
                titleish = first and k in EXPR_START
                if titleish:
                    op.append(self.expression(0))
                    self.syntax_error("':' after the resource title")
                else:
                    self.syntax_error("an attribute name")
                first = False
                self.recover(op, frozenset({K.COMMA, K.SEMIC, K.RBRACE, K.EOF}))
                if op:
                    node.append(GreenNode(K.ERROR, op) if titleish or len(op) != 1 or type(op[0]) is tuple else op[0])
                if kinds[self.i] == K.COMMA:
                    self.bump(node)
                continue
            first = False
            node.append(GreenNode(K.ATTRIBUTE_OP, op))
            if kinds[self.i] == K.COMMA:
                self.bump(node)
            elif kinds[self.i] not in (K.RBRACE, K.SEMIC, K.EOF):
                self.syntax_error("',' or '}'")
                err: list = []
                self.recover(err, frozenset({K.COMMA, K.SEMIC, K.RBRACE, K.EOF} | _ATTRIBUTE_NAME_KINDS))
                if err:
                    node.append(GreenNode(K.ERROR, err))
                if kinds[self.i] == K.COMMA:
                    self.bump(node)

    def expression_or_missing(self) -> GreenNode:
        if self.kinds[self.i] in EXPR_START:
            return self.expression(0)
        return self.missing("an expression")

    def missing(self, what: str) -> GreenNode:
        self.syntax_error(what)
        return GreenNode(K.ERROR, [])

    # ---- expressions (precedence climbing) --------------------------------------------------
    def expression(self, min_bp: int) -> GreenNode:
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                return self.too_deep()
            return self._expression(min_bp)
        finally:
            self.depth -= 1

    def _expression(self, min_bp: int) -> GreenNode:
        kinds = self.kinds
        k = kinds[self.i]
        if k == K.MINUS or k == K.NOT or k == K.TIMES:
            node: list = []
            self.bump(node)
            if kinds[self.i] in EXPR_START:
                node.append(self.expression(_UNARY_BP))
            else:
                node.append(self.missing("an expression"))
            left = GreenNode(K.UNARY_EXPR, node)
        else:
            left = self.postfix(self.primary())
        while True:
            k = kinds[self.i]
            bp = _BINARY.get(k)
            if bp is not None:
                if bp <= min_bp:
                    return left
                if left.height >= MAX_CHAIN:
                    return self.chain_too_long(left)
                node = [left]
                self.bump(node)
                if kinds[self.i] in EXPR_START:
                    node.append(self.expression(bp))
                else:
                    node.append(self.missing("an expression"))
                left = GreenNode(K.BINARY_EXPR, node)
                continue
            if k == K.QMARK:
                if _SELECTOR_BP <= min_bp:
                    return left
                # selectors chain like operators, each nesting the previous one a level deeper
                if left.height >= MAX_CHAIN:
                    return self.chain_too_long(left)
                left = self.selector(left)
                continue
            return left

    def selector(self, left: GreenNode) -> GreenNode:
        node = [left]
        self.bump(node)   # '?'
        kinds = self.kinds
        if kinds[self.i] == K.SELBRACE:
            self.bump(node)
            while kinds[self.i] not in (K.RBRACE, K.EOF):
                node.append(self.selector_entry())
                self.entry_separator(node)
            self.close_brace(node)
        else:
            node.append(self.selector_entry())
        return GreenNode(K.SELECTOR_EXPR, node)

    def selector_entry(self) -> GreenNode:
        entry: list = [self.expression_or_missing()]
        if self.kinds[self.i] == K.FARROW:
            self.bump(entry)
            entry.append(self.expression_or_missing())
        else:
            self.syntax_error("'=>'")
        return GreenNode(K.SELECTOR_ENTRY, entry)

    def postfix(self, left: GreenNode) -> GreenNode:
        kinds = self.kinds
        while True:
            k = kinds[self.i]
            if k in _POSTFIX_START and left.height >= MAX_CHAIN:
                return self.chain_too_long(left)
            if k == K.LBRACK:
                left = self.access(left, "an index or type parameter")
            elif k == K.DOT:
                node = [left]
                self.bump(node)
                nk = kinds[self.i]
                if nk == K.NAME or nk == K.TYPE:
                    self.bump_as(node, K.NAME)
                elif nk in K.KEYWORD_KINDS:
                    # Puppet's grammar names a method with a name or 'type' only: `$a.if` is
                    # a syntax error at the keyword (read as the method's name all the same)
                    self.syntax_error("a function name after '.'")
                    self.bump_as(node, K.NAME)
                else:
                    self.syntax_error("a function name after '.'")
                if kinds[self.i] == K.LPAREN:
                    self.arg_list(node)
                if kinds[self.i] == K.PIPE:
                    node.append(self.lambda_())
                left = GreenNode(K.METHOD_CALL, node)
            elif k == K.LPAREN:
                node = [left]
                self.arg_list(node)
                if kinds[self.i] == K.PIPE:
                    node.append(self.lambda_())
                left = GreenNode(K.CALL_EXPR, node)
            elif k == K.LCOLLECT or k == K.LLCOLLECT:
                left = self.collector(left)
            else:
                return left

    def collector(self, left: GreenNode) -> GreenNode:
        node = [left]
        q: list = []
        kinds = self.kinds
        opener = kinds[self.i]
        closer = K.RCOLLECT if opener == K.LCOLLECT else K.RRCOLLECT
        self.bump(q)
        if kinds[self.i] != closer:
            if kinds[self.i] in EXPR_START:
                q.append(self.expression(0))
            if kinds[self.i] != closer:
                self.syntax_error("'|>'" if closer == K.RCOLLECT else "'|>>'")
                self.recover(q, frozenset({closer, K.RBRACE, K.EOF, K.SEMIC}))
        if kinds[self.i] == closer:
            self.bump(q)
        node.append(GreenNode(K.COLLECT_QUERY, q))
        if kinds[self.i] == K.LBRACE:
            self.bump(node)
            self.attribute_ops(node)
            self.close_brace(node)
        return GreenNode(K.COLLECT_EXPR, node)

    def expect_close(self, node: list, kind: str, what: str, errors_before: int = -1) -> None:
        """Consume the closer ``kind``.  When it is missing and the construct already reported
        an error (``errors_before`` is the error count when it began), stay quiet: the closer's
        absence is part of that one problem."""
        if self.kinds[self.i] == kind:
            self.bump(node)
            return
        if errors_before < 0 or len(self.errors) == errors_before:
            self.syntax_error(what)
        if self.starts_line(self.i) and self.strong_statement_start(self.i):
            return
        # skip to the closer unless a brace intervenes
        err: list = []
        kinds = self.kinds
        enclosing = self.enclosing
        while kinds[self.i] not in (kind, K.RBRACE, K.LBRACE, K.EOF, K.SEMIC) and self.i != self.interp_end \
                and kinds[self.i] not in enclosing:
            self.skip_group(err)
        if err:
            node.append(GreenNode(K.ERROR, err))
        if kinds[self.i] == kind:
            self.bump(node)

    def arg_list(self, node: list) -> None:
        """'(' arguments ')' with unbraced hash entries allowed."""
        args: list = []
        self.bump(args)   # '('
        mark = len(self.errors)
        self.collection_entries(args, K.RPAREN, bare_keywords=False)
        self.expect_close(args, K.RPAREN, "')'", mark)
        node.append(GreenNode(K.ARG_LIST, args))

    def collection_entries(self, node: list, close: str, bare_keywords: bool = True) -> None:
        """Comma-separated entries up to ``close`` (not consumed).  Adjacent ``k => v`` entries
        become one HASH node without braces (Puppet's unbraced hash).  A closer of a bracket
        open around them (``self.enclosing``) ends them too: the bracket is missing its own.
        ``bare_keywords``: may a keyword ('function', 'type') be an entry of its own, as a word
        (an array's, not a call's or an access's)."""
        outer = self.enclosing
        self.enclosing = outer + (close,)
        self._entries(node, close, outer, bare_keywords)
        self.enclosing = outer

    def _entries(self, node: list, close: str, outer: tuple, bare_keywords: bool) -> None:
        kinds = self.kinds
        pending_hash: list | None = None
        while True:
            k = kinds[self.i]
            if k == close or k == K.EOF or k == K.RBRACE or self.i == self.interp_end or k in outer:
                break
            # a keyword as a word: a hash's key, or an array's element (not a bare argument or
            # access key, where Puppet's grammar has none)
            if k in _COLLECTION_KEYWORDS and (kinds[self.i + 1] == K.FARROW or
                                              (bare_keywords and kinds[self.i + 1] in (K.COMMA, close))):
                item = self.keyword_literal()
            elif k in EXPR_START:
                item = self.assignment()
            else:
                self.syntax_error()
                err: list = []
                self.recover(err, frozenset({K.COMMA, close, K.RBRACE, K.EOF, K.SEMIC, *outer}))
                _flush_hash(node, pending_hash)
                pending_hash = None
                if err:
                    node.append(GreenNode(K.ERROR, err))
                if kinds[self.i] == K.COMMA:
                    self.bump(node)
                    continue
                if kinds[self.i] == K.SEMIC:
                    return
                continue
            if kinds[self.i] == K.FARROW:
                entry = [item]
                self.bump(entry)
                if kinds[self.i] in _COLLECTION_KEYWORDS and kinds[self.i + 1] in (K.COMMA, close):
                    entry.append(self.keyword_literal())
                else:
                    entry.append(self.assignment_operand())
                if pending_hash is None:
                    pending_hash = []
                pending_hash.append(GreenNode(K.HASH_ENTRY, entry))
                if kinds[self.i] == K.COMMA:
                    self.bump(pending_hash)
                    continue
            else:
                _flush_hash(node, pending_hash)
                pending_hash = None
                node.append(item)
                if kinds[self.i] == K.COMMA:
                    self.bump(node)
                    continue
            k = kinds[self.i]
            if k != close:
                self.syntax_error(f"',' or {_DESCRIBE.get(close, close)}")
                if self.starts_line(self.i):
                    if self.strong_statement_start(self.i):
                        # The closer is missing: leave the new line's statement to the block.
                        break
                    if k in EXPR_START:
                        continue   # a missing comma between entries on separate lines
                err = []
                self.recover(err, frozenset({K.COMMA, close, K.RBRACE, K.EOF, K.SEMIC, K.LBRACE, *outer}))
                _flush_hash(node, pending_hash)
                pending_hash = None
                if err:
                    node.append(GreenNode(K.ERROR, err))
                if kinds[self.i] == K.COMMA:
                    self.bump(node)
                    continue
                break
        _flush_hash(node, pending_hash)

    def keyword_literal(self) -> GreenNode:
        """A keyword used as a value in a collection ('[type]', '{function => 1}'): a word."""
        lit: list = []
        self.bump(lit)
        return GreenNode(K.QNAME, lit)

    # ---- primaries --------------------------------------------------------------------------
    def primary(self) -> GreenNode:
        kinds = self.kinds
        k = kinds[self.i]
        node: list = []
        if k == K.VARIABLE:
            self.bump(node)
            return GreenNode(K.VARIABLE_EXPR, node)
        if k in _LITERAL_KINDS:
            self.bump(node)
            return GreenNode(K.LITERAL, node)
        if k == K.NAME or k == K.WORD:
            self.bump(node)
            return GreenNode(K.QNAME, node)
        if k == K.CLASSREF:
            self.bump(node)
            return GreenNode(K.TYPE_REF, node)
        if k == K.DQ_OPEN:
            return self.dq_string()
        if k == K.LISTSTART or k == K.LBRACK:
            self.bump(node)
            mark = len(self.errors)
            self.collection_entries(node, K.RBRACK)
            self.expect_close(node, K.RBRACK, "']'", mark)
            return GreenNode(K.ARRAY, node)
        if k == K.LBRACE:
            return self.hash_literal()
        if k == K.LPAREN or k == K.WSLPAREN:
            self.bump(node)
            outer = self.enclosing
            self.enclosing = outer + (K.RPAREN,)
            if kinds[self.i] in EXPR_START:
                node.append(self.assignment())
            else:
                node.append(self.missing("an expression"))
            self.enclosing = outer
            self.expect_close(node, K.RPAREN, "')'")
            return GreenNode(K.PAREN_EXPR, node)
        if k == K.HEREDOC:
            self.bump(node)
            return GreenNode(K.HEREDOC_EXPR, node)
        if k == K.IF:
            return self.if_expr()
        if k == K.UNLESS:
            return self.unless_expr()
        if k == K.CASE:
            return self.case_expr()
        if k == K.CLASS:
            return self.class_def()
        if k == K.DEFINE:
            return self.named_def(K.DEFINE_DEF)
        if k == K.PLAN:
            return self.named_def(K.PLAN_DEF)
        if k == K.NODE:
            return self.node_def()
        # 'function' and 'type' start a definition, so a name must follow them (as a value, in
        # Puppet's grammar, only in an array or a hash, and as an attribute's name): the error
        # is at the token after, as Puppet reports it.
        if k == K.FUNCTION:
            if kinds[self.i + 1] in (K.NAME, K.WORD, K.CLASSREF):
                return self.named_def(K.FUNCTION_DEF)
            self.bump(node)
            self.syntax_error("a function name")
            return GreenNode(K.QNAME, node)
        if k == K.TYPE:
            nk = kinds[self.i + 1]
            if nk == K.CLASSREF:
                return self.type_alias()
            if nk == K.LPAREN:
                # 'type(x)': the function named type
                self.bump_as(node, K.NAME)
                return GreenNode(K.QNAME, node)
            self.bump(node)
            self.syntax_error("a type name")
            return GreenNode(K.RESERVED_WORD, node)
        if k == K.APPLY:
            return self.apply_expr()
        if k in (K.PRIVATE, K.ATTR):
            self.bump(node)
            return GreenNode(K.RESERVED_WORD, node)
        if k == K.RENDER_EXPR:
            self.bump(node)
            node.append(self.expression_or_missing() if kinds[self.i] != K.LBRACE else self.block())
            if kinds[self.i] in (K.EPP_END, K.EPP_END_TRIM):
                self.bump(node)
            else:
                self.syntax_error("'%>'")
            return GreenNode(K.EPP_RENDER_EXPR, node)
        if k == K.EPP_TEXT:
            self.bump(node)
            return GreenNode(K.EPP_RENDER_STRING, node)
        if k == K.ERROR_TOKEN:
            self.bump(node)
            return GreenNode(K.ERROR, node)
        if k in (K.AT, K.ATAT):
            # '@' in an operand position: parse the resource for recovery
            return self.resource()
        self.syntax_error("an expression")
        return GreenNode(K.ERROR, node)

    def dq_string(self) -> GreenNode:
        node: list = []
        self.bump(node)   # '"'
        self.string_parts(node, K.DQ_CLOSE)
        if self.kinds[self.i] == K.DQ_CLOSE:
            self.bump(node)
        return GreenNode(K.DQ_STRING, node)

    def string_parts(self, node: list, close: str) -> None:
        kinds = self.kinds
        while True:
            k = kinds[self.i]
            if k == K.STRING_TEXT:
                self.bump(node)
            elif k == K.STRING_VAR:
                part: list = []
                self.bump(part)
                node.append(GreenNode(K.INTERPOLATION, part))
            elif k == K.INTERP_OPEN:
                part = []
                outer_end, outer = self.interp_end, self.enclosing
                if self.interp_ends is None:
                    self.interp_ends = _interpolation_ends(kinds)
                self.interp_end, self.enclosing = self.interp_ends.get(self.i, -1), ()
                self.bump(part)
                if kinds[self.i] == K.INTERP_CLOSE:
                    self.syntax_error("an expression")
                else:
                    part.append(self.assignment())
                    if kinds[self.i] != K.INTERP_CLOSE:
                        self.syntax_error("'}'")
                        self.recover(part, frozenset({K.INTERP_CLOSE, close, K.EOF}))
                self.interp_end, self.enclosing = outer_end, outer
                if kinds[self.i] == K.INTERP_CLOSE:
                    self.bump(part)
                node.append(GreenNode(K.INTERPOLATION, part))
            else:
                return

    def hash_literal(self) -> GreenNode:
        node: list = []
        self.bump(node)   # '{'
        kinds = self.kinds
        outer = self.enclosing
        self.enclosing = ()
        while kinds[self.i] not in (K.RBRACE, K.EOF):
            entry: list = []
            if kinds[self.i] in _COLLECTION_KEYWORDS and kinds[self.i + 1] == K.FARROW:
                entry.append(self.keyword_literal())
            elif kinds[self.i] in EXPR_START:
                entry.append(self.assignment())
            else:
                self.syntax_error("a hash key")
                self.recover(node, frozenset({K.COMMA, K.RBRACE, K.EOF}))
                if kinds[self.i] == K.COMMA:
                    self.bump(node)
                continue
            if kinds[self.i] == K.FARROW:
                self.bump(entry)
                if kinds[self.i] in _COLLECTION_KEYWORDS and kinds[self.i + 1] in (K.COMMA, K.RBRACE):
                    entry.append(self.keyword_literal())
                else:
                    entry.append(self.assignment_operand())
            else:
                self.syntax_error("'=>'")
            node.append(GreenNode(K.HASH_ENTRY, entry))
            self.entry_separator(node)
        self.enclosing = outer
        self.close_brace(node)
        return GreenNode(K.HASH, node)

    def entry_separator(self, node: list) -> None:
        """After an entry between braces (hash, selector): a ',' or the closing '}'."""
        kinds = self.kinds
        if kinds[self.i] == K.COMMA:
            self.bump(node)
        elif kinds[self.i] != K.RBRACE:
            self.syntax_error("',' or '}'")
            self.recover(node, _ENTRY_RECOVERY)
            if kinds[self.i] == K.COMMA:
                self.bump(node)

    def block(self, quiet: bool = False) -> GreenNode:
        """'{' statements '}'"""
        node: list = []
        if self.kinds[self.i] != K.LBRACE:
            if not quiet:
                self.syntax_error("'{'")
            return GreenNode(K.BLOCK, node)
        self.bump(node)
        outer = self.enclosing
        self.enclosing = ()
        self.statements(node)
        self.enclosing = outer
        self.close_brace(node)
        return GreenNode(K.BLOCK, node)

    def if_expr(self) -> GreenNode:
        return self.conditional(K.IF_EXPR)

    def unless_expr(self) -> GreenNode:
        return self.conditional(K.UNLESS_EXPR)

    def conditional(self, kind: str) -> GreenNode:
        """if/elsif/unless: keyword, condition, block, then an elsif or else clause (Puppet
        has no 'elsif' after 'unless': it is parsed, and reported)."""
        node: list = []
        self.bump(node)   # 'if', 'elsif' or 'unless'
        mark = len(self.errors)
        node.append(self.condition())
        # a condition that already failed (often by taking the block for a hash) explains a
        # missing block: do not report it again
        node.append(self.block(quiet=len(self.errors) > mark))
        kinds = self.kinds
        if kinds[self.i] == K.ELSIF:
            if kind == K.UNLESS_EXPR:
                self.error("UNLESS_ELSIF")
            node.append(GreenNode(K.ELSIF_CLAUSE, [self.if_expr()]))
        elif kinds[self.i] == K.ELSE:
            els: list = []
            self.bump(els)
            els.append(self.block())
            node.append(GreenNode(K.ELSE_CLAUSE, els))
        return GreenNode(kind, node)

    def condition(self) -> GreenNode:
        k = self.kinds[self.i]
        if k in EXPR_START and (k != K.LBRACE or self.hash_condition()):
            return self.expression(0)
        return self.missing("a condition")

    def hash_condition(self) -> bool:
        """'if {a => 1} {…}': a '{' right after 'if'/'unless'/'case' is a hash when its
        matching '}' is followed by another '{' (the block); otherwise it is the block and the
        condition is missing."""
        kinds = self.kinds
        depth = 0
        j = self.i
        n = len(kinds)
        while j < n:
            k = kinds[j]
            if k == K.LBRACE or k == K.SELBRACE:
                depth += 1
            elif k == K.RBRACE:
                depth -= 1
                if depth == 0:
                    self.scans.append((self.i, min(j + 1, n - 1)))
                    return j + 1 < n and kinds[j + 1] == K.LBRACE
            elif k == K.EOF:
                break
            j += 1
        self.scans.append((self.i, n - 1))
        return False

    def case_expr(self) -> GreenNode:
        node: list = []
        self.bump(node)
        node.append(self.condition())
        kinds = self.kinds
        if kinds[self.i] != K.LBRACE:
            self.syntax_error("'{'")
            return GreenNode(K.CASE_EXPR, node)
        self.bump(node)
        if kinds[self.i] == K.RBRACE:
            self.syntax_error("a case option")    # Puppet's grammar wants at least one
        while kinds[self.i] not in (K.RBRACE, K.EOF):
            opt: list = []
            if kinds[self.i] not in EXPR_START:
                self.syntax_error("a case option")
                self.recover(node, frozenset({K.RBRACE, K.EOF, K.COLON}) | EXPR_START)
                if kinds[self.i] == K.COLON:
                    self.bump(node)
                continue
            while True:
                opt.append(self.expression_or_missing())
                if kinds[self.i] == K.COMMA:
                    self.bump(opt)
                    if kinds[self.i] == K.COLON:
                        break
                    continue
                break
            if kinds[self.i] == K.COLON:
                self.bump(opt)
                opt.append(self.block())
            else:
                self.syntax_error("':'")
                self.recover(opt, frozenset({K.RBRACE, K.EOF, K.LBRACE}))
                if kinds[self.i] == K.LBRACE:
                    opt.append(self.block())
            node.append(GreenNode(K.CASE_OPTION, opt))
        self.close_brace(node)
        return GreenNode(K.CASE_EXPR, node)

    # ---- definitions ------------------------------------------------------------------------
    def definition_name(self, node: list) -> None:
        kinds = self.kinds
        k = kinds[self.i]
        if k in (K.NAME, K.WORD, K.CLASSREF):
            self.bump(node)
        elif k == K.CLASS:
            # the one keyword Puppet's grammar takes as a name, to say so (classname)
            self.error("KEYWORD_AS_NAME", word="class")
            self.bump(node)
        elif k == K.DEFAULT or k in K.KEYWORD_KINDS:
            self.syntax_error("a name")
            self.bump(node)     # (read as the name all the same)
        elif k == K.STRING or k == K.DQ_OPEN:
            self.error("QUOTED_NAME")
            node.append(GreenNode(K.ERROR, [self.primary()]))
        else:
            self.syntax_error("a name")

    def class_def(self) -> GreenNode:
        node: list = []
        self.bump(node)   # 'class'
        kinds = self.kinds
        self.definition_name(node)
        if kinds[self.i] in (K.LPAREN, K.WSLPAREN):
            self.param_list(node, kinds[self.i], K.RPAREN)
        if kinds[self.i] == K.INHERITS:
            parent: list = []
            self.bump(parent)
            k = kinds[self.i]
            if k in (K.NAME, K.WORD, K.CLASSREF, K.DEFAULT):
                self.bump(parent)
            elif k == K.CLASS:
                self.error("KEYWORD_AS_NAME", word="class")
                self.bump(parent)
            elif k in K.KEYWORD_KINDS:
                self.syntax_error("a class name")
                self.bump(parent)
            else:
                self.syntax_error("a class name")
            node.append(GreenNode(K.PARENT, parent))
        node.append(self.block())
        return GreenNode(K.CLASS_DEF, node)

    def named_def(self, kind: str) -> GreenNode:
        node: list = []
        self.bump(node)
        self.definition_name(node)
        kinds = self.kinds
        if kinds[self.i] in (K.LPAREN, K.WSLPAREN):
            self.param_list(node, kinds[self.i], K.RPAREN)
        if kind == K.FUNCTION_DEF and kinds[self.i] == K.RSHIFT:
            node.append(self.return_type())
        node.append(self.block())
        return GreenNode(kind, node)

    def return_type(self) -> GreenNode:
        rt: list = []
        self.bump(rt)   # '>>'
        if self.kinds[self.i] == K.CLASSREF:
            rt.append(self.postfix_access_only(self.primary()))
        else:
            rt.append(self.missing("a return type"))
        return GreenNode(K.RETURN_TYPE, rt)

    def postfix_access_only(self, left: GreenNode, strict: bool = True) -> GreenNode:
        """A type with its parameters: only '[…]' may follow (parameter and return types, the
        names of type aliases).  ``strict``: Puppet's grammar takes one '[…]' there, without a
        trailing comma: ``Hash[String][1] $x`` is a syntax error at the second '[',
        ``Hash[String,] $x`` at the ']' (either is parsed all the same); a type alias's value
        may end with a comma (``type A = Array[Integer,]``)."""
        first = True
        while self.kinds[self.i] == K.LBRACK:
            if left.height >= MAX_CHAIN:
                # as in postfix: '[0][0]…' thousands long would make a tree that deep
                # (fuzz seed 2034, case 8453: the walks of validation ran out of stack)
                return self.chain_too_long(left)
            if strict and not first:
                self.syntax_error()
            first = False
            left = self.access(left, "a type parameter", trailing_comma=not strict)
        return left

    def access(self, left: GreenNode, what: str, trailing_comma: bool = True) -> GreenNode:
        """``left[keys]`` (the '[' is the current token); keys may be unbraced hash entries,
        and a comma may end them unless ``trailing_comma`` is false."""
        node = [left]
        self.bump(node)
        mark = len(self.errors)
        if self.kinds[self.i] == K.RBRACK:
            self.syntax_error(what)
        self.collection_entries(node, K.RBRACK, bare_keywords=False)
        if not trailing_comma and self.kinds[self.i] == K.RBRACK and self.kinds[self.i - 1] == K.COMMA:
            self.syntax_error(what)
        self.expect_close(node, K.RBRACK, "']'", mark)
        return GreenNode(K.ACCESS_EXPR, node)

    def param_list(self, node: list, open_kind: str, close_kind: str) -> None:
        pl: list = []
        self.bump(pl)   # '(' or '|'
        kinds = self.kinds
        outer = self.enclosing
        self.enclosing = (close_kind,)
        while kinds[self.i] != close_kind and kinds[self.i] not in (K.EOF, K.LBRACE, K.RBRACE) and \
                self.i != self.interp_end:
            before = self.i
            pl.append(self.param())
            if kinds[self.i] == K.COMMA:
                self.bump(pl)
            elif kinds[self.i] != close_kind:
                self.syntax_error("',' or '|'" if close_kind == K.PIPE else "',' or ')'")
                self.recover(pl, frozenset({K.COMMA, close_kind, K.LBRACE, K.RBRACE, K.EOF}))
                if kinds[self.i] == K.COMMA:
                    self.bump(pl)
            if self.i == before:
                break
        self.enclosing = outer
        if kinds[self.i] == close_kind:
            self.bump(pl)
        else:
            self.syntax_error("'|'" if close_kind == K.PIPE else "')'")
        node.append(GreenNode(K.PARAM_LIST, pl))

    def param(self) -> GreenNode:
        p: list = []
        kinds = self.kinds
        if kinds[self.i] == K.CLASSREF:
            p.append(self.postfix_access_only(self.primary()))
        if kinds[self.i] == K.TIMES:
            self.bump(p)
        if kinds[self.i] == K.VARIABLE:
            self.bump(p)
            if kinds[self.i] == K.EQUALS:
                self.bump(p)
                p.append(self.expression_or_missing())
        else:
            self.syntax_error("a parameter name ($name)")
            self.recover(p, frozenset({K.COMMA, K.RPAREN, K.PIPE, K.LBRACE, K.RBRACE, K.EOF}))
        return GreenNode(K.PARAM, p)

    def lambda_(self) -> GreenNode:
        node: list = []
        self.param_list(node, K.PIPE, K.PIPE)
        if self.kinds[self.i] == K.RSHIFT:
            node.append(self.return_type())
        node.append(self.block())
        return GreenNode(K.LAMBDA, node)

    def node_def(self) -> GreenNode:
        node: list = []
        self.bump(node)   # 'node'
        kinds = self.kinds
        matches: list = []
        while True:
            matches.append(self.host_name())
            if kinds[self.i] == K.COMMA:
                self.bump(matches)
                if kinds[self.i] in (K.LBRACE, K.INHERITS):
                    break
                continue
            break
        node.append(GreenNode(K.HOST_MATCHES, matches))
        if kinds[self.i] == K.INHERITS:
            parent: list = []
            self.bump(parent)
            parent.append(self.host_name())
            node.append(GreenNode(K.PARENT, parent))
        node.append(self.block())
        return GreenNode(K.NODE_DEF, node)

    def host_name(self) -> GreenNode:
        kinds = self.kinds
        hn: list = []
        k = kinds[self.i]
        if k in (K.STRING, K.REGEX, K.DEFAULT):
            self.bump(hn)
        elif k == K.DQ_OPEN:
            hn.append(self.dq_string())
        elif k in (K.NAME, K.WORD, K.NUMBER) or k in K.KEYWORD_KINDS:
            self.bump(hn)
            while kinds[self.i] == K.DOT and (kinds[self.i + 1] in (K.NAME, K.WORD, K.NUMBER) or kinds[self.i + 1] in K.KEYWORD_KINDS):
                self.bump(hn)
                self.bump(hn)
        else:
            self.syntax_error("a host name")
        return GreenNode(K.HOST_NAME, hn)

    def type_alias(self) -> GreenNode:
        node: list = []
        self.bump(node)   # 'type'
        kinds = self.kinds
        name = self.postfix_access_only(self.primary())
        node.append(name)
        if kinds[self.i] == K.EQUALS:
            self.bump(node)
            # The right-hand side is a type (possibly parameterized) or, for an Object type,
            # a hash; anything else is a syntax error in Puppet.
            if kinds[self.i] == K.CLASSREF:
                target = self.postfix_access_only(self.primary(), strict=False)
                node.append(target)
                if kinds[self.i] == K.LBRACE and target.kind != K.ACCESS_EXPR:
                    # `type A = Parent { attributes => ... }` (even with the hash on the next
                    # line) is Puppet's short form of an Object type with that parent.
                    node.append(self.hash_literal())
            elif kinds[self.i] == K.LBRACE:
                node.append(self.hash_literal())
            else:
                node.append(self.missing("a type"))
            return GreenNode(K.TYPE_ALIAS, node)
        if kinds[self.i] == K.INHERITS:
            self.bump(node)
            if kinds[self.i] == K.CLASSREF:
                node.append(self.primary())
            else:
                node.append(self.missing("a type name"))
        if kinds[self.i] == K.LBRACE:
            node.append(self.block())
            return GreenNode(K.TYPE_DEFINITION, node)
        self.syntax_error("'='")
        return GreenNode(K.TYPE_ALIAS, node)

    def apply_expr(self) -> GreenNode:
        node: list = []
        self.bump(node)
        kinds = self.kinds
        if kinds[self.i] in (K.LPAREN, K.WSLPAREN):
            self.arg_list(node)
        else:
            self.syntax_error("'('")
        node.append(self.block())
        return GreenNode(K.APPLY_EXPR, node)


def _flush_hash(node: list, pending: list | None) -> None:
    """Close a run of unbraced 'k => v' entries into one HASH node (the caller then clears
    its pending run)."""
    if pending is not None:
        node.append(GreenNode(K.HASH, pending))


def qname_text(node: GreenNode) -> str | None:
    if node.kind == K.QNAME:
        for c in node.children:
            if type(c) is tuple and c[0] not in K.TRIVIA:
                return c[1]
    return None


# ---- entry points for reparsing part of a file (syntax/incremental.py) -------------------------

# Tokens that, following a complete statement, make the parser continue that statement.
CONTINUATION = frozenset(_BINARY) | _RELATIONSHIP | _ASSIGN | frozenset({
    K.QMARK, K.LBRACK, K.DOT, K.LPAREN, K.PIPE, K.LCOLLECT, K.LLCOLLECT, K.COMMA, K.LBRACE,
    K.SELBRACE, K.FARROW, K.PARROW,
})
# Last tokens that close what came before them, so that a statement after them is parsed on its
# own (after '$a =' or 'foo.' it would be glued on instead).
COMPLETE_BEFORE = frozenset({
    K.SEMIC, K.LBRACE, K.RBRACE, K.VARIABLE, K.NAME, K.WORD, K.CLASSREF, K.NUMBER, K.STRING,
    K.REGEX, K.BOOLEAN, K.UNDEF, K.DEFAULT, K.DQ_CLOSE, K.HEREDOC, K.RPAREN, K.RBRACK,
    K.RCOLLECT, K.RRCOLLECT, K.ERROR_TOKEN, K.EPP_END, K.EPP_END_TRIM, K.EPP_TEXT,
})


@dataclass(slots=True)
class Piece:
    """A range of a file parsed on its own by ``parse_statements_at`` or ``parse_block_at``,
    with every offset that of the whole text."""
    children: list     # green children it adds to its block or file (statements, ';', trivia)
    errors: list       # lexical and syntax errors inside it, in source order
    multiline: list    # multi-line strings, as in ParseResult.multiline_strings
    first_kind: str    # kind of its first significant token (EOF when it has none)
    next_token: tuple  # (kind, text) of the token after it: the closer, or the real next one
    runaways: tuple = ()   # as in ParseResult.runaways
    scans: tuple = ()      # as in ParseResult.scans
    pairing: tuple = ()    # as in ParseResult.pairing


def _titled_scan(kinds: list, j: int) -> tuple[bool, int]:
    """Parser.titled_body's scan from the brace at token j: (is it titled, the index of the
    last token it read)."""
    depth = 0
    floors: list[int] = []
    j += 1
    n = len(kinds)
    while j < n:
        k = kinds[j]
        depth = _bracket_step(k, depth, floors)
        if depth < 0 or k == K.EOF:
            return False, j
        if depth == 0 and not floors:
            if k == K.COLON:
                return True, j
            if k in (K.FARROW, K.PARROW, K.SEMIC, K.QMARK):
                return False, j
        j += 1
    return False, n - 1


def _bracket_step(kind: str, depth: int, floors: list[int]) -> int:
    """The bracket depth of a lookahead after a token of ``kind``: -1 for a closer at depth 0
    (the end of what the lookahead reads).  Interpolations are stepped over the parser's way:
    ``floors`` holds the depth at each '${' the lookahead is in, a bracket left open inside one
    ends with its '}' (Parser.interp_end), and a stray closer inside one is its own error, not
    the end; the caller tells what is inside one by ``floors`` (a ':' there is not a title's)."""
    if kind in _OPENERS:
        return depth + 1
    if kind in _CLOSERS:
        return depth if floors and depth == floors[-1] else depth - 1
    if kind == K.INTERP_OPEN:
        floors.append(depth)
    elif kind == K.INTERP_CLOSE and floors:
        return floors.pop()
    return depth


def last_token_kind(green: GreenNode) -> str | None:
    """Kind of the last significant token of a green node (None when it has none)."""
    for c in reversed(green.children):
        if type(c) is tuple:
            if c[0] not in K.TRIVIA:
                return c[0]
        else:
            k = last_token_kind(c)
            if k is not None:
                return k
    return None


def takes_unparenthesized_arguments(statement: GreenNode) -> bool:
    """Is this statement a bare name of a function that takes arguments without parentheses
    ('notice'), so that an expression after it becomes its argument?"""
    return qname_text(statement) in STATEMENT_CALLS


def depends_on_previous(statement: GreenNode) -> bool:
    """Can the parse of this statement node depend on the statement before it?  (The message
    of 'foo 1, 2' names the function before it.)"""
    return statement.kind == K.ERROR


def _scan_offsets(p: Parser, limit: int) -> tuple | None:
    """The parser's lookaheads (Parser.scans) as offsets, sorted, each once (recovery may ask
    the same one twice); None when one read past token ``limit``: tokens a range parsed on its
    own does not have as the whole text has them."""
    toks = p.toks
    out = set()
    for brace, stop in p.scans:
        if stop > limit:
            return None
        out.add((toks[brace][2], toks[stop][2]))
    return tuple(sorted(out))


def _lex_piece(text: str, start: int, end: int, prev_kind: str | None, tasks: bool,
               balanced: bool = True, forced: frozenset = frozenset()) -> LexResult | None:
    """Lex text[start:end] as it lexes inside the whole text; None when that cannot be told
    from the range alone (a token may run into a neighbour, a quote or comment may run past
    the range, a heredoc takes lines beyond it) or when its braces do not balance (asked
    only when ``balanced``)."""
    if 0 < start < len(text) and not text[start].isspace():
        return None
    lexed = lex_range(text, start, end, prev_kind, tasks, forced)
    if lexed is None or lexed.heredocs or any(e.code not in RANGE_LEX_ERRORS for e in lexed.errors):
        return None
    toks = lexed.tokens
    if end < len(text) and not text[end].isspace():
        # the last token must end at ``end`` in the whole text too ('$a,' but not '-' + '>')
        if len(toks) < 2 or toks[-1][3]:
            return None
        last = toks[-2]
        again = next_tokens(text, last[2], toks[-3][0] if len(toks) > 2 else prev_kind, 2, tasks)
        if again is None or again[0][:2] != last[:2] or again[1][2] != end:
            return None
    if not balanced:
        return lexed
    depth = 0
    for t in toks:
        k = t[0]
        if k == K.LBRACE or k == K.SELBRACE:
            depth += 1
        elif k == K.RBRACE:
            depth -= 1
            if depth < 0:
                return None
    return lexed if depth == 0 else None


def parse_statements_at(text: str, start: int, end: int, prev_kind: str | None,
                        prev_statement: GreenNode | None = None, closer: str | None = None,
                        tasks: bool = False, depth: int = 0,
                        pair: Callable[[int, int], bool | None] | None = None, unbalanced: list | None = None,
                        forced: frozenset = frozenset(), always_pair: bool = False) -> Piece | None:
    """Parse ``text[start:end]``, a run of whole statements of a block or of the file (with
    their leading trivia), exactly as a full parse of ``text`` parses them there, in a file
    whose braces balance.  The context is given: ``prev_kind``, the kind of the token before
    ``start`` (None at the start of the file); ``prev_statement``, the statement node right
    before the range when nothing separates them; and what follows: ``closer`` ('}' or EOF)
    when the range runs to the end of its block or file (trailing trivia included), else the
    tokens that really follow ``end`` (then the range ends with a token).

    None when the range cannot be parsed on its own: it does not lex on its own or its braces
    do not balance, its first statement would continue the one before, the parse does not
    stop exactly at ``end``, or something is still expected there.

    ``depth``: no less than the nesting depth of the full parse at ``start`` (the constructs
    the range is inside); the range is refused when, from there, it reaches MAX_NESTING, since
    the full parse may then report that earlier.  The same for the two entry points below.

    ``pair``: the range is a run of statements of the file, whose braces balanced before an edit
    of the range; its braces may no longer balance (an edit typed or deleted one, or took one
    into a string), and ``pair(net, low)`` (what the range's braces add to the depth counted
    without pairing, and the least depth they reach from its start) says whether every
    statement of the file outside the range is paired as it was (None: the file is not paired
    at all any more, and the range is parsed as it is).  Then they are paired as a full parse of ``text``
    pairs them, which the range alone tells when no '{' of it is still open at its end (or it
    runs to the end of the file), since the pairing leaves every statement whose braces balance
    on its own as written (``_paired``).  None otherwise.  ``unbalanced``: told of each range
    whose braces do not balance.  ``forced``: quotes taken as never closed, as in the parse of
    ``text`` that the runaway-string recovery tries (``_parse(..., unclosed)``); the same for
    the two entry points below.  ``always_pair``: the braces of the file do not balance, so the
    full parse pairs the range whatever its own braces; then the token after the range must
    start a line and a statement (the pairing after it must not read the range's indentation)."""
    if closer not in (None, K.EOF):
        pair = None
    lexed = _lex_piece(text, start, end, prev_kind, tasks, balanced=False, forced=forced)
    if lexed is None:
        return None
    toks = lexed.tokens
    eof = toks.pop()
    paired_errors: list = []
    pairing: tuple = ()
    kinds = [t[0] for t in toks]
    balanced = _braces_balance(kinds)
    if not balanced and unbalanced is not None:
        unbalanced.append((start, end))
    verdict: bool | None = False
    if always_pair or not balanced:
        if pair is None:
            return None
        depths = list(accumulate(map(_BRACE_DEPTH.get, kinds, repeat(0)))) or [0]
        verdict = pair(depths[-1], min(0, min(depths)))
        if verdict is False or (verdict is None and not balanced):
            return None
    if verdict:
        if closer is None and eof[3]:
            return None
        info = _LineInfo(toks if closer is None else toks + [eof], prev_kind, text.count("\n", 0, start) + 1,
                         start == 0)
        if not info.fresh:
            return None   # its first line goes on from the line before, whose indentation counts
        if closer is None:
            toks[:], still_open, pairing = _paired(toks, paired_errors, info)
            if still_open:
                return None   # the full pairing goes on past the range, into what follows
        else:
            toks.append(eof)
            toks[:], _, pairing = _paired(toks, paired_errors, info)
            eof = toks.pop()
    if closer is None:
        if eof[3]:
            return None   # trailing trivia belongs to the token after the range
        following = next_tokens(text, end, toks[-1][0] if toks else prev_kind, 2, tasks)
        if following is None:
            return None
        if verdict and always_pair and not _starts_statement_line(toks[-1][0] if toks else prev_kind, following[0]):
            return None
        stop = len(toks)
        toks.extend(following)
        if toks[-1][0] != K.EOF:
            toks.append((K.EOF, "", toks[-1][2] + len(toks[-1][1]), ()))
    else:
        # the closer itself ends the statements, as in a full parse
        stop = -1
        toks.append((closer, "", eof[2], eof[3]))
        toks.append((K.EOF, "", eof[2], ()))
    after_semicolon = prev_kind == K.SEMIC
    after_statement = prev_kind is not None and prev_kind != K.LBRACE and not after_semicolon
    if after_statement and prev_kind not in COMPLETE_BEFORE:
        return None   # the statement before is still open ('foo.' or '$a ='): it would glue on
    first_kind = toks[0][0] if toks and toks[0][2] < end else K.EOF
    if after_statement and (first_kind in CONTINUATION or (first_kind not in EXPR_START and first_kind != K.EOF)):
        return None   # it would glue onto the statement before, or starts with junk
    if prev_statement is not None and (prev_statement.kind == K.ERROR or (
            takes_unparenthesized_arguments(prev_statement) and first_kind in EXPR_START)):
        # recovery before it may go on into it; 'notice' before it takes it as an argument
        return None
    p = Parser(lexed, pair_braces=False)
    p.errors.extend(paired_errors)   # after the lexer's, as Parser() adds them in a full parse
    p.depth = depth
    p.stop = stop
    ch: list = [prev_statement] if prev_statement is not None else []
    p.statements(ch, after_statement=after_statement, after_semicolon=after_semicolon)
    if prev_statement is not None:
        del ch[0]
    if closer is None:
        if p.i != stop:
            return None   # the parse ended early, or went on into what follows
    else:
        if p.kinds[p.i] != closer or p.i != len(toks) - 2:
            return None
        p.bump(ch)
        ch.pop()   # the stand-in closer (its trivia stays)
    if p.reported_depth or any(e.offset >= eof[2] and e.code != "MISSING_RBRACE" for e in p.errors):
        return None   # the range ended while something was still expected
    # A lookahead may read the first real token after the range, or the stand-in closer of a
    # block (the real one is there), or the end of the file; past those, not.
    scans = _scan_offsets(p, stop if closer is None else len(toks) - (2 if closer == K.RBRACE else 1))
    if scans is None:
        return None
    nxt = toks[stop] if closer is None else toks[-2]
    return Piece(ch, sorted(p.errors, key=lambda e: (e.offset, e.end)), p.multiline, first_kind, (nxt[0], nxt[1]),
                 tuple(lexed.runaways), scans, pairing)


def _starts_statement_line(prev_kind: str | None, tok: tuple) -> bool:
    """Does ``tok``, after a token of kind ``prev_kind``, start a line and a statement as
    _LineInfo reads them (so that the indentation read after it owes nothing to before it)?"""
    first = False
    for tv in tok[3]:
        if tv[0] == K.NEWLINE or tv[0] == K.HEREDOC_BODY:
            first = True
        elif tv[0] != K.WHITESPACE:
            first = False
    return first and (prev_kind is None or prev_kind in _STATEMENT_BOUNDARY or
                      (prev_kind in _OPERAND_END and tok[0] not in _CONTINUATION_START))


def parse_block_at(text: str, start: int, end: int, prev_kind: str | None, tasks: bool = False,
                   depth: int = 0, forced: frozenset = frozenset()) -> Piece | None:
    """Parse ``text[start:end]`` as one ``{ … }`` block, as a full parse of ``text`` (whose
    braces balance) parses it there after a token of kind ``prev_kind``; the BLOCK node is the
    one child of the piece.  None when the range does not lex on its own, is not exactly one
    block, or the block leaves something expected at its end."""
    lexed = _lex_piece(text, start, end, prev_kind, tasks, forced=forced)
    if lexed is None:
        return None
    toks = lexed.tokens
    if toks[-1][3] or len(toks) < 2:
        return None
    eof = toks[-1]
    p = Parser(lexed, pair_braces=False)
    p.depth = depth
    node = p.block()
    if p.reported_depth or p.i != len(toks) - 1 or any(e.offset >= eof[2] for e in p.errors):
        return None
    scans = _scan_offsets(p, len(toks) - 2)   # up to the block's '}'
    if scans is None:
        return None
    return Piece([node], sorted(p.errors, key=lambda e: (e.offset, e.end)), p.multiline, toks[0][0], (K.EOF, ""),
                 tuple(lexed.runaways), scans)


def parse_param_at(text: str, start: int, end: int, prev_kind: str | None, close: str,
                   tasks: bool = False, depth: int = 0, forced: frozenset = frozenset()) -> Piece | None:
    """Parse ``text[start:end]`` as one parameter (with its leading trivia) of a parameter list
    closed by ``close`` (')' or '|'), exactly as a full parse of ``text`` (whose braces balance)
    parses it there: after the '(', '|' or ',' of kind ``prev_kind``, followed by the tokens
    that really follow ``end``.  None unless it is exactly one parameter, followed by ',' or
    the closer, with nothing still expected at its end."""
    if prev_kind not in (K.LPAREN, K.WSLPAREN, K.PIPE, K.COMMA):
        return None
    lexed = _lex_piece(text, start, end, prev_kind, tasks, forced=forced)
    if lexed is None:
        return None
    toks = lexed.tokens
    eof = toks.pop()
    if eof[3] or not toks or toks[0][0] not in (K.CLASSREF, K.TIMES, K.VARIABLE):
        return None
    following = next_tokens(text, end, toks[-1][0], 2, tasks)
    if following is None or following[0][0] not in (K.COMMA, close):
        return None
    stop = len(toks)
    toks.extend(following)
    if toks[-1][0] != K.EOF:
        toks.append((K.EOF, "", toks[-1][2] + len(toks[-1][1]), ()))
    p = Parser(lexed, pair_braces=False)
    p.depth = depth
    p.enclosing = (close,)      # as param_list has it
    node = p.param()
    if p.reported_depth or p.i != stop or any(e.offset >= eof[2] for e in p.errors):
        return None
    scans = _scan_offsets(p, stop)
    if scans is None:
        return None
    nxt = following[0]
    return Piece([node], sorted(p.errors, key=lambda e: (e.offset, e.end)), p.multiline, toks[0][0], (nxt[0], nxt[1]),
                 tuple(lexed.runaways), scans)


# ---- brace pairing ----------------------------------------------------------------------------

_BRACE_DEPTH = {K.LBRACE: 1, K.SELBRACE: 1, K.RBRACE: -1}


def _braces_balance(kinds: list) -> bool:
    """As many '}' as '{', and none before its '{'?  Asked of every file parsed, so in passes
    that run in C rather than a loop over the tokens."""
    closing = kinds.count(K.RBRACE)
    if kinds.count(K.LBRACE) + kinds.count(K.SELBRACE) != closing:
        return False
    return closing == 0 or min(accumulate(map(_BRACE_DEPTH.get, kinds, repeat(0)))) >= 0


def _pair_braces(p: Parser) -> None:
    """Make '{'/'}' balanced before parsing, so that recovery can rely on it (see _paired)."""
    p.toks, _, p.pairing = _paired(p.toks, p.errors, _LineInfo(p.toks))


def _raw_matches(toks: list) -> dict[int, int]:
    """The index of the '}' that closes each '{' by plain counting (no indentation read),
    for the openers that have one."""
    matches: dict[int, int] = {}
    stack: list[int] = []
    for j, tok in enumerate(toks):
        k = tok[0]
        if k == K.LBRACE or k == K.SELBRACE:
            stack.append(j)
        elif k == K.RBRACE and stack:
            matches[stack.pop()] = j
    return matches


def _paired(toks: list, errors: list, line_info: _LineInfo) -> tuple[list, bool, tuple]:
    """The tokens with their braces made to balance, whether a '{' is still open after them
    (only when they hold no EOF: a run of statements of a file, see parse_statements_at), and
    the regions it read by the indentation and changed: (offset, end, net, low) from a token
    met with no '{' open that opened one or was a stray '}', to the token after which none was
    open any more, with what its braces add to the depth counted without pairing and the least
    depth they reach from its start (``ParseResult.pairing``; outside them every token is as
    written, and the braces there balance group by group).

    When the braces balance (every valid file), nothing changes.  Otherwise a stray '}' becomes
    an error token, and a '{' without its '}' gets a zero-width '}' inserted where its block
    most likely ended: before the first later line that is indented no deeper than the line of
    the '{' (or before the '}' that closes an enclosing block, or at the end of input).
    Called when they do not (``_braces_balance``).  When that '{' is the only one open, its
    block is closed as soon as such a line is reached, so that the rest is paired on its own.

    A statement of the file whose braces balance on their own (from a '{' opened outside any
    other to the '}' that closes it by counting, which starts its line at column 0 or is on
    the line of the '{') is left as written, however it is indented inside: the damage is
    elsewhere, and its blocks are what its author wrote.  (A '}' that closes it further in, as
    '  }' does when a stray '}' was typed inside it, leaves it to the indentation, which finds
    the stray one.)  That also keeps the pairing of one statement of the file independent of
    the others, so that an edit typing or deleting a brace can be reparsed in a window of whole
    statements (incremental.py, which tells the same from the tree: ``paired_as_written``)."""
    opens = (K.LBRACE, K.SELBRACE)
    matches = _raw_matches(toks)
    out: list = []
    stack: list = []   # indices into out of unclosed openers
    unmatched = False  # the '{' at the bottom of the stack has no '}' of its own
    regions: list = []
    region_start = 0
    depth = low = 0    # the counted depth in the region being read, and its least
    changed = False    # the region being read has a '}' put in or taken out
    last_end = 0       # where the last token read ends
    i = 0
    n = len(toks)
    while i < n:
        tok = toks[i]
        k = tok[0]
        if unmatched and len(stack) == 1 and k != K.RBRACE and k != K.EOF:
            # The one block open, a '{' with no '}' of its own, ends before the first line
            # that is indented no deeper than its statement: decided there rather than at the
            # end of input, so that what follows is paired as if it were closed (as it is).
            col = line_info.column_if_first(tok)
            if col is not None and col <= line_info.indent_of(out[stack[0]]):
                _close_at_eof(errors, out, stack, line_info, None)
                stack = []
                regions.append((region_start, last_end, depth, low))
                changed = False
        last_end = tok[2] + len(tok[1])
        if k in opens:
            if not stack:
                close = matches.get(i)
                if close is not None and (line_info.column_if_first(toks[close]) == 0 or
                                          line_info.line_of(toks[close]) == line_info.line_of(tok)):
                    out.extend(toks[i:close + 1])
                    i = close + 1
                    continue
                unmatched = close is None
                region_start = tok[2]
                depth = low = 0
                changed = False
            depth += 1
            stack.append(len(out))
            out.append(tok)
            i += 1
            continue
        i += 1
        if k == K.RBRACE:
            if not stack:
                errors.append(SyntaxError_(tok[2], tok[2] + 1, "UNMATCHED_BRACE", issue("UNMATCHED_BRACE").format()))
                out.append((K.ERROR_TOKEN, tok[1], tok[2], tok[3]))
                regions.append((tok[2], last_end, -1, -1))
                continue
            depth -= 1
            low = min(low, depth)
            col = line_info.column_if_first(tok)
            if col is not None and len(stack) > 1 and line_info.indent_of(out[stack[-1]]) > col:
                # close inner blocks whose opener line is indented deeper than this '}', when an
                # outer one is not (all at once: one by one was quadratic in their number)
                lowest: list[int] = []      # lowest[i]: the smallest indentation among stack[:i + 1]
                for s in stack:
                    ind = line_info.indent_of(out[s])
                    lowest.append(ind if not lowest or ind < lowest[-1] else lowest[-1])
                closing = []
                while len(stack) > 1 and line_info.indent_of(out[stack[-1]]) > col and lowest[len(stack) - 2] <= col:
                    closing.append(stack.pop())
                if closing:
                    _close_at_eof(errors, out, closing[::-1], line_info, None)
                    changed = True
            stack.pop()
            out.append(tok)
            if not stack and changed:
                regions.append((region_start, last_end, depth, low))
            continue
        if k == K.EOF and stack:
            _close_at_eof(errors, out, stack, line_info, tok[2])
            stack = []
            regions.append((region_start, tok[2], depth, low))
        out.append(tok)
    return out, bool(stack), tuple(regions)


def _close_at_eof(errors: list, out: list, stack: list[int], line_info: _LineInfo, eof_offset: int | None) -> None:
    """Insert a zero-width '}' for each opener of ``stack``, innermost first, before the first
    later token that starts a line indented no deeper than the opener's statement (or at the
    end), and report it; in one pass: closing thousands of them one by one rescanned and
    shifted the token list each time (seconds for a few thousand unclosed '{' on one line).
    ``eof_offset``: they are open at the end of input (None: a '}' further out follows)."""
    # Where a '}' may go: before a token that starts a line (virtual '}'s never do).
    cands = [(j, col) for j, t in enumerate(out)
             if t[0] != K.RBRACE and (col := line_info.column_if_first(t)) is not None]
    cand_index = [j for j, _ in cands]
    before: dict = {}    # index in out (len(out): the end) -> virtual '}'s to insert there, in order
    for open_idx in reversed(stack):
        opener = out[open_idx]
        indent = line_info.indent_of(opener)
        at = len(out)
        for c in range(bisect.bisect_right(cand_index, open_idx), len(cands)):
            if cands[c][1] <= indent:
                at = cands[c][0]
                break
        if at < len(out):
            prev = out[at - 1]
            offset = error_at = prev[2] + len(prev[1])
        else:
            prev = out[-1] if out else None
            offset = prev[2] + len(prev[1]) if prev else 0
            error_at = offset if eof_offset is None else eof_offset
        before.setdefault(at, []).append((K.RBRACE, "", offset, ()))
        errors.append(SyntaxError_(error_at, error_at, "MISSING_RBRACE",
                                     issue("MISSING_RBRACE").format(line=line_info.line_of(opener))))
    merged: list = []
    for j, t in enumerate(out):
        if j in before:
            merged.extend(before[j])
        merged.append(t)
    merged.extend(before.get(len(out), ()))
    out[:] = merged


_STATEMENT_BOUNDARY = frozenset({K.LBRACE, K.SELBRACE, K.RBRACE, K.SEMIC})
_OPERAND_END = frozenset({
    K.VARIABLE, K.NAME, K.WORD, K.CLASSREF, K.NUMBER, K.STRING, K.REGEX, K.BOOLEAN, K.UNDEF,
    K.DEFAULT, K.DQ_CLOSE, K.HEREDOC, K.RPAREN, K.RBRACK, K.RCOLLECT, K.RRCOLLECT, K.ERROR_TOKEN,
})
_CONTINUATION_START = frozenset(_BINARY) | _RELATIONSHIP | _ASSIGN | frozenset({
    K.QMARK, K.DOT, K.FARROW, K.PARROW, K.COMMA, K.RPAREN, K.RBRACK, K.LBRACE, K.SELBRACE,
    K.LBRACK, K.LPAREN, K.PIPE, K.RCOLLECT, K.RRCOLLECT, K.LCOLLECT, K.LLCOLLECT, K.COLON,
})


class _LineInfo:
    """What brace pairing reads of the tokens, from their trivia: the column of each token that
    starts a line (first-on-line tokens have a NEWLINE in their trivia, or start the input),
    and the indentation and line of each '{'.  Only made for a file whose braces do not
    balance; one pass over the tokens, storing nothing for the others.

    Also made for a run of a file's tokens that does not start the file (``at_start`` False:
    ``prev``, the kind of the token before it, ``line``, the line it starts on); what it reads
    there is what it reads of the whole file only when the run's first token starts a line and
    a statement (``fresh``): the indentation carried over from before is then replaced."""

    def __init__(self, toks: list, prev: str | None = None, line: int = 1, at_start: bool = True) -> None:
        self.first_col: dict = {}     # offset -> column of a first-on-line token
        self.lines: dict = {}         # offset of '{' or '}' -> its 1-based line
        self.opener_indent: dict = {}  # offset of '{' -> indentation of its statement's line
        self.fresh = at_start
        first_col = self.first_col
        newline, heredoc_body, whitespace = K.NEWLINE, K.HEREDOC_BODY, K.WHITESPACE
        lbrace, selbrace, rbrace, trivia_kinds = K.LBRACE, K.SELBRACE, K.RBRACE, K.TRIVIA
        indent = 0
        stmt_indent = 0
        for idx, tok in enumerate(toks):
            first = idx == 0 and at_start
            col = 0 if first else None
            for tv in tok[3]:
                tk = tv[0]
                if tk == newline:
                    line += 1
                    col = 0
                elif tk == heredoc_body:
                    line += tv[1].count("\n")
                    col = 0
                else:
                    if tk != whitespace and "\n" in tv[1]:
                        line += tv[1].count("\n")
                    if col is not None:
                        if first:
                            col += len(tv[1])
                        elif tk == whitespace:
                            col += len(tv[1].expandtabs(8)) if "\t" in tv[1] else len(tv[1])
                        else:
                            col = None  # a comment before the token on its line
            kind = tok[0]
            if col is not None:
                indent = col
                first_col[tok[2]] = col
                # A line that starts a new statement (rather than continuing one, as
                # '  $y {' continues 'if $x and') sets the indentation that a block opened
                # in that statement is expected to close at.
                if prev is None or prev in _STATEMENT_BOUNDARY or (prev in _OPERAND_END and kind not in _CONTINUATION_START):
                    stmt_indent = col
                    if idx == 0:
                        self.fresh = True
            if kind == lbrace or kind == selbrace:
                self.opener_indent[tok[2]] = min(indent, stmt_indent)
                self.lines[tok[2]] = line
            elif kind == rbrace:
                self.lines[tok[2]] = line
            if "\n" in tok[1]:
                line += tok[1].count("\n")
            if kind not in trivia_kinds:
                prev = kind

    def line_of(self, opener) -> int:
        return self.lines.get(opener[2], 0)

    def column_if_first(self, tok):
        return self.first_col.get(tok[2])

    def indent_of(self, opener):
        return self.opener_indent.get(opener[2], 0)


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building trees.  Parsing makes many small
    objects and no reference cycles; with large trees already alive (a server's open files and
    index) the collector's passes over them cost more than the parse itself (the corpus with
    every tree kept: 1.7 s of CPU with collection, 0.67 s without)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def parse(text: str, epp: bool = False, tasks: bool = False) -> ParseResult:
    """Parse Puppet source (or an EPP template) into a lossless tree.  Never raises."""
    with gc_paused():
        return prefer_closed_runaway_string(_parse(text, epp, tasks), epp, tasks)


def _parse(text: str, epp: bool, tasks: bool, unclosed: frozenset = frozenset()) -> ParseResult:
    lexed = lex(text, epp=epp, tasks=tasks, unclosed=unclosed)
    parser = Parser(lexed, epp)
    green = parser.parse_file()
    errors = sorted(parser.errors, key=lambda e: (e.offset, e.end))
    return ParseResult(green, errors, text, tuple(parser.multiline), runaways=tuple(lexed.runaways),
                       recovered=bool(unclosed), scans=_scan_offsets(parser, len(parser.toks)) or (),
                       pairing=parser.pairing)


def parse_unclosed(text: str, unclosed: frozenset, tasks: bool = False) -> ParseResult:
    """The parse of Puppet source with the quotes at ``unclosed`` taken as never closed: the
    alternative that the runaway-string recovery weighs (``prefer_closed_runaway_string``)."""
    with gc_paused():
        return _parse(text, False, tasks, unclosed)


def _continued(text: str, start: int, end: int) -> bool:
    """Does every line break of the string text[start:end] follow a backslash (an odd run of
    them: '\\\\' is one escaped backslash)?"""
    i = text.find("\n", start, end)
    if i < 0:
        return False
    while i >= 0:
        j = i - 1
        if j >= start and text[j] == "\r":
            j -= 1
        run = 0
        while j >= start and text[j] == "\\":
            run += 1
            j -= 1
        if run % 2 == 0:
            return False
        i = text.find("\n", i + 1, end)
    return True


def prefer_closed_runaway_string(result: ParseResult, epp: bool = False, tasks: bool = False,
                                 alternative: Callable[[int], ParseResult] | None = None) -> ParseResult:
    """A dropped quote makes a string swallow lines of code and flips every later quote, so
    the errors appear far from the damage and whole definitions end up inside strings.  When
    a string that spans lines comes before the first error, try the parse in which that string
    ends at its line (its closing quote missing); keep it when it has no more errors than the
    original.  A legitimate multi-line string loses: its other lines then parse as code and
    add errors.  ``alternative(offset)``: that parse, when the caller can make it for less than
    a parse of the whole text (incremental.py); it must be exactly ``_parse(text, epp, tasks,
    frozenset({offset}))``."""
    if epp or not result.multiline_strings:
        return result
    text = result.text
    first_syntax = result.errors[0].offset if result.errors else None

    def suspicious(start: int, end: int) -> bool:
        # A runaway string ends at what was meant as the opening quote of the next string, so
        # its closing quote is followed by what was meant as that string's text (a word, a
        # path, a quote…) rather than by what follows a string in code; or a syntax error
        # follows it closely.  Not a string whose every line ends with a backslash: that one
        # was continued on purpose.
        if _continued(text, start, end):
            return False
        if end < len(text) and text[end] not in AFTER_STRING:
            return True
        return first_syntax is not None and end <= first_syntax and text.count("\n", end, first_syntax) <= 3

    # Cheap filter first: typing in a long file with a legitimate multi-line string far away
    # must not pay for a validation and two more parses on every keystroke.
    if not any(suspicious(b, e) for b, e in result.multiline_strings):
        return result
    from .validate import validate   # validation sees the tree this module builds

    def problems(r: ParseResult) -> list:
        return list(r.errors) + [d for d in validate(r) if d.severity == "error"]

    found = problems(result)
    if not found:
        return result
    first = min(e.offset for e in found)
    # The runaway string starts before the first problem, at it (a dropped opening quote makes
    # the string start right there), or later on its line (a dropped closing quote can pair
    # the quotes of the line differently, 'a, 'b', so that the string that runs away starts
    # after the first error).
    line_end = text.find("\n", first)
    limit = len(text) if line_end < 0 else line_end
    candidates: list[int] = [b for b, e in result.multiline_strings if b <= limit and suspicious(b, e)][-2:]
    best, best_count = result, len(found)
    for offset in reversed(candidates):
        alt = alternative(offset) if alternative is not None else _parse(text, epp, tasks, frozenset({offset}))
        if len(alt.errors) > best_count:
            continue    # more syntax errors alone: validating it (a walk of the tree) cannot help
        count = len(problems(alt))
        if count <= best_count:
            best, best_count = alt, count
    return best
