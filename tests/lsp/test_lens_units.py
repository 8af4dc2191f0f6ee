"""Unit tests of the catalog lens's pieces that need no client (server/lens.py): the command's
answer from what ``puppet-ls preview`` printed (a table of exit statuses and outputs), and the
child process that compiles, stopped at its deadline and when the request is cancelled."""
from __future__ import annotations

import asyncio
import os

import pytest

from puppet_ls.server.lens import catalog_answer, run_preview

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "lsp", "catalog", "modules",
                       "lensdemo", "manifests", "init.pp")

ANSWERS = [
    # (exit status, stdout, stderr, note) -> expected ok, error, text
    (0, "Catalog of class a on n (facts: debian12)\n1 resources\n", "", "",
     True, None, "Catalog of class a on n (facts: debian12)\n1 resources\n"),
    (0, "Catalog of class a\n", "", "(compiled from the saved file: the unsaved changes are not in this catalog)",
     True, None, "(compiled from the saved file: the unsaved changes are not in this catalog)\nCatalog of class a\n"),
    # a compilation error: the partial catalog, then the error
    (1, "Catalog of class a\n", "error: Unknown variable: '$x' (/m/a/manifests/init.pp:3)\n", "",
     False, "Unknown variable: '$x' (/m/a/manifests/init.pp:3)",
     "Catalog of class a\nerror: Unknown variable: '$x' (/m/a/manifests/init.pp:3)\n"),
    # a usage error of click: its last line
    (2, "", ("Usage: puppet-ls preview [OPTIONS] CLASS_OR_FILE\nTry 'puppet-ls preview --help' for help.\n\n"
             "Error: class b not found in the modulepath (/m)\n"), "",
     False, "class b not found in the modulepath (/m)", "error: class b not found in the modulepath (/m)\n"),
    (3, "", "", "", False, "puppet-ls preview ended with status 3", "error: puppet-ls preview ended with status 3\n"),
    # stopped at the deadline
    (None, "", "", "", False, "the catalog of a was not compiled within 30 seconds",
     "error: the catalog of a was not compiled within 30 seconds\n"),
]


@pytest.mark.parametrize(("code", "out", "err", "note", "ok", "error", "text"), ANSWERS)
def test_catalog_answer(code, out, err, note, ok, error, text):
    answer = catalog_answer("a", "debian12", code, out, err, note)
    assert answer["ok"] is ok
    assert answer.get("error") == error
    assert answer["text"] == text
    assert answer["title"] == "Catalog of a (debian12)" and answer["facts"] == "debian12" and answer["class"] == "a"


def test_the_child_prints_what_the_cli_prints():
    code, out, err = asyncio.run(run_preview(["preview", FIXTURE, "--facts", "rhel9"], 512))
    assert (code, err) == (0, "")
    assert out.splitlines()[:4] == ["Catalog of class lensdemo on node.example.com (facts: rhel9)",
                                    "Class[Lensdemo]  (in Stage[main])", "  port => 8080",
                                    "Package[httpd]  (in Class[Lensdemo])"]


def test_the_child_is_stopped_at_its_deadline():
    # (a deadline no Python start-up meets: the answer is "stopped", whatever the machine's speed)
    assert asyncio.run(run_preview(["preview", FIXTURE], 512, seconds=0.001)) == (None, "", "")


def test_cancelling_the_request_kills_the_child(monkeypatch):
    started: list = []
    spawn = asyncio.create_subprocess_exec

    async def recording(*args, **kwargs):
        proc = await spawn(*args, **kwargs)
        started.append(proc)
        return proc
    monkeypatch.setattr(asyncio, "create_subprocess_exec", recording)

    async def cancel_it():
        task = asyncio.ensure_future(run_preview(["preview", FIXTURE], 512))
        while not started:
            await asyncio.sleep(0.001)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return started[0].returncode
    assert asyncio.run(cancel_it()) is not None      # ended (killed), not left running
