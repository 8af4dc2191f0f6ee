"""Write language/knowledge/factsets.json: the built-in fact sets previews evaluate with.

The Debian 12 set is this machine's own ``facter --json`` (a real Debian 12), with what is
particular to the build machine replaced by neutral values (host name, PATH, a container
kernel, helper network interfaces) and facts Facter's schema does not describe left out.  The
other sets (Ubuntu 24.04, RHEL 9, Windows Server 2022) are the Debian set with the facts that
differ on those systems replaced by the values Facter documents and reports there (``OVERRIDES``
below).  Every set's legacy (flat) facts, which Puppet 7 still gives to manifests as top-scope
variables, are then derived from its structured facts the way Facter derives them
(``LEGACY``), so the two never disagree.

    python3 tools/facts/factsets.py [FACTER_JSON]

(FACTER_JSON: a saved ``facter --json`` output; default: run facter.)
"""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "language" / "knowledge" / "facts.json"
OUT = ROOT / "language" / "knowledge" / "factsets.json"

NODE = {"hostname": "node", "domain": "example.com", "fqdn": "node.example.com"}

# legacy fact -> path of the structured fact it repeats (Facter 4's legacy facts)
LEGACY = {
    "architecture": ("os", "architecture"),
    "augeasversion": ("augeas", "version"),
    "domain": ("networking", "domain"),
    "fqdn": ("networking", "fqdn"),
    "hostname": ("networking", "hostname"),
    "hardwaremodel": ("os", "hardware"),
    "hardwareisa": ("processors", "isa"),
    "id": ("identity", "user"),
    "gid": ("identity", "group"),
    "ipaddress": ("networking", "ip"),
    "ipaddress6": ("networking", "ip6"),
    "macaddress": ("networking", "mac"),
    "netmask": ("networking", "netmask"),
    "netmask6": ("networking", "netmask6"),
    "network": ("networking", "network"),
    "network6": ("networking", "network6"),
    "scope6": ("networking", "scope6"),
    "lsbdistcodename": ("os", "distro", "codename"),
    "lsbdistdescription": ("os", "distro", "description"),
    "lsbdistid": ("os", "distro", "id"),
    "lsbdistrelease": ("os", "distro", "release", "full"),
    "lsbmajdistrelease": ("os", "distro", "release", "major"),
    "lsbminordistrelease": ("os", "distro", "release", "minor"),
    "memoryfree": ("memory", "system", "available"),
    "memorysize": ("memory", "system", "total"),
    "operatingsystem": ("os", "name"),
    "operatingsystemmajrelease": ("os", "release", "major"),
    "operatingsystemrelease": ("os", "release", "full"),
    "osfamily": ("os", "family"),
    "physicalprocessorcount": ("processors", "physicalcount"),
    "processorcount": ("processors", "count"),
    "rubyplatform": ("ruby", "platform"),
    "rubysitedir": ("ruby", "sitedir"),
    "rubyversion": ("ruby", "version"),
    "selinux": ("os", "selinux", "enabled"),
    "system32": ("os", "windows", "system32"),
}
# per-interface legacy facts: NAME_<interface> -> key of networking.interfaces.<interface>
LEGACY_PER_INTERFACE = {"ipaddress": "ip", "ipaddress6": "ip6", "macaddress": "mac", "mtu": "mtu",
                        "netmask": "netmask", "netmask6": "netmask6", "network": "network",
                        "network6": "network6", "scope6": "scope6"}

_LINUX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Facts that differ from the Debian 12 machine, per set (a value None removes the fact).
OVERRIDES: dict = {
    "debian12": {
        "kernelrelease": "6.1.0-28-amd64", "kernelversion": "6.1.0", "kernelmajversion": "6.1",
        "path": _LINUX_PATH, "timezone": "UTC",
    },
    "ubuntu2404": {
        "os": {"architecture": "amd64", "family": "Debian", "hardware": "x86_64", "name": "Ubuntu",
               "release": {"full": "24.04", "major": "24.04"},
               "distro": {"codename": "noble", "description": "Ubuntu 24.04.1 LTS", "id": "Ubuntu",
                          "release": {"full": "24.04", "major": "24.04"}},
               "selinux": {"enabled": False}},
        "kernelrelease": "6.8.0-45-generic", "kernelversion": "6.8.0", "kernelmajversion": "6.8",
        "path": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin",
        "ruby": {"platform": "x86_64-linux-gnu", "sitedir": "/usr/local/lib/site_ruby/3.2.0",
                 "version": "3.2.3"},
        "augeas": {"version": "1.14.1"},
        "timezone": "UTC",
    },
    "rhel9": {
        "os": {"architecture": "x86_64", "family": "RedHat", "hardware": "x86_64", "name": "RedHat",
               "release": {"full": "9.4", "major": "9", "minor": "4"},
               "distro": {"codename": "Plow", "description": "Red Hat Enterprise Linux release 9.4 (Plow)",
                          "id": "RedHatEnterprise", "release": {"full": "9.4", "major": "9", "minor": "4"}},
               "selinux": {"config_mode": "enforcing", "config_policy": "targeted",
                           "current_mode": "enforcing", "enabled": True, "enforced": True,
                           "policy_version": "33"}},
        "kernelrelease": "5.14.0-427.13.1.el9_4.x86_64", "kernelversion": "5.14.0", "kernelmajversion": "5.14",
        "path": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/root/bin",
        "ruby": {"platform": "x86_64-linux", "sitedir": "/usr/local/share/ruby/site_ruby", "version": "3.0.4"},
        "augeas": {"version": "1.13.0"},
        "timezone": "UTC",
    },
    "windows2022": {
        "os": {"architecture": "x64", "family": "windows", "hardware": "x86_64", "name": "windows",
               "release": {"full": "2022", "major": "2022"},
               "windows": {"edition_id": "ServerStandard", "installation_type": "Server",
                           "product_name": "Windows Server 2022 Standard", "release_id": "21H2",
                           "system32": "C:\\Windows\\system32"}},
        "kernel": "windows", "kernelrelease": "10.0.20348", "kernelversion": "10.0.20348",
        "kernelmajversion": "10.0",
        "identity": {"privileged": True, "user": "NT AUTHORITY\\SYSTEM"},
        "path": "C:\\Windows\\system32;C:\\Windows;C:\\Windows\\System32\\Wbem;"
                "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\;C:\\Program Files\\Puppet Labs\\Puppet\\bin",
        "ruby": {"platform": "x64-mingw32", "sitedir": "C:/Program Files/Puppet Labs/Puppet/puppet/lib/ruby/site_ruby/3.2.0",
                 "version": "3.2.2"},
        "timezone": "Coordinated Universal Time",
        "augeas": None, "disks": None, "filesystems": None, "mountpoints": None, "load_averages": None,
        "fips_enabled": False,
    },
}
# Windows names its network interface differently and has no loopback interface in Facter.
RENAME_INTERFACES = {"windows2022": {"eth0": "Ethernet0"}}


def facter_json(path: str | None) -> dict:
    if path:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    out = subprocess.run(["facter", "--json"], capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


def neutral_machine(raw: dict, schema: dict) -> dict:
    """The machine's facts, known to the schema, with what identifies the build machine replaced."""
    facts = {k: copy.deepcopy(v) for k, v in raw.items() if k in schema}
    net = facts.get("networking", {})
    net.update(NODE)
    ifaces = net.get("interfaces", {})
    for name in [n for n in ifaces if n not in ("eth0", "lo")]:
        del ifaces[name]            # the build machine's helper interfaces
    net.setdefault("primary", "eth0")
    return facts


def merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and k not in ("os", "identity", "ruby", "augeas"):
            out[k] = merge(out.get(k, {}), v)
        else:
            out[k] = copy.deepcopy(v)   # these maps are replaced whole: no Debian key survives
    return out


def at(facts: dict, path: tuple):
    v = facts
    for p in path:
        if not isinstance(v, dict) or p not in v:
            return None
        v = v[p]
    return v


def with_legacy(facts: dict) -> dict:
    """The structured facts plus the legacy facts Facter derives from them."""
    out = {k: v for k, v in facts.items()}
    for name, path in LEGACY.items():
        v = at(facts, path)
        if v is not None:
            out[name] = v
    ifaces = at(facts, ("networking", "interfaces")) or {}
    if ifaces:
        out["interfaces"] = ",".join(sorted(ifaces))
    for iface, data in ifaces.items():
        for prefix, key in LEGACY_PER_INTERFACE.items():
            if key in data:
                out[f"{prefix}_{iface}"] = data[key]
    disks = at(facts, ("disks",)) or {}
    if disks:
        out["blockdevices"] = ",".join(sorted(disks))
    for disk, data in disks.items():
        for key, legacy_key in (("size_bytes", "size"), ("vendor", "vendor"), ("model", "model")):
            if key in data:
                out[f"blockdevice_{disk}_{legacy_key}"] = data[key]
    procs = at(facts, ("processors", "models")) or []
    for i, model in enumerate(procs):
        out[f"processor{i}"] = model
    for name, path in (("memoryfree_mb", ("memory", "system", "available_bytes")),
                       ("memorysize_mb", ("memory", "system", "total_bytes"))):
        v = at(facts, path)
        if isinstance(v, int):
            out[name] = v / 1048576
    return dict(sorted(out.items()))


def build(raw: dict) -> dict:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))["facts"]
    base = neutral_machine(raw, schema)
    sets = {}
    for name, over in OVERRIDES.items():
        facts = merge(base, over)
        for old, new in RENAME_INTERFACES.get(name, {}).items():
            ifaces = facts["networking"]["interfaces"]
            ifaces[new] = ifaces.pop(old)
            ifaces.pop("lo", None)
            facts["networking"]["primary"] = new
        sets[name] = with_legacy(facts)
    return {"source": "facter --json on Debian 12 (facter " + str(raw.get("facterversion", "?")) + ")",
            "sets": sets}


def main() -> int:
    data = build(facter_json(sys.argv[1] if len(sys.argv) > 1 else None))
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {', '.join(data['sets'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
