#!/bin/bash
# Builds what a release publishes, locally or in .github/workflows/release.yml, into DIST:
#   the sdist and the wheel (python -m build), checked with `twine check --strict`;
#   with COMPILED_WHEEL=1 also this platform's wheel with the mypyc-compiled syntax engine
#   (tools/compile.sh --out, which needs the `lint` extra and a C compiler;
#   tools/release/compiled_wheel.py) in DIST/compiled/, kept apart: its plain platform tag is not
#   publishable (a manylinux build is left to do: docs/decisions.md, "mypyc");
#   one self-contained .vsix per VS Code target (puppet-ls-TARGET-VERSION.vsix): the extension with
#   puppet-ls and its dependencies in bundled/libs (tools/release/bundle.py), for CPython 3.10+.
# Usage: tools/release/build.sh [TARGET...]     (default: this machine's target, e.g. linux-x64;
#        `all` = every target of tools/release/bundle.py)
# Env: PYTHON (default python3; needs the `release` extra: pip install -e '.[release]'),
#      DIST (default ./dist, emptied first), RELEASE_TAG (checked to be v + the version).  Needs vscode-extension/node_modules (npm ci).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
EXT=$REPO/vscode-extension
PYTHON=${PYTHON:-python3}
DIST=${DIST:-$REPO/dist}
cd "$REPO"

host_target() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux; if ldd --version 2>&1 | grep -qi musl; then os=alpine; fi ;;
    Darwin) os=darwin ;;
    MINGW*|MSYS*|CYGWIN*) os=win32 ;;
    *) echo "build.sh: unknown OS $(uname -s)" >&2; exit 2 ;;
  esac
  case "$(uname -m)" in
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) echo "build.sh: unknown machine $(uname -m)" >&2; exit 2 ;;
  esac
  echo "$os-$arch"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("$(host_target)")
if [ "${targets[0]}" = all ]; then
  mapfile -t targets < <("$PYTHON" -c 'import sys; sys.path.insert(0, "tools/release"); import bundle; print("\n".join(bundle.TARGETS))')
fi

# the Python package and the extension carry one version
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' pyproject.toml | head -1)
ext_version=$(node -p 'require("./vscode-extension/package.json").version')
if [ "$version" != "$ext_version" ]; then
  echo "build.sh: pyproject.toml says $version, vscode-extension/package.json says $ext_version" >&2; exit 1
fi
# the release workflow passes the pushed tag: it must name that version
if [ -n "${RELEASE_TAG:-}" ] && [ "$RELEASE_TAG" != "v$version" ]; then
  echo "build.sh: tag $RELEASE_TAG does not name version $version (expected v$version)" >&2; exit 1
fi

rm -rf "$DIST" && mkdir -p "$DIST"
echo "== release: sdist and wheel of puppet-ls $version"
"$PYTHON" -m build --outdir "$DIST" . > "$DIST/build.log" 2>&1 || { tail -30 "$DIST/build.log" >&2; exit 1; }
rm -f "$DIST/build.log"
"$PYTHON" -m twine check --strict "$DIST"/*.tar.gz "$DIST"/*.whl
wheel=$(ls "$DIST"/puppet_ls-"$version"-py3-none-any.whl)
if [ "${COMPILED_WHEEL:-0}" = 1 ]; then
  echo "== release: this platform's compiled wheel (tools/compile.sh --out, mypyc)"
  engine_dir=$(mktemp -d)
  mkdir -p "$DIST/compiled"
  PYTHON="$PYTHON" bash tools/compile.sh --out "$engine_dir" > "$DIST/compile.log" 2>&1 \
    || { tail -30 "$DIST/compile.log" >&2; exit 1; }
  "$PYTHON" tools/release/compiled_wheel.py "$wheel" "$engine_dir" "$DIST/compiled"
  rm -rf "$engine_dir" "$DIST/compile.log"
  "$PYTHON" -m twine check --strict "$DIST"/compiled/*.whl
fi

echo "== release: the extension (esbuild)"
(cd "$EXT" && npm run -s build)
for target in "${targets[@]}"; do
  echo "== release: $target .vsix"
  "$PYTHON" tools/release/bundle.py "$target" "$wheel" "$EXT/bundled/libs"
  (cd "$EXT" && node_modules/.bin/vsce package --no-dependencies --target "$target" \
     -o "$DIST/puppet-ls-$target-$version.vsix" | grep -v '^ INFO ' || true)
  [ -f "$DIST/puppet-ls-$target-$version.vsix" ] || { echo "build.sh: vsce made no $target .vsix" >&2; exit 1; }
done
rm -rf "$EXT/bundled"
ls -l "$DIST"
