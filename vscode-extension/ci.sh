#!/bin/bash
# CI for the editor integrations (called by .ci/run): installs what is missing, then runs the
# TextMate grammar tests (assertions + snapshots), the extension's unit tests and type check, the
# release build (tools/release/build.sh: sdist and wheel checked by twine, the .vsix of this
# platform with puppet-ls bundled), the release tooling's tests, and the end-to-end tests in real
# Neovim 0.7/0.11, Emacs + Eglot and VS Code
# (code-server + Chromium).  Exits non-zero on the first failure.  Idempotent, and fast when
# everything is installed already.
#   PUPPET_LS_SKIP_VSCODE_E2E=1  skip the one-time code-server setup (2-4 min cold) and the VS Code
#                                test; everything else still runs.
set -euo pipefail
EXT=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$EXT")
cd "$REPO"
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

T0=$SECONDS
TIMES=()
step() {   # step NAME COMMAND...: run, time, and stop the script when it fails
  local name=$1 t=$SECONDS; shift
  echo "== editors: $name"
  if ! "$@"; then echo "== editors: FAILED: $name" >&2; exit 1; fi
  TIMES+=("$(printf '%4ds  %s' $((SECONDS - t)) "$name")")
}
quiet_npm() { (cd "$EXT" && npm run -s "$@" 2> >(grep -v 'Unknown .* config' >&2)); }

# the server from this checkout, for the end-to-end tests: (re)install when puppet-ls is missing
# or is installed from another checkout (.ci/run installs it too; nothing to do when it is ours)
install_server() {
  local where
  where=$(python3 -c 'import os, puppet_ls.server as s; print(os.path.dirname(os.path.realpath(s.__file__)))' 2>/dev/null || true)
  # (and the test tools: .ci/run installs only the linters before this script)
  if ! command -v puppet-ls >/dev/null || [ "$where" != "$(realpath "$REPO/server")" ] \
      || ! python3 -c 'import pytest, pytest_lsp' 2>/dev/null; then
    python3 -m pip install -q -e '.[test]'
  fi
  # build and twine, for tools/release/build.sh
  python3 -c 'import build, twine' 2>/dev/null || python3 -m pip install -q -e '.[release]'
}
# npm ci only when package-lock.json changed since the last install
install_node_modules() {
  local stamp=$EXT/node_modules/.puppet-ls-lock.sha256 sum
  sum=$(sha256sum "$EXT/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then return 0; fi
  (cd "$EXT" && npm ci --no-audit --no-fund 2> >(grep -v 'Unknown .* config' >&2) | tail -2) && echo "$sum" > "$stamp"
}

step "install: puppet-ls" install_server
step "install: Neovim 0.7 + 0.11, Emacs + Eglot" bash tests/editors/install.sh
step "install: npm ci (pinned by package-lock.json)" install_node_modules
if [ "${PUPPET_LS_SKIP_VSCODE_E2E:-0}" != 1 ]; then
  step "install: code-server + Node 24 + Chromium (one-time)" bash "$EXT/e2e/setup-code-server.sh"
fi
step "grammar: assertions (vscode-tmgrammar-test)" quiet_npm test:grammar
step "grammar: snapshots (vscode-tmgrammar-snap)" quiet_npm test:grammar-snap
step "extension: unit tests (node --test)" quiet_npm test:unit
step "extension: type check (tsc --noEmit)" quiet_npm typecheck
step "release: sdist, wheel (twine check), bundled .vsix (tools/release/build.sh)" \
  env PYTHON=python3 bash tools/release/build.sh
step "release: tooling tests (pytest tests/release)" python3 -m pytest -q -p no:cacheprovider tests/release
step "editors: Neovim, Emacs, VS Code end-to-end (pytest tests/editors)" \
  python3 -m pytest -q -p no:cacheprovider tests/editors

echo "== editors: timings"
printf '%s\n' "${TIMES[@]}"
printf '%4ds  total\n' $((SECONDS - T0))
