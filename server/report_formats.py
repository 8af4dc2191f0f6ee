"""What ``puppet-ls check`` prints: its findings rendered as text (optionally with the source
line and a caret under the range), JSON, GitHub workflow commands, SARIF 2.1.0, JUnit XML,
GitLab Code Quality JSON or Checkstyle XML.

Every writer is a pure function from a :class:`CheckOutput` (the records that
``commands.diagnostic_record`` builds, the files checked and their texts) to a string; what a code
means (its default severity, its message template, the puppet-lint check's description) is
read from ``language/messages.py`` and ``language/lint``, never copied.  ``FORMATS`` and
``format_named`` are what a configuration file's "output format" is checked against.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import string
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from functools import lru_cache
from urllib.parse import quote

from puppet_ls.language.lint import CHECKS
from puppet_ls.language.messages import is_registered, issue

from . import __version__

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

IGNORED = "ignored"    # the severity of a record that a control comment silenced


@dataclass(frozen=True)
class Tool:
    name: str = "puppet-ls"
    version: str = __version__
    information_uri: str = ""


def tool_info() -> Tool:
    """puppet-ls's name, version and home page, as its package metadata declares them (read
    from the installed package's metadata: only SARIF carries the home page)."""
    from importlib import metadata
    uri = ""
    try:
        for entry in metadata.metadata("puppet-ls").get_all("Project-URL") or ():
            label, _, url = entry.partition(",")
            if label.strip().lower() == "homepage":
                uri = url.strip()
    except metadata.PackageNotFoundError:   # run from a source tree that is not installed
        pass
    return Tool(information_uri=uri)


@dataclass(frozen=True)
class CheckOutput:
    """Everything a writer needs.  ``records`` holds every finding in output order, those that
    control comments silenced too (severity ``"ignored"``, with their ``"reason"``): SARIF
    always carries them, as suppressed results; text, JSON, JUnit and Checkstyle show them only
    with ``show_ignored``; GitHub annotations and GitLab Code Quality have no such notion."""
    records: Sequence[dict]
    files: Sequence[str] = ()                          # every file checked, as printed
    sources: Mapping[str, str] = field(default_factory=dict)   # path -> the text positions refer to
    base: str = ""                                     # paths are made relative to it (SARIF, GitHub, GitLab)
    show_ignored: bool = False
    show_source: bool = False
    tool: Tool = field(default_factory=Tool)

    def findings(self, with_ignored: bool) -> list[dict]:
        return [r for r in self.records if with_ignored or r["severity"] != IGNORED]


# ---- rule metadata (from the registry) --------------------------------------------------------

def _template_text(template: str) -> str:
    """A message template as a sentence: each placeholder shown as '…'."""
    parts = []
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        parts.append(literal)
        if name is not None:
            parts.append("…")
    return "".join(parts)


def default_severity(code: str) -> str:
    return issue(code).severity if is_registered(code) else "error"


def describe(code: str) -> str:
    """One sentence on what the code reports: the puppet-lint check's description where the
    code is one, else its message template."""
    check = CHECKS.get(code)
    if check is not None and check.doc:
        return " ".join(check.doc.split())
    return _template_text(issue(code).template) if is_registered(code) else code


# ---- paths --------------------------------------------------------------------------------------

@lru_cache(maxsize=4096)   # called once per finding, with few distinct paths
def relative_path(path: str, base: str) -> str:
    """``path`` relative to ``base`` with '/' separators when it lies inside it, else as given."""
    if os.path.isabs(path):
        if base and os.path.isabs(base):
            try:
                if os.path.commonpath([path, base]) == os.path.normpath(base):
                    path = os.path.relpath(path, base)
            except ValueError:   # different drives
                pass
    else:
        path = os.path.normpath(path)
    return path.replace(os.sep, "/")


# ---- text ---------------------------------------------------------------------------------------

def text_line(rec: Mapping) -> str:
    """'path:line:col: severity code message', with the reason of an ignored finding."""
    line = f"{rec['path']}:{rec['line']}:{rec['column']}: {rec['severity']} {rec['code']} {rec['message']}"
    if rec["severity"] == IGNORED and rec.get("reason"):
        line += f" ({rec['reason']})"
    return line


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_WINDOW = 160   # longer lines are shown around the finding only


def _width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _pad(chars: str) -> str:
    """Blank space as wide on a terminal as ``chars`` (tabs kept, so the caret lines up)."""
    return "".join(ch if ch == "\t" else " " * _width(ch) for ch in chars)


class SourceLines:
    """The lines of each file's text, split once per file however many findings it has."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = sources
        self.split: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str | None:
        """Line ``number`` (1-based) of ``path`` without its line break, None when there is none."""
        if path not in self.split:
            text = self.sources.get(path)
            self.split[path] = text.split("\n") if text is not None else []
        lines = self.split[path]
        return lines[number - 1].removesuffix("\r") if 1 <= number <= len(lines) else None


def source_snippet(src: str, rec: Mapping) -> list[str]:
    """The line ``src`` a finding starts on, numbered, with carets under its columns (to the end
    of the line when it goes on further); a window around the finding when the line is very long."""
    number = rec["line"]
    start = min(max(rec["column"] - 1, 0), len(src))
    end = rec["end_column"] - 1 if rec["end_line"] == number else len(src)
    end = min(max(end, start), len(src))
    shown_from, shown_to = 0, len(src)
    if len(src) > _WINDOW:
        shown_from = max(0, start - _WINDOW // 3)
        shown_to = max(min(len(src), shown_from + _WINDOW), min(end, start + _WINDOW))
    before = src[shown_from:start]
    marked = src[start:min(end, shown_to)]
    visible = _CONTROL.sub("?", src[shown_from:shown_to])
    head = "…" if shown_from else ""
    tail = "…" if shown_to < len(src) else ""
    gutter = " " * len(str(number))
    carets = "^" * max(1, sum(_width(ch) for ch in marked))
    shown = f"{number} | {head}{visible}{tail}" if src else f"{number} |"
    return [f"{gutter} |",
            shown,
            f"{gutter} | {_pad(head)}{_pad(_CONTROL.sub('?', before))}{carets}",
            ""]


def write_text(out: CheckOutput) -> str:
    lines: list[str] = []
    sources = SourceLines(out.sources)
    for rec in out.findings(out.show_ignored):
        lines.append(text_line(rec))
        src = sources.line(rec["path"], rec["line"]) if out.show_source else None
        if src is not None:
            lines.extend(source_snippet(src, rec))
    return "".join(line + "\n" for line in lines)


def write_json(out: CheckOutput) -> str:
    return json.dumps(out.findings(out.show_ignored), indent=1, ensure_ascii=False) + "\n"


# ---- GitHub workflow commands -------------------------------------------------------------------

def _gh_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(value: str) -> str:
    return _gh_data(value).replace(":", "%3A").replace(",", "%2C")


_GH_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def write_github(out: CheckOutput) -> str:
    """One '::error|warning|notice file=…,line=…::message' workflow command per finding, so that
    the findings show as annotations on the pull request's diff.  GitHub takes columns only
    for a range on one line."""
    lines = []
    for rec in out.findings(False):
        props = [("file", relative_path(rec["path"], out.base)), ("line", rec["line"]),
                 ("endLine", rec["end_line"])]
        if rec["end_line"] == rec["line"]:
            props += [("col", rec["column"]), ("endColumn", max(rec["end_column"], rec["column"]))]
        props.append(("title", f"{rec['code']} ({out.tool.name})"))
        text = ",".join(f"{k}={_gh_property(str(v))}" for k, v in props)
        lines.append(f"::{_GH_LEVEL.get(rec['severity'], 'error')} {text}::{_gh_data(rec['message'])}\n")
    return "".join(lines)


# ---- fingerprints (GitLab, SARIF) -----------------------------------------------------------------

def fingerprints(out: CheckOutput, records: Sequence[dict]) -> list[str]:
    """A fingerprint per record that stays the same when lines are added above the finding
    (path, code, message and the stripped source line, not the line number) and is unique
    (the n-th identical finding of a file gets n in its hash)."""
    seen: dict[tuple, int] = {}
    result = []
    sources = SourceLines(out.sources)
    for rec in records:
        line = (sources.line(rec["path"], rec["line"]) or "").strip()
        key = (relative_path(rec["path"], out.base), rec["code"], rec["message"], line)
        n = seen.get(key, 0)
        seen[key] = n + 1
        digest = hashlib.sha256("\0".join((*key, str(n))).encode("utf-8", "backslashreplace"))
        result.append(digest.hexdigest()[:32])
    return result


def _machine_json(value: object) -> str:
    """Compact JSON for reports that only programs read: ``indent`` would make ``json`` use its
    pure-Python encoder, several times slower on a large report."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


# ---- GitLab Code Quality ---------------------------------------------------------------------------

_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def write_gitlab(out: CheckOutput) -> str:
    """GitLab's Code Quality report: a JSON list of issues (the fields GitLab documents)."""
    records = out.findings(False)
    issues = [{"description": rec["message"], "check_name": rec["code"], "fingerprint": fp,
               "severity": _GITLAB_SEVERITY.get(rec["severity"], "major"),
               "location": {"path": relative_path(rec["path"], out.base), "lines": {"begin": rec["line"]}}}
              for rec, fp in zip(records, fingerprints(out, records))]
    return _machine_json(issues)


# ---- SARIF 2.1.0 -----------------------------------------------------------------------------------

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "SRCROOT"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _sarif_location(rec: Mapping, out: CheckOutput) -> dict:
    path = relative_path(rec["path"], out.base)
    if os.path.isabs(path):
        artifact: dict = {"uri": "file://" + quote(path.replace(os.sep, "/"))}
    else:
        artifact = {"uri": quote(path), "uriBaseId": SRCROOT}
    physical: dict = {"artifactLocation": artifact}
    if rec["path"] in out.sources:   # a file that could not be read has no region
        physical["region"] = {"startLine": rec["line"], "startColumn": rec["column"],
                              "endLine": rec["end_line"], "endColumn": rec["end_column"]}
    return {"physicalLocation": physical}


def write_sarif(out: CheckOutput) -> str:
    """One SARIF 2.1.0 run: the driver with a rule per code reported, a result per finding;
    findings silenced by control comments are results with an in-source suppression."""
    records = out.findings(True)
    codes = sorted({rec["code"] for rec in records})
    index = {code: i for i, code in enumerate(codes)}
    rules = []
    for code in codes:
        rule: dict = {"id": code, "shortDescription": {"text": describe(code)}}
        template = _template_text(issue(code).template) if is_registered(code) else ""
        if template and template != rule["shortDescription"]["text"]:
            rule["fullDescription"] = {"text": f"Reported as: {template}"}
        rule["defaultConfiguration"] = {"level": _SARIF_LEVEL.get(default_severity(code), "error")}
        rule["properties"] = {"tags": ["style", "puppet-lint"] if code in CHECKS else ["correctness"]}
        rules.append(rule)
    results = []
    for rec, fp in zip(records, fingerprints(out, records)):
        severity = default_severity(rec["code"]) if rec["severity"] == IGNORED else rec["severity"]
        result: dict = {"ruleId": rec["code"], "ruleIndex": index[rec["code"]],
                        "level": _SARIF_LEVEL.get(severity, "error"), "message": {"text": rec["message"]},
                        "locations": [_sarif_location(rec, out)],
                        "partialFingerprints": {"puppetLsFinding/v1": fp}}
        if rec["severity"] == IGNORED:
            suppression: dict = {"kind": "inSource"}
            if rec.get("reason"):
                suppression["justification"] = rec["reason"]
            result["suppressions"] = [suppression]
        results.append(result)
    driver: dict = {"name": out.tool.name, "version": out.tool.version, "semanticVersion": out.tool.version}
    if out.tool.information_uri:
        driver["informationUri"] = out.tool.information_uri
    driver["rules"] = rules
    run: dict = {"tool": {"driver": driver}}
    if out.base and os.path.isabs(out.base):
        base_uri = "file://" + quote(out.base.replace(os.sep, "/").rstrip("/") + "/")
        run["originalUriBaseIds"] = {SRCROOT: {"uri": base_uri}}
    run["columnKind"] = "unicodeCodePoints"   # our columns count characters
    run["results"] = results
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return _machine_json(log)


# ---- XML (JUnit, Checkstyle) ------------------------------------------------------------------------

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(value: object) -> str:
    """Text XML 1.0 can carry: characters it forbids (controls, lone surrogates) as \\xNN."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value))


def _element(tag: str, parent: ET.Element | None = None, text: str | None = None, **attrs: object) -> ET.Element:
    import xml.etree.ElementTree as ET   # (the XML formats only)
    safe = {k: _xml_safe(v) for k, v in attrs.items() if v is not None}
    el = ET.Element(tag, safe) if parent is None else ET.SubElement(parent, tag, safe)
    if text is not None:
        el.text = _xml_safe(text)
    return el


def _xml(root: ET.Element) -> str:
    import xml.etree.ElementTree as ET
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _by_file(out: CheckOutput, with_ignored: bool) -> list[tuple[str, list[dict]]]:
    """Files in the order checked (then any path only a finding names), each with its findings."""
    groups: dict[str, list[dict]] = {path: [] for path in out.files}
    for rec in out.findings(with_ignored):
        groups.setdefault(rec["path"], []).append(rec)
    return list(groups.items())


def write_junit(out: CheckOutput) -> str:
    """JUnit XML: a test suite per file and a failing test case per finding (a skipped one per
    finding a control comment silenced, with --show-ignored); a file without findings has one
    passing test case, so that it shows as checked."""
    root = _element("testsuites", name=f"{out.tool.name} check")
    totals = {"tests": 0, "failures": 0}
    for path, recs in _by_file(out, out.show_ignored):
        failures = sum(1 for r in recs if r["severity"] != IGNORED)
        skipped = len(recs) - failures
        tests = max(len(recs), 1)
        suite = _element("testsuite", root, name=path, tests=tests, failures=failures, errors=0,
                         skipped=skipped, file=path)
        totals["tests"] += tests
        totals["failures"] += failures
        if not recs:
            _element("testcase", suite, name=f"{out.tool.name} check", classname=path)
        for rec in recs:
            case = _element("testcase", suite, name=f"{rec['code']} at line {rec['line']}, column {rec['column']}",
                            classname=path)
            if rec["severity"] == IGNORED:
                why = f"silenced by a control comment: {rec['reason']}" if rec.get("reason") \
                    else "silenced by a control comment"
                _element("skipped", case, message=why)
            else:
                _element("failure", case, text_line(rec), message=rec["message"], type=rec["code"])
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failures"]))
    root.set("errors", "0")
    return _xml(root)


_CHECKSTYLE_SEVERITY = {"error": "error", "warning": "warning", "info": "info", IGNORED: "ignore"}


def write_checkstyle(out: CheckOutput) -> str:
    """Checkstyle's XML report, as its XMLLogger (and most linters since) write it: a <file>
    per file checked with an <error> per finding, the code as its source."""
    root = _element("checkstyle", version="4.3")
    for path, recs in _by_file(out, out.show_ignored):
        file_el = _element("file", root, name=path)
        for rec in recs:
            message = rec["message"]
            if rec["severity"] == IGNORED and rec.get("reason"):
                message += f" ({rec['reason']})"
            _element("error", file_el, line=rec["line"], column=rec["column"],
                     severity=_CHECKSTYLE_SEVERITY.get(rec["severity"], "error"), message=message,
                     source=rec["code"])
    return _xml(root)


# ---- the table of formats ------------------------------------------------------------------------

WRITERS: dict[str, Callable[[CheckOutput], str]] = {
    "text": write_text,
    "json": write_json,
    "github": write_github,
    "sarif": write_sarif,
    "junit": write_junit,
    "gitlab": write_gitlab,
    "checkstyle": write_checkstyle,
}
FORMATS: tuple[str, ...] = tuple(WRITERS)

FORMAT_HELP = ("text: 'path:line:col: severity code message' lines (--show-source adds the source line); "
               "json: a JSON list of findings; github: GitHub Actions annotations (workflow commands); "
               "sarif: SARIF 2.1.0 for code scanning; junit: JUnit XML, a test case per finding; "
               "gitlab: GitLab Code Quality JSON; checkstyle: Checkstyle XML.")


def format_named(name: str) -> str:
    """The output format called ``name`` (any case), or ValueError saying which exist."""
    key = name.strip().lower()
    if key not in WRITERS:
        raise ValueError(f"unknown output format '{name}'; expected one of {', '.join(FORMATS)}")
    return key


def render(fmt: str, out: CheckOutput) -> str:
    return WRITERS[format_named(fmt)](out)
