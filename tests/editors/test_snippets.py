"""The VS Code extension's snippets, expanded with their default choices, are valid Puppet:
puppet-ls reports no syntax or validation error for any of them."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path

SNIPPETS = Path(__file__).resolve().parents[2] / "vscode-extension" / "snippets" / "puppet.code-snippets"
VARIABLES = {"TM_FILENAME_BASE": "example"}


def expand(body: str) -> str:
    """TextMate snippet syntax -> the text a user gets by pressing Tab through the defaults."""
    prev = None
    while prev != body:   # innermost first: ${1:${2:x}} -> ${1:x} -> x
        prev = body
        body = re.sub(r"(?<!\\)\$\{(\d+)\|([^|}]*)\|\}", lambda m: m.group(2).split(",")[0], body)
        body = re.sub(r"(?<!\\)\$\{(\d+):((?:[^{}\\]|\\.)*)\}", lambda m: m.group(2), body)
        body = re.sub(r"(?<!\\)\$\{([A-Z_]+)\}", lambda m: VARIABLES[m.group(1)], body)
    body = re.sub(r"(?<!\\)\$\d+", "", body)
    return body.replace("\\$", "$").replace("\\}", "}")


def load() -> dict:
    return json.loads(SNIPPETS.read_text())


def test_expand_understands_the_snippet_syntax():
    assert expand("${1:\\$x}.each |${2:\\$item}| { $0 }") == "$x.each |$item| {  }"
    assert expand("${1|file,package|} { ${2:'t'}: }") == "file { 't': }"
    assert expand("class ${1:${TM_FILENAME_BASE}} {}") == "class example {}"


@pytest.mark.parametrize("name", sorted(load()))
def test_snippet_expands_to_valid_puppet(name):
    snippet = load()[name]
    body = snippet["body"] if isinstance(snippet["body"], str) else "\n".join(snippet["body"])
    text = expand(body) + "\n"
    if name == "Selector":
        text = "$result = " + text
    result = parse_for_path(text, "example.pp")
    problems = [f"{d.code} {d.message}" for d in file_diagnostics(result) if d.severity == "error"]
    assert problems == [], f"snippet {name!r} expands to:\n{text}"
    assert snippet["prefix"] and snippet["description"]
