"""Regenerate ``language/knowledge/functions.json`` from the installed Puppet.

Runs ``generate.rb`` (next to this file) with the Ruby of the installed Puppet and writes its
JSON into the package, so that every layer of puppet-ls reads one description of Puppet's
built-in functions: their names, API, documentation and dispatch signatures as Puppet's own
loaders see them.  ``--check`` compares instead of writing (exit 1 on a difference), which is
what the oracle test does too.

    python3 tools/functions/generate.py            # rewrite the data file
    python3 tools/functions/generate.py --check    # is the committed file current?
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "generate.rb"
DATA_FILE = HERE.parents[1] / "language" / "knowledge" / "functions.json"


def generate(ruby: str | None = None, timeout: float = 120.0) -> str:
    """The data file's text as the installed Puppet describes its functions (raises on failure)."""
    ruby = ruby or shutil.which("ruby")
    if ruby is None:
        raise RuntimeError("ruby is not installed")
    proc = subprocess.run([ruby, str(SCRIPT)], capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"generate.rb failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    data = json.loads(proc.stdout)
    if not data.get("functions"):
        raise RuntimeError("generate.rb produced no functions")
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    ap.add_argument("--ruby", help="the Ruby to run (default: ruby on PATH)")
    args = ap.parse_args(argv)
    text = generate(args.ruby)
    if args.check:
        current = DATA_FILE.read_text(encoding="utf-8") if DATA_FILE.exists() else ""
        if current != text:
            print(f"{DATA_FILE} is not what the installed Puppet produces; rerun without --check",
                  file=sys.stderr)
            return 1
        print(f"{DATA_FILE} is current")
        return 0
    DATA_FILE.write_text(text, encoding="utf-8")
    data = json.loads(text)
    print(f"wrote {DATA_FILE}: Puppet {data['puppet_version']}, {len(data['functions'])} functions, "
          f"{sum(len(f['signatures']) for f in data['functions'])} signatures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
