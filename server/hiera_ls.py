"""Hiera for the language server: which environment and layers the workspace has, the fact
set lookups are shown for, and the Hiera data documents (YAML/JSON) the client opened.

Protocol-free (``lsp.py`` converts): it answers hovers, definitions and completions of
``lookup('...')`` keys and class parameters in Puppet code, and diagnostics and completions
in data files, from ``language/hiera``; files are read through ``workspace.py``.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
from dataclasses import dataclass

from puppet_ls.language.hiera import Hiera, read_config, read_data, scope_for
from puppet_ls.language.hiera import editor as hiera_editor
from puppet_ls.language.hiera.convert import convert

from .workspace import environment_root_of, hiera_for_environment, read_text

log = logging.getLogger("puppet-ls")

_DATA_SUFFIXES = (".yaml", ".yml", ".json", ".eyaml")


def machine_facts() -> dict:
    """A few facts of this machine, in Facter's shapes (what lookups are shown for when the
    settings give no fact set): enough for the usual hierarchies (node, OS family, release)."""
    fqdn = socket.getfqdn() or "localhost"
    os_release: dict = {}
    text = read_text("/etc/os-release", 64 * 1024) or ""
    for line in text.splitlines():
        k, _, v = line.partition("=")
        os_release[k.strip()] = v.strip().strip('"')
    like = (os_release.get("ID_LIKE", "") + " " + os_release.get("ID", "")).lower()
    family = ("Debian" if "debian" in like or "ubuntu" in like else
              "RedHat" if any(w in like for w in ("rhel", "fedora", "centos")) else
              "Suse" if "suse" in like else os_release.get("NAME", "Linux"))
    version = os_release.get("VERSION_ID", "")
    facts = {
        "os": {"family": family, "name": os_release.get("NAME", ""), "release": {
            "full": version, "major": version.split(".")[0]}},
        "networking": {"fqdn": fqdn, "hostname": fqdn.split(".")[0], "domain": ".".join(fqdn.split(".")[1:])},
        "kernel": "Linux",
        "clientcert": fqdn,
    }
    return facts


@dataclass
class DataDocument:
    """An open Hiera data file or hiera.yaml (never parsed as Puppet)."""
    uri: str
    path: str
    version: int | None
    text: str


def is_data_document(language_id: str, path: str) -> bool:
    name = os.path.basename(path)
    if name == "hiera.yaml":
        return True
    return language_id.lower() in ("yaml", "json") or name.endswith(_DATA_SUFFIXES)


class HieraSupport:
    """The server's Hiera state: one ``Hiera`` for the workspace's environment, made again
    when a data file or hiera.yaml changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hiera: Hiera | None = None
        self._key: tuple | None = None
        self.docs: dict = {}            # uri -> DataDocument
        # bumps whenever the data may have changed: part of the key of what previews computed
        # with them (faded branches), and what makes a preview context ask for Hiera again
        self.generation = 0

    def invalidate(self) -> None:
        with self._lock:
            self._hiera = None
            self.generation += 1

    def environment(self, roots: list) -> str | None:
        for r in roots:
            if os.path.isfile(os.path.join(r, "hiera.yaml")) or os.path.isfile(os.path.join(r, "environment.conf")):
                return r
            env = environment_root_of(r)
            if env is not None:
                return env
        return roots[0] if roots else None

    def hiera(self, roots: list, modulepath: list, global_config: str) -> Hiera | None:
        env = self.environment(roots)
        if env is None:
            return None
        key = (env, tuple(modulepath), global_config)
        with self._lock:
            if self._hiera is None or self._key != key:
                self._hiera = hiera_for_environment(env, modulepath, global_config or None, convert)
                self._key = key
            return self._hiera

    @staticmethod
    def facts(settings, preview=None) -> dict:
        """The facts lookups are shown for: ``puppet.hiera.facts``, else the node previews are
        computed for (``puppet.previews.facts``, given as ``preview``), else this machine's."""
        if settings.hiera_facts:
            return dict(settings.hiera_facts)
        if preview is not None and preview.facts:
            return dict(preview.facts)
        return machine_facts()

    @staticmethod
    def _source(settings, preview) -> str:
        if settings.hiera_facts:
            return "from puppet.hiera.facts"
        if preview is not None and preview.facts:
            return f"of {preview.label or 'the preview node'} (puppet.previews.facts)"
        return "of this machine"

    # ---- Puppet code -------------------------------------------------------------------------
    def lookup_hover(self, hiera: Hiera, key: str, settings, root: str, preview=None) -> str:
        facts = self.facts(settings, preview)
        result = hiera.lookup(key, scope_for(facts))
        label = "facts " + self._source(settings, preview)
        os_ = facts.get("os")
        os_ = os_ if isinstance(os_, dict) else {}
        net = facts.get("networking")
        fqdn = net.get("fqdn") if isinstance(net, dict) else None
        label += f" ({fqdn or '?'}, {os_.get('family', '?')})"
        return hiera_editor.hover_markdown(result, root, label)

    def key_locations(self, hiera: Hiera, key: str, settings, preview=None) -> list:
        """Where ``key`` is defined: the files the lookup found it in for the fact set, else
        every data file that has it."""
        root_key = key.split(".")[0]
        result = hiera.lookup(root_key, scope_for(self.facts(settings, preview)))
        found = [(s.path, *s.span) for s in result.trail if s.found and s.span is not None]
        return found or hiera.all_keys().get(root_key, [])

    # ---- data documents -----------------------------------------------------------------------
    @staticmethod
    def in_datadir(hiera: Hiera | None, path: str) -> bool:
        """Is ``path`` below the datadir of a hierarchy level?  Only those YAML files are Hiera
        data (a CI configuration or a playbook is not)."""
        if hiera is None:
            return False
        real = os.path.realpath(path)
        for layer in hiera.layers:
            for level in layer.config.hierarchy:
                d = os.path.realpath(os.path.join(layer.config.root, level.datadir))
                if real.startswith(d + os.sep):
                    return True
        return False

    def data_diagnostics(self, doc: DataDocument, env, hiera: Hiera | None) -> list:
        """Diagnostics of an open hiera.yaml, or of a data file below a datadir."""
        name = os.path.basename(doc.path)
        if name == "hiera.yaml":
            layer = "module" if os.path.isfile(os.path.join(os.path.dirname(doc.path), "metadata.json")) else "environment"
            return read_config(doc.path, os.path.dirname(doc.path), doc.text, layer).diagnostics
        if not self.in_datadir(hiera, doc.path):
            return []
        df = read_data(doc.path, doc.text, eyaml=doc.path.endswith(".eyaml"))
        options = hiera.all_lookup_options() if hiera is not None else {}
        return hiera_editor.data_diagnostics(df, env, options)
