"""Test-wide settings: Hypothesis runs derandomized (the same examples on every run, so CI is
reproducible; HYPOTHESIS_PROFILE=explore runs fresh random examples when hunting bugs), and the
summary names every outside input that was missing and what was skipped for it.  Servers and
commands started by the tests keep their index cache and kept code in a temporary folder, never the user's.
Every pytest-lsp test client answers the server's client/registerCapability as an editor does
(the server registers file watchers), keeping what it was asked in ``client.registrations``."""
import atexit
import os
import shutil
import tempfile

from hypothesis import settings
from lsprotocol import types
from pytest_lsp import LanguageClient
from pytest_lsp.client import default_feature

from tests.corpus import missing_inputs

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

_CACHE = tempfile.mkdtemp(prefix="puppet-ls-test-cache-")
os.environ["PUPPET_LS_CACHE_DIR"] = _CACHE
# (the language server's kept code, server/code_cache.py: a private folder of its own)
os.environ["PUPPET_LS_CODE_CACHE_DIR"] = os.path.join(_CACHE, "code")
atexit.register(shutil.rmtree, _CACHE, True)


def pytest_terminal_summary(terminalreporter) -> None:
    lines = missing_inputs()
    if lines:
        terminalreporter.section("outside inputs not present")
        for line in lines:
            terminalreporter.write_line(line)


@default_feature(types.CLIENT_REGISTER_CAPABILITY)
def _register_capability(client: LanguageClient, params: types.RegistrationParams) -> None:
    if not hasattr(client, "registrations"):
        client.registrations = []
    client.registrations.extend(params.registrations)
