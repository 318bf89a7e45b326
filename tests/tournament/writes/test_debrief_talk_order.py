"""Every data screen of the debrief has one place in the talk."""

from __future__ import annotations

from tournament.models import SCREENS_BEFORE_STAGE, DebriefStep
from tournament.rules.debrief_questions import Stage


def test_every_data_screen_has_one_place_in_the_talk():
    placed = [step for steps in SCREENS_BEFORE_STAGE.values() for step in steps]
    assert sorted(placed) == sorted(set(DebriefStep) - {DebriefStep.QUESTION})
    assert SCREENS_BEFORE_STAGE[Stage.FEELINGS] == (DebriefStep.OPENING,), "feelings first"
    assert DebriefStep.REVEAL in SCREENS_BEFORE_STAGE[Stage.REAL_WORLD], "real life after"
