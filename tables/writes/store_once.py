"""Storing an action once, by the client key it was sent with: one way for every write
that a page may send again (a phone's report, tables.writes.reporting; a card played and
a pointing, tables.writes.screen_play; a claim, tables.writes.game_claims; a stroke and a
gesture, tables.writes.silent_channel).

Terms:
    client key   the random key a page makes once for one action and sends again with
                 every retry of it (a lost answer, a reload, back online, a busy server:
                 static/js/outbox.js). The action's model holds it unique.
    key          what a write says of its client key (``ClientKey``): how to find the row
                 stored with it (``find``, one query, the write's own), whether that row is
                 the sender's (``mine``: the same player, the same table) and the same
                 action (``same``: the same card, winner, points...), and the words that
                 refuse it otherwise.
    retry        the key found, the sender's, the same action: answered as done from the
                 row stored before, and nothing is stored twice.
    foreign key  the key found, someone else's (keys are random: a forged or mixed-up
                 request): refused with ``foreign``, whose words say nothing of the other's
                 action.
    reused key   the key found, the sender's, with another action: refused with
                 ``reused`` and nothing changes. A key is one action, as a payment's key
                 reused with another amount is refused, never answered "paid".
    race         two requests with one key that both found nothing: only requests that do
                 not wait for one another get that far (a table write before its table's
                 lock, tables.writes.table_lock). The second one's insert then breaks the
                 key's unique constraint: ``store_once`` runs the store in a savepoint (a
                 transaction of its own when none is open), so the IntegrityError undoes
                 only what the store did, then finds the key again and answers the retry.
                 An IntegrityError with no row of the key is another failure, raised as
                 it came.

A write calls ``find_retry`` first, right after its lock (a card and a pointing, which
read first, before it too, and again under it when their table moved on meanwhile:
tables.writes.screen_play, Terms: read first), so that a retry is answered before
anything that changed since (a trick taken, a round closed) would refuse it; then
``store_once`` around what it stores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.db import IntegrityError, transaction

from tournament.common.errors import Refused

Row = TypeVar("Row")
Result = TypeVar("Result")


@dataclass(frozen=True, kw_only=True)
class ClientKey(Generic[Row]):
    """What a write says of its client key (see Terms: key)."""

    find: Callable[[], Row | None]
    mine: Callable[[Row], bool]
    same: Callable[[Row], bool]
    foreign: Callable[[], Refused]
    reused: Callable[[], Refused]


def find_retry(*, key: ClientKey[Row]) -> Row | None:
    """The row stored with the key when this request is a retry of it (see Terms), None
    when the key is new; a foreign or reused key is refused."""
    found = key.find()
    if found is None:
        return None
    if not key.mine(found):
        raise key.foreign()
    if not key.same(found):
        raise key.reused()
    return found


def store_once(
    *,
    key: ClientKey[Row],
    store: Callable[[], Result],
    repeated: Callable[[Row], Result],
) -> Result:
    """``store()`` in a savepoint; when a request with the same key stored it meanwhile
    (see Terms: race), ``repeated(row)`` of that request's row instead."""
    try:
        with transaction.atomic():
            return store()
    except IntegrityError:
        found = find_retry(key=key)
        if found is None:
            raise
        return repeated(found)
