"""The output formats of ``puppet-ls check``: fixtures/report_formats/tree is checked in every
format and each output is compared with fixtures/report_formats/expect/<format>.expect
(UPDATE_EXPECT=1 rewrites them), then validated against what reads it: SARIF against the
OASIS 2.1.0 JSON schema, JUnit against Jenkins' JUnit XSD, Checkstyle and GitLab Code Quality
against schemas of their documented shape, GitHub workflow commands against GitHub's
documented syntax (fixtures/report_formats/schemas/README.md says where each schema comes from).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
import click
from click.testing import CliRunner

from puppet_ls.server import __version__
from puppet_ls.server.cli import main
from puppet_ls.server.report_formats import FORMATS, CheckOutput, format_named, source_snippet, write_github
from tests.expect import assert_expected

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (the test extra) validates SARIF and GitLab output")
xmlschema = pytest.importorskip("xmlschema", reason="xmlschema (the test extra) validates JUnit and Checkstyle output")

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "report_formats"
SCHEMAS = HERE / "schemas"
EXPECT = HERE / "expect"


def normalize(out: str, cwd: Path) -> str:
    """``out`` with what depends on the machine (the working directory, puppet-ls's version)
    replaced by names."""
    out = out.replace(Path(cwd).resolve().as_uri() + "/", "file:///BASE/")
    return re.sub(rf'"(semanticVersion|version)":( ?)"{re.escape(__version__)}"', r'"\1":\2"VERSION"', out)


def check(*args: str, cwd: Path = HERE) -> tuple[int, str]:
    """Run ``puppet-ls check ARGS`` in ``cwd``: its exit status and (normalized) standard output."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, ["check", "--quiet", *args], catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, normalize(result.stdout, cwd)


def run(fmt: str) -> str:
    code, out = check("--format", fmt, "--show-ignored", *(["--show-source"] if fmt == "text" else []), "tree")
    assert code == 1   # the tree has errors: the exit status does not depend on the format
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_expected_output(fmt: str) -> None:
    out = run(fmt)
    if fmt in ("sarif", "gitlab"):   # written compact, compared indented to keep the expectation readable
        assert out.count("\n") == 1
        out = json.dumps(json.loads(out), indent=1, ensure_ascii=False) + "\n"
    assert_expected(EXPECT / f"{fmt}.expect", out)


def test_every_format_has_its_expectation() -> None:
    assert sorted(p.stem for p in EXPECT.glob("*.expect")) == sorted(FORMATS)


# ---- validation against the consumers' schemas ---------------------------------------------------

def test_vendored_schemas_are_unchanged() -> None:
    """The published schemas are kept as their packages ship them (README.md gives the sums)."""
    listed = re.findall(r"^([0-9a-f]{64})  (\S+)$", (SCHEMAS / "README.md").read_text(), re.MULTILINE)
    sums = {name: digest for digest, name in listed}
    assert set(sums) == {"sarif-schema-2.1.0.json", "junit-10.xsd"}
    for name, digest in sums.items():
        assert hashlib.sha256((SCHEMAS / name).read_bytes()).hexdigest() == digest, name


def test_sarif_is_valid() -> None:
    log = json.loads(run("sarif"))
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(log)
    (run_,) = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    # what the schema cannot say: every result names its rule twice, consistently, and every
    # finding silenced by a control comment is a suppressed result
    assert [r["id"] for r in rules] == sorted({r["ruleId"] for r in run_["results"]})
    for result in run_["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert uri["uriBaseId"] == "SRCROOT" and (HERE / unquote(uri["uri"])).is_file()
    suppressed = [r for r in run_["results"] if "suppressions" in r]
    records = json.loads(run("json"))
    assert [(r["ruleId"], r["suppressions"][0].get("justification")) for r in suppressed] == \
        [(r["code"], r["reason"]) for r in records if r["severity"] == "ignored"]
    assert len(run_["results"]) == len(records)


def test_sarif_without_show_ignored_still_carries_suppressions() -> None:
    _, out = check("--format", "sarif", "tree")
    assert '"suppressions"' in out


def test_junit_is_valid() -> None:
    schema = xmlschema.XMLSchema(str(SCHEMAS / "junit-10.xsd"))
    out = run("junit")
    schema.validate(out)
    doc = schema.to_dict(out)
    suites = {s["@name"]: s for s in doc["testsuite"]}
    # a suite per file checked, clean ones included
    assert set(suites) == {p.relative_to(HERE).as_posix() for p in (HERE / "tree").rglob("*")
                           if p.suffix in (".pp", ".epp")}
    assert int(doc["@failures"]) == sum(int(s["@failures"]) for s in suites.values()) > 0


def test_checkstyle_is_valid() -> None:
    schema = xmlschema.XMLSchema(str(SCHEMAS / "checkstyle.xsd"))
    out = run("checkstyle")
    schema.validate(out)
    severities = {e["@severity"] for f in schema.to_dict(out)["file"] for e in f.get("error", [])}
    assert severities == {"error", "warning", "ignore"}


def test_gitlab_is_valid() -> None:
    issues = json.loads(run("gitlab"))
    schema = json.loads((SCHEMAS / "gitlab-code-quality.json").read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(schema).validate(issues)
    assert len({i["fingerprint"] for i in issues}) == len(issues) > 0


# GitHub's documented syntax: ::<command> <key>=<value>,<key>=<value>::<message>
GITHUB_LINE = re.compile(r"::(error|warning|notice) ((?:[A-Za-z]+=[^,:\r\n]*)(?:,[A-Za-z]+=[^,:\r\n]*)*)::([^\r\n]*)")
GITHUB_KEYS = {"file", "line", "endLine", "col", "endColumn", "title"}


def gh_unescape(value: str) -> str:
    return re.sub("%(25|0D|0A|3A|2C)", lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m[1]],
                  value)


def test_github_follows_the_documented_syntax() -> None:
    lines = run("github").splitlines()
    records = [r for r in json.loads(run("json")) if r["severity"] != "ignored"]
    assert len(lines) == len(records)
    for line, rec in zip(lines, records):
        m = GITHUB_LINE.fullmatch(line)
        assert m, line
        props = dict(p.split("=", 1) for p in m[2].split(","))
        assert set(props) <= GITHUB_KEYS
        assert {"error": "error", "warning": "warning", "info": "notice"}[rec["severity"]] == m[1]
        assert gh_unescape(props["file"]) == rec["path"]
        assert int(props["line"]) == rec["line"] and int(props["endLine"]) == rec["end_line"]
        if rec["line"] == rec["end_line"]:
            assert (int(props["col"]), int(props["endColumn"])) == (rec["column"], rec["end_column"])
        assert gh_unescape(m[3]) == rec["message"]


def test_github_escapes_data_and_properties() -> None:
    rec = {"path": "a,b:c%.pp", "line": 1, "column": 2, "end_line": 3, "end_column": 1, "severity": "info",
           "code": "X", "message": "50% done:\r\nnext, then"}
    line = write_github(CheckOutput([rec]))
    assert line == "::notice file=a%2Cb%3Ac%25.pp,line=1,endLine=3,title=X (puppet-ls)::50%25 done:%0D%0Anext, then\n"


# ---- text, the options, the table of formats ---------------------------------------------------

def test_show_source_marks_a_range_that_goes_on_past_its_line() -> None:
    rec = {"line": 2, "column": 6, "end_line": 3, "end_column": 3}
    assert source_snippet("\tb = [1,", rec) == ["  |", "2 | \tb = [1,", "  | \t    ^^^", ""]


def test_show_source_shows_a_window_of_a_long_line() -> None:
    text = "x" * 1000 + "$y" + "z" * 1000
    rec = {"line": 1, "column": 1001, "end_line": 1, "end_column": 1003}
    _, shown, carets, _ = source_snippet(text, rec)
    assert len(shown) < 200 and shown.index("$y") == carets.index("^^")


def test_output_file_holds_what_stdout_would(tmp_path: Path) -> None:
    target = tmp_path / "report.sarif"
    code, out = check("--format", "sarif", "--output-file", str(target), "tree")
    assert (code, out) == (1, "")
    assert normalize(target.read_text(encoding="utf-8"), HERE) == check("--format", "sarif", "tree")[1]


def test_output_file_that_cannot_be_written(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check", "--output-file", str(tmp_path / "no" / "such" / "dir.txt"),
                                       str(HERE / "tree" / "profile" / "manifests" / "init.pp")])
    assert result.exit_code == 2
    assert "cannot write --output-file" in result.stderr and "Traceback" not in result.output


def test_show_source_only_with_text() -> None:
    result = CliRunner().invoke(main, ["check", "--format", "json", "--show-source", str(HERE / "tree")])
    assert result.exit_code == 2 and "--show-source applies to --format text only" in result.stderr


def test_format_names() -> None:
    assert format_named(" SARIF ") == "sarif"
    with pytest.raises(ValueError, match="expected one of text, json, github, sarif, junit, gitlab, checkstyle"):
        format_named("xml")


def test_fingerprints_survive_lines_added_above(tmp_path: Path) -> None:
    f = tmp_path / "site.pp"
    f.write_text('$a = "x"\n$b = "x"\n')
    _, before = check("--format", "gitlab", "site.pp", cwd=tmp_path)
    f.write_text('# a new first line\n$a = "x"\n$b = "x"\n')
    _, after = check("--format", "gitlab", "site.pp", cwd=tmp_path)
    fps = [i["fingerprint"] for i in json.loads(before)]
    assert len(set(fps)) == 2 and fps == [i["fingerprint"] for i in json.loads(after)]


def test_pre_commit_hooks() -> None:
    """.pre-commit-hooks.yaml is a valid pre-commit manifest whose hooks run puppet-ls commands."""
    clientlib = pytest.importorskip("pre_commit.clientlib", reason="pre-commit validates its hook manifest")
    hooks = clientlib.load_manifest(str(HERE.parents[1] / ".pre-commit-hooks.yaml"))
    assert {h["id"]: h["entry"] for h in hooks} == {"puppet-ls-check": "puppet-ls check",
                                                    "puppet-ls-format": "puppet-ls format"}
    assert {"check", "format"} <= set(main.list_commands(click.Context(main)))
