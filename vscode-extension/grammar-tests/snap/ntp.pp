# @summary Manages NTP: a realistic manifest exercising most of the language.
#
# @param servers  The upstream servers.
# @param restrict Access restrictions written to ntp.conf.
class ntp (
  Array[Stdlib::Host] $servers      = ['0.pool.ntp.org', '1.pool.ntp.org'],
  Optional[String[1]] $driftfile    = undef,
  Enum['running', 'stopped'] $state = 'running',
  Boolean             $iburst       = true,
  Hash[String, Variant[String, Integer]] $options = {},
) inherits ntp::params {
  $package_name = $facts['os']['family'] ? {
    /(?i:debian|ubuntu)/ => 'ntp',
    'RedHat'             => 'chrony',
    default              => $ntp::params::package_name,
  }
  $burst = $iburst ? { true => ' iburst', default => '' }
  $lines = $servers.map |Integer $index, String $server| {
    "server ${server}${burst} # ${index + 1} of ${servers.length}"
  }

  case $facts['os']['release']['major'] {
    '7', '8': { $service = 'ntpd' }
    /^9/:     { $service = 'chronyd' }
    default:  { fail("unsupported release ${facts['os']['release']['full']}") }
  }

  package { $package_name: ensure => installed }
  -> file { '/etc/ntp.conf':
    ensure  => file,
    mode    => '0644',
    owner   => 0,
    content => @("CONF"/L)
      # managed by Puppet, do not edit
      driftfile ${pick($driftfile, '/var/lib/ntp/drift')}
      ${lines.join("\n")}
      | CONF
  }
  ~> service { $service:
    ensure => $state,
    enable => $state == 'running',
  }

  @@nagios_service { "check_ntp_${facts['networking']['fqdn']}":
    check_command => 'check_ntp_time!0.5!1',
    tag           => ['ntp', $trusted['certname']],
  }
  Nagios_service <<| tag == 'ntp' |>>
  User <| groups == 'ntp' |> { shell => '/usr/sbin/nologin' }

  $options.each |$key, $value| {
    ntp::option { $key: value => $value }
  }
  $timeout = $options['timeout'] =~ Integer ? { true => $options['timeout'] / 2, default => 0x1E }
}

define ntp::option (Variant[String, Integer] $value) {
  file_line { "ntp-${title}":
    path => '/etc/ntp.conf',
    line => "${title} ${value}",
  }
}

function ntp::servers_for(String $zone, Integer[1] $count = 4) >> Array[String] {
  Integer[0, $count - 1].map |$i| { "${i}.${zone}.pool.ntp.org" }
}

type Ntp::Restrict = Struct[{ address => String, Optional[mask] => String, flags => Array[String] }]

node /^time\d+\.example\.com$/, 'ntp.example.com' {
  class { 'ntp': servers => ntp::servers_for('europe', 3) }
}
