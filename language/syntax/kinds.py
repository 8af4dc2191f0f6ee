"""Token and node kinds of the Puppet syntax tree.

Kinds are plain interned strings so that they print readably in tree dumps and compare fast.
Token kinds follow the names of Puppet's own lexer where one exists (NAME, CLASSREF, LISTSTART,
SELBRACE, WSLPAREN, FARROW, …); the tokens Puppet folds into composite ones (the pieces of a
double-quoted string, EPP tags, heredoc bodies) are kept separate here so that every character
of the source lives in exactly one token and the text round-trips.
"""

from typing import Final

# ---- trivia: kept in the tree, skipped by the parser ----------------------------------------
WHITESPACE: Final = "WHITESPACE"
NEWLINE: Final = "NEWLINE"
COMMENT: Final = "COMMENT"              # '# …' up to (not including) the line break
ML_COMMENT: Final = "ML_COMMENT"        # '/* … */'
HEREDOC_BODY: Final = "HEREDOC_BODY"    # the out-of-band text of a heredoc (a node; see lexer)
EPP_COMMENT: Final = "EPP_COMMENT"      # '<%# … %>'
EPP_OPEN: Final = "EPP_OPEN"            # '<%' or '<%-' (start of a code tag that renders nothing)
EPP_CLOSE: Final = "EPP_CLOSE"          # '%>' or '-%>' closing a code tag
BOM: Final = "BOM"                      # a byte order mark at the start (always an error)

TRIVIA: frozenset[str] = frozenset({WHITESPACE, NEWLINE, COMMENT, ML_COMMENT, HEREDOC_BODY, EPP_COMMENT,
                    EPP_OPEN, EPP_CLOSE, BOM})

# ---- punctuation and operators --------------------------------------------------------------
LBRACK: Final = "LBRACK"
LISTSTART: Final = "LISTSTART"
RBRACK: Final = "RBRACK"
LBRACE: Final = "LBRACE"
SELBRACE: Final = "SELBRACE"
RBRACE: Final = "RBRACE"
LPAREN: Final = "LPAREN"
WSLPAREN: Final = "WSLPAREN"
RPAREN: Final = "RPAREN"
EQUALS: Final = "EQUALS"
APPENDS: Final = "APPENDS"
DELETES: Final = "DELETES"
ISEQUAL: Final = "ISEQUAL"
NOTEQUAL: Final = "NOTEQUAL"
MATCH: Final = "MATCH"
NOMATCH: Final = "NOMATCH"
GREATEREQUAL: Final = "GREATEREQUAL"
GREATERTHAN: Final = "GREATERTHAN"
LESSEQUAL: Final = "LESSEQUAL"
LESSTHAN: Final = "LESSTHAN"
FARROW: Final = "FARROW"
PARROW: Final = "PARROW"
LSHIFT: Final = "LSHIFT"
RSHIFT: Final = "RSHIFT"
LLCOLLECT: Final = "LLCOLLECT"
LCOLLECT: Final = "LCOLLECT"
RRCOLLECT: Final = "RRCOLLECT"
RCOLLECT: Final = "RCOLLECT"
PLUS: Final = "PLUS"
MINUS: Final = "MINUS"
DIV: Final = "DIV"
TIMES: Final = "TIMES"
MODULO: Final = "MODULO"
NOT: Final = "NOT"
DOT: Final = "DOT"
PIPE: Final = "PIPE"
AT: Final = "AT"
ATAT: Final = "ATAT"
COLON: Final = "COLON"
COMMA: Final = "COMMA"
SEMIC: Final = "SEMIC"
QMARK: Final = "QMARK"
TILDE: Final = "TILDE"
IN_EDGE: Final = "IN_EDGE"              # ->
IN_EDGE_SUB: Final = "IN_EDGE_SUB"      # ~>
OUT_EDGE: Final = "OUT_EDGE"            # <-
OUT_EDGE_SUB: Final = "OUT_EDGE_SUB"    # <~

# ---- words, literals ----------------------------------------------------------------------
NAME: Final = "NAME"
WORD: Final = "WORD"
CLASSREF: Final = "CLASSREF"
VARIABLE: Final = "VARIABLE"            # '$x'; inside '${x}' the bare name 'x' (the auto-variable rule)
NUMBER: Final = "NUMBER"
STRING: Final = "STRING"                # a whole single-quoted string
REGEX: Final = "REGEX"
BOOLEAN: Final = "BOOLEAN"

# ---- keywords ----------------------------------------------------------------------------
AND: Final = "AND"
CASE: Final = "CASE"
CLASS: Final = "CLASS"
DEFAULT: Final = "DEFAULT"
DEFINE: Final = "DEFINE"
ELSE: Final = "ELSE"
ELSIF: Final = "ELSIF"
FUNCTION: Final = "FUNCTION"
IF: Final = "IF"
IN: Final = "IN"
INHERITS: Final = "INHERITS"
NODE: Final = "NODE"
OR: Final = "OR"
TYPE: Final = "TYPE"
UNDEF: Final = "UNDEF"
UNLESS: Final = "UNLESS"
PRIVATE: Final = "PRIVATE"
ATTR: Final = "ATTR"
PLAN: Final = "PLAN"                    # only a keyword when tasks (Bolt plans) are enabled
APPLY: Final = "APPLY"                  # likewise

KEYWORDS: dict[str, str] = {
    "and": AND, "case": CASE, "class": CLASS, "default": DEFAULT, "define": DEFINE,
    "else": ELSE, "elsif": ELSIF, "function": FUNCTION, "if": IF, "in": IN,
    "inherits": INHERITS, "node": NODE, "or": OR, "type": TYPE, "undef": UNDEF,
    "unless": UNLESS, "private": PRIVATE, "attr": ATTR, "true": BOOLEAN, "false": BOOLEAN,
}
TASK_KEYWORDS: dict[str, str] = {"plan": PLAN, "apply": APPLY}
KEYWORD_KINDS: frozenset[str] = frozenset(KEYWORDS.values()) | frozenset(TASK_KEYWORDS.values())

# ---- double-quoted strings (one node, these pieces inside) ---------------------------------
DQ_OPEN: Final = "DQ_OPEN"              # '"'
DQ_CLOSE: Final = "DQ_CLOSE"            # '"'
STRING_TEXT: Final = "STRING_TEXT"      # raw text between interpolations (escapes not yet applied)
STRING_VAR: Final = "STRING_VAR"        # '$name' inside a string
INTERP_OPEN: Final = "INTERP_OPEN"      # '${'
INTERP_CLOSE: Final = "INTERP_CLOSE"    # '}' balancing '${'

# ---- heredoc -------------------------------------------------------------------------------
HEREDOC: Final = "HEREDOC"              # the '@(TAG:syntax/flags)' header
HEREDOC_END: Final = "HEREDOC_END"      # the end-tag line (margin, '|', '-', tag, line break)

# ---- EPP -----------------------------------------------------------------------------------
EPP_TEXT: Final = "EPP_TEXT"            # template text (raw; '<%%' and '%%>' not yet unescaped)
RENDER_EXPR: Final = "RENDER_EXPR"      # '<%='
EPP_END: Final = "EPP_END"              # '%>' closing a '<%=' tag
EPP_END_TRIM: Final = "EPP_END_TRIM"    # '-%>' closing a '<%=' tag

# ---- special -------------------------------------------------------------------------------
ERROR_TOKEN: Final = "ERROR_TOKEN"      # text the lexer could not make sense of (already reported)
EOF: Final = "EOF"

# ---- nodes ---------------------------------------------------------------------------------
SOURCE_FILE: Final = "SOURCE_FILE"
EPP_FILE: Final = "EPP_FILE"
BLOCK: Final = "BLOCK"                  # '{' statements '}'
STATEMENTS: Final = "STATEMENTS"        # a statement list without braces (file level)
ERROR: Final = "ERROR"                  # tokens skipped by recovery

LITERAL: Final = "LITERAL"              # number, boolean, undef, default, single-quoted string, regex
QNAME: Final = "QNAME"                  # bare lower-case word used as a value
RESERVED_WORD: Final = "RESERVED_WORD"
TYPE_REF: Final = "TYPE_REF"            # CLASSREF
VARIABLE_EXPR: Final = "VARIABLE_EXPR"
DQ_STRING: Final = "DQ_STRING"
INTERPOLATION: Final = "INTERPOLATION"  # '${ expr }' or '$name' inside a string
HEREDOC_EXPR: Final = "HEREDOC_EXPR"
HEREDOC_TEXT: Final = "HEREDOC_TEXT"    # the parsed content of a heredoc body
ARRAY: Final = "ARRAY"
HASH: Final = "HASH"
HASH_ENTRY: Final = "HASH_ENTRY"
PAREN_EXPR: Final = "PAREN_EXPR"
BINARY_EXPR: Final = "BINARY_EXPR"
UNARY_EXPR: Final = "UNARY_EXPR"        # '-x', '!x', '*x' (unfold)
ASSIGNMENT: Final = "ASSIGNMENT"
RELATIONSHIP: Final = "RELATIONSHIP"
ACCESS_EXPR: Final = "ACCESS_EXPR"
SELECTOR_EXPR: Final = "SELECTOR_EXPR"
SELECTOR_ENTRY: Final = "SELECTOR_ENTRY"
CALL_EXPR: Final = "CALL_EXPR"          # f(args) lambda?
STATEMENT_CALL: Final = "STATEMENT_CALL"  # notice x, y (call without parentheses)
METHOD_CALL: Final = "METHOD_CALL"      # x.f(args) lambda?
ARG_LIST: Final = "ARG_LIST"
LAMBDA: Final = "LAMBDA"
PARAM_LIST: Final = "PARAM_LIST"
PARAM: Final = "PARAM"
RETURN_TYPE: Final = "RETURN_TYPE"
IF_EXPR: Final = "IF_EXPR"
ELSIF_CLAUSE: Final = "ELSIF_CLAUSE"
ELSE_CLAUSE: Final = "ELSE_CLAUSE"
UNLESS_EXPR: Final = "UNLESS_EXPR"
CASE_EXPR: Final = "CASE_EXPR"
CASE_OPTION: Final = "CASE_OPTION"
RESOURCE_EXPR: Final = "RESOURCE_EXPR"
RESOURCE_BODY: Final = "RESOURCE_BODY"
RESOURCE_DEFAULTS: Final = "RESOURCE_DEFAULTS"
RESOURCE_OVERRIDE: Final = "RESOURCE_OVERRIDE"
ATTRIBUTE_OP: Final = "ATTRIBUTE_OP"    # name => value, name +> value, * => value
COLLECT_EXPR: Final = "COLLECT_EXPR"
COLLECT_QUERY: Final = "COLLECT_QUERY"
CLASS_DEF: Final = "CLASS_DEF"
DEFINE_DEF: Final = "DEFINE_DEF"
NODE_DEF: Final = "NODE_DEF"
HOST_MATCHES: Final = "HOST_MATCHES"
HOST_NAME: Final = "HOST_NAME"
FUNCTION_DEF: Final = "FUNCTION_DEF"
PLAN_DEF: Final = "PLAN_DEF"
TYPE_ALIAS: Final = "TYPE_ALIAS"
TYPE_DEFINITION: Final = "TYPE_DEFINITION"
APPLY_EXPR: Final = "APPLY_EXPR"
PARENT: Final = "PARENT"                # 'inherits x'
EPP_PARAMS: Final = "EPP_PARAMS"
EPP_RENDER_STRING: Final = "EPP_RENDER_STRING"
EPP_RENDER_EXPR: Final = "EPP_RENDER_EXPR"
