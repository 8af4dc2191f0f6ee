"""Write language/knowledge/facts.json from Facter's fact schema.

Facter ships a schema of every fact it resolves (``schema/facter.yaml``: name, type,
description, ``hidden`` for the legacy flat facts, ``pattern`` for names with a placeholder such
as ``ipaddress_<interface>``, and the ``elements`` of structured facts).  It is YAML; the
installed Ruby (which Puppet and Facter need anyway) turns it into JSON, so no YAML library is
needed here.  The output keeps what puppet-ls uses, in the schema's order:

    {"facter": VERSION, "facts": {NAME: {"type", "description", "legacy"?, "pattern"?, "elements"?}}}

Run it again when a newer Facter is installed:

    python3 tools/facts/generate.py [/path/to/facter.yaml]
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DEFAULT_SCHEMA = Path("/usr/lib/ruby/vendor_ruby/schema/facter.yaml")
OUT = Path(__file__).resolve().parents[2] / "language" / "knowledge" / "facts.json"
_TO_JSON = 'require "yaml"; require "json"; print JSON.generate(YAML.load_file(ARGV[0]))'


def facter_version() -> str:
    try:
        out = subprocess.run(["facter", "--version"], capture_output=True, text=True, check=True, timeout=60)
        return out.stdout.strip().split()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def entry(raw: dict) -> dict:
    out: dict = {"type": raw.get("type", ""), "description": " ".join(str(raw.get("description", "")).split())}
    if raw.get("hidden"):
        out["legacy"] = True
    if raw.get("pattern"):
        out["pattern"] = raw["pattern"]
    if raw.get("elements"):
        out["elements"] = {name: entry(sub) for name, sub in raw["elements"].items()}
    return out


def generate(schema: Path) -> dict:
    raw = json.loads(subprocess.run(["ruby", "-e", _TO_JSON, str(schema)], capture_output=True, text=True,
                                    check=True, timeout=120).stdout)
    return {"facter": facter_version(), "facts": {name: entry(e) for name, e in raw.items()}}


def main() -> int:
    schema = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SCHEMA
    if not schema.exists():
        print(f"generate: {schema} not found (apt-get install facter)", file=sys.stderr)
        return 2
    OUT.write_text(json.dumps(generate(schema), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
