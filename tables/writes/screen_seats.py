"""Letting go of a seat at a screen table, and telling its screens that it moved.

Terms:
    seat holder  the device that holds a player's seat (tables.models.screen_play); an
                 empty device means the seat is held by nobody: its holder freed it, and
                 only a press of "Play on this device" takes it (tables.views.screen).
    told         the version of the player's table changes, so every screen at it, the
                 former holder's too, asks again at once (the live channel, or its poll).

Taking a seat is tables.writes.screen_play.hold_seat; whether a device may take it is
tables.reads.screen_play.seat_is_free.
"""

from __future__ import annotations

from django.db import transaction

from tables.models import ScreenSeat, Table
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
