"""Downloads neutralise only the text a spreadsheet would run as a formula."""

from __future__ import annotations

from tournament.reads.records import neutralised


def test_only_text_that_a_spreadsheet_would_run_is_neutralised():
    assert neutralised("=1+1") == "'=1+1"
    assert neutralised("\tcmd") == "'\tcmd"
    assert neutralised("Ann-Marie") == "Ann-Marie"
    assert neutralised(-3) == -3
    assert neutralised("") == ""
