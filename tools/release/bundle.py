"""Fills the VS Code extension's bundled/libs with puppet-ls and its dependencies for one VS Code
target platform, so that the .vsix runs the server with any CPython >= 3.10 on that platform.

Everything but `regex` is pure Python and installed once (`pip install --target`, markers evaluated
for the oldest supported Python, so the backports it needs are there too and harmless on newer
ones).  `regex` has a C extension: its compiled module for every supported CPython version is put
beside the others in bundled/libs/regex/ (the file names carry the interpreter's ABI tag, so each
Python imports its own), all of one regex release.  docs/decisions.md says why.

Usage: python tools/release/bundle.py TARGET WHEEL LIBS_DIR
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from packaging.requirements import Requirement

# The CPython versions the bundle supports: pyproject's requires-python up to the newest release.
PYTHON_VERSIONS = ("3.10", "3.11", "3.12", "3.13", "3.14")

# VS Code's target names (`vsce package --target`) and the wheel platform tags of each, oldest
# first: a manylinux2014 wheel runs on glibc 2.17 and later; for macOS, pip takes a wheel for that
# version or older (VS Code itself needs macOS 11).
TARGETS: dict[str, tuple[str, ...]] = {
    "linux-x64": ("manylinux_2_17_x86_64", "manylinux2014_x86_64"),
    "linux-arm64": ("manylinux_2_17_aarch64", "manylinux2014_aarch64"),
    "alpine-x64": ("musllinux_1_2_x86_64",),
    "alpine-arm64": ("musllinux_1_2_aarch64",),
    "darwin-x64": ("macosx_11_0_x86_64",),   # pip also takes older tags: CPython 3.14 has 10.15, 3.10 10.9
    "darwin-arm64": ("macosx_11_0_arm64",),
    "win32-x64": ("win_amd64",),
    "win32-arm64": ("win_arm64",),
}


# The values of PEP 508 environment markers on each target's operating system and processor.
MARKER_OS = {
    "linux": {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
    "alpine": {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
    "darwin": {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"},
    "win32": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"},
}
MARKER_MACHINE = {
    ("linux", "x64"): "x86_64", ("alpine", "x64"): "x86_64", ("linux", "arm64"): "aarch64",
    ("alpine", "arm64"): "aarch64", ("darwin", "x64"): "x86_64", ("darwin", "arm64"): "arm64",
    ("win32", "x64"): "AMD64", ("win32", "arm64"): "ARM64",
}


def marker_environment(target: str, python_version: str) -> dict[str, str]:
    """What `python_version`'s CPython on `target` says for environment markers."""
    os_, arch = target.split("-")
    return {**MARKER_OS[os_], "platform_machine": MARKER_MACHINE[os_, arch], "python_version": python_version,
            "python_full_version": python_version + ".0", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "extra": ""}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def missing_requirements(libs: Path, target: str) -> list[str]:
    """Requirements of the installed distributions that some supported Python on `target` needs
    and that are not installed: pip evaluates markers for the Python running it, not for the
    target (cattrs needs exceptiongroup before 3.11, click needs colorama on Windows)."""
    installed = {canonical(d.name.split("-")[0]) for d in libs.glob("*.dist-info")}
    wanted: dict[str, str] = {}
    for metadata in sorted(libs.glob("*.dist-info/METADATA")):
        for line in metadata.read_text(encoding="utf-8").splitlines():
            if not line.startswith("Requires-Dist:"):
                continue
            req = Requirement(line.split(":", 1)[1].strip())
            name = canonical(req.name)
            if name in installed or name in wanted:
                continue
            if req.marker is None or any(req.marker.evaluate(marker_environment(target, v)) for v in PYTHON_VERSIONS):
                wanted[name] = f"{req.name}{req.specifier}"
    return sorted(wanted.values())


def pip_platform_args(target: str, python_version: str) -> list[str]:
    """The pip options that select `target`'s wheels built for CPython `python_version`."""
    args = ["--only-binary=:all:", "--implementation", "cp", "--python-version", python_version]
    for tag in TARGETS[target]:
        args += ["--platform", tag]
    return args


def native_modules(package_dir: Path) -> list[Path]:
    """The compiled extension modules of an installed package (the `.so`/`.pyd` files)."""
    return sorted(p for p in package_dir.iterdir() if p.suffix in (".so", ".pyd"))


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "-q", "--disable-pip-version-check", *args], check=True)


def installed_version(libs: Path, project: str) -> str:
    """The version of `project` that pip put in `libs` (from its .dist-info folder's name)."""
    found = [d.name for d in libs.glob("*.dist-info") if d.name.split("-")[0].lower() == project]
    if len(found) != 1:
        raise SystemExit(f"bundle: expected one {project} in {libs}, found {found}")
    return found[0][len(project) + 1:-len(".dist-info")]


def bundle(target: str, wheel: Path, libs: Path) -> None:
    if libs.exists():
        shutil.rmtree(libs)
    libs.mkdir(parents=True)
    oldest, *newer = PYTHON_VERSIONS
    # the wheel and all its dependencies, resolved for the oldest Python on this platform
    pip("install", "--no-compile", "--target", str(libs), *pip_platform_args(target, oldest), str(wheel))
    # what the markers of the target's Pythons need beyond that, until nothing is missing
    for _ in range(10):
        extra = missing_requirements(libs, target)
        if not extra:
            break
        pip("install", "--no-compile", "--no-deps", "--target", str(libs), *pip_platform_args(target, oldest), *extra)
    else:
        raise SystemExit(f"bundle: requirements still missing: {missing_requirements(libs, target)}")
    regex = installed_version(libs, "regex")
    for version in newer:
        with tempfile.TemporaryDirectory() as tmp:
            pip("install", "--no-compile", "--no-deps", "--target", tmp, *pip_platform_args(target, version),
                f"regex=={regex}")
            modules = native_modules(Path(tmp) / "regex")
            if not modules:
                raise SystemExit(f"bundle: regex {regex} has no compiled module for CPython {version} on {target}")
            for module in modules:
                shutil.copy2(module, libs / "regex" / module.name)
    shutil.rmtree(libs / "bin", ignore_errors=True)   # console scripts: the extension runs python -m
    shutil.rmtree(libs / "regex" / "tests", ignore_errors=True)   # regex's own test suite
    count = len(native_modules(libs / "regex"))
    if count != len(PYTHON_VERSIONS):
        raise SystemExit(f"bundle: {count} compiled regex modules for {len(PYTHON_VERSIONS)} Python versions")
    print(f"bundle: {target}: puppet-ls and its dependencies in {libs}, regex {regex} for CPython "
          f"{', '.join(PYTHON_VERSIONS)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", choices=sorted(TARGETS), help="VS Code target platform")
    parser.add_argument("wheel", type=Path, help="the puppet-ls wheel to bundle")
    parser.add_argument("libs", type=Path, help="the folder to fill (emptied first)")
    args = parser.parse_args(argv)
    bundle(args.target, args.wheel, args.libs)


if __name__ == "__main__":
    main()
