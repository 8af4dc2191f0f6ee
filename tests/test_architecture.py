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


def _eval_layers() -> dict[str, int]:
    """module (dotted, relative to eval/) -> layer number, from eval/__init__.py's docstring."""
    import puppet_ls.language.eval as ev
    doc = ev.__doc__ or ""
    layers: dict[str, int] = {}
    for m in re.finditer(r"^(\d)\. [a-z ]+: ((?:[\w.]+(?:,\s*)?)+)", doc, re.MULTILINE):
        for name in re.split(r",\s*", m.group(2).strip()):
            layers[name] = int(m.group(1))
    return layers


def _eval_import_graph() -> dict[str, set[str]]:
    """Top-level imports between the modules of language/eval (module -> modules it imports)."""
    import ast
    pkg = REPO / "language" / "eval"

    def name_of(path: Path) -> str:
        parts = list(path.relative_to(pkg).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]  # a sub-package is named by its folder
        return ".".join(parts)

    mods = {name_of(p): p for p in pkg.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        here = list(path.relative_to(pkg).parent.parts)  # the package the module is in
        targets: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            if node.level - 1 > len(here):
                continue  # outside eval/
            base = here[:len(here) - (node.level - 1)]
            stem = base + (node.module.split(".") if node.module else [])
            for alias in node.names:
                cand = ".".join(stem + [alias.name])
                if cand in mods:
                    targets.add(cand)
                elif ".".join(stem) in mods:
                    targets.add(".".join(stem))
                elif not stem:
                    targets.add("__init__")
        graph[mod] = targets - {mod}
    return graph


def test_eval_layers_cover_every_module() -> None:
    layers = _eval_layers()
    graph = _eval_import_graph()
    assert set(graph) == set(layers), (sorted(set(graph) - set(layers)),
                                       sorted(set(layers) - set(graph)))


def test_eval_has_no_import_cycle_and_respects_its_layers() -> None:
    layers = _eval_layers()
    graph = _eval_import_graph()
    upward = sorted(f"{a} (layer {layers[a]}) imports {b} (layer {layers[b]})"
                    for a, ts in graph.items() for b in ts
                    if a in layers and b in layers and layers[b] > layers[a])
    assert not upward, upward
    # a cycle: depth-first search for a back edge
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert not cycles, cycles


def test_eval_imports_inside_functions_say_why() -> None:
    # Inside eval/, an import inside a function is kept only where loading lazily is the point,
    # with a comment on its line or the line above saying so ("lazy: ...").
    import ast
    bare = []
    for path in (REPO / "language" / "eval").rglob("*.py"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        around = " ".join(lines[max(0, inner.lineno - 2):inner.lineno])
                        if "lazy:" not in around:
                            bare.append(f"{path.relative_to(REPO)}:{inner.lineno}")
    assert not bare, bare
