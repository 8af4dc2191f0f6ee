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
HINT = "hint"       # shown faded, not listed as a problem (code the chosen node does not run)


@dataclass(frozen=True, slots=True)
class Issue:
    code: str
    severity: str
    template: str
    doc: str = ""

    def format(self, **args: object) -> str:
        return self.template.format(**args)


_ISSUES: dict[str, Issue] = {}


def _def(code: str, severity: str, template: str, doc: str = "") -> Issue:
    if code in _ISSUES:
        # Two meanings for one code would make the registry lie; fail at import.
        raise ValueError(f"diagnostic code {code} is defined twice")
    issue_ = Issue(code, severity, template, doc)
    _ISSUES[code] = issue_
    return issue_


# ---- lexical ------------------------------------------------------------------------------------
_def("UNCLOSED_MLCOMMENT", ERROR, "Unclosed multiline comment")
_def("ILLEGAL_CHARACTER", ERROR, "Illegal character {char}")
_def("ILLEGAL_BOM", ERROR, "Illegal {kind} Byte Order mark at beginning of input: [{bytes}] - remove these from the puppet source")
_def("ILLEGAL_FULLY_QUALIFIED_NAME", ERROR, "Illegal fully qualified name")
_def("ILLEGAL_NAME", ERROR, "Illegal name. The given name '{name}' does not conform to the naming rule /^((::)?[a-z_]\\w*)(::[a-z]\\w*)*$/")
_def("ILLEGAL_NUMBER", ERROR, "Illegal number '{text}'")
_def("INVALID_HEX_NUMBER", ERROR, "Not a valid hex number {text}")
_def("INVALID_OCTAL_NUMBER", ERROR, "Not a valid octal number {text}")
_def("INVALID_DECIMAL_NUMBER", ERROR, "Not a valid decimal number {text}")
_def("UNCLOSED_QUOTE", ERROR, "Unclosed quote after {quote} followed by '{following}'")
_def("NESTING_TOO_DEEP", ERROR, "{what} nested too deeply: puppet-ls stops at {limit} levels (the rest of it is not parsed)")
_def("UNCLOSED_INTERPOLATION", ERROR, "Unclosed interpolation '${{'")
_def("HEREDOC_INVALID_SYNTAX", ERROR, "Invalid syntax in heredoc expected @(endtag[:syntax][/escapes]){detail}")
_def("HEREDOC_UNCLOSED_PARENTHESIS", ERROR, "Unclosed parenthesis after '@(' followed by '{following}'")
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

# ---- command line: file handling and per-file isolation (checkcli) ------------------------------
# What `puppet-ls check|parse|symbols` reports instead of aborting: a path that is not a regular
# file or is too large to be source code (never opened or read past the limit), and a failure of
# puppet-ls itself while checking one file (the run goes on with the other files).
_def("FILE_NOT_REGULAR", ERROR, "{path} is {kind}, not a regular file; it was not read")
_def("FILE_TOO_LARGE", ERROR, "{path} is larger than the {limit} limit ({size}); it was not read (--max-file-size raises the limit)")
_def("CHECK_INTERNAL_ERROR", ERROR, "Internal error in puppet-ls while {stage} this file: {summary}. This is a bug in puppet-ls, not in your code; please report it with the file")
_def("CHECK_TIMEOUT", ERROR, "Checking this file was stopped after {seconds} s (--file-timeout raises the limit). Unless the file is huge, this is a bug in puppet-ls; please report it with the file")

# ---- syntax -------------------------------------------------------------------------------------
_def("SYNTAX_ERROR", ERROR, "Syntax error at {at}")
_def("UNMATCHED_BRACE", ERROR, "Syntax error at '}}'", "A '}' that no '{' opened (Puppet's parser says no more).")
_def("MISSING_RBRACE", ERROR, "Missing '}}' to close the '{{' on line {line}")
_def("ARGS_TO_NON_CALL", ERROR, "attempt to pass argument list to the function '{name}' which cannot be called without parentheses")
_def("ILLEGAL_COMMA", ERROR, "illegal comma separated argument list")
_def("NOT_VIRTUALIZEABLE", ERROR, "{which} can only be applied to a Resource Expression")
_def("RESOURCE_WITHOUT_TITLE", ERROR, "This expression is invalid. Did you try declaring a '{name}' resource without a title?",
     "A name followed by a hash-like body (`notify { message => 'x' }`): Puppet reads a name and a hash, and rejects them together.")
_def("UNTITLED_RESOURCE_BODY", ERROR, "Syntax error resource body without title or hash with +>",
     "The same with a '+>' among the attributes, which no hash has: Puppet's parser rejects it (its text, word for word).")
_def("ILLEGAL_QUERY_EXPRESSION", ERROR, "Illegal query expression. {expression} cannot be used in a query")
_def("NOT_A_RESOURCE_EXPRESSION", ERROR, "Expression is not valid as a resource, resource-default, or resource-override")
_def("UNLESS_ELSIF", ERROR, "elsif not supported in unless expression")
_def("KEYWORD_AS_NAME", ERROR, "'{word}' keyword not allowed at this location")
_def("QUOTED_NAME", ERROR, "A quoted string is not valid as a name here")

# ---- validation (parses, but is not legal Puppet) -----------------------------------------------
_def("ILLEGAL_ASSIGNMENT", ERROR, "Illegal attempt to assign to '{what}'. Not an assignable reference")
_def("ILLEGAL_NUMERIC_ASSIGNMENT", ERROR, "Illegal attempt to assign to the numeric match result variable '${name}'. Numeric variables are not assignable")
_def("CROSS_SCOPE_ASSIGNMENT", ERROR, "Illegal attempt to assign to '{name}'. Cannot assign to variables in other namespaces")
_def("ILLEGAL_RESERVED_ASSIGNMENT", ERROR, "Attempt to assign to a reserved variable name: '${name}'")
_def("ILLEGAL_BUILTIN_ASSIGNMENT", ERROR, "Cannot reassign built in (or already assigned) variable '${name}'")
_def("CONDITIONAL_REASSIGNMENT", WARNING, "Cannot reassign variable '${name}': evaluating this branch fails, the variable is already assigned")
_def("APPENDS_DELETES_NO_LONGER_SUPPORTED", ERROR, "The operator '{op}' is no longer supported. See http://links.puppet.com/remove-plus-equals")
_def("ILLEGAL_VAR_NAME", ERROR, "Illegal variable name, The given name '{name}' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/")
_def("ILLEGAL_NUMERIC_VAR_NAME", ERROR, "Illegal numeric variable name, The given name '{name}' must be a decimal value if it starts with a digit 0-9")
_def("ILLEGAL_PARAM_NAME", ERROR, "Illegal parameter name. The given name '{name}' does not conform to the naming rule /^[a-z_]\\w*$/")
_def("ILLEGAL_NUMERIC_PARAMETER", ERROR, "The numeric parameter name '${name}' cannot be used (clashes with numeric match result variables)")
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
_def("IDEM_NOT_ALLOWED_LAST", ERROR, "This {what} has no effect. {container} can not end with a value-producing expression without other effect")
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


@dataclass(frozen=True, slots=True)
class Text:
    """Another text reported under a registered code.

    Puppet reports many different messages under one issue code (most evaluation failures are
    its RUNTIME_ERROR); each such text is registered here under its own key, with the code it
    is reported as, so that the code a user sees stays Puppet's.
    """
    key: str
    code: str
    template: str

    def format(self, **args: object) -> str:
        return self.template.format(**args)


_TEXTS: dict[str, Text] = {}


def _text(key: str, code: str, template: str) -> Text:
    if key in _ISSUES or key in _TEXTS:
        raise ValueError(f"message key {key} is defined twice")
    if code not in _ISSUES:
        raise ValueError(f"message key {key} is reported as the unregistered code {code}")
    t = Text(key, code, template)
    _TEXTS[key] = t
    return t


@dataclass(frozen=True, slots=True)
class Fragment:
    """A part of other messages, never reported alone: the reason Ruby gives for a comparison it
    refuses (the "Caused by" of ``COMPARISON_NOT_POSSIBLE``), Onigmo's reason for a regular
    expression it refuses.  Registered here so that no text is written where it is raised."""
    key: str
    template: str

    def format(self, **args: object) -> str:
        return self.template.format(**args)


_FRAGMENTS: dict[str, Fragment] = {}


def _fragment(key: str, template: str) -> Fragment:
    if key in _ISSUES or key in _TEXTS or key in _FRAGMENTS:
        raise ValueError(f"message key {key} is defined twice")
    f = Fragment(key, template)
    _FRAGMENTS[key] = f
    return f


def issue(code: str) -> Issue:
    return _ISSUES[code]


def all_issues() -> list[Issue]:
    return list(_ISSUES.values())


def render(key: str, /, **args: object) -> str:
    """The message registered under ``key`` (a code, or the key of a :class:`Text` or a
    :class:`Fragment`), filled in."""
    t = _TEXTS.get(key) or _FRAGMENTS.get(key)
    return t.format(**args) if t is not None else _ISSUES[key].format(**args)


def code_of(key: str) -> str:
    """The code a message registered under ``key`` is reported as ("" for a fragment, which is
    never reported alone)."""
    if key in _FRAGMENTS:
        return ""
    t = _TEXTS.get(key)
    return t.code if t is not None else _ISSUES[key].code


def is_registered(key: str) -> bool:
    return key in _ISSUES or key in _TEXTS or key in _FRAGMENTS


def is_fragment(key: str) -> bool:
    return key in _FRAGMENTS


def all_fragments() -> list[Fragment]:
    return list(_FRAGMENTS.values())


def all_texts() -> list[Text]:
    return list(_TEXTS.values())


# =================================================================================================
# ---- evaluation (language/eval) -----------------------------------------------------------------
# Codes raised while evaluating code.  They reuse Puppet's issue codes (so users can look them up);
# the evaluator builds the same texts with the arguments it knows.  Codes only puppet-ls has are
# marked "(puppet-ls)".
_def("RUNTIME_ERROR", ERROR, "Error while evaluating {expression}, {detail}")
_def("DIV_BY_ZERO", ERROR, "Division by 0")
_def("ILLEGAL_RESERVED_PARAMETER", ERROR, "Attempt to assign to a reserved variable name: '{name}' (puppet-ls: a class or define parameter named like a reserved variable)")
_def("DUPLICATE_DEFINITION", ERROR, "{kind} '{name}' is already defined; cannot redefine (puppet-ls: Puppet's loader reports it without an issue code)")
# Puppet's loader texts for a name defined twice, each located inside the message.
_text("CLASS_ALREADY_DEFINED", "DUPLICATE_DEFINITION", "Class '{name}' is already defined (line: {first}); cannot redefine (line: {second})")
_text("CLASS_REDEFINED_AS_DEFINITION", "DUPLICATE_DEFINITION", "'{name}' is already defined (line: {first}) as a class; cannot redefine as a definition (line: {second})")
_text("DEFINITION_REDEFINED_AS_CLASS", "DUPLICATE_DEFINITION", "Definition '{name}' is already defined (line: {first}); cannot be redefined as a class (line: {second})")
_text("NODE_ALREADY_DEFINED", "DUPLICATE_DEFINITION", "Node '{name}' is already defined (line: {first}); cannot redefine (line: {second})")
_text("ENTITY_REDEFINED", "DUPLICATE_DEFINITION", "Attempt to redefine entity 'http://puppet.com/2016.1/runtime/{entity}'. Originally set at string:?line={line}&pos={pos}.")
_def("RESULT_IS_INFINITY", ERROR, "The result of the {operator} expression is Infinity")
_def("NUMERIC_OVERFLOW", ERROR, "{expression} resulted in a value outside of Puppet Integer {kind} range, got '{value}'")
_def("NOT_NUMERIC", ERROR, "The value '{value}' cannot be converted to Numeric.")
_def("NUMERIC_COERCION", WARNING, "The string '{before}' was automatically coerced to the numerical value {after}")
_def("OPERATOR_NOT_APPLICABLE", ERROR, "Operator '{operator}' is not applicable to {left}.")
_def("OPERATOR_NOT_APPLICABLE_WHEN", ERROR, "Operator '{operator}' is not applicable to {left} when right side is {right}.")
_def("COMPARISON_NOT_POSSIBLE", ERROR, "Comparison of: {left} {operator} {right}, is not possible. Caused by '{detail}'.")
_def("MATCH_NOT_REGEXP", ERROR, "Can not convert right match operand to a regular expression. Caused by '{detail}'.")
_def("MATCH_NOT_STRING", ERROR, "Left match operand must result in a String value. Got {left}.")
_def("UNSUPPORTED_OPERATOR", ERROR, "The operator '{operator}' is not supported.")
_def("UNKNOWN_VARIABLE", ERROR, "Unknown variable: '{name}'.")
_def("UNKNOWN_FUNCTION", ERROR, "Unknown function: '{name}'.")
_def("UNKNOWN_RESOURCE_TYPE", ERROR, "Resource type not found: {type_name}")
_def("UNKNOWN_RESOURCE", ERROR, "Resource not found: {type_name}['{title}']")
_def("UNKNOWN_RESOURCE_PARAMETER", ERROR, "The resource {type_name}['{title}'] does not have a parameter called '{param}'")
_def("UNKNOWN_CLASS", ERROR, "Could not find class ::{name} for {node}")
_def("ILLEGAL_REASSIGNMENT", ERROR, "Cannot reassign variable '${name}'")
_def("ILLEGAL_MULTI_ASSIGNMENT_SIZE", ERROR, "Mismatched number of assignable entries and values, expected {expected}, got {actual}")
_def("MISSING_MULTI_ASSIGNMENT_KEY", ERROR, "No value for required key '{key}' in assignment to variables from hash")
_def("MISSING_MULTI_ASSIGNMENT_VARIABLE", ERROR, "No value for required variable '${name}' in assignment to variables from class reference")
_def("UNMATCHED_SELECTOR", ERROR, "No matching entry for selector parameter with value '{param}'")
_def("BAD_STRING_SLICE_ARITY", ERROR, "String supports [] with one or two arguments. Got {actual}")
_def("BAD_ARRAY_SLICE_ARITY", ERROR, "Array supports [] with one or two arguments. Got {actual}")
_def("BAD_HASH_SLICE_ARITY", ERROR, "Hash supports [] with one or more arguments. Got {actual}")
_def("BAD_INTEGER_SLICE_ARITY", ERROR, "Integer-Type supports [] with one or two arguments (from, to). Got {actual}")
_def("BAD_SLICE_KEY_TYPE", ERROR, "{expression}[] cannot use {actual} where {expected} is expected")
_def("BAD_STRING_SLICE_KEY_TYPE", ERROR, "A substring operation does not accept {actual} as a character index. Expected an Integer")
_def("BAD_TYPE_SPECIALIZATION", ERROR, "Error creating type specialization of {base_type}, {message}")
_def("NOT_PARAMETERIZED_TYPE", ERROR, "Operator '[]' is not applicable to {what}")
_def("MISSING_TITLE", ERROR, "Missing title. The title expression resulted in undef")
_def("MISSING_TITLE_AT", ERROR, "Missing title at index {index}. The title expression resulted in an undef title")
_def("ILLEGAL_TITLE_TYPE_AT", ERROR, "Illegal title type at index {index}. Expected String, got {actual}")
_def("EMPTY_STRING_TITLE_AT", ERROR, "Empty string title at {index}. Title strings must have a length greater than zero.")
_def("DUPLICATE_TITLE", ERROR, "The title '{title}' has already been used in this resource expression")
_def("DUPLICATE_DECLARATION", ERROR, "Duplicate declaration: {ref} is already declared; cannot redeclare")
_def("ILLEGAL_RESOURCE_TYPE", ERROR, "Illegal Resource Type expression, expected result to be a type name, or untitled Resource, got {actual}")
_def("ILLEGAL_OVERRIDDEN_TYPE", ERROR, "Resource Override can only operate on resources, got: {actual}")
_def("ILLEGAL_RELATIONSHIP_OPERAND_TYPE", ERROR, "Illegal relationship operand, can not form a relationship with {a_label}. A Catalog type is required.")
_def("TYPE_MISMATCH", ERROR, "Expected value of type {expected}, got {actual}")
_def("MISSING_REQUIRED_PARAMETER", ERROR, "Parameter ${name} is required but no value was given")
_def("DISCONTINUED_IMPORT", ERROR, "Use of 'import' has been discontinued in favor of a manifest directory. See http://links.puppet.com/puppet-import-deprecation")
_def("ILLEGAL_TYPE", ERROR, "{message}")
_def("TYPE_CONVERSION_ERROR", ERROR, "{message}")
_def("TIME_FORMAT_ERROR", ERROR, "{message}")
_def("ARGUMENT_ERROR", ERROR, "{message}")
_def("SLICE_ERROR", ERROR, "{message}")
_def("NO_NODE_MATCH", ERROR, "Could not find node statement with name 'default' or '{node}'")
_def("CONTROL_FLOW", ERROR, "{word}() from context where this is illegal")
_def("NOT_AVAILABLE_IN_SANDBOX", ERROR, "The function '{name}' is not available in this context (puppet-ls)")
_def("EVAL_BUDGET_EXCEEDED", ERROR, "Evaluation stopped: the step budget of {steps} steps is exhausted (the code may loop forever or iterate over a very large range)")
_def("EVAL_TIMEOUT", ERROR, "Evaluation stopped: the time budget of {seconds} seconds is exhausted (puppet-ls)")
_def("EVAL_RECURSION_LIMIT", ERROR, "Evaluation stopped: nesting deeper than {depth} levels (puppet-ls)")
_def("EVAL_MEMORY_LIMIT", ERROR, "Evaluation stopped: out of memory (puppet-ls)")
_def("BAD_TYPE_SLICE_ARITY", ERROR, "{base_type}[] accepts {count}. Got {actual}")
_def("BAD_TYPE_SLICE_TYPE", ERROR, "{base_type}[] arguments must be types. Got {actual}")
_def("BAD_NOT_UNDEF_SLICE_TYPE", ERROR, "NotUndef-Type[] argument must be a Type or a String. Got {actual}")
_def("ILLEGAL_RESOURCE_SPECIALIZATION", ERROR, "First argument to Resource[] must be a resource type or a String. Got {actual}.")
_def("ILLEGAL_HOSTCLASS_NAME", ERROR, "Illegal Class name in class reference. {name} cannot be used where a String is expected")
_def("ILLEGAL_CLASSREF", ERROR, "Illegal class reference")
_def("ILLEGAL_HEREDOC_SYNTAX", ERROR, "Invalid produced text having syntax: '{syntax}'. {detail}")
_def("ILLEGAL_JSON", ERROR, "Invalid produced text having syntax: '{syntax}'. {detail}", "What Puppet reports for a heredoc with syntax json whose text is not JSON (the text is ILLEGAL_HEREDOC_SYNTAX's).")
_def("ILLEGAL_TYPE_ALIAS", ERROR, "Type alias '{name}' cannot be resolved to a real type")
_def("ILLEGAL_TYPE_SPECIFICATION", ERROR, "The expression <{expression}> is not a valid type specification.")
_def("ILLEGAL_PARAMETER_TYPE", ERROR, "Parameter ${name} type must be a Type")
_def("ILLEGAL_QUERY", ERROR, "Illegal query expression (puppet-ls)")
_def("DUPLICATE_PARAMETER_SET", ERROR, "Parameter '{name}' is already set on {ref}; cannot redefine")
_def("EPP_NOT_IN_TEMPLATE", ERROR, "EPP text can only be rendered in a template (puppet-ls)")
_def("NOT_AVAILABLE", ERROR, "The '{what}' expression is not available in this context (puppet-ls)")
_def("UNSUPPORTED_EXPRESSION", ERROR, "Evaluation of {what} is not supported (puppet-ls)")
_def("NESTING_TOO_DEEP_EVAL", ERROR, "The source is nested too deeply to be evaluated (puppet-ls)")
_def("INTERNAL_ERROR", ERROR, "Internal error in the evaluator: {detail} (puppet-ls)")

# ---- evaluation limits against hostile input (evalbounds: language/types/guard.py) --------------
# Work a single step can trigger (a regexp match in C, walking a value with shared parts) is
# bounded by the evaluation budget too; the limits are described in docs/eval.md.
_def("EVAL_REGEXP_TIMEOUT", ERROR, "Evaluation stopped: the time budget{budget} ran out while matching a regular expression (puppet-ls)")
_def("EVAL_INVALID_UTF8", ERROR, "invalid byte sequence in UTF-8 (a \\u escape names a surrogate, which is not a character)")
_def("EVAL_INTEGER_TOO_LARGE", ERROR, "Evaluation stopped: {what} would have more than {limit} decimal digits (puppet-ls)")
_def("EVAL_VALUE_TOO_LARGE", ERROR, "Evaluation stopped: {what} would exceed the value size limit of {limit} elements and characters (puppet-ls)")



# ---- evaluation and types: texts of their errors (language/eval, language/types) -----------
# Puppet reports many different texts under one code (most under RUNTIME_ERROR); each is
# registered under its own key and rendered with messages.render(key, **args).
# language/eval/access.py
_text("ACCESS_NOT_APPLICABLE", "OPERATOR_NOT_APPLICABLE", "Operator '[]' is not applicable to {a_an}.")
_text("HASH_SUPPORTS_WITH_ONE_OR", "BAD_HASH_SLICE_ARITY", "Hash supports [] with one or more arguments. Got 0")
_text("CANNOT_USE_WHERE_INTEGER_EXPECTED", "BAD_SLICE_KEY_TYPE", "{a_an_uc}[] cannot use {key_type_name} where Integer is expected")
_text("BAD_TYPE_SPECIALIZATION_KEY", "BAD_TYPE_SPECIALIZATION", "Error creating type specialization of {a_an}, Cannot use {key_type_name} where {expected} is expected")
_text("OPERATOR_NOT_APPLICABLE_TYPE_ALIAS", "NOT_PARAMETERIZED_TYPE", "Operator '[]' is not applicable to a type alias ({alias_name})")
_text("ARRAY_TYPE_ARGUMENTS_MUST_TYPES", "BAD_TYPE_SLICE_TYPE", "Array-Type[] arguments must be types. Got {class_label}")
_text("HASH_TYPE_ARGUMENTS_MUST_TYPES", "BAD_TYPE_SLICE_TYPE", "Hash-Type[] arguments must be types. Got {class_label}")
_text("TYPE_ARGUMENTS_MUST_TYPES_GOT", "BAD_TYPE_SLICE_TYPE", "{name}-Type[] arguments must be types. Got {class_label}")
_text("RANGE_SLICE_ARITY", "BAD_INTEGER_SLICE_ARITY", "{name}-Type supports [] with one or two arguments (from, to). Got {n}")
_text("CLASS_ACCEPTS_OR_MORE_ARGUMENTS", "BAD_TYPE_SLICE_ARITY", "Class[] accepts 1 or more arguments. Got 0")
_text("RESOURCE_ACCEPTS_OR_MORE_ARGUMENTS", "BAD_TYPE_SLICE_ARITY", "Resource[] accepts 1 or more arguments. Got 0")
_text("BAD_RESOURCE_TITLE_TYPE", "BAD_TYPE_SPECIALIZATION", "Error creating type specialization of {a_an}, Cannot use {key_type_name} where a resource title String is expected")
# language/eval/api.py
_text("SYNTAX_ERROR_SOURCE_NESTED_TOO", "NESTING_TOO_DEEP", "Syntax error: the source is nested too deeply to be parsed")
_text("SYNTAX_ERROR_DETAIL", "SYNTAX_ERROR", "Syntax error: {exc}")
_text("SOURCE_NESTED_TOO_DEEPLY_VALIDATED", "NESTING_TOO_DEEP", "The source is nested too deeply to be validated")
_text("EVALUATION_STOPPED_NESTING_TOO_DEEP", "EVAL_RECURSION_LIMIT", "Evaluation stopped: nesting too deep (probably infinite recursion)")
_text("EVALUATION_STOPPED_OUT_MEMORY", "EVAL_MEMORY_LIMIT", "Evaluation stopped: out of memory")
_text("INTERNAL_ERROR_IN_EVALUATOR", "INTERNAL_ERROR", "Internal error in the evaluator: {name}: {exc}")
_text("FROM_CONTEXT_WHERE_THIS_ILLEGAL", "CONTROL_FLOW", "{word}() from context where this is illegal (file: unknown, line: {line})")
# language/eval/budget.py
_text("EVALUATION_STOPPED_TIME_BUDGET_SECONDS", "EVAL_TIMEOUT", "Evaluation stopped: the time budget of {seconds:g} seconds is exhausted")
_text("EVALUATION_STOPPED_NESTING_DEEPER_THAN", "EVAL_RECURSION_LIMIT", "Evaluation stopped: nesting deeper than {max_depth} levels (probably infinite recursion)")
# language/eval/catalog.py
_text("ILLEGAL_QUERY_PART", "ILLEGAL_QUERY", "Illegal query expression")
_text("ILLEGAL_QUERY_OPERATOR", "ILLEGAL_QUERY", "Illegal query operator '{op}'")
_text("ATTEMPT_REDEFINE_ENTITY_HTTP_PUPPET", "RESERVED_TYPE_NAME", "Attempt to redefine entity 'http://puppet.com/2016.1/runtime/type/{lower}'. Originally set by Puppet-Type-System/Static-Loader.")
_text("TYPE_ALIAS_MUST_TYPE_GOT", "ILLEGAL_TYPE_ALIAS", "Type alias '{name}' must be a type, got {generalized_type_name}")
_text("DUPLICATE_DECLARATION_ALREADY_DECLARED_AT", "DUPLICATE_DECLARATION", "Duplicate declaration: {ref} is already declared at (line: {line_old}); cannot redeclare (line: {line_new})")
_text("SYNTAX_ERROR_RESOURCE_WITHOUT_TYPE", "SYNTAX_ERROR", "Syntax error: resource without type")
_text("EXPECTED_VALUE_TYPE_HASH_GOT", "TYPE_MISMATCH", "Expected value of type Hash, got {generalized_type_name}")
_text("UNKNOWN_RESOURCE_TYPE_QUOTED", "UNKNOWN_RESOURCE_TYPE", "Unknown resource type: '{lname}'")
_text("COULD_NOT_FIND_DECLARED_CLASS", "UNKNOWN_CLASS", "Could not find declared class {title}")
_text("DUPLICATE_DECLARATION_CLASS_ALREADY_DECLARED", "DUPLICATE_DECLARATION", "Duplicate declaration: Class[{cap}] is already declared; cannot redeclare")
_text("CANNOT_USE_AS_CLASS_NAME", "RUNTIME_ERROR", "Cannot use {generalized_type_name} as a class name")
_text("CANNOT_USE_UNDEF_AS_CLASS", "RUNTIME_ERROR", "Cannot use undef as a class name")
_text("CANNOT_USE_EMPTY_STRING_AS", "RUNTIME_ERROR", "Cannot use empty string as a class name")
_text("COULD_NOT_FIND_PARENT_CLASS", "UNKNOWN_CLASS", "Could not find parent class {parent}")
_text("COULD_NOT_FIND_RESOURCE_FOR", "UNKNOWN_RESOURCE", "Could not find resource '{ev_type_str}' for overriding")
_text("PARAMETER_ALREADY_SET_ON_BY", "DUPLICATE_PARAMETER_SET", "Parameter '{k}' is already set on {ref} by {source_label} at (line: {line}); cannot redefine (line: {line2})")
_text("REALIZE_CANNOT_USE_STRING_AS", "RUNTIME_ERROR", "realize(): Cannot use a String as a resource reference: '{r}'")
_text("CANNOT_REALIZE", "RUNTIME_ERROR", "Cannot realize {generalized_type_name}")
_text("FAILED_REALIZE_VIRTUAL_RESOURCES", "RUNTIME_ERROR", "Failed to realize virtual resources {ev_type_str}")
_text("RESOURCE_NOT_FOUND_CLASS", "UNKNOWN_RESOURCE", "Resource not found: Class['{class_name}']")
_text("RESOURCE_CLASS_DOES_NOT_HAVE", "UNKNOWN_RESOURCE_PARAMETER", "The resource Class['{class_name}'] does not have a parameter called '{k}'")
_text("ILLEGAL_NESTED_ASSIGNMENT_FROM_CLASS", "ILLEGAL_ASSIGNMENT", "Illegal nested assignment from class")
_text("NO_VALUE_FOR_REQUIRED_VARIABLE", "MISSING_MULTI_ASSIGNMENT_VARIABLE", "No value for required variable '${name}::{var}' in assignment to variables from class reference")
# language/eval/closures.py
_text("LAMBDA_ARGUMENTS", "ARGUMENT_ERROR", "{label} {msg}")
_text("VALUE_RETURNED_FROM_HAS_WRONG", "ARGUMENT_ERROR", "value returned from {name} has wrong type, {detail}")
_text("DOES_NOT_EXPECT_BLOCK", "ARGUMENT_ERROR", "'{name}' does not expect a block")
# language/eval/convert.py
_text("ILLEGAL_RADIX_EXPECTED_OR_DEFAULT", "RUNTIME_ERROR", "Illegal radix: {radix}, expected 2, 8, 10, 16, or default")
_text("CREATION_NEW_INSTANCE_TYPE_NOT", "RUNTIME_ERROR", "Creation of new instance of type '{type_text}' is not supported")
_text("CONVERTED_VALUE_FROM_NEW_HAS", "RUNTIME_ERROR", "Converted value from {type_text}.new() has wrong type, {detail}")
_text("NEW_INIT_EXPECTS_ARGUMENT_GOT", "ARGUMENT_ERROR", "'new_Init' expects 1 argument, got {count}")
_text("NEW_EXPECTS_ARGUMENT_GOT", "ARGUMENT_ERROR", "'new' expects 1 argument, got {count}")
# language/eval/evaluator.py
_text("EVALUATION_NOT_SUPPORTED", "UNSUPPORTED_EXPRESSION", "Evaluation of {replace} is not supported")
_text("SYNTAX_ERROR_PLAIN", "SYNTAX_ERROR", "Syntax error")
_text("LITERAL_INTEGER_RESULTED_IN_VALUE", "NUMERIC_OVERFLOW", "A Literal Integer resulted in a value outside of Puppet Integer max range, got '{ruby_hex}'")
_text("SEMVER_NOT_FLOAT", "RUNTIME_ERROR", "can't convert SemanticPuppet::Version into Float")
_text("MINUS_NOT_APPLICABLE", "OPERATOR_NOT_APPLICABLE", "Operator '-' is not applicable to {a_an}.")
_text("SYNTAX_ERROR_INCOMPLETE_EXPRESSION", "SYNTAX_ERROR", "Syntax error: incomplete expression")
_text("MATCH_NO_STRING_CONVERSION", "MATCH_NOT_REGEXP", "Can not convert right match operand to a regular expression. Caused by 'no implicit conversion of {ruby_class} into String'.")
_text("SYNTAX_ERROR_INCOMPLETE_ASSIGNMENT", "SYNTAX_ERROR", "Syntax error: incomplete assignment")
_text("CANNOT_REASSIGN_BUILT_IN_OR", "ILLEGAL_REASSIGNMENT", "Cannot reassign built in (or already assigned) variable '${name}'")
_text("ILLEGAL_EXPRESSION_UNACCEPTABLE_AS_FUNCTION", "ILLEGAL_EXPRESSION", "Illegal expression. {a_an_uc} is unacceptable as function name in a Function Call")
_text("SYNTAX_ERROR_MISSING_METHOD_NAME", "SYNTAX_ERROR", "Syntax error: missing method name")
_text("EPP_TEXT_CAN_ONLY_RENDERED", "EPP_NOT_IN_TEMPLATE", "EPP text can only be rendered in a template")
_text("APPLY_EXPRESSION_NOT_AVAILABLE_IN", "NOT_AVAILABLE", "The 'apply' expression is not available in this context")
# language/eval/functions/__init__.py
_text("FUNCTION_ARGUMENTS", "ARGUMENT_ERROR", "'{name}' {msg}")
# language/eval/functions/catalog_fns.py
_def("CATALOG_OPERATION_NOT_SUPPORTED_WHEN_SCRIPTING", ERROR, "The catalog operation '{what}' is only available when compiling a catalog")
_text("INVALID_ARGUMENT_TYPE_DEFINED", "RUNTIME_ERROR", "Invalid argument of type '{name}' to 'defined'")
_text("GIVEN_RESOURCE_TYPE_REFERENCE_ALL", "RUNTIME_ERROR", "The given resource type is a reference to all kind of types")
_text("GIVEN_CLASS_TYPE_REFERENCE_ALL", "RUNTIME_ERROR", "The given class type is a reference to all classes")
_text("INVALID_EPP", "RUNTIME_ERROR", "{func}(): Invalid EPP: {message}")
_text("DEFAULT_READS_LATER_PARAMETER", "RUNTIME_ERROR", "{subject}: default expression for ${name} tries to illegally access not yet evaluated ${other}")
# language/eval/functions/collections.py
_text("SYNTAX_ERROR_IN_DOTTED_NAVIGATION", "RUNTIME_ERROR", "Syntax error in dotted-navigation string")
_text("COMPARISON_WITH_FAILED", "RUNTIME_ERROR", "comparison of {ruby_class} with {cmperr_operand} failed")
_text("WRONG_NUMBER_ARGUMENTS_NEED_AT", "RUNTIME_ERROR", "{name}(): Wrong number of arguments need at least one")
# language/eval/functions/core.py
_text("CALL_UNKNOWN_FUNCTION", "RUNTIME_ERROR", "Unknown function '{function_name}'")
_text("GETVAR_GIVEN_STRING_DOES_NOT", "RUNTIME_ERROR", "'getvar' The given string does not start with a valid variable name")
_text("FIRST_CHARACTER_AFTER_VAR_NAME", "RUNTIME_ERROR", "First character after var name in get string must be a '.' - got {value}")
# language/eval/functions/iteration_fns.py
_text("SLICE_BLOCK_MUST_DEFINE_AT", "RUNTIME_ERROR", "slice(): block must define at least one parameter. Block has 0.")
_text("SLICE_BLOCK_MUST_DEFINE_ONE", "RUNTIME_ERROR", "slice(): block must define one parameter, or the same number of parameters as the given size of the slice ({size}). Block has {serving}; {names}")
_text("ONLY_ARRAY_HASH_AND_OBJECT", "RUNTIME_ERROR", "Only Array, Hash, and Object types can be used as container types. Got {text}")
_text("OPTIONS_INCLUDE_CONTAINERS_AND_INCLUDE", "RUNTIME_ERROR", "Options 'include_containers' and 'include_values' cannot both be false")
# language/eval/functions/numbers.py
_text("ABS_REQUIRES_FLOAT_OR_INTEGER", "RUNTIME_ERROR", "abs(): Requires float or integer to work with - was given non decimal string")
_text("CANNOT_CONVERT_GIVEN_VALUE_FLOATING", "RUNTIME_ERROR", "{fn}(): cannot convert given value to a floating point value.")
_text("UNDEFINED_METHOD_TO_I", "RUNTIME_ERROR", "undefined method `to_i' for {class_name_of}")
_text("INVALID_ARGUMENT", "RUNTIME_ERROR", "invalid argument - {limit}")
# language/eval/functions/sandboxed.py
_text("FUNCTION_NOT_AVAILABLE_IN_THIS", "NOT_AVAILABLE_IN_SANDBOX", "The function '{name}' is not available in this context (the evaluator is sandboxed: no file, network, process or data lookup access)")
# language/eval/functions/catalog_fns.py: create_resources (Puppet's own texts)
_text("CREATE_RESOURCES_SECOND_NOT_HASH", "RUNTIME_ERROR", "create_resources(): second argument must be a hash")
_text("CREATE_RESOURCES_THIRD_NOT_HASH", "RUNTIME_ERROR", "create_resources(): third argument, if provided, must be a hash")
# language/eval/functions/stdlib.py (puppetlabs-stdlib's own texts)
_text("STDLIB_PICK_NOTHING", "RUNTIME_ERROR", "pick(): must receive at least one non empty value")
_text("STDLIB_CONCAT_NOT_ARRAY", "RUNTIME_ERROR", "concat(): Requires array to work with")
_text("STDLIB_MERGE_NOT_HASH", "RUNTIME_ERROR", "merge(): every argument must be a Hash, undef or an empty string, got {actual}")
# language/eval/functions/strings.py
_text("MATCH_EXPECTS_PATTERN_T_WHERE", "RUNTIME_ERROR", "match() expects pattern of T, where T is String, Regexp, Regexp[r], Pattern[p], or Array[T]. Got {class_name_of}")
_text("GIVEN_REGEXP_TYPE_HAS_NO", "RUNTIME_ERROR", "Given Regexp Type has no regular expression")
_text("UNDEFINED_METHOD_LENGTH_FOR", "RUNTIME_ERROR", "undefined method `length' for {ruby_inspect_short}:{ruby_class_name}")
_text("NO_IMPLICIT_CONVERSION_INTO_STRING", "RUNTIME_ERROR", "no implicit conversion of {ruby_class_name} into String")
# language/eval/functions/typing_fns.py
_text("ATTEMPT_ANNOTATION_DECLARED_ON", "ARGUMENT_ERROR", "attempt to {what} {name} annotation declared on {target_label}")
# language/eval/operators.py
_text("CAN_ONLY_APPEND_ARRAY_OR", "RUNTIME_ERROR", "Can only append Array or Hash to a Hash")
_text("URI_CAN_ONLY_MERGED_WITH", "RUNTIME_ERROR", "An URI can only be merged with an URI or String")
_text("CAN_ONLY_APPEND_BINARY_BINARY", "RUNTIME_ERROR", "Can only append Binary to a Binary")
_text("ODD_NUMBER_ARGUMENTS_FOR_HASH", "RUNTIME_ERROR", "odd number of arguments for Hash")
_text("INVALID_NUMBER_ELEMENTS_FOR", "RUNTIME_ERROR", "invalid number of elements ({count} for 1..2)")
_text("CAN_ONLY_DELETE_FROM_ARRAY", "RUNTIME_ERROR", "Can only delete from an Array or Hash.")
_text("RESULTED_IN_VALUE_OUTSIDE_PUPPET", "NUMERIC_OVERFLOW", "{a_an_uc} resulted in a value outside of Puppet Integer max range")
_text("CANNOT_ADDED_TIMESPAN", "RUNTIME_ERROR", "{a_an_kind} cannot be added to a Timespan")
_text("CANNOT_SUBTRACTED_FROM_TIMESPAN", "RUNTIME_ERROR", "{a_an_kind} cannot be subtracted from a Timespan")
_text("TIMESTAMP_CANNOT_MULTIPLIED_BY", "RUNTIME_ERROR", "A Timestamp cannot be multiplied by {a_an_kind}")
_text("TIMESPAN_CANNOT_DIVIDED_BY", "RUNTIME_ERROR", "A Timespan cannot be divided by {a_an_kind}")
_text("CAN_NOT_DO_MODULUS_ON", "RUNTIME_ERROR", "Can not do modulus on a Timespan using {kind}")
_text("CANNOT_ADDED_TIMESTAMP", "RUNTIME_ERROR", "{a_an_kind} cannot be added to a Timestamp")
_text("CANNOT_SUBTRACTED_FROM_TIMESTAMP", "RUNTIME_ERROR", "{a_an_kind} cannot be subtracted from a Timestamp")
_text("MATCH_INVALID_PATTERN", "MATCH_NOT_REGEXP", "Can not convert right match operand to a regular expression. Caused by 'invalid pattern: /{pattern}/'.")
# language/eval/typecheck.py
_text("TYPE_DOES_NOT_REPRESENT_VALID", "RUNTIME_ERROR", "The type '{type}' does not represent a valid set of parameters for {generalized_name}.new()")
# language/types/build.py
_text("TYPE_REFERENCE_WITH_SEVERAL_TITLES", "ILLEGAL_TYPE", "A type reference with several titles denotes several types")
_text("NOT_TYPE_REFERENCE", "ILLEGAL_TYPE", "Not a type reference: {kind}")
_def("TYPE_TOO_DEEP", ERROR, "Type expression is nested too deeply")
_text("INVALID_TYPE_EXPRESSION", "ILLEGAL_TYPE", "Invalid type expression: {exc}")
_def("UNRESOLVED_ALIAS", ERROR, "Type alias '{name}' has no scope")
_text("TYPE_ALIAS_NOT_DEFINED", "UNRESOLVED_ALIAS", "Type alias '{name}' is not defined")
_def("ILLEGAL_ALIAS", ERROR, "Type alias '{name}' cannot be resolved to a real type")
_def("ILLEGAL_TYPE_PARAMETER", ERROR, "{name}-Type[] arguments must be types. Got {kind}")
_text("FROM_MUST_LESS_OR_EQUAL", "ILLEGAL_TYPE_PARAMETER", "'from' must be less or equal to 'to'. Got ({lo}, {hi})")
_text("TYPE_SIZE_CONSTRAINT_ARGUMENTS_MUST", "ILLEGAL_TYPE_PARAMETER", "A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got {article}")
_def("WRONG_NUMBER_OF_TYPE_ARGUMENTS", ERROR, "{name}-Type[] accepts {what}. Got {n}")
_text("NOT_TYPE_NAME", "ILLEGAL_TYPE", "Not a type name: {name!r}")
_text("OPERATOR_NOT_APPLICABLE_TYPE", "NOT_PARAMETERIZED_TYPE", "Operator '[]' is not applicable to {article}-Type.")
_text("INTEGER_TYPE_SUPPORTS_WITH_ONE", "WRONG_NUMBER_OF_TYPE_ARGUMENTS", "Integer-Type supports [] with one or two arguments (from, to). Got {count}")
_text("INTEGER_TYPE_REQUIRES_ALL_ARGUMENTS", "ILLEGAL_TYPE_PARAMETER", "Integer-Type [] requires all arguments to be integers (or default). Got {kind}")
_text("FLOAT_TYPE_SUPPORTS_WITH_ONE", "WRONG_NUMBER_OF_TYPE_ARGUMENTS", "Float-Type supports [] with one or two arguments (from, to). Got {count}")
_text("FLOAT_TYPE_REQUIRES_ALL_ARGUMENTS", "ILLEGAL_TYPE_PARAMETER", "Float-Type [] requires all arguments to be floats, or integers (or default). Got {kind}")
_text("FLOAT_TYPE_DOES_NOT_ACCEPT", "ILLEGAL_TYPE_PARAMETER", "Float-Type [] does not accept NaN")
_text("ERROR_CREATING_TYPE_SPECIALIZATION_ENUM", "ILLEGAL_TYPE_PARAMETER", "Error creating type specialization of an Enum-Type, Cannot use {kind} where String is expected")
_text("ERROR_CREATING_TYPE_SPECIALIZATION_PATTERN", "ILLEGAL_TYPE_PARAMETER", "Error creating type specialization of a Pattern-Type, Cannot use {kind} where String or Regexp or Pattern-Type or Regexp-Type is expected")
_text("ERROR_CREATING_TYPE_SPECIALIZATION_BOOLEAN", "ILLEGAL_TYPE_PARAMETER", "Error creating type specialization of a Boolean-Type, Cannot use {kind} where Boolean is expected")
_text("ERROR_CREATING_TYPE_SPECIALIZATION_REGEXP", "ILLEGAL_TYPE_PARAMETER", "Error creating type specialization of a Regexp-Type, Cannot use {kind} where String or Regexp is expected")
_text("ERROR_CREATING_TYPE_SPECIALIZATION_SEMVER", "ILLEGAL_TYPE_PARAMETER", "Error creating type specialization of a SemVer-Type, Cannot use {kind} where String or SemVerRange is expected")
_text("UNPARSABLE_VERSION_RANGE", "ILLEGAL_TYPE_PARAMETER", 'Unparsable version range: "{a}"')
_text("RANGE_TYPE_ARITY", "WRONG_NUMBER_OF_TYPE_ARGUMENTS", "{name}-Type supports [] with one or two arguments (from, to). Got {count}")
_text("TYPE_REQUIRES_ARGUMENTS_STRING_INTEGER", "ILLEGAL_TYPE_PARAMETER", "{name}-Type [] requires arguments to be {name}, String, Integer, Float (or default). Got {kind}")
_text("URI_TYPE_ARGUMENT_MUST_STRING", "ILLEGAL_TYPE_PARAMETER", "URI-Type[] argument must be a String, URI or Hash. Got {kind}")
_text("URI_TYPE_HAS_NO_PART", "ILLEGAL_TYPE_PARAMETER", "URI-Type[] has no part named '{value}'")
_text("TUPLE_TYPE_ARGUMENTS_MUST_TYPES", "ILLEGAL_TYPE_PARAMETER", "Tuple-Type[] arguments must be types followed by at most two size integers. Got {kind}")
_text("TUPLE_TYPE_ACCEPTS_OR_MORE", "WRONG_NUMBER_OF_TYPE_ARGUMENTS", "A Tuple-Type[] accepts 1 or more arguments. Got 0")
_text("ERROR_CREATING_TYPE_SPECIALIZATION_STRUCT", "ILLEGAL_TYPE_PARAMETER", "Error creating type specialization of a Struct-Type, Cannot use {kind} where Hash is expected")
_text("STRUCT_TYPE_MEMBER_VALUES_MUST", "ILLEGAL_TYPE_PARAMETER", "Struct-Type[] member values must be types. Got {kind}")
_text("STRUCT_TYPE_HAS_DUPLICATE_KEY", "ILLEGAL_TYPE_PARAMETER", "Struct-Type[] has duplicate key '{key}'")
_text("ILLEGAL_STRUCT_MEMBER_KEY_TYPE", "ILLEGAL_TYPE_PARAMETER", "Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {replace}")
_text("TYPE_ARGUMENT_MUST_TYPE_OR", "ILLEGAL_TYPE_PARAMETER", "{name}-Type[] argument must be a Type or a String. Got {kind}")
_text("CALLABLE_TYPE_SIZE_CONSTRAINT_MUST", "ILLEGAL_TYPE_PARAMETER", "Callable-Type[] size constraint must be at most two integers (or default) after the parameter types")
_text("CALLABLE_TYPE_PARAMETERS_MUST_TYPES", "ILLEGAL_TYPE_PARAMETER", "Callable-Type[] parameters must be types. Got {kind}")
_text("RUNTIME_TYPE_RUNTIME_MUST_STRING", "ILLEGAL_TYPE_PARAMETER", "Runtime-Type[] runtime must be a String. Got {kind}")
_text("ERROR_CREATING_TYPE_SPECIALIZATION_RUNTIME", "ILLEGAL_TYPE_PARAMETER", "Error creating type specialization of a Runtime-Type, Cannot use {kind} where String is expected")
_text("RESOURCE_TITLES_MUST_STRINGS_GOT", "ILLEGAL_TYPE_PARAMETER", "Resource[] titles must be Strings. Got {kind}")
_text("FIRST_ARGUMENT_RESOURCE_MUST_RESOURCE", "ILLEGAL_TYPE_PARAMETER", "First argument to Resource[] must be a resource type or a String. Got {kind}.")
_text("ILLEGAL_CLASS_NAME_IN_CLASS", "ILLEGAL_TYPE_PARAMETER", "Illegal Class name in class reference. {article} cannot be used where a String is expected")
_text("OBJECT_TYPE_ARGUMENT_MUST_HASH", "ILLEGAL_TYPE_PARAMETER", "Object-Type[] argument must be a Hash. Got {kind}")
_text("TYPESET_TYPE_ARGUMENT_MUST_HASH", "ILLEGAL_TYPE_PARAMETER", "TypeSet-Type[] argument must be a Hash. Got {kind}")
_text("TYPESET_TYPES_MUST_HASH", "ILLEGAL_TYPE_PARAMETER", "TypeSet 'types' must be a Hash")
_text("TYPESET_TYPE_MUST_TYPE_OR", "ILLEGAL_TYPE_PARAMETER", "TypeSet type '{name}' must be a type or a Hash")
# An Object type's declaration hash (Object[{...}], types/build.py object_from_hash), in Puppet's
# words: {expected} and {actual} as its type mismatch describer writes them ("a Type value", "Integer").
_text("OBJECT_INITIALIZER_UNRECOGNIZED_KEY", "ILLEGAL_TYPE_PARAMETER", "object initializer has wrong type, unrecognized key '{key}'")
_text("OBJECT_INITIALIZER_ENTRY_WRONG_TYPE", "ILLEGAL_TYPE_PARAMETER", "object initializer has wrong type, entry '{entry}' expects {expected}, got {actual}")
_text("OBJECT_PARENT_UNRESOLVED", "ILLEGAL_TYPE_PARAMETER", "reference to unresolved type '{name}'")
_text("OBJECT_ATTRIBUTE_WRONG_TYPE", "ILLEGAL_TYPE_PARAMETER", "attribute {label}[{name}] has wrong type, expects a Type value, got {actual}")
_text("OBJECT_ATTRIBUTE_TYPE_WRONG_TYPE", "ILLEGAL_TYPE_PARAMETER", "initializer for attribute {label}[{name}] has wrong type, entry 'type' expects a Type value, got {actual}")
_text("OBJECT_FUNCTION_WRONG_TYPE", "ILLEGAL_TYPE_PARAMETER", "function {label}[{name}] has wrong type, expects a Type[Callable] value, got {actual}")
# A named Object type narrowed by its type parameters (MyType[...], types/build.py parameterize_object);
# type_parameter ... is also Object[{type_parameters => ...}]'s text for a parameter that is no type.
_text("OBJECT_TYPE_NOT_PARAMETERIZABLE", "ILLEGAL_TYPE", "The {label}-Type cannot be parameterized using []")
_text("OBJECT_TYPE_UNKNOWN_PARAMETER", "ILLEGAL_TYPE", "'{name}' is not a known type parameter for {label}-Type")
_text("OBJECT_TYPE_EMPTY_PARAMETER_LIST", "ILLEGAL_TYPE", "The {label}-Type cannot be parameterized using an empty parameter list")
_text("OBJECT_TYPE_PARAMETER_WRONG_TYPE", "ILLEGAL_TYPE", "type_parameter {label}[{name}] has wrong type, expects {expected}, got {actual}")

# The preamble of an error raised while evaluating an expression, which makes it Puppet's
# RUNTIME_ERROR whatever its own code (EvalError.prefix, EvalError.puppet_issue_code).
_text("ERROR_WHILE_EVALUATING", "RUNTIME_ERROR", "Error while evaluating {expression}, ")
# How `puppet-ls eval` and the oracle protocol print an evaluation error (Puppet's log line),
# and the protocol's own answers (a request it cannot run; a failure of puppet-ls itself).
_text("EVALUATION_ERROR", "RUNTIME_ERROR", "Evaluation Error: {message}")
_def("BAD_REQUEST", ERROR, "bad request: {detail}")
_text("INTERNAL_ERROR_IN_PROTOCOL", "INTERNAL_ERROR", "Internal error: {name}: {exc}")
# What an evaluation error Puppet gives no issue code is reported as in diagnostics.
_def("EVAL_ERROR", ERROR, "{message}")
# Texts Puppet reports without an issue code (loader errors, deprecation warnings); the key
# names the text, the error itself carries no code (or the code of the errors it sums up).
_text("INVALID_UTF8_PLAIN", "EVAL_INVALID_UTF8", "invalid byte sequence in UTF-8")
_def("VALIDATION_GIVING_UP", ERROR, "Language validation logged {count} errors. Giving up")
_text("RESERVED_VARIABLE_NAME", "RUNTIME_ERROR", "Attempt to assign to a reserved variable name: '{name}'")
_text("RESERVED_PARAMETER_AT_LINE", "ILLEGAL_RESERVED_PARAMETER", "Attempt to assign to a reserved variable name: '{name}' (line: {line})")
_text("FLOAT_DOMAIN_ERROR", "RUNTIME_ERROR", "FloatDomainError: {value}")
_text("FLOAT_DOMAIN_ERROR_NAN", "RUNTIME_ERROR", "NaN")
_text("UNDEFINED_METHOD_DOWNCASE", "RUNTIME_ERROR", "undefined method `downcase' for {receiver}")
_def("DEPRECATED_STRING_AUTO_CONVERSION", WARNING, "The {fn}() function's auto conversion of String to {target} is deprecated - change to convert input before calling")
_def("DEPRECATED_EMPTY_NUMERIC", WARNING, "Calling function empty() with Numeric value is deprecated.")
_def("DEPRECATED_STRFTIME_SIGNATURE", WARNING, "The argument signature (String format, [String timezone]) is deprecated for #strftime. See #strftime documentation and Timespan type for more info")

# Texts of conversions (new), time formats and dig, under their classes' codes.
# language/eval/convert.py
_text("INVALID_VALUE_FOR_INTEGER", "TYPE_CONVERSION_ERROR", "invalid value for Integer(): {ruby_inspect}")
_text("INVALID_VALUE_FOR_FLOAT", "TYPE_CONVERSION_ERROR", "invalid value for Float(): {ruby_inspect}")
_text("VALUE_TYPE_CANNOT_CONVERTED_HASH", "TYPE_CONVERSION_ERROR", "Value of type {generalized_type_name} cannot be converted to Hash")
_text("NEW_HASH_ODD_ARGUMENTS", "TYPE_CONVERSION_ERROR", "odd number of arguments for Hash")
_text("SEMVER_PRERELEASE_LEADING_ZERO", "RUNTIME_ERROR", "Numeric pre-release identifiers MUST NOT contain leading zeroes")
_text("STRING_CANNOT_CONVERTED_SEMVER", "TYPE_CONVERSION_ERROR", "The string '{s}' cannot be converted to a SemVer")
_text("NEW_SEMVER_RANGE_UNPARSABLE", "TYPE_CONVERSION_ERROR", 'Unparsable version range: "{s}"')
_text("UNSUPPORTED_BINARY_FORMAT", "TYPE_CONVERSION_ERROR", "Unsupported Binary format {fmt}")
_text("INVALID_BASE64", "TYPE_CONVERSION_ERROR", "invalid base64")
_text("STRING_CANNOT_CONVERTED_TYPE", "TYPE_CONVERSION_ERROR", "The string '{s}' cannot be converted to a Type")
# language/eval/functions/collections.py
_text("GIVEN_DATA_DOES_NOT_CONTAIN", "SLICE_ERROR", "The given data does not contain a Collection at {ruby_list}, got '{t}'")
_text("GIVEN_DATA_REQUIRES_INTEGER_INDEX", "SLICE_ERROR", "The given data requires an Integer index at {ruby_list}, got '{t}'")
# language/eval/timefmt.py
_text("BAD_FORMAT_SPECIFIER_IN_AT", "TIME_FORMAT_ERROR", "Bad format specifier '{value}' in '{fmt}', at position {pos}")
_text("UNABLE_PARSE_USING_FORMAT", "TIME_FORMAT_ERROR", "Unable to parse '{text}' using format '{fmt}'")
_text("FORMAT_SPECIFIERS_L_AND_N", "TIME_FORMAT_ERROR", "Format specifiers %L and %N denotes fractions and must be used together with a specifier of higher magnitude")
_text("UNABLE_PARSE_USING_ANY_FORMATS", "TIME_FORMAT_ERROR", "Unable to parse '{text}' using any of the formats {join}")
_text("ILLEGAL_TIMEZONE", "TIME_FORMAT_ERROR", "Illegal timezone '{tz}'")
_text("UNABLE_PARSE_FORMAT", "TIME_FORMAT_ERROR", "Unable to parse format '{fmt}'")
_text("USING_TIMEZONE_DESIGNATOR_IN_FORMAT", "TIME_FORMAT_ERROR", "Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument")
_text("TIME_UNPARSABLE", "TIME_FORMAT_ERROR", "Unable to parse '{text}'")

# Ruby's format errors (sprintf, String(v, format)): evaluation errors with these texts.
# language/eval/rubyfmt.py
_text("CANT_CONVERT_INTO_INTEGER", "RUNTIME_ERROR", "can't convert {name} into Integer")
_text("CANT_CONVERT_NIL_INTO_INTEGER", "RUNTIME_ERROR", "can't convert nil into Integer")
_text("FLOAT_DOMAIN_VALUE", "RUNTIME_ERROR", "{ruby_float}")
_text("FORMAT_INVALID_INTEGER", "RUNTIME_ERROR", 'invalid value for Integer(): "{v}"')
_text("CANT_CONVERT_INTO_FLOAT", "RUNTIME_ERROR", "can't convert {name} into Float")
_text("CANT_CONVERT_NIL_INTO_FLOAT", "RUNTIME_ERROR", "can't convert nil into Float")
_text("FORMAT_INVALID_FLOAT", "RUNTIME_ERROR", 'invalid value for Float(): "{v}"')
_text("WIDTH_OR_PRECISION_TOO_LARGE", "RUNTIME_ERROR", "width or precision too large (more than {MAX_WIDTH})")
_text("MALFORMED_FORMAT_STRING", "RUNTIME_ERROR", "malformed format string - %{conv}")
_text("C_REQUIRES_CHARACTER", "RUNTIME_ERROR", "%c requires a character")
_text("INVALID_CHARACTER", "RUNTIME_ERROR", "invalid character")
_text("MALFORMED_FORMAT_STRING_AT", "RUNTIME_ERROR", "malformed format string - {value}")
_text("TOO_FEW_ARGUMENTS", "RUNTIME_ERROR", "too few arguments")
_text("ONE_HASH_REQUIRED", "RUNTIME_ERROR", "one hash required")
_text("KEY_NOT_FOUND", "RUNTIME_ERROR", "key{name} not found")
_text("INCOMPLETE_FORMAT_SPECIFIER", "RUNTIME_ERROR", "incomplete format specifier; use %% (double %) instead")
_text("INVALID_FORMAT_CHARACTER", "RUNTIME_ERROR", "invalid format character - %")
_text("FORMAT_FLAG_AFTER", "RUNTIME_ERROR", "flag after {what}")
_text("FORMAT_GIVEN_TWICE", "RUNTIME_ERROR", "{what} given twice")
_text("FORMAT_WIDTH_AFTER_PRECISION", "RUNTIME_ERROR", "width after precision")
_text("FORMAT_VALUE_GIVEN_TWICE", "RUNTIME_ERROR", "value given twice - {n}$")
_text("FORMAT_MALFORMED_NAME", "RUNTIME_ERROR", "malformed name - unmatched parenthesis")
_text("FORMAT_NAMED_AFTER", "RUNTIME_ERROR", "named{name} after {other}")
_text("FORMAT_NUMBERED_AFTER", "RUNTIME_ERROR", "numbered({n}) after {other}")
_text("FORMAT_UNNUMBERED_MIXED", "RUNTIME_ERROR", "unnumbered({n}) mixed with {other}")
_text("FORMAT_INVALID_INDEX", "RUNTIME_ERROR", "invalid index - {n}$")
# language/eval/stringconv.py
_text("STRING_CONVERSION_EXPECTS_DEFAULT_VALUE", "RUNTIME_ERROR", "string conversion expects a Default value or a Hash of type to format mappings, got a '{ruby_class}'")
_text("EXPECTED_HASH_WITH_TYPE_FORMAT", "RUNTIME_ERROR", "expected a hash with type to format mappings, got instance of '{ruby_class}'")
_text("TOP_LEVEL_KEYS_IN_FORMAT", "RUNTIME_ERROR", "top level keys in the format hash must be data types, got instance of '{ruby_class}'")
_text("ONLY_ARE_ALLOWED_IN_CONTAINER", "RUNTIME_ERROR", "only {allowed} are allowed in a container format, got {ruby_inspect}")
_text("ILLEGAL_FORMAT_SPECIFIED_FOR_VALUE", "RUNTIME_ERROR", "Illegal format '{actual}' specified for value of {type_name} type - expected one of the characters '{expected}'")
_text("INVALID_BYTE_SEQUENCE", "RUNTIME_ERROR", '"\\x{next:02X}" from ASCII-8BIT to UTF-8')
_text("FORMAT_NOT_VALID_FORMAT_ON", "RUNTIME_ERROR", "The format '{fmt}' is not a valid format on the form '%<flags><width>.<prec><format>'")
_text("SAME_FLAG_CAN_ONLY_USED", "RUNTIME_ERROR", "The same flag can only be used once, got '{fmt}'")
_text("ONLY_ONE_DELIMITERS_CAN_GIVEN", "RUNTIME_ERROR", "Only one of the delimiters [ {{ ( < | can be given in the format flags, got '{fmt}'")

# ==== server / static checks (puppet_ls.language.check) =========================================
# Findings of the evaluation-free checker.  Things that may be defined outside what was indexed
# are warnings, and are only reported when the index covers where they would be defined.
_def("UNDEFINED_VARIABLE", WARNING, "Unknown variable: '${name}'")
_def("UNDEFINED_CLASS_VARIABLE", WARNING, "Unknown variable: '${name}' (class '{cls}' has no variable '{var}')")
_def("UNDEFINED_FUNCTION", WARNING, "Unknown function: '{name}'")
_def("UNDEFINED_CLASS", WARNING, "Unknown class: '{name}'")
_def("UNDEFINED_RESOURCE_TYPE", WARNING, "Unknown resource type: '{name}'")
_def("UNDEFINED_TYPE", WARNING, "Unknown type: '{name}' is not a data type, resource type, class or type alias")
_def("WRONG_ARGUMENT_COUNT", ERROR, "'{name}' expects {expected}, got {actual}")
_def("WRONG_ARGUMENT_TYPE", ERROR, "'{name}' parameter '{param}' expects a value of type {expected}, got {actual}")
_def("NO_MATCHING_SIGNATURE", ERROR, "'{name}' does not accept these arguments; it expects one of: {signatures}")
_def("BLOCK_NOT_ACCEPTED", ERROR, "'{name}' does not accept a lambda")
_def("BLOCK_REQUIRED", ERROR, "'{name}' expects a lambda")
_def("WRONG_LAMBDA_ARITY", ERROR, "'{name}' calls its lambda with {expected}; this lambda takes {actual}")
_def("NO_SUCH_PARAMETER", ERROR, "{resource} has no parameter named '{param}'")
_def("PARAMETER_TYPE_MISMATCH", ERROR, "{resource}: parameter '{param}' expects a value of type {expected}, got {actual}")
# Puppet's own text; a warning, since resource defaults set by a calling scope may give the value
_def("MISSING_RESOURCE_PARAMETER", WARNING, "{resource}: expects a value for parameter '{param}'")
_def("DEFAULT_TYPE_MISMATCH", ERROR, "The default value of parameter ${param} does not match its type: expects a value of type {expected}, got {actual}")
# The same findings against definitions read from other files of the workspace or modulepath:
# warnings, because that code may not be the version that will really be used.
_def("UNKNOWN_PARAMETER", WARNING, "{resource} has no parameter named '{param}' (in the indexed definition)")
_def("PARAMETER_VALUE_MISMATCH", WARNING, "{resource}: parameter '{param}' expects a value of type {expected}, got {actual} (per the indexed definition)")
_def("ARGUMENT_COUNT_MISMATCH", WARNING, "'{name}' expects {expected}, got {actual} (per the indexed definition)")
_def("ARGUMENT_TYPE_MISMATCH", WARNING, "'{name}' parameter '{param}' expects a value of type {expected}, got {actual} (per the indexed definition)")
# Bolt tasks: a run_task call against the task's metadata (tasks/<name>.json), as Bolt checks it
# before running the task.
_def("TASK_UNKNOWN_PARAMETER", WARNING, "Task '{task}' has no parameter named '{param}' (per its metadata)")
_def("TASK_MISSING_PARAMETER", WARNING, "Task '{task}' expects a value for parameter {params} (per its metadata)")
_def("TASK_PARAMETER_MISMATCH", WARNING, "Task '{task}': parameter '{param}' expects a value of type {expected}, got {actual} (per its metadata)")
# Control repositories: a Puppetfile (a Ruby DSL, never parsed as Puppet) against the indexed modules.
_def("PUPPETFILE_MODULE_NOT_INSTALLED", INFO, "Module '{module}' is declared in the Puppetfile but not installed: no module '{name}' in the modulepath")

# ---- built-in resource types (language/knowledge/resource_types.py: rtypes) ---------------------
# Puppet checks attribute names when it compiles a catalog (an error), but values only when the
# agent or `puppet apply` turns the catalog into resources: a server-side compile succeeds, so a
# bad value is a warning.
_def("RESOURCE_NO_SUCH_PARAMETER", ERROR, "no parameter named '{param}' on {resource}")
_def("INVALID_ATTRIBUTE_VALUE", WARNING, "Parameter {param} failed on {resource}: Invalid value {value}. {valid} (Puppet refuses it when the catalog is applied)")

# ==== Hiera 5 (puppet_ls.language.hiera) ========================================================
# Problems of hiera.yaml files and Hiera data files, and of lookups in them.  Codes are Puppet's
# where Puppet has one (HIERA_*); the others are puppet-ls's own.
_def("HIERA_YAML_SYNTAX", ERROR, "YAML syntax error: {problem}")
_def("HIERA_JSON_SYNTAX", ERROR, "JSON syntax error: {problem}")
_def("HIERA_DATA_NOT_HASH", ERROR, "A Hiera data file must hold a hash of keys and values, not {kind}")
_def("HIERA_CONFIG_NOT_HASH", ERROR, "hiera.yaml must hold a hash (version, defaults, hierarchy), not {kind}; Puppet falls back to the Hiera 3 defaults")
_def("HIERA_OLD_VERSION", WARNING, "Hiera version {version} configuration: Puppet still reads it, but puppet-ls reads only version 5 and shows no data from this layer; migrate it to version 5")
_def("HIERA_UNSUPPORTED_VERSION", ERROR, "This runtime does not support Hiera version {version}")
_def("HIERA_UNKNOWN_KEY", ERROR, "Unknown key '{key}' in {where}; expected one of {expected}")
_def("HIERA_BAD_VALUE", ERROR, "'{key}' in {where} must be {expected}")
_def("HIERA_MISSING_DATA_PROVIDER_FUNCTION", ERROR, "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '{name}'")
_def("HIERA_MULTIPLE_DATA_PROVIDER_FUNCTIONS", ERROR, "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in hierarchy '{name}'")
_def("HIERA_MULTIPLE_LOCATION_SPECS", ERROR, "Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy '{name}'")
_def("HIERA_HIERARCHY_NAME_MULTIPLY_DEFINED", ERROR, "Hierarchy name '{name}' defined more than once")
_def("HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE", ERROR, "'default_hierarchy' is only allowed in the module layer")
_def("HIERA_UNKNOWN_FUNCTION", INFO, "{kind} function '{name}' is not one puppet-ls can read (it reads yaml_data, json_data and eyaml_lookup_key); level '{name_of_level}' is skipped in lookups")
_def("HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD", ERROR, "Unknown interpolation method '{name}'")
_def("HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING", ERROR, "'alias' interpolation is only permitted if the expression is equal to the entire string")
_def("HIERA_INTERPOLATION_METHOD_SYNTAX_NOT_ALLOWED", ERROR, "Interpolation using method syntax is not allowed in this context")
_def("HIERA_INTERPOLATION_SYNTAX", ERROR, "Syntax error in string: {subject}")
_def("HIERA_RECURSIVE_LOOKUP", ERROR, "Recursive lookup detected in [{chain}]")
_def("HIERA_MERGE_TYPE_MISMATCH", ERROR, "The {strategy} merge of '{key}' expects {expected}, got {actual}")
_def("HIERA_DIG_MISMATCH", ERROR, "Data Provider type mismatch: Got {klass} when a hash-like object was expected to access value using '{segment}' from key '{key}'")
_def("HIERA_LOOKUP_OPTIONS_NOT_HASH", ERROR, "value of lookup_options must be a hash")
_def("HIERA_LOOKUP_OPTIONS_MODULE_KEY", ERROR, "all lookup_options keys must start with module name '{module}'")
_def("HIERA_CONVERT_TO_FAILED", ERROR, "The convert_to lookup_option for key '{key}' raised error: {reason}")
# Findings in data files against the classes of the workspace (automatic parameter lookup).
_def("HIERA_UNKNOWN_CLASS_PARAMETER", WARNING, "'{key}': class '{cls}' has no parameter '{param}'{suggestion}")
_def("HIERA_UNBOUND_CLASS_KEY", INFO, "'{key}' is in the namespace of class '{cls}' but binds none of its parameters; only an explicit lookup() reads it")
_def("HIERA_VALUE_TYPE_MISMATCH", WARNING, "'{key}' is bound to parameter ${param} of class '{cls}', which expects a value of type {expected}, got {actual}")

# ==== formatter (puppet_ls.language.formatter) ===================================================
# Why (part of) a file was left as it was; the formatter never writes text it cannot prove safe.
_def("FORMAT_SKIPPED_STATEMENT", INFO, "This statement has syntax errors: it was left as it is, not formatted")
_def("FORMAT_UNSAFE", ERROR, "Formatting would change what this file means ({detail}); it was left unchanged (a puppet-ls bug: please report it)")

# ==== style checks (puppet_ls.language.lint) ====================================================
# puppet-lint's checks, under puppet-lint's check names (so `# lint:ignore:<name>` comments and
# team habits carry over) and with its warning/error split; the texts are our own and say what
# to do.  Which are on by default, and which can be fixed, is declared in language/lint/.
_def("140chars", WARNING, "Line has more than 140 characters; break it up")
_def("80chars", WARNING, "Line has more than 80 characters; break it up")
_def("2sp_soft_tabs", ERROR, "Indentation is not a multiple of two spaces; indent by two spaces per level")
_def("arrow_alignment", WARNING, "'=>' is in column {found}; align it with the other arrows of this block, in column {expected}")
_def("hard_tabs", ERROR, "Tab character in whitespace; use spaces")
_def("trailing_whitespace", ERROR, "Trailing whitespace; remove it")
_def("slash_comments", WARNING, "'//' comment; write comments with '#'")
_def("star_comments", WARNING, "'/* */' comment; write comments with '#'")
_def("arrow_on_right_operand_line", WARNING, "'{arrow}' ends the line; put it at the start of the next line, beside its right operand")
_def("autoloader_layout", ERROR, "{kind} '{name}' is not where Puppet's autoloader looks for it ({expected})")
_def("class_inherits_from_params_class", WARNING, "Class inherits from the params class '{parent}'; give the parameters their defaults directly (or in module data)")
_def("code_on_top_scope", WARNING, "Code outside of any class or defined type ({text}); move it into one")
_def("inherits_across_namespaces", WARNING, "Class inherits from '{parent}' of another module; inherit only within the module")
_def("names_containing_dash", ERROR, "The {kind} name '{name}' contains a dash; use an underscore")
_def("names_containing_uppercase", ERROR, "The {kind} name '{name}' contains uppercase letters; use lower case")
_def("nested_classes_or_defines", WARNING, "{kind} defined inside a class; give it its own file")
_def("parameter_order", WARNING, "Required parameter ${name} is listed after an optional one; list required parameters first")
_def("right_to_left_relationship", WARNING, "Right-to-left relationship '<-'; write it left to right with '->'")
_def("variable_scope", WARNING, "Top-scope variable ${name} used without a namespace; write $::{name}, or define it here")
_def("case_without_default", WARNING, "Case statement without a default case; add 'default: {{}}' (failing there if no other value is expected)")
_def("selector_inside_resource", WARNING, "Selector inside a resource; choose the value in a variable before the resource")
_def("documentation", WARNING, "{kind} '{name}' is not documented; add a comment right above it")
_def("unquoted_node_name", WARNING, "Unquoted node name '{name}'; quote it")
_def("duplicate_params", ERROR, "Attribute '{name}' is set twice in this resource; keep one")
_def("ensure_first_param", WARNING, "'ensure' is not the first attribute; move it first")
_def("ensure_not_symlink_target", WARNING, "Symlink target given as 'ensure'; write ensure => link and target => {target}")
_def("file_mode", WARNING, "File mode {value} is neither a 4-digit octal mode nor a symbolic mode; write e.g. '0644'")
_def("unquoted_file_mode", WARNING, "Unquoted file mode {value}; quote it, e.g. '0644'")
_def("unquoted_resource_title", WARNING, "Unquoted resource title '{title}'; quote it")
_def("double_quoted_strings", WARNING, "Double-quoted string without variables or escapes; use single quotes")
_def("only_variable_string", WARNING, "String containing only the variable ${name}; use the variable itself")
_def("puppet_url_without_modules", WARNING, "puppet:// URL without 'modules/'; write puppet:///modules/<module>/<path>")
_def("quoted_booleans", WARNING, "Quoted boolean '{value}'; use the bare boolean {value}")
_def("single_quote_string_with_variables", ERROR, "Single-quoted string containing '${{'; use double quotes to interpolate")
_def("variables_not_enclosed", WARNING, "Variable ${name} in a string without braces; write ${{{name}}}")
_def("variable_contains_dash", WARNING, "Variable ${name} contains a dash; use an underscore")
_def("variable_is_lowercase", WARNING, "Variable ${name} contains uppercase letters; use lower case")
_def("legacy_facts", WARNING, "Legacy fact '{name}'; read the structured fact from $facts instead (legacy facts are gone from Puppet 8's default Facter)")
_def("top_scope_facts", WARNING, "Top-scope fact ${name}; write {replacement}")
# puppet-ls's own findings about control comments (puppet-lint prints these on stderr)
_def("LINT_IGNORE_UNCLOSED", WARNING, "'lint:ignore:{check}' opens a block that no 'lint:endignore' closes, so it silences nothing")
_def("LINT_ENDIGNORE_UNMATCHED", WARNING, "'lint:endignore' without an open 'lint:ignore:<check>' block")
# The Vox Pupuli plugin checks (off by default, as a plugin is until its gem is installed), under
# the plugins' check names; declared in language/lint/plugins_*.py.
_def("trailing_comma", WARNING, "Missing comma after the last element; end it with ',' so that adding an element changes one line")
_def("unquoted_string_in_case", WARNING, "Unquoted string '{value}' as a case value; quote it")
_def("unquoted_string_in_selector", WARNING, "Unquoted string '{value}' as a selector value; quote it")
_def("relative_classname_inclusion", WARNING, "Class '{name}' named with a leading '::'; class names are always absolute, drop the '::'")
_def("relative_classname_reference", WARNING, "Class reference to '{name}' with a leading '::'; class names are always absolute, drop the '::'")
_def("topscope_variable", WARNING, "Variable $::{name} of this module written with a leading '::'; write ${name}")
_def("parameter_documentation", WARNING, "Parameter {name} of this {kind} is not documented; add '@param' for it to the comment above the {kind}")
_def("params_empty_string_assignment", WARNING, "String parameter ${name} defaults to the empty string; make it Optional with the default undef")
_def("optional_default", WARNING, "Optional parameter ${name} {reason}")
_def("lookup_in_parameter", WARNING, "lookup() sets a parameter's default; let automatic parameter lookup read the key from Hiera (or put the default in module data)")
_def("resource_reference_with_unquoted_title", ERROR, "Unquoted title '{title}' in a resource reference; quote it")
_def("resource_reference_chain_without_whitespace", ERROR, "Whitespace between '{type}' and '['; write the reference without it")
_def("strict_indent", WARNING, "Indentation is {actual} characters; indent this line by {expected}")
_def("manifest_whitespace_opening_brace_before", ERROR, "Put exactly one space before this '{{'")
_def("manifest_whitespace_opening_brace_after", ERROR, "Put one space or one line break after this '{{'")
_def("manifest_whitespace_closing_brace_before", ERROR, "Put one space or a line break before this '}}'")
_def("manifest_whitespace_closing_brace_after", ERROR, "Follow '}}' with a line break, punctuation or a bracket, or with a space and other code")
_def("manifest_whitespace_two_empty_lines", ERROR, "Two empty lines in a row; keep one")
_def("manifest_whitespace_missing_newline_end_of_file", ERROR, "The manifest does not end with a line break; add one")
_def("manifest_whitespace_double_newline_end_of_file", ERROR, "Empty line at the end of the manifest; end it with a single line break")
_def("manifest_whitespace_class_name_single_space_before", ERROR, "Put exactly one space between the keyword and the name")
_def("manifest_whitespace_class_name_single_space_after", ERROR, "Put exactly one space after the name")
_def("manifest_whitespace_opening_bracket_before", ERROR, "Put exactly one space before this '['")
_def("manifest_whitespace_opening_bracket_after", ERROR, "No whitespace or empty line after '['; start the first element right after it or on the next line")
_def("manifest_whitespace_closing_bracket_before", ERROR, "No whitespace or empty line before ']'; end the last element right before it or on the line above")
_def("manifest_whitespace_closing_bracket_after", ERROR, "Follow ']' with a line break, punctuation or a bracket, or with a space and other code")

# ==== fragments: parts of evaluation messages, never reported alone ==============================
# Why Ruby refuses to order two values (Puppet's COMPARISON_NOT_POSSIBLE "Caused by '...'").
_fragment("COMPARE_STRING_TO_NON_STRING", "A String is not comparable to a non String")
_fragment("COMPARE_NUMERIC_TO_NON_NUMERIC", "A Numeric is not comparable to non Numeric")
_fragment("COMPARE_TIMESPAN", "Timespans are only comparable to Timespans, Integers, and Floats")
_fragment("COMPARE_TIMESTAMP", "Timestamps are only comparable to Timestamps, Integers, and Floats")
_fragment("COMPARE_VERSION", "Versions not comparable to non Versions")
_fragment("COMPARE_SYMBOL", "Symbol not comparable to non Symbol")
_fragment("COMPARE_UNORDERED", "Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable")
# Why Onigmo (Ruby's regexp engine) refuses a regular expression, and the reason with the pattern
# as Ruby's RegexpError writes it ("premature end of char-class: /[/").
_fragment("ONIGMO_TOO_SHORT_ESCAPE", "too short escape sequence")
_fragment("ONIGMO_INVALID_PROPERTY_NAME", "invalid character property name {{{name}}}")
_fragment("ONIGMO_INVALID_BACKREF", "invalid backref number/name")
_fragment("ONIGMO_UNDEFINED_GROUP_OPTION", "undefined group option")
_fragment("ONIGMO_END_PATTERN_IN_GROUP", "end pattern in group")
_fragment("ONIGMO_UNMATCHED_CLOSE_PAREN", "unmatched close parenthesis")
_fragment("ONIGMO_NOTHING_TO_REPEAT", "target of repeat operator is not specified")
_fragment("ONIGMO_UNMATCHED_PAREN", "end pattern with unmatched parenthesis")
_fragment("ONIGMO_INVALID_POSIX_BRACKET", "invalid POSIX bracket type")
_fragment("ONIGMO_NESTED_NEGATED_CLASS", "nested negated character class")
_fragment("ONIGMO_CLASS_INTERSECTION", "character class intersection")
_fragment("ONIGMO_PREMATURE_END_OF_CLASS", "premature end of char-class")
_fragment("ONIGMO_BAD_REPEAT_RANGE", "upper is smaller than lower in repeat range")
_fragment("ONIGMO_EMPTY_RANGE", "empty range in char class")
_fragment("ONIGMO_UNDEFINED_NAME_REFERENCE", "undefined name <{name}> reference")
_fragment("ONIGMO_INVALID_GROUP_NAME", "invalid group name <{name}>")
_fragment("ONIGMO_EMPTY_GROUP_NAME", "group name is empty")
_fragment("ONIGMO_INVALID_HEX_ESCAPE", "invalid hex escape")
_fragment("REGEXP_ERROR", "{reason}: /{pattern}/")
_fragment("REGEXP_INVALID", "invalid regular expression: /{pattern}/")
# A suggestion appended to HIERA_UNKNOWN_CLASS_PARAMETER.
_fragment("HIERA_DID_YOU_MEAN", "; did you mean '{name}'?")

# ==== server (puppet_ls.server): limits of the language server ==================================
_def("DOCUMENT_TOO_LARGE", WARNING,
     "This file has {size} characters, more than puppet.documents.maxSize ({limit}): it is not "
     "analysed (no diagnostics, hovers, completion, outline or previews). Raise the setting to analyse it.")

# ---- editor: why a rename is refused (language/ide/rename.py), the error of prepareRename/rename -
_fragment("RENAME_NOTHING_HERE", "Nothing here can be renamed: put the cursor on a variable, parameter, attribute, class, defined type, function or type alias")
_fragment("RENAME_BUILTIN", "'{name}' is built into Puppet and cannot be renamed")
_fragment("RENAME_DEFINED_IN_RUBY", "'{name}' is defined in Ruby; rename renames Puppet code only")
_fragment("RENAME_FACT_OR_TOP", "'{name}' is a fact or a top-scope variable set outside this code; it cannot be renamed here")
_fragment("RENAME_NOT_IN_WORKSPACE", "'{name}' is not defined in the workspace, so not every use of it can be found")
_fragment("RENAME_NESTED_DEFINITION", "'{name}' is defined inside another class ({where}); rename a class or defined type written with its full name")
_fragment("RENAME_NAMED_IN_STRING", "'{name}' is also named in a string that rename cannot rewrite ({where})")
_fragment("RENAME_ERB_SCOPE", "'{name}' may be read by an ERB template this scope renders in a way rename cannot rewrite (a computed template name, an unreadable file, a template other code renders too, or a use other than @name)")
_fragment("RENAME_INVALID_NAME", "'{name}' is not a valid {what} name")
_fragment("RENAME_RESERVED", "'{name}' is reserved by Puppet (a built-in variable or metaparameter)")
_fragment("RENAME_COLLISION", "'{name}' is already in use here; renaming would merge two names")

# ==== previews (puppet_ls.language.ide.preview): what the chosen node does not run ===============
_def("UNREACHED_BRANCH", HINT, "Not taken on {node} (facts: {facts})")
_def("NODE_FAILS", WARNING, "On {node} (facts: {facts}) the catalog fails here: {message}")
