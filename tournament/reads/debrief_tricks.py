"""The tricks' story at the debrief of an event whose cards are on screens: every table's
tricks, round by round, beside which rules met there.

Terms:
    story        every trick taken in a counted deal (practice deals are left out, as the
                 debrief leaves out practice games), per table-round, in the order taken:
                 its game, number, seconds to settle, whether the players pointed at
                 different cards first and whether the organizer settled it
                 (tournament.rules.charts.tricks: trick mark, strip). Every table-round
                 somebody sat at has a strip, empty when no trick was taken there; its
                 clash is the debrief's (tournament.reads.debrief).
    seconds to settle
                 from the trick's last card to its taking (TakenTrick.taken_at -
                 complete_at), never below 0.
    round chart  one round's strips as a chart (the printed report, the console's detail,
                 the download); the *story chart* draws every round side by side (the
                 projector's tricks' screen, the console beside the clash map).
    svg file     a chart as the records download it: an SVG document of its own, with the
                 marks' key drawn under it, to put in slides or print.

One query beyond the debrief's five. Nothing here names a player or a table's variant: the
clash kinds say which difference met, so every chart built here is safe before the reveal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import TakenTrick
from tournament.models import Event
from tournament.reads.debrief import Debrief, build_debrief
from tournament.rules import charts

# The projector's chart box at 1080p is 1830 x 640 to 700 px: a canvas this wide fills it
# (tournament.rules.charts.tricks: least text).
STORY_WIDTH = 2400


@dataclass(frozen=True)
class TricksStory:
    tables: list[int]
    rounds: list[int]
    strips: dict[tuple[int, int], charts.TableTricks]  # by (table, round)

    @property
    def has_tricks(self) -> bool:
        return any(strip.tricks for strip in self.strips.values())

    @property
    def most_tricks(self) -> int:
        """The highest trick number taken in any game: what the replay's choice offers."""
        return max((t.number for strip in self.strips.values() for t in strip.tricks), default=0)

    @property
    def most_games(self) -> int:
        return max((t.game for strip in self.strips.values() for t in strip.tricks), default=0)

    def in_round(self, number: int) -> list[charts.TableTricks]:
        """The round's strips, top table first."""
        return sorted(
            (s for (_table, r), s in self.strips.items() if r == number),
            key=lambda strip: -strip.table,
        )

    def summaries(self, number: int) -> list[str]:
        """The round's chart in words, a sentence a table (see charts.table_summary)."""
        return [charts.table_summary(s, _, ngettext) for s in self.in_round(number)]

    def disputed(self, table: int, number: int, game: int) -> list[charts.TrickMark]:
        """The tricks of one game whose players pointed at different cards first."""
        strip = self.strips.get((table, number))
        if strip is None:
            return []
        return [t for t in strip.tricks if t.game == game and t.disagreed]

    def round_chart(self, number: int, *, pattern_id: str = "hatch-tricks") -> SafeString:
        """One round's chart (see Terms: round chart)."""
        return self._chart([number], charts.WIDTH, pattern_id, round_label(number))

    def story_chart(self, *, pattern_id: str = "hatch-tricks", fill: bool = True) -> SafeString:
        """Every round side by side (see Terms: round chart); ``fill``: as tall as the
        projector's screen, even with few tables."""
        return self._chart(self.rounds, STORY_WIDTH, pattern_id, _story_label(), fill=fill)

    def svg_file(self, number: int | None = None) -> str:
        """A chart as a file of its own (see Terms: svg file): one round's, or every
        round's side by side when ``number`` is None."""
        if number is None:
            chart = self._chart(self.rounds, STORY_WIDTH, "hatch-tricks", _story_label(), key=True)
        else:
            chart = self._chart(
                [number], charts.WIDTH, "hatch-tricks", round_label(number), key=True
            )
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + chart

    def _chart(
        self,
        rounds: Sequence[int],
        width: float,
        pattern_id: str,
        label: str,
        *,
        key: bool = False,
        fill: bool = False,
    ) -> SafeString:
        strips = [s for (_table, r), s in self.strips.items() if r in rounds]
        svg = charts.tricks_svg(
            strips,
            self.tables,
            rounds,
            label=label,
            width=width,
            pattern_id=pattern_id,
            key=key,
            fill=fill,
            translate=_,
            ngettext=ngettext,
        )
        return mark_safe(svg)  # ElementTree escaped every word; no name is drawn


def _story_label() -> str:
    return _("The tricks' story: each table's tricks, round by round")


def round_label(number: int) -> str:
    """The accessible name of one round's chart."""
    return _("The tricks of round %(number)s, table by table") % {"number": number}


def settle_seconds(complete_at, taken_at) -> int:
    """Seconds to settle (see Terms), never below 0."""
    return max(0, round((taken_at - complete_at).total_seconds()))


def tricks_story(event: Event, data: Debrief | None = None) -> TricksStory:
    """The event's story (see Terms). One query beyond build_debrief's (pass ``data`` to
    share one)."""
    data = data or build_debrief(event)
    marks: dict[tuple[int, int], list[charts.TrickMark]] = defaultdict(list)
    rows = (
        TakenTrick.objects.filter(deal__round__event=event, deal__practice=False)
        .order_by("deal__round__number", "deal__table__number", "deal__number", "number")
        .values_list(
            "deal__table__number",
            "deal__round__number",
            "deal__number",
            "number",
            "complete_at",
            "taken_at",
            "disagreed",
            "settled",
        )
    )
    for table, number, game, trick, complete_at, taken_at, disagreed, settled in rows:
        seconds = settle_seconds(complete_at, taken_at)
        marks[(table, number)].append(charts.TrickMark(game, trick, seconds, disagreed, settled))
    strips = {
        key: charts.TableTricks(key[0], key[1], tuple(marks.get(key, ())), cell.kind)
        for key, cell in data.cells.items()
    }
    # A table-round with tricks but nobody seated (an imported record's oddity) still shows.
    for key, found in marks.items():
        strips.setdefault(key, charts.TableTricks(key[0], key[1], tuple(found)))
    rounds = sorted({number for _table, number in strips} | set(data.rounds))
    return TricksStory(data.tables, rounds, strips)
