"""The previews' commands as docs/editors.md documents them for Neovim 0.11 and Emacs + Eglot
(issue 16), in the real editors against the real puppet-ls, on a class whose code depends on
facts (fixtures/lsp/catalog): the fact set switched by the documented command (`:PuppetFacts`,
`puppet-ls-select-fact-set`), and the catalog of the class shown (the "Preview catalog" code lens
run in Neovim, opened by the server with window/showDocument; `puppet-ls-preview-catalog` in
Emacs, whose Eglot shows no code lenses).  The documented snippets are the files run here."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.editors.common import HERE
from tests.editors.test_emacs import EMACS_DIR, _has_eglot, run_emacs
from tests.editors.test_neovim import NVIM_DIR, nvim, run_nvim

PREVIEWS = HERE / "previews"
FIXTURE = HERE.parents[1] / "fixtures" / "lsp" / "catalog"
SOURCE = "modules/lensdemo/manifests/init.pp"
CATALOG_HEAD = [
    "Catalog of class lensdemo on node.example.com (facts: rhel9)",
    "Class[Lensdemo]  (in Stage[main])",
    "  port => 8080",
    "Package[httpd]  (in Class[Lensdemo])",
]


def _workspace(tmp_path: Path) -> str:
    (tmp_path / ".git").mkdir()     # the project root for the root markers
    (tmp_path / SOURCE).parent.mkdir(parents=True)
    return (FIXTURE / SOURCE).read_text()


def test_neovim_lens_and_fact_set_command(tmp_path):
    exe = nvim("0.11")
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    text = _workspace(tmp_path)
    r = run_nvim(exe, tmp_path, ["--cmd", f"source {PREVIEWS / 'nvim-previews.lua'}", "-u", str(NVIM_DIR / "init-0.11.lua"),
                                 "-S", str(PREVIEWS / "nvim-drive.lua")], src_rel=SOURCE, src_text=text)
    assert r["attached"] is True, r
    assert r["lenses_before"] == [[2, "Preview catalog (debian12)"]], r
    assert r["lenses_after"] == [[2, "Preview catalog (rhel9)"]], r
    assert r["catalog_name"] == "lensdemo.rhel9.catalog.txt", r
    assert r["catalog"][:4] == CATALOG_HEAD, r


@pytest.mark.skipif(not _has_eglot(),
                    reason="Emacs with Eglot not installed (apt-get install -y emacs-nox elpa-eglot elpa-puppet-mode)")
def test_emacs_fact_set_and_catalog_commands(tmp_path):
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    text = _workspace(tmp_path)
    r = run_emacs(tmp_path, [str(EMACS_DIR / "init-eglot.el"), str(PREVIEWS / "eglot-previews.el"),
                             str(PREVIEWS / "eglot-drive.el")], src_rel=SOURCE, src_text=text)
    assert r["managed"] is True and r["facts"] == "rhel9", r
    text, mode, read_only = r["catalog"]
    assert text.splitlines()[:4] == CATALOG_HEAD, r
    assert (mode, read_only) == ("special-mode", True), r


def test_documented_snippets_are_the_tested_ones():
    doc = (HERE.parents[1] / "docs" / "editors.md").read_text()
    lua = re.findall(r"```lua\n(.*?)```", doc, re.DOTALL)
    assert (PREVIEWS / "nvim-previews.lua").read_text() in lua
    elisp = re.findall(r"```elisp\n(.*?)```", doc, re.DOTALL)
    assert (PREVIEWS / "eglot-previews.el").read_text() in elisp
