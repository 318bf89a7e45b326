"""An import refuses a name that is not text only (issue 23, item 5): a control character or
a bidirectional control, named with its place in the file; nothing is written. Names stored
before are cleaned by the migration."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tests import factories
from tests.tournament.reads.test_records import row_counts, valid_record
from tournament.models import Player
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


@pytest.mark.parametrize(
    ("char", "code"), [("\x00", "U+0000"), ("\x1b", "U+001B"), ("\x07", "U+0007")]
)
def test_an_event_name_with_a_control_character_is_refused_and_nothing_written(
    organizer, char, code
):
    record = valid_record()
    record["event"]["name"] = f"Spring{char}cup"
    before = row_counts()
    with pytest.raises(RecordProblem) as refused:
        import_event(record=record, owner=organizer)
    says = f"event.name: “Spring\ufffdcup” holds a control character ({code}), which cannot be"
    assert says in refused.value.message
    assert char not in refused.value.message
    assert row_counts() == before


def test_the_migration_strips_stored_bidi_controls_and_keys_names_again(organizer):
    event = factories.make_event(owner=organizer)
    alice, spoof, lookalike = factories.add_players(event, ["Alice", "Bob", "Cy"])
    # As an older version stored them: the reversed name raw, the key of the old rule.
    Player.objects.filter(pk=spoof.pk).update(name="\u202eecilA", name_key="\u202eecila")
    Player.objects.filter(pk=lookalike.pk).update(name="Al\u200bice", name_key="al\u200bice")
    migration = importlib.import_module("tournament.migrations.0016_player_name_text_only")
    migration.strip_bidi_controls(apps, None)
    stored = dict(event.players.values_list("pk", "name"))
    keys = dict(event.players.values_list("pk", "name_key"))
    assert stored[spoof.pk] == "ecilA"
    assert keys[spoof.pk] == "ecila"
    # Alice's look-alike keeps its spelling, and the constraint holds: its id in its key.
    assert stored[lookalike.pk] == "Al\u200bice"
    assert keys[lookalike.pk] == f"alice#{lookalike.pk}"
    assert keys[alice.pk] == "alice"
