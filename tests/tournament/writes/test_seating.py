"""Seating and the roster bridge: table plan, moves by hand, absent and returning players,
adding, renaming and removing players, and the variants' lock after study."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from django.db import IntegrityError, transaction

from tables.models import Table, variant_warnings
from tables.rules.variants import Clause, Suit, Variant
from tests import factories
from tournament.common.errors import Refused
from tournament.models import Event, Phase, Player, PlayerStatus, Round, Seat, SeatReason
from tournament.writes.rounds import advance_phase
from tournament.writes.seating import (
    add_players,
    move_player,
    redraw_table_variant,
    redraw_variants,
    remove_player,
    rename_player,
    roster,
    rotate_table_link,
    seat_players,
    set_player_status,
    set_table_variant,
    use_classic_variants,
)

pytestmark = pytest.mark.django_db


def sizes(event: Event, round_number: int = 1) -> list[int]:
    return sorted(Counter(factories.seats_of(event, round_number).values()).values())


# --- table plan --------------------------------------------------------------------------


def test_seat_players_makes_tables_and_a_balanced_deal(organizer):
    event = factories.seated_event(owner=organizer, players=13, tables=3)
    assert list(event.tables.values_list("number", flat=True)) == [1, 2, 3]
    assert sizes(event) == [4, 4, 5]
    assert Round.objects.get(event=event).status == "planned"


def test_the_same_seed_gives_the_same_deal_and_a_reshuffle_another(organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    first = factories.seats_of(event, 1)
    variants = [t.variant for t in event.tables.order_by("number")]
    seat_players(event=event, table_count=3)
    assert factories.seats_of(event, 1) == first
    seat_players(event=event, table_count=3, reshuffle=True)
    event.refresh_from_db()
    assert event.seed != 7
    assert [t.variant for t in event.tables.order_by("number")] == variants
    assert sizes(event) == [4, 4, 4]


def test_a_table_count_that_does_not_fit_is_refused(organizer):
    event = factories.make_event(owner=organizer)
    factories.add_players(event, factories.names(13))
    with pytest.raises(Refused, match="more than 6"):
        seat_players(event=event, table_count=2)
    with pytest.raises(Refused, match="fewer than 3"):
        seat_players(event=event, table_count=5)
    assert not Table.objects.exists()


def test_the_plan_is_fixed_once_study_starts(organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=8, tables=2))
    with pytest.raises(Refused, match="during setup"):
        seat_players(event=event, table_count=2, reshuffle=True)


def test_absent_players_are_not_dealt(organizer):
    event = factories.make_event(owner=organizer)
    players = factories.add_players(event, factories.names(9))
    set_player_status(player=players[0], status=PlayerStatus.ABSENT)
    seat_players(event=event, table_count=2)
    assert "Player 001" not in factories.seats_of(event, 1)


# --- moving one player -------------------------------------------------------------------


def test_move_player_before_round_one(organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    name, number = next(iter(factories.seats_of(event, 1).items()))
    target = factories.table(event, 3 if number != 3 else 1)
    seat = move_player(player=Player.objects.get(name=name), table=target)
    assert seat.reason == SeatReason.PLACED
    assert factories.seats_of(event, 1)[name] == target.number


def test_a_move_to_the_same_table_changes_nothing(organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    noah = Player.objects.get(name="Player 001")
    seat = noah.seats.get()
    version = Event.objects.get(pk=event.pk).version
    with pytest.raises(Refused) as refused:
        move_player(player=noah, table=seat.table)
    assert refused.value.message == f"Player 001 already sits at table {seat.table.number}."
    assert noah.seats.get().reason == SeatReason.HOME
    assert Event.objects.get(pk=event.pk).version == version


def test_move_player_is_refused_once_the_round_started_or_for_absent_players(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    player = Player.objects.get(name="Player 001")
    set_player_status(player=player, status=PlayerStatus.ABSENT)
    with pytest.raises(Refused, match="not marked present"):
        move_player(player=player, table=factories.table(event, 1))
    assert "Player 001" not in factories.seats_of(event, 1)
    factories.start_rounds(event)
    with pytest.raises(Refused, match="before a round starts"):
        move_player(player=Player.objects.get(name="Player 002"), table=factories.table(event, 1))


def test_move_player_refuses_another_events_table(organizer):
    one = factories.seated_event(owner=organizer, players=8, tables=2)
    two = factories.seated_event(owner=organizer, players=8, tables=2, name="Other")
    with pytest.raises(Refused, match="another event"):
        move_player(player=one.players.first(), table=factories.table(two, 1))


# --- absent, back, added -----------------------------------------------------------------


def test_before_round_one_a_returning_player_joins_the_emptiest_home_table(organizer):
    event = factories.seated_event(owner=organizer, players=9, tables=2)  # 4 and 5
    player = Player.objects.get(name="Player 001")
    set_player_status(player=player, status=PlayerStatus.ABSENT)
    assert "Player 001" not in factories.seats_of(event, 1)
    set_player_status(player=player, status=PlayerStatus.PRESENT)
    assert sizes(event) == [4, 5]


def test_add_players_fills_the_emptiest_home_tables(organizer):
    event = factories.seated_event(owner=organizer, players=9, tables=3)  # 3, 3, 3
    added = add_players(event=event, names=["Zoë", "<b>Bold</b>", "Émile"])
    assert [p.name for p in added.players] == ["Zoë", "<b>Bold</b>", "Émile"]
    assert added.joining_note == "They are seated at the home tables with the fewest players."
    assert sizes(event) == [4, 4, 4]


def test_players_added_between_rounds_join_the_lowest_table(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    added = add_players(event=event, names=["Late Lou"])
    assert added.joining_note == "They join the lowest table when you close this round."
    assert Seat.objects.filter(player__name="Late Lou").count() == 0  # round 1 is running
    factories.close_current_round(event, organizer)
    seat = Seat.objects.get(player__name="Late Lou")
    assert (seat.round.number, seat.table.number, seat.reason) == (2, 1, "joining")
    add_players(event=event, names=["Later Lee"])
    assert factories.seats_of(event, 2)["Later Lee"] == 1


def test_add_players_refuses_names_taken_in_any_case(organizer):
    event = factories.make_event(owner=organizer)
    add_players(event=event, names=["Zoë"])
    with pytest.raises(Refused) as refused:
        add_players(event=event, names=["ZOË"])  # SQLite's lower() would let this through
    assert refused.value.message == (
        "“ZOË” clashes with “Zoë” already on the roster — names must differ by more than "
        "capital letters and accents."
    )
    with pytest.raises(Refused) as refused:
        add_players(event=event, names=["Zoë"])
    assert refused.value.message == "Zoë is already on the roster."
    with pytest.raises(Refused, match="listed twice"):
        add_players(event=event, names=["Ann", "ann"])
    with pytest.raises(Refused, match="limit is 40"):
        add_players(event=event, names=["x" * 41])
    assert list(event.players.values_list("name", flat=True)) == ["Zoë"]


def test_rename_player(organizer):
    event = factories.make_event(owner=organizer)
    ann, ben = factories.add_players(event, ["Ann", "Ben"])
    version = Event.objects.get(pk=event.pk).version
    rename_player(player=ann, name="  Anne   Marie ")
    ann.refresh_from_db()
    assert ann.name == "Anne Marie"
    assert Event.objects.get(pk=event.pk).version == version + 1
    with pytest.raises(Refused, match="clashes with “Ben” already on the roster"):
        rename_player(player=ann, name="BEN")
    set_player_status(player=ben, status=PlayerStatus.REMOVED)
    with pytest.raises(Refused, match="clashes with “Ben”, who was removed earlier"):
        rename_player(player=ann, name="ben")
    with pytest.raises(Refused, match="Type a name"):
        rename_player(player=ann, name="  ...  ")
    rename_player(player=ann, name="anne marie")  # a change of case of one's own name is fine


def test_remove_player_deletes_someone_who_never_played(organizer):
    event = factories.seated_event(owner=organizer, players=9, tables=2)
    assert remove_player(player=Player.objects.get(name="Player 001")) is True
    assert not Player.objects.filter(name="Player 001").exists()
    add_players(event=event, names=["Player 001"])  # the name is free again


def test_remove_player_keeps_someone_who_played(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=9, tables=2))
    factories.close_current_round(event, organizer)
    player = Player.objects.get(name="Player 001")
    assert remove_player(player=player) is False
    player.refresh_from_db()
    assert player.status == PlayerStatus.REMOVED
    assert "Player 001" in factories.seats_of(event, 1)
    assert "Player 001" not in factories.seats_of(event, 2)
    with pytest.raises(Refused, match="removed earlier"):
        add_players(event=event, names=["player 001"])


# --- variants ----------------------------------------------------------------------------


def test_variants_change_freely_during_setup(organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    before = [t.variant for t in event.tables.order_by("number")]
    redraw_variants(event=event)
    table = factories.table(event, 2)
    old = table.variant
    redraw_table_variant(table=table)
    table.refresh_from_db()
    assert table.variant != old
    assert len(before) == 3


def test_a_redrawn_table_follows_the_events_difference_set(organizer):
    event = factories.seated_event(
        owner=organizer, players=40, tables=10, difference_set="disruptive", disruptive_share=0.2
    )
    redraw_variants(event=event)
    clause_tables = [t for t in event.tables.order_by("number") if t.variant.disruptive]
    assert clause_tables
    for table in clause_tables:
        old = table.variant
        redraw_table_variant(table=table)
        table.refresh_from_db()
        assert table.variant != old
        assert table.variant.clauses - {Clause.TRUMP_ANYTIME} == old.clauses - {
            Clause.TRUMP_ANYTIME
        }
    plan = [t.variant for t in event.tables.order_by("number")]
    assert sum(v.disruptive for v in plan) <= 2
    assert all(a.ace_high != b.ace_high and a.trump != b.trump for a, b in itertools.pairwise(plan))


def test_variant_changes_after_study_need_confirmation(organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=12, tables=3))
    assert event.phase == Phase.STUDY
    table = factories.table(event, 1)
    before = table.variant
    for change in (
        lambda: redraw_variants(event=event),
        lambda: redraw_table_variant(table=table),
        lambda: set_table_variant(table=table, variant=Variant(False, Suit.CLUBS)),
    ):
        with pytest.raises(Refused, match="Confirm"):
            change()
    table.refresh_from_db()
    assert table.variant == before
    redraw_table_variant(table=table, confirmed=True)
    table.refresh_from_db()
    assert table.variant != before


def test_set_table_variant_by_hand_warns_about_the_plan(organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    neighbour = factories.table(event, 2).variant
    warnings = set_table_variant(table=factories.table(event, 1), variant=neighbour)
    assert any("neighbours" in w for w in warnings)
    assert factories.table(event, 1).variant_set_by_hand
    assert variant_warnings(event.tables.all(), event.trump_anytime_share) == warnings


def test_variants_need_a_table_plan(organizer):
    event = factories.make_event(owner=organizer)
    with pytest.raises(Refused, match="table plan first"):
        redraw_variants(event=event)


# --- table links -------------------------------------------------------------------------


def test_a_new_table_link_replaces_the_old_one_and_tells_the_screens(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    table = factories.table(event, 1)
    old_token, version = table.token, event.version
    rotate_table_link(table=table)
    assert factories.table(event, 1).token not in (old_token, "")
    assert Event.objects.get(pk=event.pk).version == version + 1


def test_a_new_table_link_that_fails_halfway_keeps_the_old_one(organizer, monkeypatch):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    table = factories.table(event, 1)
    old_token = table.token

    def explode(*args, **kwargs):
        raise RuntimeError("database locked")

    monkeypatch.setattr(Event.objects, "bump_version", explode)
    with pytest.raises(RuntimeError):
        rotate_table_link(table=table)
    assert factories.table(event, 1).token == old_token


def test_variants_are_final_once_the_debrief_has_started(organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    event = factories.play_until(event, "debrief", by=organizer)
    played = [t.variant for t in event.tables.order_by("number")]
    table_1 = factories.table(event, 1)

    for change in (
        lambda: redraw_variants(event=event, confirmed=True),
        lambda: redraw_table_variant(table=table_1, confirmed=True),
        lambda: set_table_variant(table=table_1, variant=played[1], confirmed=True),
    ):
        with pytest.raises(Refused, match="variants the tables played are final"):
            change()
    assert [t.variant for t in event.tables.order_by("number")] == played


def test_marking_a_player_present_returns_their_seat_in_the_planned_round(organizer):
    event = factories.seated_event(owner=organizer, players=9, tables=3)
    player = Player.objects.get(event=event, name=sorted(factories.seats_of(event, 1))[0])
    absent = set_player_status(player=player, status=PlayerStatus.ABSENT)
    assert (absent.planned_round.number, absent.seat) == (1, None)
    back = set_player_status(
        player=player, status=PlayerStatus.PRESENT, table=factories.table(event, 3)
    )
    assert (back.planned_round.number, back.seat.table.number) == (1, 3)
    assert back.seat == Seat.objects.get(player=player, round__number=1)


def test_names_that_differ_only_in_accents_are_the_same_name(organizer):
    event = factories.make_event(owner=organizer)
    add_players(event=event, names=["Zoë Martin"])
    with pytest.raises(Refused) as refused:
        add_players(event=event, names=["zoe martin"])
    assert "clashes with “Zoë Martin”" in refused.value.message


# Each pair is one name for the roster check and for the database alike: the dotted
# capital I (which lower() and casefold() fold apart), accents, the sharp s, case.
SAME_NAMES = [("İlker", "ilker"), ("Zoë", "zoe"), ("Straße", "STRASSE"), ("Ann", "ann")]


@pytest.mark.parametrize(("first", "twin"), SAME_NAMES)
def test_the_database_refuses_what_the_roster_check_refuses(organizer, first, twin):
    """The constraint uses the same key as the check, so the two never disagree, on
    SQLite and on PostgreSQL: one by one (save) and in bulk (bulk_create)."""
    event = factories.make_event(owner=organizer)
    factories.add_players(event, [first])
    with pytest.raises(Refused, match=f"“{twin}” clashes with “{first}” already on the roster"):
        add_players(event=event, names=[twin])
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=event, name=twin)
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.add_players(event, [twin])
    assert list(event.players.values_list("name", flat=True)) == [first]


def _blind_once(monkeypatch) -> list:
    """The next name check sees the roster as it was before another request's write: the
    write the database's constraint then catches. Returns the checks made, so a test can
    tell that the blind check ran (and the one after the constraint)."""
    real = roster._taken_names
    calls = []

    def blind_once(*args, **kwargs):
        calls.append(args)
        return {} if len(calls) == 1 else real(*args, **kwargs)

    monkeypatch.setattr(roster, "_taken_names", blind_once)
    return calls


@pytest.mark.parametrize(("first", "twin"), SAME_NAMES)
def test_a_name_only_the_constraint_catches_is_refused_naming_whose_it_is(
    organizer, monkeypatch, first, twin
):
    event = factories.make_event(owner=organizer)
    factories.add_players(event, [first])
    checks = _blind_once(monkeypatch)
    with pytest.raises(Refused) as refused:
        add_players(event=event, names=["Someone New", twin])
    assert len(checks) == 2, "the blind check, then the one after the constraint"
    assert refused.value.message.startswith(f"“{twin}” clashes with “{first}” already on")
    assert list(event.players.values_list("name", flat=True)) == [first]


def test_a_rename_only_the_constraint_catches_is_refused_naming_whose_name_it_is(
    organizer, monkeypatch
):
    event = factories.make_event(owner=organizer)
    ann = factories.add_players(event, ["İlker", "Ann"])[1]
    checks = _blind_once(monkeypatch)
    with pytest.raises(Refused, match="“ilker” clashes with “İlker” already on the roster"):
        rename_player(player=ann, name="ilker")
    assert len(checks) == 2
    assert Player.objects.get(pk=ann.pk).name == "Ann"
    checks = _blind_once(monkeypatch)
    with pytest.raises(Refused) as refused:
        rename_player(player=ann, name="İlker")
    assert len(checks) == 2
    assert refused.value.message == "İlker is already on the roster."


def test_names_that_only_look_alike_are_different_names(organizer):
    event = factories.make_event(owner=organizer)
    add_players(event=event, names=["Ilka", "Ilker", "Zoey", "Zoe", "Strasser"])
    assert event.players.count() == 5


def test_placing_a_player_back_at_the_table_they_earned_restores_their_move(organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    player = Player.objects.get(event=event, name=sorted(factories.seats_of(event, 1))[0])
    home = factories.seats_of(event, 1)[player.name]
    elsewhere = factories.table(event, 3 if home != 3 else 1)
    assert move_player(player=player, table=elsewhere).reason == SeatReason.PLACED
    back = move_player(player=player, table=factories.table(event, home))
    assert (back.reason, back.earned_table, back.earned_reason) == (SeatReason.HOME, None, "")


def test_a_player_added_after_round_one_is_new_not_back(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    add_players(event=event, names=["Late Lou"])
    absent = Player.objects.get(event=event, name=factories.seated_names(event, 2)[0])
    set_player_status(player=absent, status=PlayerStatus.ABSENT)
    set_player_status(player=absent, status=PlayerStatus.PRESENT)
    factories.close_current_round(event, organizer)
    reasons = dict(Seat.objects.filter(round__number=2).values_list("player__name", "reason"))
    assert reasons["Late Lou"] == SeatReason.JOINING
    assert reasons[absent.name] != SeatReason.JOINING


def test_the_classic_set_gives_the_tables_the_sources_sheets(organizer):
    event = factories.seated_event(owner=organizer, players=44, tables=11)
    set_table_variant(table=factories.table(event, 3), variant=Variant(True, Suit.SPADES))
    version = Event.objects.get(pk=event.pk).version

    tables = use_classic_variants(event=event)

    codes = [t.variant.code for t in event.tables.order_by("number")]
    assert codes[:10] == [
        "low-hearts",
        "high-diamonds",
        "low-clubs",
        "high-hearts",
        "low-spades",
        "high-clubs",
        "low-diamonds",
        "high-hearts-anytime",
        "low-clubs-anytime",
        "high-spades",
    ]
    # Table 11 continues the set: the other direction and another trump than table 10.
    assert codes[10].startswith("low-")
    assert "spades" not in codes[10]
    assert [t.number for t in tables] == list(range(1, 12))
    assert not event.tables.filter(variant_set_by_hand=True).exists()
    assert Event.objects.get(pk=event.pk).version > version
    assert variant_warnings(event.tables.all(), event.trump_anytime_share) == []


def test_the_classic_set_after_study_needs_confirmation(organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=12, tables=3))
    before = [t.variant for t in event.tables.order_by("number")]
    with pytest.raises(Refused, match="Confirm"):
        use_classic_variants(event=event)
    assert [t.variant for t in event.tables.order_by("number")] == before
    use_classic_variants(event=event, confirmed=True)
    assert [t.variant.code for t in event.tables.order_by("number")] == [
        "low-hearts",
        "high-diamonds",
        "low-clubs",
    ]
