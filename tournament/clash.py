"""Which rules met at a table, and whether disputes followed: the debrief's clash map.

Terms:
    table-round  one table in one round: the players seated there and the games they
                 played. The debrief's maps have one cell per table-round.
    home rules   the variant a player studied: the variant of the table they sat at in
                 round 1 (their home table). Players carry their home rules to every
                 table they move to, so the rules that *meet* at a table-round are the home
                 rules of the players seated there, not the table's own variant.
    clash        how the home rules at a table-round differ. Its *kind* is the biggest
                 difference that met: ``direction`` (ace-high and ace-low players sat
                 together: they disagree about which card wins every trick), else
                 ``trump`` (one direction, but the trump suit or the trump-any-time rule
                 differed: they disagree only when someone trumps), else ``none``
                 (everyone studied the same rules).
    dispute      a game whose phones named different winners, or that the organizer had
                 to settle; counted per table-round by tournament.debrief.

A clash says which *kind* of difference met, never which table played which rules, so
the debrief can show it before the reveal.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from tables.variants import Variant, translated
from tournament.common.i18n import (
    Translate,
    TranslatePlural,
    gettext_noop,
    untranslated,
    untranslated_plural,
)


class ClashKind(StrEnum):
    DIRECTION = "direction"
    TRUMP = "trump"
    NONE = "none"


def clash_kind(home_rules: Iterable[Variant]) -> ClashKind:
    """The biggest difference among the home rules seated at one table-round."""
    rules = set(home_rules)
    if len({variant.ace_high for variant in rules}) > 1:
        return ClashKind.DIRECTION
    if len(rules) > 1:  # one direction, so the trump or the any-time rule differs
        return ClashKind.TRUMP
    return ClashKind.NONE


@dataclass(frozen=True)
class TableRound:
    table: int
    round: int
    kind: ClashKind
    disputes: int


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
_SAME_RULES = gettext_noop("Where everyone had studied the same rules: %(disputed)s of %(total)s.")


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
    direction, trump, same = (counts[kind] for kind in ClashKind)
    if not (direction.total or trump.total or same.total):
        return translate(_NOTHING_PLAYED)
    values = {
        "direction_disputed": direction.disputed,
        "direction_total": direction.total,
        "trump_disputed": trump.disputed,
        "trump_total": trump.total,
    }
    # Translated first, then filled in (as tables.variants.translated does).
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
    else:
        sentence = translate(_NO_CLASH)
    if same.disputed:
        sentence += " " + translated(
            translate, _SAME_RULES, disputed=same.disputed, total=same.total
        )
    return sentence
