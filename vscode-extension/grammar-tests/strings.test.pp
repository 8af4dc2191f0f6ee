# SYNTAX TEST "source.puppet" "lexical spec: single and double quoted strings, escapes, interpolation"
$s = 'it\'s a \\ back\slash'
#    ^ string.quoted.single.puppet punctuation.definition.string.begin.puppet
#     ^^ string.quoted.single.puppet
#       ^^ string.quoted.single.puppet constant.character.escape.puppet
#             ^^ string.quoted.single.puppet constant.character.escape.puppet
#                    ^^ string.quoted.single.puppet - constant.character.escape
#                          ^ string.quoted.single.puppet punctuation.definition.string.end.puppet
$m = 'spans
#    ^^^^^^ string.quoted.single.puppet
two # lines'
# <------------ string.quoted.single.puppet - comment
$d = "tab\t nl\n cr\r sp\s q\" bs\\ d\$ u\u00e9 u\u{1F600} other\q"
#    ^ string.quoted.double.interpolated.puppet punctuation.definition.string.begin.puppet
#        ^^ constant.character.escape.puppet
#             ^^ constant.character.escape.puppet
#                  ^^ constant.character.escape.puppet
#                       ^^ constant.character.escape.puppet
#                           ^^ constant.character.escape.puppet
#                                ^^ constant.character.escape.puppet
#                                    ^^ constant.character.escape.puppet
#                                        ^^^^^^ constant.character.escape.puppet
#                                                ^^^^^^^^^ constant.character.escape.puppet
#                                                               ^^ string.quoted.double.interpolated.puppet - constant.character.escape
#                                                                 ^ string.quoted.double.interpolated.puppet punctuation.definition.string.end.puppet
$i = "Hello $name and $name2!"
#     ^^^^^^ string.quoted.double.interpolated.puppet - variable
#           ^^^^^ string.quoted.double.interpolated.puppet variable.other.readwrite.puppet
#                ^^^^^ string.quoted.double.interpolated.puppet - variable
#                     ^^^^^^ string.quoted.double.interpolated.puppet variable.other.readwrite.puppet
#                           ^ string.quoted.double.interpolated.puppet - variable
$j = "top $::fqdn, qualified $apache::port, cost $ 5, price $5"
#         ^^^^^^^ string.quoted.double.interpolated.puppet variable.other.readwrite.puppet
#                            ^^^^^^^^^^^^^ string.quoted.double.interpolated.puppet variable.other.readwrite.puppet
#                                                ^^^ string.quoted.double.interpolated.puppet - variable
#                                                           ^^ string.quoted.double.interpolated.puppet variable.other.readwrite.puppet
$k = "Hello ${name}, ${1+1} and ${facts['os']['family']} and ${$x}"
#           ^^ string.quoted.double.interpolated.puppet meta.embedded.line.puppet punctuation.section.embedded.begin.puppet
#             ^^^^ meta.embedded.line.puppet source.puppet variable.other.readwrite.puppet
#                 ^ meta.embedded.line.puppet punctuation.section.embedded.end.puppet
#                  ^ string.quoted.double.interpolated.puppet - meta.embedded
#                        ^ meta.embedded.line.puppet source.puppet constant.numeric.integer.decimal.puppet
#                       ^ meta.embedded.line.puppet source.puppet keyword.operator.arithmetic.puppet
#                                 ^^^^^ meta.embedded.line.puppet variable.other.readwrite.puppet
#                                       ^^^^ meta.embedded.line.puppet string.quoted.single.puppet
#                                                              ^^ meta.embedded.line.puppet variable.other.readwrite.puppet
$n = "outer ${ "inner ${x}" } ${ { 'a' => 1 }['a'] } end"
#              ^^^^^^ meta.embedded.line.puppet string.quoted.double.interpolated.puppet
#                       ^ meta.embedded.line.puppet meta.embedded.line.puppet variable.other.readwrite.puppet
#                                             ^^^ meta.embedded.line.puppet string.quoted.single.puppet
#                                                   ^^^^ string.quoted.double.interpolated.puppet - meta.embedded
$ml = "first line
#      ^^^^^^^^^^ string.quoted.double.interpolated.puppet
second line with $var"
# <----------------- string.quoted.double.interpolated.puppet
#                ^^^^ string.quoted.double.interpolated.puppet variable.other.readwrite.puppet
