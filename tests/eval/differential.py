"""Generated Puppet programs for the differential test of the evaluator against Puppet 7.

Programs are produced deterministically (fixed seed) from templates per family (operators,
comparisons, match, access, collections, strings, conditionals, variables, lambdas and
iteration, functions, formatting, conversions, types, definitions, errors).  Each program is a
request of the shared JSON-lines protocol: ``{"src", "strict", "strict_variables"}``.
"""
from __future__ import annotations

import random

INTS = ["0", "1", "-1", "2", "3", "7", "10", "-7", "42", "255", "0x1F", "017", "9223372036854775807",
        "-9223372036854775807", "4611686018427387904", "1000000"]
FLOATS = ["0.0", "1.5", "-2.25", "3.0", "0.1", "1e3", "2.5e-3", "1.0e10", "-0.5"]
STRINGS = ["'a'", "'A'", "'abc'", "'ABC'", "'Hello World'", "''", "'10'", "'3.5'", "'0x10'",
           "'hello'", "\"tab\\there\"", "'b'", "'aBc'", "' x '", "'1e2'"]
ARRAYS = ["[]", "[1, 2, 3]", "[1, 'a']", "['a', 'b', 'c']", "[[1, 2], [3]]", "[undef, 1]",
          "[1, 2, 3, 4, 5]", "['x']", "[true, false]", "[1.5, 2]"]
HASHES = ["{}", "{'a' => 1}", "{'a' => 1, 'b' => 2}", "{1 => 'x', 2 => 'y'}",
          "{'a' => [1, 2], 'b' => {'c' => 3}}", "{'A' => 1}", "{'k' => undef}"]
TYPES = ["Integer", "Integer[1, 5]", "Float", "Numeric", "String", "String[1]", "String[1, 3]",
         "Array", "Array[Integer]", "Hash", "Hash[String, Integer]", "Boolean", "Undef", "Any",
         "Scalar", "Data", "Optional[Integer]", "Variant[Integer, String]", "Enum[a, b]",
         "Pattern[/^a/]", "Tuple[Integer, String]", "Struct[{a => Integer}]", "Regexp",
         "NotUndef", "Collection", "Type", "Default", "SemVer", "Timespan", "Iterable"]
MISC = ["undef", "default", "true", "false", "/ab+c/", "Integer", "SemVer('1.2.3')",
        "Timespan(3)", "Sensitive(1)", "Binary('YWJj')"]
ALL_VALUES = INTS + FLOATS + STRINGS + ARRAYS + HASHES + MISC

ARITH_OPS = ["+", "-", "*", "/", "%", "<<", ">>"]
CMP_OPS = ["==", "!=", "<", "<=", ">", ">="]


def _strict(r: random.Random) -> dict:
    choice = r.random()
    if choice < 0.7:
        return {"strict": "error", "strict_variables": True}
    if choice < 0.85:
        return {"strict": "warning", "strict_variables": False}
    return {"strict": "off", "strict_variables": False}


def family_arithmetic(r: random.Random) -> str:
    pool = INTS + FLOATS + STRINGS[6:9] + ["Timespan(2)", "Timestamp(10)", "[1, 2]", "{'a' => 1}"]
    a, b = r.choice(pool), r.choice(pool)
    op = r.choice(ARITH_OPS)
    if op in ("<<", ">>") and len(b) > 8:
        # Huge shift counts make Puppet itself run out of memory: not a useful comparison.
        b = r.choice(["1", "3", "-2", "62", "64"])
    if r.random() < 0.15:
        return f"-({a} {op} {b})"
    return f"{a} {op} {b}"


def family_comparison(r: random.Random) -> str:
    pool = INTS[:10] + FLOATS[:5] + STRINGS + ARRAYS[:4] + HASHES[:3] + MISC + TYPES[:10] + [
        "SemVer('1.2.3')", "SemVer('2.0.0')", "Timespan(1)", "Timestamp(5)"]
    a, b = r.choice(pool), r.choice(pool)
    return f"{a} {r.choice(CMP_OPS)} {b}"


def family_logical(r: random.Random) -> str:
    pool = ["true", "false", "undef", "''", "0", "1", "[]", "{}", "'x'", "$nope"]
    a, b = r.choice(pool), r.choice(pool)
    form = r.choice([f"{a} and {b}", f"{a} or {b}", f"!{a}", f"!({a} or {b})",
                     f"{a} and !{b}", f"({a} or {b}) and {a}"])
    return form


def family_in(r: random.Random) -> str:
    lhs = r.choice(["'a'", "'A'", "'b'", "1", "/a/", "/^B/", "Integer", "String", "'abc'", "[1]",
                    "SemVer('1.2.3')", "1.0", "undef", "'1'"])
    rhs = r.choice(["'abc'", "'xAbc'", "['a', 'b']", "[1, 2, 3]", "{'a' => 1, 'B' => 2}",
                    "[[1], [2]]", "['ABC', 'xyz']", "SemVerRange('>=1.0.0')", "1", "[1.0]",
                    "Binary('YWJj')", "[undef]"])
    return f"{lhs} in {rhs}"


def family_match(r: random.Random) -> str:
    s = r.choice(["'abc'", "'ABC'", "'hello world'", "'a1b2'", "''", "'foo.bar'"])
    rx = r.choice(["/(a)(b)?/", "/^(\\w+) (\\w+)$/", "/x/", "'b.'", "/(\\d)(\\w)/", "/\\./",
                   "/(?<n>o+)/", "'^a'", "/[A-Z]+/"])
    op = r.choice(["=~", "!~"])
    tail = r.choice(["", "; $0", "; $1", "; [$0, $1, $2]", "; $3"])
    if r.random() < 0.2:
        lhs = r.choice(["1", "[1]", "undef", "Integer"])
        return f"{lhs} {op} {rx}"
    if r.random() < 0.15:
        return f"{s} =~ {r.choice(TYPES[:12])}"
    return f"{s} {op} {rx}{tail}"


def family_match_scopes(r: random.Random) -> str:
    return r.choice([
        "if 'abc' =~ /(b)/ { $1 } else { 'no' }",
        "if 'abc' =~ /(x)/ { $1 } else { $1 }",
        "'abc' =~ /(b)/; if 'x' =~ /(x)/ { $1 }; $1",
        "'abc' =~ /(b)/; [1].map |$v| { $1 }",
        "case 'abc' { /(a)(b)/: { [$1, $2] } default: { 'no' } }",
        "'abc' ? { /(c)/ => $1, default => 'd' }",
        "'xyz' =~ /(y)/; 'q' =~ /(r)/; $1",
        "unless 'a' =~ /(a)/ { 1 } else { $1 }",
        "$x = 'abc' =~ /^(a)/; [$x, $0, $1]",
        "/b/ in ['abc', 'b']; $0",
    ]) if r.random() < 0.9 else f"'{r.choice(['a1', 'b22', 'c'])}' =~ /(\\d+)/; $1"


def family_access(r: random.Random) -> str:
    target = r.choice(["[1, 2, 3, 4]", "'Hello World'", "{'a' => 1, 'b' => 2}", "[]", "'abc'",
                       "{'a' => undef}", "Binary('YWJjZA==')"])
    keys = r.choice(["0", "1", "-1", "10", "1, 2", "-2, 1", "2, -1", "-5, -3", "0, 0", "'a'",
                     "'a', 'b'", "'x'", "1, 2, 3", "'1'", "undef", "6, -2", "-11, 2"])
    if r.random() < 0.3:
        t = r.choice(["Integer", "Float", "String", "Array", "Hash", "Tuple", "Enum", "Pattern",
                      "Optional", "Variant", "Regexp", "Struct", "Type", "Resource", "Class",
                      "NotUndef", "Collection", "Sensitive", "Boolean", "Runtime"])
        args = r.choice(["1", "1, 2", "Integer", "Integer, 1", "[Integer, String]", "'a', 'b'",
                         "String, 1, 2", "default", "a", "{a => Integer}", "/x/", "2, 1",
                         "File, 'x'", "true"])
        return f"{t}[{args}]"
    return f"{target}[{keys}]"


def family_collections(r: random.Random) -> str:
    a = r.choice(ARRAYS + HASHES)
    b = r.choice(ARRAYS + HASHES + ["1", "'a'", "[[1, 2]]", "['a', 1]", "undef"])
    op = r.choice(["+", "-", "<<"])
    return f"{a} {op} {b}"


def family_interpolation(r: random.Random) -> str:
    v = r.choice(ALL_VALUES)
    form = r.choice(['"x${v}y"', '"${v}"', '"[${v}]"', '"$v"', '"${v.length}"'])
    if "length" in form and not v.startswith(("[", "'", "{")):
        form = '"${v}"'
    return f"$v = {v}; " + form


def family_heredoc(r: random.Random) -> str:
    flags = r.choice(["", "/t", "/n", "/$", "/L", "/tn"])
    quote = r.choice(["END", '"END"'])
    end = r.choice(["END", "- END", "|- END", "| END"])
    body = r.choice(["  a\\tb", "  line $x\n  two", "  ${x}\n  \\$y", "  x\\\n  y"])
    return f"$x = 5\n$r = @({quote}{flags})\n{body}\n  {end}\n$r"


def family_conditionals(r: random.Random) -> str:
    v = r.choice(["1", "'a'", "'A'", "[1, 2]", "{'a' => 1}", "undef", "3.0", "'x'", "default",
                  "Integer", "SemVer('1.2.3')"])
    opt = r.choice(["1", "'a'", "/a/", "Integer", "[1, default]", "{'a' => 1}", "*[1, 2]",
                    "String", "undef", "default", "SemVerRange('>=1.0.0')", "[1, 2]", "3"])
    return r.choice([
        f"case {v} {{ {opt}: {{ 'yes' }} default: {{ 'no' }} }}",
        f"case {v} {{ {opt}: {{ 'yes' }} }}",
        f"{v} ? {{ {opt} => 'yes', default => 'no' }}",
        f"{v} ? {{ {opt} => 'yes' }}",
        f"if {v} {{ 'yes' }} else {{ 'no' }}",
        f"unless {v} {{ 'yes' }}",
        f"if {v} == {opt} {{ 1 }} elsif {v} {{ 2 }} else {{ 3 }}",
    ])


def family_variables(r: random.Random) -> str:
    return r.choice([
        "$a = 1; $b = $a + 1; [$a, $b]",
        "[$a, $b] = [1, 2]; $a + $b",
        "[$a, [$b, $c]] = [1, [2, 3]]; [$c, $b, $a]",
        "[$a, $b] = {'a' => 1, 'b' => 2}; [$b, $a]",
        "[$a, $b] = [1]",
        "$a = 1; $a = 2",
        "$nope",
        "\"${nope}x\"",
        "$::nope",
        "$x = 1; $::x",
        "$a::b",
        "$facts",
        "$trusted['certname']",
        "$a = $b = 3; [$a, $b]",
        "$0",
        "$x = [1, 2] $y = $x + 3 $y",
        "[$a, $b] = {'a' => 1}",
        "$x = undef; $x",
    ])


def family_lambdas(r: random.Random) -> str:
    coll = r.choice(["[1, 2, 3]", "{'a' => 1, 'b' => 2}", "3", "'abc'", "Integer[1, 4]", "[]",
                     "[[1, 2], [3, 4]]", "Enum[x, y]"])
    fn = r.choice(["each", "map", "filter", "reduce", "any", "all", "index", "reverse_each",
                   "step", "slice", "partition", "group_by", "tree_each"])
    body = r.choice(["|$x| { $x }", "|$k, $v| { [$k, $v] }", "|$x| { $x =~ Integer }",
                     "|$a, $b| { $a }", "|$x| { break() }", "|$x| { next(0) }", "",
                     "|$x, $y, $z| { 1 }", "|Integer $x| { $x }"])
    arg = ""
    if fn in ("step", "slice"):
        arg = "(2)"
    elif fn == "reduce" and r.random() < 0.5:
        arg = "(10)"
    elif fn == "index" and not body:
        arg = "(2)"
    return f"{coll}.{fn}{arg} {body}".strip()


def family_functions(r: random.Random) -> str:
    c = r.choice
    forms = [
        lambda: c(["upcase", "downcase", "capitalize", "camelcase", "strip", "chomp", "chop",
                   "lstrip", "rstrip"]) + "(" + c(STRINGS + ["['a_b', 'c']", "1", "undef"]) + ")",
        lambda: c(["abs", "ceiling", "floor", "round"]) + "(" + c(INTS[:6] + FLOATS + [
            "'-3'", "'2.5'", "undef"]) + ")",
        lambda: c(["size", "length", "empty"]) + "(" + c(ARRAYS + HASHES + STRINGS[:4] + [
            "1", "undef"]) + ")",
        lambda: "join(" + c(ARRAYS) + ", " + c(["','", "''", "'-'"]) + ")",
        lambda: "split(" + c(["'a,b,,c'", "'abc'", "'a b  c'", "''"]) + ", " + c(
            ["','", "''", "/ +/", "'b'"]) + ")",
        lambda: "sort(" + c(["[3, 1, 2]", "['b', 'A', 'a']", "'cba'", "[1, 'a']", "[]"]) + ")",
        lambda: "unique(" + c(["[1, 1, 2]", "'aabbc'", "['a', 'A']", "{a => 1, b => 1}"]) + ")",
        lambda: "flatten(" + c(ARRAYS) + ", " + c(ARRAYS) + ")",
        lambda: c(["min", "max"]) + "(" + c(["1, 2, 3", "'a', 'b'", "[3, 1]", "1.5, 2",
                                              "'10', '9'"]) + ")",
        lambda: "compare(" + c(INTS[:4] + STRINGS[:4]) + ", " + c(INTS[:4] + STRINGS[:4]) + ")",
        lambda: "versioncmp(" + c(["'1.2'", "'1.10'", "'1.2.0'", "'2'"]) + ", " + c(
            ["'1.2'", "'1.9'", "'1.2-1'"]) + ")",
        lambda: c(["keys", "values"]) + "(" + c(HASHES) + ")",
        lambda: "dig(" + c(HASHES + ARRAYS) + ", " + c(["'a'", "0", "'a', 0", "'b', 'c'",
                                                      "1, 1"]) + ")",
        lambda: "get(" + c(HASHES + ARRAYS) + ", " + c(["'a'", "'0'", "'b.c'", "'a.1'",
                                                      "'1.0'"]) + ")",
        lambda: "regsubst(" + c(["'hello'", "'aaa'", "['ab', 'cb']"]) + ", " + c(
            ["'l'", "/a/", "'(.)b'"]) + ", " + c(["'X'", "'<\\1>'", "''"]) + c(
            ["", ", 'G'"]) + ")",
        lambda: "sprintf(" + c(["'%d'", "'%05.2f'", "'%s-%s'", "'%x'", "'%-5s|'", "'%e'",
                                "'%o'", "'%b'", "'%+d'"]) + ", " + c(
            ["42", "3.14159", "'a', 'b'", "-255", "'x'"]) + ")",
        lambda: "match(" + c(["'abc123'", "['a1', 'b']"]) + ", " + c(
            ["/(\\d+)/", "'b(c)'", "/x/"]) + ")",
        lambda: "type(" + c(ALL_VALUES) + c(["", ", generalized", ", reduced"]) + ")",
        lambda: "assert_type(" + c(TYPES) + ", " + c(ALL_VALUES) + ")",
        lambda: "with(" + c(ALL_VALUES) + ") |$x| { $x }",
        lambda: c(ALL_VALUES) + ".then |$x| { [$x] }",
        lambda: c(["undef", "1"]) + ".lest || { 'L' }",
        lambda: "nosuchfunction(" + c(ALL_VALUES) + ")",
        lambda: "fail(" + c(STRINGS) + ")",
        lambda: "notice(" + c(ALL_VALUES) + ")",
    ]
    return c(forms)()


FORMATS = ["%s", "%p", "%d", "%x", "%X", "%o", "%b", "%e", "%f", "%.2f", "%5d", "%-5d", "%05d",
           "%+d", "%#x", "%#o", "%c", "%10s", "%.1s", "%t", "%T", "%y", "%Y", "%u", "%a", "%h",
           "%#p", "%[a", "%(a", "%#a", "%u", "%C", "%10.3s", "%g", "%G", "%E"]


def family_format(r: random.Random) -> str:
    v = r.choice(INTS[:8] + FLOATS + STRINGS + ARRAYS[:6] + HASHES[:4] + MISC)
    f = r.choice(FORMATS)
    if r.random() < 0.2:
        return f"String({v})"
    return f"String({v}, '{f}')"


def family_conversions(r: random.Random) -> str:
    c = r.choice
    forms = [
        lambda: "Integer(" + c(["'42'", "'0x1F'", "'017'", "'0b101'", "3.7", "true", "'abc'",
                                "'08'", "' 12 '", "'-0x10'"]) + c(["", ", 16", ", 8", ", 10"]) + ")",
        lambda: "Float(" + c(["'3.14'", "'1e3'", "2", "false", "'x'", "'0x10'"]) + ")",
        lambda: "Numeric(" + c(["'42'", "'4.2'", "'0x2A'", "true", "'no'"]) + ")",
        lambda: "Boolean(" + c(["'yes'", "'No'", "0", "1.5", "'maybe'", "true"]) + ")",
        lambda: "Array(" + c(["1", "[1]", "{a => 1}", "'ab'", "undef", "Integer[1,3]"]) + c(
            ["", ", true"]) + ")",
        lambda: "Hash(" + c(["[1, 2, 3, 4]", "[[1, 2]]", "[1]", "{a => 1}", "[]"]) + ")",
        lambda: "String(" + c(["[1, 'a']", "{a => [1]}", "1.0", "undef", "default", "/x/"]) + ")",
        lambda: "SemVer(" + c(["'1.2.3'", "'1.2.3-rc.1+b5'", "'1.2'", "1, 2, 3"]) + ")",
        lambda: "SemVerRange(" + c(["'>=1.0.0 <2.0.0'", "'~1.2'", "'1.x'", "'bad range'"]) + ")",
        lambda: "Timespan(" + c(["3", "1.5", "'1-02:03:04'", "{hours => 2}", "'12:00'"]) + ")",
        lambda: "Timestamp(" + c(["0", "1.5", "'2016-01-01'", "'2016-01-01T10:00:00 UTC'"]) + ")",
        lambda: "Regexp(" + c(["'a+'", "'.['"]) + ")",
        lambda: "Integer[0, 10](" + c(["'5'", "'50'"]) + ")",
        lambda: "Binary(" + c(["'YWJj'", "[97, 98]", "'abc', '%s'"]) + ")",
        lambda: "URI(" + c(["'http://a.b/c?d#e'", "'urn:x:y'"]) + ")",
        lambda: "Sensitive(" + c(ALL_VALUES[:12]) + ")",
        lambda: "Optional[Integer](" + c(["'3'", "undef"]) + ")",
        lambda: "Tuple[Integer, String](" + c(["[1, 'a']", "[1, 2]"]) + ")",
    ]
    return c(forms)()


def family_types(r: random.Random) -> str:
    v = r.choice(ALL_VALUES)
    t = r.choice(TYPES)
    t2 = r.choice(TYPES)
    return r.choice([f"{v} =~ {t}", f"{t} < {t2}", f"{t} == {t2}", f"{t} >= {t2}",
                     f"{v} =~ Type[{t}]", f"{t}", f"type({t})", f"{v} !~ {t}"])


def family_definitions(r: random.Random) -> str:
    return r.choice([
        "function f(Integer $x, $y = $x + 1) { [$x, $y] } f(1)",
        "function f(Integer $x) { $x } f('a')",
        "function f($x) >> String { $x } f(1)",
        "function f(*$r) { $r } f(1, 2, 3)",
        "function f(String *$r) { $r } f('a', 1)",
        "function f() { return(5) 6 } f()",
        "function f($a, $b) { $a } f(1)",
        "type T = Integer[1, 3] 2 =~ T",
        "type T = Array[T] [[], [[]]] =~ T",
        "type T = Variant[Integer, String] [1 =~ T, 'a' =~ T, [] =~ T]",
        "class c($p = 3) { } include c Class[c][p]",
        "class c { $v = 5 } include c $c::v",
        "define d($m) { } d { 'x': m => 1 } Notify",
        "notify { 'a': message => 'm' } Notify[a][message]",
        "notify { ['a', 'b']: }",
        "$r = file { '/tmp/x': ensure => present } $r",
        "File { mode => '0644' } file { '/tmp/y': } File['/tmp/y'][mode]",
        "@notify { 'v': } realize(Notify['v']) defined(Notify['v'])",
        "include nosuchclass",
        "notify { 'a': } notify { 'a': }",
        "[1, 2].map |$x| >> Integer { $x }",
        "[1].map |String $x| { $x }",
        "with(1, 2) |$a, *$rest| { $rest }",
        "[1, 2, 3].map |$x| { if $x == 2 { next($x * 10) } $x }",
        "[1, 2, 3].each |$x| { if $x == 2 { break() } notice($x) }",
    ])


def family_errors(r: random.Random) -> str:
    return r.choice([
        "1 / 0", "1 % 0", "1.0 / 0", "'a' + 1", "[1] < [2]", "1 =~ /x/", "undef.foo",
        "Integer[2, 1]", "Foo", "Foo[1]", "$x = 1 $x = 2", "1 ? { 2 => 3 }", "[1, 2][1, 2, 3]",
        "'x'[1, 2, 3]", "{}[]" if r.random() < 0 else "{'a' => 1}[1, 2]", "-'a'", "- [1]",
        "9223372036854775807 + 1", "1 << 64", "Timestamp(1) + Timestamp(1)", "break()",
        "next()", "return()", "fail('boom')", "[1,2].each", "3.each |$x| {}",
    ])


RIGHT_MATCH = ["undef", "true", "Timespan(1)", "SemVer('1.0.0')"]


def family_catalog(r: random.Random) -> str:
    """Definitions, logs from scopes, duplicates, aliases as values, reassignment."""
    n = r.choice(["a", "b::c", "x"])
    v = r.choice(["1", "'s'", "[1, 2]", "{'k' => undef}", "Integer", "default", "undef"])
    lvl = r.choice(["notice", "warning", "info", "err", "debug", "alert"])
    return r.choice([
        f"class {n} {{ {lvl}({v}) }} include {n}",
        f"class {n} {{ }} class {n} {{ }}",
        f"define {n} {{ }}\ndefine {n} {{ }}",
        f"class {n} {{ }}\ndefine {n} {{ }}",
        f"define {n} {{ }}\nclass {n} {{ }}",
        "node a { }\nnode a { }",
        "function f() { 1 }\nfunction f() { 2 }",
        "type A = Integer\ntype A = String",
        f"type A = Integer\n[A, {v}]",
        "type A = Array[A]\nA",
        "type A = Variant[A, String]\n['x' =~ A, 1 =~ A, A]",
        "type B = Variant[A, Integer]\ntype A = Variant[B, String]\n['x' =~ A, 1 =~ A, [] =~ A]",
        "type A = B\ntype B = A\n1 =~ A",
        f"$x = {v} $x = 2",
        "$title = 1", "$name = 1", "$facts = 1", "$trusted = {}", "$server_facts = 1",
        f"class {n} {{ $title = 1 }} include {n}",
        f"class {n} {{ $module_name = 1 }} include {n}",
        f"[{v}].each |$x| {{ {lvl}($x) }}",
        f"{lvl}({v}) 1 / 0",
        "$0 = 1 $1 = 2",
        f"{v} + SemVer('1.0.0')",
        f"SemVer('1.0.0') {r.choice(['+', '-', '*', '%', '<<'])} {v}",
        f"{v} {r.choice(['<', '>='])} SemVer('1.0.0')",
        f"[Timespan(1)] - [{r.choice(['1', '1.0', '2'])}]",
        f"[SemVerRange('{r.choice(['1.x', '>=1.2.3', '~2.1', '1.2.3 - 2.0.0'])}')]",
        "notify { 'a': }\nnotify { 'b': ; 'a': }",
        f"[{v}].foo",
        f"{v} =~ {r.choice(RIGHT_MATCH)}",
        f"Regexp('{r.choice(['.[', '(a', 'a)', '*a', 'a{{2,1}}', '[b-a]'])}')",
        f"sort([{v}, 'a'])",
        f"1 + 2; {v}",
    ])


FAMILIES = [
    (family_arithmetic, 300), (family_comparison, 260), (family_logical, 60), (family_in, 100),
    (family_match, 120), (family_match_scopes, 40), (family_access, 220),
    (family_collections, 120), (family_interpolation, 100), (family_heredoc, 40),
    (family_conditionals, 150), (family_variables, 60), (family_lambdas, 200),
    (family_functions, 260), (family_format, 200), (family_conversions, 160),
    (family_types, 200), (family_definitions, 80), (family_errors, 60),
    (family_catalog, 150),
]


def generate(seed: int = 20240611) -> list[dict]:
    """The requests (with a "family" key) in a fixed order; duplicates removed."""
    r = random.Random(seed)
    seen = set()
    out = []
    for fn, n in FAMILIES:
        name = fn.__name__.replace("family_", "")
        made = 0
        tries = 0
        while made < n and tries < n * 20:
            tries += 1
            src = fn(r)
            settings = _strict(r)
            key = (src, settings["strict"], settings["strict_variables"])
            if key in seen:
                continue
            seen.add(key)
            out.append({"src": src, **settings, "family": name})
            made += 1
    return out
