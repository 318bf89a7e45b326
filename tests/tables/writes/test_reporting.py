"""Reporting games from phones: outcomes, idempotency, disputes, late reports, and that a
game is never counted twice (the organizer's corrections: test_corrections.py)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import IntegrityError
from django.db.models import F

from tables.models import Game, GameReport, GameStatus, ReportState
from tables.reads import prepared
from tables.writes import reporting, second_taps
from tables.writes.corrections import accept_late_report
from tables.writes.reporting import Outcome, report_game
from tables.writes.second_taps import RetapQuestion
from tests import factories
from tests.factories import report, seated_players, table
from tournament.common.errors import Refused
from tournament.models import Seat
from tournament.writes.rounds import advance_phase, close_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    """Eight players at two tables, round 1 open."""
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    return factories.start_rounds(event)


def test_first_report_records_the_game(playing):
    alice = seated_players(playing, 1)[0]

    result = report(playing, 1, alice, key="k1")

    assert result.outcome == Outcome.RECORDED
    assert result.game.number == 1
    assert result.game.winner == alice
    assert result.game.status == GameStatus.UNCONFIRMED
    assert result.report.state == ReportState.COUNTED
    assert result.game.finished is True


def test_next_report_without_a_number_is_the_next_game(playing):
    first, second = seated_players(playing, 1)[:2]
    report(playing, 1, first)

    result = report(playing, 1, second)

    assert result.outcome == Outcome.RECORDED
    assert result.game.number == 2


def test_second_phone_naming_the_same_winner_confirms(playing):
    alice = seated_players(playing, 1)[0]
    report(playing, 1, alice, key="phone-a", game_number=1)

    result = report(playing, 1, alice, key="phone-b", game_number=1)

    assert result.outcome == Outcome.CONFIRMED
    assert Game.objects.get().status == GameStatus.CONFIRMED
    assert GameReport.objects.filter(game=result.game).count() == 2


def test_second_phone_naming_another_winner_disputes_and_keeps_both(playing):
    alice, bob = seated_players(playing, 1)[:2]
    report(playing, 1, alice, key="phone-a", game_number=1)

    result = report(playing, 1, bob, key="phone-b", game_number=1)

    assert result.outcome == Outcome.DISPUTED
    game = Game.objects.get()
    assert game.status == GameStatus.DISPUTED
    assert {r.winner for r in game.reports.all()} == {alice, bob}


def test_a_third_report_on_a_disputed_game_stays_disputed(playing):
    alice, bob = seated_players(playing, 1)[:2]
    report(playing, 1, alice, game_number=1)
    report(playing, 1, bob, game_number=1)

    result = report(playing, 1, alice, game_number=1)

    assert result.outcome == Outcome.DISPUTED
    assert Game.objects.get().status == GameStatus.DISPUTED


def test_same_key_again_stores_nothing_new(playing):
    alice = seated_players(playing, 1)[0]
    first = report(playing, 1, alice, key="double-tap", game_number=1)
    version = type(playing).objects.get(pk=playing.pk).version

    again = report(playing, 1, alice, key="double-tap", game_number=1)

    assert again.outcome == Outcome.REPEATED
    assert again.report.pk == first.report.pk
    assert again.game.winner == alice
    assert GameReport.objects.count() == 1
    assert Game.objects.count() == 1
    assert type(playing).objects.get(pk=playing.pk).version == version


@pytest.mark.parametrize(
    "other",
    [
        {"winner": 1},  # another winner
        {"game_number": 1},  # the same winner for an earlier game
        {"round_number": 2},  # another round
    ],
)
def test_same_key_with_another_report_is_refused_and_changes_nothing(playing, other):
    alice, bob = seated_players(playing, 1)[:2]
    report(playing, 1, bob, game_number=1)
    report(playing, 1, alice, key="reused-key", game_number=2)
    version = type(playing).objects.get(pk=playing.pk).version
    winner = seated_players(playing, 1)[other.pop("winner", 0)]

    with pytest.raises(Refused, match="already used for another report"):
        report(playing, 1, winner, key="reused-key", **{"game_number": 2, **other})

    assert GameReport.objects.count() == 2
    assert Game.objects.get(number=2).winner == alice
    assert type(playing).objects.get(pk=playing.pk).version == version


def test_same_key_with_other_tricks_is_refused(playing):
    players = seated_players(playing, 1)
    first = {players[0]: 1, players[1]: 3, players[2]: 0, players[3]: 2}
    _tricks(playing, first, key="tricks-key")

    with pytest.raises(Refused, match="already used for another report"):
        _tricks(playing, {**first, players[0]: 3, players[1]: 1}, key="tricks-key")

    again = _tricks(playing, first, key="tricks-key")
    assert again.outcome == Outcome.REPEATED
    assert Game.objects.get().winner == players[1]


def test_a_key_from_another_table_is_refused_without_showing_its_game(playing):
    report(playing, 1, seated_players(playing, 1)[0], key="table-one-key")

    with pytest.raises(Refused):
        report(playing, 2, seated_players(playing, 2)[0], key="table-one-key")


def test_two_reports_racing_for_game_k_make_one_game(playing, monkeypatch):
    """The second report does not see game k (the first was created a moment later), so
    it tries to create it too: the unique constraint turns it into a confirmation."""
    alice = seated_players(playing, 1)[0]
    report(playing, 1, alice, key="phone-a", game_number=1)
    monkeypatch.setattr(reporting, "_table_games", lambda *args: [])

    result = report(playing, 1, alice, key="phone-b", game_number=1)

    assert result.outcome == Outcome.CONFIRMED
    assert Game.objects.count() == 1
    assert GameReport.objects.filter(game=result.game).count() == 2


def test_same_key_racing_past_the_check_returns_the_stored_report(playing, monkeypatch):
    alice = seated_players(playing, 1)[0]
    first = report(playing, 1, alice, key="retry", game_number=1)
    real_lookup = prepared.report_by_key
    calls = []

    def miss_once(client_key):
        # The first lookup misses, as a request's does while another with its key is
        # not committed yet; the insert then meets the key's unique constraint.
        calls.append(client_key)
        return None if len(calls) == 1 else real_lookup(client_key)

    monkeypatch.setattr(prepared, "report_by_key", miss_once)

    again = report(playing, 1, alice, key="retry", game_number=1)

    assert again.outcome == Outcome.REPEATED
    assert again.report.pk == first.report.pk
    assert GameReport.objects.count() == 1


def test_a_confirmation_that_finds_the_game_disputed_meanwhile_says_disputed(playing, monkeypatch):
    """The game was read unconfirmed, and a dispute got in before the confirmation's
    update: the phone is told what the game is, never "confirmed"."""
    alice, bob = seated_players(playing, 1)[:2]
    report(playing, 1, alice, key="phone-a", game_number=1)
    stale = Game.objects.get(number=1)
    report(playing, 1, bob, key="phone-b", game_number=1)
    monkeypatch.setattr(reporting, "_table_games", lambda *args: [stale])

    result = report(playing, 1, alice, key="phone-c", game_number=1)

    assert result.outcome == Outcome.DISPUTED
    assert result.game.status == GameStatus.DISPUTED
    assert Game.objects.get(number=1).status == GameStatus.DISPUTED


def test_a_failure_other_than_the_key_is_not_hidden(playing, monkeypatch):
    def broken(*args, **kwargs):
        raise IntegrityError("disk full")

    monkeypatch.setattr(reporting, "_attach", broken)
    with pytest.raises(IntegrityError):
        report(playing, 1, seated_players(playing, 1)[0], key="new")


def test_a_game_is_never_counted_twice(playing):
    alice, bob = seated_players(playing, 1)[:2]
    report(playing, 1, alice, key="a1", game_number=1)
    report(playing, 1, alice, key="b1", game_number=1)  # confirmation
    report(playing, 1, alice, key="a1", game_number=1)  # retry of the first tap
    report(playing, 1, bob, key="a2", game_number=2)
    report(playing, 1, alice, key="a3", game_number=3)
    report(playing, 1, bob, key="b3", game_number=3)  # dispute: counts for nobody

    standings = playing.current_round.games_won_by_table()

    assert standings[1][alice.name] == 1
    assert standings[1][bob.name] == 1


def test_a_number_beyond_the_next_game_means_the_next_game(playing):
    alice = seated_players(playing, 1)[0]

    result = report(playing, 1, alice, game_number=7)

    assert result.game.number == 1


def test_game_number_below_one_is_refused(playing):
    with pytest.raises(Refused):
        report(playing, 1, seated_players(playing, 1)[0], game_number=0)


# --- a quick retap: the same name for the next game, a moment later ---------------------


def test_the_same_name_for_the_next_game_a_moment_later_is_asked_about_and_stores_nothing(
    playing,
):
    alice = seated_players(playing, 1)[0]
    first = report(playing, 1, alice, key="tap-1", game_number=1)
    moment_later = first.report.received_at + timedelta(milliseconds=300)

    with pytest.raises(RetapQuestion) as asked:
        report(
            playing, 1, alice, key="tap-2", game_number=2, previous_key="tap-1", now=moment_later
        )

    assert asked.value.message == (
        f"Another game for {alice.name}? This phone reported game 1 a moment ago."
    )
    assert (asked.value.winner, asked.value.number) == (alice, 2)
    assert GameReport.objects.count() == 1
    assert Game.objects.count() == 1


def test_the_phone_id_finds_a_quick_retap_whose_first_answer_was_lost(playing):
    """The first answer never reached the phone, so its cookie does not know the report
    (no previous_key): the report stored with its phone id does."""
    alice = seated_players(playing, 1)[0]
    first = report(playing, 1, alice, key="tap-1", game_number=1, phone="phone-a")

    with pytest.raises(RetapQuestion):
        report(
            playing,
            1,
            alice,
            key="tap-2",
            game_number=2,
            phone="phone-a",
            now=first.report.received_at + timedelta(seconds=8),
        )

    assert Game.objects.count() == 1


def test_a_quick_retap_the_player_said_yes_to_is_a_new_game(playing):
    alice = seated_players(playing, 1)[0]
    first = report(playing, 1, alice, key="tap-1", game_number=1, phone="phone-a")

    result = report(
        playing,
        1,
        alice,
        key="tap-2",
        game_number=2,
        phone="phone-a",
        retap_checked=True,
        now=first.report.received_at + timedelta(seconds=1),
    )

    assert (result.outcome, result.game.number, result.game.winner) == (Outcome.RECORDED, 2, alice)


def test_the_same_name_for_the_next_game_after_the_retap_window_is_a_new_game(playing):
    alice = seated_players(playing, 1)[0]
    first = report(playing, 1, alice, key="tap-1", game_number=1, phone="phone-a")
    later = first.report.received_at + second_taps.RETAP_WINDOW

    result = report(playing, 1, alice, key="tap-2", game_number=2, phone="phone-a", now=later)

    assert (result.outcome, result.game.number, result.game.winner) == (Outcome.RECORDED, 2, alice)


def test_confirming_another_phones_next_game_right_away_is_not_a_quick_retap(playing):
    alice = seated_players(playing, 1)[0]
    report(playing, 1, alice, key="b-1", game_number=1)
    report(playing, 1, alice, key="b-2", game_number=2)
    first = report(playing, 1, alice, key="a-1", game_number=1)
    moment_later = first.report.received_at + timedelta(seconds=1)

    result = report(
        playing, 1, alice, key="a-2", game_number=2, previous_key="a-1", now=moment_later
    )

    assert (result.outcome, result.game.number) == (Outcome.CONFIRMED, 2)
    assert Game.objects.get(number=2).status == GameStatus.CONFIRMED


@pytest.mark.parametrize(
    "second_report",
    [
        {"winner": 1, "game_number": 2},  # another winner for the next game
        {"winner": 0, "game_number": 1},  # the same game again: a confirmation
        {"winner": 0, "game_number": 2, "previous_key": None},  # a phone without a cookie
        {"winner": 0, "game_number": 2, "key": "tap-1"},  # a retry of the first tap
    ],
)
def test_other_reports_right_after_a_report_are_accepted(playing, second_report):
    players = seated_players(playing, 1)
    first = report(playing, 1, players[0], key="tap-1", game_number=1)
    options = {"key": "tap-2", "previous_key": "tap-1", **second_report}
    winner = players[options.pop("winner")]

    result = report(
        playing, 1, winner, now=first.report.received_at + timedelta(seconds=1), **options
    )

    assert result.outcome in (Outcome.RECORDED, Outcome.CONFIRMED, Outcome.REPEATED)


def test_a_quick_retap_at_another_table_is_not_checked_against_this_ones(playing):
    here, there = seated_players(playing, 1)[0], seated_players(playing, 2)[0]
    first = report(playing, 1, here, key="tap-1", game_number=1)
    report(playing, 2, there, key="there-1", game_number=1)

    result = report(
        playing,
        2,
        there,
        key="there-2",
        game_number=2,
        previous_key="tap-1",  # a key of table 1 cannot stand for a phone at table 2
        now=first.report.received_at,
    )

    assert result.outcome == Outcome.RECORDED


# --- a phantom game: another phone taps the name instead of "Yes, confirm game k" ---------


def _tapped(event, winner, *, key, after, **kwargs):
    """A one-tap report of the next game from a phone's list, ``after`` game 1's report."""
    game = Game.objects.get(number=1)
    return report(event, 1, winner, key=key, tapped=True, now=game.reported_at + after, **kwargs)


def test_another_phone_naming_the_latest_winner_for_the_next_game_confirms_it(playing):
    jamal = seated_players(playing, 1)[0]
    report(playing, 1, jamal, key="phone-a", game_number=1)

    result = _tapped(playing, jamal, key="phone-b", game_number=2, after=timedelta(seconds=2))

    assert (result.outcome, result.game.number) == (Outcome.CONFIRMED, 1)
    assert result.read_as_confirmation
    assert result.report.game_number == 1
    assert Game.objects.get().status == GameStatus.CONFIRMED  # and no game 2
    assert GameReport.objects.filter(game=result.game).count() == 2


def test_a_phone_whose_last_report_was_an_earlier_game_is_another_phone(playing):
    jamal, bob = seated_players(playing, 1)[:2]
    report(playing, 1, bob, key="phone-b-1", game_number=1)
    report(playing, 1, jamal, key="phone-a-2", game_number=2)
    game_2 = Game.objects.get(number=2)

    result = report(
        playing,
        1,
        jamal,
        key="phone-b-3",
        game_number=3,
        previous_key="phone-b-1",
        tapped=True,
        now=game_2.reported_at + timedelta(seconds=3),
    )

    assert (result.outcome, result.game.number, result.read_as_confirmation) == (
        Outcome.CONFIRMED,
        2,
        True,
    )
    assert Game.objects.count() == 2


def test_after_the_confirmation_window_the_same_winner_is_a_new_game(playing):
    jamal = seated_players(playing, 1)[0]
    report(playing, 1, jamal, key="phone-a", game_number=1)

    result = _tapped(
        playing, jamal, key="phone-b", game_number=2, after=second_taps.CONFIRMATION_WINDOW
    )

    assert (result.outcome, result.game.number, result.read_as_confirmation) == (
        Outcome.RECORDED,
        2,
        False,
    )


def test_a_phone_never_confirms_its_own_report(playing):
    """The same phone, told "another game" is meant, inside the confirmation window."""
    jamal = seated_players(playing, 1)[0]
    report(playing, 1, jamal, key="phone-a-1", game_number=1)

    result = _tapped(
        playing,
        jamal,
        key="phone-a-2",
        game_number=2,
        previous_key="phone-a-1",
        retap_checked=True,
        after=timedelta(seconds=1),
    )

    assert (result.outcome, result.game.number) == (Outcome.RECORDED, 2)
    assert Game.objects.get(number=1).status == GameStatus.UNCONFIRMED


def test_the_same_phone_tapping_twice_is_asked_about_not_read_as_a_confirmation(playing):
    jamal = seated_players(playing, 1)[0]
    report(playing, 1, jamal, key="phone-a-1", game_number=1)

    with pytest.raises(RetapQuestion, match=f"Another game for {jamal.name}"):
        _tapped(
            playing,
            jamal,
            key="phone-a-2",
            game_number=2,
            previous_key="phone-a-1",
            after=timedelta(milliseconds=300),
        )

    assert Game.objects.get().status == GameStatus.UNCONFIRMED


@pytest.mark.parametrize(
    "case",
    [
        "another winner",  # a real game 2, however quick
        "game already confirmed",  # nothing is waiting for a confirmation
        "not tapped",  # the tricks form, the demo, the organizer: what they say is meant
        "round closed",  # a late report is kept as the phone named it
    ],
)
def test_other_reports_of_the_next_game_are_not_read_as_confirmations(playing, organizer, case):
    jamal, bob = seated_players(playing, 1)[:2]
    report(playing, 1, jamal, key="phone-a", game_number=1)
    options = {"key": "phone-b", "game_number": 2, "after": timedelta(seconds=2)}
    winner = bob if case == "another winner" else jamal
    if case == "game already confirmed":
        report(playing, 1, jamal, key="phone-c", game_number=1)
    if case == "round closed":
        close_round(round_=playing.current_round, by=organizer)
        options["round_number"] = 1
    if case == "not tapped":
        game = Game.objects.get(number=1)
        result = report(playing, 1, winner, key="phone-b", game_number=2, now=game.reported_at)
    else:
        result = _tapped(playing, winner, **options)

    assert result.report.game_number == 2
    assert not result.read_as_confirmation
    assert Game.objects.get(number=1).reports.count() == (
        2 if case == "game already confirmed" else 1
    )


def test_a_phantom_retried_over_bad_wifi_is_stored_once(playing):
    jamal = seated_players(playing, 1)[0]
    report(playing, 1, jamal, key="phone-a", game_number=1)
    first = _tapped(playing, jamal, key="phone-b", game_number=2, after=timedelta(seconds=2))

    again = _tapped(playing, jamal, key="phone-b", game_number=2, after=timedelta(seconds=3))

    assert again.outcome == Outcome.REPEATED
    assert again.report.pk == first.report.pk
    assert (Game.objects.count(), GameReport.objects.count()) == (1, 2)


# --- tricks -------------------------------------------------------------------------------


def test_tricks_decide_the_winner_of_a_game_cut_off(playing):
    players = seated_players(playing, 1)
    tricks = {players[0]: 1, players[1]: 3, players[2]: 0, players[3]: 2}

    result = _tricks(playing, tricks)

    assert result.game.winner == players[1]
    assert result.game.finished is False
    assert result.game.tricks == {str(p.pk): n for p, n in tricks.items()}


def _tricks(event, tricks, **kwargs):
    event.refresh_from_db()
    return report_game(
        table=table(event, 1),
        round_number=event.round_number,
        client_key=kwargs.pop("key", f"tricks-{sum(tricks.values())}-{len(tricks)}"),
        tricks=tricks,
        **kwargs,
    )


def test_tied_tricks_go_to_the_name_first_in_the_alphabet(organizer):
    event = factories.seated_event(
        owner=organizer, players=["Zoë", "émile", "Bruno", "Yann"], tables=1
    )
    event = factories.start_rounds(event)
    by_name = {p.name: p for p in seated_players(event, 1)}

    result = _tricks(event, {by_name["Zoë"]: 2, by_name["émile"]: 2, by_name["Bruno"]: 1})

    # Accents and case are ignored: "émile" sorts as "emile", before "Zoë".
    assert result.game.winner == by_name["émile"]


def test_at_a_fewest_wins_table_tricks_give_a_cut_off_game_to_the_fewest(playing):
    playing.tables.filter(number=1).update(fewest_wins=True)
    players = seated_players(playing, 1)
    tricks = {players[0]: 1, players[1]: 3, players[2]: 0, players[3]: 2}

    result = _tricks(playing, tricks)

    assert result.game.winner == players[2]
    assert result.game.finished is False


def test_at_a_fewest_wins_table_a_tie_for_the_fewest_goes_alphabetically(organizer):
    event = factories.seated_event(
        owner=organizer, players=["Zoë", "émile", "Bruno", "Yann"], tables=1
    )
    event = factories.start_rounds(event)
    event.tables.update(fewest_wins=True)
    by_name = {p.name: p for p in seated_players(event, 1)}

    tricks = {by_name["Zoë"]: 0, by_name["émile"]: 0, by_name["Bruno"]: 4, by_name["Yann"]: 3}
    result = _tricks(event, tricks, finished=True)

    assert result.game.winner == by_name["émile"]


def test_tricks_can_describe_a_finished_game(playing):
    players = seated_players(playing, 1)
    result = _tricks(playing, {players[0]: 7, players[1]: 0}, finished=True)
    assert result.game.finished is True


@pytest.mark.parametrize(("size", "tricks"), [(3, 7), (4, 7), (5, 6), (6, 5)])
def test_a_finished_game_has_the_tricks_of_the_whole_deck_at_the_tables_size(
    organizer, size, tricks
):
    # The whole deck is dealt: at 5 players three hands hold 6 cards, so 6 tricks, which
    # the old equal deal (5 each) refused.
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=size, tables=1))
    players = seated_players(event, 1)

    result = _tricks(event, {players[0]: tricks - 1, players[1]: 1}, finished=True)
    assert result.game.winner == players[0]

    with pytest.raises(Refused, match=f"only {tricks}\\."):
        _tricks(event, {players[0]: tricks, players[1]: 1}, key="one-too-many")


@pytest.mark.parametrize(
    ("counts", "finished", "message"),
    [
        ([0, 0, 0, 0], False, "No trick has been played yet."),
        ([5, 3, 0, 0], False, "8 tricks entered, but a game at this table has only 7."),
        ([-1, 2, 0, 0], False, "has a negative number of tricks."),
        ([3, 2, 0, 0], True, "A finished game at this table has 7 tricks, not 5."),
    ],
)
def test_impossible_tricks_are_refused(playing, counts, finished, message):
    players = seated_players(playing, 1)
    with pytest.raises(Refused, match=re.escape(message)):
        _tricks(playing, dict(zip(players, counts, strict=True)), finished=finished)
    assert not GameReport.objects.exists()


def test_a_trick_problem_is_translated_from_its_catalogue_message(playing, monkeypatch):
    """The message looked up is the one marked for translation, placeholders and all."""
    asked = []

    def gettext(message: str) -> str:
        asked.append(message)
        return "[fr] " + message

    monkeypatch.setattr(reporting, "_", gettext)
    players = seated_players(playing, 1)

    with pytest.raises(Refused) as refused:
        _tricks(playing, {players[0]: 6, players[1]: 5})

    assert "%(total)d tricks entered, but a game at this table has only %(tricks)d." in asked
    assert refused.value.message == "[fr] 11 tricks entered, but a game at this table has only 7."


def test_winner_and_tricks_together_are_refused(playing):
    alice = seated_players(playing, 1)[0]
    with pytest.raises(Refused):
        report(playing, 1, alice, tricks={alice: 3})


# --- who may report when --------------------------------------------------------------


def test_practice_games_are_refused(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    event = factories.play_until(event, "practice")
    with pytest.raises(Refused, match="practice games are not scored"):
        report(event, 1, seated_players(event, 1)[0], round_number=1)
    assert not GameReport.objects.exists()


def test_a_round_not_started_yet_is_refused(playing):
    playing = factories.play_until(playing, "between")
    with pytest.raises(Refused, match="Round 2 has not started"):
        report(playing, 1, seated_players(playing, 1, 2)[0], round_number=2)


def test_a_player_not_seated_at_the_table_is_refused(playing):
    elsewhere = seated_players(playing, 2)[0]
    with pytest.raises(Refused, match="not seated at this table"):
        report(playing, 1, elsewhere)
    assert not Game.objects.exists()


def test_a_key_that_is_missing_or_too_long_is_refused(playing):
    alice = seated_players(playing, 1)[0]
    for key in ("", "x" * 65):
        with pytest.raises(Refused):
            report_game(table=table(playing, 1), round_number=1, client_key=key, winner=alice)


# --- late reports -------------------------------------------------------------------------


@pytest.fixture
def closed(playing, organizer):
    """Round 1 closed, with game 1 at table 1 won by the first seated player."""
    report(playing, 1, seated_players(playing, 1)[0], key="in-time", game_number=1)
    close_round(round_=playing.current_round, by=organizer)
    playing.refresh_from_db()
    return playing


def test_a_report_after_the_close_is_kept_as_late_and_not_counted(closed):
    bob = seated_players(closed, 1, 1)[1]

    result = report(closed, 1, bob, key="late", round_number=1, game_number=2)

    assert result.outcome == Outcome.LATE
    assert result.game is None
    assert result.report.state == ReportState.LATE
    assert GameReport.objects.get(client_key="late").state == ReportState.LATE
    assert closed.rounds.get(number=1).games_won_by_table()[1][bob.name] == 0


def test_a_late_report_retried_is_stored_once(closed):
    bob = seated_players(closed, 1, 1)[1]
    report(closed, 1, bob, key="late", round_number=1)
    again = report(closed, 1, bob, key="late", round_number=1)
    assert again.outcome == Outcome.REPEATED
    assert GameReport.objects.filter(state=ReportState.LATE).count() == 1


# --- one phone, its reports (held reports, duplicates) -------------------------------------


def test_two_reports_of_a_game_from_the_same_phone_never_confirm_it(playing):
    alice = seated_players(playing, 1)[0]
    first = report(playing, 1, alice, key="k1", game_number=1, phone="phone-a")

    again = report(playing, 1, alice, key="k2", game_number=1, phone="phone-a")

    assert again.outcome == Outcome.DUPLICATE
    assert again.report == first.report  # the phone's first report, nothing new stored
    assert GameReport.objects.count() == 1
    assert Game.objects.get().status == GameStatus.UNCONFIRMED


def test_another_phone_still_confirms_a_game(playing):
    alice = seated_players(playing, 1)[0]
    report(playing, 1, alice, key="k1", game_number=1, phone="phone-a")

    result = report(playing, 1, alice, key="k2", game_number=1, phone="phone-b")

    assert result.outcome == Outcome.CONFIRMED
    assert Game.objects.get().status == GameStatus.CONFIRMED
    assert list(GameReport.objects.values_list("phone", flat=True)) == ["phone-a", "phone-b"]


def test_the_same_phone_naming_another_winner_for_its_game_makes_a_dispute(playing):
    alice, bob = seated_players(playing, 1)[:2]
    report(playing, 1, alice, key="k1", game_number=1, phone="phone-a")

    result = report(playing, 1, bob, key="k2", game_number=1, phone="phone-a")

    assert result.outcome == Outcome.DISPUTED
    assert Game.objects.get().status == GameStatus.DISPUTED


def test_a_retry_of_a_duplicate_is_still_the_same_answer(playing):
    alice = seated_players(playing, 1)[0]
    report(playing, 1, alice, key="k1", game_number=1, phone="phone-a")

    retried = report(playing, 1, alice, key="k1", game_number=1, phone="phone-a")

    assert retried.outcome == Outcome.REPEATED
    assert GameReport.objects.count() == 1


def test_a_tap_from_the_phone_that_reported_the_latest_game_is_never_its_confirmation(playing):
    """Without the my-games cookie (previous_key), the phone id alone keeps a phone from
    confirming its own game by the phantom-game rule (once asked, "another game" it is)."""
    alice = seated_players(playing, 1)[0]
    report(playing, 1, alice, key="k1", game_number=1, phone="phone-a")
    GameReport.objects.update(received_at=F("received_at") - timedelta(seconds=10))

    result = report(
        playing, 1, alice, key="k2", game_number=2, tapped=True, phone="phone-a", retap_checked=True
    )

    assert result.outcome == Outcome.RECORDED
    assert result.game.number == 2
    assert Game.objects.get(number=1).status == GameStatus.UNCONFIRMED


def test_a_phone_that_reported_at_another_table_this_round_is_held(playing):
    at_one, at_two = seated_players(playing, 1)[0], seated_players(playing, 2)[0]
    report(playing, 1, at_one, key="k1", phone="roaming")

    result = report(playing, 2, at_two, key="k2", game_number=1, phone="roaming")

    assert result.outcome == Outcome.HELD
    assert result.game is None
    assert result.report.state == ReportState.HELD
    assert result.report.other_table_number == 1
    assert result.report.hold_note == "This phone reported at table 1 this round."
    assert not Game.objects.filter(table__number=2).exists()  # nothing counted there
    # Retried with the same key: the same held report, nothing new.
    retried = report(playing, 2, at_two, key="k2", game_number=1, phone="roaming")
    assert (retried.outcome, retried.report) == (Outcome.REPEATED, result.report)


def test_a_held_report_never_confirms_the_other_tables_game(playing):
    at_two = seated_players(playing, 2)[0]
    report(playing, 1, seated_players(playing, 1)[0], phone="roaming")
    report(playing, 2, at_two, game_number=1, phone="phone-at-two")

    result = report(playing, 2, at_two, game_number=1, phone="roaming")

    assert result.outcome == Outcome.HELD
    assert Game.objects.get(table__number=2).status == GameStatus.UNCONFIRMED


def test_a_phone_at_one_table_per_round_is_never_held(playing, organizer):
    """A player who moved between rounds reports at the new table: not held."""
    mover = seated_players(playing, 1)[0]
    report(playing, 1, mover, phone="mover")
    factories.close_current_round(playing, organizer)
    playing = advance_phase(event=playing)
    assert playing.round_number == 2
    new_table = Seat.objects.get(round__number=2, round__event=playing, player=mover).table

    result = report(playing, new_table.number, mover, phone="mover")

    assert result.outcome == Outcome.RECORDED


def test_a_report_without_a_phone_id_is_judged_as_before(playing):
    alice = seated_players(playing, 1)[0]
    report(playing, 1, alice, key="k1", game_number=1)

    result = report(playing, 1, alice, key="k2", game_number=1)

    assert result.outcome == Outcome.CONFIRMED


def test_once_the_organizer_accepts_a_held_report_the_phone_counts_at_that_table(
    playing, organizer
):
    at_two = seated_players(playing, 2)
    report(playing, 1, seated_players(playing, 1)[0], phone="borrowed")
    held = report(playing, 2, at_two[0], game_number=1, phone="borrowed").report
    accept_late_report(report=held, by=organizer)

    result = report(playing, 2, at_two[1], phone="borrowed")

    assert result.outcome == Outcome.RECORDED
    assert result.game.number == 2
    # Back at table 1, after its reports at table 2, it is held: only table 2 was vouched.
    assert report(playing, 1, seated_players(playing, 1)[1], phone="borrowed").outcome == (
        Outcome.HELD
    )
