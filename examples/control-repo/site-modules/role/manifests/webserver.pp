# @summary A web server: the baseline plus the web server profile.
class role::webserver {
  include profile::base
  include profile::webserver
}
