# SYNTAX TEST "source.puppet" "lexical spec: regular expressions (and division), operators and punctuation"
if $os =~ /^(Debian|Ubuntu)$/ { }
#      ^^ keyword.operator.match.puppet
#         ^ string.regexp.puppet punctuation.definition.string.begin.puppet
#          ^^^^^^^^^^^^^^^^^ string.regexp.puppet
#                           ^ string.regexp.puppet punctuation.definition.string.end.puppet
if $path !~ /\/tmp\/.*/ { }
#        ^^ keyword.operator.match.puppet
#            ^^ string.regexp.puppet constant.character.escape.regexp.puppet
$half = $total / 2 / $n
#              ^ keyword.operator.arithmetic.puppet - string.regexp
#                ^ constant.numeric.integer.decimal.puppet - string.regexp
#                  ^ keyword.operator.arithmetic.puppet - string.regexp
$q = (10 + 2) / 4 + $list[1] / 3 + 1.5/2 + true / 1
#           ^^^ - string.regexp
#                          ^^^ - string.regexp
#                                  ^^^^^ - string.regexp
#                                          ^^^^^^^^ - string.regexp
case $host { /^web\d+/: { } default: { } }
#            ^^^^^^^^^ string.regexp.puppet
#                           ^^^^^^^ constant.language.default.puppet
$sel = $x ? { /a/ => 1, default => 2 }
#         ^ keyword.operator.selector.puppet
#             ^^^ string.regexp.puppet
#                       ^^^^^^^ constant.language.default.puppet - entity.other.attribute-name
node /^db\d+\.example\.com$/, 'www.example.com', default { }
# <---- storage.type.node.puppet
#    ^^^^^^^^^^^^^^^^^^^^^^^ string.regexp.puppet
$ops = [1 == 2, 1 != 2, 1 <= 2, 1 >= 2, 1 < 2, 1 > 2, !$b, 1 % 2, 2 * 3, 5 - 1]
#         ^^ keyword.operator.comparison.puppet
#                 ^^ keyword.operator.comparison.puppet
#                         ^^ keyword.operator.comparison.puppet
#                                 ^^ keyword.operator.comparison.puppet
#                         ^ keyword.operator.comparison.puppet
#                                 ^ keyword.operator.comparison.puppet
#                                                     ^ keyword.operator.logical.puppet
#                                                            ^ keyword.operator.arithmetic.puppet
#                                                                   ^ keyword.operator.arithmetic.puppet
#                                                                          ^ keyword.operator.arithmetic.puppet
$shift = [$a << 1, $b >> 2, $x = ~$y]
#            ^^ keyword.operator.shift.puppet
#                     ^^ keyword.operator.shift.puppet
#                              ^ keyword.operator.assignment.puppet
#                                ^ keyword.operator.tilde.puppet
Package['a'] -> Service['b'] ~> Exec['c'] <- File['d'] <~ Mount['e']
#            ^^ keyword.operator.relationship.puppet
#                            ^^ keyword.operator.relationship.puppet
#                                         ^^ keyword.operator.relationship.puppet
#                                                      ^^ keyword.operator.relationship.puppet
User <| tag == 'admin' |> Sshkey <<| |>>
#    ^^ keyword.operator.collector.puppet
#                      ^^ keyword.operator.collector.puppet
#                                ^^^ keyword.operator.collector.exported.puppet
#                                    ^^^ keyword.operator.collector.exported.puppet
file { '/x': mode => '0644', * => $attrs, }
#                 ^^ punctuation.separator.key-value.puppet
#                            ^ entity.other.attribute-name.puppet
File <| |> { owner +> 'root' }
#                  ^^ punctuation.separator.key-value.puppet
@user { 'v': } @@host { 'e': }
# <- storage.modifier.virtual.puppet
#^^^^ entity.name.type.resource.puppet
#              ^^ storage.modifier.exported.puppet
#                ^^^^ entity.name.type.resource.puppet
$old += 1 $old -= 1
#    ^^ keyword.operator.assignment.compound.puppet
#              ^^ keyword.operator.assignment.compound.puppet
$p = f(1, [2], {a => 3}).g; $l.each |$k, $v| { $a::b }
#     ^ punctuation.section.parens.begin.puppet
#       ^ punctuation.separator.comma.puppet
#         ^ punctuation.section.brackets.begin.puppet
#           ^ punctuation.section.brackets.end.puppet
#              ^ punctuation.section.block.begin.puppet
#                     ^ punctuation.section.block.end.puppet
#                      ^ punctuation.section.parens.end.puppet
#                       ^ punctuation.accessor.puppet
#                         ^ punctuation.terminator.statement.puppet
#                                   ^ punctuation.separator.parameters.puppet
#                                                ^^ variable.other.readwrite.puppet
notify { 'title': }
#               ^ punctuation.separator.colon.puppet
$illegal = 1 § 2 & 3
#            ^ invalid.illegal.character.puppet
#                ^ invalid.illegal.character.puppet
