"""Where an event stands, and which screen its projector shows in the debrief.

Terms:
    phase          where the event stands: setup, study, practice, a round, between rounds
                   (a round was closed and its moves are shown), debrief (``Phase``).
    timed phase    study, practice and a round keep a clock (``CLOCKED_PHASES``); the others
                   show none (tournament.rules.clock).
    phase title    the words every screen uses for a phase without a round number
                   (``PHASE_TITLES``); Event.phase_title words the others.
    debrief screen what the projector shows during the debrief (``DebriefStep``): a data
                   screen, or the debrief question the event points at. The data screens fall
                   between the stages of the talk as ``SCREENS_BEFORE_STAGE`` places them;
                   the tricks' story (``TRICKS``) only at an event whose cards are on
                   screens (``screens_before_stage``).
    paths highlight which players' paths the debrief's paths chart draws bold
                   (``PathsHighlight``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.rules.debrief_questions import Stage

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


class Phase(models.TextChoices):
    SETUP = "setup", _("Setup")
    STUDY = "study", _("Study")
    PRACTICE = "practice", _("Practice")
    ROUND = "round", _("Round")
    BETWEEN_ROUNDS = "between", _("Between rounds")
    DEBRIEF = "debrief", _("Debrief")


CLOCKED_PHASES = {Phase.STUDY, Phase.PRACTICE, Phase.ROUND}
# Titles of the phases without a round number (Event.phase_title words the others).
# By str: Event.phase, a CharField, reads as one.
PHASE_TITLES: dict[str, StrPromise] = {
    Phase.SETUP: _("Getting ready"),
    Phase.STUDY: _("Study the rules"),
    Phase.PRACTICE: _("Practice"),
    Phase.DEBRIEF: _("Debrief"),
}


class DebriefStep(models.IntegerChoices):
    """The projector's debrief screens: the data screens, and QUESTION for whichever
    debrief question Event.debrief_question points at. The order the organizer steps
    through them is the running order (SCREENS_BEFORE_STAGE), not these numbers."""

    OPENING = 0, _("Debrief: the ladder")
    DISPUTES = 1, _("Where games were disputed")
    CLASHES = 2, _("Which rules met")
    PATHS = 3, _("Every player's path")
    FLOW = 4, _("Moves between tables")
    RESULTS = 5, _("Final results")
    REVEAL = 6, _("Each table's rules")
    QUESTION = 7, _("A debrief question")
    # Only at an event whose cards are on screens: the tables' tricks, round by round.
    TRICKS = 8, _("The tricks' story")


# Where the data screens fall among the stages of the talk (see
# tournament.rules.debrief_questions: running order). The ladder opens the debrief and the
# feelings come before any data; the disputes map opens the talk about noticing, the map
# of which rules met the talk about coping; the paths and the moves come before adapting
# or insisting, and the results and the reveal before real teams and workplaces. The
# tricks' story follows the map of which rules met: what those meetings did to the tricks.
SCREENS_BEFORE_STAGE: dict[Stage, tuple[DebriefStep, ...]] = {
    Stage.FEELINGS: (DebriefStep.OPENING,),
    Stage.NOTICING: (DebriefStep.DISPUTES,),
    Stage.COPING: (DebriefStep.CLASHES, DebriefStep.TRICKS),
    Stage.ADAPTING: (DebriefStep.PATHS, DebriefStep.FLOW),
    Stage.REAL_WORLD: (DebriefStep.RESULTS, DebriefStep.REVEAL),
}


# The screens only an event whose cards are on screens has something to show on.
SCREEN_EVENT_STEPS = frozenset({DebriefStep.TRICKS})


def screens_before_stage(*, on_screens: bool) -> dict[Stage, tuple[DebriefStep, ...]]:
    """SCREENS_BEFORE_STAGE for one event: without its cards on screens, no tricks' story."""
    return {
        stage: tuple(s for s in steps if on_screens or s not in SCREEN_EVENT_STEPS)
        for stage, steps in SCREENS_BEFORE_STAGE.items()
    }


class PathsHighlight(models.TextChoices):
    """Which paths the debrief's paths chart draws bold; the values are those of the
    projector's ?highlight= (tournament.reads.projector.highlight_count)."""

    AUTO = "", _("A few, when there are many players")
    CLIMBERS = "climbers", _("The biggest climbers and fallers")
    NONE = "0", _("None: every path alike")
