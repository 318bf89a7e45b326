"""The organizer's hand at a screen table, from its console page: settle a trick left in
disagreement, play a card for a player who is gone, end a game as it stands (at an event
with a scoring clause: give a game to the player the organizer names, tables.writes.
game_claims); and the players' personal links, as a list to copy and a QR code each.

Terms:
    screen table, stall, gone, settle
              see tables.writes.screen_organizer and tables.reads.screen_play.
    personal link  a player's own link at a screen event (tables.views.screen); whoever
              holds it plays that player's hand, so the list is the organizer's alone.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tables.reads.screen_play import card_view
from tables.rules.screen_play import is_card
from tables.writes.game_claims import settle_game_winner
from tables.writes.screen_organizer import end_game_as_it_stands, play_for_player, settle_trick
from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.common.qr import qr_svg
from tournament.models import Event
from tournament.reads.room import phone_base_url, room_settings
from tournament.views.access import EventRequest, event_view
from tournament.views.organizer.answers import run_action
from tournament.views.organizer.tables import table_url


def _card(request: EventRequest) -> str:
    card = request.POST.get("card", "")
    if not is_card(card):
        raise Refused(_("Choose a card."))
    return card


@require_POST
@event_view(may="assist")
def screen_settle(request: EventRequest, event: Event, number: int) -> HttpResponse:
    def settle() -> str:
        card = _card(request)
        trick = positive_int(request.POST.get("trick")) or 0
        done = settle_trick(
            event=event, table_number=number, trick=trick, card=card, by=request.user
        )
        if done.taken is None:
            return ""
        message = _("Table %(table)s: trick %(trick)s goes to %(name)s (%(card)s), decided by you.")
        return message % {
            "trick": trick,
            "table": number,
            "name": done.taken.taker.name,
            "card": card_view(card).label,
        }

    return run_action(request, settle, default=table_url(event, number))


@require_POST
@event_view(may="assist")
def screen_play_for(request: EventRequest, event: Event, number: int) -> HttpResponse:
    def play() -> str:
        card = _card(request)
        player_id = positive_int(request.POST.get("player")) or 0
        done = play_for_player(event=event, player_id=player_id, card=card, by=request.user)
        return _("Table %(table)s: played for %(name)s: %(card)s.") % {
            "card": card_view(card).label,
            "table": number,
            "name": done.deal.round.event.players.get(pk=player_id).name,
        }

    return run_action(request, play, default=table_url(event, number))


@require_POST
@event_view(may="assist")
def screen_end_game(request: EventRequest, event: Event, number: int, deal: int) -> HttpResponse:
    def end() -> str:
        game = end_game_as_it_stands(
            event=event, table_number=number, by=request.user, deal_id=deal
        )
        if game is None:
            return _(
                "The game at table %(table)s ended with no trick taken: it does not count."
            ) % {"table": number}
        return _("Game %(game)s at table %(table)s ended as it stood: %(name)s won.") % {
            "game": game.number,
            "table": number,
            "name": game.winner.name if game.winner else "",
        }

    return run_action(request, end, default=table_url(event, number))


@require_POST
@event_view(may="assist")
def screen_give_game(request: EventRequest, event: Event, number: int, deal: int) -> HttpResponse:
    """Give the table's game to a player: settle the players' claim, or end a game at an
    event with a scoring clause."""

    def give() -> str:
        winner = positive_int(request.POST.get("winner")) or 0
        done = settle_game_winner(
            event=event, table_number=number, winner_id=winner, by=request.user, deal_id=deal
        )
        return _("Table %(table)s: game %(game)s goes to %(name)s, decided by you.") % {
            "table": number,
            "game": done.game.number if done.game is not None else done.deal.number,
            "name": event.players.get(pk=winner).name,
        }

    return run_action(request, give, default=table_url(event, number))


@require_GET
@event_view(organizer_only=True)
def player_links(request: EventRequest, event: Event) -> HttpResponse:
    """Every player's personal link: a list to copy, and a QR code each to print or show."""
    players = list(event.players.on_roster().order_by("name_key", "name"))
    base_url = phone_base_url(room=room_settings(event))
    rows = []
    for player in players:
        url = base_url + reverse("phone:screen", args=[player.token])
        rows.append((player, url, qr_svg(url, label=player.name)))
    return render(
        request,
        "organizer/player_links.html",
        {
            "event": event,
            "rows": rows,
            "join_url": base_url + reverse("phone:player_home", args=[event.players_token]),
            "copy_text": "\n".join(f"{player.name}\t{url}" for player, url, _qr in rows),
        },
    )
