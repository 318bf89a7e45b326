"""The debrief's question bank: the stages of the talk after the game, the questions every
event starts with, and where the data screens fall among them.

Terms:
    stage          one part of the usual arc of a debrief, in this order: how it felt,
                   what happened, the moment players noticed the rules differed, how they
                   coped without words, who adapted and who insisted, and what it says
                   about real teams, cultures and workplaces.
    question       one thing the facilitator asks the room, in one stage; the projector
                   shows one at a time, large.
    bank           an event's questions, each in a stage, in the order the organizer put
                   them. Every event starts with the default bank (DEFAULT_BANK), written
                   for this game; the organizer edits it per event
                   (tournament.models.DebriefQuestion).
    screen         one of the debrief's data screens (the disputes map, the paths ...);
                   opaque here: the models name them (tournament.models.DebriefStep).
    running order  the whole debrief as the projector steps through it: the stages in
                   order, each stage's questions in the bank's order, and before a stage
                   the screens that belong there (the feelings come before any data, the
                   questions about real teams after the reveal).
    answer kind    how the room answers a question from its phones (AnswerKind): a word or
                   a few (WORDS, at most ANSWER_MAX_LENGTH characters), a scale from 1 to 5
                   with faces (SCALE), or the choice of a round (ROUNDS) or of a table
                   (TABLES). A question without one is answered aloud, as before.

The default questions speak to no table's rules: nothing in them names a direction, a
suit or a trump rule, so the projector can show any of them before the reveal.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from tournament.common.i18n import Translate, gettext_noop, untranslated

# Long enough for a question with a short follow-up; short enough to stand large on the
# projector in a few lines (see static/css/projector.css: .question-text).
QUESTION_MAX_LENGTH = 240
# Above this many characters the projector sets a question a size smaller.
LONG_QUESTION = 110


class Stage(StrEnum):
    """The arc of a debrief, in order (the order of the members is the order of the talk)."""

    FEELINGS = "feelings"
    HAPPENED = "happened"
    NOTICING = "noticing"
    COPING = "coping"
    ADAPTING = "adapting"
    REAL_WORLD = "real_world"


STAGE_TITLES: dict[Stage, str] = {
    Stage.FEELINGS: gettext_noop("How it felt"),
    Stage.HAPPENED: gettext_noop("What happened"),
    Stage.NOTICING: gettext_noop("Noticing the difference"),
    Stage.COPING: gettext_noop("Coping without words"),
    Stage.ADAPTING: gettext_noop("Adapting or insisting"),
    Stage.REAL_WORLD: gettext_noop("Teams, cultures, workplaces"),
}
STAGE_AIMS: dict[Stage, str] = {
    Stage.FEELINGS: gettext_noop("Let the emotions out first, before any data."),
    Stage.HAPPENED: gettext_noop("Collect the story: games, tables, moves."),
    Stage.NOTICING: gettext_noop("The moment people sensed the rules were not the same."),
    Stage.COPING: gettext_noop("How tables settled things without speaking."),
    Stage.ADAPTING: gettext_noop("Who changed their play, who held on, and why."),
    Stage.REAL_WORLD: gettext_noop("After the reveal: what this says about real life."),
}


class AnswerKind(StrEnum):
    """How the room answers a question from its phones; NONE: aloud only."""

    NONE = ""
    WORDS = "words"
    SCALE = "scale"
    ROUNDS = "rounds"
    TABLES = "tables"


ANSWER_KIND_TITLES: dict[AnswerKind, str] = {
    AnswerKind.NONE: gettext_noop("Aloud only"),
    AnswerKind.WORDS: gettext_noop("A word or a few"),
    AnswerKind.SCALE: gettext_noop("A scale from 1 to 5"),
    AnswerKind.ROUNDS: gettext_noop("A round"),
    AnswerKind.TABLES: gettext_noop("A table"),
}
# A word or a few: enough for "lost but curious", short enough for a cloud.
ANSWER_MAX_LENGTH = 40
SCALE_POINTS = (1, 2, 3, 4, 5)
# The faces of the scale, from a smile (1: not at all) to a frown (5: very much): where
# the mouth's curve bends, in a face 24 units across (the phone draws them as SVG, so no
# emoji font is needed); the words say the same for screen readers.
SCALE_FACES: dict[int, float] = {1: 20.5, 2: 18, 3: 15.5, 4: 13, 5: 10.5}
SCALE_WORDS: dict[int, str] = {
    1: gettext_noop("1: not at all"),
    2: gettext_noop("2: a little"),
    3: gettext_noop("3: somewhat"),
    4: gettext_noop("4: a lot"),
    5: gettext_noop("5: very much"),
}


@dataclass(frozen=True)
class BankQuestion:
    stage: Stage
    text: str
    answers: AnswerKind = AnswerKind.NONE


# Our own words for this game: home tables, silent play, moving up and down, the phones.
DEFAULT_BANK: tuple[BankQuestion, ...] = (
    BankQuestion(
        Stage.FEELINGS,
        gettext_noop("In one word: how do you feel right now?"),
        AnswerKind.WORDS,
    ),
    BankQuestion(
        Stage.FEELINGS,
        gettext_noop("How frustrated were you in round 1?"),
        AnswerKind.SCALE,
    ),
    BankQuestion(
        Stage.FEELINGS,
        gettext_noop("How did it feel to play without being allowed to say a word?"),
    ),
    BankQuestion(
        Stage.HAPPENED,
        gettext_noop(
            "Tell us the story of your games: what happened at your home table, and after "
            "your first move?"
        ),
    ),
    BankQuestion(
        Stage.HAPPENED,
        gettext_noop("Was there a trick you were sure you had won, until someone else took it?"),
    ),
    BankQuestion(
        Stage.HAPPENED,
        gettext_noop("What happened when the phones at your table named different winners?"),
    ),
    BankQuestion(
        Stage.NOTICING,
        gettext_noop("In which round did you notice that the rules differed?"),
        AnswerKind.ROUNDS,
    ),
    BankQuestion(
        Stage.NOTICING,
        gettext_noop(
            "What did you think was going on at first: a slip, someone cheating, or something else?"
        ),
    ),
    BankQuestion(
        Stage.NOTICING,
        gettext_noop("Did you ever wonder whether you were the one who had the rules wrong?"),
    ),
    BankQuestion(
        Stage.COPING,
        gettext_noop(
            "Without words, how did you show the others what you thought was right? "
            "Did they understand you?"
        ),
    ),
    BankQuestion(
        Stage.COPING,
        gettext_noop("When your table disagreed about a trick, who decided in the end, and how?"),
    ),
    BankQuestion(
        Stage.COPING,
        gettext_noop("Which signs, gestures or habits did your table invent along the way?"),
    ),
    BankQuestion(
        Stage.ADAPTING,
        gettext_noop(
            "Who changed the way they played to fit the table, and who held on to their "
            "own rules? Why?"
        ),
    ),
    BankQuestion(
        Stage.ADAPTING,
        gettext_noop(
            "Arriving at a new table: did you expect the others to play your way, or did "
            "you follow theirs?"
        ),
    ),
    BankQuestion(
        Stage.ADAPTING,
        gettext_noop("Did winning, or moving up, make you more sure that your rules were right?"),
    ),
    BankQuestion(
        Stage.REAL_WORLD,
        gettext_noop(
            "Where in your work or life have you met rules that everyone follows but nobody "
            "says out loud?"
        ),
    ),
    BankQuestion(
        Stage.REAL_WORLD,
        gettext_noop(
            "What is it like to join a team or a country whose unwritten rules you do not "
            "know yet? What would make it easier?"
        ),
    ),
    BankQuestion(
        Stage.REAL_WORLD,
        gettext_noop(
            "Next time someone seems to be “doing it wrong”, what will you ask before you insist?"
        ),
    ),
)


def default_bank(translate: Translate = untranslated) -> list[BankQuestion]:
    """The default questions in the order of the talk, in the language of ``translate``."""
    return [
        BankQuestion(question.stage, translate(question.text), question.answers)
        for question in DEFAULT_BANK
    ]


def tidy_answer(text: str) -> str:
    """A word answer as typed, ready to store: spaces trimmed and runs made one."""
    return " ".join(text.split())


def tidy_question(text: str) -> str:
    """A question as typed, ready to store: spaces at the ends dropped, and any run of
    spaces, tabs or line breaks made one space (the projector wraps the text itself)."""
    return " ".join(text.split())


Screen = TypeVar("Screen")
Question = TypeVar("Question")


def running_order(
    questions: Iterable[tuple[Stage, Question]],
    screens_before: Mapping[Stage, Sequence[Screen]],
) -> list[tuple[Stage, Screen | Question]]:
    """Every screen and question of the debrief in the order the projector steps through
    them, each with the stage it falls in.

    ``questions`` come in the bank's order; ``screens_before`` names the screens that
    open each stage. A stage without questions keeps its screens, so every screen is in
    the running order exactly once whatever the organizer deleted.
    """
    by_stage: dict[Stage, list[Question]] = {stage: [] for stage in Stage}
    for stage, question in questions:
        by_stage[stage].append(question)
    order: list[tuple[Stage, Screen | Question]] = []
    for stage in Stage:
        order.extend((stage, screen) for screen in screens_before.get(stage, ()))
        order.extend((stage, question) for question in by_stage[stage])
    return order
