"""An import refuses a name that is not text only (issue 23, item 5): a control character or
a bidirectional control, named with its place in the file; nothing is written."""

from __future__ import annotations

import pytest

from tests.tournament.reads.test_records import row_counts, valid_record
from tournament.writes.record_import import RecordProblem, import_event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Bo\x00b", "players[0].name: “Bo\ufffdb” holds a control character (U+0000)"),
        ("Bo\tb", "holds a control character (U+0009)"),
        ("Bo\x9bb", "holds a control character (U+009B)"),
        (
            "\u202eecilA",
            "players[0].name: “\ufffdecilA” holds an invisible direction mark (U+202E)",
        ),
        ("Al\u2066ice", "invisible direction mark (U+2066)"),
    ],
)
def test_a_name_with_a_control_character_is_refused_and_nothing_written(organizer, name, says):
    record = valid_record()
    record["players"][0]["name"] = name
    before = row_counts()
    with pytest.raises(RecordProblem) as refused:
        import_event(record=record, owner=organizer)
    assert says in refused.value.message
    assert "\x00" not in refused.value.message
    assert "\u202e" not in refused.value.message
    assert row_counts() == before
