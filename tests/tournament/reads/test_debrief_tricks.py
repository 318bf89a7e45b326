"""The tricks' story and a trick replayed at a screen event's debrief: each table-round's
tricks in order with their disagreement, settling and seconds; the clash map counting the
tricks in disagreement; a trick's cards and every change of pointing with the names hidden
unless asked for; the table's pad at the end of a game; and what it all costs in queries
at 20 and 500 players."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tables.models import Deal, Pointing, TakenTrick
from tests import factories
from tests.built_once import built_once
from tests.debrief_screens import (
    AGREED_AFTER,
    FIRST_DRAWING,
    QUICK,
    SETTLED_AFTER,
    Clock,
    story_event,
    take_agreed,
)
from tests.screen_factories import screen_event
from tournament.models import DebriefStep, Event, Phase
from tournament.reads.debrief import build_debrief
from tournament.reads.debrief_replay import Choice, chosen_game, tricks_page
from tournament.reads.debrief_report import build_report
from tournament.reads.debrief_tricks import tricks_story
from tournament.reads.projector import ScreenKind, build_screen
from tournament.rules import charts

pytestmark = pytest.mark.django_db

# The debrief's three at a screen event, the rounds, the tables, the disputed games' three,
# the dispute lines' three, the last round's winners, the notes, the room's answers' two,
# and the tricks.
REPORT_AT_A_SCREEN_EVENT = 16


@pytest.fixture(scope="module")
def story(django_db_setup, django_db_blocker) -> Iterator[Event]:
    """The story event, built once for the module's tests (tests/built_once.py)."""
    yield from built_once(
        django_db_blocker, lambda: story_event(factories.make_organizer(get_user_model(), "ada"))
    )


@pytest.fixture
def organizer(story):
    """The story's organizer, as the suite's organizer fixture is everywhere else."""
    return get_user_model().objects.get(pk=story.owner_id)


@pytest.fixture
def event(story) -> Event:
    return Event.objects.get(pk=story.pk)


def test_each_table_rounds_tricks_are_told_in_order_with_their_seconds(event):
    story = tricks_story(event)
    assert story.rounds == [1, 2]
    first = story.strips[(1, 1)].tricks
    assert [(t.game, t.number) for t in first[:2]] == [(1, 1), (1, 2)]
    assert first[-1].game == 2, "game 2's first trick follows game 1"
    assert (first[0].seconds, first[0].disagreed, first[0].settled) == (AGREED_AFTER, True, False)
    assert {t.seconds for t in first[1:]} == {QUICK}
    assert not any(t.disagreed for t in first[1:])
    (settled,) = story.strips[(2, 1)].tricks
    assert (settled.seconds, settled.disagreed, settled.settled) == (SETTLED_AFTER, True, True)
    assert [len(story.strips[(t, 2)].tricks) for t in (1, 2)] == [1, 1]


def test_practice_deals_are_left_out_of_the_story(event):
    practice = TakenTrick.objects.filter(deal__round__event=event, deal__practice=True)
    counted = TakenTrick.objects.filter(deal__round__event=event, deal__practice=False)
    story = tricks_story(event)
    told = sum(len(strip.tricks) for strip in story.strips.values())
    assert told == counted.count()
    assert not practice.filter(deal__in=counted.values("deal")).exists()


def test_the_clash_map_counts_the_tricks_in_disagreement_at_a_screen_event(event):
    """It did before the story (tournament.reads.debrief.disagreed_tricks): pinned here."""
    cells = build_debrief(event).cells
    assert cells[(1, 1)].disputes == 1
    assert cells[(2, 1)].disputes == 1
    assert cells[(1, 2)].disputes == 0
    assert build_debrief(event).total_disputes == 2


def test_each_strip_carries_the_clash_of_its_table_round(event):
    data = build_debrief(event)
    story = tricks_story(event, data)
    assert {key: strip.kind for key, strip in story.strips.items()} == {
        key: cell.kind for key, cell in data.cells.items()
    }


def test_the_charts_summaries_and_file_say_the_story_without_a_name(event):
    story = tricks_story(event)
    (table_2, table_1) = story.summaries(1)
    assert table_1.startswith("Table 1, round 1: ")
    assert "1 settled by the organizer" in table_2
    markup = story.story_chart()
    names = list(event.players.values_list("name", flat=True))
    assert not any(name in markup for name in names)
    assert 'data-disagreed="1"' in markup
    file = story.svg_file(1)
    assert file.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')
    assert "Dot: settled by the organizer" in file


def test_a_trick_replayed_hides_the_names_unless_asked(event):
    choice = Choice(round=1, table=1, game=1, trick=1)
    game = chosen_game(event, choice)
    assert game is not None
    replay = game.replay
    assert replay is not None
    deal = game.deal
    assert [card.player for card in replay.cards] == [
        f"Player {deal.seats.index(p) + 1}" for p in _players_in_play_order(deal)
    ]
    names = set(event.players.values_list("name", flat=True))
    told = {c.player for c in replay.cards} | {row.player for row in replay.pointing}
    assert not told & names, "no name is in the replay"
    second = replay.pointing[1]
    assert len(second.changes) == 2, "every change of pointing is kept"
    assert second.changes[0].card.code != second.changes[1].card.code
    assert second.changes[1].seconds == AGREED_AFTER
    assert (replay.seconds, replay.disagreed, replay.settled) == (AGREED_AFTER, True, False)
    assert replay.taker == replay.cards[0].player

    shown = chosen_game(event, Choice(round=1, table=1, game=1, trick=1, names=True))
    assert shown is not None
    assert shown.replay is not None
    assert {row.player for row in shown.replay.pointing} <= names


def _players_in_play_order(deal: Deal) -> list[int]:
    return list(deal.plays.filter(trick=1).order_by("pk").values_list("player_id", flat=True))


def test_a_trick_the_organizer_settled_says_so(event):
    game = chosen_game(event, Choice(round=1, table=2, game=1, trick=1))
    assert game is not None
    assert game.replay is not None
    assert game.replay.settled
    assert game.replay.seconds == SETTLED_AFTER


def test_the_pad_at_the_end_of_a_game_shows_what_was_drawn_until_then(event):
    first = chosen_game(event, Choice(round=1, table=1, game=1))
    second = chosen_game(event, Choice(round=1, table=1, game=2))
    assert first is not None
    assert second is not None
    assert first.replay is None, "no trick chosen: the pad and the disputed tricks only"
    assert first.pad_at == first.deal.ended_at
    assert [s.points_text for s in first.pad.strokes] == [FIRST_DRAWING]
    assert second.pad.drawings == 2
    assert second.pad_at == second.deal.ended_at


def test_the_page_lists_the_games_disputed_tricks_and_says_what_is_missing(event):
    page = tricks_page(event, Choice(round=1, table=1, game=1))
    assert [t.number for t in page.disputed] == [1]
    assert page.shown_round == 1
    assert page.round_chart is not None
    assert not page.missing
    nothing = tricks_page(event, Choice(round=1, table=1, game=9))
    assert nothing.game is None
    assert nothing.missing == "Table 1 played no game 9 in round 1."
    unplayed = tricks_page(event, Choice(round=2, table=1, game=1, trick=6))
    assert unplayed.missing == "No card was played to trick 6 of that game."
    assert unplayed.names_shown_query == "round=2&table=1&game=1&trick=6&names=1"


def tricks_everywhere(organizer, players: int, tables: int):
    """A screen event in round 1: a trick played, disagreed and agreed at table 1, and one
    trick taken at every other table (written at once: what the reads count is rows)."""
    event = factories.start_rounds(screen_event(owner=organizer, players=players, tables=tables))
    take_agreed(event, 1, Clock(), after=12, disagree=True)
    now = timezone.now()
    TakenTrick.objects.bulk_create(
        TakenTrick(
            deal=deal,
            number=1,
            taker_id=deal.seats[0],
            card=deal.hands[str(deal.seats[0])][0],
            complete_at=now - timedelta(seconds=deal.table.number),
            taken_at=now,
            disagreed=deal.table.number % 2 == 0,
        )
        for deal in Deal.objects.filter(round__event=event, practice=False, ended_at__isnull=True)
        .exclude(table__number=1)
        .select_related("table")
    )
    assert Pointing.objects.filter(deal__round__event=event, deal__practice=False).exists()
    event.refresh_from_db()
    return event


@pytest.mark.parametrize(("players", "tables"), [(20, 4), (500, 125)])
def test_the_story_and_a_replay_cost_the_same_few_queries_at_any_size(
    organizer, django_assert_num_queries, players, tables
):
    event = tricks_everywhere(organizer, players, tables)
    # The debrief's three at a screen event (tables, seats, tricks in disagreement), and
    # the story's tricks.
    with django_assert_num_queries(4):
        story = tricks_story(event)
        story.story_chart()
        story.round_chart(1)
    assert len(story.strips) == tables
    with django_assert_num_queries(10):  # and the deal, its trick's rows and names, the pad
        page = tricks_page(event, Choice(round=1, table=1, game=1, trick=1, names=True))
    assert page.game is not None
    assert page.game.replay is not None
    assert len(page.game.replay.cards) == players // tables
    assert isinstance(page.story.strips[(1, 1)].tricks[0], charts.TrickMark)


@pytest.mark.parametrize(("players", "tables"), [(20, 4), (500, 125)])
def test_the_report_and_the_projectors_story_cost_the_same_at_any_size(
    organizer, django_assert_num_queries, players, tables
):
    event = tricks_everywhere(organizer, players, tables)
    # The projector's screen at the debrief's tricks' story (set here, not stepped to:
    # the round is still open, and only what the screen reads is counted).
    event.phase, event.debrief_step = Phase.DEBRIEF, DebriefStep.TRICKS
    event.save(update_fields=["phase", "debrief_step"])
    with django_assert_num_queries(4):  # the debrief's three at a screen event, the tricks
        screen = build_screen(event)
    assert screen.kind == ScreenKind.TRICKS
    assert screen.chart is not None
    assert screen.chart.count('class="strip"') == tables
    # The report's own at a screen event (its disputed games find none), and the tricks.
    with django_assert_num_queries(REPORT_AT_A_SCREEN_EVENT):
        report = build_report(event)
    assert [chart.number for chart in report.tricks] == [1]
    assert report.tricks[0].svg.count('class="strip"') == tables
