"""The replay's choice read from a query string: numbers it can use, nothing else. No
database: outside the PostgreSQL pass."""

from __future__ import annotations

from tournament.reads.debrief_replay import Choice


def test_a_choice_reads_only_numbers_it_can_use():
    assert Choice.parse({"round": "2", "table": "x", "game": "0", "trick": "1000"}) == Choice(2)
    assert Choice.parse({"names": "1"}).names
    assert not Choice.parse({"names": "yes"}).names
