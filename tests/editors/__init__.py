"""End-to-end tests of puppet-ls in real editors (Neovim, Emacs + Eglot, VS Code via code-server)."""
