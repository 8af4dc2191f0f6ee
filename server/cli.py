"""The ``puppet-ls`` command: the language server (default) and the command-line tools.

    puppet-ls [--stdio | --tcp HOST:PORT]     run the language server
    puppet-ls check PATH...                   report every syntax and validation problem
    puppet-ls format PATH...                  format files (or check that they are formatted)
    puppet-ls parse FILE --dump               print the syntax tree
    puppet-ls symbols FILE                    print the outline of a file
    puppet-ls eval 'EXPR'                     evaluate Puppet code in the sandbox
    puppet-ls preview CLASS                   the catalog a class makes for a node's facts

The tools live in ``server/commands.py`` and are imported only when one of them is run or
listed (``--help``): the language server, which editors start, needs none of them, and their
imports (the report formats, the check runner, the formatter's command) were ~60 ms of its
start (``python -X importtime``).  For the same reason ``run``, the command's entry point,
starts the server without click when that is all it is asked (``puppet-ls``, ``puppet-ls
--stdio``): click's import is another ~30 ms.  ``main``, the click command, is made when first
asked for (``run`` with any other arguments, the tests, ``lens``'s child processes).
"""
from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click


def run() -> None:
    """The ``puppet-ls`` command."""
    if sys.argv[1:] in ([], ["--stdio"]):
        sys.exit(serve())
    command()()


def serve(host: str | None = None, port: int | None = None, log_file: str | None = None) -> int:
    """Run the language server (stdio unless ``host`` and ``port``) until its client ends it."""
    if host is None or port is None:
        # over stdio the early front answers the first requests while pygls loads (early.py)
        from . import early
        return early.serve_stdio(log_file)
    from . import code_cache
    # (the code attrs generates for the protocol's classes, kept between starts: a third of
    # the server's start-up otherwise; docs/decisions.md)
    with code_cache.kept(code_cache.private_folder()):
        from .lsp import run_server
    return run_server(host=host, port=port, log_file=log_file)


def __getattr__(name: str) -> click.Group:
    """``main``: the click command (module attributes made when first asked for, PEP 562)."""
    if name == "main":
        return command()
    raise AttributeError(name)


@functools.cache
def command() -> click.Group:
    """The click command of ``puppet-ls``, its tools found in ``commands.tools`` when asked for."""
    import click

    from puppet_ls.language.syntax import ENGINE

    from . import __version__

    class Tools(click.Group):
        """The main command's subcommands, found in ``commands.tools`` when asked for."""

        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted(_tools().commands)

        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            return _tools().commands.get(cmd_name)

    @click.group(cls=Tools, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
    @click.option("--stdio", "stdio", is_flag=True, help="Run the language server over stdin/stdout (the default).")
    @click.option("--tcp", "tcp", metavar="HOST:PORT", help="Run the language server on a TCP socket.")
    @click.option("--log-file", type=click.Path(dir_okay=False), help="Write the server's log here instead of stderr.")
    @click.version_option(__version__, prog_name="puppet-ls",
                          message=f"%(prog)s, version %(version)s\nsyntax engine: {ENGINE.describe()}")
    @click.pass_context
    def main(ctx: click.Context, stdio: bool, tcp: str | None, log_file: str | None) -> None:
        """puppet-ls: a fast, fault-tolerant language server and toolchain for Puppet.

        Without a command it runs the language server on stdio, which is what editors start.
        """
        if ctx.invoked_subcommand is not None:
            return
        host = port = None
        if tcp:
            host, _, port_s = tcp.rpartition(":")
            if not host or not port_s.isdigit():
                raise click.UsageError("--tcp expects HOST:PORT, for example 127.0.0.1:8765")
            port = int(port_s)
        sys.exit(serve(host=host, port=port, log_file=log_file))

    return main


def _tools() -> click.Group:
    from .commands import tools     # lazy: see the module docstring
    return tools


if __name__ == "__main__":  # pragma: no cover
    run()
