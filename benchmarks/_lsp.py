"""What the benchmarks that drive the language server over stdio share: the shared driver
(../shared/bench/lsp_drive.py, imported, not copied), a temporary control repository over a
modules folder, the handshake, and the end of indexing."""
from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PUPPET_LS_SHARED", REPO.parent / "shared"))
DRIVER = SHARED / "bench" / "lsp_drive.py"


def load_driver():
    spec = importlib.util.spec_from_file_location("lsp_drive", DRIVER)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def control_repo(modules: Path, prefix: str = "puppet-ls-bench-") -> Path:
    """A temporary control repository: ``environment.conf`` says ``modulepath = modules`` and
    ``modules`` is a link to ``modules`` (a real control repository's layout once r10k has
    installed its modules)."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    (root / "environment.conf").write_text("modulepath = modules\n")
    (root / "modules").symlink_to(modules)
    return root


def initialize(c, root: Path, text_document: dict, timeout: float) -> None:
    """The handshake of a client that offers work-done progress and pulled configuration, with
    the given ``textDocument`` capabilities, on the workspace folder ``root``."""
    _, msg = c.request("initialize", {
        "processId": os.getpid(), "rootUri": root.as_uri(),
        "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        "capabilities": {"window": {"workDoneProgress": True},
                         "workspace": {"configuration": True, "workspaceFolders": True},
                         "textDocument": text_document},
    }, timeout)
    if msg is None or "error" in msg:
        raise SystemExit(f"initialize failed: {msg}")


def wait_for_index(c, timeout: float) -> tuple:
    """(time in ms, message) of the ``$/progress`` end of the workspace indexing."""
    t, m = c.wait_for(lambda m: m.get("method") == "$/progress"
                      and str(m["params"].get("token", "")).startswith("puppet-ls-index")
                      and m["params"].get("value", {}).get("kind") == "end", timeout)
    if m is None or m.get("__eof__"):
        raise SystemExit("the server never reported the end of indexing")
    return t, m
