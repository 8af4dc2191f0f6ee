# @summary The baseline every node gets.
class role::base {
  include profile::base
}
