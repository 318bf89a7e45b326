"""The tables' rules on the projector once revealed: one card per table, in pages.

Terms:
    reveal    at the debrief the organizer reveals every table's rules
              (Event.rules_revealed), or one table's at a time (Table.revealed). Before
              that the projector shows no variant at all: no ace high or low, no trump
              suit, no suit symbol.
    card      one table's revealed variant, in big pieces (direction, trump suit and its
              symbol) and as lines, one per clause.
    rule page cards in a grid of columns x rows; every page of an event has the same grid,
              so the cards keep their size while the pages go by.

One query.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tables.models import Table
from tables.rules.variants import Suit, direction_label, rule_lines, suit_name, variant_label
from tournament.models import Event


@dataclass(frozen=True)
class RuleCard:
    """One table's revealed variant, in big pieces and as one line."""

    table: int
    label: str
    direction: str
    ace_high: bool
    suit: str
    symbol: str
    red: bool
    trump_anytime: bool
    lines: tuple[str, ...] = ()
    no_trump: bool = False

    @property
    def extras(self) -> tuple[str, ...]:
        """The lines after direction and trump: one per clause (trump any time, trumps
        broken, must beat the best card, fewest tricks wins)."""
        return self.lines[2:]


NO_TRUMP_SYMBOL = "∅"


@dataclass(frozen=True)
class RulePage:
    """Cards in a grid of columns x rows; every page of an event has the same grid."""

    cards: tuple[RuleCard, ...]
    columns: int
    rows: int

    @property
    def first_table(self) -> int:
        return self.cards[0].table

    @property
    def last_table(self) -> int:
        return self.cards[-1].table

    @property
    def has_anytime(self) -> bool:
        """Some card says "trump any time"."""
        return any(card.trump_anytime for card in self.cards)

    @property
    def has_extras(self) -> bool:
        """Some card has a clause line: every card keeps a line for them."""
        return any(card.extras for card in self.cards)

    @property
    def many_extras(self) -> bool:
        """Some card has two clause lines or more: the page gives them more room."""
        return any(len(card.extras) > 1 for card in self.cards)


# The cards share the area under the title, about 173 x 88 rem of a 16:9 screen. A card a
# little wider than high reads best; a grid with empty cells looks unfinished, so a cell
# left empty costs as much as a card a good deal too narrow or too wide.
RULES_AREA_RATIO = 173 / 88
RULE_CARD_RATIO = 1.5
EMPTY_CELL_COST = 0.6
# A rule line is at least 32px at 1080p (static/css/projector.css, --rule-text), so a page
# holds only as many cards as such lines fit in: 4 x 3 cards of direction and trump, 3 x 2
# once a card has a clause line, 2 x 2 once one has two or more.
RULES_MAX_COLUMNS = 4
RULES_MAX_ROWS = 3
RULES_PER_PAGE = RULES_MAX_COLUMNS * RULES_MAX_ROWS  # beyond this the pages go by
RULES_MAX_GRID_WITH_CLAUSES = {0: (RULES_MAX_COLUMNS, RULES_MAX_ROWS), 1: (3, 2), 2: (2, 2)}


def max_grid(clauses: int) -> tuple[int, int]:
    """The most columns and rows a page may have when a card has this many clause lines."""
    return RULES_MAX_GRID_WITH_CLAUSES[min(clauses, 2)]


def rule_grid(cards: int, clauses: int = 0) -> tuple[int, int]:
    """Columns and rows for this many cards on one page (the most clause lines of a card:
    ``clauses``): cards of a pleasant shape that fill the screen, with as few empty cells
    as that allows."""
    max_columns, max_rows = max_grid(clauses)
    cards = max(1, min(cards, max_columns * max_rows))

    def cost(grid: tuple[int, int]) -> float:
        columns, rows = grid
        card_ratio = RULES_AREA_RATIO * rows / columns
        return abs(math.log(card_ratio / RULE_CARD_RATIO)) + EMPTY_CELL_COST * (
            columns * rows - cards
        )

    grids = [
        (columns, math.ceil(cards / columns))
        for columns in range(1, max_columns + 1)
        if math.ceil(cards / columns) <= max_rows
    ]
    return min(grids, key=cost)


def revealed_rules(event: Event, *, every: bool = True) -> list[RulePage]:
    """Every table's variant, or (every=False) those revealed one by one (Table.revealed),
    in pages of cards; only for after the reveal. One query."""
    cards = []
    tables = Table.objects.filter(event=event).order_by("number")
    if not every:
        tables = tables.filter(revealed=True)
    for table in tables:
        variant = table.variant
        cards.append(
            RuleCard(
                table=table.number,
                label=variant_label(variant, _),
                direction=direction_label(variant, _),
                ace_high=variant.ace_high,
                suit=suit_name(variant.trump, _),
                # A no-trump table shows an empty set where the trump's symbol would be.
                symbol=NO_TRUMP_SYMBOL if variant.no_trump else variant.trump.symbol,
                red=not variant.no_trump and variant.trump in (Suit.HEARTS, Suit.DIAMONDS),
                trump_anytime=variant.trump_anytime,
                lines=tuple(rule_lines(variant, _)),
                no_trump=variant.no_trump,
            )
        )
    if not cards:
        return []
    # The first page decides the grid: cards keep their size while the pages go by.
    clauses = max(len(card.extras) for card in cards)
    columns, rows = rule_grid(len(cards), clauses)
    per_page = math.prod(max_grid(clauses))
    return [
        RulePage(tuple(cards[i : i + per_page]), columns, rows)
        for i in range(0, len(cards), per_page)
    ]
