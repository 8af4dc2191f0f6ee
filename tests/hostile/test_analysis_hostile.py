"""Static analysis of huge literals does work in proportion to their size: inferring the type
of a hash of thousands of string keys (what a hover on it asks) once folded ``common_type``
over the keys pairwise, growing and sorting an Enum at each step (seconds for a few thousand
keys), and over its integer values one costly call at a time (seconds for 20,000); both found
by benchmarks/fuzz.py.  Counted, not timed: the number of pairwise
``common_type`` calls the inference makes."""
from __future__ import annotations

import pytest

from puppet_ls.language.check import analysis, analyze
from puppet_ls.language.ide.hover import hover
from puppet_ls.language.syntax import ENGINE, parse
from puppet_ls.language.types import model as m

# These count calls by patching a method of a syntax class: the compiled engine's classes call
# one another directly, past the patch, so the count would prove nothing there.
counted_in_python = pytest.mark.skipif(
    ENGINE.compiled, reason="counts calls through a patched method, which the compiled syntax engine bypasses")


N = 3000
CASES = {
    # a key that is not a literal: Hash[common key type, common value type]
    "hash with a variable key": "$h = {" + ", ".join(f"'k{i}' => {i}" for i in range(N)) + ", $x => 1}\n",
    # a repeated key and values that are not constant
    "hash with a repeated key": "$h = {" + ", ".join(f"'k{i}' => $v" for i in range(N)) + ", 'k0' => $v}\n",
    # string values with an undef and an integer among them (a fuzzed filebeat manifest: 16 s)
    "hash with mixed values": "$h = {" + ", ".join(f"'k{i}' => 'v{i}'" for i in range(N // 2)) + ", 'u' => undef, 'i' => 1, "
                              + ", ".join(f"'w{i}' => 'v{i}'" for i in range(N // 2, N)) + "}\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hash_type_is_not_quadratic(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = CASES[name]
    calls = []
    real = analysis.common_type

    def counting(a, b):
        calls.append(1)
        return real(a, b)
    monkeypatch.setattr(analysis, "common_type", counting)
    an = analyze(parse(text))
    res = hover(an, text.index("{"), values=False)
    assert res is not None and "Hash" in res.markdown
    # neither the keys (string literals) nor the values (integers) are folded pairwise
    assert len(calls) <= 10


def test_common_of_string_literals_is_their_enum() -> None:
    lits = [m.StringType(value=v) for v in ("b", "a", "b", "c")]
    assert analysis._common(lits) == m.EnumType(("a", "b", "c"))
    assert analysis._common([m.StringType(value="a")] * 3) == m.StringType(value="a")
    assert analysis._common([m.StringType(value="a"), m.ANY, m.INTEGER]) == m.ANY
    assert analysis._common([m.IntegerType(3, 3), m.IntegerType(1, 1), m.IntegerType(2, 2)]) == m.IntegerType(1, 3)
    assert analysis._common([m.IntegerType(3, 3), m.IntegerType(None, 1), m.IntegerType(2, 2)]) == m.IntegerType(None, 3)


def test_common_equals_the_pairwise_fold() -> None:
    """The linear-time ``_common`` gives exactly what folding ``common_type`` from the left gives,
    on seeded random lists mixing the kinds its shortcuts treat (string literals, Enums,
    integer ranges) with those they leave to the fold."""
    import random
    pool = [m.StringType(value=v) for v in "abcd"] + [
        m.IntegerType(1, 1), m.IntegerType(5, 9), m.IntegerType(None, 0), m.UNDEF, m.STRING,
        m.EnumType(("a", "z")), m.EnumType(("a",), True), m.EnumType(), m.FLOAT, m.ArrayType(m.INTEGER),
        m.OptionalType(m.STRING), m.BOOLEAN]
    rng = random.Random(10)
    for _ in range(3000):
        types = [rng.choice(pool) for _ in range(rng.randint(1, 9))]
        folded = types[0]
        for x in types[1:]:
            folded = analysis.common_type(folded, x)
        assert analysis._common(types) == folded, types


def test_a_huge_array_is_not_typed_element_by_element(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hover on a 50,000-element array literal that is not constant (one bad character in it)
    typed every element for a Tuple nobody can read: 2 s of CPU.  Beyond a thousand elements
    the literal is an Array; counted: the element types inferred."""
    text = "$arr = [" + "1, " * 5000 + "\u200b]\n"
    an = analyze(parse(text))
    calls = []
    real = type(an).type_of

    def counting(self, node):
        calls.append(1)
        return real(self, node)
    monkeypatch.setattr(type(an), "type_of", counting)
    res = hover(an, text.index("["), values=False)
    assert res is not None and "Array" in res.markdown
    assert len(calls) < 100


@counted_in_python
def test_a_huge_expression_is_not_previewed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hover with values on a 150 KB constant array spent 2.3 s assembling the preview program
    (every token of the literal) before the evaluator was asked, whose value would have been cut
    to a few dozen characters anyway (found by benchmarks/fuzz.py).  Past MAX_PREVIEW_SOURCE
    characters nothing is assembled: counted, the tokens walked."""
    from puppet_ls.language.ide import preview
    from puppet_ls.language.syntax import tree

    text = "$arr = [" + "1, " * 50_000 + "2]\n"
    an = analyze(parse(text))
    walked = []
    real = tree.SyntaxNode._tokens_outside_heredoc_bodies

    def counting(self, reverse=False):
        for t in real(self, reverse):
            walked.append(1)
            yield t
    monkeypatch.setattr(tree.SyntaxNode, "_tokens_outside_heredoc_bodies", counting)
    node = parse_right(an)
    assert node.green.width > 100_000
    assert preview.preview_expression(an, node) is None
    assert len(walked) < 100
    small = "$arr = [1, 2]\n"
    an_small = analyze(parse(small))
    p = preview.preview_expression(an_small, parse_right(an_small))
    assert p is not None and p.value == "[1, 2]"


def parse_right(an):
    from puppet_ls.language.syntax import ast as A
    from puppet_ls.language.syntax import kinds as K
    stmt = next(n for n in an.result.root.descendants() if n.kind == K.ASSIGNMENT)
    return A.Assignment(stmt).right().syntax


def test_highlights_find_tokens_in_one_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Highlighting a variable used in many statements on one line looked each use up from the
    root (fuzz seed 2033, cases 3834 and 5606: 12 s): past a few uses, one walk finds them all."""
    from puppet_ls.language.ide import navigation, tokens
    n = 2000
    text = "class c { $a = 1 " + " ".join(f"notice($a, {i})" for i in range(n)) + " $x = $c::a }\n"
    an = analyze(parse(text))
    calls = 0
    real = tokens.token_at

    def counting(node, offset):
        nonlocal calls
        calls += 1
        return real(node, offset)
    monkeypatch.setattr(navigation, "token_at", counting)
    found = navigation.highlights(an, text.index("$a"))
    assert len(found) == n + 2          # the assignment, the n uses and $c::a
    assert calls < 50, calls


def test_a_type_argument_hash_with_an_array_key_is_no_exception() -> None:
    """`Struct[{[1] => Integer}]`: an array as a hash key in a type's arguments (fuzz seed 2033,
    case 5249: TypeError, unhashable type 'list', in hover)."""
    text = "$t = Struct[{[1] => Integer}]\n"
    an = analyze(parse(text))
    assert hover(an, text.index("Struct") + 1) is not None
