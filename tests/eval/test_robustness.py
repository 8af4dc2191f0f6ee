"""No input may raise out of the evaluator's API; runaway code stops with a clear error;
the sandbox refuses the outside world.
"""
from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puppet_ls.language.eval import Budget, compile_catalog, evaluate_text, run_request

TRICKY = [
    "", " ", "\n", "$", "${", '"${', "@(END)", "@(END)\nx\nEND", "[" * 500 + "]" * 500,
    "(" * 300 + "1" + ")" * 300, "{" * 200, "1 +", "case", "class {", "node default {",
    "function f($x) { f($x) } f(1)", "[1].map |$x| { [1].map |$y| { f() } }",
    "$a = $a", "type T = T 1 =~ T", "type A = B type B = A 1 =~ A", "1 << 100000",
    "18446744073709551616", "'\\", "/\\/", "\x00\x01", "\ufeffnotice(1)", "<%= 1 %>",
    "Integer[1, 10000000000].each |$x| { }", "Integer[1, 10000000000].map |$x| { $x }",
    "$x = [] $x[0] = 1", "define d { d { 'x': } } d { 'y': }", "class c { include c } include c",
    "String(1, '%')", "sprintf('%*d', 1000000000, 1)", "'x' * 1000000000",
    "[1] * 3", "Timespan('abc')", "Timestamp('9999999-01-01')", "SemVerRange('>>')",
    "Binary('!!!')", "URI('::::')", "Regexp('(')", "'a' =~ '('", "split('a', '(')",
    "{[1] => 2}[[1]]", "{{a => 1} => 2}", "Sensitive(Sensitive(1))", "new(Integer, '1')",
    "Deferred('f', [1])", "inline_epp('<%= $x')", "inline_epp('<% [1].each |$x| { %>a<% } %>')",
]


@pytest.mark.parametrize("src", TRICKY)
def test_tricky_inputs_never_raise(src):
    t = time.monotonic()
    r = run_request({"src": src, "timeout": 5, "max_steps": 100_000})
    assert isinstance(r, dict) and "ok" in r
    if not r["ok"]:
        assert r["error"]["message"]
        assert "Internal error" not in r["error"]["message"], r["error"]["message"]
    assert time.monotonic() - t < 20
    res = compile_catalog(src, budget=Budget(steps=100_000, seconds=5))
    assert res.ok or res.error is not None


PUPPETISH = st.lists(st.sampled_from(list("$abcxyz019 {}[]()=>,:;'\"|*+-/%<!~.?@\n") +
                                     ["if ", "case ", "notice(", "Integer", "=~", "::", "undef",
                                      "default", "$x", "[1, 2]", "|$v|", ".map", "=>"]),
                     max_size=40).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PUPPETISH)
def test_random_text_never_raises(src):
    r = run_request({"src": src, "max_steps": 20_000, "timeout": 2})
    assert isinstance(r, dict) and "ok" in r
    if not r["ok"]:
        assert "Internal error" not in r["error"]["message"], (src, r["error"]["message"])


def test_budget_stops_runaway_iteration():
    res = evaluate_text("Integer[1, 10000000000].each |$x| { }", budget=Budget(steps=50_000))
    assert not res.ok
    assert res.error.code == "EVAL_BUDGET_EXCEEDED"
    assert res.diagnostics and res.diagnostics[-1].code == "EVAL_BUDGET_EXCEEDED"


def test_time_budget():
    t = time.monotonic()
    res = evaluate_text("Integer[1, 10000000000].each |$x| { }", budget=Budget(steps=None, seconds=0.5))
    assert not res.ok and res.error.code == "EVAL_TIMEOUT"
    assert time.monotonic() - t < 5


def test_recursion_limit_is_an_error_not_a_crash():
    res = evaluate_text("function f($x) { f($x + 1) } f(1)")
    assert not res.ok and res.error.code == "EVAL_RECURSION_LIMIT"
    res = evaluate_text("function f($x) { if $x > 0 { f($x - 1) } else { 'done' } } f(200)")
    assert res.ok and res.value == "done"


@pytest.mark.parametrize("call", ["file('/etc/passwd')", "generate('/bin/ls')", "lookup('x')",
                                  "template('m/x.erb')", "hiera('x')", "find_file('x')",
                                  "binary_file('/etc/hosts')", "epp('m/x.epp')"])
def test_sandbox_refuses_outside_world(call):
    res = evaluate_text(call)
    assert not res.ok
    assert res.error.code == "NOT_AVAILABLE_IN_SANDBOX"
    assert "not available in this context" in res.error.message


def test_error_has_range_and_issue_code():
    src = "$x = 1\n$y = $x / 0\n"
    res = evaluate_text(src)
    assert res.error.code == "DIV_BY_ZERO"
    assert src[res.error.offset:res.error.end] == "0"
    r = run_request({"src": src})
    assert r["error"]["issue_code"] == "DIV_BY_ZERO"
    assert (r["error"]["line"], r["error"]["pos"]) == (2, 11)


def test_logs_are_captured():
    r = run_request({"src": "notice('a', 1) warning([1]) $n = $nope",
                     "strict": "warning", "strict_variables": False})
    assert r["ok"]
    assert [(l["level"], l["message"]) for l in r["logs"]] == [
        ("notice", "a 1"), ("warning", "[1]"), ("warning", "Unknown variable: 'nope'.")]


def test_protocol_never_reports_an_internal_error():
    """Every source of the conformance corpus (all modes) through the protocol: failures are
    Puppet errors, never an internal error (this catches bugs in the error paths too)."""
    import json
    import os
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    cases = Path(os.environ.get("PUPPET_CONFORMANCE", root.parent / "shared/conformance/cases.jsonl"))
    if not cases.exists():
        pytest.skip("the shared conformance corpus is not available")
    bad = []
    for line in cases.read_text().splitlines():
        case = json.loads(line)
        src = case.get("source")
        if not isinstance(src, str):
            continue
        res = run_request({"src": src})
        text = json.dumps(res)
        if "INTERNAL_ERROR" in text or "Internal error" in text:
            bad.append((case["id"], text[:200]))
    assert not bad, bad[:10]
