"""The Puppet lexer: source text to a lossless token stream, with errors as data.

Every character of the input ends up in exactly one token, so concatenating token texts gives
the input back.  Significant tokens carry the trivia (whitespace, comments, heredoc bodies, EPP
code-tag delimiters) that precedes them; the parser never looks at trivia, the tree keeps it.

The lexical structure is not context free, and the rules of Puppet's own lexer are followed:

* ``[`` is LISTSTART when preceded by whitespace or at the start of input, else LBRACK;
* ``{`` after ``?`` is SELBRACE;
* ``(`` with only blanks before it on its line is WSLPAREN (it cannot start an argument list);
* ``/`` starts a REGEX unless the previous token ends an operand;
* a double-quoted string is split into text, ``$var`` and ``${ expr }`` pieces, and inside
  ``${ }`` a leading bare word followed by ``}``, ``[`` or ``.`` is a variable;
* a heredoc ``@(TAG:syntax/flags)`` takes its text from the lines after the current one; that
  text is delivered as a HEREDOC_BODY trivia token at the place it occupies in the file, and its
  pieces (for interpolation) are lexed into ``Heredoc.tokens``;
* in EPP template mode the input starts as text, and ``<% %>``, ``<%= %>``, ``<%- -%>``,
  ``<%# %>``, ``<%%`` and ``%%>`` switch between text and code.

Bad input never stops the lexer: it produces an ERROR_TOKEN (or a best-effort token) and records
a LexError with the exact range, then goes on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..messages import issue
from . import kinds as K
from .tree import green_token

# A significant token: (kind, text, offset, leading_trivia).  leading_trivia is a tuple of
# (kind, text) pairs, or of (HEREDOC_BODY, text, Heredoc) for heredoc bodies.
Token = tuple


@dataclass(slots=True)
class LexError:
    offset: int
    end: int
    code: str
    message: str


@dataclass(slots=True)
class Heredoc:
    """What the lexer learned about one heredoc; its body is lexed into ``tokens``."""
    header_offset: int
    tag: str
    syntax: str
    flags: str                 # escape flags as written ('' when none given)
    escapes: frozenset         # escapes in force ('t', 'r', 'n', 's', 'u', 'L', '$')
    interpolate: bool          # quoted end tag
    body_offset: int = -1
    body_end: int = -1
    text_end: int = -1         # where the end-tag line starts
    margin: int = 0
    trim: bool = False
    tokens: list = field(default_factory=list)   # significant tokens of the text part
    trailing: tuple = ()       # trivia after the last token of the text part


@dataclass(slots=True)
class LexResult:
    tokens: list               # significant tokens; the last one is EOF (text '')
    errors: list               # LexError
    heredocs: list             # Heredoc, in header order
    # Quoted strings taken as runaways (ended at their line end), and double-quoted strings
    # whose end was found by reading past it: (start, bound), where the decision read
    # text[start:bound] (up to the character after the quote that would have closed them, or
    # past the end of the text when nothing closes them).
    runaways: list = field(default_factory=list)


# Interpolations inside interpolations beyond this depth are one error, not a deep recursion.
MAX_INTERPOLATION_NESTING = 100
_BLANKS = " \t\r\f\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_WS_RE = re.compile("[" + _BLANKS + "]+")
_NEWLINE_RE = re.compile(r"\n")
_COMMENT_RE = re.compile(r"#[^\n]*")
_ML_COMMENT_RE = re.compile(r"/\*.*?\*/", re.DOTALL)
_WORD_RE = re.compile(r"(?:::)?[a-z_][\w-]*(?:::[a-z_][\w-]*)*")
_NAME_RE = re.compile(r"(?:::)?[a-z]\w*(?:::[a-z]\w*)*\Z")
_CLASSREF_RE = re.compile(r"(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*")
_VARIABLE_RE = re.compile(r"\$(?:::)?(?:\w+::)*\w+")
_NUMBER_RE = re.compile(r"0[xX][0-9A-Fa-f]*|\d+(?:\.\d+)?(?:[eE]-?\d+)?")
_NUMBER_TAIL_RE = re.compile(r"\w*")
_DECIMAL_LOOKING_RE = re.compile(r"\d+[eE.]")
_QUALIFIED_RE = re.compile(r"(?:::)?[\w-]+(?:::[\w-]*)*")
_SQ_RE = re.compile(r"'(?:[^'\\]|\\.)*'", re.DOTALL)
# What scan_dq_close stops at, in a string's text and inside an interpolation: it jumps from
# one to the next (a string whose interpolation lost its '}' is scanned to the end of the file)
_DQ_SCAN_TEXT = re.compile(r'[\\"$]')
_DQ_SCAN_CODE = re.compile(r'[\\{}"\']')
_REGEX_RE = re.compile(r"/(?:[^\\/\n]|\\[^\n])*/")
_HEREDOC_RE = re.compile(
    r"@\(([^:/\r\n)]+)(?::[" + _BLANKS + r"]*([a-z][a-zA-Z0-9_+]+)[" + _BLANKS + r"]*)?"
    r"(?:/((?:\w|[$])*)[" + _BLANKS + r"]*)?\)")
# Characters that follow a string in ordinary code (blanks, separators, operators).  A quoted
# string that runs over lines and whose closing quote is followed by anything else is a
# runaway: its opening quote was typed or left alone, and the quote that "closes" it is the
# opening quote of the next string (followed by that string's text).  The lexer ends such a
# string at its line end, as if its closing quote were missing.  The decision reads only the
# text from the opening quote to the character after that closing quote, so an edit elsewhere
# cannot change it, and incremental reparsing stays local (no legitimate multi-line string of
# the 1,920-file corpus is followed by such a character: 174 are followed by ',', ')', ':' or a
# line end).
AFTER_STRING = frozenset(" \t\r\n,)]};:.=-~<>|?+*!%")
_DQ_TEXT_RE = re.compile(r'(?:[^"\\$]|\\.|\$(?![{\w]|::\w))+', re.DOTALL)
_STRING_VAR_RE = re.compile(r"\$(?:::)?(?:\w+::)*\w+")
_EPP_TRIM_RE = re.compile(r"[ \t]*(?:\r?\n)?")   # what '-%>' removes after it
_EPP_TEXT_RE = re.compile(r"(?:[^<%]|<(?!%)|<%%|%%>|%(?!%>))+", re.DOTALL)

# Operators by first character, longest first.
_OPERATORS = {
    "[": None, "{": None, "(": None, "/": None, "@": None,   # handled specially
    "]": ((("]", K.RBRACK),)),
    "}": ((("}", K.RBRACE),)),
    ")": ((")", K.RPAREN),),
    "=": (("==", K.ISEQUAL), ("=~", K.MATCH), ("=>", K.FARROW), ("=", K.EQUALS)),
    "!": (("!=", K.NOTEQUAL), ("!~", K.NOMATCH), ("!", K.NOT)),
    "<": (("<<|", K.LLCOLLECT), ("<|", K.LCOLLECT), ("<<", K.LSHIFT), ("<=", K.LESSEQUAL),
          ("<-", K.OUT_EDGE), ("<~", K.OUT_EDGE_SUB), ("<", K.LESSTHAN)),
    ">": ((">=", K.GREATEREQUAL), (">>", K.RSHIFT), (">", K.GREATERTHAN)),
    "|": (("|>>", K.RRCOLLECT), ("|>", K.RCOLLECT), ("|", K.PIPE)),
    "+": (("+=", K.APPENDS), ("+>", K.PARROW), ("+", K.PLUS)),
    "-": (("-=", K.DELETES), ("->", K.IN_EDGE), ("-", K.MINUS)),
    "~": (("~>", K.IN_EDGE_SUB), ("~", K.TILDE)),
    "*": (("*", K.TIMES),),
    "%": (("%", K.MODULO),),
    ".": ((".", K.DOT),),
    ",": ((",", K.COMMA),),
    ";": ((";", K.SEMIC),),
    "?": (("?", K.QMARK),),
    ":": ((":", K.COLON),),
}

# After these a '/' is a division, not the start of a regular expression.
_NO_REGEX_AFTER = frozenset({
    K.RPAREN, K.RBRACK, K.RRCOLLECT, K.RCOLLECT, K.NAME, K.CLASSREF, K.NUMBER, K.STRING,
    K.BOOLEAN, K.REGEX, K.VARIABLE, K.WORD, K.DQ_CLOSE, K.HEREDOC, K.INTERP_CLOSE,
})

_ESCAPE_FLAGS = frozenset("trnsuL$")

_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32 (BE)"), (b"\xff\xfe\x00\x00", "UTF-32 (LE)"),
    (b"\xef\xbb\xbf", "UTF-8"), (b"\xfe\xff", "UTF-16 (BE)"), (b"\xff\xfe", "UTF-16 (LE)"),
    (b"\xf7\x64\x4c", "UTF-1"), (b"\x2b\x2f\x76\x38", "UTF-7"), (b"\x2b\x2f\x76\x39", "UTF-7"),
    (b"\x2b\x2f\x76\x2b", "UTF-7"), (b"\x2b\x2f\x76\x2f", "UTF-7"),
    (b"\xdd\x73\x66\x73", "UTF-EBCDIC"), (b"\x0e\xfe\xff", "SCSU"), (b"\xfb\xee\x28", "BOCU-1"),
    (b"\x84\x31\x95\x33", "GB-18030"),
)


def detect_bom(data: bytes) -> tuple[str, bytes] | None:
    """The kind and bytes of a byte order mark at the start of raw file content, if any."""
    for mark, name in _BOMS:
        if data.startswith(mark):
            return name, mark
    return None


def bom_message(name: str, mark: bytes) -> str:
    return issue("ILLEGAL_BOM").format(kind=name, bytes=" ".join(f"{b:02X}" for b in mark))


def _show_char(c: str) -> str:
    return f"'{c}'" if c.isprintable() else f"U+{ord(c):04X}"


class _Lexer:
    __slots__ = ("text", "n", "tokens", "errors", "heredocs", "trivia", "prev", "epp", "keywords", "forced",
                 "pending_bodies", "body_resume", "depth", "cut", "runaways", "limit", "dq_reach")

    def __init__(self, text: str, epp: bool, tasks: bool, forced: frozenset = frozenset()):
        self.text = text
        self.forced = forced      # quotes at these offsets are taken as never closed
        self.n = len(text)
        self.tokens: list = []
        self.errors: list = []
        self.heredocs: list = []
        self.trivia: list = []
        self.prev: str | None = None   # kind of the previous significant token
        self.epp = epp
        self.keywords = dict(K.KEYWORDS, **K.TASK_KEYWORDS) if tasks else K.KEYWORDS
        self.pending_bodies: list = []   # heredocs whose body starts after the current line
        self.body_resume = -1     # where the next heredoc body on this line may start
        self.depth = 0
        self.cut = False          # a token ran past ``n`` (lex_range: the range cuts it)
        self.runaways: list = []  # LexResult.runaways
        self.dq_reach = 0         # how far scan_dq_close's last search read (an index past it)
        self.limit = self.n       # the end of the lexed range (``n`` is lowered inside ``${ }``)

    # -- helpers ------------------------------------------------------------------------------
    def error(self, offset: int, end: int, code: str, **args) -> None:
        self.errors.append(LexError(offset, end, code, issue(code).format(**args)))

    def emit(self, kind: str, text: str, offset: int) -> None:
        self.tokens.append((kind, text, offset, tuple(self.trivia)))
        self.trivia.clear()
        self.prev = kind

    # -- main loop ------------------------------------------------------------------------------
    def lex_code(self, pos: int, stop_at_brace: bool) -> int:
        """Lex code from ``pos``.  With ``stop_at_brace`` (inside ``${ }``) return at the ``}``
        that balances; in EPP mode return at a closing ``%>``/``-%>``.  Returns the position."""
        text = self.text
        n = self.n
        trivia = self.trivia
        keywords = self.keywords
        brace_depth = 0
        while pos < n:
            c = text[pos]
            # ---- trivia ----
            if c == " " or c == "\t" or c == "\r" or (c in _BLANKS and c != "\n"):
                m = _WS_RE.match(text, pos, n)
                assert m is not None   # c is a blank
                trivia.append(green_token(K.WHITESPACE, m.group()))
                pos = m.end()
                continue
            if c == "\n":
                trivia.append(green_token(K.NEWLINE, "\n"))
                pos += 1
                if self.pending_bodies:
                    pos = self.flush_heredoc_bodies(pos)
                continue
            if c == "#":
                m = _COMMENT_RE.match(text, pos, n)
                assert m is not None   # c is '#'
                trivia.append(green_token(K.COMMENT, m.group()))
                pos = m.end()
                continue
            if c == "/" and text.startswith("/*", pos, n):
                m = _ML_COMMENT_RE.match(text, pos, n)
                if m is None:
                    self.error(pos, n, "UNCLOSED_MLCOMMENT")
                    trivia.append((K.ML_COMMENT, text[pos:n]))
                    pos = n
                    if self.pending_bodies:
                        self.flush_heredoc_bodies(pos)
                    continue
                trivia.append((K.ML_COMMENT, m.group()))
                pos = m.end()
                if self.pending_bodies and "\n" in m.group():
                    # A comment that spans the end of a heredoc header line: the body was
                    # inside the comment.  Puppet does the same naive thing; we just make sure
                    # the heredoc is reported instead of left dangling.
                    self.drop_pending_bodies()
                continue
            # ---- words ----
            if c.isalpha() or c == "_" or (c == ":" and text.startswith("::", pos, n)):
                if "a" <= c <= "z" or c == "_" or (c == ":" and pos + 2 < n and (text[pos + 2].islower() or text[pos + 2] == "_")):
                    m = _WORD_RE.match(text, pos, n)
                    if m is not None:
                        word = m.group()
                        end = m.end()
                        # A trailing '-' is not part of a word ('a-' is NAME MINUS).
                        while word.endswith("-"):
                            word = word[:-1]
                            end -= 1
                        if _NAME_RE.match(word):
                            kind = keywords.get(word, K.NAME)
                        else:
                            kind = K.WORD
                        if text.startswith("::", end) and not (
                                end + 2 < n and "A" <= text[end + 2] <= "Z"):
                            # ('mymod::Sub' is the name 'mymod' and the reference '::Sub'
                            # to Puppet, as here)
                            pos = self.bad_qualified_name(pos, end)
                            continue
                        if stop_at_brace and self.first_in_interpolation():
                            kind = self.interpolated_name(kind, end)
                        self.emit(kind, word, pos)
                        pos = end
                        continue
                elif "A" <= c <= "Z" or (c == ":" and pos + 2 < n and "A" <= text[pos + 2] <= "Z"):
                    m = _CLASSREF_RE.match(text, pos, n)
                    assert m is not None   # an ASCII capital, maybe after '::'
                    end = m.end()
                    if text.startswith("::", end):
                        if c == ":":
                            pos = self.bad_qualified_name(pos, end)
                            continue
                        # 'Foo::bar', 'Foo::': Puppet points one past the end of 'Foo'
                        q = _QUALIFIED_RE.match(text, pos, n)
                        bad_end = max(q.end() if q else end, end + 2)
                        self.error(end + 1, bad_end, "ILLEGAL_CLASS_REFERENCE")
                        self.emit(K.ERROR_TOKEN, text[pos:bad_end], pos)
                        pos = bad_end
                        continue
                    self.emit(K.CLASSREF, m.group(), pos)
                    pos = end
                    continue
                if c == ":":
                    # '::' not followed by a name
                    self.emit(K.COLON, ":", pos)
                    pos += 1
                    continue
                # other unicode letters: not part of the language
                end = pos + 1
                self.error(pos, end, "ILLEGAL_CHARACTER", char=_show_char(c))
                self.emit(K.ERROR_TOKEN, c, pos)
                pos = end
                continue
            # ---- variables ----
            if c == "$":
                m = _VARIABLE_RE.match(text, pos, n)
                if m is None:
                    self.error(pos, pos + 1, "ILLEGAL_VAR_NAME", name="")
                    self.emit(K.ERROR_TOKEN, "$", pos)
                    pos += 1
                    continue
                end = m.end()
                if text.startswith("::", end, n):
                    # '$foo::::bar': Puppet points at the second '::'
                    bad = _QUALIFIED_RE.match(text, pos + 1, n)
                    bad_end = max(bad.end() if bad else end, end + 2)
                    self.error(min(end + 2, bad_end), bad_end, "ILLEGAL_FULLY_QUALIFIED_NAME")
                    self.emit(K.ERROR_TOKEN, text[pos:bad_end], pos)
                    pos = bad_end
                    continue
                self.emit(K.VARIABLE, m.group(), pos)
                pos = end
                continue
            # ---- numbers ----
            if "0" <= c <= "9":
                pos = self.lex_number(pos, stop_at_brace and self.first_in_interpolation())
                continue
            # ---- strings ----
            if c == "'":
                m = _SQ_RE.match(text, pos) if pos not in self.forced else None
                close = -1 if m is None else m.end()
                runaway = self.runaway(pos, close)
                if runaway or close > n:
                    if not runaway:
                        # it goes on past the lexed range (or past the end of its interpolation)
                        self.cut = self.cut or n == self.limit
                    end = self.unclosed_quote(pos, "'")
                    self.emit(K.STRING, text[pos:end], pos)
                    pos = end
                    continue
                self.emit(K.STRING, text[pos:close], pos)
                pos = close
                continue
            if c == '"':
                pos = self.lex_dq_string(pos)
                continue
            # ---- EPP tag ends ----
            if self.epp and not stop_at_brace:
                if c == "%" and text.startswith("%>", pos, n):
                    return pos
                if c == "-" and text.startswith("-%>", pos, n):
                    return pos
            # ---- brackets with context ----
            if c == "[":
                if pos == 0 or text[pos - 1] in " \t\r\n" or text[pos - 1] in _BLANKS:
                    self.emit(K.LISTSTART, "[", pos)
                else:
                    self.emit(K.LBRACK, "[", pos)
                pos += 1
                continue
            if c == "{":
                brace_depth += 1
                self.emit(K.SELBRACE if self.prev == K.QMARK else K.LBRACE, "{", pos)
                pos += 1
                continue
            if c == "}":
                if stop_at_brace and brace_depth == 0:
                    return pos
                brace_depth -= 1
                self.emit(K.RBRACE, "}", pos)
                pos += 1
                continue
            if c == "(":
                ls = text.rfind("\n", 0, pos) + 1
                if ls == pos or text[ls:pos].strip(_BLANKS) == "":
                    self.emit(K.WSLPAREN, "(", pos)
                else:
                    self.emit(K.LPAREN, "(", pos)
                pos += 1
                continue
            if c == "/":
                if self.prev not in _NO_REGEX_AFTER:
                    m = _REGEX_RE.match(text, pos, n)
                    if m is not None:
                        self.emit(K.REGEX, m.group(), pos)
                        pos = m.end()
                        continue
                    if n < len(text) and _REGEX_RE.match(text, pos) is not None:
                        # The whole text closes this regex past the end of the lexed range:
                        # it is one token there, not the '/' lexed here.
                        self.cut = True
                self.emit(K.DIV, "/", pos)
                pos += 1
                continue
            if c == "@":
                if text.startswith("@(", pos, n):
                    pos = self.lex_heredoc_header(pos)
                    continue
                if text.startswith("@@", pos, n):
                    self.emit(K.ATAT, "@@", pos)
                    pos += 2
                    continue
                self.emit(K.AT, "@", pos)
                pos += 1
                continue
            ops = _OPERATORS.get(c)
            if ops:
                for op, kind in ops:
                    if text.startswith(op, pos):
                        self.emit(kind, op, pos)
                        pos += len(op)
                        break
                continue
            if c == "\ufeff" and pos == 0:
                self.error(0, 1, "ILLEGAL_BOM", kind="UTF-8", bytes="EF BB BF")
                trivia.append((K.BOM, c))
                pos += 1
                continue
            # anything else
            self.error(pos, pos + 1, "ILLEGAL_CHARACTER", char=_show_char(c))
            self.emit(K.ERROR_TOKEN, c, pos)
            pos += 1
        return pos

    # -- words ------------------------------------------------------------------------------
    def first_in_interpolation(self) -> bool:
        """Is the token being lexed the first one after '${'?"""
        return bool(self.tokens) and self.tokens[-1][0] == K.INTERP_OPEN

    def interpolated_name(self, kind: str, end: int) -> str:
        """Inside '${', a leading name (or number or keyword) that is followed by '}', '[' or
        '.' is the name of a variable ("${x}" is "${$x}")."""
        if kind in (K.NAME, K.WORD) or kind in K.KEYWORD_KINDS:
            nxt = self.text[end:end + 1]
            if nxt in ("}", "[", "."):
                return K.VARIABLE
        return kind

    def bad_qualified_name(self, pos: int, end: int) -> int:
        m = _QUALIFIED_RE.match(self.text, pos, self.n)
        bad_end = max(m.end() if m else end, end + 2)
        self.error(pos, bad_end, "ILLEGAL_FULLY_QUALIFIED_NAME")
        self.emit(K.ERROR_TOKEN, self.text[pos:bad_end], pos)
        return bad_end

    # -- numbers ------------------------------------------------------------------------------
    def lex_number(self, pos: int, interpolated: bool = False) -> int:
        text = self.text
        m = _NUMBER_RE.match(text, pos, self.n)
        assert m is not None   # called at an ASCII digit
        end = m.end()
        value = m.group()
        nxt = text[end:end + 1] if end < self.n else ""
        if nxt and (nxt.isalnum() or nxt == "_"):
            # '3g', '0x3g', '4.3g': a number glued to more word characters ('1.2.3' is the
            # number 1.2, a '.' and 3: a syntax error, as in Puppet).  Puppet names the error
            # after what the text looks like: hex, octal, decimal, or just an illegal number.
            tail = _NUMBER_TAIL_RE.match(text, end, self.n)
            assert tail is not None
            bad_end = tail.end()
            bad = text[pos:bad_end]
            if bad[:2] in ("0x", "0X"):
                code = "INVALID_HEX_NUMBER"
            elif len(bad) > 1 and bad[0] == "0" and bad[1] != ".":
                code = "INVALID_OCTAL_NUMBER"
            elif _DECIMAL_LOOKING_RE.match(bad):
                code = "INVALID_DECIMAL_NUMBER"
            else:
                code = "ILLEGAL_NUMBER"
            self.error(pos, bad_end, code, text=bad)
            self.emit(K.ERROR_TOKEN, bad, pos)
            return bad_end
        if interpolated and nxt in ("}", "[", "."):
            # "${0}" is the match variable $0
            self.emit(K.VARIABLE, value, pos)
            return end
        if value[:2] in ("0x", "0X"):
            if len(value) == 2:
                self.error(pos, end, "INVALID_HEX_NUMBER", text=value)
                self.emit(K.ERROR_TOKEN, value, pos)
                return end
        elif len(value) > 1 and value[0] == "0" and value[1] != "." and not all(ch in "01234567" for ch in value):
            # Puppet reads every number that starts with 0 and is not '0.…' as octal: '09',
            # '09.5', '012e3' and '0e3' are all invalid octal numbers to it
            self.error(pos, end, "INVALID_OCTAL_NUMBER", text=value)
            self.emit(K.ERROR_TOKEN, value, pos)
            return end
        self.emit(K.NUMBER, value, pos)
        return end

    # -- strings ------------------------------------------------------------------------------
    def runaway(self, pos: int, close: int, reach: int = 0) -> bool:
        """Is the string from the quote at ``pos`` to ``close`` (after its closing quote) a
        runaway (see AFTER_STRING)?  If so, or when nothing closes it (``close`` -1: a quote
        typed anywhere after it may), record what the decision read.  ``reach``: how far the
        search for ``close`` read (a single-quoted string in an interpolation is decided by
        the character after its own closing quote); a string whose extent was decided by text
        past its end is recorded too, runaway or not."""
        if close < 0:
            self.runaways.append((pos, len(self.text) + 1))
            return True
        if self.epp or not is_runaway(self.text, pos, close):
            if reach > close + 1:
                self.runaways.append((pos, reach))
            return False
        self.runaways.append((pos, max(close + 1, reach)))
        return True

    def unclosed_quote(self, pos: int, quote: str) -> int:
        """Report a quote that is never closed.  The string is ended at the end of its line so
        that the rest of the file is still lexed as code (Puppet swallows it all)."""
        text = self.text
        nl = text.find("\n", pos, self.n)
        if nl < 0 and self.n == self.limit < len(text):
            self.cut = True    # its line goes on past the lexed range
        end = self.n if nl < 0 else nl
        # Puppet shows the first five characters after the quote (always followed by '...',
        # or '<eof>' when there are none) and points just past it; it shows the single quote
        # inside double quotes.
        if pos + 1 >= len(text):
            following = "<eof>"
        else:
            following = text[pos + 1:min(pos + 6, len(text))].replace("\t", "\\t").replace(
                "\n", "\\n").replace("\r", "\\r") + "..."
        shown = '"\'"' if quote == "'" else "'" + quote + "'"
        self.error(pos + 1, end, "UNCLOSED_QUOTE", quote=shown, following=following)
        return end

    def lex_dq_string(self, pos: int) -> int:
        """Lex a double-quoted string into DQ_OPEN, pieces, DQ_CLOSE."""
        text = self.text
        start = pos
        close = self.scan_dq_close(pos + 1) if pos not in self.forced else -1
        if self.runaway(pos, close + 1 if close >= 0 else -1, self.dq_reach):
            close = -1
        elif close + 1 > self.n:
            # it goes on past the lexed range (or past the end of its interpolation)
            self.cut = self.cut or self.n == self.limit
            close = -1
        if close < 0:
            end = self.unclosed_quote(pos, '"')
            # Deliver what there is as text so the tree keeps it, ending at the line end.
            self.emit(K.DQ_OPEN, '"', pos)
            if end > pos + 1:
                self.emit(K.STRING_TEXT, text[pos + 1:end], pos + 1)
            self.emit(K.DQ_CLOSE, "", end)
            return end
        self.emit(K.DQ_OPEN, '"', start)
        pos = self.lex_string_parts(pos + 1, close, _DQ_TEXT_RE, True)
        self.emit(K.DQ_CLOSE, '"', close)
        return close + 1

    def scan_dq_close(self, pos: int) -> int:
        """Find the closing quote of a double-quoted string starting at ``pos`` (after the
        opening quote), skipping escapes and the insides of interpolations (which may hold
        strings of their own).  -1 when there is none.  Iterative (a stack of the enclosing
        interpolations' brace depths): strings nest in interpolations without limit."""
        text = self.text
        n = len(text)      # the whole text: a range's end does not decide where a string ends
        enclosing: list[int] = []
        depth = 0
        self.dq_reach = 0
        text_stop, code_stop = _DQ_SCAN_TEXT.search, _DQ_SCAN_CODE.search
        while pos < n:
            m = text_stop(text, pos) if depth == 0 else code_stop(text, pos)
            if m is None:
                return -1
            pos = m.start()
            c = text[pos]
            if c == "\\":
                pos += 2
                continue
            if depth == 0:
                if c == '"':
                    if not enclosing:
                        return pos
                    depth = enclosing.pop()      # back in the interpolation holding that string
                elif text.startswith("${", pos):
                    depth = 1
                    pos += 2
                    continue
                pos += 1
                continue
            # inside an interpolation: track braces and nested strings
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif c == '"':
                enclosing.append(depth)
                depth = 0
            elif c == "'":
                m = _SQ_RE.match(text, pos)
                if m is None:
                    return -1
                # (deciding it read up to the character after its closing quote, which may lie
                # past the closing quote of the string being searched)
                self.dq_reach = max(self.dq_reach, m.end() + 1)
                if not self.epp and is_runaway(text, pos, m.end()):
                    # the lexer ends it at its line end (a string without its closing quote)
                    nl = text.find("\n", pos)
                    pos = nl - 1
                else:
                    pos = m.end() - 1
            pos += 1
        return -1

    def lex_string_parts(self, pos: int, end: int, text_re, interpolate: bool) -> int:
        """Lex the pieces of string content in [pos, end): STRING_TEXT, STRING_VAR and
        INTERP_OPEN … INTERP_CLOSE (with the code tokens in between)."""
        text = self.text
        while pos < end:
            if interpolate and text[pos] == "$":
                if text.startswith("${", pos):
                    self.emit(K.INTERP_OPEN, "${", pos)
                    self.depth += 1
                    if self.depth > MAX_INTERPOLATION_NESTING:
                        self.error(pos, end, "NESTING_TOO_DEEP", what="Interpolations",
                                   limit=MAX_INTERPOLATION_NESTING)
                        self.emit(K.STRING_TEXT, text[pos + 2:end], pos + 2)
                        self.depth -= 1
                        return end
                    # The interpolation may not run past the end of its string (a '#' in it
                    # would otherwise start a comment that swallows the closing quote).
                    saved_n = self.n
                    self.n = end
                    inner = self.lex_code(pos + 2, True)
                    self.n = saved_n
                    self.depth -= 1
                    if inner >= end or text[inner] != "}":
                        # cannot happen for DQ strings (scan_dq_close balanced the braces) but
                        # can in a heredoc body: report and resume after the body part
                        self.error(pos, min(inner, end), "UNCLOSED_INTERPOLATION")
                        return max(inner, end)
                    self.emit(K.INTERP_CLOSE, "}", inner)
                    pos = inner + 1
                    continue
                m = _STRING_VAR_RE.match(text, pos)
                if m is not None:
                    self.emit(K.STRING_VAR, m.group(), pos)
                    pos = m.end()
                    continue
            m = text_re.match(text, pos, end)
            if m is None or m.end() == pos:
                # a lone '$' that the text pattern refused (e.g. '$' at the very end)
                self.emit(K.STRING_TEXT, text[pos], pos)
                pos += 1
                continue
            self.emit(K.STRING_TEXT, m.group(), pos)
            pos = m.end()
        return pos

    # -- heredoc ------------------------------------------------------------------------------
    def lex_heredoc_header(self, pos: int) -> int:
        text = self.text
        m = _HEREDOC_RE.match(text, pos, self.n)
        if m is None:
            # (within the range being lexed: in an interpolation, the text after its '}' is the
            # string's, and an error token reaching into it would take it twice)
            close = text.find(")", pos, self.n)
            nl = text.find("\n", pos, self.n)
            if close >= 0 and (nl < 0 or close < nl):
                end = close + 1
                self.error(pos, end, "HEREDOC_INVALID_SYNTAX", detail="")
            else:
                end = nl if nl >= 0 else self.n
                self.error(pos, end, "HEREDOC_UNCLOSED_PARENTHESIS",
                           following=text[pos:pos + 5].replace("\t", "\\t").replace("\r", "\\r").replace(
                               "\n", "\\n") + "...")
            self.emit(K.ERROR_TOKEN, text[pos:end], pos)
            return end
        end = m.end()
        raw_tag = m.group(1).strip(_BLANKS)
        syntax = m.group(2) or ""
        flags = m.group(3)
        interpolate = False
        tag = raw_tag
        if raw_tag.startswith('"'):
            if len(raw_tag) >= 2 and raw_tag.endswith('"'):
                tag = raw_tag[1:-1]
                interpolate = True
            else:
                self.error(pos, end, "HEREDOC_INVALID_SYNTAX", detail=": unbalanced quote in end tag")
        if tag == "":
            self.error(pos, end, "HEREDOC_EMPTY_ENDTAG")
        escapes: set = set()
        if flags is not None:
            if flags == "":
                escapes = set(_ESCAPE_FLAGS)
            for ch in flags:
                if ch not in _ESCAPE_FLAGS:
                    self.error(pos, end, "HEREDOC_INVALID_ESCAPE", char=ch)
                elif ch in escapes and flags != "":
                    self.error(pos, end, "HEREDOC_MULTIPLE_ESCAPE", char=ch)
                escapes.add(ch)
        hd = Heredoc(pos, tag, syntax, flags or "", frozenset(escapes), interpolate)
        self.heredocs.append(hd)
        self.emit(K.HEREDOC, text[pos:end], pos)
        if tag:
            # Even with bad escape flags the text that follows is the heredoc's, not code.
            # The body starts after the current line, or after the previous heredoc's body when
            # several heredocs share a line.
            self.pending_bodies.append(hd)
        return end

    def flush_heredoc_bodies(self, pos: int) -> int:
        """At the start of the line after heredoc headers: deliver their bodies in order."""
        bodies = self.pending_bodies
        self.pending_bodies = []
        for hd in bodies:
            pos = self.lex_heredoc_body(hd, pos)
        return pos

    def drop_pending_bodies(self) -> None:
        for hd in self.pending_bodies:
            self.error(hd.header_offset, hd.header_offset + 2, "HEREDOC_WITHOUT_TEXT")
        self.pending_bodies = []

    def lex_heredoc_body(self, hd: Heredoc, pos: int) -> int:
        text = self.text
        n = self.n
        tag_re = re.compile(r"([" + _BLANKS + r"]*)(\|)?[" + _BLANKS + r"]*(-)?[" + _BLANKS + r"]*" + re.escape(hd.tag) + r"[" + _BLANKS + r"]*(?:\r?\n|\Z)")
        line = pos
        while line < n:
            m = tag_re.match(text, line)
            if m is not None:
                break
            nl = text.find("\n", line)
            if nl < 0:
                line = n
                break
            line = nl + 1
        else:
            m = None
        if line >= n and m is None:
            m = tag_re.match(text, n) if n > pos else None
        if m is None:
            # Puppet points at the start of the text that has no end tag
            nl = text.find("\n", pos, n)
            self.error(pos, nl if nl >= 0 else n, "HEREDOC_WITHOUT_END_TAGGED_LINE", tag=hd.tag)
            hd.body_offset = pos
            hd.text_end = n
            hd.body_end = n
        else:
            hd.body_offset = pos
            hd.text_end = line
            hd.body_end = m.end()
            hd.margin = len(m.group(1)) if m.group(2) else 0
            hd.trim = bool(m.group(3))
        # Lex the text part into its own token list (pieces for interpolation).
        saved_tokens, saved_trivia, saved_prev = self.tokens, self.trivia, self.prev
        self.tokens, self.trivia = [], []
        if hd.interpolate:
            self.lex_string_parts(pos, hd.text_end, _heredoc_text_re(hd.escapes), True)
        elif hd.text_end > pos:
            self.emit(K.STRING_TEXT, text[pos:hd.text_end], pos)
        hd.tokens = self.tokens
        hd.trailing = tuple(self.trivia)
        self.tokens, self.trivia, self.prev = saved_tokens, saved_trivia, saved_prev
        self.trivia.append((K.HEREDOC_BODY, text[pos:hd.body_end], hd))
        return hd.body_end

    # -- EPP ---------------------------------------------------------------------------------
    def lex_epp(self) -> None:
        text = self.text
        n = self.n
        pos = 0
        trim_next = False
        while pos < n:
            if trim_next:
                # '-%>' removes the blanks and one line break that follow it
                m = _EPP_TRIM_RE.match(text, pos)
                if m is not None and m.end() > pos:
                    self.trivia.append(green_token(K.WHITESPACE, m.group()))
                    pos = m.end()
                trim_next = False
                if pos >= n:
                    break
            m = _EPP_TEXT_RE.match(text, pos)
            if m is not None and m.end() > pos:
                chunk = m.group()
                end = m.end()
                if text.startswith("<%-", end):
                    # '<%-' trims the blanks right before it (whatever precedes them on the
                    # line: Puppet renders 'a  <%- x -%>' as 'a')
                    stripped = chunk.rstrip(" \t")
                    if stripped != chunk:
                        if stripped:
                            self.emit(K.EPP_TEXT, stripped, pos)
                        self.trivia.append((K.WHITESPACE, chunk[len(stripped):]))
                        pos = end
                        continue
                self.emit(K.EPP_TEXT, chunk, pos)
                pos = end
                continue
            if pos >= n:
                break
            # at a tag or at a lone '%'
            if text.startswith("<%#", pos):
                close = text.find("%>", pos + 3)
                if close < 0:
                    self.error(pos, n, "EPP_UNCLOSED_COMMENT")
                    self.trivia.append((K.EPP_COMMENT, text[pos:]))
                    pos = n
                    break
                end = close + 2
                if text.startswith("-%>", close - 1):
                    trim_next = True
                self.trivia.append((K.EPP_COMMENT, text[pos:end]))
                pos = end
                continue
            render = text.startswith("<%=", pos)
            opened = pos
            if render:
                self.emit(K.RENDER_EXPR, "<%=", pos)
                pos = self.lex_code(pos + 3, False)
            elif text.startswith("<%", pos):
                tag = "<%-" if text.startswith("<%-", pos) else "<%"
                self.trivia.append((K.EPP_OPEN, tag))
                pos = self.lex_code(pos + len(tag), False)
            else:
                # a '%' that the text pattern could not take
                self.emit(K.EPP_TEXT, text[pos], pos)
                pos += 1
                continue
            if pos >= n:
                self.error(opened, n, "EPP_UNCLOSED_TAG")
                break
            close_text = "-%>" if text.startswith("-%>", pos) else "%>"
            if render:
                self.emit(K.EPP_END_TRIM if close_text == "-%>" else K.EPP_END, close_text, pos)
            else:
                self.trivia.append((K.EPP_CLOSE, close_text))
            pos += len(close_text)
            trim_next = close_text == "-%>"

    def finish(self) -> LexResult:
        if self.pending_bodies:
            self.drop_pending_bodies()
        self.emit(K.EOF, "", self.n)
        return LexResult(self.tokens, self.errors, self.heredocs, self.runaways)


def is_runaway(text: str, pos: int, close: int) -> bool:
    """Is the quoted string from ``pos`` to ``close`` (just after its closing quote) a runaway:
    does it run over lines and is its closing quote followed by what cannot follow a string
    in code (AFTER_STRING)?"""
    return close < len(text) and text[close] not in AFTER_STRING and text.find("\n", pos, close) >= 0


# Lexical errors that stay inside the token that has them; any other (an unclosed quote or
# comment, a heredoc problem) may have swallowed text beyond a lexed range.
LOCAL_LEX_ERRORS = frozenset({"ILLEGAL_CHARACTER", "ILLEGAL_NUMBER", "INVALID_HEX_NUMBER",
                              "INVALID_DECIMAL_NUMBER", "ILLEGAL_CLASS_REFERENCE",
                              "INVALID_OCTAL_NUMBER", "ILLEGAL_FULLY_QUALIFIED_NAME", "ILLEGAL_VAR_NAME"})
# ... and those a lexed range may hold and still be what the whole text gives there: a quote
# that is never closed, or a runaway string, ends at its line end, which a range that was not
# cut holds (where the decision looked is in LexResult.runaways).
RANGE_LEX_ERRORS = LOCAL_LEX_ERRORS | {"UNCLOSED_QUOTE"}


def same_extent(text: str, kind: str, offset: int, end: int) -> bool:
    """Is the text at [offset, end) still exactly one token of ``kind``, for a token whose
    extent only its own text decides (a comment, a single-quoted string, a text piece of a
    double-quoted string), after an edit inside it?"""
    if kind == K.COMMENT:
        m = _COMMENT_RE.match(text, offset)
    elif kind == K.ML_COMMENT:
        m = _ML_COMMENT_RE.match(text, offset)
    elif kind == K.STRING:
        m = _SQ_RE.match(text, offset) if text.startswith("'", offset) else None
    elif kind == K.STRING_TEXT:
        m = _DQ_TEXT_RE.match(text, offset)
    else:
        return False
    return m is not None and m.end() == end


def next_tokens(text: str, pos: int, prev_kind: str | None, count: int, tasks: bool = False,
                limit: int = 1 << 16) -> list | None:
    """The first ``count`` significant tokens at or after ``pos`` as the whole text lexes them
    after a token of kind ``prev_kind`` (fewer, then EOF, at the end of the text): what follows a
    reparsed range.  Lexed in windows that end at a line end, so that only a construct spanning
    lines can be cut by a window, and such a cut shows as a lexical error; None when no window
    up to ``limit`` characters gives a clean answer (a line longer than that is never lexed here:
    on a hostile 200,000-character line each call would lex it whole)."""
    n = len(text)
    window = 256
    while True:
        stop = text.find("\n", pos + window)
        stop = n if stop < 0 else stop + 1
        if stop - pos > limit:
            return None
        lx = _Lexer(text, False, tasks)
        lx.prev = prev_kind
        lx.n = lx.limit = stop
        lx.lex_code(pos, False)
        toks = lx.tokens
        if stop >= n:   # lexed to the end: exact
            return toks[:count] + ([(K.EOF, "", n, tuple(lx.trivia))] if len(toks) < count else [])
        if not lx.cut and not lx.errors and not lx.pending_bodies and len(toks) > count:
            return toks[:count]   # the window's last token may be cut; the ones before are whole
        if window > limit:
            return None
        window *= 4


def regex_may_run_into(text: str, pos: int) -> bool:
    """Could a regular expression that starts before ``pos`` on its line run over ``pos``?  A
    '/' lexed as a division when nothing closed it becomes a regex once an edit at or after
    ``pos`` puts a '/' on the line, so a range starting at ``pos`` cannot be lexed on its own.
    (Any '/' counts, even one inside a string: the token kinds before ``pos`` are not known.)"""
    line_start = text.rfind("\n", 0, pos) + 1
    slash = text.find("/", line_start, pos)
    while slash >= 0:
        m = _REGEX_RE.match(text, slash)
        if m is not None and m.end() > pos:
            return True
        slash = text.find("/", slash + 1, pos)
    return False


def lex_range(text: str, start: int, end: int, prev_kind: str | None, tasks: bool = False,
              forced: frozenset = frozenset()) -> LexResult | None:
    """Lex ``text[start:end]`` as it lexes inside the whole text: after a token of kind
    ``prev_kind`` and with the characters before ``start`` in view (for LISTSTART, WSLPAREN and
    regex-or-division).  Offsets are those of the whole text.  None when a regular expression
    may run over either end of the range: one starting in it that ends past ``end`` (a regex
    may hold blanks, so ``end`` falling on a blank does not show the cut; a quote or comment
    cut there is reported as unclosed), or a '/' before ``start`` on its line that the text
    from ``start`` on may close (a '/' lexed as a division before may be a regex now).
    ``forced``: the offsets of quotes taken as never closed, as ``lex`` takes them."""
    if regex_may_run_into(text, start):
        return None
    lx = _Lexer(text, False, tasks, forced)
    lx.prev = prev_kind
    lx.n = lx.limit = end
    pos = lx.lex_code(start, False)
    while pos < end:
        lx.emit(K.ERROR_TOKEN, text[pos], pos)
        pos = lx.lex_code(pos + 1, False)
    return None if lx.cut else lx.finish()


_heredoc_text_res: dict = {}


def _heredoc_text_re(escapes: frozenset):
    """The pattern for literal text in an interpolating heredoc.  A backslash only escapes
    what the heredoc's flags enable, so with no '$' flag "\\$x" is a backslash followed by
    an interpolation of $x."""
    pat = _heredoc_text_res.get(escapes)
    if pat is None:
        pairs = ""
        if escapes:
            chars = "".join(re.escape(c) for c in sorted(escapes - {"L"})) + "\\\\"
            pairs = r"\\[" + chars + "]|"
            if "L" in escapes:
                pairs += r"\\\r?\n|"
        pat = re.compile(r"(?:[^\\$]|" + pairs + r"\\|\$(?![{\w]|::\w))+", re.DOTALL)
        _heredoc_text_res[escapes] = pat
    return pat


def lex(text: str, epp: bool = False, tasks: bool = False, unclosed: frozenset = frozenset()) -> LexResult:
    """Tokenize Puppet source (or an EPP template when ``epp``).  Never raises.

    ``unclosed`` names offsets of quotes to treat as never closed (the parser's recovery
    tries this for strings that run over lines before a syntax error)."""
    lx = _Lexer(text, epp, tasks, unclosed)
    if epp:
        lx.lex_epp()
    else:
        pos = lx.lex_code(0, False)
        while pos < lx.n:
            # a stray '}' can only stop lex_code in interpolation mode, so this is defensive
            lx.emit(K.ERROR_TOKEN, text[pos], pos)
            pos = lx.lex_code(pos + 1, False)
    return lx.finish()
