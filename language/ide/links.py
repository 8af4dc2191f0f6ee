"""Document links: the module files a manifest names, as Puppet finds them.

* ``puppet:///modules/<module>/<path>`` (and ``puppet://<server>/modules/...``), in any string,
  so ``source => ...`` and arrays of sources link: ``<module>/files/<path>``;
* ``template('<module>/<path>')`` and ``epp('<module>/<path>')``: ``<module>/templates/<path>``
  (each argument of ``template``, which concatenates several);
* ``file('<module>/<path>')``: ``<module>/files/<path>`` (each argument: the first that exists
  wins, so all may be followed).

Only literal strings are read (a string with interpolation names no file before evaluation).
Links are plain data naming a module and a path inside it; the caller knows where modules are
and whether the file exists.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..syntax import kinds as K
from ..syntax.ast import single_quoted_value

# puppet:///modules/m/p or puppet://server/modules/m/p
_PUPPET_URL = re.compile(r"\Apuppet://[^/]*/modules/([a-z][a-z0-9_]*)/([^\s]+)\Z")
_MODULE_PATH = re.compile(r"\A([a-z][a-z0-9_]*)/([^\s]+)\Z")
# the function and the module folder its 'module/path' arguments are looked up in
_FUNCTION_FOLDERS = {"template": "templates", "epp": "templates", "file": "files"}


@dataclass
class DocumentLink:
    start: int              # the string's text, quotes excluded
    end: int
    module: str
    folder: str             # files or templates
    path: str               # inside the folder, '/'-separated

    @property
    def relative(self) -> str:
        return f"{self.module}/{self.folder}/{self.path}"


def document_links(result) -> list:
    """Links of one parsed file, in text order."""
    out: list = []
    for tok in result.root.all_tokens():
        if tok.kind == K.STRING:
            value, start = single_quoted_value(tok.text), tok.offset + 1
        elif tok.kind == K.STRING_TEXT and _whole_dq_string(tok):
            value, start = tok.text, tok.offset
        else:
            continue
        if "\\" in value:
            continue        # an escape: the text and the value differ, no exact range
        end = start + len(value)
        m = _PUPPET_URL.match(value)
        if m:
            out.append(DocumentLink(start, end, m.group(1), "files", m.group(2)))
            continue
        folder = _FUNCTION_FOLDERS.get(_called_function(tok) or "")
        if folder is not None:
            m = _MODULE_PATH.match(value)
            if m:
                out.append(DocumentLink(start, end, m.group(1), folder, m.group(2)))
    return out


def _whole_dq_string(tok) -> bool:
    """A double-quoted string made of this one piece of text (no interpolation)."""
    dq = tok.parent
    if dq is None or dq.kind != K.DQ_STRING:
        return False
    return sum(1 for t in dq.significant_tokens() if t.kind not in (K.DQ_OPEN, K.DQ_CLOSE)) == 1


def _called_function(tok) -> str | None:
    """The name of the function call whose arguments hold ``tok``'s string directly."""
    node = tok.parent
    if node is not None and node.kind in (K.LITERAL, K.DQ_STRING):
        node = node.parent
    if node is None:
        return None
    call = node.parent if node.kind == K.ARG_LIST else node if node.kind == K.STATEMENT_CALL else None
    if call is None or call.kind not in (K.CALL_EXPR, K.STATEMENT_CALL):
        return None
    first = call.first_token()
    return first.text.lstrip(":") if first is not None and first.kind == K.NAME else None
