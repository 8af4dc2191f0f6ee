"""Rules of the code base that a test can hold: the analysis library is pure, every module
says what it is for, and packaging installs every package under the puppet_ls namespace."""
from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_LANGUAGE = {"pygls", "lsprotocol", "click", "subprocess", "socket", "urllib.request", "http"}


def python_files(folder: str):
    return sorted((REPO / folder).rglob("*.py"))


def test_language_is_pure() -> None:
    offenders = []
    for path in python_files("language"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in FORBIDDEN_IN_LANGUAGE or n in FORBIDDEN_IN_LANGUAGE:
                    offenders.append(f"{path.relative_to(REPO)} imports {n}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                offenders.append(f"{path.relative_to(REPO)} calls open()")
    assert not offenders, offenders


def test_every_module_has_a_docstring() -> None:
    missing = []
    for folder in ("language", "server"):
        for path in python_files(folder):
            if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))):
                missing.append(str(path.relative_to(REPO)))
    assert not missing, missing


def test_every_source_folder_is_a_package() -> None:
    # setup.py installs folders that have an __init__.py; a folder without one would be
    # silently left out of a wheel.
    missing = []
    for folder in ("language", "server"):
        for path in python_files(folder):
            if not (path.parent / "__init__.py").exists():
                missing.append(str(path.parent.relative_to(REPO)))
    assert not missing, sorted(set(missing))


def test_installed_under_namespace() -> None:
    from puppet_ls.language import syntax
    from puppet_ls import server
    assert Path(syntax.__file__).parent == REPO / "language" / "syntax"
    assert Path(server.__file__).parent == REPO / "server"


def test_diagnostic_codes_are_registered() -> None:
    from puppet_ls.language.messages import all_issues
    registered = {i.code for i in all_issues()}
    used = set()
    for folder in ("language/syntax", "language/ide", "server"):
        for path in python_files(folder):
            text = path.read_text(encoding="utf-8")
            for call in re.finditer(r"(?:error|add|Diagnostic\.of|issue)\(\s*(?:[^,()]*,\s*){0,2}\"([A-Z][A-Z0-9_]+)\"", text):
                used.add(call.group(1))
    assert used and used <= registered, sorted(used - registered)
