"""What a screen table's pad and gestures show: the pad's strokes now (to the table and the
console) or as they were at a moment (the debrief), what a new stroke is checked against,
the gestures still showing beside the seats, and each table's video link. Reads only; one
query each.

Terms:
    pad view      the strokes a pad shows, in the order drawn, ready for an SVG polyline
                  each (``PadStroke``), and how many there are, for a screen reader;
                  whether the round's pad is full (tables.rules.silent_channel, Terms:
                  round cap); and the pad's version.
    pad version   the id of the latest stroke or clear on the pad (0 for none): it changes
                  exactly when what the pad shows may have, so a table's state pushed
                  with the same pad version leaves the strokes out and every screen keeps
                  those it shows, and one pushed since a version on this side of the
                  last clear gets the strokes added since (tables.views.screen).
    showing       a gesture made less than GESTURE_SECONDS ago: ``seconds_left`` is how
                  long the screen keeps it, counted by the server, so a phone whose clock
                  is wrong hides it on time.
    room name     what ``{event}`` becomes in the event's video pattern: the event's name
                  and its video secret (tournament.models.tokens), e.g.
                  "cafe-lyon-k3x7q2mz7wprt4ha"; every table's room holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil

from django.db.models import Count, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.models import Gesture, Stroke, Table
from tables.rules import silent_channel as rules
from tournament.models import Event

# Translators: what a screen reader says for each gesture a player can make at a screen
# table (pictograms, no words on screen).
GESTURE_LABELS = {
    rules.POINT: gettext_noop("points at a card"),
    "no": gettext_noop("no"),
    "yes": gettext_noop("yes"),
    "wait": gettext_noop("wait"),
    "confused": gettext_noop("confused"),
    "hand": gettext_noop("raises a hand"),
}
# The buttons' own labels, as the player makes the gesture.
GESTURE_BUTTONS = {
    "no": gettext_noop("Gesture: no"),
    "yes": gettext_noop("Gesture: yes"),
    "wait": gettext_noop("Gesture: wait"),
    "confused": gettext_noop("Gesture: confused"),
    "hand": gettext_noop("Gesture: raise a hand"),
}
# The most of the event's name a video room's name keeps: enough to know it, short
# enough that a room's address stays readable when spoken or pasted.
ROOM_NAME_CHARACTERS = 40
INK_LABELS = {
    "black": gettext_noop("Black pen"),
    "red": gettext_noop("Red pen"),
    "blue": gettext_noop("Blue pen"),
    "green": gettext_noop("Green pen"),
    rules.ERASER: gettext_noop("Eraser"),
}


def pad_full_for_the_round() -> str:
    """What the table is told once its pad kept all a round may (rules.round_full)."""
    return _("The pad is full for this round: nothing more can be drawn until the next round.")


def ink_choices() -> list[tuple[str, str]]:
    """The pad's inks, (name, label), in the language spoken."""
    return [(ink, _(label)) for ink, label in INK_LABELS.items()]


def gesture_buttons() -> list[tuple[str, str]]:
    """The gesture buttons of a player's screen, (kind, label), in the language spoken."""
    return [(kind, _(label)) for kind, label in GESTURE_BUTTONS.items()]


@dataclass(frozen=True)
class PadStroke:
    """One line as every screen at the table draws it: its ink and points, nothing of the
    request that stored it (a key a player chose never reaches another player; the screen
    that drew it knows it is shown by the table's version, tables.views.silent_channel)."""

    kind: str
    points_text: str
    id: int = 0  # the stroke's, for a push of the strokes added since a pad version


@dataclass(frozen=True)
class PadView:
    strokes: list[PadStroke]
    points: int  # against rules.MAX_PAD_POINTS
    version: int = 0  # see Terms: pad version
    base: int = 0  # the version of the pad as its last clear left it (0: no clear yet)
    round_full: bool = False  # see Terms: pad view

    @property
    def drawings(self) -> int:
        return len(self.strokes)


@dataclass(frozen=True)
class GestureView:
    id: int  # a screen announces each gesture once
    player_id: int
    kind: str
    card: str
    label: str
    seconds_left: int


def pad_view(round_id: int, table_id: int, *, until: datetime | None = None) -> PadView:
    """The pad of one table in one round, now or as it was at ``until``. One query."""
    rows = Stroke.objects.filter(round_id=round_id, table_id=table_id)
    if until is not None:
        rows = rows.filter(drawn_at__lte=until)
    # Only the strokes from the last clear on leave the database: a busy pad cleared often
    # keeps its history for the debrief without every push reading it again. The clear
    # itself comes too, so the pad's version and the round's totals (the same on every
    # row, read in the same query) come even when it shows nothing.
    totals = rows.order_by().values("round_id")
    kept = (
        _from_last_clear(rows)
        .annotate(
            round_points=Subquery(totals.annotate(total=Sum("point_count")).values("total")),
            round_strokes=Subquery(totals.annotate(total=Count("pk")).values("total")),
        )
        .order_by("pk")
        .only("kind", "points")
    )
    rows_read = list(kept)
    shown = rules.since_last_clear(rows_read)
    last = rows_read[-1] if rows_read else None
    return PadView(
        [PadStroke(stroke.kind, rules.points_text(stroke.points), stroke.pk) for stroke in shown],
        sum(len(stroke.points) for stroke in shown),
        version=last.pk if last else 0,
        base=rows_read[0].pk if rows_read and rows_read[0].kind == rules.CLEAR else 0,
        round_full=last is not None and rules.round_full(last.round_points, last.round_strokes),
    )


@dataclass(frozen=True)
class PadTotals:
    """What a new stroke is checked against: the points the pad shows (against
    rules.MAX_PAD_POINTS) and all the round's pad kept (rules.round_full)."""

    pad_points: int
    round_points: int
    round_strokes: int

    @property
    def round_full(self) -> bool:
        return rules.round_full(self.round_points, self.round_strokes)


def pad_totals(round_id: int, table_id: int) -> PadTotals:
    """The pad's totals now. One query."""
    rows = Stroke.objects.filter(round_id=round_id, table_id=table_id)
    last_clear = rows.filter(kind=rules.CLEAR).order_by("-pk").values("pk")[:1]
    after_clear = Q(pk__gt=Coalesce(Subquery(last_clear), Value(0)))
    found = rows.aggregate(
        pad=Coalesce(Sum("point_count", filter=after_clear), 0),
        points=Coalesce(Sum("point_count"), 0),
        strokes=Count("pk"),
    )
    return PadTotals(found["pad"], found["points"], found["strokes"])


def _from_last_clear(rows: QuerySet[Stroke]) -> QuerySet[Stroke]:
    last_clear = rows.filter(kind=rules.CLEAR).order_by("-pk").values("pk")[:1]
    return rows.filter(pk__gte=Coalesce(Subquery(last_clear), Value(0)))


def gestures_showing(
    round_id: int, table_id: int, *, now: datetime | None = None
) -> dict[int, GestureView]:
    """Each player's latest gesture still showing at the table. One query."""
    now = now or timezone.now()
    since = now - timedelta(seconds=rules.GESTURE_SECONDS)
    rows = (
        Gesture.objects.filter(round_id=round_id, table_id=table_id, made_at__gt=since)
        .order_by("pk")
        .values_list("pk", "player_id", "kind", "card", "made_at")
    )
    showing: dict[int, GestureView] = {}
    for pk, player, kind, card, made_at in rows:
        left = rules.GESTURE_SECONDS - (now - made_at).total_seconds()
        showing[player] = GestureView(pk, player, kind, card, _(GESTURE_LABELS[kind]), ceil(left))
    return showing


def event_room_name(event: Event) -> str:
    """What ``{event}`` stands for in a video pattern: the event's name as a room name
    would spell it (cut to ROOM_NAME_CHARACTERS characters), so the organizer knows the rooms
    as theirs, then its video secret (Event.video_secret), so no stranger can guess them
    and two events of one name never share one."""
    name = slugify(event.name)[:ROOM_NAME_CHARACTERS].strip("-") or "event"
    return f"{name}-{event.video_secret}"


def table_video_link(event: Event, table: Table) -> str:
    """The table's video room, or "" (no link set). No query."""
    return rules.video_link(
        own=table.video_link,
        pattern=event.video_pattern,
        event=event_room_name(event),
        table=table.number,
    )
