# @summary An nginx web server with one virtual host per entry of `vhosts`.
#
# @param port
#   The port nginx listens on.
# @param vhosts
#   Virtual hosts by server name.
class profile::webserver (
  Stdlib::Port $port = 80,
  Hash[String[1], Profile::Vhost] $vhosts = {},
) {
  package { 'nginx':
    ensure => installed,
  }

  service { 'nginx':
    ensure    => running,
    enable    => true,
    subscribe => Package['nginx'],
  }

  $vhosts.each |String $server_name, Profile::Vhost $vhost| {
    file { "/etc/nginx/sites-enabled/${server_name}.conf":
      ensure  => file,
      content => "server {\n  listen ${port};\n  server_name ${server_name};\n  root ${vhost['docroot']};\n}\n",
      notify  => Service['nginx'],
    }
  }
}
