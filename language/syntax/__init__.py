"""puppet_ls.language.syntax: lexer, parser, lossless tree, AST views, validation, reparse.

The entry points most callers need::

    from puppet_ls.language.syntax import parse, reparse, validate
    result = parse(text)              # never raises; result.errors, result.root, result.green
    result = reparse(result, start, end, new_text)
    diagnostics = validate(result)
"""
# first: it decides whether the compiled modules or their sources are imported (engine.py)
from .engine import ENGINE
from .incremental import reparse
from .parser import ParseResult, parse
from .validate import validate

__all__ = ["parse", "reparse", "validate", "ParseResult", "ENGINE"]
