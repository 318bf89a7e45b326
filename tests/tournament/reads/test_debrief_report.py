"""The printable debrief report: what it says (settings, variants, charts, disputes,
ladder), who may read it, and what it costs in queries at 20 and 500 players."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.models import Game, Table
from tables.rules.variants import rule_lines, variant_label
from tables.writes.corrections import add_game, delete_game, settle_game
from tests import factories
from tournament.models import Event, Player
from tournament.reads.debrief import build_debrief
from tournament.reads.debrief_report import build_report
from tournament.writes.finishing import finish_event
from tournament.writes.rounds import advance_phase, start_debrief

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def _game(event: Event, table: int, round_: int, number: int = 1) -> Game:
    return Game.objects.get(
        table__event=event, table__number=table, round__number=round_, number=number
    )


def eventful(organizer) -> Event:
    """Eight players at two tables over two rounds, with one of each kind of game:
    round 1, table 1: the phones disagreed and the organizer settled it for the first;
    round 1, table 2: one report, and a game the organizer added by hand (not a dispute);
    round 2, table 2: the phones disagreed and nobody settled it (it counts for nobody);
    round 2, table 1: the organizer changed a confirmed game's winner, then deleted
    another disputed game."""
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    )
    first, second = factories.seated_names(event, 1)[:2]
    factories.report(event, 1, first, game_number=1)
    factories.report(event, 1, second, game_number=1)
    settle_game(
        game=_game(event, 1, 1), winner=Player.objects.get(event=event, name=first), by=organizer
    )
    at_two = factories.seated_players(event, 2)
    factories.report(event, 2, at_two[0])
    add_game(
        round_=factories.current_round(event),
        table=factories.table(event, 2),
        winner=at_two[1],
        by=organizer,
    )
    event = factories.close_current_round(event, organizer)
    event = advance_phase(event=event)

    a, b = factories.seated_names(event, 2)[:2]
    factories.report(event, 2, a, game_number=1)
    factories.report(event, 2, b, game_number=1)
    c, d = factories.seated_players(event, 1)[:2]
    factories.report(event, 1, c, game_number=1)
    factories.report(event, 1, c, game_number=1)
    settle_game(game=_game(event, 1, 2), winner=d, by=organizer)
    factories.report(event, 1, c, game_number=2)
    factories.report(event, 1, d, game_number=2)
    delete_game(game=_game(event, 1, 2, 2), by=organizer)
    event = factories.close_current_round(event, organizer)
    return start_debrief(event=event)


def test_the_report_holds_the_settings_and_every_tables_variant(organizer):
    event = eventful(organizer)
    report = build_report(event)

    assert report.players == 8
    assert report.rounds_played == 2
    assert report.played_on == event.rounds.get(number=1).started_at
    tables = list(Table.objects.filter(event=event).order_by("number"))
    assert [(t.number, t.label, t.lines) for t in report.tables] == [
        (t.number, variant_label(t.variant), tuple(rule_lines(t.variant))) for t in tables
    ]


def test_the_disputes_list_has_the_games_the_map_counts_and_how_each_ended(organizer):
    event = eventful(organizer)
    report = build_report(event)
    counted = {key: cell.disputes for key, cell in build_debrief(event).cells.items()}

    listed = [(line.round, line.table, line.game) for line in report.disputes]
    assert listed == [(1, 1, 1), (2, 1, 1), (2, 1, 2), (2, 2, 1)]
    # The map counts the same games: the one added by hand is no dispute.
    assert counted == {(1, 1): 1, (2, 1): 0, (1, 2): 2, (2, 2): 1}
    by_key = {(line.round, line.table, line.game): line for line in report.disputes}
    settled = by_key[(1, 1, 1)]
    assert len(settled.claims) == 2
    assert all(claim.endswith("(1 report)") for claim in settled.claims)
    assert re.fullmatch(
        r"Settled by ada at \d\d:\d\d: <bdi>Player \d{3}</bdi> won\.", settled.outcome
    )
    corrected = by_key[(2, 1, 1)]
    assert corrected.claims[0].endswith("(2 reports)")
    assert corrected.outcome.startswith("Settled by ada")
    assert by_key[(2, 1, 2)].outcome.startswith("Deleted by ada")
    assert by_key[(2, 2, 1)].outcome == "Still disputed: it counts for nobody."


def test_the_ladder_is_the_last_rounds_tables_top_first_most_games_first(organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    top = factories.seated_names(event, 2)
    factories.play_games(event, {2: [top[3], top[3], top[2]]})
    report = build_report(start_debrief(event=factories.close_current_round(event, organizer)))

    assert [line.place for line in report.ladder] == list(range(1, 9))
    assert [line.table for line in report.ladder] == [2, 2, 2, 2, 1, 1, 1, 1]
    assert [(line.name, line.games) for line in report.ladder[:4]] == [
        (top[3], 2),
        (top[2], 1),
        (top[0], 0),
        (top[1], 0),
    ]
    assert all(line.climb == 0 for line in report.ladder)
    assert report.final
    assert report.ladder_round == 1


def test_the_page_shows_every_part_and_names_every_variant(signed_in, organizer):
    event = eventful(organizer)
    html = signed_in.get(url("debrief_report", event.pk)).content.decode()

    for title in (
        "Settings",
        "Each table’s rules",
        "Where games were disputed",
        "Which rules met at each table",
        "Every player’s path",
        "Moves between tables",
        "Disputed games",
        "Final ladder, after round 2",
        "Still disputed: it counts for nobody.",
    ):
        assert title in html, title
    for table in Table.objects.filter(event=event):
        assert variant_label(table.variant) in html
    assert html.count("<svg") == 4
    # Two grids on one page: each has its own hatching.
    assert 'id="hatch-disputes"' in html
    assert 'id="hatch-clashes"' in html
    assert 'id="hatch"' not in html
    assert build_debrief(event).sentence in html
    assert "paper-a4" in html
    assert (
        "paper-letter"
        in signed_in.get(url("debrief_report", event.pk) + "?paper=letter").content.decode()
    )


def test_an_event_without_rounds_has_a_report_that_says_so(signed_in, event):
    html = signed_in.get(url("debrief_report", event.pk)).content.decode()
    assert "No round was played." in html
    assert "No game was disputed." in html


def test_a_finished_event_has_its_report(signed_in, organizer):
    event = finish_event(event=eventful(organizer))
    response = signed_in.get(url("debrief_report", event.pk))
    assert response.status_code == 200
    assert "Finished" in response.content.decode()


def test_only_the_organizer_reads_the_report(client, django_user_model, event):
    assert client.get(url("debrief_report", event.pk))["Location"].startswith(url("login"))
    client.force_login(factories.make_organizer(django_user_model, "bob"))
    assert client.get(url("debrief_report", event.pk)).status_code == 404


# The session and user, the event; the debrief's five and its disputed games' three; the
# rounds, the tables, the games, the reports and the corrections; the last round's winners.
REPORT_QUERIES = 20  # the observers' notes: one query; the room's answers: two


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_report_costs_the_same_at_20_and_500_players(
    signed_in, organizer, django_assert_max_num_queries, players, tables
):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=players, tables=tables, rounds_planned=2)
    )
    while True:
        for number in range(1, tables + 1):
            names = factories.seated_names(event, number)
            factories.report(event, number, names[0], game_number=1)
            factories.report(event, number, names[-1], game_number=1)  # a dispute at each
        event = factories.close_current_round(event, organizer)
        if event.is_last_round:
            break
        event = advance_phase(event=event)
    event = start_debrief(event=event)

    with django_assert_max_num_queries(REPORT_QUERIES):
        response = signed_in.get(url("debrief_report", event.pk))
    assert response.status_code == 200
    report = response.context["r"]
    assert len(report.ladder) == players
    assert len(report.disputes) == tables * 2


def test_the_printed_report_names_the_difference_set(signed_in, organizer):
    event = eventful(organizer)
    page = signed_in.get(url("debrief_report", event.pk)).content.decode()
    assert "Differences between tables" in page
    assert "Classic: direction, trump, trump any time" in page
    Event.objects.filter(pk=event.pk).update(
        difference_set="custom", custom_clauses=["fewest", "notrump"]
    )
    page = signed_in.get(url("debrief_report", event.pk)).content.decode()
    assert "Custom: no trump, fewest tricks wins" in page
