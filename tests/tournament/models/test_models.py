"""Event, Player, Round and Seat: the clock, the version, and the constraints that keep
impossible states out of the database."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests import factories
from tournament.models import Event, Phase, Player, Round, Seat

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0)


def test_clock_counts_down_and_never_goes_negative(event):
    event.phase = Phase.STUDY
    event.start_clock(5, now=T0)
    assert event.clock_seconds_left(T0) == 300
    assert event.clock_seconds_left(T0 + timedelta(seconds=299.5)) == 1
    assert not event.time_is_up(T0 + timedelta(seconds=299))
    assert event.clock_seconds_left(T0 + timedelta(minutes=9)) == 0
    assert event.time_is_up(T0 + timedelta(minutes=9))


def test_paused_clock_keeps_its_time_and_resumes_from_there(event):
    event.phase = Phase.ROUND
    event.start_clock(5, now=T0)
    event.pause_clock(now=T0 + timedelta(minutes=2))
    assert event.clock_is_paused
    assert event.clock_seconds_left(T0 + timedelta(hours=1)) == 180
    event.add_clock_time(60)
    event.resume_clock(now=T0 + timedelta(hours=1))
    assert event.clock_seconds_left(T0 + timedelta(hours=1)) == 240


def test_adding_a_minute_after_time_is_up_gives_a_minute_from_now(event):
    event.phase = Phase.ROUND
    event.start_clock(1, now=T0)
    later = T0 + timedelta(minutes=10)
    event.add_clock_time(60, now=later)
    assert event.clock_seconds_left(later) == 60


def test_ending_the_clock_means_time_is_up_now(event):
    event.phase = Phase.PRACTICE
    event.start_clock(3, now=T0)
    event.end_clock_now(now=T0)
    assert event.time_is_up(T0)


def test_phases_without_a_clock_have_no_time(event):
    event.phase = Phase.SETUP
    event.start_clock(5, now=T0)
    assert event.clock.remaining(T0) is None
    assert not event.time_is_up(T0)


def test_save_and_bump_changes_the_version(event):
    before = event.version
    event.name = "Renamed"
    event.save_and_bump(["name"])
    assert event.version == before + 1
    assert Event.objects.get(pk=event.pk).version == before + 1


def test_locking_an_event_reads_it_again_and_locks_its_row_where_the_database_can(event):
    """FOR UPDATE on PostgreSQL; SQLite has no row locks (its IMMEDIATE transactions
    hold the whole database) and gets a plain read."""
    Event.objects.filter(pk=event.pk).update(name="Renamed")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = Event.objects.lock(event.pk)
    assert locked.name == "Renamed"
    (query,) = queries
    assert ("FOR UPDATE" in query["sql"]) == connection.features.has_select_for_update


def test_bump_version_is_a_single_update(event, django_assert_num_queries):
    with django_assert_num_queries(1):
        Event.objects.bump_version(event.pk)
    event.refresh_from_db()
    assert event.version == 2


def test_tokens_are_long_and_distinct(organizer):
    first = factories.make_event(owner=organizer)
    second = factories.make_event(owner=organizer)
    tokens = {first.projector_token, first.players_token, second.projector_token}
    assert len(tokens) == 3
    # token_urlsafe(24) is 32 characters of 6 bits: 192 bits.
    assert all(len(t) >= 22 for t in tokens)


def test_organizers_see_only_their_own_events(django_user_model):
    ada = factories.make_user(django_user_model, "ada")
    bob = factories.make_user(django_user_model, "bob")
    root = factories.make_user(django_user_model, "root", superuser=True)
    mine = factories.make_event(owner=ada)
    theirs = factories.make_event(owner=bob)
    assert list(Event.objects.visible_to(ada)) == [mine]
    assert set(Event.objects.visible_to(root)) == {mine, theirs}


def test_player_names_are_unique_per_event_ignoring_case(event, organizer):
    # Player.name_key folds in Python, so SQLite (whose lower() folds ASCII only) and
    # PostgreSQL refuse the same names.
    Player.objects.create(event=event, name="Zoë")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=event, name="zoë")
    other = factories.make_event(owner=organizer)
    Player.objects.create(event=other, name="Zoë")


def test_the_only_name_rule_in_the_database_is_the_name_key():
    """No unique index on lower(name) is left over from before Player.name_key: the
    database and the roster check have one rule, tournament.rules.roster.same_name_key."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Player._meta.db_table)
    unique = [
        spec["columns"]
        for spec in constraints.values()
        if spec["unique"] and not spec["primary_key"]
    ]
    # The personal link's token is the only other unique column.
    assert sorted(unique) == [["event_id", "name_key"], ["token"]]
    assert constraints["player_name_unique_per_event"]["columns"] == ["event_id", "name_key"]


def test_player_name_cannot_be_empty(event):
    with pytest.raises(IntegrityError):
        Player.objects.create(event=event, name="")


def test_round_numbers_are_unique_and_positive(event):
    Round.objects.create(event=event, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(event=event, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(event=event, number=0)


def test_one_seat_per_player_per_round(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    seat = Seat.objects.filter(round__event=event).first()
    other_table = factories.table(event, 2 if seat.table.number == 1 else 1)
    with pytest.raises(IntegrityError):
        Seat.objects.create(round=seat.round, player=seat.player, table=other_table)


def test_games_won_by_table_lists_every_table_and_ignores_disputes(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    round_ = event.current_round
    seat = round_.seats.select_related("player", "table").first()
    others = list(
        round_.seats.filter(table=seat.table).exclude(pk=seat.pk).select_related("player")
    )
    factories.report(event, seat.table.number, seat.player, game_number=1)
    factories.report(event, seat.table.number, seat.player, game_number=2)
    factories.report(event, seat.table.number, others[0].player, game_number=2)  # disputes game 2

    standings = round_.games_won_by_table()

    assert set(standings) == {1, 2}
    assert standings[seat.table.number][seat.player.name] == 1
    assert standings[seat.table.number][others[0].player.name] == 0
    assert sum(len(players) for players in standings.values()) == 8


@pytest.mark.parametrize(
    ("phase", "round_number", "title"),
    [
        (Phase.SETUP, 0, "Getting ready"),
        (Phase.STUDY, 0, "Study the rules"),
        (Phase.PRACTICE, 0, "Practice"),
        (Phase.ROUND, 2, "Round 2 of 4"),
        (Phase.BETWEEN_ROUNDS, 2, "Round 2 is over"),
        (Phase.DEBRIEF, 4, "Debrief"),
    ],
)
def test_every_screen_shares_one_phase_title(event, phase, round_number, title):
    event.phase, event.round_number, event.rounds_planned = phase, round_number, 4
    assert event.phase_title == title


def test_a_players_link_finds_its_event_and_a_mangled_one_finds_nothing(event):
    assert Event.objects.for_players_token(event.players_token).get() == event
    for mangled in ("", "a b", "x" * 65, "\x00", event.players_token + "!"):
        assert not Event.objects.for_players_token(mangled).exists()
