"""Control repositories: which documents are Puppet (fixtures/bolt/filekinds.txt: the file name,
then the client's language decide, the same rule for the server and ``check``; only a document
with no language and a name that says nothing differs: ``check`` was asked for it, a client did
not say), and ``check`` over
fixtures/bolt/controlrepo (a Puppetfile declaring installed and missing modules, Hiera data
that is never parsed as Puppet).  Expected outputs: fixtures/bolt/*.expect (UPDATE_EXPECT=1)."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from puppet_ls.language.ide.filekinds import document_kind, is_puppet
from puppet_ls.language.ide.puppetfile import declared_modules
from puppet_ls.server.cli import main
from puppet_ls.server.documents import is_puppet_document
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "bolt"
REPO = FIXTURES / "controlrepo"


def check_kinds(table: Path) -> str:
    out = []
    for line in table.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        language_id, path = line.split("\t")
        language_id = "" if language_id == "-" else language_id
        kind = document_kind(path, language_id)
        server = "analysed" if is_puppet_document(language_id, path) else "not analysed"
        out.append(f"{line}\t-> {kind} (check: {'Puppet' if is_puppet(kind) else 'not Puppet'}; server: {server})")
    return "\n".join(out) + "\n"


def check_repo(repo: Path) -> str:
    """``check --format json`` over the repository and, named explicitly, its YAML files."""
    args = ["check", "--no-cache", "--format", "json", str(repo), str(repo / "hiera.yaml"),
            str(repo / "data" / "common.yaml")]
    res = CliRunner().invoke(main, args)
    out = [f"exit {res.exit_code}"]
    for d in json.loads(res.stdout):
        path = Path(d["path"]).resolve().relative_to(repo)
        out.append(f"{path}:{d['line']}:{d['column']} {d['severity']} {d['code']} {d['message']}")
    out.append("declared: " + ", ".join(m.full_name for m in declared_modules((repo / "Puppetfile").read_text())))
    return "\n".join(out) + "\n"


def test_document_kinds() -> None:
    assert_expected(FIXTURES / "filekinds.expect", check_kinds(FIXTURES / "filekinds.txt"))


def test_control_repository() -> None:
    assert_expected(FIXTURES / "controlrepo.expect", check_repo(REPO))
