"""The one registry of diagnostics: every code puppet-ls reports, its severity and its text.

Codes reuse Puppet's issue codes where Puppet has one (e.g. ``ILLEGAL_NUMERIC_ASSIGNMENT``,
``DUPLICATE_PARAMETER``), so a user can look them up; texts follow Puppet's wording so that
people who know Puppet's messages recognise them.  Other modules never build message text
themselves: they call ``issue(CODE, **args)``.
"""
from __future__ import annotations

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"
INFO = "info"


@dataclass(frozen=True, slots=True)
class Issue:
    code: str
    severity: str
    template: str
    doc: str = ""

    def format(self, **args) -> str:
        return self.template.format(**args)


_ISSUES: dict[str, Issue] = {}


def _def(code: str, severity: str, template: str, doc: str = "") -> Issue:
    issue_ = Issue(code, severity, template, doc)
    _ISSUES[code] = issue_
    return issue_


# ---- lexical ------------------------------------------------------------------------------------
_def("UNCLOSED_COMMENT", ERROR, "Unclosed multi-line comment")
_def("ILLEGAL_CHARACTER", ERROR, "Illegal character {char}")
_def("ILLEGAL_BOM", ERROR, "Illegal {kind} Byte Order mark at beginning of input: [{bytes}] - remove these from the puppet source")
_def("ILLEGAL_NAME", ERROR, "Illegal fully qualified name '{name}'")
_def("ILLEGAL_VARIABLE", ERROR, "Illegal variable name, '$' must be followed by a name")
_def("ILLEGAL_NUMBER", ERROR, "Illegal number '{text}'")
_def("INVALID_HEX_NUMBER", ERROR, "Not a valid hex number {text}")
_def("INVALID_OCTAL_NUMBER", ERROR, "Not a valid octal number {text}")
_def("UNCLOSED_QUOTE", ERROR, "Unclosed quote after '{quote}' followed by '{following}'")
_def("NESTING_TOO_DEEP", ERROR, "Interpolation nested too deeply")
_def("UNCLOSED_INTERPOLATION", ERROR, "Unclosed interpolation '${{'")
_def("HEREDOC_INVALID_SYNTAX", ERROR, "Invalid heredoc: {detail}")
_def("HEREDOC_EMPTY_ENDTAG", ERROR, "Heredoc: the end tag may not be empty")
_def("HEREDOC_INVALID_ESCAPE", ERROR, "Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got '{char}'")
_def("HEREDOC_MULTIPLE_ESCAPE", ERROR, "An escape char for @() may only appear once. Got '{char}'")
_def("HEREDOC_WITHOUT_END_TAGGED_LINE", ERROR, "Heredoc without end-tagged line: no line with '{tag}' after the @(...)")
_def("HEREDOC_WITHOUT_TEXT", ERROR, "Heredoc without any following lines of text")
_def("EPP_UNCLOSED_COMMENT", ERROR, "Unbalanced epp comment: '<%#' without '%>'")
_def("EPP_UNCLOSED_TAG", ERROR, "Unbalanced epp tag, reached end of input without finding a closing '%>'")

# ---- files -------------------------------------------------------------------------------------
_def("FILE_UNREADABLE", ERROR, "Cannot read {path}: {reason}")
_def("FILE_IS_DIRECTORY", ERROR, "{path} is a directory, not a file")
_def("NOT_UTF8", ERROR, "The file is not valid UTF-8: byte {value} at byte offset {byte} (Puppet source must be UTF-8)")

# ---- syntax -------------------------------------------------------------------------------------
_def("SYNTAX_ERROR", ERROR, "Syntax error at {at}")
_def("UNMATCHED_BRACE", ERROR, "Syntax error at '}}': no '{{' to close")
_def("MISSING_RBRACE", ERROR, "Missing '}}' to close the '{{' on line {line}")
_def("ARGS_TO_NON_CALL", ERROR, "attempt to pass argument list to the function '{name}' which cannot be called without parentheses")
_def("ILLEGAL_COMMA", ERROR, "illegal comma separated argument list")
_def("NOT_VIRTUALIZEABLE", ERROR, "{which} can only be applied to a Resource Expression")
_def("RESOURCE_WITHOUT_TITLE", ERROR, "Syntax error: resource body without title or hash with +>")
_def("UNLESS_ELSIF", ERROR, "elsif not supported in unless expression")
_def("KEYWORD_AS_NAME", ERROR, "'{word}' keyword not allowed at this location")
_def("QUOTED_NAME", ERROR, "A quoted string is not valid as a name here")

# ---- validation (parses, but is not legal Puppet) -----------------------------------------------
_def("ILLEGAL_ASSIGNMENT", ERROR, "Illegal attempt to assign to '{what}'. Not an assignable reference")
_def("ILLEGAL_NUMERIC_ASSIGNMENT", ERROR, "Illegal attempt to assign to the numeric match result variable '${name}'. Numeric variables are not assignable")
_def("CROSS_SCOPE_ASSIGNMENT", ERROR, "Illegal attempt to assign to '{name}'. Cannot assign to variables in other namespaces")
_def("ILLEGAL_RESERVED_ASSIGNMENT", ERROR, "Attempt to assign to a reserved variable name: '${name}'")
_def("ILLEGAL_BUILTIN_ASSIGNMENT", ERROR, "Cannot reassign built-in variable '${name}'")
_def("APPENDS_DELETES_NO_LONGER_SUPPORTED", ERROR, "The operator '{op}' is no longer supported. See http://links.puppet.com/remove-plus-equals")
_def("ILLEGAL_VAR_NAME", ERROR, "Illegal variable name, The given name '{name}' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/")
_def("ILLEGAL_NUMERIC_VAR_NAME", ERROR, "Illegal numeric variable name, The given name '{name}' must be a decimal value if it starts with a digit 0-9")
_def("DUPLICATE_PARAMETER", ERROR, "The parameter '{name}' is declared more than once in the parameter list")
_def("CAPTURES_REST_NOT_LAST", ERROR, "Parameter ${name} is not last, and has 'captures rest'")
_def("CAPTURES_REST_NOT_SUPPORTED", ERROR, "Parameter ${name} has 'captures rest' - not supported in {container}")
_def("RESERVED_PARAMETER", ERROR, "The parameter ${name} redefines a built in parameter in {container}")
_def("DUPLICATE_DEFAULT", ERROR, "This {container} already has a 'default' entry - this is a duplicate")
_def("DUPLICATE_ATTRIBUTE", ERROR, "The attribute '{name}' has already been set")
_def("ILLEGAL_ATTRIBUTE_APPEND", ERROR, "Illegal +> operation on attribute {name}. This operator can not be used in {container}")
_def("NOT_TOP_LEVEL", ERROR, "Classes, definitions, and nodes may only appear at toplevel or inside other classes")
_def("NOT_ABSOLUTE_TOP_LEVEL", ERROR, "{what} may only appear at toplevel")
_def("NOT_RVALUE", ERROR, "Invalid use of expression. {what} does not produce a value")
_def("IDEM_EXPRESSION_NOT_LAST", ERROR, "This {what} has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)")
_def("ILLEGAL_HOSTNAME_CHARS", ERROR, "The hostname '{name}' contains illegal characters (only letters, digits, '_', '-', and '.' are allowed)")
_def("ILLEGAL_HOSTNAME_INTERPOLATION", ERROR, "An interpolated expression is not allowed in a hostname of a node")
_def("ILLEGAL_DEFINITION_NAME", ERROR, "Unacceptable name. The name '{name}' is unacceptable as the name of {what}")
_def("RESERVED_WORD", ERROR, "Use of reserved word: {word}, must be quoted if intended to be a String value")
_def("RESERVED_TYPE_NAME", ERROR, "The name: '{name}' is already defined by Puppet and can not be used as the name of {what}.")
_def("ILLEGAL_INDEXED_ASSIGNMENT", ERROR, "Illegal attempt to assign via [index/key]. Not an assignable reference")
_def("ILLEGAL_CLASS_REFERENCE", ERROR, "Illegal class reference")
_def("UNSUPPORTED_OPERATOR_IN_CONTEXT", ERROR, "The operator '{op}' in {context} is not supported.")
_def("ILLEGAL_EXPRESSION", ERROR, "Illegal expression. {what} is unacceptable as {feature} in {container}")
_def("UNRECOGNIZED_ESCAPE", WARNING, "Unrecognized escape sequence '\\{char}'")


def issue(code: str) -> Issue:
    return _ISSUES[code]


def all_issues() -> list[Issue]:
    return list(_ISSUES.values())
