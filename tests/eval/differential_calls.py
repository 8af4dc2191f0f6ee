"""Generated calls of the function library, conversions, formats and value arithmetic for the
differential test against Puppet 7 (test_differential_calls.py).

Data-driven: the tables below say, per function (or per type to call, per format letter, per
operator), which argument lists to try; :func:`generate` expands them deterministically (every
row of every table, then value x format and operand x operator products sampled with a fixed
seed).  Every request is a program of the shared JSON-lines protocol, evaluated with Puppet 8
strictness; ``family`` names the table a request came from.
"""
from __future__ import annotations

import random

# ---------------------------------------------------------------------------------------------
# Values used as arguments.
INTS = ["0", "1", "-1", "3", "42", "-255", "255", "1000000"]
FLOATS = ["0.0", "1.5", "-2.25", "3.14159", "1e3", "2.5e-3", "-0.5", "12345.678"]
STRS = ["'a'", "'abc'", "'Hello World'", "''", "'10'", "'3.5'", "' pad '", "'hello_world'",
        "\"line\\n\"", "'ÅÄÖ'", "'a,b,,c'", "'x\\'y'"]
ARRS = ["[]", "[1, 2, 3]", "[1, 'a']", "['b', 'a', 'c']", "[[1, 2], [3, [4]]]", "[undef, 1]",
        "[3, 1, 2]", "['x', 'y']"]
HASHES = ["{}", "{'a' => 1}", "{'a' => 1, 'b' => 2}", "{'a' => [1, 2], 'b' => {'c' => 3}}",
          "{1 => 'x', 2 => 'y'}"]
RICH = ["undef", "default", "true", "false", "/ab+c/", "Integer", "Integer[1, 2]",
        "SemVer('1.2.3')", "SemVerRange('>=1.0.0 <2.0.0')", "Timespan(3)",
        "Timestamp(0)", "Binary('YWJj')", "URI('http://example.com/a?b#c')", "Sensitive('pw')"]
ANY = INTS[:5] + FLOATS[:4] + STRS[:6] + ARRS[:5] + HASHES[:4] + RICH

# Lambdas used with iteration functions.
L1 = ["|$x| { $x }", "|$x| { [$x] }", "|$x| { $x =~ Integer }", "|$x| { \"<${x}>\" }"]
L2 = ["|$k, $v| { [$k, $v] }", "|$a, $b| { $b }", "|$i, $x| { $i }"]

# Per function: argument lists (Puppet text inside the parentheses, optionally followed by a
# lambda after a ``|`` separator written as " LAMBDA ").  Bad arguments are included on purpose:
# the verdict and the error text must agree too.
CALLS: dict[str, list[str]] = {
    "abs": INTS + FLOATS + ["'-3'", "'2.5'", "undef", "'x'", "[1]"],
    "ceiling": INTS[:4] + FLOATS + ["'2.1'", "'x'", "undef"],
    "floor": INTS[:4] + FLOATS + ["'2.9'", "'x'", "undef"],
    "round": INTS[:4] + FLOATS + ["2.5", "-2.5", "0.49999", "'2.5'", "undef"],
    "upcase": STRS + ["['a', ['b']]", "{'a' => 'b'}", "1", "undef"],
    "downcase": STRS + ["['A', ['B']]", "{'A' => 'B'}", "1"],
    "capitalize": STRS + ["['ab', 'cD']", "1"],
    "camelcase": STRS + ["['a_b', 'c_d_e']", "'_x__y_'", "1"],
    "strip": STRS + ["['  a ', ' b']", "1"],
    "lstrip": STRS + ["['  a ', ' b']"],
    "rstrip": STRS + ["['  a ', ' b']"],
    "chomp": STRS + ["'a\\r\\n'", "['a\\n', 'b']"],
    "chop": STRS + ["'a\\r\\n'", "['ab', '']"],
    "size": ARRS + HASHES + STRS[:4] + ["Binary('YWJj')", "1", "undef"],
    "length": ARRS[:4] + HASHES[:3] + STRS[:4] + ["Binary('YWJj')", "1"],
    "empty": ARRS[:3] + HASHES[:2] + STRS[:4] + ["Binary('')", "0", "undef", "1.0", "default"],
    "keys": HASHES + ["[1]", "'a'"],
    "values": HASHES + ["[1]"],
    "join": [f"{a}" for a in ARRS] + [f"{a}, '-'" for a in ARRS[:5]] + ["'a'", "[1, 2], 3"],
    "flatten": ARRS + ["1, [2, [3]]", "undef", "{'a' => 1}"],
    "unique": ["[1, 1, 2]", "'aabbc'", "['a', 'A', 'a']", "{'a' => 1, 'b' => 1}", "[]",
               "[[1], [1]]", "1", "[1, 1.0]"],
    "sort": ["[3, 1, 2]", "['b', 'A', 'a']", "'cba'", "[1, 'a']", "[]", "[1.5, 1, 2]",
             "[3, 1, 2] LAMBDA |$a, $b| { compare($b, $a) }", "{'a' => 1}"],
    "min": ["1, 2, 3", "'a', 'b'", "[3, 1]", "1.5, 2", "'10', '9'", "", "1, 'a'",
            "Timespan(1), Timespan(2)", "SemVer('1.0.0'), SemVer('2.0.0')",
            "3, 1 LAMBDA |$a, $b| { compare($b, $a) }"],
    "max": ["1, 2, 3", "'a', 'b'", "[3, 1]", "1.5, 2", "'10', '9'", "", "1, 'a'",
            "Timestamp(1), Timestamp(2)", "undef, 1"],
    "compare": ["1, 2", "2, 1", "1, 1.0", "'a', 'B'", "'a', 'B', false", "'a', 'b', true",
                "1, 'a'", "SemVer('1.0.0'), SemVer('1.0.1')", "Timespan(2), Timespan(1)",
                "Timestamp(1), Timestamp(1)", "[1], [1]", "undef, 1", "true, false"],
    "versioncmp": ["'1.2', '1.10'", "'1.10', '1.2'", "'1.2', '1.2'", "'1.2.0', '1.2'",
                   "'1.2-1', '1.2'", "'a', 'b'", "'1.0rc1', '1.0'", "1, 2", "'1', '2', 3"],
    "dig": ["{'a' => {'b' => 1}}, 'a', 'b'", "{'a' => [1, 2]}, 'a', 1", "[1, [2]], 1, 0",
            "{'a' => 1}, 'x', 'y'", "{'a' => 1}, 'a', 'b'", "undef, 1", "{'a' => 1}"],
    "get": ["{'a' => {'b' => 1}}, 'a.b'", "[1, [2, 3]], '1.0'", "{'a' => 1}, 'x'",
            "{'a' => 1}, 'x', 'dflt'", "{'a.b' => 1}, '\"a.b\"'", "[1], 'x'",
            "{'a' => 1}, 'a.b'", "{'a' => 1}, 'x' LAMBDA |$e| { 'L' }", "undef, 'a'"],
    "split": ["'a,b,,c', ','", "'abc', ''", "'a b  c', / +/", "'', ','", "'a1b2', /\\d/",
              "'abc', Regexp('b')", "1, ','", "'a.b', '.'"],
    "match": ["'abc123', /(\\d+)/", "'abc', 'b(c)'", "['a1', 'b'], /(\\d)/", "'x', /y/",
              "'abc', Pattern[/c/]", "'ab', /(?<n>a)(b)/", "1, /x/"],
    "regsubst": ["'hello', 'l', 'X'", "'hello', 'l', 'X', 'G'", "'aaa', /a/, 'b'",
                 "['ab', 'cb'], 'b', 'X'", "'abc', '(.)b', '<\\1>'", "'ABC', 'b', 'x', 'I'",
                 "'a.b', '.', '-', 'G'", "'abc', /(?<x>b)/, '[\\0]'", "'a', 'a', 1"],
    "sprintf": ["'%d', 42", "'%05.2f', 3.14159", "'%s-%s', 'a', 'b'", "'%x', 255", "'%-5s|', 'x'",
                "'%e', 12345.678", "'%o', 8", "'%b', 5", "'%+d', 5", "'%<a>s', {'a' => 1}",
                "'%c', 65", "'%%'", "'%5.1s', 'abc'", "'%s', [1, 'a']", "'%p', 'a'",
                "'%d', 'x'", "'%X', -255", "'%g', 0.0001", "'%#x', 255", "'% d', 3"],
    "shellquote": ["'a b'", "'abc'", "\"it's\"", "['a', 'b c']", "'$x'", "''", "'a\"b'",
                   "[1, ['x y']]"],
    "md5": ["'abc'", "''", "'Hello World'", "1"],
    "sha1": ["'abc'", "''", "'Hello World'"],
    "sha256": ["'abc'", "''", "'Hello World'"],
    "digest": ["'abc'", "''"],
    "fqdn_rand": ["100", "100, 'x'", "1000000", "'30'", "1", "100, 'a', true"],
    "type": ANY + [f"{v}, generalized" for v in ("[1, 2]", "'abc'", "{'a' => 1}", "1")]
            + [f"{v}, reduced" for v in ("[1, 2]", "{'a' => 1}")] + ["1, 'x'"],
    "assert_type": ["Integer, 1", "Integer, 'a'", "String[1], ''", "Array[Integer], [1, 'a']",
                    "'Integer', 1", "Integer, 'a' LAMBDA |$e, $a| { 'X' }", "Hash, {}",
                    "Optional[String], undef", "Enum[a, b], 'c'", "Struct[{a => Integer}], {'a' => 'x'}"],
    "convert_to": ["'42', Integer", "42, String", "[1, 2], Hash", "'1.5', Float", "'x', Integer",
                   "'ff', Integer, 16", "1, Boolean", "'2.0.0', SemVer"],
    "new": ["Integer, '42'", "String, 42", "Array, 1", "Float, '1.5'", "SemVer, '1.0.0'"],
    "unwrap": ["Sensitive('pw')", "'x'", "1", "Sensitive([1, 2])"],
    "getvar": ["'x'", "'nope'", "'nope', 3", "'facts'", "'trusted.authenticated'"],
    "strftime": ["Timespan(3661), '%H:%M:%S'", "Timestamp(0), '%Y-%m-%d'",
                 "Timestamp(0), '%F %T', 'CET'", "Timespan(90061.5), '%D %L'",
                 "Timestamp('2021-02-03T04:05:06.789 UTC'), '%a %A %b %B %C %d %e %j'",
                 "Timestamp(0), '%s %N %3N %z %Z %%'", "'%Y', 'UTC'", "Timespan(1), '%-H %_M %0S'"],
    "scanf": ["'42', '%d'", "'a 1', '%s %d'", "'x', '%d'"],
    "index": ["[1, 2, 3], 2", "'abc', 'c'", "{'a' => 1}, 1", "[1, 2] LAMBDA |$x| { $x > 1 }",
              "{'a' => 1, 'b' => 2} LAMBDA |$k, $v| { $v == 2 }", "'abc', 'x'", "[1], 5"],
    "step": ["[1, 2, 3, 4, 5], 2 LAMBDA |$x| { $x }", "5, 2 LAMBDA |$x| { $x }", "[1, 2], 0",
             "Integer[1, 9], 3 LAMBDA |$x| { $x }", "'abc', 1"],
    "reverse_each": ["[1, 2, 3] LAMBDA |$x| { $x }", "3 LAMBDA |$x| { $x }", "'abc'"],
    "slice": ["[1, 2, 3, 4, 5], 2", "[1, 2, 3], 2 LAMBDA |$a| { $a }", "{'a' => 1, 'b' => 2}, 1",
              "[1, 2, 3], 2 LAMBDA |$a, $b| { [$b, $a] }", "[1], 0", "'abcd', 3", "3, 2"],
    "each": [f"{c} LAMBDA {l}" for c in ("[1, 2]", "{'a' => 1}", "3", "'ab'") for l in L1[:2] + L2[:1]]
            + ["1 LAMBDA |$x| { $x }", "[1] LAMBDA |$a, $b, $c| { 1 }"],
    "map": [f"{c} LAMBDA {l}" for c in ("[1, 2]", "{'a' => 1}", "3", "Integer[1, 3]") for l in L1[:3] + L2[:1]]
           + ["[1, 2]", "undef LAMBDA |$x| { $x }"],
    "filter": [f"{c} LAMBDA {l}" for c in ("[1, 'a', 2]", "{'a' => 1, 'b' => 'x'}") for l in (
        "|$x| { $x =~ Integer }", "|$k, $v| { $v =~ Integer }")] + ["[1, 2] LAMBDA |$x| { undef }"],
    "reduce": ["[1, 2, 3] LAMBDA |$m, $x| { $m + $x }", "[1, 2, 3], 10 LAMBDA |$m, $x| { $m + $x }",
               "{'a' => 1} LAMBDA |$m, $x| { $x }", "[] LAMBDA |$m, $x| { 1 }",
               "[1, 2] LAMBDA |$m| { 1 }", "3 LAMBDA |$m, $x| { $m * 10 + $x }"],
    "any": ["[1, 'a'] LAMBDA |$x| { $x =~ String }", "[] LAMBDA |$x| { true }",
            "{'a' => 1} LAMBDA |$k, $v| { $v == 1 }", "[1] LAMBDA |$i, $x| { $i == 0 }"],
    "all": ["[1, 'a'] LAMBDA |$x| { $x =~ String }", "[] LAMBDA |$x| { false }",
            "{'a' => 1} LAMBDA |$k, $v| { $v == 1 }"],
    "partition": ["[1, 'a', 2] LAMBDA |$x| { $x =~ Integer }",
                  "{'a' => 1, 'b' => 'x'} LAMBDA |$k, $v| { $v =~ Integer }",
                  "['ab', 'b'] LAMBDA |$i, $x| { $i > 0 }"],
    "group_by": ["[1, 2, 3] LAMBDA |$x| { $x % 2 }", "{'a' => 1, 'b' => 1} LAMBDA |$k, $v| { $v }",
                 "['a', 'bb', 'c'] LAMBDA |$i, $x| { $x.length }"],
    "tree_each": ["[1, [2, 3]] LAMBDA |$x| { $x }", "{'a' => {'b' => 1}} LAMBDA |$p, $v| { $p }",
                  "[1, [2]], {'order' => 'bottomup'} LAMBDA |$p, $v| { $v }",
                  "[1, [2]], {'include_containers' => false} LAMBDA |$v| { $v }"],
    "with": ["1, 2 LAMBDA |$a, $b| { $a + $b }", "LAMBDA || { 'x' }", "1 LAMBDA |$a, $b| { $a }"],
    "then": ["1 LAMBDA |$x| { $x + 1 }", "undef LAMBDA |$x| { 1 }"],
    "lest": ["undef LAMBDA || { 'L' }", "1 LAMBDA || { 'L' }"],
    "call": ["'upcase', 'a'", "'sprintf', '%03d', 7", "'nosuch'", "'with', 1 LAMBDA |$x| { $x }"],
    "notice": ANY[:12] + ["1, 'a', [2]", "Sensitive(1)"],
    "warning": ["'w'", "1, 2"],
    "info": ["'i'"],
    "err": ["'e'"],
    "debug": ["'d'"],
    "alert": ["'a'"],
    "crit": ["'c'"],
    "emerg": ["'e'"],
    "fail": ["'boom'", "1, 'a'", "", "[1]"],
    "defined": ["'$x'", "'$nope'", "'notice'", "'nosuchfn'", "'File'", "'Class[main]'",
                "Integer", "'String'", "1"],
    "tagged": ["'x'", "'main'"],
    "include": ["'nosuchclass'"],
    "empty_call": [],
    "file": ["'/etc/hosts'"],
    "template": ["'x/y.erb'"],
    "epp": ["'x/y.epp'"],
    "inline_epp": ["'a<%= 1 %>b'", "'<%= $x %>', {'x' => 2}", "'<%- | $y | -%><%= $y %>', {'y' => 3}"],
    "generate": ["'/bin/true'"],
    "lookup": ["'x'"],
    "hiera": ["'x'"],
    "find_file": ["'x'"],
    "binary_file": ["'x'"],
}
del CALLS["empty_call"]

# Calls that need some setup first (a variable, a class) are written in full.
PROGRAMS = [
    "$x = 1; getvar('x')",
    "$h = {'a' => [1, {'b' => 2}]}; getvar('h.a.1.b')",
    "$x = 1; defined('$x')",
    "class foo {} include foo; defined(Class[foo])",
    "class foo {} contain foo; tagged('foo')",
    "class foo { tag 'xyz' } include foo; 1",
    "tag('abc'); tagged('abc')",
    "[1, 2, 3].each |$x| { if $x == 2 { break() } notice($x) }",
    "[1, 2, 3].map |$x| { if $x == 2 { next(20) } $x }",
    "function f() { [1, 2].each |$x| { return($x) } 3 } f()",
    "[1, 2, 3].reduce |$m, $x| { if $x == 3 { break() } $m + $x }",
    "$r = [1, 2, 3].filter |$x| { next($x > 1) }; $r",
    "[1, 2].step(1) |$x| { $x }",
    "Integer[1, 3].reverse_each.map |$x| { $x }",
    "[1, 2, 3].reverse_each",
    "Iterator[Integer] == Iterator[Integer]",
    "[1, 2, 3].step(2) =~ Iterator",
    "String([1, 2, 3].reverse_each)",
    "include nosuch",
    "require nosuch",
    "realize(File['/x'])",
    "@file { '/x': } realize(File['/x']); defined(File['/x'])",
    "Integer.new('12')",
    "'abc'.upcase.downcase.capitalize",
    "[1, 2].sort |$a, $b| { $b <=> $a }",
]

# Types called as functions (conversions), with their argument lists.
CONVERSIONS: dict[str, list[str]] = {
    "Integer": ["'42'", "'0x1F'", "'0X1f'", "'017'", "'0o17'", "'0b101'", "'0B11'", "3.7", "-3.7",
                "true", "false", "'abc'", "'08'", "' 12 '", "'-0x10'", "'777', 8", "'ff', 16",
                "'101', 2", "'12', 10", "'0x10', 16", "'17', 7", "'1_000'", "'+5'", "'1e3'",
                "Timespan(5)", "Timestamp(5)", "'42', 10, true", "'abc', 10, true", "{from => '12'}",
                "{from => 'ff', radix => 16}", "undef", "[1]"],
    "Float": ["'3.14'", "'1e3'", "'.5'", "2", "false", "true", "'x'", "'0x10'", "'1_0.5'",
              "'-0.0'", "'12', true", "'x', true", "Timespan(1.5)", "Timestamp(1.5)", "' 2.5 '",
              "{from => '2.5'}"],
    "Numeric": ["'42'", "'4.2'", "'0x2A'", "'0b11'", "'017'", "true", "'no'", "3", "'1e-2'",
                "'-7'", "{from => '1'}"],
    "Boolean": ["'yes'", "'No'", "'y'", "'N'", "'true'", "'FALSE'", "0", "1", "1.5", "0.0",
                "'maybe'", "true", "''", "undef"],
    "String": ["[1, 'a']", "{'a' => [1]}", "1.0", "undef", "default", "/x/", "42, '%x'",
               "'a', '%p'", "[1, 2], '%(a'", "3.5, '%.3f'", "{'a' => 1}, '%#h'",
               "[1, [2]], {Array => '%[a', Integer => '%#x'}", "Integer[1, 2]",
               "SemVer('1.2.3')", "Timespan(1)", "Binary('YWJj')", "Sensitive(1)"],
    "Array": ["1", "[1]", "{'a' => 1}", "'ab'", "undef", "Integer[1, 3]", "1, true",
              "{'a' => 1}, true", "'ab', true", "Binary('YWI='), true", "[1], true"],
    "Hash": ["[1, 2, 3, 4]", "[[1, 2]]", "[1]", "{'a' => 1}", "[]", "[[1, 2], [3, 4]]",
             "'x'", "[1, 2, 3]"],
    "Tuple[Integer, String]": ["[1, 'a']", "[1, 2]", "['1', 'a']"],
    "Struct[{a => Integer}]": ["{'a' => '1'}", "[['a', 2]]", "{'b' => 1}"],
    "Array[Integer]": ["['1', '2']", "'1'", "[1.5]"],
    "Hash[String, Integer]": ["{'a' => '1'}", "[['a', '2']]"],
    "Optional[Integer]": ["'3'", "undef"],
    "Variant[Integer, Float]": ["'3'", "'3.5'", "'x'"],
    "Integer[0, 10]": ["'5'", "'50'"],
    "Float[0.0, 1.0]": ["'0.5'", "'2.0'"],
    "String[1, 2]": ["'a'", "'abc'"],
    "SemVer": ["'1.2.3'", "'1.2.3-rc.1+b5'", "'1.2'", "1, 2, 3", "1, 2, 3, 'alpha'",
               "1, 2, 3, 'alpha', 'build'", "{major => 1, minor => 2, patch => 3}",
               "{major => 1, minor => 2, patch => 3, prerelease => 'rc1'}", "'v1.2.3'",
               "'01.2.3'", "'1.2.3-'", "'1.2.3-a..b'", "'1.2.3+b.1'", "'x'"],
    "SemVerRange": ["'>=1.0.0 <2.0.0'", "'~1.2'", "'~1'", "'~1.2.3'", "'^1.2.3'", "'^0.2.3'",
                    "'^0.0.3'", "'1.x'", "'1.2.x'", "'*'", "'1.2.3 - 2.3.4'", "'1.2 - 2'",
                    "'<1.0.0 || >=2.0.0'", "'>1.2'", "'<=1.2'", "'=1.2.3'", "'1.2.3'",
                    "'bad range'", "SemVer('1.0.0'), SemVer('2.0.0')",
                    "SemVer('1.0.0'), SemVer('2.0.0'), true", "'>=1.2.3-rc1'",
                    "{min => SemVer('1.0.0'), max => SemVer('2.0.0')}", "'~>1.2'", "'1.X'",
                    "'>= 1.0.0'", "''"],
    "Timespan": ["3", "1.5", "-2", "'1-02:03:04'", "'02:03:04'", "'12:00'", "'1-02:03:04.5'",
                 "{hours => 2}", "{days => 1, minutes => 3, negative => true}",
                 "{milliseconds => 1500}", "'12:00', '%H:%M'", "'3d', '%Dd'",
                 "'1 2 3', ['%D %H %M', '%H %M %S']", "1, 2, 3, 4", "1, 2, 3, 4, 5, 6, 7",
                 "'x'", "'-1-00:00:00'", "{string => '5', format => '%S'}", "'1:2:3', '%H:%M:%S'",
                 "'90', '%M'", "'1.5', '%S.%L'", "'100', '%N'"],
    "Timestamp": ["0", "1.5", "'2016-01-01'", "'2016-01-01T10:00:00 UTC'",
                  "'2016-01-01T10:00:00.123+01:00'", "'2016-01-01 10:00'", "'2016-01-01T10:00:00'",
                  "'2016-01-01', '%Y-%m-%d'", "'2016-01-01 CET', '%Y-%m-%d %Z'",
                  "'01/02/2016', '%m/%d/%Y'", "'2016-01-01', '%Y-%m-%d', 'EST'",
                  "'x'", "{string => '2016-02-03', format => '%F'}", "'2016-01-01T00:00:00Z'",
                  "'1 Jan 2016', '%d %b %Y'", "'Friday 2016', '%A %Y'", "'16-1-2', '%y-%m-%d'",
                  "'2016 032', '%Y %j'", "'1453000000', '%s'", "'2016-01-01 +0500', '%F %z'",
                  "'2016-01-01 -05:30', '%F %z'"],
    "Binary": ["'YWJj'", "[97, 98]", "'abc', '%s'", "'YWJj', '%B'", "'YWJ', '%b'", "'YW-_', '%u'",
               "'abc', '%r'", "'YWJj', '%x'", "'Y W J j'", "'YWJ'", "'ÅÄ', '%s'", "[256]",
               "{value => 'YWJj'}", "{value => 'abc', format => '%s'}", "''"],
    "URI": ["'http://a.b/c?d#e'", "'urn:x:y'", "'HTTP://User@Example.com:80/a/../b'",
            "'relative/path'", "'http://a b'", "{scheme => 'https', host => 'h', path => '/p'}",
            "'http://example.com', false", "'mailto:a@b.c'", "''"],
    "Sensitive": ANY[:10] + ["Sensitive(1)"],
    "Regexp": ["'a+'", "'.['", "'(?<n>a)'", "'(?P<n>a)'", "'a**'", "'\\\\d{2,}'", "/x/",
               "'(?i)ab'", "'[[:alpha:]]'", "'\\\\h+'", "'a{,2}'", "'(?#c)a'", "'a++'",
               "'\\\\A\\\\z'", "'(?m:a.)'", "'\\\\Z'", "'x(?=y)'", "'(?<=a)b'", "'\\\\p{L}'",
               "'a{2}{3}'", "'(?x) a b '"],
    "Deferred": ["'f'", "'f', [1, 2]", "1"],
    "Undef": ["1"],
    "Default": ["1"],
    "Type": ["'Integer[1,2]'", "'Foo'", "'Array[String]'"],
    "Iterator": ["[1]"],
}

# Values by type, for the format table (every letter is tried with every value of its row).
FORMAT_VALUES = {
    "Integer": ["0", "42", "-42", "255", "65"],
    "Float": ["0.0", "3.14159", "-2.5", "12345.678", "1e20", "0.000123"],
    "String": ["'abc'", "''", "'Hello World'", "\"a\\tb\"", "'A'"],
    "Boolean": ["true", "false"],
    "Undef": ["undef"],
    "Default": ["default"],
    "Array": ["[1, 'a']", "[]", "[1, [2, 3]]", "[1, {'a' => 2}]"],
    "Hash": ["{'a' => 1}", "{}", "{'a' => [1, 2], 'b' => {'c' => 'd'}}"],
    "Regexp": ["/ab\\/c/"],
    "Type": ["Integer[1, 2]", "Optional[String]"],
    "Timespan": ["Timespan(3661.5)", "Timespan(-90)"],
    "Timestamp": ["Timestamp(1454000000.123)"],
    "SemVer": ["SemVer('1.2.3-rc.1')"],
    "SemVerRange": ["SemVerRange('~1.2')"],
    "Binary": ["Binary('aGVsbG8gd29ybGQ=')", "Binary('AP8=')"],
    "URI": ["URI('http://example.com/x')"],
    "Sensitive": ["Sensitive('pw')"],
}
LETTERS = list("dxXobBcsSpeEfgGaAtTyYuhjiqnClLrRNH")
FLAGS = ["", "#", "+", "-", "0", " ", "10", "-10", ".2", "10.3", "#10", "0-5", "+.1", "[", "(",
         "{", "<", "|", "#[", "#{", ".0"]
FORMAT_MAPS = [
    "[1, 'a'], {Integer => '%#x', String => '%p'}",
    "[1, [2]], {Array => {format => '%(a', separator => ';'}}",
    "{'a' => 1}, {Hash => {format => '%h', separator => ' ', separator2 => ':'}}",
    "[1.5, 2], {Numeric => '%.1f'}",
    "{'a' => [1]}, {Hash => '%#h', Array => '%[a'}",
    "[[1, 2]], {Array => {format => '%a', string_formats => {Integer => '%x'}}}",
    "[1, 'a'], {Any => '%p'}",
    "1, {Float => '%f'}",
    "'x', {String => {format => '%s', bogus => 1}}",
    "[1], {Array => '%x'}",
    "{'a' => 'b'}, '%#p'",
    "[undef, default], '%p'",
    "Sensitive('x'), '%s'",
]

# Operators on time values, versions and their mixtures.
ARITH_OPERANDS = ["Timespan(60)", "Timespan('1-00:00:00')", "Timestamp(0)",
                  "Timestamp('2020-02-29T12:00:00 UTC')", "SemVer('1.2.3')", "SemVer('1.2.3-rc1')",
                  "SemVerRange('>=1.0.0')", "3", "1.5", "Binary('YWJj')", "URI('http://a/b/')",
                  "URI('c/d')", "'/x'"]
OPS = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "=~", "in"]


def _call(fn: str, args: str) -> str:
    if " LAMBDA " in args or args.startswith("LAMBDA "):
        a, _, lam = args.partition("LAMBDA ")
        a = a.strip()
        return f"{fn}({a}) {lam}".replace("() ", "() ") if a else f"{fn}() {lam}"
    return f"{fn}({args})"


def generate(seed: int = 20240705) -> list[dict]:
    """Every request, in a fixed order, duplicates removed; each with a ``family`` key."""
    r = random.Random(seed)
    out: list[dict] = []
    seen: set = set()

    def add(src: str, family: str) -> None:
        if src not in seen:
            seen.add(src)
            out.append({"src": src, "strict": "error", "strict_variables": True,
                        "family": family})

    for fn, arglists in CALLS.items():
        for args in arglists:
            add(_call(fn, args), "functions")
    for src in PROGRAMS:
        add(src, "programs")
    for t, arglists in CONVERSIONS.items():
        for args in arglists:
            add(f"{t}({args})", "conversions")
            if t in ("Integer", "Float", "Boolean", "SemVer", "Timespan") and r.random() < 0.3:
                add(f"{t}.new({args})", "conversions")
    for values in FORMAT_VALUES.values():
        for v in values:
            for letter in LETTERS:
                add(f"String({v}, '%{letter}')", "formats")
            for flag in r.sample(FLAGS, 6):
                letter = r.choice(LETTERS[:16])
                add(f"String({v}, '%{flag}{letter}')", "formats")
            add(f"sprintf('%s|%p', {v}, {v})", "formats")
    for fm in FORMAT_MAPS:
        add(f"String({fm})", "formats")
    for a in ARITH_OPERANDS:
        for op in OPS:
            b = r.choice(ARITH_OPERANDS)
            add(f"{a} {op} {b}", "arithmetic")
            b2 = r.choice(ARITH_OPERANDS)
            add(f"{a} {op} {b2}", "arithmetic")
    return out


if __name__ == "__main__":  # pragma: no cover - a debugging aid
    reqs = generate()
    print(len(reqs))
