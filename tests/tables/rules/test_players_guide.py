"""The players' guide: the tournament explained on one page, the same at every table, in the
product's own words and without any table's rules of play."""

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tables.rules.players_guide import PlayersGuide, players_guide
from tables.rules.variants import Suit
from tests.tables.rules.test_rule_sheets import marked_messages, shout
from tournament.common.i18n import untranslated

ROOT = Path(__file__).resolve().parents[3]
MODULE_PATH = ROOT / "tables" / "rules" / "players_guide.py"
PLACEHOLDER = re.compile(r"(%\(\w+\)s)")


def guide(translate: Callable[[str], str] | None = None, **minutes: int) -> PlayersGuide:
    times = {"study_minutes": 5, "practice_minutes": 3, "round_minutes": 6} | minutes
    return players_guide(
        study_minutes=times["study_minutes"],
        practice_minutes=times["practice_minutes"],
        round_minutes=times["round_minutes"],
        translate=translate or untranslated,
    )


def strings(page: PlayersGuide) -> list[str]:
    found = [page.title, page.subtitle, page.steps_heading, page.rules_heading]
    for section in page.sections:
        found += [section.heading, *section.paragraphs]
        if section.duration is not None:
            found.append(section.duration)
    return found


def text(page: PlayersGuide) -> str:
    return "\n".join(strings(page))


def section_text(page: PlayersGuide, key: str) -> str:
    (section,) = [section for section in page.sections if section.key == key]
    return " ".join(section.paragraphs)


def test_the_steps_come_in_the_order_the_event_runs_then_the_rules():
    page = guide()
    assert [step.key for step in page.steps] == ["study", "silence", "practice", "rounds"]
    assert [rule.key for rule in page.rules] == ["game", "round", "moves", "ties"]
    assert page.sections == page.steps + page.rules
    assert all(section.heading and section.paragraphs for section in page.sections)
    assert all(paragraph for section in page.sections for paragraph in section.paragraphs)


def test_the_timed_steps_take_the_events_clock_settings():
    page = guide(study_minutes=7, practice_minutes=2, round_minutes=8)
    durations = {section.key: section.duration for section in page.sections}
    assert durations == {
        "study": "about 7 min",
        "silence": None,
        "practice": "about 2 min",
        "rounds": "about 8 min each",
        "game": None,
        "round": None,
        "moves": None,
        "ties": None,
    }


@pytest.mark.parametrize("field", ["study_minutes", "practice_minutes", "round_minutes"])
def test_a_step_of_no_time_is_refused(field):
    with pytest.raises(ValueError, match=field):
        guide(**{field: 0})


def test_study_allows_talking_and_practice_games():
    study = section_text(guide(), "study")
    assert "rule sheet" in study
    assert "practice games" in study
    assert "Talk" in study


def test_silence_forbids_words_and_allows_gestures_and_drawings():
    silence = section_text(guide(), "silence")
    assert "rule sheets are collected" in silence
    assert "phones stop showing the rules" in silence
    for forbidden in ("No talking", "no written words", "no sign language"):
        assert forbidden in silence
    assert "Pointing, miming and drawing pictures are fine" in silence
    assert "until the end of the tournament, nobody says a word" in silence


def test_a_paper_only_guide_speaks_of_the_tally_sheet_never_of_phones():
    page = players_guide(study_minutes=5, practice_minutes=3, round_minutes=6, paper_only=True)
    assert "phone" not in text(page).lower()
    assert "rule sheets are collected" in section_text(page, "silence")
    assert "until the end of the tournament, nobody says a word" in section_text(page, "silence")
    assert "tally sheet" in section_text(page, "rounds")
    assert "tally sheet" not in text(guide())


def test_practice_is_silent_and_does_not_count():
    practice = section_text(guide(), "practice")
    assert "in silence" in practice
    assert "do not count" in practice


def test_a_game_goes_to_the_most_tricks_even_when_time_is_called():
    game = section_text(guide(), "game")
    assert "most tricks" in game
    assert "When time is called in the middle of a game" in game
    assert "most tricks so far wins that game" in game


def test_a_round_goes_to_the_most_games():
    assert "most games" in section_text(guide(), "round")


def test_moves_name_both_directions_the_bigger_tables_and_the_ends():
    moves = section_text(guide(), "moves")
    assert "the higher the number, the better the table" in moves
    assert "the most games goes up to the next higher table" in moves
    assert "the fewest goes down to the next lower one" in moves
    assert "Everybody else stays" in moves
    assert "more than four players, two go up and two go down" in moves
    assert "The top table's winners and the bottom table's losers stay put" in moves


def test_ties_follow_the_one_table_order():
    ties = section_text(guide(), "ties")
    assert "more games first" in ties
    assert "alphabetical order, ignoring accents and capital letters" in ties
    assert "Equal tricks in a game are split the same way" in ties


VARIANT_WORDS = [
    r"\bace\b",
    r"\btrumps?\b",
    r"ace high",
    r"ace low",
    r"highest card",
    r"lowest card",
    r"follow suit",
    r"\bdeal",
    *(rf"\b{suit.value.rstrip('s')}s?\b" for suit in Suit),
]


def test_the_guide_states_no_rules_of_play_and_no_suit():
    # The same page lies on every table: a word of any variant would tell one table's rules
    # to all the others, or hint that the rules differ.
    page = text(guide()).lower()
    assert [word for word in VARIANT_WORDS if re.search(word, page)] == []
    assert not any(suit.symbol in page for suit in Suit)
    assert "differ" not in page
    assert "other rules" not in page


def test_every_string_goes_through_translate():
    page = guide(shout)
    leftovers = [line for line in strings(page) if any(char.islower() for char in line)]
    assert leftovers == []
    assert guide(shout).title == "HOW THE TOURNAMENT WORKS"
    assert guide().title == "How the tournament works"


def test_translated_strings_are_exactly_the_marked_ones():
    seen: set[str] = set()

    def record(message: str) -> str:
        seen.add(message)
        return message

    guide(record)
    players_guide(
        study_minutes=5, practice_minutes=3, round_minutes=6, translate=record, winner_by_sheet=True
    )
    players_guide(
        study_minutes=5, practice_minutes=3, round_minutes=6, translate=record, paper_only=True
    )
    assert seen == marked_messages(MODULE_PATH)


SOURCE_WORDING = [
    "You will have about 5 minutes",
    "the rules will be taken away",
    "no verbal communication",
    "not words!",
    "or use sign language",
    "The player taking the most tricks",
    "Ordinarily, several games",
    "next highest numbered table",
    "next lowest number table",
    "The other players remain at the table",
    "Ties are resolved by alphabetical order",
    "SCORING begins",
]


def test_the_guide_uses_its_own_words():
    page = text(guide()).lower()
    assert [phrase for phrase in SOURCE_WORDING if phrase.lower() in page] == []


def sheet_guide() -> PlayersGuide:
    return players_guide(study_minutes=5, practice_minutes=3, round_minutes=6, winner_by_sheet=True)


def test_at_an_event_with_fewest_wins_tables_the_guide_leaves_the_winner_to_the_sheet():
    game = section_text(sheet_guide(), "game")
    assert "The player your rule sheet names" in game
    assert "most tricks" not in game
    assert "fewest" not in game
    assert "When time is called in the middle of a game" in game
    # Everything else is the classic guide.
    others = [s for s in sheet_guide().sections if s.key != "game"]
    assert others == [s for s in guide().sections if s.key != "game"]


def test_the_sheet_guide_still_states_no_rules_of_play():
    page = text(sheet_guide()).lower()
    assert [word for word in VARIANT_WORDS if re.search(word, page)] == []
    assert "differ" not in page
