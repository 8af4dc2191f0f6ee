"""The one exception class of the type system, carrying a message, a code and a location.

Every failure the type system reports on purpose (a wrong arity, a bad parameter, an alias
that never resolves, a value that is not a valid SemVer) is a :class:`TypeSystemError`; no
other exception escapes the public functions.
"""
from __future__ import annotations

from typing import Any


class TypeSystemError(Exception):
    """A diagnostic about a type expression.

    ``code`` is a stable identifier (Puppet's issue codes where one fits), ``span`` whatever
    location object the caller attached to the offending :class:`~.build.TypeCall`.
    """

    def __init__(self, message: str, span: Any = None, code: str = "ILLEGAL_TYPE"):
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code

    def __repr__(self) -> str:
        return f"TypeSystemError({self.code}: {self.message!r}, span={self.span!r})"


# Backwards-friendly alias: the builder's errors are type system errors.
TypeBuildError = TypeSystemError
