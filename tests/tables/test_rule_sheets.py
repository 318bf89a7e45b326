"""Rule sheets: the full rules written out for one variant, in the product's own words."""

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tables.rule_sheets import RuleSheet, rule_sheet
from tables.variants import ALL_VARIANTS, Suit, Variant

ROOT = Path(__file__).resolve().parents[2]
MODULE_PATH = ROOT / "tables" / "rule_sheets.py"
VARIANTS_PATH = ROOT / "tables" / "variants.py"


def v(code: str) -> Variant:
    return Variant.from_code(code)


def code_of(variant: Variant) -> str:
    return variant.code


ACE_HIGH = [variant for variant in ALL_VARIANTS if variant.ace_high]
ACE_LOW = [variant for variant in ALL_VARIANTS if not variant.ace_high]


def sheet_strings(sheet: RuleSheet) -> list[str]:
    strings = [sheet.title, sheet.subtitle]
    if sheet.deal is not None:
        strings.append(sheet.deal)
    for section in sheet.sections:
        strings += [section.heading, section.text]
    return strings


def sheet_text(sheet: RuleSheet) -> str:
    return "\n".join(sheet_strings(sheet))


def section_text(sheet: RuleSheet, heading: str) -> str:
    (text,) = [section.text for section in sheet.sections if section.heading == heading]
    return text


PLACEHOLDER = re.compile(r"(%\(\w+\)s)")


def shout(message: str) -> str:
    """A stand-in translation: upper-case everything except the placeholders."""
    return "".join(
        part if PLACEHOLDER.fullmatch(part) else part.upper() for part in PLACEHOLDER.split(message)
    )


def marked_messages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "gettext_noop"
        and isinstance(node.args[0], ast.Constant)
    }


def recorder() -> tuple[set[str], Callable[[str], str]]:
    """A ``translate`` that passes messages through and the set of messages it was given."""
    seen: set[str] = set()

    def record(message: str) -> str:
        seen.add(message)
        return message

    return seen, record


# --- rule_sheet -------------------------------------------------------------------------

EXPECTED_HEADINGS = [
    "Cards",
    "Players",
    "Dealing",
    "Starting",
    "Following suit",
    "Winning a trick",
    "Trumps",
    "The next trick",
    "The last trick",
    "End of the game",
    "Scoring in the tournament",
]
PLAYER_COUNTS = [None, 1, 2, 4, 5, 6, 9, 15]


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=code_of)
def test_sheet_has_every_part_of_the_rules(variant):
    sheet = rule_sheet(variant)
    assert sheet.title == "Five Tricks"
    assert sheet.subtitle
    assert [section.heading for section in sheet.sections] == EXPECTED_HEADINGS
    assert all(section.text for section in sheet.sections)
    assert "28 cards" in section_text(sheet, "Cards")
    assert "dealer's left" in section_text(sheet, "Starting")
    assert "must follow suit" in section_text(sheet, "Following suit")
    assert "leads the next" in section_text(sheet, "The next trick")
    assert "last trick" in section_text(sheet, "The last trick")
    assert "most tricks wins the game" in section_text(sheet, "End of the game")


@pytest.mark.parametrize("variant", ACE_HIGH, ids=code_of)
def test_ace_high_sheet_says_the_highest_card_wins_and_the_ace_is_above_the_7(variant):
    sheet = rule_sheet(variant)
    winning = section_text(sheet, "Winning a trick")
    assert "the highest card of the suit that was led wins" in winning
    assert "The ace is the highest card, above the 7" in winning
    assert "ace, 7, 6, 5, 4, 3, 2" in winning
    assert "the highest trump wins" in section_text(sheet, "Trumps")
    assert "lowest" not in sheet_text(sheet)


@pytest.mark.parametrize("variant", ACE_LOW, ids=code_of)
def test_ace_low_sheet_says_the_lowest_card_wins_and_the_ace_is_below_the_2(variant):
    sheet = rule_sheet(variant)
    winning = section_text(sheet, "Winning a trick")
    assert "the lowest card of the suit that was led wins" in winning
    assert "The ace is the lowest card, below the 2" in winning
    assert "ace, 2, 3, 4, 5, 6, 7" in winning
    assert "the lowest trump wins" in section_text(sheet, "Trumps")
    assert "highest" not in sheet_text(sheet)


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=code_of)
def test_sheet_names_its_trump_suit_and_no_other_suit(variant):
    sheet = rule_sheet(variant)
    trumps = section_text(sheet, "Trumps")
    assert f"The trump suit is {variant.trump.value} ({variant.trump.symbol})" in trumps
    text = sheet_text(sheet).lower()
    for other in Suit:
        if other != variant.trump:
            # The singular catches slips like sheet 9's "the club you played" on hearts.
            assert other.value.rstrip("s") not in text
            assert other.symbol not in text


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=code_of)
def test_only_anytime_sheets_allow_trumping_at_any_time(variant):
    sheet = rule_sheet(variant)
    anytime_words = "any time" in sheet_text(sheet)
    assert anytime_words == variant.trump_anytime
    trumps = section_text(sheet, "Trumps")
    if variant.trump_anytime:
        assert "even when you have a card of the suit that was led" in trumps
    else:
        assert "When you have no card of the suit that was led, you may play a trump" in trumps


@pytest.mark.parametrize(
    ("players", "deal"),
    [
        (1, "Deal 7 cards to each player. 21 cards stay undealt."),
        (2, "Deal 7 cards to each player. 14 cards stay undealt."),
        (3, "Deal 7 cards to each player. 7 cards stay undealt."),
        (4, "Deal 7 cards to each player. All 28 cards are dealt."),
        (5, "Deal 5 cards to each player. 3 cards stay undealt."),
        (6, "Deal 4 cards to each player. 4 cards stay undealt."),
        (7, "Deal 4 cards to each player. All 28 cards are dealt."),
        (8, "Deal 3 cards to each player. 4 cards stay undealt."),
        (9, "Deal 3 cards to each player. 1 card stays undealt."),
        (10, "Deal 2 cards to each player. 8 cards stay undealt."),
        (15, "Deal 1 card to each player. 13 cards stay undealt."),
        (28, "Deal 1 card to each player. All 28 cards are dealt."),
    ],
)
def test_deal_line_gives_the_exact_number_of_cards(players, deal):
    sheet = rule_sheet(v("low-spades"), players)
    assert sheet.deal == deal
    assert deal in section_text(sheet, "Dealing")


def test_deal_mentions_setting_aside_only_when_cards_are_left():
    assert "aside" in section_text(rule_sheet(v("high-hearts"), 5), "Dealing")
    assert "aside" not in section_text(rule_sheet(v("high-hearts"), 4), "Dealing")


def test_without_players_the_sheet_gives_the_general_deal():
    sheet = rule_sheet(v("high-hearts"))
    assert sheet.deal is None
    dealing = section_text(sheet, "Dealing")
    assert "7 each for 2 to 4 players" in dealing
    assert "5 each for 5 players" in dealing
    assert "4 each for 6 or 7 players" in dealing


@pytest.mark.parametrize("players", [0, -3, 29])
def test_sheet_rejects_impossible_player_counts(players):
    with pytest.raises(ValueError):
        rule_sheet(v("high-hearts"), players)


def test_sheet_explains_tournament_scoring():
    scoring = section_text(rule_sheet(v("low-diamonds")), "Scoring in the tournament")
    assert "most tricks" in scoring
    assert "round ends before a game is finished" in scoring
    assert "most tricks so far wins that game" in scoring


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=code_of)
def test_every_sheet_string_goes_through_translate(variant, players):
    # Only translated text and interpolated numbers and symbols may reach the sheet, so an
    # upper-casing translation leaves no lower-case letter anywhere.
    sheet = rule_sheet(variant, players, translate=shout)
    leftovers = [text for text in sheet_strings(sheet) if any(char.islower() for char in text)]
    assert leftovers == []


def test_translate_is_applied_at_call_time():
    english = rule_sheet(v("high-hearts"), 5)
    shouted = rule_sheet(v("high-hearts"), 5, translate=shout)
    assert shouted.title == "FIVE TRICKS"
    assert shouted.deal == "DEAL 5 CARDS TO EACH PLAYER. 3 CARDS STAY UNDEALT."
    assert rule_sheet(v("high-hearts"), 5) == english


def test_translated_strings_are_exactly_the_marked_ones():
    seen, record = recorder()
    for variant in ALL_VARIANTS:
        for players in PLAYER_COUNTS:
            rule_sheet(variant, players, record)

    # Every message passed to translate is marked for makemessages, here or among the suit
    # names the sheet borrows from tables.variants, and nothing marked here is dead.
    assert seen <= marked_messages(MODULE_PATH) | marked_messages(VARIANTS_PATH)
    assert marked_messages(MODULE_PATH) <= seen


SOURCE_WORDING = [
    "A Card Game Easy to Learn and Easy to Play",
    "constitute a trick",
    "This is called trumping",
    "gathers up the trick",
    "The procedure is repeated",
    "s/he",
    "there may not be enough cards for everyone to play",
    "The player who has won the most tricks wins the game",
    "may play a heart any time you want",
    "the club you played",
]


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=code_of)
def test_sheet_uses_its_own_words(variant):
    text = sheet_text(rule_sheet(variant, 5)).lower()
    assert [phrase for phrase in SOURCE_WORDING if phrase.lower() in text] == []
