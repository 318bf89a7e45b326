"""Which rules met at a table, and whether disputes followed: the debrief's clash map.

Terms:
    table-round  one table in one round: the players seated there and the games they
                 played. The debrief's maps have one cell per table-round.
    home rules   the variant a player studied: the variant of the table they sat at in
                 round 1 (their home table). Players carry their home rules to every
                 table they move to, so the rules that *meet* at a table-round are the home
                 rules of the players seated there, not the table's own variant.
    clash        how the home rules at a table-round differ. Its *kind* is the biggest
                 difference that met: ``winning`` (players who win a game with the most
                 tricks met players who win with the fewest: they disagree about what
                 winning is), else ``direction`` (ace-high and ace-low players sat
                 together: they disagree about which card wins every trick), else
                 ``trump`` (one direction, but the trump suit, no trump, trump-any-time or
                 trumps-broken differed: they disagree only around trumps), else ``play``
                 (only must-beat-the-best-card differed), else ``none`` (everyone studied the
                 same rules). An event without the new clauses only ever has the classic
                 three kinds.
    differences  every way the home rules at a table-round differ, not only the biggest
                 (``clash_differences``): what the clash map's cell says on hover.
    dispute      a game whose phones named different winners, or that the organizer had
                 to settle; counted per table-round by tournament.reads.debrief.

A clash says which *kind* of difference met, never which table played which rules, so
the debrief can show it before the reveal.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from tournament.common.i18n import (
    Translate,
    TranslatePlural,
    gettext_noop,
    translated,
    untranslated,
    untranslated_plural,
)
from tournament.rules.cards import Variant


class ClashKind(StrEnum):
    DIRECTION = "direction"
    TRUMP = "trump"
    NONE = "none"
    # Only with the clauses beyond the classic three.
    WINNING = "winning"
    PLAY = "play"


# The kinds from biggest to smallest.
KIND_ORDER: tuple[ClashKind, ...] = (
    ClashKind.WINNING,
    ClashKind.DIRECTION,
    ClashKind.TRUMP,
    ClashKind.PLAY,
    ClashKind.NONE,
)
CLASSIC_KINDS: tuple[ClashKind, ...] = (ClashKind.DIRECTION, ClashKind.TRUMP)


def clash_kind(home_rules: Iterable[Variant]) -> ClashKind:
    """The biggest difference among the home rules seated at one table-round."""
    rules = set(home_rules)
    if len({variant.fewest_wins for variant in rules}) > 1:
        return ClashKind.WINNING
    if len({variant.ace_high for variant in rules}) > 1:
        return ClashKind.DIRECTION
    trump_rules = {(v.trump_key, v.trump_anytime, v.trumps_broken) for v in rules}
    if len(trump_rules) > 1:
        return ClashKind.TRUMP
    if len(rules) > 1:  # one direction and trump rules, so must-beat-the-best-card differs
        return ClashKind.PLAY
    return ClashKind.NONE


class Difference(StrEnum):
    WINNING = "winning"
    DIRECTION = "direction"
    TRUMP = "trump"
    ANYTIME = "anytime"
    BROKEN = "broken"
    OVERTAKE = "overtake"


_DIFFERENCE_NAMES: dict[Difference, str] = {
    Difference.WINNING: gettext_noop("most or fewest tricks wins"),
    Difference.DIRECTION: gettext_noop("ace-high or ace-low"),
    Difference.TRUMP: gettext_noop("trump suit"),
    Difference.ANYTIME: gettext_noop("trump any time"),
    Difference.BROKEN: gettext_noop("trumps led once broken"),
    Difference.OVERTAKE: gettext_noop("must beat the best card"),
}


def clash_differences(home_rules: Iterable[Variant]) -> tuple[Difference, ...]:
    """Every way the home rules at one table-round differ, biggest first."""
    rules = set(home_rules)
    facts: dict[Difference, Callable[[Variant], object]] = {
        Difference.WINNING: lambda v: v.fewest_wins,
        Difference.DIRECTION: lambda v: v.ace_high,
        Difference.TRUMP: lambda v: v.trump_key,
        Difference.ANYTIME: lambda v: v.trump_anytime,
        Difference.BROKEN: lambda v: v.trumps_broken,
        Difference.OVERTAKE: lambda v: v.must_overtake,
    }
    return tuple(d for d, fact in facts.items() if len({fact(v) for v in rules}) > 1)


def differences_text(differences: Iterable[str], translate: Translate = untranslated) -> str:
    """The differences as the clash map names them, e.g. "ace high or low, trump suit"."""
    return ", ".join(translate(_DIFFERENCE_NAMES[Difference(d)]) for d in differences)


@dataclass(frozen=True)
class TableRound:
    table: int
    round: int
    kind: ClashKind
    disputes: int
    differences: tuple[Difference, ...] = ()


@dataclass(frozen=True)
class ClashCount:
    """Of the table-rounds of one kind: how many there were, and how many had a dispute."""

    kind: ClashKind
    total: int
    disputed: int


def clash_counts(cells: Iterable[TableRound]) -> dict[ClashKind, ClashCount]:
    totals = {kind: [0, 0] for kind in ClashKind}
    for cell in cells:
        totals[cell.kind][0] += 1
        totals[cell.kind][1] += cell.disputes > 0
    return {kind: ClashCount(kind, total, disputed) for kind, (total, disputed) in totals.items()}


_NO_CLASH = gettext_noop("No table-round brought players with different rules together.")
_NOTHING_PLAYED = gettext_noop("No round was played, so no rules met.")
# Said after the sentence when it helps: the disputes where everyone had the same rules.
# The new kinds, said before the classic sentence (the winning clash is the biggest).
_PLAY_MET = gettext_noop(
    "Where only “must beat the best card” differed: disputes at %(disputed)s of %(total)s."
)
_SAME_RULES = gettext_noop("Where everyone had studied the same rules: %(disputed)s of %(total)s.")


def _new_kinds_sentence(
    winning: ClashCount, play: ClashCount, translate: Translate, ngettext: TranslatePlural
) -> str:
    """What the clash sentence says first: the new kinds that met (most against fewest
    tricks, must-beat-the-best-card alone), or "" when neither did."""
    parts = []
    if winning.total:
        parts.append(
            ngettext(
                "Where players who win with the most tricks met players who win "
                "with the fewest, disputes came at %(disputed)s of %(total)s "
                "table-round.",
                "Where players who win with the most tricks met players who win "
                "with the fewest, disputes came at %(disputed)s of %(total)s "
                "table-rounds.",
                winning.total,
            )
            % {"disputed": winning.disputed, "total": winning.total}
        )
    if play.total:
        parts.append(translated(translate, _PLAY_MET, disputed=play.disputed, total=play.total))
    return " ".join(parts)


def clash_sentence(
    cells: Iterable[TableRound],
    translate: Translate = untranslated,
    ngettext: TranslatePlural = untranslated_plural,
) -> str:
    """One sentence the room can read: where the rules clashed, how often disputes came.

    E.g. "Disputes came at 7 of 9 table-rounds where ace-high and ace-low players met,
    and at 1 of 6 where only the trump rules differed." Kinds that never met are left
    out; with none at all it says so. "table-round" agrees with the count before it
    (ngettext: see tournament.common.i18n).
    """
    counts = clash_counts(cells)
    direction, trump, same = (counts[kind] for kind in (*CLASSIC_KINDS, ClashKind.NONE))
    winning, play = counts[ClashKind.WINNING], counts[ClashKind.PLAY]
    if not (direction.total or trump.total or same.total or winning.total or play.total):
        return translate(_NOTHING_PLAYED)
    extra = _new_kinds_sentence(winning, play, translate, ngettext)
    values = {
        "direction_disputed": direction.disputed,
        "direction_total": direction.total,
        "trump_disputed": trump.disputed,
        "trump_total": trump.total,
    }
    # Translated first, then filled in (as tournament.common.i18n.translated does).
    if direction.total and trump.total:
        sentence = (
            ngettext(
                "Disputes came at %(direction_disputed)s of %(direction_total)s table-round "
                "where ace-high and ace-low players met, and at %(trump_disputed)s of "
                "%(trump_total)s where only the trump rules differed.",
                "Disputes came at %(direction_disputed)s of %(direction_total)s table-rounds "
                "where ace-high and ace-low players met, and at %(trump_disputed)s of "
                "%(trump_total)s where only the trump rules differed.",
                direction.total,
            )
            % values
        )
    elif direction.total:
        sentence = (
            ngettext(
                "Disputes came at %(direction_disputed)s of %(direction_total)s table-round "
                "where ace-high and ace-low players met.",
                "Disputes came at %(direction_disputed)s of %(direction_total)s table-rounds "
                "where ace-high and ace-low players met.",
                direction.total,
            )
            % values
        )
    elif trump.total:
        sentence = (
            ngettext(
                "Disputes came at %(trump_disputed)s of %(trump_total)s table-round where "
                "only the trump rules differed.",
                "Disputes came at %(trump_disputed)s of %(trump_total)s table-rounds where "
                "only the trump rules differed.",
                trump.total,
            )
            % values
        )
    elif extra:
        sentence = ""
    else:
        sentence = translate(_NO_CLASH)
    sentence = " ".join(part for part in (extra, sentence) if part)
    if same.disputed:
        sentence += " " + translated(
            translate, _SAME_RULES, disputed=same.disputed, total=same.total
        )
    return sentence


def legend_kinds(cells: Iterable[TableRound]) -> list[ClashKind]:
    """The kinds a clash map's legend explains: the classic two always (an empty map
    still says what its marks would mean), and the new ones where they met."""
    present = {cell.kind for cell in cells}
    return [k for k in KIND_ORDER if k in CLASSIC_KINDS or (k in present and k != ClashKind.NONE)]
