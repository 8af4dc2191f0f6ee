"""``KnownPositions`` (language/syntax/lines.py) gives every offset the position ``LineIndex``
gives it: texts of line ends, carriage returns and other characters, offsets inside, at the
ends of and outside the text, in any order and repeated."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from puppet_ls.language.syntax.lines import KnownPositions, LineIndex

TEXTS = st.text(alphabet=st.sampled_from("ab\n\r é𝄞"), max_size=60)


@given(TEXTS, st.lists(st.integers(min_value=-5, max_value=70), max_size=12))
def test_known_positions_equal_the_line_index(text, offsets):
    lines = LineIndex(text)
    known = KnownPositions(text, offsets)
    assert [known.position(o) for o in offsets] == [lines.position(o) for o in offsets]


def test_positions_at_line_ends():
    text = "ab\n\ncd\n"
    offsets = list(range(len(text) + 1))
    assert [KnownPositions(text, offsets).position(o) for o in offsets] == \
        [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2), (3, 0)]
