# SYNTAX TEST "source.puppet" "lexical spec: identifiers (NAME, REF), variables, keywords, reserved words and types"
class apache::vhost (
# <----- storage.type.class.puppet
#     ^^^^^^^^^^^^^ entity.name.type.class.puppet
  Variant[String, Integer[0, 10]] $port = 80,
# ^^^^^^^ support.type.puppet
#         ^^^^^^ support.type.puppet
#                 ^^^^^^^ support.type.puppet
#                                 ^^^^^ variable.other.readwrite.puppet
  Optional[Apache::Port] $other = undef,
# ^^^^^^^^ support.type.puppet
#          ^^^^^^^^^^^^ entity.name.type.puppet
#                                 ^^^^^ constant.language.undef.puppet
) inherits ::apache::params {
# ^^^^^^^^ storage.modifier.inherits.puppet
#          ^^^^^^^^^^^^^^^^ entity.other.inherited-class.puppet
  include ::apache
# ^^^^^^^ support.function.puppet
#         ^^^^^^^^ string.unquoted.bareword.puppet
  contain apache::mod::ssl
# ^^^^^^^ support.function.puppet
#         ^^^^^^^^^^^^^^^^ string.unquoted.bareword.puppet
  $local = $::osfamily ? { 'RedHat' => $apache::params::x, default => $0 }
# ^^^^^^ variable.other.readwrite.puppet
# ^ punctuation.definition.variable.puppet
#          ^^^^^^^^^^^ variable.other.readwrite.global.puppet
#                                      ^^^^^^^^^^^^^^^^^^ variable.other.readwrite.puppet
#                                                                     ^^ variable.language.match.puppet
  $x = [$facts['fqdn'], $trusted['certname'], $title, $name, $server_facts]
#       ^^^^^^ variable.language.puppet
#                       ^^^^^^^^ variable.language.puppet
#                                             ^^^^^^ variable.language.puppet
#                                                     ^^^^^ variable.language.puppet
#                                                            ^^^^^^^^^^^^^ variable.language.puppet
  service { 'httpd': ensure => running, enable => true, unless => false }
# ^^^^^^^ entity.name.type.resource.puppet
#                    ^^^^^^ entity.other.attribute-name.puppet
#                              ^^^^^^^ string.unquoted.bareword.puppet
#                                                 ^^^^ constant.language.boolean.puppet
#                                                       ^^^^^^ entity.other.attribute-name.puppet - keyword
#                                                                 ^^^^^ constant.language.boolean.puppet
  apache::vhost { 'site': require => [Package['httpd'], Class['apache'], ::File['/x']] }
# ^^^^^^^^^^^^^ entity.name.type.resource.puppet
#                         ^^^^^^^ entity.other.attribute-name.puppet
#                                     ^^^^^^^ entity.name.type.resource-reference.puppet
#                                                       ^^^^^ support.type.puppet
#                                                                        ^^^^^^ entity.name.type.resource-reference.puppet
  File { owner => 'root' }
# ^^^^ entity.name.type.puppet
}
define apache::site ($docroot) { }
# <------ storage.type.define.puppet
#      ^^^^^^^^^^^^ entity.name.type.define.puppet
function mymod::double(Integer $x) >> Integer { $x * 2 }
# <-------- storage.type.function.puppet
#        ^^^^^^^^^^^^^ entity.name.function.puppet
#                                     ^^^^^^^ support.type.puppet
type Mymod::Port = Integer[1, 65535]
# <---- storage.type.type-alias.puppet
#    ^^^^^^^^^^^ entity.name.type.alias.puppet
#                ^ keyword.operator.assignment.puppet
node 'web01.example.com' { }
# <---- storage.type.node.puppet
#    ^^^^^^^^^^^^^^^^^^^ string.quoted.single.puppet
if $a and $b or !($c in $d) { } elsif $e { } else { }
# <-- keyword.control.conditional.puppet
#     ^^^ keyword.operator.logical.puppet
#            ^^ keyword.operator.logical.puppet
#                    ^^ keyword.operator.logical.puppet
#                               ^^^^^ keyword.control.conditional.puppet
#                                            ^^^^ keyword.control.conditional.puppet
unless $f { } case $g { 'a', 'b': { } default: { } }
# <------ keyword.control.conditional.puppet
#             ^^^^ keyword.control.conditional.puppet
#                                     ^^^^^^^ constant.language.default.puppet
class { 'apache': } $private = private $attr = attr
# <----- storage.type.class.puppet
#                   ^^^^^^^^ variable.other.readwrite.puppet - invalid
#                              ^^^^^^^ invalid.illegal.reserved-word.puppet
#                                              ^^^^ invalid.illegal.reserved-word.puppet
$types = [Any, Array, Boolean, CatalogEntry, Collection, Data, Default, Enum, Float, Hash, Numeric, Object]
#         ^^^ support.type.puppet
#              ^^^^^ support.type.puppet
#                     ^^^^^^^ support.type.puppet
#                              ^^^^^^^^^^^^ support.type.puppet
#                                            ^^^^^^^^^^ support.type.puppet
#                                                        ^^^^ support.type.puppet
#                                                              ^^^^^^^ support.type.puppet
#                                                                       ^^^^ support.type.puppet
#                                                                             ^^^^^ support.type.puppet
#                                                                                    ^^^^ support.type.puppet
#                                                                                          ^^^^^^^ support.type.puppet
#                                                                                                   ^^^^^^ support.type.puppet
$more = [Pattern, Resource, Runtime, Scalar, Struct, Tuple, Type, Undef, Sensitive, Callable, Regexp, SemVer]
#        ^^^^^^^ support.type.puppet
#                 ^^^^^^^^ support.type.puppet
#                           ^^^^^^^ support.type.puppet
#                                    ^^^^^^ support.type.puppet
#                                            ^^^^^^ support.type.puppet
#                                                    ^^^^^ support.type.puppet
#                                                           ^^^^ support.type.puppet
#                                                                 ^^^^^ support.type.puppet
#                                                                        ^^^^^^^^^ support.type.puppet
#                                                                                   ^^^^^^^^ support.type.puppet
#                                                                                             ^^^^^^ support.type.puppet
#                                                                                                     ^^^^^^ support.type.puppet
$call = lookup('key', Integer, 'first', 0) + mymod::double(2) + $x.length
#       ^^^^^^ support.function.puppet
#                                            ^^^^^^^^^^^^^ entity.name.function.call.puppet
#                                                                  ^^^^^^ entity.name.function.method.puppet
$words = [classy, iffy, undefined, trueish, node_name, Classic]
#         ^^^^^^ string.unquoted.bareword.puppet - storage
#                 ^^^^ string.unquoted.bareword.puppet - keyword
#                       ^^^^^^^^^ string.unquoted.bareword.puppet - constant
#                                  ^^^^^^^ string.unquoted.bareword.puppet - constant
#                                           ^^^^^^^^^ string.unquoted.bareword.puppet - storage
#                                                      ^^^^^^^ entity.name.type.puppet - support
