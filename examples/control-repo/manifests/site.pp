# Node classification: each node gets exactly one role.
node /^web\d+\./ {
  include role::webserver
}

node /^db\d+\./ {
  include role::database
}

node default {
  include role::base
}
