"""A screen table's silent channel: a stroke drawn on the table's pad, and a gesture made
beside a player's seat.

Terms:
    pad shown   the round and table of the pad the player's screen showed when they drew
                or gestured: a stroke or a gesture that waited while its player moved to
                another table is refused, never shown at the new table (a new table starts
                without notes).
    client key  as for plays (tables.writes.screen_play): the same key again with the same
                stroke or gesture is a retry, answered as done and never stored twice; with
                another one (other points, ink, gesture or card, or another pad) it is
                refused and nothing changes (tables.writes.store_once). It stays
                between the screen that made it and the server: no other screen is shown
                it (a key is text a player could choose).
    table version  the table's version a stroke or gesture was stored at: the screen that
                drew the stroke knows the table's state holds it once it shows that
                version or a later one (static/js/pad.js), with no id of its own sent to
                the table.

    pace          each player's gestures, strokes and clears keep to what a person can
                  do (tables.rules.silent_channel, Terms: pace), counted from what the
                  player stored, under the event's lock: a screen or a script sending
                  faster is refused (``TooFast``, answered 429) and nothing is stored or
                  pushed to the table. A retry of a stored key is answered before the pace
                  is counted, so a screen coming back online never meets it.
    round cap     a round's pad keeps at most so much (tables.rules.silent_channel): once
                  full it takes no stroke and no clear, and every screen at the table says
                  so (phone/_pad_full.html).

Every function locks the event's row first, checks that the device holds the seat, stores
in one transaction and bumps the table's version, so every screen at the table (and the
console) hears of it as of a card. The rules of what a stroke may be are
tables.rules.silent_channel: a stroke is points and an ink, and nothing else is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import Deal, Gesture, Stroke, Table
from tables.reads.screen_play import deal_in_play_for
from tables.reads.screen_rows import plays_of, taken_of
from tables.reads.silent_channel import pad_full_for_the_round, pad_totals
from tables.rules import silent_channel as rules
from tables.writes.screen_play import touch_seat
from tables.writes.screen_refusals import (
    foreign_key_refusal,
    refuse_out_of_play,
    refuse_unless_holder,
    reused_key_refusal,
)
from tables.writes.store_once import ClientKey, find_retry, store_once
from tables.writes.table_lock import lock_table
from tournament.common.errors import Refused
from tournament.common.wake import wake_after_commit
from tournament.models import Event, Player, Round, Seat


@dataclass(frozen=True)
class Drawn:
    """What a stroke or a gesture did: ``repeated`` when its key was stored already;
    ``table_version`` the table's version once it was stored (None when repeated): a table
    state of that version or later holds it (see Terms: table version)."""

    table_id: int
    repeated: bool = False
    table_version: int | None = None


def _refuse_not_a_stroke() -> Refused:
    return Refused(_("The pad takes drawings only: lines made with the pen or the eraser."))


def _players_table(event: Event, player: Player) -> tuple[Round, int]:
    round_, _practice = refuse_out_of_play(event)
    table_id = (
        Seat.objects.filter(round=round_, player=player).values_list("table_id", flat=True).first()
    )
    if table_id is None:
        raise Refused(_("You are not seated at a table in this round."))
    return round_, table_id


def _action_key(
    model: type[Stroke] | type[Gesture], client_key: str, player: Player, same: dict[str, Any]
) -> ClientKey[dict[str, Any]]:
    """A stroke's or a gesture's key (tables.writes.store_once): a retry is this player's,
    with the values ``same`` names (field: value). A key another player's holds is
    refused (keys are random: a forged request), and so is this player's key with another
    stroke or gesture (see Terms: client key)."""
    names = dict.fromkeys(["player_id", "table_id", *same])  # each once
    return ClientKey(
        # Unordered: a key is unique, and the models' own order would join four tables.
        find=lambda: model.objects.filter(client_key=client_key).order_by().values(*names).first(),
        mine=lambda found: found["player_id"] == player.pk,
        same=lambda found: all(found[name] == value for name, value in same.items()),
        foreign=foreign_key_refusal,
        reused=reused_key_refusal,
    )


@dataclass(frozen=True)
class _Place:
    """Where a stroke or a gesture goes, read under the event's lock."""

    event: Event
    round_: Round
    table_id: int
    held: bool  # a device holds the player's seat already (tables.writes.screen_play)
    same: dict[str, Any]  # what a stored row with the key must hold to be this action


def _place(
    model: type[Stroke] | type[Gesture],
    *,
    player: Player,
    client_key: str,
    device: str,
    pad: tuple[int, int] | None,
    moved_on: str,
    same: dict[str, Any],
) -> _Place | Drawn:
    """Lock the event for one table, then the table (tables.writes.table_lock); the Drawn
    of a key stored already with the values ``same`` names
    (and at the pad shown, when given), else the player's table, refused with
    ``moved_on`` when the screen showed another (see Terms: pad shown)."""
    event = Event.objects.lock(player.event_id, one_table=True)
    if pad is not None:
        same = {**same, "round_id": pad[0], "table_id": pad[1]}
    if (found := find_retry(key=_action_key(model, client_key, player, same))) is not None:
        return Drawn(found["table_id"], repeated=True)
    held = refuse_unless_holder(player, device)
    round_, table_id = _players_table(event, player)
    lock_table(table_id)  # the pad and its pace are read after, under it
    if pad is not None and pad != (round_.pk, table_id):
        raise Refused(moved_on)
    return _Place(event, round_, table_id, held, same)


def _keep(
    model: type[Stroke] | type[Gesture],
    place: _Place,
    *,
    player: Player,
    device: str,
    now: datetime,
    **fields,
) -> Drawn:
    """Store it once (tables.writes.store_once), note the device, and tell the table's
    screens."""

    def store() -> Drawn:
        model.objects.create(player=player, round=place.round_, table_id=place.table_id, **fields)
        touch_seat(player, device, now, held=place.held)
        version = Table.objects.bump_version(table_id=place.table_id, event_id=place.event.pk)
        wake_after_commit()
        return Drawn(place.table_id, table_version=version)

    return store_once(
        key=_action_key(model, fields["client_key"], player, place.same),
        store=store,
        repeated=lambda found: Drawn(place.table_id, repeated=True),
    )


class TooFast(Refused):
    """Past the pace (see Terms: pace): the answer is 429, and the screen drops it."""


def _keep_pace(
    model: type[Stroke] | type[Gesture], place: _Place, player: Player, pace: str, now: datetime
) -> None:
    """Refuse with TooFast when one more ``pace`` action of ``player`` would be faster
    than a person: one query, of the player's own actions of the last few seconds."""
    since = now - timedelta(seconds=rules.PACE_HORIZON_SECONDS)
    sent_at = "drawn_at" if model is Stroke else "made_at"
    rows = model.objects.filter(
        round=place.round_, table_id=place.table_id, player=player, **{f"{sent_at}__gt": since}
    )
    if model is Stroke:
        clears = Q(kind=rules.CLEAR)
        rows = rows.filter(clears) if pace == rules.CLEARS else rows.exclude(clears)
    sent = rows.order_by().values_list(sent_at, flat=True)
    moments = [moment.timestamp() for moment in sent]
    if not rules.within_pace(rules.PACES[pace], moments, now.timestamp()):
        raise TooFast(_("Too fast: wait a moment, then send it again."))


@transaction.atomic
def draw_stroke(
    *,
    player: Player,
    kind: str,
    points: str,
    client_key: str,
    device: str,
    pad: tuple[int, int] | None = None,
    now: datetime | None = None,
) -> Drawn:
    """Draw one stroke (or clear the pad) at ``player``'s table. ``points`` is the text the
    screen sent ("x,y x,y ..."), checked whole before anything is stored; ``pad`` is the
    (round, table) the screen showed."""
    now = now or timezone.now()
    try:
        stroke = rules.read_stroke(kind, points)
    except rules.StrokeProblem:
        raise _refuse_not_a_stroke() from None
    place = _place(
        Stroke,
        player=player,
        client_key=client_key,
        device=device,
        pad=pad,
        moved_on=_("This drawing was for the pad of your last table: it was not kept."),
        same={"kind": stroke.kind, "points": [list(point) for point in stroke.points]},
    )
    if isinstance(place, Drawn):
        return place
    _keep_pace(Stroke, place, player, rules.pace_of(stroke.kind), now)
    round_id, table_id = place.round_.pk, place.table_id
    totals = pad_totals(round_id, table_id)
    if totals.round_full:  # clears too: each is kept (see Terms: round cap)
        raise Refused(pad_full_for_the_round())
    if stroke.kind != rules.CLEAR and totals.pad_points + len(stroke.points) > rules.MAX_PAD_POINTS:
        raise Refused(_("The pad is full. Clear it to draw again."))
    return _keep(
        Stroke,
        place,
        player=player,
        device=device,
        now=now,
        deal=deal_in_play_for(round_id, table_id),
        kind=stroke.kind,
        points=[list(point) for point in stroke.points],
        point_count=len(stroke.points),
        client_key=client_key,
        drawn_at=now,
    )


def _cards_on_table(deal: Deal | None) -> list[str]:
    """The cards a player can point at: the trick in play, else the last one taken."""
    if deal is None:
        return []
    plays = [(play.trick, play.card) for play in plays_of(deal.pk)]
    current = len(list(taken_of(deal.pk))) + 1
    in_play = [card for trick, card in plays if trick == current]
    return in_play or [card for trick, card in plays if trick == current - 1]


@transaction.atomic
def make_gesture(
    *,
    player: Player,
    kind: str,
    card: str = "",
    client_key: str,
    device: str,
    pad: tuple[int, int] | None = None,
    now: datetime | None = None,
) -> Drawn:
    """Show gesture ``kind`` beside ``player``'s seat at their table (pointing at
    ``card``, one of the cards on the table). ``pad`` is the (round, table) the screen
    showed: a gesture that waited while its player moved is refused, never shown at the
    new table."""
    now = now or timezone.now()
    if kind not in rules.GESTURES:
        raise Refused(_("Gestures only: pick one of the pictures."))
    place = _place(
        Gesture,
        player=player,
        client_key=client_key,
        device=device,
        pad=pad,
        moved_on=_("This gesture was for your last table: it was not shown."),
        same={"kind": kind, "card": card if kind == rules.POINT else ""},
    )
    if isinstance(place, Drawn):
        return place
    _keep_pace(Gesture, place, player, "gestures", now)
    deal = deal_in_play_for(place.round_.pk, place.table_id) if card else None
    try:
        kind, card = rules.read_gesture(kind, card, _cards_on_table(deal))
    except ValueError:
        raise Refused(_("That card is no longer on the table.")) from None
    return _keep(
        Gesture,
        place,
        player=player,
        device=device,
        now=now,
        kind=kind,
        card=card,
        client_key=client_key,
        made_at=now,
    )


@transaction.atomic
def set_video_rooms(*, event: Event, pattern: str, links: dict[int, str]) -> int:
    """Keep the event's video pattern and each table's own link (checked by the form,
    tables.forms.VideoRoomsForm); returns how many tables have a video room now. The
    screens show a changed link at their next look (the event's shared version)."""
    event = Event.objects.lock(event.pk)
    event.video_pattern = pattern
    event.save(update_fields=["video_pattern"])
    tables = list(Table.objects.filter(event=event))
    for table in tables:
        table.video_link = links.get(table.number, table.video_link)
    Table.objects.bulk_update(tables, ["video_link"])
    Event.objects.bump_version(event.pk)
    return sum(1 for table in tables if table.video_link or pattern)
