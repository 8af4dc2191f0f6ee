"""Signature help: the signatures of the function whose argument list the cursor is in, and
which parameter is being typed.  Found from the tokens before the cursor, so it works while the
call is still unclosed."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..check.analysis import Analysis
from ..syntax import kinds as K
from . import lookup
from .tokens import enclosing_bracket, enclosing_opener, tokens_before, tokens_between


@dataclass
class SignatureInfo:
    label: str
    parameters: list = field(default_factory=list)    # labels of the parameters, in order
    documentation: str = ""


@dataclass
class SignatureHelpResult:
    signatures: list
    active_signature: int
    active_parameter: int


def signature_help(an: Analysis, offset: int) -> SignatureHelpResult | None:
    root = an.result.root
    opener = enclosing_bracket(root, offset)
    if opener is not None and opener.parent is not None and opener.parent.kind == K.ERROR:
        opener, _ = enclosing_opener(root, offset)
    hops = 0
    while opener is not None and opener.kind not in (K.LPAREN, K.WSLPAREN) and hops < 3:
        # inside [ ] or { } within the arguments: look further out
        opener = enclosing_bracket(root, opener.offset)
        hops += 1
    if opener is None or opener.kind not in (K.LPAREN, K.WSLPAREN):
        return None
    between = tokens_between(root, opener.end, offset)
    name_tok = None
    method = False
    prev = []
    for t in tokens_before(root, opener.offset):
        if t.end <= opener.offset:
            prev.append(t)
            if len(prev) == 2:
                break
    if prev and prev[0].kind == K.NAME:
        name_tok = prev[0]
        method = len(prev) > 1 and prev[1].kind == K.DOT
    if name_tok is None:
        return None
    name = name_tok.text
    active = _commas(between) + (1 if method else 0)
    sigs = lookup.function_signatures(an, name)
    if not sigs:
        return None
    target = lookup.function_target(an, name)
    doc = target.doc if target is not None else ""
    infos = []
    for s in sigs:
        if isinstance(s, str):
            infos.append(SignatureInfo(s, _split_params(s), doc))
        else:
            infos.append(SignatureInfo(s.label(), s.param_labels(), doc))
    chosen = 0
    for i, s in enumerate(sigs):
        if not isinstance(s, str) and s.min_args <= active + 1 <= s.max_args + 1 and active < s.max_args:
            chosen = i
            break
    return SignatureHelpResult(infos, chosen, active)


def _commas(between: list) -> int:
    depth = 0
    n = 0
    for t in between:
        if t.kind in (K.LBRACK, K.LISTSTART, K.LPAREN, K.WSLPAREN, K.LBRACE, K.SELBRACE):
            depth += 1
        elif t.kind in (K.RBRACK, K.RPAREN, K.RBRACE):
            depth -= 1
        elif t.kind == K.COMMA and depth == 0:
            n += 1
    return n


def _split_params(label: str) -> list:
    """Parameter labels of a signature written as text: 'f(A a, B b)'."""
    inner = label[label.find("(") + 1: label.rfind(")")] if "(" in label else ""
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "[({":
            depth += 1
        elif ch in "])}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out
