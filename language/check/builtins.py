"""What Puppet 7 provides without any module: its function names (with a summary and signature
for those the evaluator's library does not declare), its built-in variables, the facts Facter
ships, and the return types of built-in functions that the static checker uses for inference.

Data only.  The function list is Puppet 7.23's ``lib/puppet/functions`` plus
``lib/puppet/parser/functions``; a name missing here and from the evaluator's library would be
reported as unknown, so this list errs on the side of completeness.
"""
from __future__ import annotations

import re

# Every function Puppet 7 ships (both function APIs).
CORE_FUNCTIONS = frozenset("""
abs alert all annotate any assert_type binary_file break call camelcase capitalize ceiling chomp
chop compare contain convert_to create_resources crit debug defined dig digest downcase each emerg
empty epp err eyaml_lookup_key fail file filter find_file find_template flatten floor fqdn_rand
generate get getvar group_by hiera hiera_array hiera_hash hiera_include hocon_data import include
index info inline_epp inline_template join json_data keys length lest lookup lstrip map match max
md5 min module_directory new next notice partition realize reduce regsubst require return
reverse_each round rstrip scanf sha1 sha256 shellquote size slice sort split sprintf step strftime
strip tag tagged template then tree_each type unique unwrap upcase values versioncmp warning with
yaml_data
""".split())

# Summary and signature of the functions the evaluator's library does not declare (it declares
# the ones it can run); hover, completion and signature help read these.
EXTRA_FUNCTION_DOCS: dict[str, tuple[str, tuple[str, ...]]] = {
    "include": ("Declares classes (each at most once), adding them to the catalog.",
                ("include(Any *names)",)),
    "contain": (("Declares classes and contains them in the current class, so relationships "
                 "with the current class also apply to them."), ("contain(Any *names)",)),
    "require": ("Declares classes and makes the current class or define depend on them.",
                ("require(Any *names)",)),
    "realize": ("Makes virtual resources real (adds them to the catalog).",
                ("realize(Any *references)",)),
    "tag": ("Adds tags to the containing class or defined type.", ("tag(Any *tags)",)),
    "tagged": ("Whether the containing class or defined type has all the given tags.",
               ("tagged(Any *tags)",)),
    "defined": ("Whether the given classes, resource types, resources or variables are defined.",
                ("defined(Variant[String, Type[CatalogEntry], Type[Type[CatalogEntry]]] *values)",)),
    "inline_epp": ("Evaluates an EPP template given as a string, with optional parameters.",
                   ("inline_epp(String template, Hash[Pattern[/^\\w+$/], Any] parameters?)",)),
    "strftime": ("Formats a Timestamp or Timespan as a string.",
                 ("strftime(Variant[Timestamp, Timespan] time, String format, String timezone?)",)),
    "digest": ("The digest of a string with the configured algorithm.", ("digest(String value)",)),
    "annotate": ("Manages annotations on objects.", ("annotate(Type type, Any value)",)),
    "eyaml_lookup_key": ("Hiera backend: eyaml lookup_key function.", ()),
    "hocon_data": ("Hiera backend: data from a HOCON file.", ()),
    "json_data": ("Hiera backend: data from a JSON file.", ()),
    "yaml_data": ("Hiera backend: data from a YAML file.", ()),
}

# Return types of built-in functions for static inference, as type expressions.  "=arg" means
# "String for a String argument, Array[String] for an Array" (the string functions map arrays).
RETURN_TYPES: dict[str, str] = {
    "sprintf": "String", "join": "String", "md5": "String", "sha1": "String", "sha256": "String",
    "shellquote": "String", "inline_template": "String", "template": "String", "epp": "String",
    "inline_epp": "String", "file": "String", "strftime": "String", "digest": "String",
    "generate": "String",
    "upcase": "=arg", "downcase": "=arg", "capitalize": "=arg", "camelcase": "=arg",
    "strip": "=arg", "lstrip": "=arg", "rstrip": "=arg", "chomp": "=arg", "chop": "=arg",
    "regsubst": "=arg",
    "size": "Integer[0]", "length": "Integer[0]", "versioncmp": "Integer[-1, 1]",
    "compare": "Integer[-1, 1]", "fqdn_rand": "Integer[0]", "index": "Optional[Integer[0]]",
    "empty": "Boolean", "defined": "Boolean", "tagged": "Boolean", "all": "Boolean",
    "any": "Boolean",
    "keys": "Array", "values": "Array", "split": "Array[String]", "map": "Array",
    "flatten": "Array", "sort": "Array", "partition": "Array[Array, 2, 2]", "group_by": "Hash",
    "match": "Optional[Array[Optional[String]]]", "reverse_each": "Iterator", "step": "Iterator",
    "abs": "Numeric", "ceiling": "Integer", "floor": "Integer", "round": "Integer",
    "max": "Any", "min": "Any", "type": "Type",
    "notice": "Undef", "info": "Undef", "warning": "Undef", "debug": "Undef", "err": "Undef",
    "alert": "Undef", "crit": "Undef", "emerg": "Undef", "include": "Undef",
    "contain": "Undef", "require": "Undef", "realize": "Undef", "tag": "Undef",
}

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
