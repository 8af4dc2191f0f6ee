"""Real Emacs (batch) with Eglot against the real puppet-ls: Flymake's diagnostics, the hover
text Eglot hands to ElDoc, the completion-at-point candidates and eglot-rename on demo.pp, and the documented
init.el starting the server by itself.  Debian: emacs-nox elpa-eglot elpa-puppet-mode (Emacs 28,
Eglot 1.9); Emacs 29+ has Eglot built in.  Skips when Emacs or Eglot is not installed."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.editors.common import (AFTER_FIX, AFTER_RENAME, COMPLETION_POS, DEMO_TEXT, DIAGNOSTIC, HERE, HOVER_POS,
                                  QUICKFIX_POS, REFACTOR_TEXT, RENAME_POS, RENAME_TO, assert_completion_offers_variables,
                                  assert_hover_shows_type, isolated_env, server_command)

EMACS = shutil.which("emacs")
EMACS_DIR = HERE / "emacs"


def _has_eglot() -> bool:
    if EMACS is None:
        return False
    proc = subprocess.run([EMACS, "--batch", "-q", "--eval",
                           "(progn (require 'package) (package-initialize) (require 'eglot))"],
                          capture_output=True, text=True, check=False, timeout=60)
    return proc.returncode == 0


pytestmark = pytest.mark.skipif(not _has_eglot(),
                                reason="Emacs with Eglot not installed (apt-get install -y emacs-nox elpa-eglot elpa-puppet-mode)")


def run_emacs(workdir: Path, scripts: list[str], src_rel: str = "demo.pp", src_text: str = DEMO_TEXT,
              **env: str) -> dict:
    src = workdir / src_rel
    src.write_text(src_text)
    out = workdir / "result.json"
    args = [a for s in scripts for a in ("-l", s)]
    # -q, not -Q: -Q also skips Debian's site-start, so elpa-eglot would not be found
    proc = subprocess.run([EMACS, "--batch", "-q", *args, str(src)], cwd=workdir,
                          env=isolated_env(workdir, LSP_OUT=str(out), HOME=str(workdir), **env),
                          capture_output=True, text=True, check=False, timeout=120)
    assert out.exists(), f"emacs rc={proc.returncode}\n{proc.stderr}"
    result = json.loads(out.read_text())
    assert proc.returncode == 0 and "error" not in result, (result, proc.stderr)
    return result


@pytest.fixture(scope="module")
def e2e(tmp_path_factory) -> dict:
    return run_emacs(tmp_path_factory.mktemp("emacs"), [str(EMACS_DIR / "e2e.el")],
                     LSP_CMD=json.dumps(server_command()),
                     HOVER_POS="{}:{}".format(*HOVER_POS), COMPLETION_POS="{}:{}".format(*COMPLETION_POS))


def test_diagnostics(e2e):
    assert e2e["major-mode"] == "puppet-mode" and e2e["managed"] is True
    assert {"line": DIAGNOSTIC["line"], "column": DIAGNOSTIC["character"], "type": "eglot-error",
            "text": f"puppet-ls [{DIAGNOSTIC['code']}]: {DIAGNOSTIC['message']}"} in e2e["diagnostics"], e2e["diagnostics"]


def test_hover_in_eldoc(e2e):
    assert e2e["hover_provider"] is True
    assert_hover_shows_type(e2e["hover"])


def test_completion_at_point(e2e):
    assert e2e["completion_provider"] is True
    assert_completion_offers_variables(e2e["completion"])


def test_user_init_starts_the_server(tmp_path):
    """The init.el of docs/editors.md starts puppet-ls for a .pp file on its own (eglot-ensure)."""
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    (tmp_path / ".git").mkdir()
    r = run_emacs(tmp_path, [str(EMACS_DIR / "init-eglot.el"), str(EMACS_DIR / "check-attached.el")])
    assert r["major-mode"] == "puppet-mode" and r["managed"] is True, r
    assert r["command"] == ["puppet-ls", "--stdio"]
    assert f"puppet-ls [{DIAGNOSTIC['code']}]: {DIAGNOSTIC['message']}" in r["diagnostics"]


APACHE = Path("/usr/share/puppet/modules/apache")
PROFILE_WEB = """\
class profile::web {
  apache::vhost { 'www.example.com':
    port    => 80,
    docroot => '/var/www/www.example.com',
  }
}
"""


def test_control_repo_hover_on_a_module_defined_type(tmp_path):
    """In a control repo (a git checkout: Eglot's project is the VC root) whose modules/ holds
    puppetlabs-apache, the documented init.el gets the defined type's hover on `apache::vhost`."""
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    if not (APACHE / "manifests" / "vhost.pp").exists():
        pytest.skip("puppetlabs-apache is not installed (bash ../shared/corpus/corpus.sh)")
    (tmp_path / ".git").mkdir()
    (tmp_path / "environment.conf").write_text("modulepath = site:modules:$basemodulepath\n")
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "apache").symlink_to(APACHE)
    (tmp_path / "site" / "profile" / "manifests").mkdir(parents=True)
    r = run_emacs(tmp_path, [str(EMACS_DIR / "init-eglot.el"), str(EMACS_DIR / "check-attached.el")],
                  src_rel="site/profile/manifests/web.pp", src_text=PROFILE_WEB,
                  HOVER_AT="1:4", HOVER_EXPECT="define apache::vhost")
    assert r["managed"] is True, r
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


def test_format_on_save(tmp_path):
    """The documented before-save-hook: saving writes what puppet-ls formats."""
    from puppet_ls.language.formatter import format_text
    if shutil.which("puppet-ls") is None:
        pytest.skip("puppet-ls is not on PATH (python3 -m pip install -e .)")
    (tmp_path / ".git").mkdir()
    r = run_emacs(tmp_path, [str(EMACS_DIR / "init-eglot.el"), str(EMACS_DIR / "format-on-save.el"),
                             str(EMACS_DIR / "save-and-report.el")], src_text=UNFORMATTED)
    assert r["managed"] is True, r
    expected = format_text(UNFORMATTED).text
    assert expected != UNFORMATTED and r["saved"] == expected, r["saved"]


def test_rename_and_quick_fix(tmp_path):
    """`eglot-rename` and Eglot's application of a quick fix's edit change the buffer to exactly
    what puppet-ls means."""
    r = run_emacs(tmp_path, [str(EMACS_DIR / "refactor.el")], src_rel="refactor.pp", src_text=REFACTOR_TEXT,
                  LSP_CMD=json.dumps(server_command()), RENAME_TO=RENAME_TO,
                  RENAME_POS="{}:{}".format(*RENAME_POS), QUICKFIX_POS="{}:{}".format(*QUICKFIX_POS))
    assert r["rename_provider"] is True
    assert r["after_rename"] == AFTER_RENAME, r
    assert r["quickfix_titles"], r
    assert r["after_fix"] == AFTER_FIX, r


def test_documented_init_is_the_tested_one():
    doc = (HERE.parents[1] / "docs" / "editors.md").read_text()
    blocks = re.findall(r"```elisp\n(.*?)```", doc, re.DOTALL)
    for el in ("init-eglot.el", "format-on-save.el"):
        assert (EMACS_DIR / el).read_text() in blocks, f"docs/editors.md does not show {el} verbatim"
