# demo.pp: the sample manifest that the editor end-to-end tests open
class demo (
  Integer $port = 8080,
  String $owner = 'root',
  String $owner = 'nobody',
) {
  $greeting = "hello from port ${port}"
  notify { 'greeting':
    message => $greeting,
  }
}
