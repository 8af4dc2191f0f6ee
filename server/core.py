"""The language server's state and the answers computed from it without the protocol library:
the open documents, the settings, the workspace index, the lint configuration and Hiera, and
the hover answer in its JSON form.

``ServerState`` is the half of ``lsp.PuppetServer`` that needs neither pygls nor lsprotocol,
so that ``early.py`` can answer the first hovers while those two load (importing
``lsprotocol.types`` alone takes longer than the whole answer; docs/decisions.md, "Answering
before the protocol library is loaded").  The server and the early front call the same
functions here, so a hover answered early is the hover the server would give.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from pygls.uris import from_fs_path, to_fs_path

from puppet_ls.language.ide import hover as ide_hover
from puppet_ls.language.ide import preview as ide_preview
from puppet_ls.language.ide.index import WorkspaceIndex
from puppet_ls.language.hiera import editor as hiera_editor
from puppet_ls.language.syntax.lines import LineIndex

from . import config as lintconfig
from . import index_snapshot
from .documents import Document
from .factsfile import class_resolver, load_context, parameter_resolver
from .hiera_ls import DataDocument, HieraSupport
from .positions import UTF16, PositionCodec
from .settings import DEFAULTS, Settings, parse_settings
from .index_cache import IndexCache, default_folder
from .workspace import module_root_of, modulepath_from_environment, read_text

if TYPE_CHECKING:
    from .evalworker import EvalWorker

log = logging.getLogger("puppet-ls")

MARKDOWN = "markdown"          # lsprotocol's MarkupKind values (a str enum compares equal)
PLAINTEXT = "plaintext"


def uri_to_path(uri: str) -> str:
    """The file path of a document URI; the path part of another scheme's URI; the URI itself
    when it cannot be parsed (an unclosed '[' of an IPv6 host), so that the document still opens."""
    try:
        if uri.startswith("file:"):
            return to_fs_path(uri) or unquote(urlparse(uri).path)
        return unquote(urlparse(uri).path) or uri
    except ValueError:
        return uri


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


class ServerState:
    """What the server knows (touched only from one thread at a time: the event loop's, or the
    early front's before it)."""

    def __init__(self) -> None:
        self.docs: dict = {}                   # uri -> Document
        self.settings: Settings = DEFAULTS
        self.init_options = None
        self.index = WorkspaceIndex()
        self.index_key = 0                     # bumps whenever the index changes
        self.index_ready = False
        self.early_roots: set = set()          # module folders indexed ahead of the workspace
        # (index_plan, index, seconds) of a whole-workspace index made before the server was
        # loaded (the early front's snapshot), for the first indexing to take
        self.ready_index: tuple | None = None
        self.encoding = UTF16
        # Evaluation: None evaluates in this process (in-process tests); run_server starts the
        # supervised worker.
        self.worker: EvalWorker | None = None
        # the client's capabilities as JSON, and its workspace folders' URIs (from initialize);
        # the server reads pygls's own copies instead (its overrides of capabilities/roots)
        self.raw_capabilities: dict = {}
        self.folder_uris: list = []
        self._preview_context: tuple | None = None    # (settings it was read for, context)
        # The lint configuration of the workspace, read as `puppet-ls check` reads it from the
        # workspace folder (server/config.py), so that the editor and CI report the same.
        self.lint_config = lintconfig.resolve([])
        self.config_key = 0                    # bumps whenever lint_config changes
        # Hiera: the layers of the workspace's environment and the open data documents
        self.hiera_support = HieraSupport()

    # ---- what the client said ------------------------------------------------------------------
    def show_warning(self, message: str) -> None:
        """Tell the user (the server shows a message in the editor; here it is only logged)."""
        log.info("%s", message)

    def capabilities(self) -> object:
        return self.raw_capabilities

    def cap(self, path: str, default=None):
        """A client capability by its snake_case path (``text_document.hover.content_format``),
        read from lsprotocol objects or from their JSON form."""
        node: object = self.capabilities()
        for part in path.split("."):
            node = node.get(_camel(part)) if isinstance(node, dict) else getattr(node, part, None)
            if node is None:
                return default
        return node

    # ---- environment ---------------------------------------------------------------------------
    def roots(self) -> list:
        return [r for r in (uri_to_path(u) for u in self.folder_uris) if r]

    def modulepath(self) -> list:
        roots = self.roots()
        out = []
        for p in self.settings.modulepath:
            p = os.path.expanduser(p)
            if not os.path.isabs(p) and roots:
                p = os.path.join(roots[0], p)
            out.append(p)
        out += [p for p in self.lint_config.modulepath if p not in out]
        for r in roots:
            out += modulepath_from_environment(r, [])
        return out

    def analysis(self, doc: Document):
        return doc.analysis(self.index, self.index_key)

    def hiera(self):
        return self.hiera_support.hiera(self.roots(), self.modulepath(), self.settings.hiera_global_config)

    def load_lint_config(self) -> bool:
        """Read the workspace's lint configuration again; True when it changed."""
        roots = self.roots()
        if not roots:
            return False
        root = roots[0]
        try:
            cfg = lintconfig.load([root], cwd=root)
        except Exception:
            log.exception("reading the configuration of %s failed", root)
            return False
        for problem in cfg.problems:
            log.warning("configuration: %s", problem)
        if cfg.problems and [str(p) for p in cfg.problems] != [str(p) for p in self.lint_config.problems]:
            # what `check` stops on (exit 2) is left out here, and the editor says so once
            self.show_warning("puppet-ls configuration (left out): " + "; ".join(str(p) for p in cfg.problems[:5]))
        old = self.lint_config
        same = (old.lint, old.selected, old.named_ignores, old.modulepath, old.sources, old.error_level,
                [(b, tuple(p.patterns), c) for b, p, c in old.per_file_ignores]) == \
            (cfg.lint, cfg.selected, cfg.named_ignores, cfg.modulepath, cfg.sources, cfg.error_level,
             [(b, tuple(p.patterns), c) for b, p, c in cfg.per_file_ignores])
        self.lint_config = cfg
        if not same:
            self.config_key += 1
        return not same

    # ---- preview context (issue 16): the fact set and node previews evaluate with --------------
    def preview_context(self) -> ide_preview.PreviewContext | None:
        """The context of ``puppet.previews.facts``/``node``, read once per setting (a problem
        with the facts file is shown once, and previews go on without facts)."""
        roots = self.roots()
        want = (self.settings.previews_facts, self.settings.previews_node, roots[0] if roots else None,
                self.settings.previews_external_facts, self.settings.modulepath)
        cached = self._preview_context
        if cached is not None and cached[0] == want:
            return cached[1]
        # the modules' facts.d folders are listed when the settings change or a facts.d file does
        # (did_change_watched_files), not on every request
        ctx, problem = load_context(want[0], want[1], want[2], modulepath=[*roots, *self.modulepath()],
                                    external=want[3])
        if ctx is not None:
            # other classes' variables: their files, found in the index (open documents first)
            def find(name: str) -> str | None:
                for e in self.index.lookup("class", name):
                    return e.path
                return None
            ctx.classes = class_resolver(find, lambda path: file_text(self, path))
            # class parameters' values by automatic parameter lookup in the workspace's Hiera
            ctx.parameters = parameter_resolver(self.hiera, ctx, generation=lambda: self.hiera_support.generation)
        self._preview_context = (want, ctx)
        if problem:
            log.warning("%s", problem)
            self.show_warning(f"puppet-ls previews: {problem}")
        return ctx


def apply_settings(ls: ServerState, raw) -> None:
    """The client's settings (the ``puppet`` section, or an object holding it)."""
    settings, problems = parse_settings(raw)
    ls.settings = settings
    if ls.worker is not None:
        ls.worker.set_memory_limit(settings.previews_memory_mb)
    logging.getLogger("puppet-ls").setLevel(settings.log_level.upper())
    if problems:
        msg = "puppet-ls settings: " + "; ".join(problems)
        log.warning(msg)
        ls.show_warning(msg)


def file_text(ls: ServerState, path: str) -> str | None:
    """An open document's text, else the file's."""
    uri = from_fs_path(path)
    doc = ls.docs.get(uri) if uri else None
    return doc.text if doc is not None else read_text(path)


def budget_for(ls: ServerState, total_ms: int | None = None) -> ide_preview.PreviewBudget:
    """The settings' budget; ``total_ms`` caps a request's total (and so each expression)."""
    s = ls.settings
    seconds = s.previews_timeout_ms / 1000.0
    total = max(0.2, seconds * 6)
    if total_ms is not None:
        total = total_ms / 1000.0
        seconds = min(seconds, total)
    return ide_preview.PreviewBudget(steps=s.previews_max_steps, seconds=seconds, total_seconds=total,
                                     context=ls.preview_context())


def index_cache_for(ls: ServerState) -> IndexCache | None:
    return IndexCache(default_folder(ls.settings.index_cache_dir)) if ls.settings.index_cache else None


def index_plan(ls: ServerState) -> tuple:
    """What the workspace index is built from (index_snapshot.plan): a build for another plan
    is not this workspace's index."""
    return index_snapshot.plan(ls.roots(), ls.modulepath(), ls.settings.index_max_files,
                               ls.lint_config.excluder.signature)


def index_done_message(index: WorkspaceIndex, seconds: float) -> str:
    """The end of the indexing's progress, as the editor shows it."""
    return f"{len(index.files)} files, {len(index.modules())} modules in {seconds:.1f} s"


def early_module_root(ls: ServerState, path: str) -> str | None:
    """The module folder of a document just opened, to be indexed on its own ahead of the
    workspace (None when the workspace index is ready, the module was taken already or is
    outside the workspace and the modulepath); it is recorded as taken."""
    if ls.index_ready or not ls.settings.index_enable:
        return None
    root = module_root_of(path)
    roots = ls.roots() + ls.modulepath()
    if root is None or root in ls.early_roots or not any(
            root == r or root.startswith(r.rstrip(os.sep) + os.sep) for r in roots):
        return None
    ls.early_roots.add(root)
    return root


def merge_early(ls: ServerState, index: WorkspaceIndex) -> bool:
    """Add a module indexed ahead of the workspace to the partial index (False, and nothing
    added, when the whole workspace won the race)."""
    if ls.index_ready:
        return False
    for name, mroot in index.module_roots.items():
        ls.index.add_module(name, mroot, index.module_meta.get(name))
    for entry in index.files.values():
        ls.index.add(entry)
    ls.index_key += 1
    return True


# ---- Hiera in Puppet code -----------------------------------------------------------------------

def hiera_target(ls: ServerState, doc: Document, offset: int) -> tuple | None:
    """("key", key, start, end) for a lookup('...') key, ("param", key, start, end) for a class
    parameter (automatic parameter lookup binds <class>::<param>); None elsewhere."""
    at = hiera_editor.lookup_key_at(doc.text, offset)
    if at is not None and at.key:
        return "key", at.key, at.start, at.end
    param = hiera_editor.class_param_at(doc.result, offset)
    if param is not None:
        cls, name, start, end = param
        return "param", f"{cls}::{name}", start, end
    return None


def hiera_hover(ls: ServerState, doc: Document, offset: int) -> tuple | None:
    target = hiera_target(ls, doc, offset)
    if target is None:
        return None
    hiera = ls.hiera()
    if hiera is None or not hiera.layers:
        return None      # no Hiera in this workspace: the code's own hover
    kind, key, start, end = target
    root = ls.hiera_support.environment(ls.roots()) or ""
    return kind, ls.hiera_support.lookup_hover(hiera, key, ls.settings, root, ls.preview_context()), start, end


# ---- hover --------------------------------------------------------------------------------------

def _markup(text: str, markdown: bool) -> dict:
    if markdown:
        return {"kind": MARKDOWN, "value": text}
    return {"kind": PLAINTEXT, "value": plain(text)}


def plain(md: str) -> str:
    """Markdown as plain text, for a client that reads no markdown."""
    return md.replace("```puppet\n", "").replace("\n```", "").replace("```", "").replace("**", "").replace("`", "")


def _range(codec: PositionCodec, start: int, end: int) -> dict:
    (l1, c1), (l2, c2) = codec.position(start), codec.position(end)
    return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}


def hover_answer(ls: ServerState, doc, line: int, character: int,
                 make_budget: Callable[[ide_preview.PreviewBudget], ide_preview.PreviewBudget]) -> dict | None:
    """The answer to ``textDocument/hover`` (a Hover in its JSON form, or None) at a position of
    an open Puppet document or Hiera data file."""
    fmts = ls.cap("text_document.hover.content_format", None) or [PLAINTEXT]
    markdown = MARKDOWN in fmts
    if isinstance(doc, DataDocument):
        data_codec = PositionCodec(LineIndex(doc.text), ls.encoding)
        found = hiera_editor.data_key_hover(doc.text, data_codec.offset(line, character), ls.index)
        if found is None:
            return None
        return {"contents": _markup(found[0], markdown), "range": _range(data_codec, found[1], found[2])}
    codec = doc.codec
    offset = codec.offset(line, character)
    hiera_md = hiera_hover(ls, doc, offset)
    if hiera_md is not None and hiera_md[0] == "key":
        _, md, start, end = hiera_md
        return {"contents": _markup(md, markdown), "range": _range(codec, start, end)}
    # A hover's value is worth less than a prompt hover: a shorter total deadline.
    budget = make_budget(budget_for(ls, total_ms=150))
    res = ide_hover.hover(ls.analysis(doc), offset, budget, values=ls.settings.hover_values)
    if hiera_md is not None:
        # a class parameter: the code's hover, then the value Hiera binds to it
        _, md, start, end = hiera_md
        if res is not None:
            md = res.markdown + "\n\n---\n\n" + md
        return {"contents": _markup(md, markdown), "range": _range(codec, start, end)}
    if res is None:
        return None
    return {"contents": _markup(res.markdown, markdown), "range": _range(codec, res.start, res.end)}
