"""What kind of document a file is, from its name and the language the editor gives it: Puppet
code (a manifest or an EPP template), a Puppetfile, YAML, JSON, Ruby or something else.

The one place the server (``server/documents.py``) and ``check`` (``server/check_run.py``)
decide how a document is treated.  A file name that says what a file is wins over the editor's
language (a generic client may open a whole project, Puppetfile and Hiera data included, with
the Puppet language server); for a name that says nothing (an unsaved buffer, a file without a
suffix) the editor's language decides.
"""
from __future__ import annotations

PUPPET = "puppet"
EPP = "epp"
PUPPETFILE = "puppetfile"
YAML = "yaml"
JSON = "json"
RUBY = "ruby"
OTHER = "other"

# Language identifiers editors give each kind (VS Code's extension: puppet, puppet-epp;
# Neovim: puppet, epuppet; Emacs/Eglot: puppet; others: epp, embeddedpuppet).
_LANGUAGE_IDS = {"puppet": PUPPET, "puppet-epp": EPP, "epp": EPP, "epuppet": EPP, "embeddedpuppet": EPP,
                 "puppetfile": PUPPETFILE, "yaml": YAML, "json": JSON, "jsonc": JSON, "ruby": RUBY}
_NAMES = {"Puppetfile": PUPPETFILE, "Gemfile": RUBY, "Rakefile": RUBY, "Guardfile": RUBY,
          "Vagrantfile": RUBY, "Berksfile": RUBY}
_SUFFIXES = {".pp": PUPPET, ".epp": EPP, ".yaml": YAML, ".yml": YAML, ".eyaml": YAML, ".json": JSON,
             ".rb": RUBY, ".erb": OTHER, ".md": OTHER}


def document_kind(path: str, language_id: str = "") -> str:
    """The kind of the document at ``path`` (one of the constants of this module)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if name in _NAMES:
        return _NAMES[name]
    dot = name.rfind(".")
    if dot > 0:
        kind = _SUFFIXES.get(name[dot:].lower())
        if kind is not None:
            return kind
    return _LANGUAGE_IDS.get(language_id.lower(), OTHER if language_id else PUPPET)


def is_puppet(kind: str) -> bool:
    """Whether a document of ``kind`` is parsed and analysed as Puppet code."""
    return kind in (PUPPET, EPP)
