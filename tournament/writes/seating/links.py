"""A player's personal link at a screen event, changed by the organizer.

Terms:
    personal link  /t/p/<token>/ (tables.views.screen): the player's token is the only
                   credential, and the device holding their seat sees their hand.
    new link       a new token for the player: the old link is a 404 page from then on,
                   on every device that had it, and the seat is nobody's until the first
                   browser opens the new link (tables.views.screen: screen_home). It is
                   how the organizer moves a seat from a device that is in use: a lost
                   phone still on, a link that leaked, a name picked by someone else.
"""

from __future__ import annotations

from django.db import transaction

from tables.models import ScreenSeat, Table
from tournament.models import Event, Player, new_secret_token


@transaction.atomic
def give_player_new_link(*, player: Player) -> Player:
    """Give ``player`` a new personal link; the old one stops working and the device that
    held the seat with it loses it. Every screen hears of it: the event's version, and
    the player's table's, so the old device's next poll finds its link gone and shows
    why (tables.views.links: link_invalid)."""
    Event.objects.lock(player.event_id)
    player.token = new_secret_token()
    player.save(update_fields=["token"])
    ScreenSeat.objects.filter(player=player).delete()
    table_id = player.seats.order_by("-round__number").values_list("table_id", flat=True).first()
    if table_id is not None:
        Table.objects.bump_version(table_id=table_id, event_id=player.event_id)
    Event.objects.bump_version(player.event_id)
    return player
