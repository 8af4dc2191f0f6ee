# @summary The name of the node's role class, from its trusted certificate name.
# @return [String] the role, e.g. `webserver` for `web01.example.com`.
function profile::role_name() >> String {
  $trusted['certname'] ? {
    /^web/  => 'webserver',
    /^db/   => 'database',
    default => 'base',
  }
}
