"""The screen tables' part of the event's record: every deal of a round, and in each its
plays, pointing and taken tricks; each round's strokes on the tables' pads and gestures;
and the CSV that lists the tricks.

Terms:
    deal      one game at a screen table (tables.models.Deal), written with the round it
              belongs to: its table, number, practice or not, seed, the seats in order
              and every hand as dealt (players by name), dealer, leader, times, how it
              ended and the game it counted as (by number). Client keys are not written:
              the import gives every row a new one, as it does reports.
    parts     inside a deal, its ``plays``, ``pointing`` and ``tricks`` (the taken ones),
              in the order they were made.
    silent channel  a round's ``strokes`` (table, player, ink or clear, points, time) and
              ``gestures`` (table, player, gesture, the card pointed at), in the order made;
              the game in play when a stroke was drawn is not written (its time says it).
    trick row one line of the tricks CSV: a taken trick of a counted or practice deal,
              with the cards played to it in order, who took it, whether the players
              pointed at different cards first, whether the organizer settled it, and
              the seconds it took to settle.

A record written before screen tables has no deals: it reads as none (``missing``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tables.models import Deal, DealEnd, Gesture, Play, Pointing, Stroke, TakenTrick
from tables.rules.silent_channel import GESTURES as GESTURE_KINDS
from tables.rules.silent_channel import STROKE_KINDS
from tournament.models import Event
from tournament.reads.record_format import (
    REQUIRED,
    Field,
    Kind,
    Section,
    time_field,
    username_field,
)
from tournament.rules.cards import DECK_SIZE

SEED_MAX = 2**63 - 1

DEALS = Section(
    "deals",
    Deal,
    (
        Field("table", Kind.TABLE),
        Field("number", Kind.WHOLE, minimum=1),
        Field("practice", Kind.FLAG),
        Field("seed", Kind.WHOLE, maximum=SEED_MAX),
        Field("seats", Kind.NAMES),
        Field("hands", Kind.HANDS),
        Field("dealer", Kind.PLAYER),
        Field("leader", Kind.PLAYER),
        time_field("dealt_at"),
        time_field("ended_at", null=True),
        Field(
            "end",
            Kind.CHOICE,
            choices=lambda: list(DealEnd.values),
            null=True,
            null_is_blank=True,
        ),
        Field("game", Kind.GAME, null=True),
    ),
    order_by=("practice", "number", "pk"),
    missing=list,
)
PLAYS = Section(
    "plays",
    Play,
    (
        Field("trick", Kind.WHOLE, minimum=1, maximum=DECK_SIZE),
        Field("player", Kind.PLAYER),
        Field("card", Kind.CARD),
        time_field("at", attr="played_at"),
        Field("by_organizer", Kind.FLAG),
    ),
    order_by=("pk",),
    missing=list,
)
POINTING = Section(
    "pointing",
    Pointing,
    (
        Field("trick", Kind.WHOLE, minimum=1, maximum=DECK_SIZE),
        Field("player", Kind.PLAYER),
        Field("card", Kind.CARD),
        time_field("at", attr="pointed_at"),
    ),
    order_by=("pk",),
    missing=list,
)
TRICKS = Section(
    "tricks",
    TakenTrick,
    (
        Field("number", Kind.WHOLE, minimum=1, maximum=DECK_SIZE),
        Field("taker", Kind.PLAYER),
        Field("card", Kind.CARD),
        time_field("complete_at"),
        time_field("taken_at"),
        Field("disagreed", Kind.FLAG),
        Field("settled", Kind.FLAG),
        username_field("settled_by"),
    ),
    order_by=("number",),
    missing=list,
)
DEAL_PARTS = (PLAYS, POINTING, TRICKS)
assert all(part.missing is not REQUIRED for part in (DEALS, *DEAL_PARTS))

STROKES = Section(
    "strokes",
    Stroke,
    (
        Field("table", Kind.TABLE),
        Field("player", Kind.PLAYER),
        Field("kind", Kind.CHOICE, choices=lambda: list(STROKE_KINDS)),
        Field("points", Kind.POINTS),
        time_field("at", attr="drawn_at"),
    ),
    order_by=("pk",),
    missing=list,
)
GESTURES = Section(
    "gestures",
    Gesture,
    (
        Field("table", Kind.TABLE),
        Field("player", Kind.PLAYER),
        Field("kind", Kind.CHOICE, choices=lambda: list(GESTURE_KINDS)),
        Field("card", Kind.CARD, null=True, null_is_blank=True),
        time_field("at", attr="made_at"),
    ),
    order_by=("pk",),
    missing=list,
)
SILENT_CHANNEL = (STROKES, GESTURES)


def screen_deals(event: Event, out: Any) -> dict[int, list[dict[str, Any]]]:
    """Each round's deals as the record writes them, by round id, with their parts: four
    queries. ``out`` is the export's writer (tournament.reads.records)."""
    deals = list(
        Deal.objects.filter(round__event=event)
        .values("id", "round_id", *DEALS.columns)
        .order_by(*DEALS.order_by)
    )
    parts: dict[str, dict[int, list]] = {}
    for part in DEAL_PARTS:
        rows = part.model._default_manager.filter(deal__round__event=event)
        grouped: dict[int, list] = defaultdict(list)
        for row in rows.values("deal_id", *part.columns).order_by(*part.order_by):
            grouped[row["deal_id"]].append(out.row(part, row))
        parts[part.key] = grouped
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for deal in deals:
        written = out.row(DEALS, deal)
        for part in DEAL_PARTS:
            written[part.key] = parts[part.key][deal["id"]]
        by_round[deal["round_id"]].append(written)
    return by_round


def silent_channel(event: Event, out: Any) -> dict[int, dict[str, list[dict[str, Any]]]]:
    """Each round's strokes and gestures as the record writes them, by round id: two
    queries. ``out`` is the export's writer (tournament.reads.records)."""
    by_round: dict[int, dict[str, list]] = defaultdict(lambda: {s.key: [] for s in SILENT_CHANNEL})
    for section in SILENT_CHANNEL:
        rows = section.model._default_manager.filter(round__event=event)
        for row in rows.values("round_id", *section.columns).order_by(*section.order_by):
            by_round[row["round_id"]][section.key].append(out.row(section, row))
    return by_round


def trick_rows(record: dict[str, Any]) -> list[list[Any]]:
    """The tricks CSV's lines (see Terms: trick row), heading first."""
    rows: list[list[Any]] = [
        [
            _("Round"),
            _("Table"),
            _("Game"),
            _("Practice"),
            _("Trick"),
            _("Cards played, in order"),
            _("Taken by"),
            _("With"),
            _("Pointed at different cards"),
            _("Settled by the organizer"),
            _("Seconds to settle"),
        ]
    ]
    for round_ in record.get("rounds", []):
        for deal in round_.get(DEALS.key, []):
            played: dict[int, list[str]] = defaultdict(list)
            for play in deal[PLAYS.key]:
                played[play["trick"]].append(f"{play['player']}: {play['card']}")
            for trick in deal[TRICKS.key]:
                seconds = _seconds(trick["complete_at"], trick["taken_at"])
                rows.append(
                    [
                        round_["number"],
                        deal["table"],
                        deal["number"],
                        _("yes") if deal["practice"] else _("no"),
                        trick["number"],
                        "; ".join(played[trick["number"]]),
                        trick["taker"],
                        trick["card"],
                        _("yes") if trick["disagreed"] else _("no"),
                        _("yes") if trick["settled"] else _("no"),
                        seconds,
                    ]
                )
    return rows


def _seconds(start: str | None, end: str | None) -> int | str:
    began, ended = parse_datetime(start or ""), parse_datetime(end or "")
    if began is None or ended is None:
        return ""
    return max(0, round((ended - began).total_seconds()))
