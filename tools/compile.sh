#!/usr/bin/env bash
# Compile the syntax engine (the modules listed in language/syntax/engine.py: COMPILED) with
# mypyc into CPython extension modules, which are then imported instead of the sources
# (`puppet-ls --version` says which engine runs; PUPPET_LS_PURE_PYTHON=1 forces the sources).
# Optional: everything works without it, only slower (docs/decisions.md, "mypyc").
#
# Usage: tools/compile.sh            build beside the sources, in language/syntax/ (for an
#                                    editable install: pip install -e .)
#        tools/compile.sh --out DIR  build into DIR/puppet_ls/language/syntax/ (what a compiled
#                                    wheel adds to the pure one: tools/release/build.sh)
#        tools/compile.sh --clean    remove what a build left in language/syntax/
# Needs mypy (the `lint` extra: pip install -e '.[lint]'; mypyc ships with it), a C compiler and
# Python's headers (Debian: gcc python3-dev).  Env: PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PYTHON=${PYTHON:-python3}
SYNTAX="$ROOT/language/syntax"

clean() {
  rm -f "$SYNTAX"/*.so "$SYNTAX"/*.pyd "$SYNTAX/_compiled.txt"
}

OUT=""
case "${1:-}" in
  --clean) clean; echo "compile.sh: removed the compiled syntax engine from language/syntax/"; exit 0 ;;
  --out) [ -n "${2:-}" ] || { echo "compile.sh: --out needs a directory" >&2; exit 2; }
         mkdir -p "$2"; OUT="$(cd "$2" && pwd)" ;;
  "") ;;
  -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "compile.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac

"$PYTHON" -c 'import mypyc' 2>/dev/null || {
  echo "compile.sh: mypyc is not installed for $PYTHON (pip install -e '.[lint]')" >&2; exit 1; }
command -v "${CC:-cc}" >/dev/null 2>&1 || {
  echo "compile.sh: no C compiler (${CC:-cc}) on PATH (Debian: apt-get install gcc python3-dev)" >&2; exit 1; }

# mypyc names modules after their folders, so the sources are compiled from a tree in which
# language/ is reached as puppet_ls/language (as tools/lint.sh does for mypy); an in-place
# build writes through that link, beside the sources.
TREE="$(mktemp -d)"
trap 'rm -rf "$TREE"' EXIT
mkdir "$TREE/puppet_ls"
ln -s "$ROOT/language" "$TREE/puppet_ls/language"
[ -n "$OUT" ] || clean
cd "$TREE"
"$PYTHON" - "$ROOT" "$OUT" <<'PY'
import ast
import hashlib
import os
import sys

from mypyc.build import mypycify
from setuptools import Distribution

root, out = sys.argv[1], sys.argv[2]
syntax = os.path.join(root, "language", "syntax")
engine = ast.parse(open(os.path.join(syntax, "engine.py"), encoding="utf-8").read())
consts = {t.id: node.value for node in engine.body if isinstance(node, ast.Assign)
          for t in node.targets if isinstance(t, ast.Name)}
modules = ast.literal_eval(consts["COMPILED"])
manifest_name = ast.literal_eval(consts["MANIFEST"])
# hashed before compiling: a source edited during the build then counts as changed
manifest = "".join(
    f"{m} {hashlib.sha256(open(os.path.join(syntax, m + '.py'), 'rb').read()).hexdigest()}\n"
    for m in modules)

paths = [f"puppet_ls/language/syntax/{m}.py" for m in modules]
extensions = mypycify(["--explicit-package-bases", *paths], opt_level="3",
                      group_name="puppet_ls.language.syntax._engine", target_dir="build")
dist = Distribution({"name": "puppet-ls-engine", "ext_modules": extensions})
build_ext = dist.get_command_obj("build_ext")
build_ext.inplace = not out
build_ext.build_temp = "build/temp"
build_ext.parallel = os.cpu_count() or 1
if out:
    build_ext.build_lib = out
dist.run_command("build_ext")
dest = os.path.join(out, "puppet_ls", "language", "syntax") if out else syntax
with open(os.path.join(dest, manifest_name), "w", encoding="utf-8") as f:
    f.write(manifest)
print(f"compile.sh: compiled {', '.join(modules)} into {dest}")
PY
