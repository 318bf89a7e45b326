"""The rule sheet of Five Tricks: the full rules written out for the variant one table plays.

Terms:
    rule sheet  what a table studies for a few minutes before it is taken away: a title, a
                subtitle and the sections, in the product's own words. A sheet states its
                rules as *the* rules: it never hints that other tables play differently, and
                names no suit but its trump.
    section     one part of the rules under a heading (Cards, Dealing, Trumps, ...).
    deal        how the cards are given out (tables.rules.deal): the whole deck one card at a
                time at 4 or more players, so the players nearest the dealer's left may get
                one card more; 7 cards each at 2 or 3 players, the rest face down out of play.
    deal line   the deal for the table's size when the sheet is made, e.g. "Deal all 28
                cards: 6 each to the first 3 players from the dealer's left, 5 each to the
                other 2. A game has 6 tricks; only 3 players play the last one."
    deal table  how the deal falls at every table size the sheet may meet (3 to 7 players,
                and the table's own size if that is outside them): cards each ("6 or 5",
                the larger hands nearest the dealer's left), tricks in a finished game, and
                how many play the last trick ("3 of 5"). Moves change table sizes, so every
                sheet prints all of them; the printed kit shows it instead of the deal line,
                which would not fit on the page as well.
    short last trick
                the last trick when the deck does not go round evenly: players whose hand
                ran out sit it out.
    tie         two or more players with the most tricks: the game goes to the one whose
                first name comes first in the alphabet, accents and capitals ignored
                (tournament.rules.ordering.rank_players, as for every tie).
    variant     the hidden rules a table plays: direction, trump, and its clauses (trump-
                anytime, no trump, trumps broken, must beat the best card, fewest wins; see
                tables.rules.variants, which also draws them). Each clause changes the sections it
                touches and nothing else, and the sheet states it as the plain rule, never as
                a twist: a fewest-wins sheet says "the player with the fewest tricks wins".
    broken      trumps are *broken* once someone has played a trump to a trick of another
                suit; a sheet with that clause forbids leading a trump before then (unless
                the leader holds nothing else).
    table       a numbered card table of an event; a higher number is a better table.
    seat        a player's place at a table for one round; the seated players get the deal.
    round       a timed period of play; a game unfinished when it ends is won on tricks so far.
    game        one deal of Five Tricks, won by the player with the most tricks (the fewest
                at a fewest-wins table).
    move up / move down
                after a round a table's winners go to the next higher table and its losers
                to the next lower one, where another sheet applies (see tournament.rules.movement).

Everything a person reads is English marked with ``gettext_noop`` and passed through a
``translate`` callable at call time, as in tables.rules.variants.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.rules.deal import (
    SMALL_TABLE_HAND,
    SMALL_TABLE_MAX,
    cards_left_out,
    hand_sizes,
    players_in_last_trick,
    short_last_trick,
    tricks_per_game,
)
from tables.rules.variants import DECK_SIZE, RANKS, Variant, suit_name
from tournament.common.i18n import Translate, gettext_noop, translated, untranslated

# Tables are planned with 3 to 6 players (tournament.rules.table_plan); moves and latecomers,
# who join the lowest table, can make one larger.
DEAL_TABLE_SIZES = range(3, 8)


@dataclass(frozen=True)
class DealRow:
    """One table size in the deal table; ``home`` marks the size the sheet was made for."""

    players: int
    cards: str
    tricks: int
    last_trick: str
    home: bool


@dataclass(frozen=True)
class DealTable:
    caption: str
    headings: tuple[str, str, str, str]
    rows: tuple[DealRow, ...]

    @property
    def home(self) -> int | None:
        """The size the sheet was made for, if it was made for one."""
        return next((row.players for row in self.rows if row.home), None)


@dataclass(frozen=True)
class RuleSection:
    heading: str
    text: str
    table: DealTable | None = None


@dataclass(frozen=True)
class RuleSheet:
    """A table's printed rules. ``deal`` is the deal line for a known number of players,
    or None when the sheet was made without one; the Dealing section carries the deal
    table either way."""

    title: str
    subtitle: str
    sections: tuple[RuleSection, ...]
    deal: str | None

    @property
    def deal_table(self) -> DealTable:
        return next(section.table for section in self.sections if section.table is not None)


def _deal_line(players: int, translate: Translate) -> str:
    hands = hand_sizes(players)
    more, fewer = max(hands), min(hands)
    first = hands.count(more)
    # Separate sentences rather than glued fragments, so each one translates on its own.
    if players <= SMALL_TABLE_MAX:
        deal = translated(
            translate,
            gettext_noop(
                "Deal %(cards)s cards to each player and put the other %(left)s aside, face down."
            ),
            cards=SMALL_TABLE_HAND,
            left=cards_left_out(players),
        )
    elif more == fewer:
        deal = translated(
            translate,
            gettext_noop("Deal all %(deck)s cards: %(cards)s to each player."),
            deck=DECK_SIZE,
            cards=more,
        )
    elif first == 1:
        deal = translated(
            translate,
            gettext_noop(
                "Deal all %(deck)s cards: %(more)s to the player on the dealer's left, "
                "%(fewer)s each to the other %(others)s."
            ),
            deck=DECK_SIZE,
            more=more,
            fewer=fewer,
            others=players - first,
        )
    else:
        deal = translated(
            translate,
            gettext_noop(
                "Deal all %(deck)s cards: %(more)s each to the first %(first)s players "
                "from the dealer's left, %(fewer)s each to the other %(others)s."
            ),
            deck=DECK_SIZE,
            more=more,
            fewer=fewer,
            first=first,
            others=players - first,
        )
    return f"{deal} {_tricks_line(players, translate)}"


def _tricks_line(players: int, translate: Translate) -> str:
    tricks = tricks_per_game(players)
    last = players_in_last_trick(players)
    if tricks == 1:
        return translated(translate, gettext_noop("A game has 1 trick."))
    if not short_last_trick(players):
        return translated(translate, gettext_noop("A game has %(tricks)s tricks."), tricks=tricks)
    if last == 1:
        return translated(
            translate,
            gettext_noop(
                "A game has %(tricks)s tricks; only the player on the dealer's left plays "
                "the last one."
            ),
            tricks=tricks,
        )
    return translated(
        translate,
        gettext_noop("A game has %(tricks)s tricks; only %(last)s players play the last one."),
        tricks=tricks,
        last=last,
    )


def _deal_row(players: int, home: int | None, translate: Translate) -> DealRow:
    hands = hand_sizes(players)
    more, fewer = max(hands), min(hands)
    # Short cells, so a row fits one line in a column of the printed sheet; the cards a
    # small table leaves out are in the Dealing text.
    if more == fewer:
        cards = str(more)
    else:
        cards = translated(translate, gettext_noop("%(more)s or %(fewer)s"), more=more, fewer=fewer)
    if short_last_trick(players):
        last = translated(
            translate,
            gettext_noop("%(playing)s of %(players)s"),
            playing=players_in_last_trick(players),
            players=players,
        )
    else:
        last = translated(translate, gettext_noop("all"))
    return DealRow(
        players=players,
        cards=cards,
        tricks=tricks_per_game(players),
        last_trick=last,
        home=players == home,
    )


def _deal_table(home: int | None, translate: Translate) -> DealTable:
    sizes = sorted({*DEAL_TABLE_SIZES, *([] if home is None else [home])})
    return DealTable(
        caption=translated(translate, gettext_noop("The deal at each table size")),
        headings=(
            translated(translate, gettext_noop("Players")),
            translated(translate, gettext_noop("Cards")),
            translated(translate, gettext_noop("Tricks")),
            translated(translate, gettext_noop("Last trick")),
        ),
        rows=tuple(_deal_row(size, home, translate) for size in sizes),
    )


def _ranks_text(variant: Variant, translate: Translate) -> str:
    ace = translate(gettext_noop("ace"))
    return ", ".join(ace if rank == RANKS[0] else rank for rank in variant.winning_card_order)


def _winning_text(variant: Variant, translate: Translate) -> str:
    order = _ranks_text(variant, translate)
    if variant.no_trump and variant.ace_high:
        message = gettext_noop(
            "When everyone has played, the highest card of the suit that was led wins the "
            "trick. A card of any other suit cannot win. The ace is the highest card, above "
            "the 7. From strongest to weakest: %(order)s. The player who wins the trick "
            "takes it and keeps it face down in front of them."
        )
    elif variant.no_trump:
        message = gettext_noop(
            "When everyone has played, the lowest card of the suit that was led wins the "
            "trick. A card of any other suit cannot win. The ace is the lowest card, below "
            "the 2: since the lowest card wins, the ace beats every other card of its suit. "
            "From strongest to weakest: %(order)s. The player who wins the trick takes it "
            "and keeps it face down in front of them."
        )
    elif variant.ace_high:
        message = gettext_noop(
            "When everyone has played, the highest card of the suit that was led wins the "
            "trick, unless a trump was played. A card of any other suit cannot win. The ace "
            "is the highest card, above the 7. From strongest to weakest: %(order)s. The "
            "player who wins the trick takes it and keeps it face down in front of them."
        )
    else:
        message = gettext_noop(
            "When everyone has played, the lowest card of the suit that was led wins the "
            "trick, unless a trump was played. A card of any other suit cannot win. The ace "
            "is the lowest card, below the 2: since the lowest card wins, the ace beats every "
            "other card of its suit. From strongest to weakest: %(order)s. The player who "
            "wins the trick takes it and keeps it face down in front of them."
        )
    return translated(translate, message, order=order)


def _following_text(variant: Variant, translate: Translate) -> str:
    if variant.trump_anytime:
        message = gettext_noop(
            "The leader may lead any suit. Everyone else must follow suit, which means "
            "playing a card of the suit that was led, with one exception: you may play a "
            "trump at any time instead. If you have no card of the suit that was led, you "
            "may play any card."
        )
    elif variant.trumps_broken:
        message = gettext_noop(
            "The leader may lead any suit except trumps, until trumps are broken (see "
            "Trumps). Everyone else must follow suit, which means playing a card of the "
            "suit that was led. Only if you have no card of that suit may you play a card "
            "of another suit."
        )
    else:
        message = gettext_noop(
            "The leader may lead any suit. Everyone else must follow suit, which means "
            "playing a card of the suit that was led. Only if you have no card of that suit "
            "may you play a card of another suit."
        )
    text = translated(translate, message)
    if variant.must_overtake:
        # Ace low, the stronger card is the lower one: "play higher" would say the opposite.
        text += " " + translated(
            translate,
            gettext_noop(
                "You must also play higher if you can: when you follow suit, beat every card "
                "of that suit already in the trick if you hold a card that does."
            )
            if variant.ace_high
            else gettext_noop(
                "You must also play lower if you can, since the lower card is the stronger "
                "here: when you follow suit, beat every card of that suit already in the "
                "trick if you hold a card that does."
            ),
        )
    return text


def _trumps_text(variant: Variant, translate: Translate) -> str:
    if variant.no_trump:
        return translated(
            translate,
            gettext_noop(
                "There is no trump suit in this game. Every suit is equal: a card that does "
                "not follow the suit that was led never wins the trick, whatever its rank."
            ),
        )
    text = _trump_suit_text(variant, translate)
    if variant.must_overtake:
        text += " " + translated(
            translate,
            gettext_noop(
                "Play higher with trumps too: a trump played after another must beat it if you can."
            )
            if variant.ace_high
            else gettext_noop(
                "Play lower with trumps too: a trump played after another must beat it, with a "
                "lower trump, if you can."
            ),
        )
    if variant.trumps_broken:
        text += " " + translated(
            translate,
            gettext_noop(
                "Trumps may not be led until they are broken: until someone has played a "
                "trump to a trick of another suit, in this game. After that anyone may lead "
                "a trump. A leader who holds nothing but trumps may lead one anyway."
            ),
        )
    return text


def _trump_suit_text(variant: Variant, translate: Translate) -> str:
    values = {"suit": suit_name(variant.trump, translate), "symbol": variant.trump.symbol}
    if variant.trump_anytime:
        when = gettext_noop(
            "The trump suit is %(suit)s (%(symbol)s). You may play a trump at any time, even "
            "when you have a card of the suit that was led; playing one is known as trumping. "
            "Every other player may trump at any time as well."
        )
    else:
        when = gettext_noop(
            "The trump suit is %(suit)s (%(symbol)s). When you have no card of the suit that "
            "was led, you may play a trump instead; playing one is known as trumping. You "
            "may also choose to play a card of another suit."
        )
    if variant.ace_high:
        strength = gettext_noop(
            "A trump beats every card of the suit that was led, however low it is: even the "
            "2 of %(suit)s beats the ace of the suit that was led. If more than one trump is "
            "played, the highest trump wins. When %(suit)s are led, follow suit as usual."
        )
    else:
        strength = gettext_noop(
            "A trump beats every card of the suit that was led, however high it is: even the "
            "7 of %(suit)s beats the ace of the suit that was led. If more than one trump is "
            "played, the lowest trump wins. When %(suit)s are led, follow suit as usual."
        )
    return f"{translated(translate, when, **values)} {translated(translate, strength, **values)}"


def _end_text(variant: Variant, translate: Translate) -> str:
    if variant.fewest_wins:
        message = gettext_noop(
            "The player with the fewest tricks wins the game; a player who took no trick "
            "at all can win. If players tie for the fewest tricks, the first name in "
            "alphabetical order wins; accents and capitals do not count."
        )
    else:
        message = gettext_noop(
            "The player with the most tricks wins the game. If players tie for the most "
            "tricks, the first name in alphabetical order wins; accents and capitals do "
            "not count."
        )
    return translated(translate, message)


def _scoring_text(variant: Variant, translate: Translate) -> str:
    if variant.fewest_wins:
        message = gettext_noop(
            "Each game has one winner. If the round ends before a game is finished, the "
            "player with the fewest tricks so far wins that game; ties as above."
        )
    else:
        message = gettext_noop(
            "Each game has one winner. If the round ends before a game is finished, the "
            "player with the most tricks so far wins that game; ties as above."
        )
    return translated(translate, message)


def _dealing_text(translate: Translate) -> str:
    return translated(
        translate,
        gettext_noop(
            "The dealer shuffles and deals all %(deck)s cards one at a time, starting on "
            "their left; if they do not go round evenly, the players nearest the dealer's "
            "left get one card more. With 2 or 3 players, deal %(hand)s cards each and put "
            "the rest aside, face down. The game ends when every card dealt has been "
            "played, so players with a card fewer sit out the last trick: a short trick, "
            "won like any other."
        ),
        deck=DECK_SIZE,
        hand=SMALL_TABLE_HAND,
    )


def rule_sheet(
    variant: Variant, players: int | None = None, translate: Translate = untranslated
) -> RuleSheet:
    """The full rules of Five Tricks for one variant, in the product's own words.

    Every sheet gives the deal rule and the deal table for 3 to 7 players. With ``players``
    (the table's size now) the sheet also has the deal line for that size, whose row the
    table marks as ``home``, and the table gains that size if it lies outside 3 to 7; a size
    outside 1..28 is a ValueError. Nothing on the sheet mentions another variant or suit.
    """

    def section(heading: str, text: str) -> RuleSection:
        return RuleSection(translated(translate, heading), text)

    def plain(message: str) -> str:
        return translated(translate, message)

    deal = None if players is None else _deal_line(players, translate)

    sections = (
        section(
            gettext_noop("Cards"),
            translated(
                translate,
                gettext_noop(
                    "The game uses %(deck)s cards: the ace, 2, 3, 4, 5, 6 and 7 of each "
                    "suit. Leave all other cards out."
                ),
                deck=DECK_SIZE,
            ),
        ),
        RuleSection(
            translated(translate, gettext_noop("Dealing")),
            _dealing_text(translate),
            table=_deal_table(players, translate),
        ),
        section(
            gettext_noop("Starting"),
            plain(
                gettext_noop(
                    "The player on the dealer's left leads: they play any card they like, "
                    "face up. Then the others take turns, each playing one card. Together "
                    "these cards, one from each player, make a trick."
                )
            ),
        ),
        section(gettext_noop("Following suit"), _following_text(variant, translate)),
        section(gettext_noop("Winning a trick"), _winning_text(variant, translate)),
        section(gettext_noop("Trumps"), _trumps_text(variant, translate)),
        section(
            gettext_noop("The next trick"),
            plain(
                gettext_noop(
                    "Whoever won a trick leads the next one, and play goes on in the same "
                    "way until all the cards in hand have been played."
                )
            ),
        ),
        section(gettext_noop("End of the game"), _end_text(variant, translate)),
        section(gettext_noop("Scoring in the tournament"), _scoring_text(variant, translate)),
    )
    return RuleSheet(
        title=plain(gettext_noop("Five Tricks")),
        subtitle=plain(gettext_noop("A card game that is quick to learn and quick to play")),
        sections=sections,
        deal=deal,
    )
