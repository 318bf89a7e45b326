"""Rule sheets: the full rules written out for one variant, in the product's own words.

A sheet is tested along what makes sheets differ: its direction, its trump (or none), each
clause, and the table's size. Each test of a direction, trump or clause reads every
variant's sheet (104 of them, about a millisecond each), so no combination goes unread;
the size changes only the deal line and the deal table's home row (the size tests show
it), so sizes are tested on a few sheets, not on every variant again.
"""

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tables.rules.deal import hand_sizes, tricks_per_game
from tables.rules.rule_sheets import RuleSheet, rule_sheet
from tables.rules.variants import EVERY_VARIANT, Clause, Suit, Variant

ROOT = Path(__file__).resolve().parents[3]
MODULE_PATH = ROOT / "tables" / "rules" / "rule_sheets.py"
LABELS_PATH = ROOT / "tables" / "rules" / "variants" / "labels.py"


def v(code: str) -> Variant:
    return Variant.from_code(code)


def sheet_strings(sheet: RuleSheet) -> list[str]:
    strings = [sheet.title, sheet.subtitle]
    if sheet.deal is not None:
        strings.append(sheet.deal)
    for section in sheet.sections:
        strings += [section.heading, section.text]
    table = sheet.deal_table
    strings += [table.caption, *table.headings]
    for row in table.rows:
        strings += [row.cards, row.last_trick]
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
        and isinstance(node.args[0].value, str)
    }


def recorder() -> tuple[set[str], Callable[[str], str]]:
    """A ``translate`` that passes messages through and the set of messages it was given."""
    seen: set[str] = set()

    def record(message: str) -> str:
        seen.add(message)
        return message

    return seen, record


# --- what every sheet says -------------------------------------------------------------

EXPECTED_HEADINGS = [
    "Cards",
    "Dealing",
    "Starting",
    "Following suit",
    "Winning a trick",
    "Trumps",
    "The next trick",
    "End of the game",
    "Scoring in the tournament",
]
# Every table size a sheet can be made for, and none.
TABLE_SIZES = range(1, 29)
# Sheets that differ most: a classic one, a no-trump one, a broken one, and the longest.
SAMPLE = [
    v("low-spades"),
    v("low-notrump-overtake-fewest"),
    v("high-hearts-broken"),
    v("high-diamonds-anytime-overtake-fewest"),
]
SHEETS = {variant: rule_sheet(variant) for variant in EVERY_VARIANT}


def test_every_sheet_has_every_part_of_the_rules():
    for variant, sheet in SHEETS.items():
        assert sheet.title == "Five Tricks"
        assert sheet.subtitle
        assert [section.heading for section in sheet.sections] == EXPECTED_HEADINGS, variant
        assert all(section.text for section in sheet.sections), variant
        assert "28 cards" in section_text(sheet, "Cards")
        assert "dealer's left" in section_text(sheet, "Starting")
        assert "must follow suit" in section_text(sheet, "Following suit")
        assert "leads the next" in section_text(sheet, "The next trick")
        assert "sit out the last trick" in section_text(sheet, "Dealing")
        assert "first name in alphabetical order wins" in section_text(sheet, "End of the game")


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


def own_words_broken(sheet: RuleSheet) -> list[str]:
    text = sheet_text(sheet).lower()
    return [phrase for phrase in SOURCE_WORDING if phrase.lower() in text]


def test_every_sheet_uses_its_own_words():
    for variant, sheet in SHEETS.items():
        assert own_words_broken(sheet) == [], variant


def test_every_sheet_string_goes_through_translate():
    # Only translated text and interpolated numbers and symbols may reach the sheet, so an
    # upper-casing translation leaves no lower-case letter anywhere. The sizes' deal lines
    # and rows are read by test_each_table_size_changes_only_the_deal.
    for variant in EVERY_VARIANT:
        sheet = rule_sheet(variant, translate=shout)
        leftovers = [text for text in sheet_strings(sheet) if any(c.islower() for c in text)]
        assert leftovers == [], variant


def test_translate_is_applied_at_call_time():
    english = rule_sheet(v("high-hearts"), 7)
    shouted = rule_sheet(v("high-hearts"), 7, translate=shout)
    assert shouted.title == "FIVE TRICKS"
    assert shouted.deal == "DEAL ALL 28 CARDS: 4 TO EACH PLAYER. A GAME HAS 4 TRICKS."
    assert shouted.deal_table.rows[0].last_trick == "ALL"
    assert rule_sheet(v("high-hearts"), 7) == english


def test_translated_strings_are_exactly_the_marked_ones():
    seen, record = recorder()
    for variant in EVERY_VARIANT:
        rule_sheet(variant, None, record)
    for variant in SAMPLE:
        for players in TABLE_SIZES:
            rule_sheet(variant, players, record)

    # Every message passed to translate is marked for makemessages, here or among the suit
    # names the sheet borrows from tables.rules.variants, and nothing marked here is dead.
    assert seen <= marked_messages(MODULE_PATH) | marked_messages(LABELS_PATH)
    assert marked_messages(MODULE_PATH) <= seen


# --- direction ---------------------------------------------------------------------------

DIRECTION_WORDS = {
    # direction: (winning a trick, the ace, the card order, trumps, the word never used)
    "high": (
        "the highest card of the suit that was led wins",
        "The ace is the highest card, above the 7",
        "ace, 7, 6, 5, 4, 3, 2",
        "the highest trump wins",
        "lowest",
    ),
    "low": (
        "the lowest card of the suit that was led wins",
        "The ace is the lowest card, below the 2",
        "ace, 2, 3, 4, 5, 6, 7",
        "the lowest trump wins",
        "highest",
    ),
}


@pytest.mark.parametrize("direction", DIRECTION_WORDS)
def test_a_sheet_states_its_direction_and_never_the_other(direction):
    winner, ace, order, trump_winner, never = DIRECTION_WORDS[direction]
    sheets = [(vr, sheet) for vr, sheet in SHEETS.items() if vr.ace_high == (direction == "high")]
    assert len(sheets) == len(EVERY_VARIANT) // 2
    for variant, sheet in sheets:
        winning = section_text(sheet, "Winning a trick")
        assert winner in winning, variant
        assert ace in winning, variant
        assert order in winning, variant
        if not variant.no_trump:
            assert trump_winner in section_text(sheet, "Trumps"), variant
        assert never not in sheet_text(sheet), variant


# --- trump -------------------------------------------------------------------------------


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_a_sheet_names_its_trump_suit_and_no_other_suit(trump):
    sheets = [(vr, s) for vr, s in SHEETS.items() if vr.trump == trump and not vr.no_trump]
    assert sheets
    for variant, sheet in sheets:
        trumps = section_text(sheet, "Trumps")
        assert f"The trump suit is {trump.value} ({trump.symbol})" in trumps, variant
        assert "no trump suit" not in sheet_text(sheet), variant
        text = sheet_text(sheet).lower()
        for other in Suit:
            if other != trump:
                # The singular catches slips like sheet 9's "the club you played" on hearts.
                assert other.value.rstrip("s") not in text, variant
                assert other.symbol not in text, variant


# --- each clause: stated where the variant has it, and nowhere else ----------------------


def check_trump_anytime(variant: Variant, sheet: RuleSheet) -> None:
    assert ("any time" in sheet_text(sheet)) == variant.trump_anytime
    trumps = section_text(sheet, "Trumps")
    if variant.trump_anytime:
        assert "even when you have a card of the suit that was led" in trumps
    elif not variant.no_trump:
        assert "When you have no card of the suit that was led, you may play a trump" in trumps


def check_no_trump(variant: Variant, sheet: RuleSheet) -> None:
    text = sheet_text(sheet)
    trumps = section_text(sheet, "Trumps")
    if variant.no_trump:
        assert "There is no trump suit in this game" in trumps
        assert "unless a trump was played" not in text
        assert "The trump suit is" not in text
        for suit in Suit:
            assert suit.value not in text.lower()
            assert suit.symbol not in text
    else:
        assert f"The trump suit is {variant.trump.value}" in trumps
        assert "no trump suit" not in text


def check_trumps_broken(variant: Variant, sheet: RuleSheet) -> None:
    forbids = "Trumps may not be led until they are broken" in section_text(sheet, "Trumps")
    assert forbids == variant.trumps_broken
    following = section_text(sheet, "Following suit")
    assert ("any suit except trumps, until trumps are broken" in following) == variant.trumps_broken
    assert ("broken" in sheet_text(sheet)) == variant.trumps_broken


def check_must_overtake(variant: Variant, sheet: RuleSheet) -> None:
    following = section_text(sheet, "Following suit")
    # Ace low, the stronger card is the lower one: the clause says so, never "play higher".
    way = "higher" if variant.ace_high else "lower"
    assert (f"You must also play {way} if you can" in following) == variant.must_overtake
    assert "play higher" not in following.lower() or variant.ace_high
    # A trump must beat a trump only where trumps exist.
    assert (f"Play {way} with trumps too" in section_text(sheet, "Trumps")) == (
        variant.must_overtake and not variant.no_trump
    )


def check_fewest_wins(variant: Variant, sheet: RuleSheet) -> None:
    end = section_text(sheet, "End of the game")
    scoring = section_text(sheet, "Scoring in the tournament")
    if variant.fewest_wins:
        assert "The player with the fewest tricks wins the game" in end
        assert "the fewest tricks so far wins that game" in scoring
        assert "most tricks" not in sheet_text(sheet)
    else:
        assert "The player with the most tricks wins the game" in end
        assert "most tricks wins the game" in end
        assert "fewest" not in sheet_text(sheet)


CLAUSE_CHECKS = {
    Clause.TRUMP_ANYTIME: check_trump_anytime,
    Clause.NO_TRUMP: check_no_trump,
    Clause.TRUMPS_BROKEN: check_trumps_broken,
    Clause.MUST_OVERTAKE: check_must_overtake,
    Clause.FEWEST_WINS: check_fewest_wins,
}


@pytest.mark.parametrize("clause", list(Clause), ids=str)
def test_a_clause_is_stated_on_the_sheets_that_have_it_and_on_no_other(clause):
    with_it = [variant for variant in EVERY_VARIANT if clause in variant.clauses]
    assert 0 < len(with_it) < len(EVERY_VARIANT)
    for variant, sheet in SHEETS.items():
        try:
            CLAUSE_CHECKS[clause](variant, sheet)
        except AssertionError as error:
            raise AssertionError(f"{variant.code}: {error}") from error


# --- the table's size: the deal ----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "deal"),
    [
        (
            1,
            "Deal 7 cards to each player and put the other 21 aside, face down. "
            "A game has 7 tricks.",
        ),
        (
            2,
            "Deal 7 cards to each player and put the other 14 aside, face down. "
            "A game has 7 tricks.",
        ),
        (
            3,
            "Deal 7 cards to each player and put the other 7 aside, face down. "
            "A game has 7 tricks.",
        ),
        (4, "Deal all 28 cards: 7 to each player. A game has 7 tricks."),
        (
            5,
            "Deal all 28 cards: 6 each to the first 3 players from the dealer's left, 5 each "
            "to the other 2. A game has 6 tricks; only 3 players play the last one.",
        ),
        (
            6,
            "Deal all 28 cards: 5 each to the first 4 players from the dealer's left, 4 each "
            "to the other 2. A game has 5 tricks; only 4 players play the last one.",
        ),
        (7, "Deal all 28 cards: 4 to each player. A game has 4 tricks."),
        (
            8,
            "Deal all 28 cards: 4 each to the first 4 players from the dealer's left, 3 each "
            "to the other 4. A game has 4 tricks; only 4 players play the last one.",
        ),
        (
            9,
            "Deal all 28 cards: 4 to the player on the dealer's left, 3 each to the other 8. "
            "A game has 4 tricks; only the player on the dealer's left plays the last one.",
        ),
        (14, "Deal all 28 cards: 2 to each player. A game has 2 tricks."),
        (28, "Deal all 28 cards: 1 to each player. A game has 1 trick."),
    ],
)
def test_deal_line_gives_the_hands_and_the_tricks_for_the_tables_size(players, deal):
    assert rule_sheet(v("low-spades"), players).deal == deal


@pytest.mark.parametrize("players", TABLE_SIZES)
def test_each_table_size_changes_only_the_deal(players):
    """A sheet made for a size differs from the bare one in its deal line and the deal
    table's home row (a row of its own outside 3 to 7), and nowhere else; its deal line
    is the same on every sheet, translated and in the product's own words."""
    deal_lines = set()
    for variant in SAMPLE:
        bare, sized = SHEETS[variant], rule_sheet(variant, players)
        assert (sized.title, sized.subtitle) == (bare.title, bare.subtitle)
        assert [s.text for s in sized.sections] == [s.text for s in bare.sections]
        assert [s.heading for s in sized.sections] == [s.heading for s in bare.sections]
        own_row = [row for row in rows_of(sized) if row not in rows_of(bare)]
        assert [row[0] for row in own_row] == ([] if players in range(3, 8) else [players])
        assert rows_of(sized) == sorted(rows_of(bare) + own_row)
        assert sized.deal_table.home == players
        assert own_words_broken(sized) == []
        shouted = rule_sheet(variant, players, translate=shout)
        leftovers = [t for t in sheet_strings(shouted) if any(c.islower() for c in t)]
        assert leftovers == []
        deal_lines.add(sized.deal)
    assert len(deal_lines) == 1


DEAL_ROWS = [
    # players, cards each, tricks in a game, who plays the last trick
    (3, "7", 7, "all"),
    (4, "7", 7, "all"),
    (5, "6 or 5", 6, "3 of 5"),
    (6, "5 or 4", 5, "4 of 6"),
    (7, "4", 4, "all"),
]


def rows_of(sheet: RuleSheet) -> list[tuple[int, str, int, str]]:
    return [(r.players, r.cards, r.tricks, r.last_trick) for r in sheet.deal_table.rows]


@pytest.mark.parametrize("players", [None, 3, 4, 5, 6, 7])
def test_every_sheet_prints_the_deal_for_three_to_seven_players(players):
    sheet = rule_sheet(v("high-clubs"), players)
    table = sheet.deal_table
    assert table.caption == "The deal at each table size"
    assert table.headings == ("Players", "Cards", "Tricks", "Last trick")
    assert rows_of(sheet) == DEAL_ROWS
    assert [row.players for row in table.rows if row.home] == ([] if players is None else [players])
    assert table.home == players
    # The table belongs to the Dealing section, so it is shown where the deal is explained.
    (dealing,) = [section for section in sheet.sections if section.table is not None]
    assert dealing.heading == "Dealing"


@pytest.mark.parametrize(
    ("players", "row"),
    [
        (2, (2, "7", 7, "all")),
        (8, (8, "4 or 3", 4, "4 of 8")),
        (9, (9, "4 or 3", 4, "1 of 9")),
    ],
)
def test_a_table_outside_three_to_seven_also_gets_its_own_row(players, row):
    sheet = rule_sheet(v("high-clubs"), players)
    assert rows_of(sheet) == sorted([*DEAL_ROWS, row])
    assert [r.players for r in sheet.deal_table.rows if r.home] == [players]


def test_the_deal_table_agrees_with_the_deal():
    for row in rule_sheet(v("low-clubs"), 9).deal_table.rows:
        hands = hand_sizes(row.players)
        assert row.tricks == tricks_per_game(row.players) == max(hands)
        assert row.cards.split(" or ") == sorted({str(n) for n in hands}, reverse=True)


def test_dealing_states_the_whole_deck_the_small_table_rule_and_the_short_last_trick():
    dealing = section_text(rule_sheet(v("high-hearts")), "Dealing")
    assert "deals all 28 cards one at a time, starting on their left" in dealing
    assert "the players nearest the dealer's left get one card more" in dealing
    assert "With 2 or 3 players, deal 7 cards each and put the rest aside, face down" in dealing
    assert "The game ends when every card dealt has been played" in dealing
    assert "sit out the last trick: a short trick, won like any other" in dealing


@pytest.mark.parametrize("players", [0, -3, 29])
def test_sheet_rejects_impossible_player_counts(players):
    with pytest.raises(ValueError):
        rule_sheet(v("high-hearts"), players)


# --- ties and the tournament -------------------------------------------------------------


def test_a_tie_goes_to_the_first_name_first_in_the_alphabet():
    sheet = rule_sheet(v("low-hearts"))
    end = section_text(sheet, "End of the game")
    assert "the first name in alphabetical order wins" in end
    assert "accents and capitals do not count" in end
    assert "ties as above" in section_text(sheet, "Scoring in the tournament")


def test_sheet_explains_tournament_scoring():
    scoring = section_text(rule_sheet(v("low-diamonds")), "Scoring in the tournament")
    assert "most tricks" in scoring
    assert "round ends before a game is finished" in scoring
    assert "most tricks so far wins that game" in scoring


@pytest.mark.parametrize("code", ["low-spades", "low-notrump"])
def test_an_ace_low_sheet_says_why_the_lowest_ace_beats_every_card(code):
    # The source's rule (the ace ranks below the 2 and beats every card of its suit) stays;
    # the sheet gives the reason, so it does not read "lowest, so it beats every card".
    text = sheet_text(SHEETS[v(code)])
    assert "below the 2: since the lowest card wins, the ace beats every other card" in text
    assert "below the 2, so the ace beats" not in text
