"""What the editor end-to-end tests share: the sample manifest and what puppet-ls must show for it
(a diagnostic, a hover, completions), how to start the server, and where the editors are."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEMO = HERE / "demo.pp"
DEMO_TEXT = DEMO.read_text()
PREFIX = Path(os.environ.get("PUPPET_LS_EDITORS_PREFIX", Path.home() / ".cache" / "puppet-ls-editors"))

# What puppet-ls reports for demo.pp (0-based lines and columns, as LSP counts them).
DIAGNOSTIC = {"line": 4, "character": 9, "code": "DUPLICATE_PARAMETER",
              "message": "The parameter 'owner' is declared more than once in the parameter list"}
HOVER_POS = (8, 17)        # on `greeting` in `    message => $greeting,`
COMPLETION_POS = (8, 16)   # right after that `$`: the variables in scope
assert DEMO_TEXT.splitlines()[8][15:25] == "$greeting,"
assert DEMO_TEXT.splitlines()[4][9:15] == "$owner"

def assert_hover_shows_type(text: str | None) -> None:
    """Hover on a variable shows its inferred type: $greeting is a String."""
    assert text, "no hover"
    assert "String" in text, text


def assert_completion_offers_variables(labels: list[str]) -> None:
    """Completion after `$` offers the variables in scope: the class parameter and the local."""
    names = {label.lstrip("$") for label in labels}
    assert {"greeting", "port", "owner"} <= names, sorted(names)[:50]


def server_command() -> list[str]:
    """How a user starts the server: the `puppet-ls` console script when it is installed."""
    exe = shutil.which("puppet-ls")
    return [exe, "--stdio"] if exe else [sys.executable, "-m", "puppet_ls.server.cli", "--stdio"]


def isolated_env(tmp_path: Path, **extra: str) -> dict:
    """The environment for an editor run: its caches, state and logs go under tmp_path."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), **extra)
    env.pop("NVIM_LISTEN_ADDRESS", None)
    env.pop("NVIM", None)
    return env


def version_of(exe: str, tmp_path: Path) -> str:
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False, timeout=30,
                         env=isolated_env(tmp_path)).stdout
    return out.splitlines()[0] if out else "?"


# What the rename and quick-fix tests do to refactor.pp and what the buffer must hold after.
REFACTOR = HERE / "refactor.pp"
REFACTOR_TEXT = REFACTOR.read_text()
RENAME_POS = (2, 3)        # on `greeting` in `  $greeting = 'hello'`
RENAME_TO = "welcome"
QUICKFIX_POS = (4, 16)     # inside "plain text" (double_quoted_strings, fixable)
assert REFACTOR_TEXT.splitlines()[2][2:11] == "$greeting"
assert REFACTOR_TEXT.splitlines()[4][15:27] == '"plain text"'
AFTER_RENAME = REFACTOR_TEXT.replace("$greeting", "$welcome")
AFTER_FIX = AFTER_RENAME.replace('"plain text"', "'plain text'")
