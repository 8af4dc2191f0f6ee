"""Bolt's knowledge (language/knowledge/bolt.json): every function has a usable signature and
doc, every type's definition parses, and the generator gives the same JSON from the sources
(when a Bolt checkout is named by BOLT_SOURCE)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from puppet_ls.language.check.bolt import function_signatures
from puppet_ls.language.knowledge import bolt
from puppet_ls.language.knowledge.functions import function as puppet_function
from puppet_ls.language.types.from_ast import type_call_from_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_plan_functions_the_issue_names_are_known() -> None:
    for name in ("run_task", "run_command", "run_script", "run_plan", "upload_file", "download_file",
                 "get_targets", "get_target", "apply_prep", "wait_until_available", "out::message",
                 "out::verbose", "log::info", "catch_errors", "parallelize", "background", "wait",
                 "set_feature", "set_var", "vars", "facts", "add_facts", "puppetdb_query", "prompt",
                 "system::env", "file::read", "file::exists", "file::readable", "file::write",
                 "dir::children", "ctrl::sleep", "ctrl::do_until", "resolve_references"):
        f = bolt.function(name)
        assert f is not None, name
        assert f.summary and f.dispatches, name


def test_every_function_has_signatures_and_no_puppet_name() -> None:
    for name in bolt.functions():
        sigs = function_signatures(name)
        assert sigs, name
        assert puppet_function(name) is None, f"{name} is Puppet's too: decide which one wins"


def test_types_and_their_definitions_parse() -> None:
    names = set(bolt.types())
    assert {"Target", "Result", "ResultSet", "ApplyResult", "Future", "TargetSpec",
            "Boltlib::TargetSpec", "Boltlib::PlanResult", "PlanResult"} <= names
    for t in bolt.types().values():
        if t.kind == "alias":
            assert type_call_from_text(t.definition) is not None, t.name
        else:
            assert t.functions or t.attributes or t.name == "Future", t.name
    assert "error_set" in bolt.object_members() and "ok" in bolt.object_members()


def test_run_command_signature() -> None:
    labels = [s.label() for s in function_signatures("run_command") or []]
    assert labels == [
        "run_command(String[1] $command, Boltlib::TargetSpec $targets, Hash[String[1], Any] $options?) >> ResultSet",
        ("run_command(String[1] $command, Boltlib::TargetSpec $targets, String $description, "
         "Hash[String[1], Any] $options?) >> ResultSet")]


@pytest.mark.skipif(not os.environ.get("BOLT_SOURCE"), reason="BOLT_SOURCE (a Bolt source checkout) not set")
def test_generator_reproduces_the_data(tmp_path: Path) -> None:
    stored = json.loads((ROOT / "language" / "knowledge" / "bolt.json").read_text(encoding="utf-8"))
    out = tmp_path / "bolt.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "bolt" / "generate.py"), os.environ["BOLT_SOURCE"],
                    "--source", stored["bolt"], "--out", str(out)], check=True, timeout=120)
    assert json.loads(out.read_text(encoding="utf-8")) == stored
