"""Running the event: phases, closing a round (the moves committed equal plan_moves, in one
transaction), undoing a close, absent and returning players, and the changed-moves guard."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.models import Game, GameReport, GameStatus
from tables.writes.reporting import report_game
from tests import factories
from tests.properties import examples
from tournament.common.errors import Refused
from tournament.models import Event, Phase, Player, PlayerStatus, Round, RoundStatus, Seat
from tournament.reads.close_preview import preview_close
from tournament.rules.movement import plan_moves
from tournament.rules.table_plan import table_count_options
from tournament.writes.rounds import (
    ClockAction,
    MovesChanged,
    advance_phase,
    change_clock,
    close_round,
    delete_event,
    reveal_rules,
    start_debrief,
    undo_close_round,
)
from tournament.writes.seating import set_player_status

pytestmark = pytest.mark.django_db


PROPERTY = settings(
    database=None,
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def round_one(organizer, players=12, tables=3, **fields) -> Event:
    return factories.start_rounds(
        factories.seated_event(owner=organizer, players=players, tables=tables, **fields)
    )


def someone_at(event: Event, table_number: int, round_number: int | None = None) -> str:
    seats = factories.seats_of(event, round_number or event.round_number)
    return sorted(name for name, number in seats.items() if number == table_number)[0]


# --- the property: what the console commits is what plan_moves says -----------------------


@st.composite
def random_events(draw):
    headcount = draw(st.integers(min_value=6, max_value=40))
    plan = draw(st.sampled_from(table_count_options(headcount)))
    seed = draw(st.integers(min_value=0, max_value=999_999))
    absent_share = draw(st.sampled_from([0.0, 0.0, 0.1, 0.25]))
    return headcount, plan.table_count, seed, absent_share


@PROPERTY
@given(random_events())
def test_committed_seats_equal_plan_moves(organizer, spec):
    headcount, table_count, seed, absent_share = spec
    rng = random.Random(seed)
    event = round_one(organizer, players=headcount, tables=table_count, seed=seed)
    round_ = event.current_round
    seated: dict[int, list[Player]] = {}
    for seat in round_.seats.select_related("table", "player"):
        seated.setdefault(seat.table.number, []).append(seat.player)
    tables = {t.number: t for t in event.tables.all()}
    for number, players in seated.items():
        for game in range(1, rng.randint(0, 6) + 1):
            report_game(
                table=tables[number],
                round_number=1,
                client_key=f"{event.pk}-{number}-{game}-a",
                winner=rng.choice(players),
                game_number=game,
            )
            if rng.random() < 0.2:  # a second phone disagrees: the game counts for nobody
                report_game(
                    table=tables[number],
                    round_number=1,
                    client_key=f"{event.pk}-{number}-{game}-b",
                    winner=rng.choice(players),
                    game_number=game,
                )
    everyone = [p for players in seated.values() for p in players]
    absent = {p.name for p in everyone if rng.random() < absent_share}
    for player in everyone:
        if player.name in absent:
            set_player_status(player=player, status=PlayerStatus.ABSENT)

    expected = plan_moves(round_.games_won_by_table())
    close_round(round_=round_, by=organizer)

    committed = factories.seats_of(event, 2)
    assert committed == {name: table for name, table in expected.items() if name not in absent}


# --- one transaction ---------------------------------------------------------------------


def test_a_close_that_fails_halfway_changes_nothing(organizer, monkeypatch):
    event = round_one(organizer)
    factories.play_games(event, {1: [someone_at(event, 1)]})
    event.refresh_from_db()
    before = (event.phase, event.version, event.clock_ends_at, event.round_number)
    seats_before = list(Seat.objects.order_by("pk").values_list("pk", "round_id", "table_id"))

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Seat.objects, "bulk_create", explode)
    with pytest.raises(RuntimeError):
        close_round(round_=event.current_round, by=organizer)

    event.refresh_from_db()
    assert (event.phase, event.version, event.clock_ends_at, event.round_number) == before
    assert Round.objects.get(event=event, number=1).status == RoundStatus.OPEN
    assert not Round.objects.filter(event=event, number=2).exists()
    assert list(Seat.objects.order_by("pk").values_list("pk", "round_id", "table_id")) == (
        seats_before
    )


def test_closing_twice_is_refused_and_seats_once(organizer):
    event = round_one(organizer)
    round_ = event.current_round
    close_round(round_=round_, by=organizer)
    with pytest.raises(Refused, match="not open"):
        close_round(round_=round_, by=organizer)
    assert Seat.objects.filter(round__event=event, round__number=2).count() == 12


def test_a_result_that_changes_a_move_refuses_the_close_and_changes_nothing(organizer):
    event = round_one(organizer)
    shown = preview_close(event.current_round).fingerprint
    last = factories.seated_names(event, 2)[-1]  # 0 games: the alphabet sends them down
    factories.report(event, 2, last)  # now they have the most games: they move up
    version = Event.objects.get(pk=event.pk).version
    with pytest.raises(MovesChanged, match="Some moves changed while you were looking"):
        close_round(round_=event.current_round, by=organizer, expected_moves=shown)
    assert event.current_round.status == RoundStatus.OPEN
    assert Event.objects.get(pk=event.pk).version == version
    assert not Round.objects.filter(event=event, number=2).exists()
    fresh = preview_close(event.current_round).fingerprint
    close_round(round_=event.current_round, by=organizer, expected_moves=fresh)
    assert factories.seats_of(event, 2)[last] == 3


def test_results_that_change_no_move_do_not_stop_the_close(organizer):
    event = round_one(organizer)
    shown = preview_close(event.current_round)
    first = factories.seated_names(event, 2)[0]  # already first, by the alphabet: moves up
    factories.play_games(event, {2: [first, first], 1: factories.seated_names(event, 1)[:1]})
    assert Event.objects.get(pk=event.pk).version > shown.version
    close_round(round_=event.current_round, by=organizer, expected_moves=shown.fingerprint)
    assert Round.objects.get(event=event, number=1).status == RoundStatus.CLOSED
    assert factories.seats_of(event, 2) == {
        name: destination[1] for name, destination in shown.seating.items()
    }


def test_a_player_marked_absent_meanwhile_changes_the_moves(organizer):
    event = round_one(organizer)
    shown = preview_close(event.current_round).fingerprint
    player = Player.objects.get(event=event, name=factories.seated_names(event, 1)[0])
    set_player_status(player=player, status=PlayerStatus.ABSENT)
    with pytest.raises(MovesChanged):
        close_round(round_=event.current_round, by=organizer, expected_moves=shown)


def test_after_the_last_round_no_result_stops_the_close(organizer):
    event = round_one(organizer, rounds_planned=1)
    shown = preview_close(event.current_round).fingerprint
    factories.report(event, 2, factories.seated_names(event, 2)[-1])
    close_round(round_=event.current_round, by=organizer, expected_moves=shown)
    assert Round.objects.get(event=event, number=1).status == RoundStatus.CLOSED


def test_close_records_who_and_when_and_shows_the_moves(organizer):
    event = round_one(organizer)
    moves = close_round(round_=event.current_round, by=organizer)
    event.refresh_from_db()
    closed = Round.objects.get(event=event, number=1)
    assert closed.closed_by == organizer
    assert closed.closed_at is not None
    assert event.phase == Phase.BETWEEN_ROUNDS
    assert not event.has_clock
    assert set(moves) == set(factories.seats_of(event, 1))


def test_the_last_round_closes_without_a_next_seating_and_then_the_debrief(organizer):
    event = round_one(organizer, rounds_planned=1)
    close_round(round_=event.current_round, by=organizer)
    assert not Round.objects.filter(event=event, number=2).exists()
    event = advance_phase(event=event)
    assert event.phase == Phase.DEBRIEF


def dispute_game_one(event: Event, table_number: int) -> None:
    first, second = factories.seated_names(event, table_number)[:2]
    factories.report(event, table_number, first, game_number=1)
    factories.report(event, table_number, second, game_number=1)


def test_a_disputed_game_is_closed_only_with_the_organizers_consent(organizer):
    event = round_one(organizer)
    dispute_game_one(event, 2)
    assert Game.objects.get(round__event=event).status == GameStatus.DISPUTED
    version = Event.objects.get(pk=event.pk).version
    shown = preview_close(event.current_round).fingerprint
    with pytest.raises(Refused) as refused:
        close_round(
            round_=event.current_round,
            by=organizer,
            expected_moves=shown,
            disputed_count_for_nobody=False,
        )
    assert refused.value.message == (
        "1 game is disputed. Settle it, or tick “Close anyway”: it then counts for nobody."
    )
    assert Round.objects.get(event=event, number=1).status == RoundStatus.OPEN
    assert not Round.objects.filter(event=event, number=2).exists()
    assert Event.objects.get(pk=event.pk).version == version

    close_round(
        round_=event.current_round,
        by=organizer,
        expected_moves=shown,
        disputed_count_for_nobody=True,
    )
    assert Round.objects.get(event=event, number=1).status == RoundStatus.CLOSED
    standings = Round.objects.get(event=event, number=1).games_won_by_table()
    assert set(standings[2].values()) == {0}  # the disputed game counts for nobody


def test_without_disputes_no_consent_is_needed(organizer):
    event = round_one(organizer)
    factories.play_games(event, {1: [someone_at(event, 1)]})
    close_round(round_=event.current_round, by=organizer, disputed_count_for_nobody=False)
    assert Round.objects.get(event=event, number=1).status == RoundStatus.CLOSED


# --- undo --------------------------------------------------------------------------------


def test_undo_reopens_the_round_and_drops_the_next_seating(organizer):
    event = round_one(organizer)
    factories.play_games(event, {1: [someone_at(event, 1)]})
    factories.close_current_round(event, organizer)
    reopened = undo_close_round(event=event)
    event.refresh_from_db()
    assert reopened.status == RoundStatus.OPEN
    assert reopened.closed_by is None
    assert event.phase == Phase.ROUND
    assert event.round_number == 1
    assert event.time_is_up()
    assert not Round.objects.filter(event=event, number=2).exists()
    assert Game.objects.filter(round=reopened).count() == 1  # results kept


def test_undo_is_allowed_after_the_next_round_started_without_games(organizer):
    event = round_one(organizer)
    factories.close_current_round(event, organizer)
    event = advance_phase(event=event)
    assert event.round_number == 2
    undo_close_round(event=event)
    event.refresh_from_db()
    assert event.round_number == 1
    assert event.phase == Phase.ROUND


def test_undo_is_refused_once_the_next_round_has_a_reported_game(organizer):
    event = round_one(organizer)
    factories.close_current_round(event, organizer)
    event = advance_phase(event=event)
    factories.report(event, 2, someone_at(event, 2))
    with pytest.raises(Refused, match="already has reported games"):
        undo_close_round(event=event)
    event.refresh_from_db()
    assert event.round_number == 2


def test_undo_is_refused_before_any_close(organizer):
    event = round_one(organizer)
    with pytest.raises(Refused, match="No round has been closed"):
        undo_close_round(event=event)


def two_rounds_closed(organizer) -> Event:
    event = round_one(organizer)
    factories.close_current_round(event, organizer)
    event = advance_phase(event=event)
    factories.close_current_round(event, organizer)
    return event


def test_a_second_undo_of_the_same_close_is_refused(organizer):
    event = two_rounds_closed(organizer)
    assert undo_close_round(event=event, expected_round=2).number == 2
    with pytest.raises(Refused, match="The close of round 2 has already been undone"):
        undo_close_round(event=event, expected_round=2)
    statuses = dict(Round.objects.filter(event=event).values_list("number", "status"))
    assert statuses == {1: RoundStatus.CLOSED, 2: RoundStatus.OPEN}  # round 3 seating gone
    assert Seat.objects.filter(round__event=event, round__number=2).count() == 12
    event.refresh_from_db()
    assert (event.phase, event.round_number) == (Phase.ROUND, 2)


def test_an_undo_offered_for_an_older_round_is_refused(organizer):
    event = two_rounds_closed(organizer)
    with pytest.raises(Refused, match="Round 2 has been closed since"):
        undo_close_round(event=event, expected_round=1)
    assert Round.objects.get(event=event, number=2).status == RoundStatus.CLOSED


@pytest.mark.parametrize("rounds_planned", [1, 3])  # after the last round, or ended early
def test_undo_is_refused_once_the_debrief_has_started(organizer, rounds_planned):
    # The table phones stop polling at the debrief: a round reopened then would never
    # reach them, so the debrief makes the results final.
    event = round_one(organizer, players=8, tables=2, rounds_planned=rounds_planned)
    factories.close_current_round(event, organizer)
    event = reveal_rules(event=start_debrief(event=event))
    version = event.version
    with pytest.raises(Refused) as refused:
        undo_close_round(event=event, expected_round=1)
    assert refused.value.message == "The debrief has started: the results are final."
    event.refresh_from_db()
    assert (event.phase, event.rules_revealed, event.version) == (Phase.DEBRIEF, True, version)
    assert Round.objects.get(event=event, number=1).status == RoundStatus.CLOSED


def undo_blocker(event: Event, *, next_round_has_games: bool) -> str | None:
    """What the console shows beside its undo button (Console.undo_blocker)."""
    closed = event.rounds.filter(status=RoundStatus.CLOSED).order_by("-number").first()
    return event.undo_refusal(
        last_closed_number=closed.number if closed else None,
        next_round_has_games=next_round_has_games,
    )


def test_the_consoles_undo_blocker_says_what_undo_would_say(organizer):
    event = round_one(organizer)
    with pytest.raises(Refused) as refused:
        undo_close_round(event=event)
    assert undo_blocker(event, next_round_has_games=False) == refused.value.message
    factories.close_current_round(event, organizer)
    event = advance_phase(event=event)
    factories.report(event, 2, someone_at(event, 2))
    with pytest.raises(Refused) as refused:
        undo_close_round(event=event)
    assert undo_blocker(event, next_round_has_games=True) == refused.value.message
    assert undo_blocker(event, next_round_has_games=False) is None
    factories.close_current_round(event, organizer)
    event = start_debrief(event=event)
    with pytest.raises(Refused) as refused:
        undo_close_round(event=event)
    assert undo_blocker(event, next_round_has_games=False) == refused.value.message


# --- absent and returning players --------------------------------------------------------


def test_an_absent_player_is_not_seated_next_round(organizer):
    event = round_one(organizer)
    player = Player.objects.get(event=event, name="Player 005")
    set_player_status(player=player, status=PlayerStatus.ABSENT)
    factories.close_current_round(event, organizer)
    assert "Player 005" not in factories.seats_of(event, 2)
    assert "Player 005" in factories.seats_of(event, 1)  # the past stays as it was


def test_a_returning_player_joins_the_lowest_table(organizer):
    event = round_one(organizer)
    player = Player.objects.get(event=event, name="Player 005")
    set_player_status(player=player, status=PlayerStatus.ABSENT)
    factories.close_current_round(event, organizer)
    event = advance_phase(event=event)
    set_player_status(player=player, status=PlayerStatus.PRESENT)  # back during round 2
    factories.close_current_round(event, organizer)
    seat = Seat.objects.get(round__event=event, round__number=3, player=player)
    assert seat.table.number == 1
    assert seat.reason == "returning"


def test_a_player_back_between_rounds_is_seated_at_once(organizer):
    event = round_one(organizer)
    player = Player.objects.get(event=event, name="Player 005")
    set_player_status(player=player, status=PlayerStatus.ABSENT)
    factories.close_current_round(event, organizer)
    set_player_status(player=player, status=PlayerStatus.PRESENT)
    assert factories.seats_of(event, 2)["Player 005"] == 1
    set_player_status(player=player, status=PlayerStatus.ABSENT)
    set_player_status(player=player, status=PlayerStatus.PRESENT, table=factories.table(event, 3))
    assert factories.seats_of(event, 2)["Player 005"] == 3


# --- phases ------------------------------------------------------------------------------


def test_phases_run_in_order(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    seen = [event.phase]
    for _ in range(3):
        event = advance_phase(event=event)
        seen.append(event.phase)
    assert seen == ["setup", "study", "practice", "round"]
    with pytest.raises(Refused, match="Close the round first"):
        advance_phase(event=event)


def test_a_second_click_on_next_phase_does_not_skip_the_study(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    advance_phase(event=event, expected_phase=Phase.SETUP)
    # The same event object, as a second request read it before the first committed.
    with pytest.raises(Refused, match="already moved on"):
        advance_phase(event=event, expected_phase=Phase.SETUP)
    event.refresh_from_db()
    assert event.phase == Phase.STUDY


def test_a_button_shown_in_an_earlier_round_is_refused(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    shown_in_round_1 = event.phase_key
    event = factories.close_current_round(event, organizer)
    shown_between_1_and_2 = event.phase_key
    event = advance_phase(event=event, expected_phase=shown_between_1_and_2)
    event = factories.close_current_round(event, organizer)

    # A stale "Start round 2" must not open round 3, nor round 1's clock touch round 2's.
    with pytest.raises(Refused, match="already moved on"):
        advance_phase(event=event, expected_phase=shown_between_1_and_2)
    event = advance_phase(event=event, expected_phase=event.phase_key)
    with pytest.raises(Refused, match="already moved on"):
        change_clock(event=event, action=ClockAction.TIME_UP, expected_phase=shown_in_round_1)
    event.refresh_from_db()
    assert (event.phase, event.round_number, event.time_is_up()) == (Phase.ROUND, 3, False)


def test_the_clock_changes_the_clock_that_runs_now(organizer):
    stale = factories.seated_event(owner=organizer, players=8, tables=2, practice_minutes=3)
    stale = advance_phase(event=stale)  # study, 5 minutes
    advance_phase(event=stale)  # meanwhile, another tab starts practice: 3 minutes
    event = change_clock(event=stale, action=ClockAction.PAUSE)
    assert event.phase == Phase.PRACTICE
    assert timedelta(minutes=2) < event.clock_paused_remaining <= timedelta(minutes=3)
    event = change_clock(event=stale, action=ClockAction.ADD_MINUTE)
    assert timedelta(minutes=3) < event.clock_paused_remaining <= timedelta(minutes=4)
    event = change_clock(event=stale, action=ClockAction.RESUME)
    assert not event.clock_is_paused
    event = change_clock(event=stale, action=ClockAction.TIME_UP)
    assert event.time_is_up()
    assert Event.objects.get(pk=event.pk).time_is_up()


def test_a_clock_button_from_an_earlier_phase_is_refused(organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=8, tables=2))
    event = advance_phase(event=event, expected_phase=Phase.STUDY)
    version = event.version
    with pytest.raises(Refused, match="already moved on"):
        change_clock(event=event, action=ClockAction.TIME_UP, expected_phase=Phase.STUDY)
    event.refresh_from_db()
    assert not event.time_is_up()
    assert event.version == version


def test_the_clock_needs_a_phase_with_a_clock(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    with pytest.raises(Refused, match="No clock runs in this phase"):
        change_clock(event=event, action=ClockAction.PAUSE)


def test_study_needs_a_table_plan(organizer):
    event = factories.make_event(owner=organizer)
    with pytest.raises(Refused, match="table plan"):
        advance_phase(event=event)


def test_debrief_is_refused_during_setup_and_an_open_round(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    with pytest.raises(Refused, match="Nothing has been played"):
        start_debrief(event=event)
    event = factories.start_rounds(event)
    with pytest.raises(Refused, match="Close the round"):
        start_debrief(event=event)
    factories.close_current_round(event, organizer)
    assert start_debrief(event=event).phase == Phase.DEBRIEF
    with pytest.raises(Refused, match="already"):
        start_debrief(event=event)


def test_rules_are_revealed_only_at_the_debrief(organizer):
    event = round_one(organizer, players=8, tables=2)
    with pytest.raises(Refused):
        reveal_rules(event=event)
    factories.close_current_round(event, organizer)
    start_debrief(event=event)
    version = Event.objects.get(pk=event.pk).version
    event = reveal_rules(event=event)
    assert event.rules_revealed
    assert event.version == version + 1
    assert not reveal_rules(event=event, revealed=False).rules_revealed


def test_delete_event_removes_everything(organizer):
    event = round_one(organizer, players=8, tables=2)
    factories.play_games(event, {1: [someone_at(event, 1)]})
    delete_event(event=event)
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not Player.objects.exists()
    assert not GameReport.objects.exists()
