"""How events are found and locked: the queries every write and view starts from.

Terms:
    lock          every write spanning an event's rows takes the event's row first
                  (``EventQuerySet.lock``), so two requests for one event run one after
                  the other.
    version       see tournament.models.event; ``bump_version`` tells every polling screen.
    players link  the event's one link for players (``for_players_token``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.db import connections, models, transaction
from django.db.models import F, Q

from tournament.models.cofacilitators import CoFacilitator
from tournament.models.tokens import looks_like_token

if TYPE_CHECKING:
    from tournament.models.event import Event


@cache
def _lock_sql(model: type[models.Model], for_update: bool) -> str:
    """The event's row by id, locked where the database locks rows (see EventQuerySet.lock)."""
    meta = model._meta
    columns = ", ".join(f'"{field.column}"' for field in meta.concrete_fields)
    sql = f'SELECT {columns} FROM "{meta.db_table}" WHERE "{meta.pk.column}" = %s'
    return sql + (" FOR UPDATE" if for_update else "")


class EventQuerySet(models.QuerySet["Event"]):
    def visible_to(self, user) -> EventQuerySet:
        """The events this user organizes (a superuser: every event)."""
        if user.is_superuser:
            return self
        return self.filter(owner=user)

    def reachable_by(self, user) -> EventQuerySet:
        """The events this user organizes, and the one they co-facilitate while their
        invitation is not revoked (checked on every request, so revoking works at once)."""
        if user.is_superuser:
            return self
        helping = CoFacilitator.objects.active().filter(user=user).values("event_id")
        return self.filter(Q(owner=user) | Q(pk__in=helping))

    def for_players_token(self, token: str) -> EventQuerySet:
        """The event a players link names: none for a token that we cannot have made."""
        if not looks_like_token(token):
            return self.none()
        return self.filter(players_token=token)

    def lock(self, event_id: int) -> Event:
        """The event as it stands now, its row locked until the transaction ends.

        Every bridge that writes an event's rows calls this first, inside its transaction,
        so two requests for one event run one after the other and the second sees what
        the first committed (a report and a round close, a confirmation and a dispute).
        SQLite's write lock does that for the whole database, taken at BEGIN (IMMEDIATE
        transactions): there FOR UPDATE is left out and this is a plain read. Taking the
        event first, before any other row, keeps two requests from each holding a row
        the other waits for.
        """
        # Prepared SQL, not .select_for_update().get(): compiling that query cost more
        # than running it, and every report pays it while it holds the lock (issue 23).
        for_update = connections[self.db].features.has_select_for_update
        if for_update and connections[self.db].get_autocommit():
            # As select_for_update() says: a row lock outside a transaction ends at once.
            raise transaction.TransactionManagementError(
                "Event.objects.lock() is for use inside a transaction."
            )
        event = next(iter(self.raw(_lock_sql(self.model, for_update), (event_id,))), None)
        if event is None:
            raise self.model.DoesNotExist(f"No event {event_id}.")
        return event

    def bump_version(self, event_id: int) -> None:
        """Tell every polling screen that something it shows has changed.

        A change confined to one table's games bumps that table instead
        (tables.models.TableQuerySet.bump_version), so the phones at every other table
        keep answering 304.
        """
        self.filter(pk=event_id).update(
            version=F("version") + 1, shared_version=F("shared_version") + 1
        )
