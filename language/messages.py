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
    if code in _ISSUES:
        # Two meanings for one code would make the registry lie; fail at import.
        raise ValueError(f"diagnostic code {code} is defined twice")
    issue_ = Issue(code, severity, template, doc)
    _ISSUES[code] = issue_
    return issue_


# ---- lexical ------------------------------------------------------------------------------------
_def("UNCLOSED_COMMENT", ERROR, "Unclosed multi-line comment")
_def("ILLEGAL_CHARACTER", ERROR, "Illegal character {char}")
_def("ILLEGAL_BOM", ERROR, "Illegal {kind} Byte Order mark at beginning of input: [{bytes}] - remove these from the puppet source")
_def("ILLEGAL_FULLY_QUALIFIED_NAME", ERROR, "Illegal fully qualified name")
_def("ILLEGAL_NAME", ERROR, "Illegal name. The given name '{name}' does not conform to the naming rule /^((::)?[a-z_]\\w*)(::[a-z]\\w*)*$/")
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
_def("ILLEGAL_BUILTIN_ASSIGNMENT", ERROR, "Cannot reassign built in (or already assigned) variable '${name}'")
_def("CONDITIONAL_REASSIGNMENT", WARNING, "Cannot reassign variable '${name}': evaluating this branch fails, the variable is already assigned")
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


def issue(code: str) -> Issue:
    return _ISSUES[code]


def all_issues() -> list[Issue]:
    return list(_ISSUES.values())


# =================================================================================================
# ---- evaluation (language/eval) -----------------------------------------------------------------
# Codes raised while evaluating code.  They reuse Puppet's issue codes (so users can look them up);
# the evaluator builds the same texts with the arguments it knows.  Codes only puppet-ls has are
# marked "(puppet-ls)".
_def("RUNTIME_ERROR", ERROR, "Error while evaluating {expression}, {detail}")
_def("DIV_BY_ZERO", ERROR, "Division by 0")
_def("ILLEGAL_RESERVED_PARAMETER", ERROR, "Attempt to assign to a reserved variable name: '{name}' (puppet-ls: a class or define parameter named like a reserved variable)")
_def("DUPLICATE_DEFINITION", ERROR, "{kind} '{name}' is already defined; cannot redefine (puppet-ls: Puppet's loader reports it without an issue code)")
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
_def("NOT_CATALOG_TYPE", ERROR, "Illegal relationship operand, can not form a relationship with something of type {type}. A Catalog type is required.")
_def("TYPE_MISMATCH", ERROR, "Expected value of type {expected}, got {actual}")
_def("MISSING_REQUIRED_PARAMETER", ERROR, "Parameter ${name} is required but no value was given")
_def("DISCONTINUED_IMPORT", ERROR, "Use of 'import' has been discontinued in favor of a manifest directory. See http://links.puppet.com/puppet-import-deprecation")
_def("ILLEGAL_TYPE", ERROR, "{message}")
_def("TYPE_CONVERSION_ERROR", ERROR, "{message}")
_def("ARGUMENT_ERROR", ERROR, "{message}")
_def("SLICE_ERROR", ERROR, "{message}")
_def("NO_NODE_MATCH", ERROR, "Could not find node statement with name 'default' or '{node}'")
_def("CONTROL_FLOW", ERROR, "{word}() from context where this is illegal")
_def("NOT_AVAILABLE_IN_SANDBOX", ERROR, "The function '{name}' is not available in this context (puppet-ls)")
_def("EVAL_BUDGET_EXCEEDED", ERROR, "Evaluation stopped: the step budget of {steps} steps is exhausted (puppet-ls)")
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
_def("DEFAULT_TYPE_MISMATCH", ERROR, "The default value of parameter ${param} does not match its type: expects a value of type {expected}, got {actual}")
# The same findings against definitions read from other files of the workspace or modulepath:
# warnings, because that code may not be the version that will really be used.
_def("UNKNOWN_PARAMETER", WARNING, "{resource} has no parameter named '{param}' (in the indexed definition)")
_def("PARAMETER_VALUE_MISMATCH", WARNING, "{resource}: parameter '{param}' expects a value of type {expected}, got {actual} (per the indexed definition)")
_def("ARGUMENT_COUNT_MISMATCH", WARNING, "'{name}' expects {expected}, got {actual} (per the indexed definition)")
_def("ARGUMENT_TYPE_MISMATCH", WARNING, "'{name}' parameter '{param}' expects a value of type {expected}, got {actual} (per the indexed definition)")

# ---- built-in resource types (language/knowledge/resource_types.py: rtypes) ---------------------
# Puppet checks attribute names when it compiles a catalog (an error), but values only when the
# agent or `puppet apply` turns the catalog into resources: a server-side compile succeeds, so a
# bad value is a warning.
_def("RESOURCE_NO_SUCH_PARAMETER", ERROR, "no parameter named '{param}' on {resource}")
_def("INVALID_ATTRIBUTE_VALUE", WARNING, "Parameter {param} failed on {resource}: Invalid value {value}. {valid} (Puppet refuses it when the catalog is applied)")

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

# ==== server (puppet_ls.server): limits of the language server ==================================
_def("DOCUMENT_TOO_LARGE", WARNING,
     "This file has {size} characters, more than puppet.documents.maxSize ({limit}): it is not "
     "analysed (no diagnostics, hovers, completion, outline or previews). Raise the setting to analyse it.")
