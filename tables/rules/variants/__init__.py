"""The hidden rule variants of Five Tricks: drawing them for tables, naming them, checking a plan.

Terms:
    variant        the rules one table secretly plays: a direction, a trump suit and its
                   clauses (the card facts, ``Variant``, ``Suit``, ``Clause``, live in
                   tournament.rules.cards, which the tournament's models and debrief use too).
    plan           the variants of all tables of an event, table 1 first (index 0).
    neighbour rule neighbouring tables differ in direction and in trump suit.
    rule sheet     the full rules of Five Tricks written out for one variant; they live in
                   tables.rules.rule_sheets, which builds on the card facts and labels here.

The parts, each a module of this package:
    quotas     how many tables may carry trump-anytime or a disruptive clause, and how many
               the draw gives each new clause.
    clauses    laying the new clauses on a plan.
    draw       drawing a plan from the event's seed, and redrawing one table.
    classic    the source tournament's own ten rule sheets, offered besides the draw.
    labels     how a variant reads: the organizer's label and the reveal's lines.
    checks     what the organizer reads about a plan: its problems, where its clauses went.

Import from here (``from tables.rules.variants import draw_variants``): this package's
names are the ones the single module it replaced offered, whichever module now defines
them, so callers keep one import path.

Standard library only: this package must stay importable without Django.
"""

from tables.rules.variants.checks import check_variants, clause_summary
from tables.rules.variants.classic import classic_variants
from tables.rules.variants.clauses import add_clauses
from tables.rules.variants.draw import draw_variants, redraw_variant
from tables.rules.variants.labels import (
    clause_meaning,
    clause_name,
    direction_label,
    rule_lines,
    suit_name,
    variant_label,
)
from tables.rules.variants.quotas import clause_targets, max_anytime_tables, max_disruptive_tables
from tournament.common.i18n import translated
from tournament.rules.cards import (
    ALL_VARIANTS,
    DECK_SIZE,
    DEFAULT_ANYTIME_SHARE,
    DEFAULT_DISRUPTIVE_SHARE,
    DISRUPTIVE_CLAUSES,
    EVERY_VARIANT,
    EXCLUDED_PAIRS,
    GENTLE_CLAUSES,
    MAX_CARDS_PER_PLAYER,
    NEW_CLAUSES,
    RANKS,
    Clause,
    DifferenceSet,
    Suit,
    Variant,
    difference_clauses,
)

__all__ = [
    "ALL_VARIANTS",
    "DECK_SIZE",
    "DEFAULT_ANYTIME_SHARE",
    "DEFAULT_DISRUPTIVE_SHARE",
    "DISRUPTIVE_CLAUSES",
    "EVERY_VARIANT",
    "EXCLUDED_PAIRS",
    "GENTLE_CLAUSES",
    "MAX_CARDS_PER_PLAYER",
    "NEW_CLAUSES",
    "RANKS",
    "Clause",
    "DifferenceSet",
    "Suit",
    "Variant",
    "add_clauses",
    "check_variants",
    "classic_variants",
    "clause_meaning",
    "clause_name",
    "clause_summary",
    "clause_targets",
    "difference_clauses",
    "direction_label",
    "draw_variants",
    "max_anytime_tables",
    "max_disruptive_tables",
    "redraw_variant",
    "rule_lines",
    "suit_name",
    "translated",
    "variant_label",
]
