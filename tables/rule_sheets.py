"""The rule sheet of Five Tricks: the full rules written out for the variant one table plays.

Terms:
    rule sheet  what a table studies for a few minutes before it is taken away: a title, a
                subtitle and the sections, in the product's own words. A sheet states its
                rules as *the* rules: it never hints that other tables play differently, and
                names no suit but its trump.
    section     one part of the rules under a heading (Cards, Dealing, Trumps, ...).
    deal        the one-line instruction for a known number of players, e.g. "Deal 5 cards
                to each player. 3 cards stay undealt." (see tables.variants.cards_per_player).
                Without a player count the sheet gives the *general deal* instead: the rule
                for every table size.
    variant     the hidden rules a table plays: direction, trump, trump-anytime (see
                tables.variants, which also draws them).
    table       a numbered card table of an event; a higher number is a better table.
    seat        a player's place at a table for one round; the seated players get the deal.
    round       a timed period of play; a game unfinished when it ends is won on tricks so far.
    game        one deal of Five Tricks, won by the player with the most tricks.
    move up / move down
                after a round a table's winners go to the next higher table and its losers
                to the next lower one, where another sheet applies (see tournament.movement).

Everything a person reads is English marked with ``gettext_noop`` and passed through a
``translate`` callable at call time, as in tables.variants.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.variants import (
    DECK_SIZE,
    RANKS,
    Variant,
    cards_per_player,
    suit_name,
    translated,
)
from tournament.common.i18n import Translate, gettext_noop, untranslated


@dataclass(frozen=True)
class RuleSection:
    heading: str
    text: str


@dataclass(frozen=True)
class RuleSheet:
    """A table's printed rules. ``deal`` is the one-line deal instruction for a known
    number of players, or None when the sheet gives the general rule."""

    title: str
    subtitle: str
    sections: tuple[RuleSection, ...]
    deal: str | None


def _deal_line(players: int, translate: Translate) -> str:
    cards = cards_per_player(players)
    left = DECK_SIZE - cards * players
    # Separate sentences rather than glued fragments, so each one translates on its own.
    if cards == 1:
        first = translated(translate, gettext_noop("Deal 1 card to each player."))
    else:
        first = translated(
            translate, gettext_noop("Deal %(cards)s cards to each player."), cards=cards
        )
    if left == 0:
        second = translated(
            translate, gettext_noop("All %(deck)s cards are dealt."), deck=DECK_SIZE
        )
    elif left == 1:
        second = translated(translate, gettext_noop("1 card stays undealt."))
    else:
        second = translated(translate, gettext_noop("%(left)s cards stay undealt."), left=left)
    return f"{first} {second}"


def _ranks_text(variant: Variant, translate: Translate) -> str:
    ace = translate(gettext_noop("ace"))
    return ", ".join(ace if rank == RANKS[0] else rank for rank in variant.winning_card_order)


def _winning_text(variant: Variant, translate: Translate) -> str:
    order = _ranks_text(variant, translate)
    if variant.ace_high:
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
            "is the lowest card, below the 2, so the ace beats every other card of its suit. "
            "From strongest to weakest: %(order)s. The player who wins the trick takes it "
            "and keeps it face down in front of them."
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
    else:
        message = gettext_noop(
            "The leader may lead any suit. Everyone else must follow suit, which means "
            "playing a card of the suit that was led. Only if you have no card of that suit "
            "may you play a card of another suit."
        )
    return translated(translate, message)


def _trumps_text(variant: Variant, translate: Translate) -> str:
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


def _general_deal_text(translate: Translate) -> str:
    return translated(
        translate,
        gettext_noop(
            "The dealer shuffles and deals the cards one at a time until every player has "
            "the same number: 7 each for 2 to 4 players, 5 each for 5 players, 4 each for 6 "
            "or 7 players. With more players, deal as many as go round evenly. Cards left "
            "over stay face down, out of the game."
        ),
    )


def _dealing_text(deal: str, players: int, translate: Translate) -> str:
    shuffle = translated(
        translate, gettext_noop("The dealer shuffles and deals the cards one at a time.")
    )
    parts = [shuffle, deal]
    if cards_per_player(players) * players < DECK_SIZE:
        parts.append(
            translated(
                translate,
                gettext_noop(
                    "Put the undealt cards aside, face down; they take no part in the game."
                ),
            )
        )
    return " ".join(parts)


def rule_sheet(
    variant: Variant, players: int | None = None, translate: Translate = untranslated
) -> RuleSheet:
    """The full rules of Five Tricks for one variant, in the product's own words.

    With ``players`` the deal says exactly how many cards each player gets; without it the
    sheet gives the general rule. Nothing on the sheet mentions another variant or suit.
    """

    def section(heading: str, text: str) -> RuleSection:
        return RuleSection(translated(translate, heading), text)

    def plain(message: str) -> str:
        return translated(translate, message)

    if players is None:
        deal = None
        dealing = _general_deal_text(translate)
    else:
        deal = _deal_line(players, translate)
        dealing = _dealing_text(deal, players, translate)

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
        section(
            gettext_noop("Players"),
            plain(gettext_noop("Usually 4 to 6 players, but more or fewer can play.")),
        ),
        section(gettext_noop("Dealing"), dealing),
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
        section(
            gettext_noop("The last trick"),
            plain(
                gettext_noop(
                    "If some players run out of cards before others, the last trick is "
                    "played only by those who still have a card. It is a short trick, but it "
                    "is won like any other."
                )
            ),
        ),
        section(
            gettext_noop("End of the game"),
            plain(
                gettext_noop(
                    "The game ends when every card has been played. Count your tricks: the "
                    "player with the most tricks wins the game."
                )
            ),
        ),
        section(
            gettext_noop("Scoring in the tournament"),
            plain(
                gettext_noop(
                    "Each game has one winner: the player with the most tricks. If the round "
                    "ends before a game is finished, the player with the most tricks so far "
                    "wins that game."
                )
            ),
        ),
    )
    return RuleSheet(
        title=plain(gettext_noop("Five Tricks")),
        subtitle=plain(gettext_noop("A card game that is quick to learn and quick to play")),
        sections=sections,
        deal=deal,
    )
