"""The room's screen on a player's own screen at a screen event (templates/phone/
_room_screen.html): what the projector shows between rounds and at the debrief, for the
players who have no projector to look at.

Terms:
    room screen  the projector's screen for the event as it stands
                 (tournament.reads.projector.build_screen): between rounds the moves (or,
                 after the last round, the final results), at the debrief the step the
                 organizer is on. It is the projector's own read, so it never shows a
                 table's rules before the organizer reveals them, nor a hand, nor how
                 anybody answered: the projector shows none of them.
    kept         the room screen is the same for every player of the event: it is read
                 once per event version and language (a step, a reveal, an answer bumps
                 Event.version) and kept, so a room of 500 whose screens all fetch their
                 page after a step reads it once, not 500 times.

Why a tag: a player's screen is a view of the tables app (tables.views.screen), and the
tables app never imports tournament's read models (docs/ARCHITECTURE.md: they import its
own). The templates wire both apps together, as board.py brings the projector's board
fragments to its templates.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django import template
from django.utils.translation import get_language

from tournament.models import Event, Phase
from tournament.reads.projector import Screen, build_screen

register = template.Library()

# The phases whose screen a player's screen shows in the room's words (before study it
# welcomes the player itself; from study to the end of a round it is their own table).
ROOM_PHASES = (Phase.BETWEEN_ROUNDS, Phase.DEBRIEF)
# A few events' current screens in a few languages; one screen is a board or a chart.
SCREENS_KEPT = 32

_kept: OrderedDict[tuple[str, int, str], Screen] = OrderedDict()
_kept_lock = threading.Lock()


@register.simple_tag
def room_screen(event: Event) -> Screen | None:
    """``{% room_screen event as room %}``: the room screen (see Terms), or None in a
    phase where the player's screen shows their own table."""
    if event.phase not in ROOM_PHASES:
        return None
    # The event's secret token, not its id: an id may come back after a deletion.
    key = (event.projector_token, event.version, get_language() or "")
    with _kept_lock:
        if (found := _kept.get(key)) is not None:
            _kept.move_to_end(key)
            return found
    # Read outside the lock: two screens that ask at once may both read it, and agree.
    screen = build_screen(event)
    with _kept_lock:
        _kept[key] = screen
        while len(_kept) > SCREENS_KEPT:
            _kept.popitem(last=False)
    return screen


def forget_room_screens() -> None:
    """Drop every kept screen (tests that count a first read's queries)."""
    with _kept_lock:
        _kept.clear()
