"""Reading a typed paper tally sheet: names from initials, first names or a prefix, tricks
for a game cut off by the clock, and every problem named on its own row."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.tally import Existing, initials, match_player, read_tally, shortcuts
from tests.properties import examples

NAMES = ["Jamal Moore", "Alice Lee", "Al Brown", "Bo Chen"]


def test_initials_are_the_first_letters_of_each_word():
    assert initials("Jamal Moore") == "JM"
    assert initials("Anne-Marie  de Vries") == "AMDV"


def test_a_name_is_found_by_initials_first_name_prefix_or_in_full():
    assert match_player("jm", NAMES).name == "Jamal Moore"
    assert match_player("Jamal", NAMES).name == "Jamal Moore"
    assert match_player("jam", NAMES).name == "Jamal Moore"
    assert match_player("bo chen", NAMES).name == "Bo Chen"


def test_an_exact_first_name_or_initials_beat_the_start_of_a_longer_name():
    assert match_player("Bo", ["Bo Chen", "Bob Dale"]).name == "Bo Chen"
    assert match_player("BD", ["Bo Chen", "Bob Dale", "Bd"]).name == "Bd"


def test_a_first_name_that_is_also_another_players_initials_is_ambiguous():
    assert match_player("Al", NAMES).candidates == ("Al Brown", "Alice Lee")
    assert match_player("AB", NAMES).name == "Al Brown"


def test_initials_shared_by_two_names_are_refused_with_both_named():
    found = match_player("AB", ["Ana Bell", "Arno Berg", "Cy"])
    assert found.name is None
    assert found.candidates == ("Ana Bell", "Arno Berg")


def test_shortcuts_print_what_reads_back_as_the_same_name():
    names = ["Ana Bell", "Arno Berg", "Cy Dow"]
    printed = shortcuts(names)
    assert printed == {"Ana Bell": "Ana", "Arno Berg": "Arno", "Cy Dow": "CD"}
    assert all(match_player(code, names).name == name for name, code in printed.items())


# --- shortcuts anyone can type (issue 23, item 4) ----------------------------------------

ROOM = ["Łukasz Wróbel", "Zoe Adams (Leeds)", "Tomás Ó Súilleabháin", "Lucía Fernández"]


def test_shortcuts_are_in_latin_letters_without_punctuation():
    assert shortcuts(ROOM) == {
        "Łukasz Wróbel": "LW",
        "Zoe Adams (Leeds)": "ZA",
        "Tomás Ó Súilleabháin": "TOS",
        "Lucía Fernández": "LF",
    }


def test_initials_are_read_in_latin_letters():
    assert initials("Þórunn Ægisdóttir") == "TA"
    assert initials("İlker Işık") == "II"
    assert initials("Đặng Văn Lâm") == "DVL"
    assert initials("محمد علي") == "ML"  # "mhmd `ly": the first letter of each word


def test_a_shortcut_holds_no_digit_that_would_read_as_tricks():
    names = ["محمد علي 2", "Bo Chen", "Cy 3 Dale"]
    assert shortcuts(names) == {"محمد علي 2": "ML", "Bo Chen": "BC", "Cy 3 Dale": "CD"}
    (row,) = read_tally({1: "ML 3 BC 2 cd 1"}, names=names, existing={})
    assert row.errors == []
    assert row.tricks == {"محمد علي 2": 3, "Bo Chen": 2, "Cy 3 Dale": 1}


def test_a_shortcut_is_typed_in_any_case_and_accented_forms_still_work():
    for typed in ("LW", "lw", "Lw", "ŁW", "łw", "Lukasz", "łukasz", "lukasz wrobel"):
        assert match_player(typed, ROOM).name == "Łukasz Wróbel", typed
    for typed in ("TOS", "tos", "TÓS", "Tomas", "Tomás"):
        assert match_player(typed, ROOM).name == "Tomás Ó Súilleabháin", typed
    assert match_player("za", ROOM).name == "Zoe Adams (Leeds)"


def test_paper_entry_finds_a_name_without_its_accents():
    assert match_player("lucia", ROOM).name == "Lucía Fernández"
    assert match_player("lucia fernandez", ROOM).name == "Lucía Fernández"
    assert match_player("fern", ["Fernando Díaz", "Lucía Fernández"]).name == "Fernando Díaz"


def test_paper_entry_finds_a_name_by_a_later_word_as_the_name_search_does():
    assert match_player("fernandez", ROOM).name == "Lucía Fernández"
    assert match_player("FERNÁN", ROOM).name == "Lucía Fernández"
    assert match_player("wrob", ROOM).name == "Łukasz Wróbel"
    # Only when no name starts with it, and never a guess between two.
    assert match_player("diaz", ["Ana Díaz", "Bo Díaz"]).candidates == ("Ana Díaz", "Bo Díaz")
    assert match_player("ernandez", ROOM).name is None
    (row,) = read_tally({1: "lucia 3 lw 2 tos 1"}, names=ROOM, existing={})
    assert row.errors == []
    assert row.tricks == {
        "Łukasz Wróbel": 2,
        "Zoe Adams (Leeds)": 0,
        "Tomás Ó Súilleabháin": 1,
        "Lucía Fernández": 3,
    }


def test_two_names_spelled_alike_in_latin_letters_are_told_apart_by_their_spelling():
    names = ["Łukasz Wróbel", "Lukasz Wrobel"]
    assert match_player("Łukasz Wróbel", names).name == "Łukasz Wróbel"
    assert match_player("lukasz wrobel", names).name == "Lukasz Wrobel"
    assert match_player("LW", names).candidates == ("Lukasz Wrobel", "Łukasz Wróbel")
    printed = shortcuts(names)
    assert all(match_player(code, names).name == name for name, code in printed.items())


WORLD = st.sampled_from(
    [
        "Łukasz Wróbel", "Łucja Nowak", "Øystein Ødegård", "Ærø Hansen", "Þórunn Björk",
        "Guðrún Jónsdóttir", "İlker Şahin", "Işıl Kaya", "Jörg Straße", "Đặng Văn Lâm",
        "Nguyễn Thị Hoa", "Tomás Ó Súilleabháin", "Seán Ó Briain", "Zoe Adams (Leeds)",
        "Zoë Adams", "Lucía Fernández", "王小明", "汪伟", "محمد علي", "שרה לוי", "Jean-Luc Ba",
        "Ana", "Anna", "Ann Ng", "Marie-Claire Fontaine", "🙂 Bo",
    ]
)  # fmt: skip


@settings(database=None, max_examples=examples(150))
@given(st.lists(WORLD, min_size=1, max_size=8, unique=True))
def test_every_shortcut_is_ascii_unique_and_reads_back_in_any_case(names):
    printed = shortcuts(names)
    assert len(set(map(str.casefold, printed.values()))) == len(names)
    for name, code in printed.items():
        assert code.isascii(), (name, code)
        for typed in (code, code.lower(), code.upper()):
            assert match_player(typed, names).name == name, (typed, names)


def test_rows_give_winners_and_blank_rows_are_ignored():
    rows = read_tally({1: "JM", 2: "alice", 3: "", 4: ""}, names=NAMES, existing={})
    assert [(row.number, row.winner, row.errors) for row in rows] == [
        (1, "Jamal Moore", []),
        (2, "Alice Lee", []),
        (3, None, []),
        (4, None, []),
    ]
    assert [row.number for row in rows if row.to_save] == [1, 2]


def test_tricks_of_a_game_cut_off_give_its_winner_and_zero_for_the_rest():
    (row,) = read_tally({1: "JM 1, Alice 3 bo: 2"}, names=NAMES, existing={})
    assert row.errors == []
    assert row.winner == "Alice Lee"
    assert row.tricks == {"Jamal Moore": 1, "Alice Lee": 3, "Al Brown": 0, "Bo Chen": 2}


def test_bad_rows_are_named_one_by_one_and_good_rows_keep_their_reading():
    rows = read_tally(
        {1: "JM", 2: "ZZ", 3: "Alice", 5: "BC", 6: "JM 5 Alice 4", 7: "bo"},
        names=NAMES,
        existing={},
    )
    by_number = {row.number: row for row in rows}
    assert by_number[1].errors == []
    assert by_number[1].winner == "Jamal Moore"
    assert "Nobody at this table is “ZZ”" in by_number[2].errors[0]
    assert by_number[3].errors == []
    assert by_number[5].errors == ["Game 4 is missing: fill in its row, or leave this one empty."]
    assert by_number[6].errors == ["9 tricks entered, but a game at this table has only 7."]
    assert by_number[7].errors == []


def test_an_ambiguous_entry_names_the_candidates():
    (row,) = read_tally({1: "A"}, names=NAMES, existing={})
    assert row.errors == ["“A” fits more than one player: Al Brown, Alice Lee. Type more letters."]


def test_a_row_may_follow_a_game_a_phone_reported():
    rows = read_tally({3: "JM"}, names=NAMES, existing={1: Existing("Bo Chen"), 2: Existing(None)})
    assert rows[0].errors == []


def test_a_game_already_typed_from_paper_is_skipped_or_refused_if_changed():
    existing = {1: Existing("Bo Chen", from_paper=True)}
    (same,) = read_tally({1: "bo"}, names=NAMES, existing=existing)
    assert same.repeated
    assert not same.to_save
    assert same.errors == []
    (other,) = read_tally({1: "JM"}, names=NAMES, existing=existing)
    assert "already typed in from paper (Bo Chen)" in other.errors[0]


def test_text_that_is_neither_a_name_nor_tricks_is_explained():
    (row,) = read_tally({1: "3 3"}, names=NAMES, existing={})
    assert "like “JM 3 AL 2”" in row.errors[0]
