"""The release workflow (.github/workflows/release.yml) cannot run here, so what it runs is checked
instead: every script and npm script it calls exists, it builds with the same tools/release/build.sh
that vscode-extension/ci.sh runs, and build.sh refuses a tag that does not name the version."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = (REPO / ".github" / "workflows" / "release.yml").read_text()
RUN_LINES = [line.split("run:", 1)[1].strip() for line in WORKFLOW.splitlines() if line.strip().startswith("run:")]
RUN_TEXT = WORKFLOW[WORKFLOW.index("jobs:"):]


def test_scripts_it_calls_exist():
    scripts = re.findall(r"\b(tools/\S+\.(?:sh|py))", RUN_TEXT)
    assert "tools/release/build.sh" in scripts
    for script in scripts:
        assert (REPO / script).is_file(), script


def test_npm_scripts_and_binaries_it_calls_exist():
    package = json.loads((REPO / "vscode-extension" / "package.json").read_text())
    for name in re.findall(r"npm run -s ([\w:-]+)", RUN_TEXT):
        assert name in package["scripts"], name
    for binary in re.findall(r"node_modules/\.bin/([\w-]+)", RUN_TEXT):
        assert binary in {"vsce"} and "@vscode/vsce" in package["devDependencies"], binary


def test_it_builds_every_target_and_checks_the_bundles_like_ci():
    assert any("tools/release/build.sh all" in line for line in RUN_LINES)
    assert any("pytest" in line and "tests/release" in line for line in RUN_LINES)
    ci = (REPO / "vscode-extension" / "ci.sh").read_text()
    assert "tools/release/build.sh" in ci and "tests/release" in ci
    # PyPI by trusted publishing: an OIDC token, no password
    assert "id-token: write" in WORKFLOW and "pypa/gh-action-pypi-publish" in WORKFLOW
    assert "password" not in WORKFLOW


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_build_refuses_a_tag_of_another_version(tmp_path):
    out = subprocess.run(["bash", str(REPO / "tools" / "release" / "build.sh")], capture_output=True, text=True,
                         check=False, timeout=60, env=dict(os.environ, RELEASE_TAG="v0.0.0-nope", DIST=str(tmp_path / "d")))
    assert out.returncode == 1
    assert re.search(r"tag v0\.0\.0-nope does not name version \S+ \(expected v\S+\)", out.stderr), out.stderr
    assert not (tmp_path / "d").exists()   # refused before building anything
