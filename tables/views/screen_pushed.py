"""The table's state that the live channel pushes (tournament.serving.live_channel) to every
screen at a table, rendered once for nobody in particular.

Terms:
    state      #table-state: the game, the seats, the gestures showing; no hand (each
               screen marks its own seat, static/js/screen.js).
    pad parts  the pad's strokes, their count and whether the round's pad is full; or
               #pad-kept, its version alone, when it did not change since the version a
               screen was last pushed; or #pad-added, the strokes added since a version
               that the pad's last clear left in place.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import translation

from tables.reads import prepared
from tables.reads.screen_play import table_view
from tables.reads.screen_rows import deal_in_play_at
from tournament.models import Phase

STATE_TEMPLATE = "phone/_screen_pushed.html"  # the table state, the pad and its count


@dataclass(frozen=True)
class PushedState:
    """A table's state for the live channel, in parts (see pushed_table_parts)."""

    version: int  # the table's
    pad_version: int  # tables.reads.silent_channel, Terms: pad version
    state: str  # #table-state: the game, the seats, the gestures showing
    pad: str  # the pad's strokes, their count, whether the round's pad is full
    kept: str  # #pad-kept: stands for the pad, with its version, when it did not change
    added: dict[int, str]  # #pad-added: the strokes since a pad version, by that version

    def message(self, *, told: int | None = None) -> str:
        """What a screen last pushed the pad at version ``told`` is sent: the table's
        state, then the pad's version alone when the pad did not change, the strokes
        added since when only strokes were (a gesture, a card or a stroke then costs a
        few kilobytes, not the whole pad), else the whole pad."""
        if told == self.pad_version:
            return self.state + self.kept
        if told is not None and told in self.added:
            return self.state + self.added[told]
        return self.state + self.pad


def pushed_table_parts(
    table_id: int, language: str, since: Collection[int] = ()
) -> PushedState | None:
    """The table's public state (#table-state) for the live channel to push to every
    screen at the table: rendered once, for nobody in particular (each screen marks its
    own seat), in ``language``; with the table's version, so a screen never takes an
    older state over a newer one, and the pad's, so a screen is sent the pad's strokes
    only when they changed: those added since each version in ``since`` that the pad's
    last clear left in place, or the whole pad. None when the table has no game in play.
    Nine queries: the table, the deal, the game (five), the pad and the gestures."""
    # The version first: a change after it gets a newer version and its own push, so a
    # screen never keeps a state older than the version it was told.
    table = prepared.table_with_event(table_id)
    deal = deal_in_play_at(table_id)
    if deal is None:
        return None
    deal.table = table
    with translation.override(language):
        view = table_view(deal, event=table.event, me=None)
        # After time up a push (the organizer settles a trick) keeps the table closed.
        closed = table.event.phase == Phase.ROUND and table.event.time_is_up()
        context = {"view": view, "me_id": None, "closed": closed}
        state, pad, kept = (
            render_to_string(f"{STATE_TEMPLATE}#{part}", context)
            for part in ("state", "pad", "kept")
        )
        added: dict[int, str] = {}
        if view.pad is not None:
            on_the_pad = {view.pad.base} | {stroke.id for stroke in view.pad.strokes}
            for version in set(since) & on_the_pad - {view.pad.version}:
                strokes = [stroke for stroke in view.pad.strokes if stroke.id > version]
                added[version] = render_to_string(
                    f"{STATE_TEMPLATE}#added", {**context, "since": version, "added": strokes}
                )
    pad_version = view.pad.version if view.pad is not None else 0
    return PushedState(table.version, pad_version, state, pad, kept, added)


def pushed_table_state(table_id: int, language: str) -> tuple[int, str] | None:
    """The whole of it, pad included, with the table's version (pushed_table_parts)."""
    parts = pushed_table_parts(table_id, language)
    return None if parts is None else (parts.version, parts.message())
