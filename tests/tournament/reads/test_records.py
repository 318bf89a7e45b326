"""An event's record (JSON) and results sheet (CSV): what they hold, what they leave out,
how a record is imported back, and the console's downloads."""

from __future__ import annotations

import copy
import csv
import io
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.models import Game, GameCorrection, GameReport, Table
from tables.rules.variants import Variant
from tables.writes.corrections import add_game, delete_game, settle_game
from tables.writes.reporting import report_game
from tests import factories
from tournament.common.product import VERSION
from tournament.models import (
    DebriefQuestion,
    DebriefStep,
    Event,
    PathsHighlight,
    Phase,
    Player,
    Round,
    Seat,
)
from tournament.reads.records import (
    CSV_BOM,
    RECORD_FORMAT,
    RECORD_VERSION,
    export_event,
    results_csv,
    results_rows,
)
from tournament.writes.record_import import RecordProblem, import_event
from tournament.writes.rounds import change_clock

pytestmark = pytest.mark.django_db

MODELS = (Event, Player, Table, Round, Seat, Game, GameReport, GameCorrection)


def rehearsal(**options) -> Event:
    call_command("demo_event", stdout=StringIO(), **{"players": 12, "rounds": 3, **options})
    return Event.objects.latest("pk")


def without_export_time(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "exported_at"}


def through_json(record: dict) -> dict:
    """The record as a file carries it."""
    return json.loads(json.dumps(record, ensure_ascii=False))


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (*MODELS, get_user_model())}


# --- the record ------------------------------------------------------------------------


def test_a_record_names_its_format_and_version_and_refers_by_name_and_number():
    event = rehearsal()
    record = export_event(event)
    assert (record["format"], record["version"]) == (RECORD_FORMAT, RECORD_VERSION)
    assert set(record) == {
        "format",
        "version",
        "made_by",
        "exported_at",
        "event",
        "players",
        "tables",
        "rounds",
        "notes",
        "debrief",
    }
    names = {player["name"] for player in record["players"]}
    numbers = {table["number"] for table in record["tables"]}
    for round_ in record["rounds"]:
        assert {seat["player"] for seat in round_["seats"]} <= names
        assert {seat["table"] for seat in round_["seats"]} <= numbers
        for game in round_["games"]:
            assert game["winner"] is None or game["winner"] in names
            assert set(game["tricks"] or {}) <= names
    assert any(game["tricks"] for r in record["rounds"] for game in r["games"])
    assert any(r["corrections"] for r in record["rounds"])
    assert record["rounds"][1]["seats"][0].keys() >= {
        "from_table",
        "reason",
        "games_won_before",
        "tie_broken",
        "earned_table",
        "earned_reason",
    }


def test_a_record_holds_no_secret_and_no_database_id():
    event = rehearsal()
    text = json.dumps(export_event(event), ensure_ascii=False)
    secrets = [event.projector_token, event.players_token, event.video_secret]
    secrets += list(Table.objects.filter(event=event).values_list("token", flat=True))
    secrets += list(
        GameReport.objects.filter(round__event=event).values_list("client_key", flat=True)
    )
    assert not [secret for secret in secrets if secret in text]
    assert '"id"' not in text
    assert "printed" not in text
    assert "name_key" not in text


def test_a_rehearsal_exported_imported_and_exported_again_is_the_same_record(organizer):
    event = rehearsal()
    first = export_event(event)
    imported = import_event(record=through_json(first), owner=organizer)
    again = export_event(imported.event)
    assert imported.event.pk != event.pk
    assert imported.event.name == event.name
    assert imported.unknown_users == []
    assert without_export_time(again) == without_export_time(first)


def test_the_clauses_and_the_difference_set_round_trip(organizer):
    event = rehearsal()
    Event.objects.filter(pk=event.pk).update(
        difference_set="custom", custom_clauses=["fewest", "broken"], disruptive_share=0.3
    )
    codes = ["high-hearts-fewest", "low-notrump-overtake", "high-clubs-broken"]
    for table, code in zip(event.tables.order_by("number"), codes, strict=False):
        table.set_variant(Variant.from_code(code))
        table.save()
    first = export_event(event)

    imported = import_event(record=through_json(first), owner=organizer).event

    assert without_export_time(export_event(imported)) == without_export_time(first)
    assert imported.draw_clauses == {"fewest", "broken"}
    assert imported.disruptive_share == 0.3
    variants = [t.variant.code for t in imported.tables.order_by("number")]
    assert variants[: len(codes)] == codes


def test_a_record_from_before_the_clauses_imports_as_classic(organizer):
    record = valid_record()
    for key in ("difference_set", "custom_clauses", "disruptive_share"):
        del record["event"][key]
    for table in record["tables"]:
        for key in ("no_trump", "trumps_broken", "must_overtake", "fewest_wins"):
            del table[key]

    imported = import_event(record=record, owner=organizer).event

    assert (imported.difference_set, imported.custom_clauses) == ("classic", [])
    assert imported.disruptive_share == 0.2
    assert not imported.tables.filter(fewest_wins=True).exists()
    tables = imported.tables.order_by("number")
    assert [(t.ace_high, t.trump, t.trump_anytime) for t in tables] == [
        (t["ace_high"], t["trump"], t["trump_anytime"])
        for t in sorted(record["tables"], key=lambda t: t["number"])
    ]
    assert all(t.variant.clauses <= {"anytime"} for t in tables)


def bank(event: Event) -> list[tuple[int, str, str]]:
    return list(
        DebriefQuestion.objects.filter(event=event)
        .order_by("position")
        .values_list("position", "stage", "text")
    )


def test_the_debrief_questions_and_where_the_debrief_stands_round_trip(organizer):
    event = rehearsal()
    questions = list(DebriefQuestion.objects.filter(event=event).order_by("position"))
    questions[0].delete()
    questions[1].text = "Qui a gagné, selon vous ?"
    questions[1].save()
    DebriefQuestion.objects.create(event=event, position=90, stage="real_world", text="Et demain ?")
    shown = questions[3]
    Event.objects.filter(pk=event.pk).update(
        debrief_step=DebriefStep.QUESTION,
        debrief_question=shown,
        paths_highlight=PathsHighlight.CLIMBERS,
    )
    first = export_event(event)
    assert first["debrief"]["shown_question"] == shown.position
    assert {
        "position": 90,
        "stage": "real_world",
        "text": "Et demain ?",
        "answer_kind": "",
        "answers_open": True,
        "answers_revealed": False,
        "hidden_words": [],
        "answers": [],
    } in first["debrief"]["questions"]

    imported = import_event(record=through_json(first), owner=organizer).event

    assert without_export_time(export_event(imported)) == without_export_time(first)
    assert bank(imported) == bank(event)
    assert imported.debrief_step == DebriefStep.QUESTION
    assert imported.debrief_question.event == imported
    assert (imported.debrief_question.position, imported.debrief_question.text) == (
        shown.position,
        shown.text,
    )
    assert imported.paths_highlight == PathsHighlight.CLIMBERS


def test_a_record_from_before_the_debrief_imports_with_the_default_bank(organizer):
    record = valid_record()
    del record["debrief"]
    record["event"]["name"] = "Old file"

    imported = import_event(record=record, owner=organizer).event

    fresh = factories.make_event(owner=organizer)
    assert bank(imported) == bank(fresh)
    assert bank(imported)
    assert (imported.debrief_step, imported.debrief_question) == (DebriefStep.OPENING, None)
    assert imported.paths_highlight == PathsHighlight.AUTO


def test_an_import_gets_fresh_links_and_its_owner(organizer):
    event = rehearsal()
    imported = import_event(record=through_json(export_event(event)), owner=organizer).event
    assert imported.owner == organizer
    assert imported.projector_token != event.projector_token
    assert imported.players_token != event.players_token
    assert imported.video_secret != event.video_secret
    old = set(Table.objects.filter(event=event).values_list("token", flat=True))
    assert not old & set(Table.objects.filter(event=imported).values_list("token", flat=True))


def test_a_paused_round_with_every_kind_of_correction_survives_the_round_trip(organizer):
    event = factories.start_rounds(
        factories.seated_event(
            owner=organizer, players=["Zoë", "Ann", "Bob", "Cy", "Dee"], tables=1
        )
    )
    players = {p.name: p for p in event.players.all()}
    table = factories.table(event, 1)
    first = factories.report(event, 1, "Zoë").game
    factories.report(event, 1, "Ann", game_number=first.number)  # a dispute
    settle_game(game=Game.objects.get(pk=first.pk), winner=players["Ann"], by=organizer)
    cut_off = report_game(
        table=table,
        round_number=1,
        client_key="tricks-1",
        tricks={players["Bob"]: 3, players["Cy"]: 1, players["Dee"]: 0},
    ).game
    delete_game(game=cut_off, by=organizer)
    add_game(round_=event.current_round, table=table, winner=players["Cy"], by=organizer)
    change_clock(event=event, action="pause")
    event.refresh_from_db()
    assert event.clock_is_paused

    first_record = export_event(event)
    imported = import_event(record=through_json(first_record), owner=organizer).event
    assert without_export_time(export_event(imported)) == without_export_time(first_record)
    assert imported.clock_paused_remaining == event.clock_paused_remaining
    assert imported.phase == Phase.ROUND


def test_an_event_still_in_setup_round_trips(organizer):
    event = factories.make_event(owner=organizer, name="Empty")
    record = export_event(event)
    assert record["players"] == record["tables"] == record["rounds"] == []
    imported = import_event(record=through_json(record), owner=organizer).event
    assert without_export_time(export_event(imported)) == without_export_time(record)


def test_a_username_this_installation_lacks_is_left_blank_and_reported(organizer):
    record = through_json(export_event(rehearsal()))
    for round_ in record["rounds"]:
        round_["closed_by"] = "someone-else"
    imported = import_event(record=record, owner=organizer)
    assert imported.unknown_users == ["someone-else"]
    assert not imported.event.rounds.filter(closed_by__isnull=False).exists()


def test_the_record_is_read_in_the_same_number_of_queries_whatever_the_size(organizer):
    counts = []
    for players in (8, 40):
        event = factories.start_rounds(
            factories.seated_event(owner=organizer, players=players, tables=players // 4)
        )
        for number in range(1, players // 4 + 1):
            factories.report(event, number, factories.seated_players(event, number)[0])
        factories.close_current_round(event, organizer)
        with CaptureQueriesContext(connection) as queries:
            export_event(event)
        counts.append(len(queries))
    assert counts[0] == counts[1]
    # seventeen reads (notes, debrief questions and answers, the screen tables' deals and
    # their plays, pointing and tricks, the pads' strokes and the gestures among them), the
    # transaction
    assert counts[0] <= 19


# --- imports that are refused ----------------------------------------------------------

_VALID: list[dict] = []


def valid_record() -> dict:
    """A rehearsal's record, made once: a record is plain data, so every test that breaks
    it can start from its own copy without playing the rehearsal again."""
    if not _VALID:
        _VALID.append(through_json(export_event(rehearsal())))
    return copy.deepcopy(_VALID[0])


def _set(path: str, value):
    def change(record: dict) -> None:
        *parents, last = path.split(".")
        target = record
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value

    return change


def _first_game_won_by_a_stranger(record: dict) -> None:
    next(g for r in record["rounds"] for g in r["games"] if g["winner"])["winner"] = "Nobody"


def _two_players_with_one_name(record: dict) -> None:
    record["players"].append(dict(record["players"][0]))


def _same_name_spelled_twice(record: dict) -> None:
    name = record["players"][0]["name"]
    record["players"].append({"name": name.upper(), "status": "present"})


def _no_trump_with_trump_any_time(record: dict) -> None:
    table = next(t for t in record["tables"] if t["number"] == 1)
    table.update(no_trump=True, trump_anytime=True)


def _report_of_a_missing_game(record: dict) -> None:
    record["rounds"][0]["reports"][0]["game"] = 99


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda record: record.clear(), "format"),
        (_set("format", "something-else"), "not a Five Tricks event record"),
        (_set("version", 2), "version 1"),
        (_set("players", KeyError), "players: this field is missing"),
        (_set("event.rounds_planned", 0), "event.rounds_planned"),
        (_set("event.phase", "party"), "event.phase"),
        (_set("event.clock_ends_at", "2026-11-22T23:10:00"), "time zone"),
        (_set("tables.0.trump", "stars"), "tables[0].trump"),
        (_set("rounds.0.seats.0.table", 42), "there is no table 42"),
        (_set("rounds.0.seats.0.tie_broken", "yes"), "true or false"),
        (_set("rounds.0.games.0.number", True), "whole number"),
        (_first_game_won_by_a_stranger, "“Nobody” is not on the roster"),
        (_two_players_with_one_name, "on the roster twice"),
        (_same_name_spelled_twice, "are the same name"),
        (_report_of_a_missing_game, "has no game 99"),
        (_set("tables.0.no_trump", "yes"), "tables[0].no_trump: expected true or false"),
        (_no_trump_with_trump_any_time, "table 1 has rules that cannot go together"),
        (_set("event.difference_set", "wild"), "event.difference_set"),
        (_set("event.custom_clauses", ["misere"]), "event.custom_clauses"),
        (_set("event.disruptive_share", 2), "event.disruptive_share"),
        (_set("debrief.questions.0.stage", "gossip"), "debrief.questions[0].stage"),
        (_set("debrief.questions.0.text", " "), "debrief.questions[0].text: must not be empty"),
        (_set("debrief.questions.1.position", 1), "two questions are at position 1"),
        (_set("debrief.shown_question", 99), "no question at position 99"),
        (_set("debrief.step", 42), "debrief.step"),
        (_set("debrief.paths_highlight", "all"), "debrief.paths_highlight"),
    ],
)
def test_a_broken_record_is_refused_with_its_place_and_writes_nothing(organizer, change, says):
    record = valid_record()
    change(record)
    before = row_counts()
    with pytest.raises(RecordProblem) as refused:
        import_event(record=record, owner=organizer)
    assert says in refused.value.message
    assert refused.value.message.startswith("This file cannot be imported")
    assert row_counts() == before


@pytest.mark.parametrize("record", [[], "fivetricks-event", None, 12])
def test_a_file_that_is_not_a_record_object_is_refused(organizer, record):
    with pytest.raises(RecordProblem):
        import_event(record=record, owner=organizer)
    assert not Event.objects.exists()


# --- the results sheet -----------------------------------------------------------------


def played_round(owner, names: list[str]) -> Event:
    """Round 1 closed at two tables of four; the first name at each table won twice."""
    event = factories.start_rounds(factories.seated_event(owner=owner, players=names, tables=2))
    for number in (1, 2):
        winner, runner_up, *_ = factories.seated_players(event, number)
        factories.play_games(event, {number: [winner.name, winner.name, runner_up.name]})
    return factories.close_current_round(event, owner)


def test_the_sheet_has_one_row_per_player_per_round_played_with_the_move(organizer):
    event = played_round(organizer, [f"Player {n}" for n in range(1, 9)])
    header, *rows = results_rows(export_event(event))
    assert header == ["Round", "Table", "Player", "Games won", "Move", "Reason", "Next table"]
    assert len(rows) == 8  # round 2 is planned: not played, no rows
    next_tables = factories.seats_of(event, 2)
    for round_number, table, player, _won, move, reason, next_table in rows:
        assert round_number == 1
        assert next_table == next_tables[player]
        assert move == {1: "up", 0: "stay", -1: "down"}[(next_table > table) - (next_table < table)]
        assert reason
    top = next(row for row in rows if row[1] == 1)
    assert (top[3], top[4], top[6]) == (2, "up", 2)


def test_the_last_round_s_rows_carry_games_won_and_no_move(organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    winner = factories.seated_players(event, 1)[0]
    factories.play_games(event, {1: [winner.name]})
    event = factories.close_current_round(event, organizer)
    rows = results_rows(export_event(event))[1:]
    assert len(rows) == 8
    best = next(row for row in rows if row[2] == winner.name)
    assert best[3] == 1
    # Nobody moves after the last round: no move, no reason, no next table on any row.
    assert {tuple(row[4:]) for row in rows} == {("", "", "")}


def test_the_csv_starts_with_a_bom_keeps_accents_and_neutralises_formulas(organizer):
    names = ["=SUM(A1:A9)", "+Ann", "-Bob", "@Cy", "Zoë", "Łukasz", "Émile", "Núria"]
    event = played_round(organizer, names)
    text = results_csv(export_event(event))
    assert text.startswith(CSV_BOM)
    cells = [cell for row in csv.reader(io.StringIO(text[1:])) for cell in row]
    assert {"'=SUM(A1:A9)", "'+Ann", "'-Bob", "'@Cy", "Zoë", "Łukasz", "Émile", "Núria"} <= set(
        cells
    )
    assert not [cell for cell in cells if cell[:1] in {"=", "+", "-", "@"}]


# --- the console's downloads ------------------------------------------------------------


def test_the_owner_downloads_the_event_and_its_results_as_attachments(signed_in, organizer):
    event = played_round(organizer, ["Zoë", "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"])
    event.name = 'Friday "workshop" / Zoë'
    event.save(update_fields=["name"])
    response = signed_in.get(reverse("organizer:event_json", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="fivetricks-{event.pk}-friday-workshop-zoe-event.json"'
    )
    assert json.loads(response.content)["event"]["name"] == event.name
    response = signed_in.get(reverse("organizer:results_csv", args=[event.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response.content.startswith(CSV_BOM.encode("utf-8"))
    assert "Zoë" in response.content.decode("utf-8")


def test_a_finished_event_stays_downloadable(signed_in, organizer):
    event = factories.play_until(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1),
        Phase.DEBRIEF,
        by=organizer,
    )
    for name in ("organizer:event_json", "organizer:results_csv"):
        assert signed_in.get(reverse(name, args=[event.pk])).status_code == 200


@pytest.mark.parametrize("name", ["organizer:event_json", "organizer:results_csv"])
def test_another_organizer_gets_404_and_a_stranger_the_sign_in(
    client, django_user_model, event, name
):
    url = reverse(name, args=[event.pk])
    assert client.get(url).status_code == 302
    client.force_login(factories.make_organizer(django_user_model, "grace"))
    assert client.get(url).status_code == 404


def test_reading_the_results_sheet_leaves_the_record_as_it_was(organizer):
    record = export_event(rehearsal())
    kept = copy.deepcopy(record)
    results_rows(record)
    assert record == kept


def test_the_clock_is_written_as_times_and_durations(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=4, tables=1))
    event.clock_paused_remaining = timedelta(minutes=2, seconds=3, microseconds=5)
    event.save(update_fields=["clock_paused_remaining"])
    written = export_event(event)["event"]
    assert written["clock_paused_remaining"] == "P0DT00H02M03.000005S"
    assert written["clock_ends_at"].endswith("+00:00")


def test_the_languages_round_trip(organizer):
    event = rehearsal()
    Event.objects.filter(pk=event.pk).update(language="de")
    Table.objects.filter(event=event, number=1).update(sheet_language="fr")
    first = export_event(Event.objects.get(pk=event.pk))
    assert first["event"]["language"] == "de"

    imported = import_event(record=through_json(first), owner=organizer).event

    assert without_export_time(export_event(imported)) == without_export_time(first)
    assert imported.language == "de"
    assert [t.sheet_language for t in imported.tables.order_by("number")][:2] == ["fr", ""]


def test_a_record_from_before_the_languages_imports_in_english(organizer):
    record = valid_record()
    del record["event"]["language"]
    for table in record["tables"]:
        del table["sheet_language"]

    imported = import_event(record=record, owner=organizer).event

    assert imported.language == "en"
    assert {t.sheet_language for t in imported.tables.all()} == {""}


def test_a_record_says_which_release_made_it():
    record = export_event(rehearsal())
    assert record["made_by"] == f"Five Tricks {VERSION}"


@pytest.mark.parametrize("made_by", [None, "Five Tricks 0.1.0", "Five Tricks 9.9.9"])
def test_a_record_from_another_release_or_from_before_made_by_imports(organizer, made_by):
    record = valid_record()
    if made_by is None:
        del record["made_by"]
    else:
        record["made_by"] = made_by

    imported = import_event(record=record, owner=organizer).event

    assert imported.players.count() == len(record["players"])


def test_a_record_in_a_language_we_do_not_ship_is_refused(organizer):
    record = valid_record()
    record["event"]["language"] = "tlh"
    with pytest.raises(RecordProblem, match=r"event\.language"):
        import_event(record=record, owner=organizer)


def settled_by_a_cofacilitator(organizer, name: str = "Noor") -> Event:
    """A round whose disputed game an assistant settled, then closed by the organizer."""
    from tests.tournament.writes.test_cofacilitators import join
    from tournament.models import CoRole

    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    _browser, invitation = join(event, CoRole.ASSISTANT, name=name)
    first, second = factories.seated_players(event, 1)[:2]
    factories.report(event, 1, first, game_number=1)
    factories.report(event, 1, second, game_number=1)
    game = Game.objects.get(round__event=event)
    settle_game(game=game, winner=first, by=invitation.user)
    return factories.close_current_round(event, organizer)


def test_a_cofacilitator_is_written_by_name_and_role_and_found_again_on_import(organizer):
    event = settled_by_a_cofacilitator(organizer)
    record = export_event(event)
    text = json.dumps(record, ensure_ascii=False)
    assert "Noor · assistant" in text
    assert "#" not in text  # never the account's internal number
    (correction,) = record["rounds"][0]["corrections"]
    assert correction["changed_by"] == "Noor · assistant"

    imported = import_event(record=through_json(record), owner=organizer)
    assert imported.unknown_users == []
    copied = GameCorrection.objects.get(round__event=imported.event)
    original = GameCorrection.objects.get(round__event=event)
    assert copied.changed_by == original.changed_by
    assert without_export_time(export_event(imported.event)) == without_export_time(record)


def test_a_cofacilitator_name_two_accounts_share_is_left_blank_and_reported(organizer):
    record = export_event(settled_by_a_cofacilitator(organizer))
    settled_by_a_cofacilitator(organizer)  # another event's "Noor · assistant"
    imported = import_event(record=through_json(record), owner=organizer)
    assert imported.unknown_users == ["Noor · assistant"]
    assert GameCorrection.objects.get(round__event=imported.event).changed_by is None
