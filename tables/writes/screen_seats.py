"""Holding and letting go of a seat at a screen table, telling its screens that it
moved, and noting who is there.

Terms:
    seat holder  the device that holds a player's seat (tables.models.screen_play); an
                 empty device means the seat is held by nobody: its holder freed it, and
                 only a press of "Play on this device" takes it (tables.views.screen).
    told         the version of the player's table changes, so every screen at it, the
                 former holder's too, asks again at once (the live channel, or its poll).

Whether a device may take a seat is tables.reads.screen_play.seat_is_free; a sighting is
tables.models.screen_play's (Terms: sighting).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from tables.models import ScreenSeat, ScreenSighting, Table
from tournament.common.wake import wake_after_commit
from tournament.models import Event, Player, Seat


def free_seat(*, player: Player, device: str) -> bool:
    """The holder's screen lets go of the seat ("Free this seat"), so the player's other
    device may take it at its press of "Play on this device". The seat stays, held by
    nobody, so opening the link again takes nothing by itself. False when ``device`` did
    not hold it."""
    with transaction.atomic():
        event = Event.objects.lock(player.event_id)
        freed = ScreenSeat.objects.filter(player=player, device=device).exclude(device="")
        if not freed.update(device=""):
            return False
        tell_seat_moved(event, player)
        return True


def tell_seat_moved(event: Event, player: Player) -> None:
    """Bump the version of the player's latest table (see Terms: told). The caller holds
    the event's lock."""
    table_id = (
        Seat.objects.filter(round__event=event, player=player)
        .order_by("-round__number")
        .values_list("table_id", flat=True)
        .first()
    )
    if table_id is not None:
        Table.objects.bump_version(table_id=table_id, event_id=event.pk)
        wake_after_commit()


SEEN_EVERY_SECONDS = 15


def hold_seat(*, player: Player, device: str, now: datetime | None = None) -> bool:
    """``device`` holds ``player``'s seat from now on (see Terms: seat holder), and the
    player is sighted. The caller checked that it may (tables.reads.screen_play:
    seat_is_free). True when it took the seat from another device, whose screen is told
    at once: the table's version changes."""
    now = now or timezone.now()
    with transaction.atomic():
        event = Event.objects.lock(player.event_id)
        _sight([player.pk], now)
        seat, made = ScreenSeat.objects.get_or_create(
            player=player, defaults={"device": device, "seen_at": now}
        )
        if made or seat.device == device:
            if not made:
                ScreenSeat.objects.filter(pk=seat.pk).update(seen_at=now)
            return False
        seat.device, seat.seen_at = device, now
        seat.save(update_fields=["device", "seen_at"])
        tell_seat_moved(event, player)
        return True


def note_seen(*, player_ids: Iterable[int], now: datetime | None = None) -> int:
    """A screen of each of these players showed up (its page, a fetch of its live part,
    the live channel's stream opening or its heartbeat), whichever device it is on and
    whether or not that device holds the seat: each player's sighting (made when
    missing) and their seat holder's ``seen_at`` are kept when older than
    SEEN_EVERY_SECONDS. No seat is taken. One queued writer (a statement outside a
    transaction would meet SQLite's busy wait and slow the writers queued behind it),
    four statements whatever the number of players. Returns how many were sighted."""
    now = now or timezone.now()
    ids = sorted(set(player_ids))
    if not ids:
        return 0
    with transaction.atomic():
        events = dict(Player.objects.filter(pk__in=ids).values_list("pk", "event_id"))
        # Presence changes no table's play and nothing of the event: it shares the event's
        # lock as a card does (Event.objects.lock, one_table), so it never waits for a
        # card at any table, nor a card for it; what changes the whole event waits for it.
        for event_id in sorted(set(events.values())):
            Event.objects.lock(event_id, one_table=True)
        stale = now - timedelta(seconds=SEEN_EVERY_SECONDS)
        fresh = set(
            ScreenSighting.objects.filter(player_id__in=events, last_seen__gte=stale).values_list(
                "player_id", flat=True
            )
        )
        due = sorted(pk for pk in events if pk not in fresh)
        _sight(due, now)
        seats = ScreenSeat.objects.filter(player_id__in=ids, seen_at__lt=stale)
        if connection.features.has_select_for_update_skip_locked:
            # A seat's row that a card holds is skipped, not waited for: the card marks
            # its player as seen itself (touch_seat).
            seats = ScreenSeat.objects.filter(
                pk__in=seats.select_for_update(skip_locked=True).values("pk")
            )
        seats.update(seen_at=now)
        return len(due)


def _sight(player_ids: list[int], now: datetime) -> None:
    """Sight these players now (see tables.models.screen_play, Terms: sighting): one
    upsert. The caller holds their event's lock."""
    if player_ids:
        ScreenSighting.objects.bulk_create(
            [ScreenSighting(player_id=pk, last_seen=now) for pk in player_ids],
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["last_seen"],
        )
