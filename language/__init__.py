"""puppet_ls.language: the pure analysis library (syntax, types, evaluation, checking, IDE data).

Nothing in this package speaks LSP or touches files or the network; the server and the CLI
feed it text and turn its plain results into protocol messages or terminal output.
"""
