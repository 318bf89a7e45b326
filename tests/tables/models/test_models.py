"""Tables and games: constraints, the variant round trip, and how reports are labelled."""

from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Prefetch

from tables.models import Game, GameReport, GameStatus, Table
from tables.rules.variants import Suit, Variant
from tests import factories
from tests.factories import report, seated_players

pytestmark = pytest.mark.django_db


def test_table_numbers_are_unique_per_event_and_positive(event):
    Table.objects.create(event=event, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(event=event, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(event=event, number=0)


def test_variant_round_trips_through_the_fields(event):
    table = Table(event=event, number=1)
    variant = Variant(ace_high=False, trump=Suit.CLUBS, trump_anytime=True)
    table.set_variant(variant)
    table.save()
    assert Table.objects.get(pk=table.pk).variant == variant


def test_rotating_a_token_replaces_it(event):
    table = Table.objects.create(event=event, number=1)
    old = table.token
    table.rotate_token()
    assert Table.objects.get(pk=table.pk).token != old


def test_a_game_number_is_used_once_per_table_and_round(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    seat = event.current_round.seats.select_related("player", "table").first()
    Game.objects.create(round=event.current_round, table=seat.table, number=1, winner=seat.player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            round=event.current_round, table=seat.table, number=1, winner=seat.player
        )


def test_only_a_disputed_game_may_lack_a_winner(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    table = factories.table(event, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(round=event.current_round, table=table, number=1)
    Game.objects.create(
        round=event.current_round, table=table, number=1, status=GameStatus.DISPUTED
    )


def test_a_token_finds_its_table(event):
    table = Table.objects.create(event=event, number=1)
    Table.objects.create(event=event, number=2)
    assert list(Table.objects.for_token(table.token)) == [table]


@pytest.mark.parametrize("token", ["", "a b", "x" * 65, "ü", "²", "abc\x00", "a/b", "a.b"])
def test_a_token_we_cannot_have_made_finds_no_table_without_a_query(
    event, token, django_assert_num_queries
):
    Table.objects.create(event=event, number=1, token="a")
    with django_assert_num_queries(0):
        assert list(Table.objects.for_token(token)) == []
        assert Table.objects.for_token(token).values_list("version").first() is None


# --- telling reports apart -------------------------------------------------------------------


def test_the_reports_of_a_disputed_game_read_apart_by_order_and_time(organizer, settings):
    settings.TIME_ZONE = "UTC"
    playing = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    alice, bob = seated_players(playing, 1)[:2]
    arrived = [
        datetime(2025, 3, 14, 12, 3, 41, tzinfo=UTC),
        datetime(2025, 3, 14, 12, 3, 58, tzinfo=UTC),
        datetime(2025, 3, 14, 12, 4, 2, tzinfo=UTC),
        datetime(2025, 3, 14, 12, 4, 9, tzinfo=UTC),
    ]
    for winner, key in ((bob, "b"), (alice, "a"), (alice, "c"), (bob, "d")):
        report(playing, 1, winner, key=key, game_number=1)
    for key, at in zip("badc", arrived, strict=True):
        GameReport.objects.filter(client_key=key).update(received_at=at)

    labels = Game.objects.get().report_labels()

    assert labels == [
        f"first report (12:03:41): <bdi>{bob.name}</bdi>",
        f"second report (12:03:58): <bdi>{alice.name}</bdi>",
        f"third report (12:04:02): <bdi>{bob.name}</bdi>",
        f"report 4 (12:04:09): <bdi>{alice.name}</bdi>",
    ]


def test_labelling_prefetched_reports_needs_no_query(organizer, django_assert_num_queries):
    playing = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    alice, bob = seated_players(playing, 1)[:2]
    report(playing, 1, alice, key="a", game_number=1)
    report(playing, 1, bob, key="b", game_number=1)
    game = Game.objects.prefetch_related(
        Prefetch("reports", queryset=GameReport.objects.select_related("winner"))
    ).get()

    with django_assert_num_queries(0):
        labels = game.report_labels()

    assert [label.split(": ")[-1] for label in labels] == [
        f"<bdi>{alice.name}</bdi>",
        f"<bdi>{bob.name}</bdi>",
    ]


# --- the printed kit -------------------------------------------------------------------------


def printed_tables(event, count: int = 3) -> list[Table]:
    tables = [Table.objects.create(event=event, number=n) for n in range(1, count + 1)]
    Table.objects.mark_printed(tables)
    return list(Table.objects.filter(event=event).order_by("number"))


def test_a_table_never_printed_needs_no_reprint(event):
    table = Table.objects.create(event=event, number=1)
    assert table.printed_at is None
    assert not table.needs_reprint
    table.rotate_token()
    assert not table.needs_reprint


def test_a_printed_table_needs_no_reprint_until_its_paper_changes(event):
    table = printed_tables(event)[0]
    assert table.printed_at is not None
    assert table.printed_signature == f"{table.variant.code} {table.token}"
    assert not table.needs_reprint


def test_a_new_variant_after_printing_needs_a_reprint(event):
    table = printed_tables(event)[0]
    table.set_variant(Variant(ace_high=not table.ace_high, trump=Suit.SPADES, trump_anytime=True))
    table.save()
    assert Table.objects.get(pk=table.pk).needs_reprint


@pytest.mark.parametrize(
    "change",
    [
        {"ace_high": False},
        {"trump": Suit.CLUBS.value},
        {"trump_anytime": True},
    ],
)
def test_any_part_of_the_variant_changing_needs_a_reprint(event, change):
    table = Table.objects.create(
        event=event, number=1, ace_high=True, trump=Suit.HEARTS.value, trump_anytime=False
    )
    Table.objects.mark_printed([table])
    Table.objects.filter(pk=table.pk).update(**change)
    assert Table.objects.get(pk=table.pk).needs_reprint


def test_a_new_link_after_printing_needs_a_reprint(event):
    table = printed_tables(event)[1]
    table.rotate_token()
    assert table.needs_reprint
    assert Table.objects.get(pk=table.pk).needs_reprint


def test_going_back_to_the_printed_variant_needs_no_reprint(event):
    table = printed_tables(event)[0]
    printed = table.variant
    table.set_variant(Variant(ace_high=not printed.ace_high, trump=printed.trump))
    table.set_variant(printed)
    assert not table.needs_reprint


def test_printing_again_clears_the_reprint(event):
    table = printed_tables(event)[0]
    table.rotate_token()
    Table.objects.mark_printed([table])
    assert not table.needs_reprint
    assert not Table.objects.get(pk=table.pk).needs_reprint


def test_marking_many_tables_printed_is_one_update(event, django_assert_num_queries):
    tables = [Table.objects.create(event=event, number=n) for n in range(1, 31)]
    with django_assert_num_queries(1):
        Table.objects.mark_printed(tables)
    stored = {t.pk: t.printed_signature for t in Table.objects.filter(event=event)}
    assert stored == {t.pk: f"{t.variant.code} {t.token}" for t in tables}


def test_marking_records_what_was_shown_not_what_changed_meanwhile(event):
    shown = Table.objects.create(event=event, number=1)
    Table.objects.filter(pk=shown.pk).update(trump=Suit.CLUBS.value, ace_high=False)
    # The kit drew ``shown`` before the change landed: its paper has the old variant.
    Table.objects.mark_printed([shown])
    assert Table.objects.get(pk=shown.pk).needs_reprint


def test_clearing_a_reprint_bumps_the_events_version_only(event):
    table = printed_tables(event)[0]
    event.refresh_from_db()
    version, shared = event.version, event.shared_version
    Table.objects.mark_printed([table])
    event.refresh_from_db()
    assert (event.version, event.shared_version) == (version, shared)

    table.rotate_token()
    Table.objects.mark_printed([table])
    event.refresh_from_db()
    # The console polls the event's version; the phones' shared version stays.
    assert (event.version, event.shared_version) == (version + 1, shared)


def test_marking_no_table_does_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        Table.objects.mark_printed([])
