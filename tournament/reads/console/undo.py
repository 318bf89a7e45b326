"""Whether, and until when, the organizer may undo the last close of a round.

Terms:
    begun   the round after the last close has a game, a report (at an event whose cards
            are on the table) or a card played (at an event whose cards are on screens:
            a card played is a game under way). Undoing then would throw play away, so
            the console offers no undo and tournament.writes.rounds.undo_close_round
            refuses with the same words (Event.undo_refusal).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tables.models import Game, GameReport, Play
from tournament.models import Event, Round


def undo_blocker(
    event: Event, by_number: dict[int, Round], last_closed: Round | None
) -> str | None:
    """Why the last close cannot be undone (Event.undo_refusal), or None. At most two
    queries: whether the round after it has begun (see Terms)."""
    following = by_number.get(last_closed.number + 1) if last_closed else None
    begun: QuerySet = (
        Play.objects.filter(deal__round=following)
        if event.on_screens
        else GameReport.objects.filter(round=following)
    )
    following_has_games = following is not None and (
        Game.objects.filter(round=following).exists() or begun.exists()
    )
    return event.undo_refusal(
        last_closed_number=last_closed.number if last_closed else None,
        next_round_has_games=following_has_games,
    )


def undo_note(event: Event, last_closed: Round | None, round_numbers: set[int]) -> str:
    """Until when the last close can be undone, in words shown beside the undo button."""
    following = last_closed.number + 1 if last_closed else None
    if following in round_numbers:
        note = (
            _("Possible until the first card of round %(number)s is played.")
            if event.on_screens
            else _("Possible while round %(number)s has no reported game.")
        )
        return note % {"number": following}
    return _("Possible until you start the debrief: the results are final then.")
