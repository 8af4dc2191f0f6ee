"""Puppet's names for expressions in its messages (its validator's and evaluator's label
provider): "a String", "An 'if' statement", "a Function Call", with the article English wants."""
from __future__ import annotations

from . import ast
from . import kinds as K
from .tree import SyntaxNode

# What Puppet's label provider calls the model element each node kind makes (kinds whose
# label depends on more are in ``node_label``).
_NODE_LABELS = {
    K.QNAME: "Name", K.TYPE_REF: "Type-Name", K.VARIABLE_EXPR: "Variable",
    K.ARRAY: "Array Expression", K.HASH: "Hash Expression", K.HASH_ENTRY: "Hash Entry",
    K.ACCESS_EXPR: "'[]' expression", K.CALL_EXPR: "Function Call", K.STATEMENT_CALL: "Function Call",
    K.METHOD_CALL: "Method call", K.PAREN_EXPR: "Parenthesized Expression",
    K.SELECTOR_EXPR: "Selector Expression", K.SELECTOR_ENTRY: "Selector Option",
    K.IF_EXPR: "'if' statement", K.UNLESS_EXPR: "'unless' Statement", K.CASE_EXPR: "'case' statement",
    K.CASE_OPTION: "Case Option", K.RESOURCE_EXPR: "Resource Statement",
    K.RESOURCE_BODY: "Resource Instance Definition", K.RESOURCE_DEFAULTS: "Resource Defaults Expression",
    K.RESOURCE_OVERRIDE: "Resource Override", K.LAMBDA: "Lambda", K.BLOCK: "Block Expression",
    K.CLASS_DEF: "Host Class Definition", K.DEFINE_DEF: "'define' expression",
    K.NODE_DEF: "Node Definition", K.FUNCTION_DEF: "Function Definition", K.PLAN_DEF: "Plan Definition",
    K.TYPE_ALIAS: "Type Alias", K.TYPE_DEFINITION: "Type Definition", K.APPLY_EXPR: "'apply' expression",
    K.PARAM: "Parameter Definition",
}
_LITERAL_LABELS = {K.STRING: "String", K.BOOLEAN: "Boolean", K.UNDEF: "'undef' expression",
                   K.DEFAULT: "'default' expression", K.REGEX: "Regular Expression"}
_UNARY_LABELS = {"-": "Unary Minus", "!": "'not' expression", "*": "Unfold"}
_OPERATOR_KINDS = frozenset({K.BINARY_EXPR, K.ASSIGNMENT, K.RELATIONSHIP})


def node_label(node: SyntaxNode | None) -> str:
    """What Puppet calls the expression ``node`` in its messages ("Expression" for none)."""
    if node is None:
        return "Expression"
    k = node.kind
    if k == K.LITERAL:
        t = node.first_token()
        if t is not None and t.kind == K.NUMBER:
            return "Literal Integer" if type(ast.number_value(t.text)) is int else "Literal Float"
        return _LITERAL_LABELS.get(t.kind if t is not None else "", "Literal")
    if k == K.DQ_STRING:
        # Puppet's lexer makes a plain string of one without interpolation
        return "String" if node.child(K.INTERPOLATION) is None else "Double Quoted String"
    if k == K.ATTRIBUTE_OP:
        return "'+>' expression" if node.token(K.PARROW) is not None else "'=>' expression"
    if k in _OPERATOR_KINDS:
        op = next(iter(node.significant_tokens()), None)     # (the operands are nodes)
        return f"'{op.text if op is not None else '?'}' expression"
    if k == K.UNARY_EXPR:
        op = next(iter(node.significant_tokens()), None)
        return _UNARY_LABELS.get(op.text if op is not None else "", "Unary Expression")
    if k == K.HEREDOC_EXPR:
        return f"'@({ast.HeredocExpr(node).syntax_name})' expression"
    if k == K.COLLECT_EXPR:
        return "Exported Query" if ast.CollectExpr(node).exported else "Virtual Query"
    if k == K.RESERVED_WORD:
        return f"Reserved Word '{ast.ReservedWord(node).name}'"
    if k == K.RESOURCE_EXPR and node.child(K.RESOURCE_BODY) is None:
        # `notify { message => 'x' }`: a name and a hash in Puppet's model, a block of the two
        return _NODE_LABELS[K.BLOCK]
    return _NODE_LABELS.get(k, k.replace("_", " ").title())


def article(text: str) -> str:
    ch = text[:1]
    if ch in ("'", '"') and len(text) > 1:
        ch = text[1]
    return "an" if ch.lower() in "aeiou" else "a"


def a_an(text: str) -> str:
    return f"{article(text)} {text}"


def a_an_uc(text: str) -> str:
    art = article(text)
    return f"{art[0].upper()}{art[1:]} {text}"
