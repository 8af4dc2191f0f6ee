"""Package discovery for setuptools: the folders language/ and server/ are installed as
puppet_ls.language and puppet_ls.server, with every sub-package found automatically (the
metadata itself lives in pyproject.toml)."""
from pathlib import Path

from setuptools import setup

ROOTS = {"puppet_ls.language": "language", "puppet_ls.server": "server"}


def packages() -> list[str]:
    found = []
    for prefix, folder in ROOTS.items():
        for init in sorted(Path(folder).rglob("__init__.py")):
            rel = init.parent.relative_to(folder)
            found.append(".".join([prefix, *rel.parts]))
    return found


setup(packages=packages(), package_dir=ROOTS)
