"""The modules a control repository's Puppetfile declares, and which of them are not
installed where the code is looked for.

A Puppetfile is a Ruby DSL for r10k and Code Manager, never Puppet code: it is read with
patterns, never executed.  Each ``mod 'author-name'`` / ``mod 'author/name'`` / ``mod 'name'``
statement (with a version, ``:latest`` or a ``:git``/``:ref`` hash after it) declares the
module ``name``; a declared module that no indexed module is called is "declared but not
installed" (information: r10k has not been run, or the modulepath misses its folder).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..diagnostics import Diagnostic

_MOD = re.compile(r"""^[ \t]*mod[ \t(]+(['"])([^'"\n]+)\1""", re.MULTILINE)
_COMMENT = re.compile(r"#[^\n]*")


@dataclass(frozen=True)
class DeclaredModule:
    name: str          # the module's name (``stdlib``)
    full_name: str     # as written (``puppetlabs-stdlib``)
    offset: int        # range of the name as written (inside the quotes)
    end: int


def declared_modules(text: str) -> list[DeclaredModule]:
    """The modules a Puppetfile declares, in order."""
    # comments are blanked (same length) so that a commented-out `mod` line is not read
    blank = _COMMENT.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for m in _MOD.finditer(blank):
        full = m.group(2).strip()
        name = re.split(r"[-/]", full)[-1]
        out.append(DeclaredModule(name, full, m.start(2), m.end(2)))
    return out


def puppetfile_diagnostics(text: str, installed: frozenset) -> list[Diagnostic]:
    """An information diagnostic for each declared module that is not in ``installed`` (the
    names of the indexed modules)."""
    return [Diagnostic.of("PUPPETFILE_MODULE_NOT_INSTALLED", d.offset, d.end, module=d.full_name, name=d.name)
            for d in declared_modules(text) if d.name not in installed]
