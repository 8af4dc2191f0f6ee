"""Bad arguments to every function of the library: a Puppet-style error located at the call,
never a Python traceback.

For each built-in function, calls with argument lists drawn from a fixed pool (and random ones
from hypothesis) must give a value or an EvalError with a message and a source range inside
the call.  Where the library's signatures reject the arguments (ARGUMENT_ERROR), the message
names the function and says what was expected (a parameter and its type, the argument count or
the block), as Puppet's dispatcher does.  The table EXPECTED pins a few exact messages.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puppet_ls.language.eval import Budget, all_functions, evaluate_text

# Arguments that are wrong for most functions.
POOL = ["1", "-1.5", "'x'", "''", "[1, 'a']", "{'a' => 1}", "undef", "default", "true", "/re/",
        "Integer", "Timespan(1)", "SemVer('1.0.0')", "Sensitive('s')", "Binary('YQ==')"]
ARG_LISTS = ["", "1", "'x'", "undef", "[1], [2], [3], [4], [5]", "{'a' => 1}, 'x'", "Integer, 1",
             "default", "Sensitive('s')", "1, 2, 3, 4, 5, 6", "'%d', 'x'"]
BLOCKS = ["", " |$a, $b, $c, $d| { 1 }", " || { 1 }", " |$x| { $x }"]

# Functions whose job is to end the evaluation or leave a loop.
_CONTROL = {"break", "next", "return", "fail", "import"}

EXPECTED = {
    "upcase(1)": None,   # Puppet returns non-strings as they are
    "keys(1)": "'keys' parameter 'hsh' expects a Hash value, got Integer",
    "abs([1])": "'abs' parameter 'val' expects a value of type Numeric or String, got Tuple",
    "sha1(1, 2)": "'sha1' expects 1 argument, got 2",
    "each([1])": "'each' expects a block",
    "join(1)": "'join' parameter 'arg' expects an Array value, got Integer",
    "split(1, ',')": "'split' parameter 'str' expects a String value, got Integer",
    "md5(1)": "no implicit conversion of Integer into String",
    "Integer('x')": "The string 'x' cannot be converted to Integer",
    "assert_type(Integer, 'a')": "expects an Integer value, got String",
    "file('/etc/passwd')": "not available in this context",
}


def check(src: str) -> str | None:
    """The error message of ``src`` (None when it succeeds); asserts the error contract."""
    res = evaluate_text(src, budget=Budget(steps=50_000, seconds=5))
    if res.ok:
        return None
    err = res.error
    assert err is not None and err.message, src
    assert "Traceback" not in err.message and "Internal error" not in err.message, (src, err.message)
    if err.phase == "eval":
        assert err.offset is not None and err.end is not None, (src, err.message)
        assert 0 <= err.offset <= err.end <= len(src), (src, err.offset, err.end)
    if err.code == "ARGUMENT_ERROR":
        assert re.search(r"'[a-z0-9_:]+' |[a-z0-9_]+\(\)|new_", err.message), (src, err.message)
        # Puppet's mismatch descriptions: what was expected, or (for a Struct/Hash option) the
        # key that is not recognized
        assert re.search(r"expects|rejected|[Aa]ccepts|requires|block|[Gg]ot |can only|cannot be converted|unrecognized key",
                         err.message), (src, err.message)
    return err.message


def _names() -> list:
    return sorted(n for n in all_functions() if n not in _CONTROL)


@pytest.mark.parametrize("name", _names())
def test_every_function_rejects_bad_arguments_cleanly(name):
    for args in ARG_LISTS:
        for block in BLOCKS:
            check(f"{name}({args}){block}")


@pytest.mark.parametrize("src,want", sorted(EXPECTED.items()))
def test_exact_messages(src, want):
    got = check(src)
    if want is None:
        assert got is None, got
    else:
        assert got is not None and want in got, got


def test_every_function_is_documented_with_signatures():
    for name, fn in all_functions().items():
        assert fn.doc and "\n" not in fn.doc.strip(), name
        assert fn.signatures(), name
        for sig in fn.signatures():
            assert sig.startswith(f"{name}("), sig


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.sampled_from(_names()), st.lists(st.sampled_from(POOL), max_size=4),
       st.sampled_from(BLOCKS))
def test_fuzz_function_calls(name, args, block):
    check(f"{name}({', '.join(args)}){block}")
