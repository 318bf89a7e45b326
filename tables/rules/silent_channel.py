"""The means a screen table has instead of words: drawing on a shared pad, wordless
gestures, and a video room of the table's own. Pure: what a stroke, a gesture or a video
link may be, checked before anything is stored.

Terms:
    pad       a screen table's shared drawing surface for one round: a box of
              ``PAD_WIDTH`` by ``PAD_HEIGHT`` units, whatever the screen's size. A new
              round is a new pad, so a table's players start without notes after a move.
    stroke    one line drawn on the pad: a pen of one of the ``INKS``, or the eraser
              (``ERASER``, drawn in the paper's colour), as the points the pen went
              through, whole units inside the box. A ``CLEAR`` stroke has no points and
              empties the pad from then on; the strokes before it are kept for the
              debrief.
    points    how a stroke travels from a screen: "x,y x,y ..." and nothing else. There
              is no text tool, so anything else (a word, a pasted image, a number out of
              the box) is refused, never stored in part.
    pace      how often one player may send each kind of action (``PACES``): a bucket
              of ``burst`` actions that refills at ``per_second``, kept by the server
              for the player (whatever device, connection or cookie sends), read from
              the actions the player stored in the last ``PACE_HORIZON_SECONDS``
              (``within_pace``): at most ``burst`` + ``per_second`` x that horizon in
              any such span. An action past the pace is refused, never stored.
    round cap what a table's pad may keep over a round, all strokes and clears
              together: ``MAX_ROUND_POINTS`` points and ``MAX_ROUND_STROKES`` strokes;
              then the pad is full for the round and takes nothing more.
    gesture   one of ``GESTURES``, shown for ``GESTURE_SECONDS`` beside the player's seat
              on every screen at the table. ``POINT`` points at a card on the table.
    video link a table's video meeting address (any https address), or one pattern for
              every table with ``{event}`` and ``{table}`` in it. The product never embeds
              the video: it only shows the link, with its host as text beside it.
    host      where a video link leads (``video_host``): the part a person checks. A link
              that could show one host and lead to another is refused: user info before
              an ``@`` ("https://meet.example@evil.example/" leads to evil.example), a
              backslash (a browser reads it as "/", Python's parser does not), a
              percent sign in the host, and hidden characters anywhere (``HIDDEN``:
              controls, the bidi marks and overrides that turn text around, zero-width
              and other invisible characters).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar
from urllib.parse import SplitResult, urlsplit

PAD_WIDTH = 1000
PAD_HEIGHT = 700
INKS = ("black", "red", "blue", "green")
ERASER = "eraser"
CLEAR = "clear"
STROKE_KINDS = (*INKS, ERASER, CLEAR)
# A stroke longer than this is split by the screen before it is sent; a pad holding more
# points than the cap asks to be cleared (so a pushed table stays a small message).
MAX_STROKE_POINTS = 400
MAX_PAD_POINTS = 8_000  # about 64 kB of points in a pushed table
# A round's pad keeps at most this much (see Terms: round cap): a table that fills and
# clears a whole pad every two minutes of a 40-minute round stays below it (20 pads);
# 2,000 strokes is a stroke every 1.2 s for the whole round. One player sending as fast
# as the pace lets them fills it in minutes, and then stores nothing more: about 0.8 MB
# of points a table a round at most, where a flood stored 10-19 MB a minute.
MAX_ROUND_POINTS = 160_000
MAX_ROUND_STROKES = 2_000

POINT = "point"
GESTURES = (POINT, "no", "yes", "wait", "confused", "hand")
GESTURE_SECONDS = 8


def round_full(points: int, strokes: int) -> bool:
    """Whether a round's pad has kept all it may (see Terms: round cap): from then on it
    takes no stroke and no clear. The stroke that reaches the cap is kept whole."""
    return points >= MAX_ROUND_POINTS or strokes >= MAX_ROUND_STROKES


@dataclass(frozen=True)
class Pace:
    """At most ``burst`` at once, then ``per_second`` (see Terms: pace)."""

    burst: int
    per_second: float


CLEARS = "clears"
# What a person does, with room to spare:
# - a gesture shows GESTURE_SECONDS and only a player's latest one shows, so more than
#   one a second is never seen; a quick correction (a card pointed at, another, "yes")
#   is a few taps in a row: 5 at once, then one a second.
# - a stroke is a line from pen down to pen up: quick writing or a sketch is two or
#   three a second in bursts (a long line is sent in parts of MAX_STROKE_POINTS, one a
#   second at most by hand): 20 at once, then 4 a second.
# - a clear comes after a look at the pad: 3 at once (one by mistake, then two), then one
#   every 4 seconds.
PACES = {
    "gestures": Pace(burst=5, per_second=1.0),
    "strokes": Pace(burst=20, per_second=4.0),
    CLEARS: Pace(burst=3, per_second=0.25),
}
PACE_HORIZON_SECONDS = 30  # the bucket was full at most this long ago (within_pace)


def pace_of(kind: str) -> str:
    """The pace a stroke of ``kind`` counts against: a clear's own, or the strokes'."""
    return CLEARS if kind == CLEAR else "strokes"


def within_pace(pace: Pace, sent: Sequence[float], now: float) -> bool:
    """Whether one more action at ``now`` (seconds) keeps to ``pace``, given when the
    player's stored ones were sent (``sent``, seconds, those of the last
    PACE_HORIZON_SECONDS): the bucket, full at the horizon, spends one an action and
    refills at ``per_second``, never above ``burst``. Only stored actions count, so an
    action refused costs nothing and a retry of a stored one is never counted again."""
    level, at = float(pace.burst), now - PACE_HORIZON_SECONDS
    for moment in sorted(sent):
        level = min(pace.burst, level + (moment - at) * pace.per_second) - 1
        at = moment
    level = min(pace.burst, level + (now - at) * pace.per_second)
    return level >= 1 - 1e-9


VIDEO_MAX_LENGTH = 500
EVENT_FIELD = "{event}"
TABLE_FIELD = "{table}"

# ASCII digits without a leading zero: the points read back exactly as they came.
_NUMBER = r"(?:0|[1-9][0-9]{0,3})"
_PAIR = rf"{_NUMBER},{_NUMBER}"
_POINTS = re.compile(rf"{_PAIR}(?: {_PAIR}){{0,{MAX_STROKE_POINTS - 1}}}")


class StrokeProblem(ValueError):
    """Why a stroke is refused: ``reason`` is one of the names below."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# The reasons, for the words a screen shows (tables.writes.silent_channel).
NOT_A_STROKE = "not_a_stroke"  # text, a paste, an unknown ink: never from our pad
PAD_FULL = "pad_full"


@dataclass(frozen=True)
class Stroke:
    kind: str
    points: tuple[tuple[int, int], ...]


def read_stroke(kind: str, points: str) -> Stroke:
    """The stroke a screen sent, or StrokeProblem(NOT_A_STROKE): an ink of ours and
    points inside the pad, as "x,y x,y ..."; a clear has no points."""
    if kind not in STROKE_KINDS:
        raise StrokeProblem(NOT_A_STROKE)
    if kind == CLEAR:
        if points:
            raise StrokeProblem(NOT_A_STROKE)
        return Stroke(kind, ())
    if not isinstance(points, str) or not _POINTS.fullmatch(points):
        raise StrokeProblem(NOT_A_STROKE)
    pairs = tuple((int(x), int(y)) for x, y in (pair.split(",") for pair in points.split(" ")))
    if any(x > PAD_WIDTH or y > PAD_HEIGHT for x, y in pairs):
        raise StrokeProblem(NOT_A_STROKE)
    return Stroke(kind, pairs)


def points_text(points: Sequence[Sequence[int]]) -> str:
    """An SVG polyline's points; one point is drawn twice, so a dot shows."""
    pairs = [f"{x},{y}" for x, y in points]
    if len(pairs) == 1:
        pairs.append(pairs[0])
    return " ".join(pairs)


class HasKind(Protocol):
    @property
    def kind(self) -> str: ...


S = TypeVar("S", bound=HasKind)


def since_last_clear(strokes: Sequence[S]) -> list[S]:
    """The strokes a pad shows: those after its last clear, in order."""
    shown: list[S] = []
    for stroke in strokes:
        if stroke.kind == CLEAR:
            shown.clear()
        else:
            shown.append(stroke)
    return shown


def read_gesture(kind: str, card: str, cards_on_table: Sequence[str]) -> tuple[str, str]:
    """(kind, card) of a gesture, or ValueError: pointing names a card on the table; the
    others name none."""
    if kind not in GESTURES:
        raise ValueError(kind)
    if kind == POINT:
        if card not in cards_on_table:
            raise ValueError(card)
        return kind, card
    return kind, ""


class VideoProblem(ValueError):
    """Why a video link or pattern is refused: ``reason`` is one of the names below."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


NOT_HTTPS = "not_https"
NO_TABLE_FIELD = "no_table_field"
UNKNOWN_FIELD = "unknown_field"
USER_INFO = "user_info"  # a name (and password) before an "@": the host is after it
HIDDEN = "hidden"  # a character nobody sees, or one that turns the text around

# Invisible, though Unicode files them as letters, symbols or marks (fillers, blanks).
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")


def is_hidden(ch: str) -> bool:
    """A character a person cannot see in a link: a control, a format character (the
    bidi marks, embeddings, overrides and isolates, zero-width spaces and joiners, the
    byte order mark, soft hyphens), a private, surrogate or unassigned code point, or
    one of the invisible fillers. Spaces are refused on their own (NOT_HTTPS)."""
    return (unicodedata.category(ch).startswith("C") and not ch.isspace()) or ch in _INVISIBLE


def check_video_link(link: str, *, pattern: bool = False) -> str:
    """The link, stripped, or VideoProblem: an https address with a host, no spaces, and
    nothing that would make it look like another (see Terms: host); a pattern also names
    ``{table}`` (else every table meets in one room) and no other field than
    ``{event}``."""
    link = link.strip()
    if not link:
        return ""
    if any(is_hidden(ch) for ch in link):
        raise VideoProblem(HIDDEN)
    fields = set(re.findall(r"\{[^{}]*\}", link))
    if pattern:
        if TABLE_FIELD not in fields:
            raise VideoProblem(NO_TABLE_FIELD)
        if fields - {EVENT_FIELD, TABLE_FIELD}:
            raise VideoProblem(UNKNOWN_FIELD)
        sample = fill_video_pattern(link, event="event", table=1)
    else:
        sample = link
    try:
        parts = urlsplit(sample)
    except ValueError:  # "https://[": a bracket that opens no IPv6 address
        raise VideoProblem(NOT_HTTPS) from None
    if (
        len(link) > VIDEO_MAX_LENGTH
        or parts.scheme != "https"
        or not parts.hostname
        or _ascii_host(parts.hostname) is None
        or not _port_reads(parts)
        or any(ch.isspace() for ch in link)
        or "\\" in link
        or "%" in parts.netloc
        or (fields and not pattern)
    ):
        raise VideoProblem(NOT_HTTPS)
    if "@" in parts.netloc:
        raise VideoProblem(USER_INFO)
    return link


def video_host(link: str) -> str:
    """The host a checked video link leads to, as a person should read it: lower case,
    and a name in another script in its ASCII form ("xn--..."), as a browser's address
    bar shows a name that could pass for another; "" for no link (or none to read)."""
    try:
        host = urlsplit(link).hostname or ""
    except ValueError:
        return ""
    return _ascii_host(host) or host


def _ascii_host(host: str) -> str | None:
    """The host in ASCII (IDNA), or None when it has no such form (an empty or too long
    label): no browser reaches it, and no player could be shown it as it is."""
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return None


def _port_reads(parts: SplitResult) -> bool:
    try:
        parts.port  # noqa: B018 - reading it checks it (a number up to 65535)
    except ValueError:
        return False
    return True


def fill_video_pattern(pattern: str, *, event: str, table: int) -> str:
    """The pattern with its fields filled in; braces are left as they are otherwise."""
    return pattern.replace(EVENT_FIELD, event).replace(TABLE_FIELD, str(table))


def video_link(*, own: str, pattern: str, event: str, table: int) -> str:
    """The table's video room: its own link, else the event's pattern filled in, else ""."""
    if own:
        return own
    if pattern:
        return fill_video_pattern(pattern, event=event, table=table)
    return ""
