"""The attributes of Puppet's built-in resource types (for parameter access and checks).

Taken from the types that ship with Puppet 7 (``puppet/type/*.rb``); types not listed here are
treated permissively (any attribute is accepted).
"""
from __future__ import annotations

METAPARAMS = frozenset("alias audit before loglevel noop notify require schedule stage subscribe tag".split())

_ATTRS = {
    "notify": "message name withpath",
    "file": ("backup force ignore links max_files path purge recurse recurselimit replace "
             "show_diff sourceselect staging_location validate_cmd validate_replacement checksum "
             "checksum_value content ctime data_sync ensure group mode mtime owner selrange "
             "selrole seltype seluser selinux_ignore_defaults source source_permissions target "
             "type"),
    "exec": ("command creates cwd environment group logoutput name onlyif path provider refresh "
             "refreshonly returns timeout tries try_sleep umask unless user"),
    "package": ("adminfile allow_virtual allowcdrom category command configfiles description "
                "enable_only ensure flavor install_only install_options instance mark name "
                "package_settings platform provider reinstall_on_refresh responsefile root source "
                "status uninstall_options vendor"),
    "service": ("binary control enable ensure flags hasrestart hasstatus logonaccount "
                "logonpassword manifest name path pattern provider restart start status stop "
                "timeout"),
    "user": ("allowdupe attribute_membership attributes auth_membership auths comment ensure "
             "expiry forcelocal gid groups home ia_load_module iterations key_membership keys "
             "loginclass managehome membership name password password_max_age password_min_age "
             "password_warn_days profile_membership profiles project provider purge_ssh_keys "
             "role_membership roles salt shell system uid"),
    "group": ("allowdupe attribute_membership attributes auth_membership ensure forcelocal gid "
              "ia_load_module members name provider system"),
    "filebucket": "name path port server",
    "resources": "name purge unless_system_user unless_uid",
    "schedule": "name period periodmatch range repeat weekday",
    "tidy": "age backup matches max_files path recurse rmdirs size type",
    "stage": "name",
    "whit": "name",
    "component": "name",
}

BUILTIN_ATTRIBUTES: dict = {k: frozenset(v.split()) for k, v in _ATTRS.items()}


def has_attribute(type_name: str, attr: str) -> bool | None:
    """True/False for known built-in types, None when the type is not described here."""
    attrs = BUILTIN_ATTRIBUTES.get(type_name.lower())
    if attrs is None:
        return None
    return attr in attrs or attr in METAPARAMS
