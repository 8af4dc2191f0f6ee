"""puppet_ls.server: the command line and the LSP server, a thin shell around puppet_ls.language."""

__version__ = "0.1.0"
