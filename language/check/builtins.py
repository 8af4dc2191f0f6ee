"""What Puppet 7 provides without any module besides its functions and resource types (those
are in ``language/knowledge/``): its built-in variables, and which names are facts (Facter's own
come from ``language/knowledge/facts.py``).

Data only.
"""
from __future__ import annotations

import re

from ..knowledge import facts

# Variables every scope can read without declaring them.
BUILTIN_VARIABLES: dict[str, str] = {
    "facts": "The facts of the node (Hash[String, Data]).",
    "trusted": "Facts the agent cannot fake: certname, domain, hostname, extensions, authenticated.",
    "server_facts": "Facts about the Puppet server compiling the catalog.",
    "environment": "The name of the node's environment.",
    "settings": "Puppet's settings ($settings::name).",
    "title": "The title of the current class or defined resource.",
    "name": "The name of the current class or defined resource (usually its title).",
    "module_name": "The module the current code belongs to.",
    "caller_module_name": "The module of the code that declared the current class or resource.",
    "clientcert": "The node's certificate name.",
    "clientversion": "The agent's Puppet version.",
    "clientnoop": "Whether the agent runs in noop mode.",
    "agent_specified_environment": "The environment the agent asked for.",
    "servername": "The Puppet server's fully qualified domain name.",
    "serverip": "The Puppet server's IP address.",
    "serverversion": "The Puppet server's version.",
}

# Facts that are not in Facter's schema (language/knowledge/facts.json) but that nearly every
# installation has: ``puppetversion`` (Puppet adds it), those of puppetlabs-stdlib and
# puppetlabs-puppet_agent that code bases lean on (root_home, package_provider,
# service_provider, puppet_*), Puppet Enterprise's (pe_*, is_pe), and two names Facter 3 had.
MODULE_FACTS = frozenset("""
puppetversion root_home package_provider service_provider puppet_vardir puppet_confdir
puppet_environmentpath puppet_server pe_version pe_major_version pe_minor_version pe_patch_version
is_pe mtu processor
""".split())

# Every fact name Puppet also sets as a top-scope variable, so ``$osfamily`` in a class is a
# fact, not an undefined variable: Facter's (names with a placeholder in its schema match by
# pattern, see is_core_fact) and the module facts above.
CORE_FACTS = frozenset(f.name for f in facts.core_facts() if f.pattern is None) | MODULE_FACTS

# Flat names of Facter 2 and 3 that the schema of Facter 4 no longer lists (per-device and
# per-platform families: ``ec2_ami_id``, ``lsbdistid``, ``memorysize_mb``, ...).
_FACT_PATTERNS = re.compile(
    r"\A(?:(?:ipaddress6?|macaddress|netmask6?|network6?|mtu|dhcp_servers|scope6)_\w+|"
    r"processor\d+|blockdevice_\w+|sp_\w+|ec2_\w+|lsb\w+|ssh\w+|zpool_\w+|zfs_\w+|"
    r"memory\w*|swap\w*|uptime\w*|selinux\w*|bios_\w+|board\w+|macosx_\w+|xen\w*)\Z")


def is_core_fact(name: str) -> bool:
    """Is ``name`` a fact that Facter itself provides (and so a top-scope variable)?"""
    return name in CORE_FACTS or facts.fact(name) is not None or bool(_FACT_PATTERNS.match(name))
