"""How a variant reads: the organizer's one-line label and the reveal's rule lines.

Terms:
    label       a one-line description of a variant for the organizer, e.g. "Ace high ·
                ♥ hearts trump · trump any time" (``variant_label``).
    rule lines  the reveal's lines, one per way tables differ: direction, trump, then each
                clause's meaning (``rule_lines``); the debrief shows them too.
    clause name a new clause's short name in labels, e.g. "fewest tricks wins".
    meaning     a clause's one-line meaning, what a player from another table needs to hear,
                e.g. "Fewest tricks wins the game".

Every word is English marked with ``gettext_noop`` and passed through a ``translate``
callable at call time, so Django can translate it without this module importing Django.
The rule sheets (tables.rules.rule_sheets) borrow the suit names from here.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from tournament.common.i18n import Translate, gettext_noop, translated, untranslated
from tournament.rules.cards import CLAUSE_ORDER, Clause, Suit, Variant

_SUIT_NAMES: dict[Suit, str] = {
    # Translators: a suit name, used inside sentences such as "The trump suit is %(suit)s".
    Suit.HEARTS: gettext_noop("hearts"),
    Suit.DIAMONDS: gettext_noop("diamonds"),
    Suit.CLUBS: gettext_noop("clubs"),
    Suit.SPADES: gettext_noop("spades"),
}


def suit_name(suit: Suit, translate: Translate = untranslated) -> str:
    """The suit's name, e.g. "hearts"."""
    return translate(_SUIT_NAMES[Suit(suit)])


def direction_label(variant: Variant, translate: Translate = untranslated) -> str:
    """Return "Ace high" or "Ace low"."""
    if variant.ace_high:
        return translate(gettext_noop("Ace high"))
    return translate(gettext_noop("Ace low"))


# Each new clause's short name for the organizer's labels, and its one-line meaning for
# the reveal (and the debrief): what a player from another table needs to hear.
_CLAUSE_NAMES: dict[Clause, str] = {
    Clause.TRUMP_ANYTIME: gettext_noop("trump any time"),
    Clause.NO_TRUMP: gettext_noop("no trump"),
    Clause.TRUMPS_BROKEN: gettext_noop("trumps led only once broken"),
    Clause.MUST_OVERTAKE: gettext_noop("must beat the best card"),
    Clause.FEWEST_WINS: gettext_noop("fewest tricks wins"),
}
_CLAUSE_MEANINGS: dict[Clause, str] = {
    Clause.TRUMP_ANYTIME: gettext_noop("Trumps may be played at any time"),
    Clause.NO_TRUMP: gettext_noop("No trump: only the suit that was led can win a trick"),
    Clause.TRUMPS_BROKEN: gettext_noop("Trumps may not be led until someone has trumped a trick"),
    # No direction: at an ace-low table the best card is the lowest.
    Clause.MUST_OVERTAKE: gettext_noop("Must beat the best card of the suit so far, if you can"),
    Clause.FEWEST_WINS: gettext_noop("Fewest tricks wins the game"),
}


def clause_name(clause: Clause, translate: Translate = untranslated) -> str:
    """A clause's short name, e.g. "fewest tricks wins"."""
    return translate(_CLAUSE_NAMES[Clause(clause)])


def clause_meaning(clause: Clause, translate: Translate = untranslated) -> str:
    """A clause's one-line meaning, as the reveal shows it."""
    return translate(_CLAUSE_MEANINGS[Clause(clause)])


def variant_label(variant: Variant, translate: Translate = untranslated) -> str:
    """A one-line description for the organizer, e.g. "Ace high · ♥ hearts trump", with
    each clause after it ("Ace low · no trump · fewest tricks wins")."""
    direction = direction_label(variant, translate)
    if variant.no_trump:
        label = f"{direction} · {clause_name(Clause.NO_TRUMP, translate)}"
    else:
        values = {
            "direction": direction,
            "symbol": variant.trump.symbol,
            "suit": suit_name(variant.trump, translate),
        }
        if variant.trump_anytime:
            label = translated(
                translate,
                gettext_noop("%(direction)s · %(symbol)s %(suit)s trump · trump any time"),
                **values,
            )
        else:
            label = translated(
                translate, gettext_noop("%(direction)s · %(symbol)s %(suit)s trump"), **values
            )
    # Trump any time comes first in CLAUSE_ORDER and is in the label already.
    extras = [clause for clause in CLAUSE_ORDER[1:] if clause in variant.clauses]
    return " · ".join([label, *(clause_name(clause, translate) for clause in extras)])


def rule_lines(variant: Variant, translate: Translate = untranslated) -> list[str]:
    """The reveal's lines, one per way tables differ: direction, trump, then each clause.

    E.g. ["Ace low: the lowest card wins (the ace beats the 2)", "Trump: hearts"]; a
    no-trump table says "Trump: none", and every clause adds its meaning.
    """
    if variant.ace_high:
        direction = gettext_noop("Ace high: the highest card wins (the ace beats the 7)")
    else:
        direction = gettext_noop("Ace low: the lowest card wins (the ace beats the 2)")
    lines = [translate(direction)]
    if variant.no_trump:
        # A short trump line, so every card's lines sit alike; the meaning follows.
        lines.append(translate(gettext_noop("Trump: none")))
        lines.append(clause_meaning(Clause.NO_TRUMP, translate))
    else:
        lines.append(
            translated(
                translate,
                gettext_noop("Trump: %(suit)s"),
                suit=suit_name(variant.trump, translate),
            )
        )
    lines.extend(
        clause_meaning(clause, translate) for clause in CLAUSE_ORDER if clause in variant.clauses
    )
    return lines
