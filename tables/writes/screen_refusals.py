"""What a screen table's writes refuse, in words that never judge a card.

Terms:
    play time     study and practice, or an open round whose clock has not run out
                  (tables.reads.screen_play: play_round): out of it no card is taken.
    seat holder   the device that holds a player's seat (tables.models.screen_play): a
                  move from another device is refused, with the way to take the seat.
    play problem  why the rules of turns refuse a card (tables.rules.screen_play:
                  PlayProblem): turns are the same at every table, so saying whose turn
                  it is reveals nothing; which card may be played is never judged.
    client key    a key another player's action holds, or this player's key sent again
                  with another action (tables.writes.store_once): refused in words that
                  say nothing of the move itself.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tables.models import ScreenSeat
from tables.reads.screen_play import play_round
from tables.rules import screen_play as rules
from tournament.common.errors import Refused
from tournament.models import Event, Phase, Player, Round


def refuse_out_of_play(event: Event) -> tuple[Round, bool]:
    if not event.on_screens:
        raise Refused(_("The cards of this event are on the tables, not on screens."))
    if event.is_finished:
        raise Refused(_("The event is over."))
    where = play_round(event)
    if where is None:
        if event.phase == Phase.ROUND:
            raise Refused(_("Time is up: the round is over. Wait for the organizer."))
        raise Refused(_("Play starts when the organizer starts the study time."))
    return where


def refuse_unless_holder(player: Player, device: str) -> bool:
    """Refuse a device that no longer holds the seat; whether any device holds it. A
    request without the phone cookie (``device`` empty) is refused too: it never takes or
    moves a seat, whoever holds it (the page's script always sends the cookie; a browser
    that keeps none cannot hold a seat, as "Play on this device" says)."""
    if not device:
        raise Refused(_("This browser keeps no cookie, so it cannot hold a seat."))
    holder = ScreenSeat.objects.filter(player=player).values_list("device", flat=True).first()
    if holder is not None and holder != device:
        raise Refused(
            _("Your seat is open on another device. Press “Play on this device” to play here.")
        )
    return holder is not None


def play_refusal(problem: str, game: rules.Game[int]) -> Refused:
    if problem == rules.PlayProblem.NOT_YOUR_TURN and game.trick and game.trick.to_play:
        name = Player.objects.filter(pk=game.trick.to_play).values_list("name", flat=True).get()
        return Refused(_("Wait for your turn: %(name)s plays next.") % {"name": name})
    messages = {
        rules.PlayProblem.OVER: _("This game is over: the next one is being dealt."),
        rules.PlayProblem.POINTING: _(
            "Every card of this trick is down: point at the card that takes it."
        ),
        rules.PlayProblem.NOT_HELD: _("That card is no longer in your hand."),
        rules.PlayProblem.SAT_OUT: _("You have no card left for this trick."),
    }
    return Refused(messages.get(problem, _("Wait for your turn.")))


def foreign_key_refusal() -> Refused:
    """The words for a key another player's action holds (keys are random: a forged or
    mixed-up request), which say nothing of the move itself."""
    return Refused(
        _("This move could not be matched to your screen. Reload the page and try again.")
    )


def reused_key_refusal() -> Refused:
    """The words for a key sent again with another action (see Terms: client key)."""
    return Refused(
        _(
            "This key was already used for another move: nothing was changed. Reload the "
            "page and try again."
        )
    )
