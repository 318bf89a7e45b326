"""Tables and games: constraints, the variant round trip, and how reports are labelled."""

from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Prefetch

from tables.models import Game, GameReport, GameStatus, Table
from tables.variants import Suit, Variant
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
        f"first report (12:03:41): {bob.name}",
        f"second report (12:03:58): {alice.name}",
        f"third report (12:04:02): {bob.name}",
        f"report 4 (12:04:09): {alice.name}",
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

    assert [label.split(": ")[-1] for label in labels] == [alice.name, bob.name]
