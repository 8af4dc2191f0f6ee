#!/usr/bin/env bash
# Lint the repository: `ruff check` over every Python file, `mypy` over language/ and server/.
# Configuration (rules, strictness, what is not clean yet) lives in pyproject.toml; the tools
# come from the `lint` extra: python3 -m pip install -e '.[lint]'.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

status=0
echo "== ruff check"
python3 -m ruff check . || status=1

echo "== mypy"
# The folders language/ and server/ are installed as puppet_ls.language and puppet_ls.server
# (setup.py), and server/ imports them by those names. mypy finds modules by folder name, so a
# temporary tree of two links gives the folders their package names; paths in its messages are
# mapped back to the repository's.
TREE="$(mktemp -d)"
trap 'rm -rf "$TREE"' EXIT
mkdir "$TREE/puppet_ls"
ln -s "$ROOT/language" "$TREE/puppet_ls/language"
ln -s "$ROOT/server" "$TREE/puppet_ls/server"
cd "$TREE"
python3 -m mypy --config-file "$ROOT/pyproject.toml" --cache-dir "$ROOT/.mypy_cache" \
    -p puppet_ls.language -p puppet_ls.server | sed -E 's#^puppet_ls/(language|server)/#\1/#' \
    || status=1
exit "$status"
