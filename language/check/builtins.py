"""What Puppet 7 provides without any module besides its functions and resource types (those
are in ``language/knowledge/``): its built-in variables and the facts Facter ships.

Data only.
"""
from __future__ import annotations

import re

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

# Facts that Facter ships; Puppet also sets each one as a top-scope variable, so ``$osfamily``
# in a class is a fact, not an undefined variable.
CORE_FACTS = frozenset("""
aio_agent_version architecture augeas augeasversion bios_release_date bios_vendor bios_version
blockdevices boardassettag boardmanufacturer boardproductname boardserialnumber chassisassettag
chassistype cloud dhcp_servers disks dmi domain ec2_metadata ec2_userdata facterversion filesystems
fips_enabled fqdn gce gid hardwareisa hardwaremodel hostname hypervisors id identity interfaces
ipaddress ipaddress6 is_virtual kernel kernelmajversion kernelrelease kernelversion ldom
load_averages lsbdistcodename lsbdistdescription lsbdistid lsbdistrelease lsbmajdistrelease
lsbminordistrelease lsbrelease macaddress macosx_buildversion macosx_productname
macosx_productversion macosx_productversion_major macosx_productversion_minor manufacturer memory
memoryfree memoryfree_mb memorysize memorysize_mb mountpoints mtu netmask netmask6 network network6
networking operatingsystem operatingsystemmajrelease operatingsystemrelease os osfamily partitions
path physicalprocessorcount processor processorcount processors productname puppetversion
rubyplatform rubysitedir rubyversion ruby scope6 selinux selinux_config_mode
selinux_config_policy selinux_current_mode selinux_enforced selinux_policyversion serialnumber
solaris_zones ssh sshdsakey sshecdsakey sshed25519key sshfp_dsa sshfp_ecdsa sshfp_ed25519
sshfp_rsa sshrsakey swapencrypted swapfree swapfree_mb swapsize swapsize_mb system32
system_profiler system_uptime timezone uptime uptime_days uptime_hours uptime_seconds uuid
virtual xendomains zfs_featurenumbers zfs_version zonename zones zpool_featurenumbers
zpool_version
root_home package_provider service_provider puppet_vardir puppet_confdir puppet_environmentpath
puppet_server pe_version pe_major_version pe_minor_version pe_patch_version is_pe
""".split())

# Per-interface and per-device facts (``ipaddress_eth0``, ``processor3``, ``sp_*`` ...).
_FACT_PATTERNS = re.compile(
    r"\A(?:(?:ipaddress6?|macaddress|netmask6?|network6?|mtu|dhcp_servers|scope6)_\w+|"
    r"processor\d+|blockdevice_\w+|sp_\w+|ec2_\w+|lsb\w+|ssh\w+|zpool_\w+|zfs_\w+|"
    r"memory\w*|swap\w*|uptime\w*|selinux\w*|bios_\w+|board\w+|macosx_\w+|xen\w*)\Z")


def is_core_fact(name: str) -> bool:
    """Is ``name`` a fact that Facter itself provides (and so a top-scope variable)?"""
    return name in CORE_FACTS or bool(_FACT_PATTERNS.match(name))
