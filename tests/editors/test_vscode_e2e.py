"""Real VS Code: code-server (VS Code 1.139 from npm) with the release .vsix installed (the one that
bundles puppet-ls, from tools/release/build.sh), driven by Debian's headless Chromium through
playwright-core.  On tests/editors/demo.pp it must show puppet-ls's diagnostic, hover and
completions, in two runs:
  api: the user set "puppet-ls.server.path"; a test-only driver extension inside the real extension
       host reads diagnostics, hover and completion through the VS Code API;
  ui:  install to first answer: nothing configured, HOME empty, on PATH only the system folders
       (whose Python has no puppet-ls), so the extension must run its bundled copy; the
       workspace is a copy of examples/control-repo; the UI is worked like a person would (squiggle,
       Problems panel, hover widget, suggest list, status bar, a role's include of a profile).
  previews: the previews of issue 16 on a class whose code depends on facts
       (fixtures/lsp/catalog): the fact set chosen with the status item's quick pick (debian12,
       then rhel9), inlay hints and faded branches for each, the "Preview catalog" lens clicked.
Screenshots: vscode-extension/e2e-artifacts/*.png (git-ignored).

Needs the one-time setup of vscode-extension/e2e/setup-code-server.sh (2-4 min, run by
vscode-extension/ci.sh) and the .vsix (tools/release/build.sh); skips without them, or when
PUPPET_LS_SKIP_VSCODE_E2E=1."""
from __future__ import annotations

import json
import os
import platform
import re
import subprocess
from pathlib import Path

import pytest

from tests.editors.common import (AFTER_FIX, AFTER_RENAME, COMPLETION_POS, DIAGNOSTIC, HOVER_POS, QUICKFIX_POS, RENAME_POS,
                                  RENAME_TO, REPO, assert_completion_offers_variables, assert_hover_shows_type,
                                  server_command)

EXT = REPO / "vscode-extension"
E2E = EXT / "e2e"
ARTIFACTS = EXT / "e2e-artifacts"
PREFIX = Path(os.environ.get("PREFIX", Path.home() / ".cache" / "puppet-ls-vscode-e2e"))
CONTROL_REPO = REPO / "examples" / "control-repo"
CATALOG_FIXTURE = REPO / "fixtures" / "lsp" / "catalog"
# the .vsix of this machine's platform that tools/release/build.sh made (or $VSIX)
_arch = {"x86_64": "x64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
_built = sorted((REPO / "dist").glob(f"puppet-ls-linux-{_arch}-*.vsix"))
VSIX = Path(os.environ["VSIX"]) if os.environ.get("VSIX") else (_built[-1] if _built else None)

missing = [what for what, ok in [
    ("code-server (bash vscode-extension/e2e/setup-code-server.sh)",
     (PREFIX / "code-server/node_modules/.bin/code-server").exists()),
    ("chromium (apt-get install -y chromium)", Path("/usr/bin/chromium").exists()),
    ("playwright-core (cd vscode-extension && npm ci)", (EXT / "node_modules/playwright-core").exists()),
    ("the .vsix (tools/release/build.sh)", VSIX is not None and VSIX.exists()),
] if not ok]
pytestmark = [
    pytest.mark.skipif(os.environ.get("PUPPET_LS_SKIP_VSCODE_E2E") == "1", reason="PUPPET_LS_SKIP_VSCODE_E2E=1"),
    pytest.mark.skipif(bool(missing), reason="missing: " + "; ".join(missing)),
]


def server_executable(tmp_path: Path) -> str:
    """puppet-ls.server.path takes one executable: the console script, or a wrapper around python -m."""
    cmd = server_command()
    if Path(cmd[0]).name == "puppet-ls":
        return cmd[0]
    script = tmp_path / "puppet-ls"
    script.write_text("#!/bin/sh\nexec " + " ".join(f"'{c}'" for c in cmd[:-1]) + ' "$@"\n')
    script.chmod(0o755)
    return str(script)


# the ui run's PATH besides Node; VS Code's server also takes a login shell's, which /etc/profile sets
SYSTEM_PATH = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")


_runs: dict[str, dict] = {}


def run(mode: str, tmp_path: Path) -> dict:
    if mode not in _runs:
        ARTIFACTS.mkdir(exist_ok=True)
        env = dict(os.environ, PREFIX=str(PREFIX), VSIX=str(VSIX), HOVER_POS="{}:{}".format(*HOVER_POS),
                   COMPLETION_POS="{}:{}".format(*COMPLETION_POS), RENAME_POS="{}:{}".format(*RENAME_POS),
                   RENAME_TO=RENAME_TO, QUICKFIX_POS="{}:{}".format(*QUICKFIX_POS))
        if mode == "ui":
            env.update(WORKSPACE=str(CONTROL_REPO))
            server = "bundled"
        elif mode == "previews":
            env.update(WORKSPACE=str(CATALOG_FIXTURE))
            server = server_executable(tmp_path)
        else:
            server = server_executable(tmp_path)
        proc = subprocess.run(["bash", str(E2E / "run-e2e.sh"), mode, server, str(ARTIFACTS)],
                              capture_output=True, text=True, check=False, timeout=300, env=env)
        out = ARTIFACTS / f"{mode}.json"
        assert out.exists(), proc.stdout + proc.stderr
        result = json.loads(out.read_text())
        assert proc.returncode == 0 and result["ok"], (result, proc.stderr[-3000:])
        if mode == "ui":
            # the Python the extension found (the status item says which): does it have puppet-ls?
            found = re.search(r"bundled puppet-ls, run by (\S+) \(Python 3\.", result["statusBar"]["label"] or "")
            result["python"] = found.group(1) if found else None
            if found:
                probe = subprocess.run([found.group(1), "-c", "import puppet_ls"], capture_output=True, text=True,
                                       check=False, env={"PATH": ":".join(SYSTEM_PATH)})
                result["pythonImport"] = probe.stderr.strip().splitlines()[-1:] or ["imported"]
            result["puppetLsOnPath"] = [d for d in SYSTEM_PATH if Path(d, "puppet-ls").exists()]
        _runs[mode] = result
    return _runs[mode]


@pytest.fixture
def api(tmp_path) -> dict:
    return run("api", tmp_path)


@pytest.fixture
def ui(tmp_path) -> dict:
    return run("ui", tmp_path)


@pytest.fixture
def previews(tmp_path) -> dict:
    return run("previews", tmp_path)


# ---- through the VS Code API, inside the real extension host --------------------------------------

def test_api_diagnostics(api):
    assert api["languageId"] == "puppet"
    assert {"line": DIAGNOSTIC["line"], "character": DIAGNOSTIC["character"], "message": DIAGNOSTIC["message"],
            "severity": "Error", "source": "puppet-ls", "code": DIAGNOSTIC["code"]} in api["diagnostics"]


def test_api_rename_and_quick_fix(api):
    """VS Code applies puppet-ls's rename and quick fix edits, and the document becomes exactly
    what they mean."""
    ref = api["refactor"]
    assert ref["renameApplied"] is True and ref["afterRename"] == AFTER_RENAME, ref
    assert ref["quickfixTitles"] and ref["fixApplied"] is True, ref
    assert ref["afterFix"] == AFTER_FIX, ref


def test_api_hover(api):
    assert_hover_shows_type("\n".join(api["hover"]))


def test_api_completion(api):
    assert_completion_offers_variables(api["completion"])


def test_api_status_item_and_server_info(api):
    assert api["status"]["state"] == "running"
    assert api["status"]["text"] == "$(check) puppet-ls"
    assert api["status"]["serverInfo"]["name"] == "puppet-ls"
    # the user's "puppet-ls.server.path" wins over the copy bundled in the .vsix
    assert api["status"]["how"].startswith("puppet-ls.server.path (")


def test_api_epp_template(api):
    assert api["epp"]["languageId"] == "puppet-epp"
    assert [(d["line"], d["code"]) for d in api["epp"]["diagnostics"]] == [(5, "MISSING_RBRACE")]


def test_api_missing_server_is_explained(api):
    missing = api["missing"]
    assert missing["state"] == "missing" and missing["text"] == "$(error) puppet-ls"
    assert "/nonexistent/puppet-ls" in missing["lastError"]
    assert "clear it to use the server bundled with the extension" in missing["lastError"]
    assert "pip install" not in missing["lastError"]


def test_api_no_python_is_explained(api):
    """Nothing configured and no Python on PATH: one state and one message that says what to do."""
    no_python = api["noPython"]
    assert no_python["state"] == "noPython" and no_python["text"] == "$(error) puppet-ls"
    assert no_python["lastError"].startswith(
        "puppet-ls needs Python 3.10 or newer, and none was found (no python3 or python on PATH). "
        "Install Python 3.10 or newer")


# ---- through the UI, like a person ----------------------------------------------------------------

def test_ui_language_mode_and_problems_panel(ui):
    assert ui["languageMode"] == "Puppet"
    assert DIAGNOSTIC["message"] in ui["problems"] and DIAGNOSTIC["code"] in ui["problems"]
    assert f"[Ln {DIAGNOSTIC['line'] + 1}, Col {DIAGNOSTIC['character'] + 1}]" in ui["problems"]


def test_ui_hover_widget(ui):
    assert_hover_shows_type(ui["hover"])
    assert "$greeting" in ui["hover"]
    assert (ARTIFACTS / "vscode-hover.png").stat().st_size > 10_000


def test_ui_suggest_widget(ui):
    assert_completion_offers_variables(ui["completion"])
    assert (ARTIFACTS / "vscode-completion.png").stat().st_size > 10_000


def test_ui_status_bar(ui):
    assert ui["statusBar"]["text"] == "puppet-ls"
    assert "codicon-check" in ui["statusBar"]["icon"]
    assert ui["statusBar"]["label"].startswith("puppet-ls running: puppet-ls ")


# ---- install to first answer: nothing but Python and VS Code (the ui run) ------------------------

def test_ui_bundled_server_answers_with_a_python_without_puppet_ls(ui):
    """The server that answered (diagnostics, hover, completion above) is the copy bundled in the
    .vsix, run by a Python found on PATH that cannot import puppet-ls itself; and no puppet-ls
    executable is on that PATH: the run started from nothing but Python and VS Code."""
    assert ui["python"], ui["statusBar"]
    assert ui["pythonImport"] == ["ModuleNotFoundError: No module named 'puppet_ls'"]
    assert ui["puppetLsOnPath"] == []


def test_ui_control_repo_hover(ui):
    """In the control repo, a role's `include profile::webserver` hovers with the profile's summary
    (found through environment.conf's modulepath)."""
    assert "profile::webserver" in ui["controlRepoHover"]
    assert "An nginx web server with one virtual host per entry" in ui["controlRepoHover"]
    assert (ARTIFACTS / "vscode-control-repo-hover.png").stat().st_size > 10_000


# ---- previews with a fact set (issue 16), through the UI ---------------------------------------------

def _hints(lines: list) -> dict:
    """The inlay hints shown, by 0-based line: the text after each ⟶ up to the next (VS Code
    renders a hint inside its line's text, so the source text that follows it comes along)."""
    return {i: [part.strip() for part in line.split("⟶")[1:]] for i, line in enumerate(lines) if "⟶" in line}


def test_previews_fact_set_switch(previews):
    """The status item names the fact set and its quick pick offers the server's sets, "No facts"
    and a facts file; choosing writes the workspace setting."""
    assert previews["statusBefore"] == "no facts"
    assert previews["quickPick"][:4] == ["debian12Debian 12.11 amd64", "ubuntu2404Ubuntu 24.04 amd64",
                                         "rhel9RedHat 9.4 x86_64", "windows2022windows 2022 x64"]
    assert [p.split("only")[0].split("the output")[0] for p in previews["quickPick"][4:]] == ["No facts", "Facts file…"]
    assert previews["debian12"]["status"] == "debian12" and previews["rhel9"]["status"] == "rhel9"
    assert previews["settings"] == {"puppet-ls.previews.facts": "rhel9"}


def test_previews_hints_and_faded_branches_follow_the_fact_set(previews):
    """No facts: no hints; debian12 then rhel9: the hints of the case, the variables and the titles
    change, and the branch the node does not take is faded."""
    assert not any("⟶" in line for line in previews["linesBefore"])
    deb, rh = _hints(previews["debian12"]["lines"]), _hints(previews["rhel9"]["lines"])
    assert deb == {5: ["'Debian' {"], 9: ["'apache2'"], 10: ["'/etc/apache2/ports.conf'"], 11: ["'apache2':"],
                   14: ["'/etc/apache2/ports.conf':"], 16: ['"Listen 8080\\n",']}, deb
    assert rh == {5: ["'RedHat' {"], 9: ["'httpd'"], 10: ["'/etc/httpd/ports.conf'"], 11: ["'httpd':"],
                  14: ["'/etc/httpd/ports.conf':"], 16: ['"Listen 8080\\n",']}, rh
    assert previews["debian12"]["faded"] == [7, 8]      # 'RedHat' and default
    assert previews["rhel9"]["faded"] == [6, 8]         # 'Debian' and default
    for name in ("vscode-previews-debian12.png", "vscode-previews-rhel9.png"):
        assert (ARTIFACTS / name).stat().st_size > 10_000


def test_previews_catalog_lens(previews):
    """The lens names the fact set; clicking it opens the catalog beside the class, read-only."""
    assert previews["lensBefore"] == "Preview catalog (debian12)"
    assert previews["rhel9"]["lens"] == "Preview catalog (rhel9)"
    cat = previews["catalog"]
    assert cat["tabs"] == ["init.pp", "lensdemo.rhel9.catalog"]
    assert cat["lines"][:9] == [
        "Catalog of class lensdemo on node.example.com (facts: rhel9)",
        "Class[Lensdemo]  (in Stage[main])",
        "  port => 8080",
        "Package[httpd]  (in Class[Lensdemo])",
        "  ensure => 'installed'",
        "File[/etc/httpd/ports.conf]  (in Class[Lensdemo])",
        '  content => "Listen 8080\\n"',
        "  ensure  => 'file'",
        "  require => Package['httpd']"]
    assert cat["lines"][9].startswith("3 resources; 0 attribute values unknown")
    assert cat["afterTyping"] == cat["lines"]
    assert (ARTIFACTS / "vscode-catalog-rhel9.png").stat().st_size > 10_000
