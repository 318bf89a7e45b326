"""positive_int turns untrusted text into a number >= 1, or None; it never raises."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.common.inputs import positive_int


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", 1), ("42", 42), (" 7 ", 7), ("0", None), ("-3", None), ("²", None), ("٣", None),
     ("", None), ("1.5", None), ("1e3", None), (None, None), ("9" * 10, None)],
)  # fmt: skip
def test_positive_int(raw, expected):
    assert positive_int(raw) == expected


@given(st.text())
def test_never_raises_and_is_positive_when_given(raw):
    number = positive_int(raw)
    assert number is None or number >= 1


def test_control_characters_around_digits_read_as_the_digits():
    assert positive_int("7\x1f") == 7
    assert positive_int("0\x1f") is None
