"""The seating a close commits, and its fingerprint: the same moves give the same
fingerprint whatever the games, and a result that changes a move gives another.

Pure: runs without Django (`pytest -p no:django tests/tournament/rules/test_move_fingerprint.py`).
"""

from __future__ import annotations

from tournament.rules.movement import (
    changed_seating,
    decode_seating,
    encode_seating,
    plan_moves,
    planned_seating,
    seating_fingerprint,
)

# Three tables of four; at each, Ada leads and the alphabet orders the rest.
TABLES = {
    1: {"Ada": 2, "Ben": 1, "Cy": 1, "Dee": 0},
    2: {"Eve": 3, "Fay": 0, "Gus": 0, "Hal": 0},
    3: {"Ida": 1, "Jo": 1, "Kim": 0, "Lou": 0},
}
EVERYONE = {name for games in TABLES.values() for name in games}


def fingerprint(tables, present=EVERYONE, **kwargs) -> str:
    return seating_fingerprint(planned_seating(tables, present=present, **kwargs))


def with_games(tables, table: int, player: str, games: int) -> dict:
    return {
        number: {**seated, **({player: games} if number == table else {})}
        for number, seated in tables.items()
    }


def test_the_seating_is_plan_moves_with_the_table_each_player_comes_from():
    seating = planned_seating(TABLES, present=EVERYONE)
    assert {name: to for name, (_, to) in seating.items()} == plan_moves(TABLES)
    assert seating["Eve"] == (2, 3)  # first at table 2: up
    assert seating["Hal"] == (2, 1)  # last at table 2: down
    assert seating["Fay"] == (2, 2)


def test_same_moves_give_the_same_fingerprint():
    assert fingerprint(TABLES) == fingerprint(dict(reversed(list(TABLES.items()))))
    # A report for a leader adds a game and a confirmation changes nothing: same moves.
    assert fingerprint(with_games(TABLES, 2, "Eve", 4)) == fingerprint(TABLES)
    # Dee's first game leaves her last (the alphabet breaks the tie): still down.
    assert fingerprint(with_games(TABLES, 1, "Dee", 1)) == fingerprint(TABLES)
    assert len(fingerprint(TABLES)) == 32


def test_a_report_that_changes_a_move_changes_the_fingerprint():
    # Hal had 0 games and went down by the alphabet; 4 games send him up instead.
    assert fingerprint(with_games(TABLES, 2, "Hal", 4)) != fingerprint(TABLES)
    # Dee's third game puts her first at table 1: she goes up, Ada stays, Cy goes down.
    assert fingerprint(with_games(TABLES, 1, "Dee", 3)) != fingerprint(TABLES)


def test_presence_is_part_of_the_seating():
    absent = planned_seating(TABLES, present=EVERYONE - {"Eve"})
    assert absent["Eve"] == (2, None)  # not seated next round: her move is not applied
    joining = planned_seating(TABLES, present=EVERYONE | {"Zed"})
    assert joining["Zed"] == (None, 1)  # present, not seated this round: the lowest table
    assert (
        len({fingerprint(TABLES), seating_fingerprint(absent), seating_fingerprint(joining)}) == 3
    )


def test_after_the_last_round_nobody_is_seated_so_no_result_changes_the_fingerprint():
    assert planned_seating(TABLES, present=EVERYONE, seats_next_round=False) == {}
    assert fingerprint(with_games(TABLES, 2, "Hal", 4), seats_next_round=False) == fingerprint(
        TABLES, seats_next_round=False
    )


def test_the_encoded_seating_reads_back_the_same():
    seating = planned_seating(TABLES, present=(EVERYONE - {"Eve"}) | {'Zoë ⟨x⟩ "q"'})
    text = encode_seating(seating)
    assert decode_seating(text) == seating
    assert seating_fingerprint(decode_seating(text)) == seating_fingerprint(seating)


def test_text_that_is_no_seating_decodes_to_none():
    for text in [
        "",
        "not json",
        "[1, 2]",
        '{"Ada": [1]}',
        '{"Ada": [1, "2"]}',
        '{"Ada": [true, 2]}',
        '{"Ada": 3}',
        "[" * 100_000,
    ]:
        assert decode_seating(text) is None, text


def test_the_changes_name_each_changed_player_with_what_was_shown():
    shown = planned_seating(TABLES, present=EVERYONE)
    now = planned_seating(with_games(TABLES, 2, "Hal", 4), present=EVERYONE | {"Zed"})
    assert changed_seating(shown, now) == {
        "Eve": (2, 3),
        "Gus": (2, 2),
        "Hal": (2, 1),
        "Zed": None,
    }
    assert (
        changed_seating(shown, planned_seating(with_games(TABLES, 2, "Eve", 9), present=EVERYONE))
        == {}
    )
