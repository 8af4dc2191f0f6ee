"""Token and node kinds of the Puppet syntax tree.

Kinds are plain interned strings so that they print readably in tree dumps and compare fast.
Token kinds follow the names of Puppet's own lexer where one exists (NAME, CLASSREF, LISTSTART,
SELBRACE, WSLPAREN, FARROW, …); the tokens Puppet folds into composite ones (the pieces of a
double-quoted string, EPP tags, heredoc bodies) are kept separate here so that every character
of the source lives in exactly one token and the text round-trips.
"""

# ---- trivia: kept in the tree, skipped by the parser ----------------------------------------
WHITESPACE = "WHITESPACE"
NEWLINE = "NEWLINE"
COMMENT = "COMMENT"              # '# …' up to (not including) the line break
ML_COMMENT = "ML_COMMENT"        # '/* … */'
HEREDOC_BODY = "HEREDOC_BODY"    # the out-of-band text of a heredoc (a node; see lexer)
EPP_COMMENT = "EPP_COMMENT"      # '<%# … %>'
EPP_OPEN = "EPP_OPEN"            # '<%' or '<%-' (start of a code tag that renders nothing)
EPP_CLOSE = "EPP_CLOSE"          # '%>' or '-%>' closing a code tag
BOM = "BOM"                      # a byte order mark at the start (always an error)

TRIVIA: frozenset[str] = frozenset({WHITESPACE, NEWLINE, COMMENT, ML_COMMENT, HEREDOC_BODY, EPP_COMMENT,
                    EPP_OPEN, EPP_CLOSE, BOM})

# ---- punctuation and operators --------------------------------------------------------------
LBRACK = "LBRACK"
LISTSTART = "LISTSTART"
RBRACK = "RBRACK"
LBRACE = "LBRACE"
SELBRACE = "SELBRACE"
RBRACE = "RBRACE"
LPAREN = "LPAREN"
WSLPAREN = "WSLPAREN"
RPAREN = "RPAREN"
EQUALS = "EQUALS"
APPENDS = "APPENDS"
DELETES = "DELETES"
ISEQUAL = "ISEQUAL"
NOTEQUAL = "NOTEQUAL"
MATCH = "MATCH"
NOMATCH = "NOMATCH"
GREATEREQUAL = "GREATEREQUAL"
GREATERTHAN = "GREATERTHAN"
LESSEQUAL = "LESSEQUAL"
LESSTHAN = "LESSTHAN"
FARROW = "FARROW"
PARROW = "PARROW"
LSHIFT = "LSHIFT"
RSHIFT = "RSHIFT"
LLCOLLECT = "LLCOLLECT"
LCOLLECT = "LCOLLECT"
RRCOLLECT = "RRCOLLECT"
RCOLLECT = "RCOLLECT"
PLUS = "PLUS"
MINUS = "MINUS"
DIV = "DIV"
TIMES = "TIMES"
MODULO = "MODULO"
NOT = "NOT"
DOT = "DOT"
PIPE = "PIPE"
AT = "AT"
ATAT = "ATAT"
COLON = "COLON"
COMMA = "COMMA"
SEMIC = "SEMIC"
QMARK = "QMARK"
TILDE = "TILDE"
IN_EDGE = "IN_EDGE"              # ->
IN_EDGE_SUB = "IN_EDGE_SUB"      # ~>
OUT_EDGE = "OUT_EDGE"            # <-
OUT_EDGE_SUB = "OUT_EDGE_SUB"    # <~

# ---- words, literals ----------------------------------------------------------------------
NAME = "NAME"
WORD = "WORD"
CLASSREF = "CLASSREF"
VARIABLE = "VARIABLE"            # '$x'; inside '${x}' the bare name 'x' (the auto-variable rule)
NUMBER = "NUMBER"
STRING = "STRING"                # a whole single-quoted string
REGEX = "REGEX"
BOOLEAN = "BOOLEAN"

# ---- keywords ----------------------------------------------------------------------------
AND = "AND"
CASE = "CASE"
CLASS = "CLASS"
DEFAULT = "DEFAULT"
DEFINE = "DEFINE"
ELSE = "ELSE"
ELSIF = "ELSIF"
FUNCTION = "FUNCTION"
IF = "IF"
IN = "IN"
INHERITS = "INHERITS"
NODE = "NODE"
OR = "OR"
TYPE = "TYPE"
UNDEF = "UNDEF"
UNLESS = "UNLESS"
PRIVATE = "PRIVATE"
ATTR = "ATTR"
PLAN = "PLAN"                    # only a keyword when tasks (Bolt plans) are enabled
APPLY = "APPLY"                  # likewise

KEYWORDS: dict[str, str] = {
    "and": AND, "case": CASE, "class": CLASS, "default": DEFAULT, "define": DEFINE,
    "else": ELSE, "elsif": ELSIF, "function": FUNCTION, "if": IF, "in": IN,
    "inherits": INHERITS, "node": NODE, "or": OR, "type": TYPE, "undef": UNDEF,
    "unless": UNLESS, "private": PRIVATE, "attr": ATTR, "true": BOOLEAN, "false": BOOLEAN,
}
TASK_KEYWORDS: dict[str, str] = {"plan": PLAN, "apply": APPLY}
KEYWORD_KINDS: frozenset[str] = frozenset(KEYWORDS.values()) | frozenset(TASK_KEYWORDS.values())

# ---- double-quoted strings (one node, these pieces inside) ---------------------------------
DQ_OPEN = "DQ_OPEN"              # '"'
DQ_CLOSE = "DQ_CLOSE"            # '"'
STRING_TEXT = "STRING_TEXT"      # raw text between interpolations (escapes not yet applied)
STRING_VAR = "STRING_VAR"        # '$name' inside a string
INTERP_OPEN = "INTERP_OPEN"      # '${'
INTERP_CLOSE = "INTERP_CLOSE"    # '}' balancing '${'

# ---- heredoc -------------------------------------------------------------------------------
HEREDOC = "HEREDOC"              # the '@(TAG:syntax/flags)' header
HEREDOC_END = "HEREDOC_END"      # the end-tag line (margin, '|', '-', tag, line break)

# ---- EPP -----------------------------------------------------------------------------------
EPP_TEXT = "EPP_TEXT"            # template text (raw; '<%%' and '%%>' not yet unescaped)
RENDER_EXPR = "RENDER_EXPR"      # '<%='
EPP_END = "EPP_END"              # '%>' closing a '<%=' tag
EPP_END_TRIM = "EPP_END_TRIM"    # '-%>' closing a '<%=' tag

# ---- special -------------------------------------------------------------------------------
ERROR_TOKEN = "ERROR_TOKEN"      # text the lexer could not make sense of (already reported)
EOF = "EOF"

# ---- nodes ---------------------------------------------------------------------------------
SOURCE_FILE = "SOURCE_FILE"
EPP_FILE = "EPP_FILE"
BLOCK = "BLOCK"                  # '{' statements '}'
STATEMENTS = "STATEMENTS"        # a statement list without braces (file level)
ERROR = "ERROR"                  # tokens skipped by recovery

LITERAL = "LITERAL"              # number, boolean, undef, default, single-quoted string, regex
QNAME = "QNAME"                  # bare lower-case word used as a value
RESERVED_WORD = "RESERVED_WORD"
TYPE_REF = "TYPE_REF"            # CLASSREF
VARIABLE_EXPR = "VARIABLE_EXPR"
DQ_STRING = "DQ_STRING"
INTERPOLATION = "INTERPOLATION"  # '${ expr }' or '$name' inside a string
HEREDOC_EXPR = "HEREDOC_EXPR"
HEREDOC_TEXT = "HEREDOC_TEXT"    # the parsed content of a heredoc body
ARRAY = "ARRAY"
HASH = "HASH"
HASH_ENTRY = "HASH_ENTRY"
PAREN_EXPR = "PAREN_EXPR"
BINARY_EXPR = "BINARY_EXPR"
UNARY_EXPR = "UNARY_EXPR"        # '-x', '!x', '*x' (unfold)
ASSIGNMENT = "ASSIGNMENT"
RELATIONSHIP = "RELATIONSHIP"
ACCESS_EXPR = "ACCESS_EXPR"
SELECTOR_EXPR = "SELECTOR_EXPR"
SELECTOR_ENTRY = "SELECTOR_ENTRY"
CALL_EXPR = "CALL_EXPR"          # f(args) lambda?
STATEMENT_CALL = "STATEMENT_CALL"  # notice x, y (call without parentheses)
METHOD_CALL = "METHOD_CALL"      # x.f(args) lambda?
ARG_LIST = "ARG_LIST"
LAMBDA = "LAMBDA"
PARAM_LIST = "PARAM_LIST"
PARAM = "PARAM"
RETURN_TYPE = "RETURN_TYPE"
IF_EXPR = "IF_EXPR"
ELSIF_CLAUSE = "ELSIF_CLAUSE"
ELSE_CLAUSE = "ELSE_CLAUSE"
UNLESS_EXPR = "UNLESS_EXPR"
CASE_EXPR = "CASE_EXPR"
CASE_OPTION = "CASE_OPTION"
RESOURCE_EXPR = "RESOURCE_EXPR"
RESOURCE_BODY = "RESOURCE_BODY"
RESOURCE_DEFAULTS = "RESOURCE_DEFAULTS"
RESOURCE_OVERRIDE = "RESOURCE_OVERRIDE"
ATTRIBUTE_OP = "ATTRIBUTE_OP"    # name => value, name +> value, * => value
COLLECT_EXPR = "COLLECT_EXPR"
COLLECT_QUERY = "COLLECT_QUERY"
CLASS_DEF = "CLASS_DEF"
DEFINE_DEF = "DEFINE_DEF"
NODE_DEF = "NODE_DEF"
HOST_MATCHES = "HOST_MATCHES"
HOST_NAME = "HOST_NAME"
FUNCTION_DEF = "FUNCTION_DEF"
PLAN_DEF = "PLAN_DEF"
TYPE_ALIAS = "TYPE_ALIAS"
TYPE_DEFINITION = "TYPE_DEFINITION"
APPLY_EXPR = "APPLY_EXPR"
PARENT = "PARENT"                # 'inherits x'
EPP_PARAMS = "EPP_PARAMS"
EPP_RENDER_STRING = "EPP_RENDER_STRING"
EPP_RENDER_EXPR = "EPP_RENDER_EXPR"
