# @summary A PostgreSQL server.
#
# @param version
#   The major version to install.
class profile::database (
  Integer[12, 17] $version = 15,
) {
  package { "postgresql-${version}":
    ensure => installed,
  }

  service { 'postgresql':
    ensure  => running,
    enable  => true,
    require => Package["postgresql-${version}"],
  }
}
