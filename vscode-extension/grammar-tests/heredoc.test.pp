# SYNTAX TEST "source.puppet" "lexical spec: heredoc @(TAG:syntax/flags), its text, interpolation and end marker"
$plain = @(END)
#        ^^ meta.heredoc.puppet punctuation.definition.heredoc.begin.puppet
#          ^^^ meta.heredoc.puppet entity.name.tag.heredoc.puppet
#             ^ meta.heredoc.puppet punctuation.definition.heredoc.end.puppet
  no $interpolation here, no \t escapes, # no comment
# ^^^ string.unquoted.heredoc.puppet
#    ^^^^^^^^^^^^^^ string.unquoted.heredoc.puppet - variable
#                            ^^ string.unquoted.heredoc.puppet - constant.character.escape
#                                        ^^^^^^^^^^^^ string.unquoted.heredoc.puppet - comment
  END
# ^^^ meta.heredoc.puppet entity.name.tag.heredoc.puppet - string
$after = 1
# <------ variable.other.readwrite.puppet - meta.heredoc
$quoted = @("END OF TEXT":json/tn$)
#           ^ meta.heredoc.puppet punctuation.definition.tag.begin.puppet
#            ^^^^^^^^^^^ meta.heredoc.puppet entity.name.tag.heredoc.puppet
#                       ^ meta.heredoc.puppet punctuation.definition.tag.end.puppet
#                        ^ meta.heredoc.puppet punctuation.separator.heredoc-syntax.puppet
#                         ^^^^ meta.heredoc.puppet entity.other.attribute-name.heredoc-syntax.puppet
#                             ^ meta.heredoc.puppet punctuation.separator.heredoc-flags.puppet
#                              ^^^ meta.heredoc.puppet constant.character.escape.heredoc-flags.puppet
  {"name": "$name", "port": ${$port + 1}, "tab": "\t", "dollar": "\$"}
# ^^^^^^^^^^ string.interpolated.heredoc.puppet
#           ^^^^^ string.interpolated.heredoc.puppet variable.other.readwrite.puppet
#                           ^^ string.interpolated.heredoc.puppet meta.embedded.line.puppet punctuation.section.embedded.begin.puppet
#                             ^^^^^ meta.embedded.line.puppet variable.other.readwrite.puppet
#                                   ^ meta.embedded.line.puppet keyword.operator.arithmetic.puppet
#                                                 ^^ string.interpolated.heredoc.puppet constant.character.escape.puppet
#                                                                 ^^ string.interpolated.heredoc.puppet constant.character.escape.puppet
  | - END OF TEXT
# ^ meta.heredoc.puppet punctuation.definition.heredoc.margin.puppet
#   ^ meta.heredoc.puppet keyword.operator.heredoc.trim.puppet
#     ^^^^^^^^^^^ meta.heredoc.puppet entity.name.tag.heredoc.puppet
notify { 'x': message => @(EOT/L).split("\n"), }
#                        ^^ meta.heredoc.puppet punctuation.definition.heredoc.begin.puppet
#                          ^^^ entity.name.tag.heredoc.puppet
#                              ^ constant.character.escape.heredoc-flags.puppet
#                                ^ meta.heredoc.puppet punctuation.accessor.puppet
#                                 ^^^^^ meta.heredoc.puppet entity.name.function.method.puppet
#                                       ^^^^ meta.heredoc.puppet string.quoted.double.interpolated.puppet
#                                            ^ meta.heredoc.puppet punctuation.separator.comma.puppet
  a \
#   ^ string.unquoted.heredoc.puppet constant.character.escape.puppet
  joined line, END is not the end
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.unquoted.heredoc.puppet - entity.name.tag
  |EOT
# ^ punctuation.definition.heredoc.margin.puppet
#  ^^^ entity.name.tag.heredoc.puppet
$x = @(END:yaml)
#          ^^^^ entity.other.attribute-name.heredoc-syntax.puppet
  key: "${not} interpolated"
#       ^^^^^^ string.unquoted.heredoc.puppet - meta.embedded
  -END
# ^ keyword.operator.heredoc.trim.puppet
#  ^^^ entity.name.tag.heredoc.puppet
