# @summary Baseline configuration: packages, administrators, time and the message of the day.
#
# @param admins
#   Accounts that get sudo rights.
# @param ntp_servers
#   Time servers, in order of preference.
# @param packages
#   Extra packages every node gets.
class profile::base (
  Array[String[1]] $admins      = [],
  Array[String[1]] $ntp_servers = ['pool.ntp.org'],
  Array[String[1]] $packages    = [],
) {
  $sudo_group = $facts['os']['family'] ? {
    'RedHat' => 'wheel',
    default  => 'sudo',
  }

  package { $packages:
    ensure => installed,
  }

  $admins.each |String $admin| {
    user { $admin:
      ensure     => present,
      groups     => [$sudo_group],
      managehome => true,
      shell      => '/bin/bash',
    }
  }

  file { '/etc/motd':
    ensure  => file,
    owner   => 'root',
    group   => 'root',
    mode    => '0644',
    content => epp('profile/motd.epp', {
      'role'    => profile::role_name(),
      'servers' => $ntp_severs,
    }),
  }
}
