"""How the printed report words a game's outcome, from phones or from tally sheets."""

from __future__ import annotations


def test_a_dispute_that_ended_by_its_reports_names_phones_only_where_there_are_phones():
    from tables.models import GameStatus
    from tournament.reads.debrief_report import _outcome

    game = ("Ada", GameStatus.CONFIRMED)
    assert _outcome(game, None) == "<bdi>Ada</bdi> won, as the phones reported."
    paper = _outcome(game, None, paper_only=True)
    assert paper == "<bdi>Ada</bdi> won, as the tally sheets were entered."
