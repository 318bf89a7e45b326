"""Reading an import's file safely: too big, not UTF-8, not JSON, too deep or not valid
Unicode, each refused in one line before anything is read into rows."""

from __future__ import annotations

import json

import pytest

from tournament.writes.record_fields import RecordProblem
from tournament.writes.record_file import (
    MAX_DEPTH,
    MAX_RECORD_BYTES,
    check_shape,
    read_record_bytes,
)


def test_a_record_with_a_byte_order_mark_reads():
    assert read_record_bytes(b"\xef\xbb\xbf" + json.dumps({"a": ["Zoë"]}).encode()) == {
        "a": ["Zoë"]
    }


def test_a_file_one_byte_over_the_limit_is_refused_before_it_is_read():
    with pytest.raises(RecordProblem, match="at most 64 MB"):
        read_record_bytes(b" " * (MAX_RECORD_BYTES + 1))


def nested(levels: int) -> list:
    value: list = []
    for _level in range(levels - 1):
        value = [value]
    return value


def test_the_depth_limit_is_exact_and_any_depth_is_refused_without_recursion():
    check_shape({"deep": nested(MAX_DEPTH - 1)})
    with pytest.raises(RecordProblem, match="more than 10 deep"):
        check_shape({"deep": nested(MAX_DEPTH)})
    with pytest.raises(RecordProblem, match="more than 10 deep"):
        check_shape(nested(100_000))  # built in memory: no JSON reader to stop it


@pytest.mark.parametrize(
    ("record", "place"),
    [
        ({"players": [{"name": "\ud800"}]}, "players[0].name"),
        ({"event": {"\udc00": 1}}, "event"),
        ("\udbff", "the file"),
    ],
)
def test_text_that_is_not_valid_unicode_is_refused_at_its_place(record, place):
    with pytest.raises(RecordProblem) as refused:
        check_shape(record)
    assert refused.value.message == (
        f"This file cannot be imported: {place}: text that is not valid Unicode (half of a "
        "surrogate pair, such as \\ud800)."
    )


def test_a_surrogate_pair_written_as_two_escapes_is_valid_unicode():
    record = read_record_bytes(b'{"name": "\\ud83d\\ude00"}')
    check_shape(record)
    assert record == {"name": "😀"}
