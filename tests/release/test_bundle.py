"""The release tooling (tools/release/): which requirements each VS Code target needs beyond what
pip installed for the Python running it, and the built .vsix itself: its bundled libraries must
run the server with nothing else on sys.path, for every supported CPython (one compiled regex
module each).  The .vsix checks skip until tools/release/build.sh has made one."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("release_bundle", REPO / "tools" / "release" / "bundle.py")
assert _spec and _spec.loader
bundle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bundle)

BUILT = sorted((REPO / "dist").glob("puppet-ls-linux-*.vsix"))


def fake_dist(libs: Path, name: str, *requires: str) -> None:
    info = libs / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    info.joinpath("METADATA").write_text("Metadata-Version: 2.1\nName: " + name + "\n"
                                         + "".join(f"Requires-Dist: {r}\n" for r in requires))


# target, the requirements of an installed distribution -> what must be added
CASES = [
    ("linux-x64", ["exceptiongroup>=1.1.1; python_version < '3.11'"], ["exceptiongroup>=1.1.1"]),
    ("linux-x64", ["colorama; platform_system == 'Windows'"], []),
    ("win32-x64", ["colorama; platform_system == 'Windows'"], ["colorama"]),
    ("darwin-arm64", ["appnope; sys_platform == 'darwin' and platform_machine == 'arm64'"], ["appnope"]),
    ("linux-x64", ["pytest>=6; extra == 'test'"], []),
    ("linux-x64", ["attrs>=24"], []),                        # installed already
    ("alpine-x64", ["tomli; python_version >= '3.15'"], []),  # no supported Python needs it
]


@pytest.mark.parametrize(("target", "requires", "expected"), CASES)
def test_missing_requirements(tmp_path, target, requires, expected):
    fake_dist(tmp_path, "attrs")
    fake_dist(tmp_path, "somepkg", *requires)
    assert bundle.missing_requirements(tmp_path, target) == expected


def test_every_target_has_marker_values():
    for target in bundle.TARGETS:
        env = bundle.marker_environment(target, "3.10")
        assert env["python_version"] == "3.10" and env["platform_machine"]


@pytest.mark.skipif(not BUILT, reason="no .vsix in dist/ (tools/release/build.sh makes it)")
def test_vsix_bundles_regex_for_every_python_and_runs_alone(tmp_path):
    vsix = BUILT[-1]
    with zipfile.ZipFile(vsix) as z:
        names = z.namelist()
        z.extractall(tmp_path, [n for n in names if n.startswith("extension/bundled/libs/")])
        manifest = json.loads(z.read("extension/package.json"))
    libs = tmp_path / "extension" / "bundled" / "libs"
    modules = sorted(p.name for p in bundle.native_modules(libs / "regex"))
    tags = [v.replace(".", "") for v in bundle.PYTHON_VERSIONS]
    assert len(modules) == len(tags) and all(f"cpython-{t}-" in m for t, m in zip(tags, modules)), modules
    assert manifest["version"] in vsix.name
    # -S -E: no site-packages and no PYTHONPATH from outside, so everything comes from the bundle
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import puppet_ls.server.cli, regex, pygls; "
            "print(puppet_ls.server.cli.__file__.startswith(sys.argv[1]), regex.match(r'(?i)a+', 'AA').group())")
    out = subprocess.run([sys.executable, "-S", "-E", "-c", code, str(libs)], capture_output=True, text=True,
                         check=False, timeout=120)
    assert out.stdout.split() == ["True", "AA"], out.stderr
