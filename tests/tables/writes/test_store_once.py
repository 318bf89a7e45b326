"""One way to store an action once by its client key (tables.writes.store_once), shown on
gestures stored directly: a new key is stored, the same key and action is answered as a
repeat and never doubled, the same key with another action or of another sender is
refused, and a key stored meanwhile by a request beside this one is that request's."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tables.models import Gesture
from tables.writes.store_once import ClientKey, find_retry, store_once
from tests import factories
from tests.screen_factories import deal_at, screen_event
from tournament.common.errors import Refused
from tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(organizer):
    """(deal, its first two players) at table 1 of a screen event in round 1."""
    deal = deal_at(factories.start_rounds(screen_event(owner=organizer, players=4, tables=1)), 1)
    return deal, Player.objects.get(pk=deal.seats[0]), Player.objects.get(pk=deal.seats[1])


def gesture_key(player: Player, client_key: str, kind: str) -> ClientKey[Gesture]:
    return ClientKey(
        find=lambda: Gesture.objects.filter(client_key=client_key).first(),
        mine=lambda found: found.player_id == player.pk,
        same=lambda found: found.kind == kind,
        foreign=lambda: Refused("someone else's key"),
        reused=lambda: Refused("a key already used"),
    )


def send(deal, player: Player, client_key: str, kind: str = "yes") -> tuple[str, int]:
    """A gesture's write, as a write uses the helper: ("stored" or "repeated", its row)."""
    key = gesture_key(player, client_key, kind)
    if (found := find_retry(key=key)) is not None:
        return "repeated", found.pk

    def store() -> tuple[str, int]:
        row = Gesture.objects.create(
            round_id=deal.round_id,
            table_id=deal.table_id,
            player=player,
            kind=kind,
            client_key=client_key,
        )
        return "stored", row.pk

    return store_once(key=key, store=store, repeated=lambda found: ("repeated", found.pk))


def test_a_new_key_is_stored(seated):
    deal, me, _other = seated
    assert send(deal, me, "k-new")[0] == "stored"
    assert Gesture.objects.get().client_key == "k-new"


def test_the_same_key_and_action_again_is_a_repeat_not_a_second_row(seated):
    deal, me, _other = seated
    _stored, first = send(deal, me, "k-again")
    assert send(deal, me, "k-again") == ("repeated", first)
    assert Gesture.objects.count() == 1


def test_the_same_key_with_another_action_is_refused_and_changes_nothing(seated):
    deal, me, _other = seated
    send(deal, me, "k-reused", kind="yes")
    with pytest.raises(Refused, match="a key already used"):
        send(deal, me, "k-reused", kind="no")
    assert list(Gesture.objects.values_list("kind", flat=True)) == ["yes"]


def test_another_senders_key_is_refused(seated):
    deal, me, other = seated
    send(deal, me, "k-mine")
    with pytest.raises(Refused, match="someone else's key"):
        send(deal, other, "k-mine")
    assert Gesture.objects.count() == 1


def test_a_key_stored_meanwhile_is_answered_as_that_request_and_the_transaction_goes_on(seated):
    """A request that found nothing, then met the key's unique constraint (another one
    with its key stored it in between): its own insert is undone, the transaction it runs
    in is still usable, and it answers with the row stored before."""
    deal, me, _other = seated
    _stored, first = send(deal, me, "k-raced")
    key = gesture_key(me, "k-raced", "yes")
    with transaction.atomic():
        answer = store_once(
            key=key,
            store=lambda: Gesture.objects.create(
                round_id=deal.round_id,
                table_id=deal.table_id,
                player=me,
                kind="yes",
                client_key="k-raced",
            ),
            repeated=lambda found: found.pk,
        )
        assert answer == first
        assert Gesture.objects.count() == 1  # a query still runs: only the savepoint undone


def test_a_key_stored_meanwhile_with_another_action_is_refused(seated):
    deal, me, _other = seated
    send(deal, me, "k-raced-other", kind="yes")
    with pytest.raises(Refused, match="a key already used"):
        store_once(
            key=gesture_key(me, "k-raced-other", "no"),
            store=lambda: Gesture.objects.create(
                round_id=deal.round_id,
                table_id=deal.table_id,
                player=me,
                kind="no",
                client_key="k-raced-other",
            ),
            repeated=lambda found: found.pk,
        )


def test_a_failure_other_than_the_key_is_raised_as_it_came(seated):
    _deal, me, _other = seated

    def broken():
        raise IntegrityError("disk full")

    with pytest.raises(IntegrityError, match="disk full"):
        store_once(key=gesture_key(me, "k-unused", "yes"), store=broken, repeated=str)
