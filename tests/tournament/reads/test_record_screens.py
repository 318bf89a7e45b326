"""A screen event's record: its deals, plays, pointing and taken tricks round-trip through
the JSON record, a record whose plays do not follow its hands is refused, and the tricks
CSV lists every taken trick."""

from __future__ import annotations

import copy
import json

import pytest

from tables.models import Deal, Play, Pointing, TakenTrick
from tables.writes.screen_organizer import settle_trick
from tests import factories
from tests.debrief_screens import story_event
from tests.screen_factories import everyone_points, play_trick, screen_event
from tournament.reads.record_screens import trick_rows
from tournament.reads.records import export_event, tricks_csv
from tournament.writes.record_import import RecordProblem, import_event

pytestmark = pytest.mark.django_db


def played_event(organizer):
    event = factories.start_rounds(screen_event(owner=organizer))
    deal, cards = play_trick(event, 1)
    everyone_points(deal, next(iter(cards.values())))
    deal, cards = play_trick(event, 2)
    settle_trick(event=event, table_number=2, trick=1, card=cards[deal.seats[1]], by=organizer)
    play_trick(event, 1)
    return event


def through_json(record: dict) -> dict:
    return json.loads(json.dumps(record, ensure_ascii=False))


def without_time(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "exported_at"}


def test_a_screen_event_exported_imported_and_exported_again_is_the_same_record(organizer):
    event = played_event(organizer)
    first = export_event(event)
    round_1 = first["rounds"][0]
    assert first["event"]["cards"] == "screens"
    # Two tables, each dealt in study, in practice and in round 1.
    assert len(round_1["deals"]) == 2 + 2 + 2
    in_play = next(d for d in round_1["deals"] if not d["practice"] and d["table"] == 1)
    assert len(in_play["plays"]) == 10
    assert len(in_play["pointing"]) == 5
    assert [t["number"] for t in in_play["tricks"]] == [1]
    assert "client_key" not in json.dumps(first)
    imported = import_event(record=through_json(first), owner=organizer).event
    assert imported.on_screens
    assert Deal.objects.filter(round__event=imported).count() == 6
    assert Play.objects.filter(deal__round__event=imported).count() == 15
    assert Pointing.objects.filter(deal__round__event=imported).count() == 5
    assert TakenTrick.objects.filter(deal__round__event=imported, settled=True).count() == 1
    assert without_time(export_event(imported)) == without_time(first)


def test_a_record_whose_plays_do_not_follow_the_hands_is_refused(organizer):
    record = through_json(export_event(played_event(organizer)))
    broken = copy.deepcopy(record)
    deal = next(d for d in broken["rounds"][0]["deals"] if d["plays"])
    holder = deal["plays"][0]["player"]
    someone_else = next(name for name in deal["seats"] if name != holder)
    deal["plays"][0]["card"] = deal["hands"][someone_else][0]
    with pytest.raises(RecordProblem, match="do not follow"):
        import_event(record=broken, owner=organizer)


def test_a_record_from_before_screen_tables_imports_with_no_deals(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    record = through_json(export_event(event))
    del record["event"]["cards"]
    for round_ in record["rounds"]:
        del round_["deals"]
    imported = import_event(record=record, owner=organizer).event
    assert not imported.on_screens
    assert not Deal.objects.filter(round__event=imported).exists()


def test_the_tricks_csv_lists_every_taken_trick(organizer):
    record = export_event(played_event(organizer))
    rows = trick_rows(record)
    counted = [row for row in rows[1:] if row[3] == "no"]
    assert len(counted) == 2
    settled = [row for row in counted if row[9] == "yes"]
    assert len(settled) == 1
    assert rows[1][5].count(":") == 5  # five cards, each with who played it
    assert tricks_csv(record).startswith("\ufeff")


def test_a_screen_event_whose_games_were_counted_on_screens_round_trips(organizer):
    """A game a screen table played out is counted with its players' tricks by name; the
    record writes them as it writes a phone report's, and reads them back the same."""
    event = story_event(organizer)
    first = export_event(event)
    counted = [g for r in first["rounds"] for g in r["games"] if g["tricks"]]
    assert counted, "a game was counted on screens"
    seated = set(event.players.values_list("name", flat=True))
    assert all(set(game["tricks"]) <= seated for game in counted)
    imported = import_event(record=through_json(first), owner=organizer).event
    assert without_time(export_event(imported)) == without_time(first)


def test_the_pads_strokes_the_gestures_and_the_video_rooms_round_trip(organizer):
    from tables.models import Gesture, Stroke, Table
    from tests.screen_factories import deal_at, draw_and_gesture

    event = played_event(organizer)
    draw_and_gesture(deal_at(event, 1))
    event.video_pattern = "https://meet.example/ft-{event}-{table}"
    event.save(update_fields=["video_pattern"])
    Table.objects.filter(event=event, number=2).update(video_link="https://zoom.example/j/9")
    first = export_event(event)
    round_1 = first["rounds"][0]
    assert [s["kind"] for s in round_1["strokes"]] == ["red", "red"]
    assert round_1["strokes"][0]["points"] == [[10, 10], [200, 200]]
    assert [(g["kind"], g["card"]) for g in round_1["gestures"]] == [("yes", None)]
    assert first["event"]["video_pattern"] == "https://meet.example/ft-{event}-{table}"
    imported = import_event(record=through_json(first), owner=organizer).event
    assert Stroke.objects.filter(round__event=imported).count() == 2
    assert Gesture.objects.filter(round__event=imported).count() == 1
    assert without_time(export_event(imported)) == without_time(first)
    # The video secret is a secret: never in the record, and the copy has its own, so
    # its tables never meet in the original's rooms.
    assert event.video_secret not in json.dumps(first)
    assert imported.video_secret != event.video_secret
    assert len(imported.video_secret) == 16


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("points", "hello"),
        ("points", [[1, 1], [2000, 3]]),
        ("points", [["1", 1]]),
        ("points", []),  # a line with no points
        ("kind", "text"),
        ("kind", "clear"),  # a clear with points
    ],
)
def test_a_record_whose_stroke_is_not_a_line_of_the_pad_is_refused(organizer, where, value):
    from tests.screen_factories import deal_at, draw_and_gesture

    event = played_event(organizer)
    draw_and_gesture(deal_at(event, 1))
    record = through_json(export_event(event))
    record["rounds"][0]["strokes"][0][where] = value
    with pytest.raises(RecordProblem):
        import_event(record=record, owner=organizer)


def test_a_record_whose_video_link_is_not_https_is_refused(organizer):
    record = through_json(export_event(played_event(organizer)))
    record["tables"][0]["video_link"] = "javascript:alert(1)"
    with pytest.raises(RecordProblem):
        import_event(record=record, owner=organizer)


@pytest.mark.parametrize(
    ("where", "link", "words"),
    [
        ("video_link", "https://user:pass@evil.example/", "without a name before an @"),
        ("video_link", "https://javascript:alert(1)@evil.example/", "without a name before an @"),
        ("video_link", "https://evil.example/\u202emoc.is.tij.teem", "without hidden characters"),
        ("video_pattern", "https://me:pw@meet.example/{table}", "without a name before an @"),
    ],
)
def test_a_record_whose_video_link_looks_like_another_is_refused(organizer, where, link, words):
    record = through_json(export_event(played_event(organizer)))
    if where == "video_pattern":
        record["event"]["video_pattern"] = link
    else:
        record["tables"][0]["video_link"] = link
    with pytest.raises(RecordProblem, match=words):
        import_event(record=record, owner=organizer)
