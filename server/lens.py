"""The "Preview catalog" code lens on each class and its command ``puppet-ls.previewCatalog``
(issue 16): the catalog text ``puppet-ls preview`` prints for that class, with the fact set and
node of ``puppet.previews.facts``/``node``, compiled in a supervised child process.

The compilation runs ``puppet-ls preview`` itself in a process of its own (never in the server,
never in the preview worker, whose one-job-at-a-time queue serves inlay hints): it is killed at
``CATALOG_SECONDS``, on ``$/cancelRequest`` and when the server dies, and runs under the same
address-space and CPU ceilings as the preview worker.  The answer is returned to the client
(the VS Code extension shows it in a read-only document) and, unless the client asked to show
it itself, written to a file that ``window/showDocument`` opens (Neovim, Emacs), or, for a
client without ``window/showDocument``, summarised in a message.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import resource
import sys
import tempfile

from lsprotocol import types as lsp
from pygls.uris import from_fs_path, to_fs_path

from puppet_ls.language.syntax import ast as A
from puppet_ls.language.syntax import kinds as K

log = logging.getLogger("puppet-ls")

PREVIEW_CATALOG_COMMAND = "puppet-ls.previewCatalog"
# The built-in fact sets and the current one, for an editor's fact-set switch.
FACT_SETS_COMMAND = "puppet-ls.factSets"
# The fact set a catalog preview uses when puppet.previews.facts is empty: the CLI's default.
DEFAULT_FACTS = "debian12"
# Wall time a catalog compilation may take, start-up included (a module's class with its
# dependencies compiles in about a second).
CATALOG_SECONDS = 30.0
# Address space of the compiling process: the previews' ceiling, but never below this (MiB).
MIN_MEMORY_MB = 512
# A class name as Puppet writes it (what the command accepts as "class").
_CLASS_NAME = re.compile(r"[a-z]\w*(::[a-z]\w*)*", re.ASCII)
# Longest catalog text sent back to the client.
MAX_TEXT_CHARS = 2_000_000


def facts_label(settings) -> str:
    """The fact set a catalog preview uses, as the lens names it."""
    spec = settings.previews_facts.strip() or DEFAULT_FACTS
    return os.path.basename(spec) if os.sep in spec else spec


def class_lenses(doc, settings) -> list:
    """A "Preview catalog (<facts>)" lens on the first line of each class definition that
    ``puppet-ls preview`` can compile: the file's first class (previewed from the file), and any
    other class this file holds where Puppet's autoloader looks for it."""
    from .catalog_preview import manifest_of, modulepath_of
    out: list = []
    codec = doc.codec
    label = facts_label(settings)
    first = True
    for node in doc.result.root.descendants():
        if node.kind != K.CLASS_DEF:
            continue
        name = A.ClassDef(node).name
        if not isinstance(name, str) or not name:
            continue
        if not first:
            found = manifest_of(name, modulepath_of(doc.path))
            if found is None or os.path.abspath(found) != os.path.abspath(doc.path):
                continue
        first = False
        pos = lsp.Position(*codec.position(node.range[0]))
        out.append(lsp.CodeLens(range=lsp.Range(pos, pos), command=lsp.Command(
            title=f"Preview catalog ({label})", command=PREVIEW_CATALOG_COMMAND,
            arguments=[{"uri": doc.uri, "class": name.removeprefix("::")}])))
    return out


def fact_sets(settings) -> dict:
    """``workspace/executeCommand puppet-ls.factSets``: what an editor's fact-set switch offers,
    ``{current, sets: [{name, description}]}`` (``current`` is ``puppet.previews.facts``)."""
    from puppet_ls.language.knowledge.factsets import fact_set, fact_set_names
    sets = []
    for name in fact_set_names():
        facts = fact_set(name) or {}
        found = facts.get("os")
        os_: dict = found if isinstance(found, dict) else {}
        found = os_.get("release")
        release: dict = found if isinstance(found, dict) else {}
        words = [str(w) for w in (os_.get("name"), release.get("full"), os_.get("architecture")) if w]
        sets.append({"name": name, "description": " ".join(words)})
    return {"current": settings.previews_facts, "sets": sets}


def refresh_previews(ls) -> None:
    """Ask the client for inlay hints and code lenses again (the fact set changed), when it
    lets the server do so; the faded branches come with the diagnostics published anyway."""
    for cap, send in (("workspace.inlay_hint.refresh_support", ls.workspace_inlay_hint_refresh),
                      ("workspace.code_lens.refresh_support", ls.workspace_code_lens_refresh)):
        if ls.cap(cap, False):
            try:
                send(None)
            except Exception:
                log.debug("%s failed", cap, exc_info=True)


def _arguments(args) -> dict:
    """The command's argument: ``{uri, class[, show]}``, or ``(uri, class)``."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = tuple(args[0])
    if len(args) == 1 and isinstance(args[0], dict):
        return dict(args[0])
    if len(args) >= 2 and all(isinstance(a, str) for a in args[:2]):
        return {"uri": args[0], "class": args[1]}
    raise ValueError("expected {uri, class}: the document and the class to preview")


def _first_class(doc) -> str | None:
    for node in doc.result.root.descendants():
        if node.kind == K.CLASS_DEF:
            name = A.ClassDef(node).name
            if isinstance(name, str) and name:
                return name.removeprefix("::")
    return None


def preview_argv(ls, doc, class_name: str) -> tuple[list, str, str]:
    """(arguments of ``puppet-ls preview``, facts label, note) for ``class_name`` of ``doc``."""
    from .catalog_preview import modulepath_of
    from .factsfile import workspace_path
    roots = ls.roots()
    spec = ls.settings.previews_facts.strip() or DEFAULT_FACTS
    path_spec = os.path.expanduser(spec)
    if roots and (os.sep in spec or spec.endswith((".json", ".yaml", ".yml"))) and not os.path.isabs(path_spec):
        spec = os.path.join(roots[0], path_spec)     # a facts file, relative to the workspace
    modulepath = [p for p in ls.modulepath() if os.path.isdir(p)]
    modulepath += [p for p in modulepath_of(doc.path) if p not in modulepath]
    # The file itself when the class is its first (it need not sit where the autoloader looks),
    # else the class by name, found in the modulepath.
    target = doc.path if _first_class(doc) == class_name else class_name
    argv = ["preview", "--facts", spec, "--modulepath", os.pathsep.join(modulepath)]
    if ls.settings.previews_node:
        argv += ["--node", ls.settings.previews_node]
    for d in ls.settings.previews_external_facts:
        d = workspace_path(d, roots[0] if roots else None)
        if os.path.isdir(d):        # a folder that is not there: the inlay previews say so once
            argv += ["--external-facts", d]
    argv += ["--", target]          # (a target is never read as an option)
    note = ""
    try:
        with open(doc.path, encoding="utf-8", newline="") as f:
            saved = f.read()
        if saved != doc.text:
            note = "(compiled from the saved file: the unsaved changes are not in this catalog)"
    except (OSError, UnicodeDecodeError):
        pass
    return argv, facts_label(ls.settings), note


async def run_preview(argv: list, memory_mb: int, seconds: float = CATALOG_SECONDS) -> tuple[int | None, str, str]:
    """(exit status, stdout, stderr) of ``puppet-ls preview`` in a supervised child process;
    status None when it was stopped at ``seconds``.  Cancelling the caller kills the child."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "puppet_ls.server.lens", "--memory-mb", str(max(memory_mb, MIN_MEMORY_MB)),
        "--seconds", str(int(seconds) + 1), "--parent", str(os.getpid()), "--", *argv,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), seconds)
    except (asyncio.TimeoutError, asyncio.CancelledError) as exc:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        if isinstance(exc, asyncio.CancelledError):
            raise
        return None, "", ""
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def catalog_answer(class_name: str, facts: str, code: int | None, out: str, err: str, note: str) -> dict:
    """The command's answer: ``{ok, class, facts, title, text[, error]}``."""
    err = err.strip()
    if code is None:
        error = f"the catalog of {class_name} was not compiled within {CATALOG_SECONDS:.0f} seconds"
    elif code != 0:
        # click's usage errors end "Error: …"; a compilation error is "error: …"
        last = [ln for ln in err.splitlines() if ln.strip()]
        error = re.sub(r"^(Error|error): ", "", last[-1]) if last else f"puppet-ls preview ended with status {code}"
    else:
        error = ""
    text = out
    if note:
        text = f"{note}\n{text}"
    if error:
        text += f"error: {error}\n"
    if len(text) > MAX_TEXT_CHARS:
        text = text[:MAX_TEXT_CHARS] + "\n…\n"
    answer = {"ok": not error, "class": class_name, "facts": facts,
              "title": f"Catalog of {class_name} ({facts})", "text": text}
    if error:
        answer["error"] = error
    return answer


def catalog_file(class_name: str, facts: str, text: str) -> str:
    """Write ``text`` where an editor can open it: a per-user folder of the temporary directory."""
    folder = os.path.join(tempfile.gettempdir(), f"puppet-ls-{os.getuid() if hasattr(os, 'getuid') else 'user'}",
                          "catalogs")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    safe = re.sub(r"[^\w.-]+", "_", f"{class_name.replace('::', '__')}.{facts}")
    path = os.path.join(folder, f"{safe}.catalog.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


async def preview_catalog(ls, args) -> dict:
    """``workspace/executeCommand puppet-ls.previewCatalog``: see the module's docstring."""
    try:
        want = _arguments(args)
        uri, class_name = str(want.get("uri", "")), str(want.get("class", "")).removeprefix("::")
    except (ValueError, TypeError) as exc:
        return {"ok": False, "error": str(exc)}
    if not _CLASS_NAME.fullmatch(class_name):
        return {"ok": False, "error": f"{class_name!r} is not a class name"}
    doc = ls.docs.get(uri)
    if doc is None:
        return {"ok": False, "error": f"{uri} is not open"}
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if not path or not os.path.isfile(path):
        return {"ok": False, "class": class_name,
                "error": "save the file first: a catalog preview compiles the files on disk"}
    argv, facts, note = preview_argv(ls, doc, class_name)
    code, out, err = await run_preview(argv, ls.settings.previews_memory_mb)
    answer = catalog_answer(class_name, facts, code, out, err, note)
    if want.get("show") == "client":
        return answer
    try:
        if ls.cap("window.show_document.support", False):
            target = from_fs_path(catalog_file(class_name, facts, answer["text"]))
            if target is not None:
                shown = await ls.window_show_document_async(lsp.ShowDocumentParams(uri=target, take_focus=True))
                if shown is not None and shown.success:
                    answer["uri"] = target
                    return answer
        summary = answer["text"].strip().splitlines()
        ls.window_show_message(lsp.ShowMessageParams(
            type=lsp.MessageType.Info if answer["ok"] else lsp.MessageType.Warning,
            message=answer.get("error") or (summary[-1] if summary else answer["title"])))
    except Exception:
        log.exception("showing the catalog preview failed")
    return answer


def _child_main(argv: list) -> int:
    """The compiling process: the preview worker's ceilings, then ``puppet-ls preview``."""
    import argparse

    from .lifetime import die_with_parent
    ap = argparse.ArgumentParser(prog="puppet-ls-catalog")
    ap.add_argument("--memory-mb", type=int, default=MIN_MEMORY_MB)
    ap.add_argument("--seconds", type=int, default=int(CATALOG_SECONDS) + 1)
    ap.add_argument("--parent", type=int, default=os.getppid())
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    opts = ap.parse_args(argv)
    die_with_parent(opts.parent)
    limit = opts.memory_mb * 1024 * 1024
    for which, value in ((resource.RLIMIT_AS, limit), (resource.RLIMIT_CPU, opts.seconds)):
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
    rest = opts.rest[1:] if opts.rest[:1] == ["--"] else opts.rest
    from .cli import command
    return command()(args=rest, prog_name="puppet-ls", standalone_mode=True) or 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
