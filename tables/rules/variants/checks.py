"""What the organizer reads about a plan: its problems, and where its new clauses went.

Terms:
    problem        a short sentence about a plan (e.g. one edited by hand) that breaks what
                   the draw keeps: neighbours alike in variant, direction or trump (the
                   neighbour rule), more trump-anytime or disruptive tables than the event
                   allows, or repeats that enough distinct variants would have avoided
                   (``check_variants``). An empty list means the plan is fine.
    classic note   the problem after an anytime-limit one when the plan is the classic set:
                   its sheets are printed as the source had them, whatever the limit.
    clause summary the console's account of the new clauses in a plan, one sentence each:
                   which tables play each, or why none does, and how much of the disruptive
                   quota is used (``clause_summary``).

Every sentence is English marked with ``gettext_noop`` and passed through a ``translate``
callable at call time, so Django can translate it without this module importing Django.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

from tables.rules.variants.classic import plays_classic_sheet
from tables.rules.variants.labels import (
    clause_meaning,
    direction_label,
    suit_name,
    variant_label,
)
from tables.rules.variants.quotas import (
    checked_clauses,
    checked_share,
    distinct_available,
    max_disruptive_tables,
)
from tournament.common.i18n import (
    Translate,
    TranslatePlural,
    gettext_noop,
    translated,
    untranslated,
    untranslated_plural,
)
from tournament.rules.cards import (
    DEFAULT_ANYTIME_SHARE,
    DEFAULT_DISRUPTIVE_SHARE,
    DISRUPTIVE_CLAUSES,
    NEW_CLAUSES,
    Clause,
    Variant,
)


def check_variants(
    variants: Sequence[Variant],
    anytime_share: float = DEFAULT_ANYTIME_SHARE,
    translate: Translate = untranslated,
    *,
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
    ngettext: TranslatePlural = untranslated_plural,
) -> list[str]:
    """Problems with a plan (e.g. one edited by hand), as short messages; empty when fine.
    Messages that count tables go through ``ngettext`` (see tournament.common.i18n).

    Flags neighbours with the same variant, or the same direction or trump (the rule
    ``draw_variants`` keeps), more anytime tables than allowed, and repeats that enough
    distinct variants would have avoided. When the plan is the classic set and breaks the
    anytime limit, the message after that one says the source's sheets are the reason.
    """
    plan = list(variants)
    share = checked_share(anytime_share)
    return [
        *_neighbour_problems(plan, translate),
        *_anytime_problems(plan, share, translate, ngettext),
        *_disruptive_problems(plan, disruptive_share, translate, ngettext),
        *_repeat_problems(plan, share, translate),
    ]


def _neighbour_problems(plan: Sequence[Variant], translate: Translate) -> list[str]:
    """One problem for each pair of neighbouring tables that breaks the neighbour rule."""
    problems = []
    for i in range(len(plan) - 1):
        if shared := _neighbour_problem(plan[i], plan[i + 1], translate):
            message, values = shared
            problems.append(translated(translate, message, first=i + 1, second=i + 2, **values))
    return problems


def _neighbour_problem(
    first: Variant, second: Variant, translate: Translate
) -> tuple[str, dict[str, object]] | None:
    """What two neighbouring tables share, as a marked message and its values, or None."""
    if first == second:
        message = gettext_noop(
            "Tables %(first)s and %(second)s are neighbours with the same variant (%(variant)s)."
        )
        return message, {"variant": variant_label(first, translate)}
    same_direction = first.ace_high == second.ace_high
    same_trump = first.trump_key == second.trump_key
    if same_trump and first.no_trump:
        if same_direction:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours with the same direction "
                "(%(direction)s) and no trump: only their other rules tell them apart."
            )
        else:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours that both play without a "
                "trump: players moving between them meet no clash over trumping."
            )
    elif same_direction and same_trump:
        if first.clauses - {Clause.TRUMP_ANYTIME} or second.clauses - {Clause.TRUMP_ANYTIME}:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours with the same direction and "
                "trump (%(direction)s, %(symbol)s %(suit)s): only their other rules tell "
                "them apart."
            )
        else:
            message = gettext_noop(
                "Tables %(first)s and %(second)s are neighbours with the same direction and "
                "trump (%(direction)s, %(symbol)s %(suit)s): only trumping any time tells "
                "them apart."
            )
    elif same_direction:
        message = gettext_noop(
            "Tables %(first)s and %(second)s are neighbours with the same direction "
            "(%(direction)s): players moving between them meet no clash over which card "
            "wins."
        )
    elif same_trump:
        message = gettext_noop(
            "Tables %(first)s and %(second)s are neighbours with the same trump "
            "(%(symbol)s %(suit)s): players moving between them meet no clash when "
            "someone trumps."
        )
    else:
        return None
    values: dict[str, object] = {
        "direction": direction_label(first, translate),
        "symbol": first.trump.symbol,
        "suit": suit_name(first.trump, translate),
    }
    return message, values


def _anytime_problems(
    plan: Sequence[Variant], share: Fraction, translate: Translate, ngettext: TranslatePlural
) -> list[str]:
    """More trump-anytime tables than the share allows, and the classic note if it applies."""
    limit = math.floor(len(plan) * share)
    anytime_tables = [i + 1 for i, v in enumerate(plan) if v.trump_anytime]
    if len(anytime_tables) <= limit:
        return []
    values = {
        "tables": ", ".join(map(str, anytime_tables)),
        "limit": limit,
        "percent": round(float(share) * 100),
    }
    # Translated first, then filled in (as translated() does). Over a limit of one or
    # more, two tables at least are listed: only "none allowed" can list a single one.
    if limit == 0:
        message = ngettext(
            "No table of this event should let a trump be played at any time "
            "(%(percent)s%% of its tables rounds down to none), but table %(tables)s does.",
            "No table of this event should let a trump be played at any time "
            "(%(percent)s%% of its tables rounds down to none), but tables %(tables)s do.",
            len(anytime_tables),
        )
    else:
        message = translate(
            gettext_noop(
                "The limit for tables where a trump may be played at any time is "
                "%(limit)s, but tables %(tables)s allow it."
            )
        )
    problems = [message % values]
    classic_anytime = [number for number in anytime_tables if plays_classic_sheet(plan, number - 1)]
    if classic_anytime:
        problems.append(
            ngettext(
                "Table %(tables)s plays the classic set's trump-any-time sheet: it "
                "reproduces the source's rule sheets as printed, whatever this "
                "event's limit. Redraw every table to keep within it.",
                "Tables %(tables)s play the classic set's trump-any-time sheets: it "
                "reproduces the source's rule sheets as printed, whatever this "
                "event's limit. Redraw every table to keep within it.",
                len(classic_anytime),
            )
            % {"tables": ", ".join(map(str, classic_anytime))}
        )
    return problems


def _disruptive_problems(
    plan: Sequence[Variant],
    disruptive_share: float,
    translate: Translate,
    ngettext: TranslatePlural,
) -> list[str]:
    """More tables with a disruptive clause than the disruptive share allows."""
    disruptive_limit = max_disruptive_tables(len(plan), disruptive_share)
    disruptive_tables = [i + 1 for i, v in enumerate(plan) if v.disruptive]
    if len(disruptive_tables) <= disruptive_limit:
        return []
    values = {
        "limit": disruptive_limit,
        "percent": percent(disruptive_share),
        "count": len(plan),
        "tables": ", ".join(map(str, disruptive_tables)),
    }
    # As above: over a limit of one or more, two tables at least are listed.
    if disruptive_limit == 0:
        message = ngettext(
            "No table of this event should play “fewest tricks wins” or “must beat the best card” "
            "(%(percent)s%% of its tables rounds down to none), but table %(tables)s does.",
            "No table of this event should play “fewest tricks wins” or “must beat the best card” "
            "(%(percent)s%% of its tables rounds down to none), but tables %(tables)s do.",
            len(disruptive_tables),
        )
    else:
        message = ngettext(
            "At most %(limit)s table of %(count)s should play “fewest tricks wins” or "
            "“must beat the best card” (%(percent)s%% of the tables), but tables %(tables)s do.",
            "At most %(limit)s tables of %(count)s should play “fewest tricks wins” or "
            "“must beat the best card” (%(percent)s%% of the tables), but tables %(tables)s do.",
            disruptive_limit,
        )
    return [message % values]


def _repeat_problems(plan: Sequence[Variant], share: Fraction, translate: Translate) -> list[str]:
    """Variants used twice though enough distinct ones were available: each shared variant
    when every table could have its own, else how many were used of how many possible."""
    available = distinct_available(len(plan), share)
    distinct = len(set(plan))
    if distinct >= min(len(plan), available):
        return []
    if len(plan) > available:
        return [
            translated(
                translate,
                gettext_noop(
                    "Different variants in use: %(used)s of %(possible)s possible; "
                    "some repeats could be avoided."
                ),
                used=distinct,
                possible=available,
            )
        ]
    tables_by_variant: dict[Variant, list[int]] = {}
    for i, v in enumerate(plan):
        tables_by_variant.setdefault(v, []).append(i + 1)
    return [
        translated(
            translate,
            gettext_noop(
                "Tables %(tables)s share one variant (%(variant)s), though "
                "every table could have its own."
            ),
            tables=", ".join(map(str, tables)),
            variant=variant_label(v, translate),
        )
        for v, tables in tables_by_variant.items()
        if len(tables) > 1
    ]


def percent(share: float) -> int:
    """A share as a whole percentage; each language writes its sign (French: "20 %")."""
    return round(float(checked_share(share)) * 100)


def clause_summary(
    variants: Sequence[Variant],
    clauses: Iterable[str],
    disruptive_share: float = DEFAULT_DISRUPTIVE_SHARE,
    translate: Translate = untranslated,
    ngettext: TranslatePlural = untranslated_plural,
) -> list[str]:
    """The console's account of the new clauses in a plan, one sentence each.

    For each chosen clause, which tables play it (or why none does), then how much of the
    disruptive quota is used. Clauses on tables but not chosen (set by hand) are listed
    too. Empty for a classic plan without new clauses.
    """
    plan = list(variants)
    chosen = checked_clauses(clauses)
    shown = [c for c in NEW_CLAUSES if c in chosen or any(c in v.clauses for v in plan)]
    lines: list[str] = []
    for clause in shown:
        tables = [i + 1 for i, v in enumerate(plan) if clause in v.clauses]
        if tables:
            # Translated first, then filled in (as translated() does).
            lines.append(
                ngettext(
                    "%(clause)s: table %(tables)s.", "%(clause)s: tables %(tables)s.", len(tables)
                )
                % {
                    "clause": clause_meaning(clause, translate),
                    "tables": ", ".join(map(str, tables)),
                }
            )
        elif clause in DISRUPTIVE_CLAUSES and not max_disruptive_tables(
            len(plan), disruptive_share
        ):
            lines.append(
                ngettext(
                    "%(clause)s: no table, since the disruptive share (%(percent)s%%) of "
                    "%(count)s table rounds down to none.",
                    "%(clause)s: no table, since the disruptive share (%(percent)s%%) of "
                    "%(count)s tables rounds down to none.",
                    len(plan),
                )
                % {
                    "clause": clause_meaning(clause, translate),
                    "percent": percent(disruptive_share),
                    "count": len(plan),
                }
            )
        else:
            lines.append(
                translated(
                    translate,
                    gettext_noop("%(clause)s: no table yet."),
                    clause=clause_meaning(clause, translate),
                )
            )
    if chosen & DISRUPTIVE_CLAUSES:
        # "1 of at most 1 tables" read as one table out of one: name the plan's size.
        lines.append(
            ngettext(
                "Disruptive clauses at %(used)s table of %(count)s; at most %(limit)s may "
                "have one (%(percent)s%% of the tables). Gentle ones at one table in four, "
                "never at two neighbours.",
                "Disruptive clauses at %(used)s tables of %(count)s; at most %(limit)s may "
                "have one (%(percent)s%% of the tables). Gentle ones at one table in four, "
                "never at two neighbours.",
                sum(v.disruptive for v in plan),
            )
            % {
                "used": sum(v.disruptive for v in plan),
                "count": len(plan),
                "limit": max_disruptive_tables(len(plan), disruptive_share),
                "percent": percent(disruptive_share),
            }
        )
    elif chosen:
        lines.append(
            translate(gettext_noop("Gentle clauses at one table in four, never at two neighbours."))
        )
    return lines
