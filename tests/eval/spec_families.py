"""Programs written like real module code, one family per section of the specification.

The older differential generators (differential.py, differential_calls.py) combine tiny
expressions at random; these families instead write what a module author writes: classes with
typed parameters and defaults declared resource-style, defined types, helper functions,
configuration hashes merged and rendered, heredoc and EPP templates, version checks, case and
selector dispatch.  Each program ends in an expression whose value (and inferred type) is
compared with Puppet 7's; a program whose parameters do not fit fails, and the error's issue
code and line are compared.  One family per document of ../shared/spec:

* ``expressions``: Expressions (operators, access, calls, lambdas, conditionals, aliases)
* ``values``: Types, Values and Variables (conversions, formatting, time, SemVer, Binary, ...)
* ``lexical``: Lexical Structure (strings, interpolation, heredoc, regexps, numbers, EPP)
* ``operators``: the 4.6 manual's Expressions and operators
* ``datatypes``: flexible data types (Optional, NotUndef, Variant, Pattern, Enum, Tuple,
  Struct, SemVer, SemVerRange) as class and function parameter types
* ``regressions``: one case per disagreement class of issue 18, kept as they were fixed

Deterministic: the same programs every run (fixed seeds), so the expected answers recorded
from Puppet (fixtures/eval/spec_families.jsonl) stay valid.
"""
from __future__ import annotations

import random

PER_FAMILY = 120

# ---- shared vocabulary -------------------------------------------------------------------------

SERVERS = ["'web01.example.com'", "'db-2.prod.example.org'", "'localhost'", "'cache03'",
           "'api.internal'", "''"]
PORTS = ["80", "443", "8080", "0", "65535", "70000", "'8080'", "-1", "22"]
ALIASES = ["[]", "['www.example.com']", "['a.example.com', 'b.example.com', 'a.example.com']",
           "['Z.example.com', 'y.example.com']", "'www.example.com'", "[1, 2]"]
OPTIONS = ["{}", "{'gzip' => 'on'}", "{'gzip' => 'on', 'keepalive_timeout' => 65}",
           "{'worker_processes' => 'auto', 'gzip' => 'off', 'sendfile' => true}",
           "{'gzip' => undef}", "['gzip']"]
USERS = ["{'alice' => {'uid' => 1001, 'groups' => ['wheel']}, 'bob' => {'uid' => 1002}}",
         "{'carol' => {'uid' => 1003, 'groups' => ['dev', 'ops'], 'shell' => '/bin/zsh'}}",
         "{}", "{'dave' => {'uid' => '1004'}}",
         "{'erin' => {'uid' => 1005, 'ensure' => 'absent'}, 'frank' => {'uid' => 99}}"]
VERSIONS = ["'1.2.3'", "'2.0.0'", "'1.10.0-rc.1'", "'0.9.12'", "'3.1.0+build.7'", "'1.2'",
            "'v2.4.1'", "'1.0.0-beta'"]
ENSURES = ["'present'", "'absent'", "'running'", "'stopped'", "'latest'", "'installed'",
           "true", "undef"]


def _pick(r: random.Random, xs: list) -> str:
    return xs[r.randrange(len(xs))]


# ---- expressions (spec 000) ------------------------------------------------------------------

def _expr_vhost(r: random.Random) -> str:
    return f"""class nginx::vhost (
  String $server_name = 'example.com',
  Integer[1, 65535] $port = 80,
  Array[String] $aliases = [],
  Hash[String, Any] $options = {{}},
) {{
  $listen = "${{server_name}}:${{port}}"
  $names = ([$server_name] + $aliases).unique.sort
  $directives = $options.filter |$k, $v| {{ $v =~ NotUndef }}.map |$k, $v| {{ "${{k}} ${{v}};" }}
}}
class {{ 'nginx::vhost':
  server_name => {_pick(r, SERVERS)},
  port        => {_pick(r, PORTS)},
  aliases     => {_pick(r, ALIASES)},
  options     => {_pick(r, OPTIONS)},
}}
{_pick(r, ['[$nginx::vhost::listen, $nginx::vhost::names]', '$nginx::vhost::directives',
           '$nginx::vhost::names.length', '"${nginx::vhost::listen} ${nginx::vhost::directives}"'])}
"""


def _expr_users(r: random.Random) -> str:
    return f"""$users = {_pick(r, USERS)}
$defaults = {{ 'shell' => '/bin/bash', 'groups' => [], 'ensure' => 'present' }}
$accounts = $users.reduce({{}}) |$memo, $pair| {{
  [$name, $attrs] = $pair
  $memo + {{ $name => $defaults + $attrs }}
}}
$present = $accounts.filter |$n, $a| {{ $a['ensure'] == 'present' }}
{_pick(r, ['$accounts', '$present.keys.sort', "$accounts.map |$n, $a| { $a['uid'] }",
           "$present.reduce(0) |$sum, $p| { $sum + $p[1]['uid'] }",
           "$accounts.map |$n, $a| { $a['groups'].length }.max",
           "$accounts.keys.sort.join(',')"])}
"""


def _expr_case(r: random.Random) -> str:
    osf = _pick(r, ["'Debian'", "'RedHat'", "'windows'", "'Archlinux'", "'SLES'", "undef",
                    "'Ubuntu'"])
    major = _pick(r, ["'11'", "'8'", "'2019'", "10", "'7'"])
    return f"""function mymod::package_name(Optional[String] $family, Variant[String, Integer] $major) >> String {{
  case $family {{
    'Debian', 'Ubuntu': {{ "apache2-${{major}}" }}
    /^(RedHat|CentOS)$/: {{ "httpd-${{1}}-${{major}}" }}
    'windows': {{ 'Apache24' }}
    undef: {{ 'unknown' }}
    default: {{ fail("Unsupported osfamily ${{family}}") }}
  }}
}}
$family = {osf}
$service = $family ? {{
  'windows' => 'Apache2.4',
  /Debian|Ubuntu/ => 'apache2',
  default => 'httpd',
}}
{_pick(r, [f"mymod::package_name($family, {major})", "$service",
           f"[mymod::package_name($family, {major}), $service]",
           f"mymod::package_name($family, {major}).upcase"])}
"""


def _expr_access(r: random.Random) -> str:
    data = _pick(r, ["{'db' => {'host' => 'db1', 'port' => 5432, 'replicas' => ['db2', 'db3']}}",
                     "{'db' => {'host' => 'db1'}}", "{'cache' => {}}", "{}",
                     "{'db' => ['x']}"])
    path = _pick(r, ["$conf['db']['host']", "$conf['db']['replicas'][-1]",
                     "$conf['db']['replicas'][0, 1]", "$conf.dig('db', 'port')",
                     "$conf.dig('db', 'replicas', 5)", "$conf['db']['port'] + 1",
                     "$conf.get('db.replicas.1')", "$conf['db'].keys",
                     "$conf['missing']['host']", "\"${conf['db']['host']}:${conf['db']['port']}\"",
                     "$conf['db']['host'][0, 2]", "$conf.get('db.port') |$e| { 1 }"])
    return f"$conf = {data}\n{path}\n"


def _expr_lambda(r: random.Random) -> str:
    coll = _pick(r, ["[3, 1, 2]", "['b', 'a', 'c']", "{'x' => 1, 'y' => 2}", "[]", "[[1, 'a'], [2, 'b']]",
                     "Integer[1, 5]", "'abc'", "5"])
    call = _pick(r, [
        "$c.map |$i, $v| { [$i, $v] }",
        "$c.each |$v| { notice($v) }",
        "$c.filter |$v| { $v =~ Integer and $v > 1 }",
        "$c.reduce |$a, $b| { $a + $b }",
        "$c.sort",
        "$c.with |$x| { $x.length }",
        "$c.map |$v| { if $v =~ Integer { $v * 2 } else { $v } }",
        "$c.any |$v| { $v == 2 }",
        "$c.all |$v| { $v =~ Scalar }",
        "$c.index |$v| { $v == 'c' }",
        "$c.map |$v| { next() if $v == 1; $v }",
        "$c.reverse_each.map |$v| { $v }",
        "$c.slice(2).map |$p| { $p }",
        "$c.group_by |$v| { $v =~ Integer }",
    ])
    return f"$c = {coll}\n{call}\n"


def _expr_alias(r: random.Random) -> str:
    alias = _pick(r, ["Variant[Integer[0], Pattern[/^\\d+$/]]", "Enum['on', 'off']",
                      "Struct[{host => String, Optional[port] => Integer}]",
                      "Array[Mymod::Port, 1]", "Optional[String[1]]", "Tuple[String, Integer]"])
    value = _pick(r, ["8080", "'8080'", "'on'", "{'host' => 'a'}", "{'host' => 'a', 'port' => 'x'}",
                      "[80, 443]", "[]", "undef", "['a', 1]", "-1", "''"])
    tail = _pick(r, [f"{value} =~ Mymod::Setting", f"mymod::check({value})",
                     f"assert_type(Mymod::Setting, {value}) |$e, $a| {{ \"bad: ${{a}}\" }}",
                     "Mymod::Setting", f"[{value}].filter |$v| {{ $v =~ Mymod::Setting }}"])
    return f"""type Mymod::Port = Integer[1, 65535]
type Mymod::Setting = {alias}
function mymod::check(Mymod::Setting $s) {{ $s }}
{tail}
"""


def _expr_define(r: random.Random) -> str:
    title = _pick(r, ["'app'", "'my app'", "'/srv/app'", "['a', 'b']"])
    mode = _pick(r, ["'0644'", "'0755'", "644", "undef"])
    return f"""define mymod::config_file(
  String $content,
  Pattern[/^0[0-7]{{3}}$/] $mode = '0644',
  Enum['present', 'absent'] $ensure = 'present',
) {{
  file {{ "/etc/mymod/${{title}}.conf":
    ensure  => $ensure ? {{ 'present' => 'file', default => 'absent' }},
    content => $content,
    mode    => $mode,
  }}
}}
mymod::config_file {{ {title}:
  content => "setting = 1\\n",
  mode    => {mode},
}}
{_pick(r, ["Mymod::Config_file[" + title + "]", "defined(Mymod::Config_file[" + title + "])",
           "'done'"])}
"""


def _expr_classes(r: random.Random) -> str:
    order = _pick(r, ["$port = 8080, $url = \"http://${host}:${port}\"",
                      "$url = \"http://${host}:${port}\", $port = 8080",
                      "$port = 8080, $url = [80].map |$port| { \"${host}:${port}\" }"])
    decl = _pick(r, ["include app", "class { 'app': }", "class { 'app': port => 9090 }",
                     "class { 'app': host => 'h' }", "include app\ninclude app",
                     "include app\nclass { 'app': }", "class { 'app': nope => 1 }"])
    return f"""class app::params {{
  $host = 'localhost'
}}
class app (
  String $host = $app::params::host,
  {order},
) inherits app::params {{
  $summary = "${{host}} ${{port}}"
}}
{decl}
{_pick(r, ['$app::url', '$app::summary', '[$app::host, $app::port]', "defined(Class['app'])"])}
"""


_EXPRESSIONS = [_expr_vhost, _expr_users, _expr_case, _expr_access, _expr_lambda, _expr_alias,
                _expr_define, _expr_classes]


# ---- values, types and variables (spec 001) -------------------------------------------------

def _val_conversion(r: random.Random) -> str:
    v = _pick(r, ["'42'", "'0x1F'", "'017'", "'3.25'", "'1e3'", "' 7 '", "'abc'", "true", "4.7",
                  "-4.7", "'0b101'", "''", "undef", "[1, '2']"])
    conv = _pick(r, ["Integer($v)", "Float($v)", "Numeric($v)", "String($v)", "Boolean($v)",
                     "Integer($v, 8)", "Integer($v, 16)", "Array($v)", "Array($v, true)",
                     "Integer($v) |$x| { -1 }", "Optional[Integer]($v)"])
    return f"$v = {v}\n{conv}\n"


def _val_format(r: random.Random) -> str:
    v = _pick(r, ["1234", "-42", "3.14159", "'text'", "[1, 'two', 3.0]", "{'a' => 1, 'b' => [2]}",
                  "true", "undef", "255", "1e20", "0.000123", "1234567.891"])
    fmt = _pick(r, ["'%d'", "'%05d'", "'%x'", "'%#o'", "'%.2f'", "'%e'", "'%s'", "'%p'",
                    "'%10s'", "'%-10s|'", "'%#x'", "'%b'", "'%+d'", "'%.3g'",
                    "{Array => '%(a)', Integer => '%#x'}", "'%q'", "'%u'"])
    how = _pick(r, ["String($v, {fmt})", "sprintf({fmt}, $v)"]) if not fmt.startswith("{") \
        else "String($v, {fmt})"
    return f"$v = {v}\n" + how.format(fmt=fmt) + "\n"


def _val_sprintf(r: random.Random) -> str:
    return _pick(r, [
        "$h = {'host' => 'db1', 'port' => 5432}\nsprintf('%<host>s:%<port>d', $h)",
        "sprintf('%{name} is %{state}', {'name' => 'nginx', 'state' => 'running'})",
        "sprintf('%2$s-%1$s', 'a', 'b')",
        "sprintf('%-8s|%8s|', 'left', 'right')",
        "sprintf('%03d.%03d', 7, 42)",
        "sprintf('%.1f%%', 99.44)",
        "sprintf('%s', 'x', 'extra')",
        "sprintf('%d', 'nope')",
        "sprintf('%5.1s|', 'abc')",
        "sprintf('%c%c', 72, 'i')",
        "sprintf('%{a}', 'not a hash')",
        "sprintf('%08.3f', -3.14159)",
        "['a', 'b'].map |$i, $x| { sprintf('%d=%s', $i, $x) }.join(' ')",
        "sprintf('%#b %#o %#X', 5, 8, 255)",
        "sprintf('%x', -255)",
        "sprintf('%+5d|% d', 3, 4)",
    ]) + "\n"


def _val_time(r: random.Random) -> str:
    return _pick(r, [
        # (a Timespan inside an array prints as a Ruby object in Puppet: each one on its own)
        "$t = Timespan({'hours' => 1, 'minutes' => 30})\n$t + Timespan(60)",
        "Timespan('1-02:03:04').strftime('%D days %H:%M')",
        "Timestamp('2024-02-29T12:00:00Z').strftime('%Y-%m-%d %A')",
        "Timestamp('2024-02-29T12:00:00Z') + 86400",
        "Timestamp('2021-01-01T00:00:00Z') - Timestamp('2020-01-01T00:00:00Z')",
        "Timespan(3600) > Timespan(60)",
        "Timestamp('2024-13-01')",
        "Timespan({'days' => -1})",
        "Timestamp('2024-02-29T12:00:00Z').strftime('%j %U %W %u %w')",
        "Timespan(90061.5).strftime('%D:%H:%M:%S.%L')",
        "Timestamp('2020-06-01T10:00:00+02:00')",
        "Timestamp('2024-02-29T23:59:59Z').strftime('%b %e %l%P %#p %^a')",
        "Timespan('10:00') * 2",
        "Integer(Timespan('00:01:00'))",
    ]) + "\n"


def _val_semver(r: random.Random) -> str:
    a, b = _pick(r, VERSIONS), _pick(r, VERSIONS)
    rng = _pick(r, ["'>=1.2.0 <2.0.0'", "'~1.2'", "'1.x'", "'^1.2.3'", "'>=2.0.0'", "'1.2.3 - 2.0.0'",
                    "'< 1.0.0 || >= 3.0.0'", "'bogus'"])
    expr = _pick(r, [f"SemVer({a}) < SemVer({b})", f"SemVer({a}) =~ SemVerRange({rng})",
                     f"SemVer({a})", f"[SemVer({a}), SemVer({b})].sort", f"SemVerRange({rng})",
                     f"SemVer({a}).major + SemVer({b}).minor",
                     f"{a} =~ SemVer", f"SemVer({a}) == SemVer({b})",
                     f"case SemVer({a}) {{ SemVerRange({rng}): {{ 'in' }} default: {{ 'out' }} }}"])
    return expr + "\n"


def _val_misc(r: random.Random) -> str:
    return _pick(r, [
        "$secret = Sensitive('hunter2')\n[$secret, $secret.unwrap.length]",
        "Sensitive('x') =~ Sensitive[String]",
        "Binary('aGVsbG8=')",
        "String(Binary('hello', '%r'), '%s')",
        "Binary('aGVsbG8=').length",
        "URI('https://user@example.com:8443/path?q=1#frag')",
        "URI('https://example.com/a')['host']",
        "type(Deferred('vault_lookup', ['secret/db']))",
        "Deferred('vault_lookup', ['secret/db'])",
        "type([1, 'a', undef], 'generalized')",
        "type({'a' => [1, 2.0]})",
        "type(Integer[1, 3])",
        "[Integer[1, 3] < Integer, Integer <= Numeric, String > Enum['a']]",
        "Variant[Integer, String] == Variant[String, Integer]",
        "Hash[String, Integer].new({'a' => 1})",
        "Array[Integer].new('3')",
        "Tuple[Integer, String].new([1, 'x'])",
        "Struct[{a => Integer}].new({'a' => '1'})",
        "$x = 10\n$y = $x * 2\n[$x, $y, $z]",
        "$::osfamily",
        "[$title, $name, $module_name]",
        "$trusted",
        "$server_facts",
    ]) + "\n"


_VALUES = [_val_conversion, _val_format, _val_sprintf, _val_time, _val_semver, _val_misc]


# ---- lexical structure (spec 002) -------------------------------------------------------------

def _lex_heredoc(r: random.Random) -> str:
    flags = _pick(r, ["", ":json", "/t", "/n", "/$", "/L", "/ts", "/tnrsu$L"])
    quoted = _pick(r, ['"END"', "END"])
    margin = _pick(r, ["  | ", "  |- ", "  ", "- "])
    return f"""$port = {_pick(r, PORTS[:4])}
$hosts = ['a', 'b']
$conf = @({quoted}{flags})
  # managed by Puppet
  listen ${{port}};
  upstream {{ ${{hosts.join(' ')}} }}
  path\\tC:\\\\temp \\$HOME
  \\u{{263A}} done
{margin}END
$conf
"""


def _lex_strings(r: random.Random) -> str:
    return _pick(r, [
        "$user = 'deploy'\n\"/home/${user}/.ssh\"",
        "$h = {'k' => 'v'}\n\"value=${h['k']} count=${h.length}\"",
        "$a = [1, 2]\n\"list: ${a} first: $a[0] \\$ literal\"",
        "'single \\'quoted\\' \\\\ and \\n stays'",
        "\"tab\\tnewline\\nquote\\\" unicode \\u00e9 \\u{1F600}\"",
        "$x = 5\n\"${x + 1} ${x * 2} ${[1, 2].map |$v| { $v + $x }}\"",
        "$name = 'web'\n\"${name}01.${name}.example.com\"",
        "\"unknown escape \\q kept\"",
        "$v = undef\n\"[${v}]\"",
        "\"${facts['os']['family']}\"",
        "$s = 'abc'\n\"${s.upcase}-${s[1]}\"",
        "\"nested ${\"inner ${1 + 1}\"}\"",
        "$w = 'x'\n\"$w-$w.$w\"",
        "\"dollar at end $\"",
        "\"brace } and ${'{'}\"",
        "$ns::v = 1",
        "$m = 'a'\n\"${::m}\"",
        "\"a \\\nb\"",
    ]) + "\n"


def _lex_regexp(r: random.Random) -> str:
    host = _pick(r, ["'web01.prod.example.com'", "'db-2.staging'", "'localhost'", "'API.example.com'",
                     "'node_7.example.org'", "''"])
    rx = _pick(r, ["/^(\\w+?)(\\d+)\\.(\\w+)\\./", "/^(?<role>[a-z]+)-?(?<num>\\d*)/",
                   "/\\.example\\.(com|org)$/", "/(?i)^api/", "/^[[:alpha:]]+$/", "/\\A\\w+\\z/",
                   "/^(?:web|db)/", "/[^.]+/", "/\\//", "/(\\d)\\1/", "/^\\p{Alpha}+/"])
    tail = _pick(r, ["$0", "[$0, $1, $2]", "'matched'", "$role", "$1.upcase"])
    return _pick(r, [
        f"if {host} =~ {rx} {{ {tail} }} else {{ 'nomatch' }}",
        f"{host}.match({rx})",
        f"regsubst({host}, {rx}, 'X')",
        f"regsubst({host}, {rx}, '<\\0>', 'G')",
        f"{host}.split(/\\./)",
        f"[{host}].grep({rx})",
        f"case {host} {{ {rx}: {{ 'yes' }} default: {{ 'no' }} }}",
        f"{host} ? {{ {rx} => \"m:${{0}}\", default => 'none' }}",
        f"Regexp({rx.replace('/', chr(39), 1)[:-1] + chr(39)})" if "'" not in rx else "Regexp('a+')",
        f"{host} =~ Pattern[{rx}, /^x/]",
    ]) + "\n"


def _lex_numbers(r: random.Random) -> str:
    return _pick(r, [
        "[0x1F, 0X1f, 017, 0, 0.5, 1e3, 1.5e-3, 10E2]",
        "$mode = 0755\n$mode",
        "[1_000]", "[0x]", "[08]", "[1.]", "[.5]", "[1e]", "[0.5.5]", "[3g]",
        "9223372036854775807 + 1",
        "-9223372036854775808",
        "[1e15, 1.5e15, 1e16, 123456789012345.6, 1e-4, 1e-5, 0.1 + 0.2]",
        "[2.0 * 3, 7 / 2, 7.0 / 2, 7 % 3, -7 % 3, -7 / 2]",
        "1e400",
        "[0.1e1, 5e0, 1E+2]",
        "[0xFF.length, 1.5.floor, 3.7.round]",
    ]) + "\n"


def _lex_names(r: random.Random) -> str:
    return _pick(r, [
        "class mymod::sub::klass { $v = 1 }\ninclude mymod::sub::klass\n$mymod::sub::klass::v",
        "class Mymod { }", "class mymod::Sub { }", "class ::mymod { }",
        "$Foo = 1", "$_private = 2\n$_private", "$a::b::c",
        "$x = Foo::bar", "$x = Foo::Bar", "notice(Foo::)",
        "define my-type() {}", "function mymod::f() { 1 }\nmymod::f()",
        "class a { } class a::b inherits a { } include a::b\ndefined(Class['a'])",
        "/* unclosed comment\n$x = 1", "# comment only",
        "$x = 1 # trailing comment\n$x",
        "/* block */ $y = /* inline */ 2\n$y",
        "'unclosed", "\"unclosed ${x}",
        "$x = @(END\ntext\nEND", "$x = @(END)\ntext\n",
        "$ = 1", "$x = `ls`", "$x = 1; $x = 2 }", "unless true { } elsif false { }",
        "class { }", "Foo[1]::Bar",
    ]) + "\n"


def _lex_epp(r: random.Random) -> str:
    params = _pick(r, ["{'port' => 80, 'hosts' => ['a', 'b']}", "{'port' => 8080}", "{}",
                       "{'port' => 'x', 'hosts' => []}"])
    return _pick(r, [
        "inline_epp(\"<%- | Integer $port = 80, Array $hosts = [] | -%>\\nlisten <%= $port %>\\n"
        "<% $hosts.each |$h| { -%>\\nserver <%= $h %>;\\n<% } -%>\\n\", " + params + ")",
        f"inline_epp('<%# comment %>port=<%= $port %>', {params})",
        f"inline_epp('<%= $port -%>\\n  x <%% literal %%>', {params})",
        "inline_epp('<% $x = 2 -%><%= $x * 3 %>')",
        "inline_epp('<%= 1 + %>')",
        "inline_epp('a <%- \"trim\" -%> b')",
        f"inline_epp(\"<%- |$port| -%><%= $port %>\", {params})",
    ]) + "\n"


_LEXICAL = [_lex_heredoc, _lex_strings, _lex_regexp, _lex_numbers, _lex_names, _lex_epp]


# ---- operators (spec 003, the 4.6 manual) -----------------------------------------------------

def _op_arith(r: random.Random) -> str:
    a = _pick(r, ["$facts_mem", "1024", "'512'", "2.5", "undef", "[1]", "'0x10'", "'1e2'", "-3"])
    b = _pick(r, ["2", "0", "'4'", "1.5", "3", "-1", "'x'"])
    op = _pick(r, ["+", "-", "*", "/", "%", "<<", ">>"])
    return f"$facts_mem = 2048\n$r = {a} {op} {b}\n$r\n"


def _op_compare(r: random.Random) -> str:
    a = _pick(r, ["'Debian'", "'debian'", "10", "'10'", "10.0", "[1, 2]", "{'a' => 1}", "undef",
                  "true", "'abc'", "Integer", "SemVer('1.2.3')", "default"])
    b = _pick(r, ["'DEBIAN'", "'10'", "9", "[1, 2]", "{'a' => 1}", "undef", "'abd'", "1",
                  "Numeric", "SemVer('1.3.0')", "default", "'1.2.3'"])
    op = _pick(r, ["==", "!=", "<", ">", "<=", ">="])
    return f"{a} {op} {b}\n"


def _op_logic(r: random.Random) -> str:
    a = _pick(r, ["$enabled", "!$enabled", "$count > 0", "$name =~ /web/", "$list.empty",
                  "'' == $name", "undef", "$hash['k']"])
    b = _pick(r, ["$count < 10", "$name in ['web', 'db']", "'web' in $name", "!$list.empty",
                  "$hash =~ Hash[String, Integer]", "1 in $list", "'K' in $hash", "true"])
    op = _pick(r, ["and", "or"])
    return f"""$enabled = {_pick(r, ['true', 'false', "'yes'", 'undef', '0', "''"])}
$count = {_pick(r, ['0', '5', '12'])}
$name = {_pick(r, ["'web01'", "'db'", "''"])}
$list = {_pick(r, ['[]', '[1, 2]', "['web']"])}
$hash = {_pick(r, ["{'k' => 1}", '{}', "{'K' => 'v'}"])}
{a} {op} {b}
"""


def _op_collections(r: random.Random) -> str:
    a = _pick(r, ["['a', 'b']", "{'a' => 1}", "[1, [2, 3]]", "[]", "{}"])
    b = _pick(r, ["['b', 'c']", "{'b' => 2, 'a' => 0}", "[[2, 3]]", "'c'", "{'a' => 1}",
                  "['a', 'a']", "[1]", "1"])
    op = _pick(r, ["+", "-", "<<", "in", "=="])
    return f"$a = {a}\n$b = {b}\n$a {op} $b\n"


def _op_splat(r: random.Random) -> str:
    return _pick(r, [
        "$args = ['%s-%s', 'a', 'b']\nsprintf(*$args)",
        "$opts = {'ensure' => 'file', 'mode' => '0644'}\nfile { '/tmp/x': * => $opts }\nFile['/tmp/x']",
        "$v = 2\ncase $v { *[1, 2, 3]: { 'small' } default: { 'big' } }",
        "$v = 'b'\n$v ? { *['a', 'b'] => 'ab', default => 'other' }",
        "[*[1, 2], 3]",
        "[1, 2].with |*$rest| { $rest }",
        "function f($a, *$rest) { [$a, $rest] }\nf(1, 2, 3)",
        "$x = [1, 2]\n$y = [*$x, *$x]\n$y",
        "notice(*'a')",
    ]) + "\n"


def _op_selector(r: random.Random) -> str:
    v = _pick(r, ["'RedHat'", "'Debian'", "8", "'8'", "undef", "'windows'", "[1]"])
    return f"""$v = {v}
$pkg = $v ? {{
  'RedHat'          => 'httpd',
  /^(Debian|Ubuntu)$/ => 'apache2',
  Integer           => "int-${{v}}",
  undef             => 'none',
  default           => 'other',
}}
$pkg
"""


def _op_relationship(r: random.Random) -> str:
    return _pick(r, [
        "package { 'ntp': }\nservice { 'ntp': }\nPackage['ntp'] -> Service['ntp']",
        "notify { 'a': } -> notify { 'b': }",
        "1 -> 2", "[1] ~> Notify['x']", "'x' -> 1",
        "notify { 'a': }\nNotify['a'] <- Notify['missing']",
        "Package <| title == 'ntp' |> -> Service['ntp']",
    ]) + "\n"


_OPERATORS = [_op_arith, _op_compare, _op_logic, _op_collections, _op_splat, _op_selector,
              _op_relationship]


# ---- flexible data types (spec 004) -----------------------------------------------------------

_DT_TYPES = [
    "Optional[String[1]]", "NotUndef[String]", "Variant[Integer, Enum['auto']]",
    "Pattern[/^\\d+[kmg]?$/]", "Enum['present', 'absent', 'latest']", "Enum[present, absent]",
    "Tuple[String, Integer[0, 65535]]", "Tuple[String, Integer, 1, 3]",
    "Struct[{ensure => Enum[present, absent], Optional[uid] => Integer}]",
    "Struct[{name => String, NotUndef[mode] => String}]", "SemVer[SemVerRange('>=1.0.0 <2.0.0')]",
    "SemVerRange", "Optional[Array[String, 1]]", "Variant[Undef, Hash[String, Data]]",
    "Hash[Pattern[/^[a-z_]+$/], Scalar, 1]", "Array[Variant[String, Integer], 2, 2]",
    "Optional[Struct[{Optional[a] => Integer}]]", "Enum", "Pattern", "Variant[Enum[a], Pattern[/^b/]]",
]
_DT_VALUES = ["undef", "''", "'x'", "'512m'", "'auto'", "42", "'present'", "'Present'",
              "['web', 8080]", "['web', 70000]", "['a']", "{'ensure' => 'present'}",
              "{'ensure' => 'present', 'uid' => 'x'}", "{'name' => 'a', 'mode' => undef}",
              "SemVer('1.4.0')", "SemVer('2.0.0')", "SemVerRange('~1.2')", "[]", "['a', 'b']",
              "{'key_one' => 1}", "{'Key' => 1}", "{'a' => [1, {'b' => 2.5}]}", "[1, 'a']",
              "{}", "'b2'", "default"]


def _dt_param(r: random.Random) -> str:
    t, v = _pick(r, _DT_TYPES), _pick(r, _DT_VALUES)
    return _pick(r, [
        f"class mymod::setting({t} $value) {{ }}\nclass {{ 'mymod::setting': value => {v} }}\n$mymod::setting::value",
        f"function mymod::accept({t} $value) {{ $value }}\nmymod::accept({v})",
        f"{v} =~ {t}",
        f"assert_type({t}, {v})",
        f"[{v}, 1].filter |$e| {{ $e =~ {t} }}",
        f"define mymod::res({t} $value) {{ }}\nmymod::res {{ 'r': value => {v} }}\n'declared'",
        f"{t}",
        f"type({t})",
        f"{t} == {t}",
    ]) + "\n"


def _dt_assignable(r: random.Random) -> str:
    a, b = _pick(r, _DT_TYPES), _pick(r, _DT_TYPES)
    return _pick(r, [f"{a} <= {b}", f"{a} >= {b}", f"{b} =~ Type[{a}]", f"[{a}, {b}]"]) + "\n"


_DATATYPES = [_dt_param, _dt_param, _dt_assignable]


# ---- regressions: one case per class of issue 18 --------------------------------------------

REGRESSIONS = [
    "sprintf('%{a}-%{b}', {a => 1, b => 2})", "sprintf('%{a}', {a => 1})", "sprintf('%<a>s', {a => 1})",
    "sprintf('%2$s %1$s', 'a', 'b')", "sprintf('%1$s %s', 'a', 'b')", "sprintf('%5{a}|', {a => 1})",
    "sprintf('%{zz}', {a => 1})", "sprintf('abc%')", "sprintf('%5%')", "sprintf('%c', 'hello')",
    "sprintf('%#o', -8)", "sprintf('%08o', -8)", "sprintf('%#08x', -255)", "sprintf('%.5o', -8)",
    "class foo(Integer $p) {}\nclass { 'foo': p => 'x' }",
    "class foo(Integer $p) {}\n\nclass { 'foo':\n  q => 1,\n}",
    "type Foo = NoSuchType\n1 =~ Foo", "type Foo = Array[NoSuchType]\nFoo",
    "type Foo = NoSuchType\nfunction f(Foo $x) { $x }\nf(1)",
    "type Point = Object[{attributes => {x => Integer, y => {type => Integer, value => 0}}}]\nPoint.new(1, 0)",
    "type Point = Object[{attributes => {x => Integer, y => {type => Integer, value => 0}}}]\n[Point.new(1, 2), Point.new(3)]",
    "[1e15, 1.5e15, 9999999999999998.0, 1234567890123456.7]", "'ß'.capitalize", "'ǆa'.capitalize",
    "Timestamp('2020-01-01T13:00:00Z').strftime('%#b %v %+ %#p %#Z %^c')",
    "SemVer('1.0.0-01')", "SemVerRange('>=1.0.0-01')", "SemVer('1.0.0-0a')",
    "Unit", "type Unit = Integer\n1 =~ Unit", "'x' =~ Enum", "assert_type(Enum, 'x')",
    "type A = Integer\n{a => 1}\n'after'", "type A = Integer {}\nA",
    "type A = Object {attributes => {x => Integer}}\nA.new(3)",
    "type A = Integer {a => 1}\n1 =~ A",
    "'fooo' =~ /(?>foo|fo)o/", "'fooo' =~ /fo++o/", "'ÄB' =~ /^[[:upper:]]+$/", "'é' =~ /^\\w$/",
    "'é' =~ /^[[:alpha:]]$/", "'a b' =~ /\\h/", "'١' =~ /\\d/", "'é' =~ /[[:word:]]/",
    "\"a \\\nb\"", "09.5", "$x = 0x1g", "$x = 1.5e", "$x = 0b101", "$x = 4.3g", "$x = 0.5.5",
    "$x = Foo::bar", "/* abc", "'abc", "\"abc", "$x = @(END\nabc\nEND", "$x = @()\nabc\n|-\n",
    "$x = $", "$x = 1; $x = 2 }", "unless true { } elsif false { }", "$x = 1 -> 2",
    "case 1 { }", "{1 => 'a', 1.0 => 'b'}", "{true => 'a', 1 => 'b'}",
    # found by the families themselves
    "class a($y = $x, $x = 1) { }\ninclude a\n$a::y", "class a($y = $x, $x = 1) { }\nclass { 'a': x => 2 }\n$a::y",
    "function f($y = $x, $x = 1) { $y }\nf()", "$x = 1\n{'a' => 1} =~ Hash", "$x = 1;\n{'a' => 1} =~ Hash",
    "type([1, 'a', undef], 'generalized')", "notify { 'a': } -> notify { 'b': }", "Deferred",
    "inline_epp('a <%- \"trim\" -%> b')", "class ::mymod { }", "class { }", "class mymod::Sub { }",
]


FAMILIES = {
    "expressions": _EXPRESSIONS,
    "values": _VALUES,
    "lexical": _LEXICAL,
    "operators": _OPERATORS,
    "datatypes": _DATATYPES,
}


def _settings(r: random.Random) -> dict:
    # mostly `puppet apply` defaults (Puppet 7), some Puppet 8 strictness
    if r.random() < 0.75:
        return {"strict": "warning", "strict_variables": False}
    return {"strict": "error", "strict_variables": True}


def generate() -> list[dict]:
    """Every program of every family: ``{"family", "src", "strict", "strict_variables"}``.
    Duplicates within a family are dropped (the templates' choices can coincide)."""
    out: list[dict] = []
    for seed, (family, builders) in enumerate(FAMILIES.items()):
        r = random.Random(18_000 + seed)
        seen: set = set()
        tries = 0
        while len(seen) < PER_FAMILY and tries < PER_FAMILY * 40:
            tries += 1
            src = builders[r.randrange(len(builders))](r)
            if src in seen:
                continue
            seen.add(src)
            out.append({"family": family, "src": src, **_settings(r)})
    for src in REGRESSIONS:
        out.append({"family": "regressions", "src": src, "strict": "warning",
                    "strict_variables": False})
    return out
