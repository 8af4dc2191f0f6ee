# A virtual host of profile::webserver.
type Profile::Vhost = Struct[{
  docroot           => Stdlib::Absolutepath,
  Optional[aliases] => Array[String[1]],
}]
