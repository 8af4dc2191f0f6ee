# SYNTAX TEST "source.puppet" "lexical spec: comments, whitespace and numbers in every radix"
# a single line comment
# <----------------------- comment.line.number-sign.puppet
$a = 1 # trailing comment
#      ^^^^^^^^^^^^^^^^^^ comment.line.number-sign.puppet
#      ^ punctuation.definition.comment.puppet
/* a multi-
# <-- comment.block.puppet punctuation.definition.comment.begin.puppet
#  ^^^^^^^^ comment.block.puppet
   line comment with # and /* inside */ $after = 2
#  ^^^^^^^^^^^^^^^^^^^^^^^ comment.block.puppet
#                                    ^^ comment.block.puppet punctuation.definition.comment.end.puppet
#                                       ^^^^^^ variable.other.readwrite.puppet - comment
/**/
# <---- comment.block.puppet
$hex = [0x1F, 0XaB, 0xdeadBEEF]
#       ^^^^ constant.numeric.integer.hexadecimal.puppet
#             ^^^^ constant.numeric.integer.hexadecimal.puppet
#                   ^^^^^^^^^^ constant.numeric.integer.hexadecimal.puppet
$octal = [0644, 00, 0777]
#         ^^^^ constant.numeric.integer.octal.puppet
#               ^^ constant.numeric.integer.octal.puppet
#                   ^^^^ constant.numeric.integer.octal.puppet
$decimal = [0, 7, 42, 1234567890]
#           ^ constant.numeric.integer.decimal.puppet
#              ^ constant.numeric.integer.decimal.puppet
#                 ^^ constant.numeric.integer.decimal.puppet
#                     ^^^^^^^^^^ constant.numeric.integer.decimal.puppet
$float = [3.14, 0.5, 1e10, 2E-3, 6.02e23, 1.5e-7]
#         ^^^^ constant.numeric.float.puppet
#               ^^^ constant.numeric.float.puppet
#                    ^^^^ constant.numeric.float.puppet
#                          ^^^^ constant.numeric.float.puppet
#                                ^^^^^^^ constant.numeric.float.puppet
#                                         ^^^^^^ constant.numeric.float.puppet
$negative = -12
#           ^ keyword.operator.arithmetic.puppet
#            ^^ constant.numeric.integer.decimal.puppet
$bad = [0x, 0789, 3g, 0xG1]
#       ^^ invalid.illegal.numeric.puppet
#           ^^^^ invalid.illegal.numeric.puppet
#                 ^^ invalid.illegal.numeric.puppet
#                     ^^^^ invalid.illegal.numeric.puppet
$name2 = $x1
# <------ variable.other.readwrite.puppet - constant.numeric
#        ^^^ variable.other.readwrite.puppet - constant.numeric
