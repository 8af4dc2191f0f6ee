"""Checks of heredoc text declared with a syntax (``@(END:json)``, ``pp``, ``epp``, ``base64``).

Puppet validates the produced text with a checker chosen by the last segment of the syntax
name; a heredoc without interpolation is checked before evaluation (a validation error), one
with interpolation when its text has been produced.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
from ..syntax.parser import parse
from .context import LineIndex


def _checker(syntax: str) -> str | None:
    if not syntax:
        return None
    last = syntax.split("+")[-1]
    return last if last in ("json", "pp", "epp", "base64") else None


def check_heredoc(syntax: str, text: str) -> str | None:
    """The error message for invalid text, or None."""
    kind = _checker(syntax)
    if kind is None:
        return None
    head = f"Invalid produced text having syntax: '{syntax}'. "
    if kind == "json":
        try:
            json.loads(text)
        except ValueError as exc:
            msg = str(exc)[:100].replace("\n", "\\n")
            return head + f'JSON syntax checker: Cannot parse invalid JSON string. "{msg}"'
        return None
    if kind == "base64":
        cleaned = re.sub(r"\s", "", text)
        try:
            base64.b64decode(cleaned, validate=True)
        except (binascii.Error, ValueError):
            if re.match(r"^[A-Za-z0-9+/=]*$", cleaned):
                return head + ("Base64 syntax checker: Cannot parse invalid Base64 string - "
                               "padding is not correct")
            return head + ("Base64 syntax checker: Cannot parse invalid Base64 string - contains "
                           "letters outside strict base 64 range (or whitespace)")
        return None
    pr = parse(text, epp=kind == "epp")
    if pr.errors:
        e = pr.errors[0]
        line, col = LineIndex(text).position(e.offset)
        label = "EPP" if kind == "epp" else "PP"
        return head + f'{label} syntax checker: "{e.message} (line: {line}, column: {col})"'
    return None
