"""The players' guide: one printed page per table about the tournament itself.

Terms:
    players' guide  what every table gets beside its rule sheet: how the event runs (study,
                    then silence, then practice and the rounds), how a game and a round are
                    won, who changes tables and how ties go. It never states rules of play
                    (card order, trumps, dealing): those are on the table's rule sheet. So the
                    guide is the same page at every table and may stay on the table after
                    the rule sheets are collected.
    step            a section about what happens next, in the order the event runs (study,
                    silence, practice, the rounds); the clock times most of them.
    rule            a section about how the tournament counts: winning a game and a round,
                    changing tables, ties.
    section         a step or a rule: a heading, its paragraphs, and for the timed steps
                    how long they last. Its ``key`` is a stable, untranslated name
                    that the printed page uses to place things (the silence icons go with
                    the "silence" section).
    table           a numbered card table of an event; a higher number is a better table.
    seat            a player's place at a table for one round; round 1's seats are the home
                    tables, where study and practice happen.
    round           a timed period of play, long enough for several games; the player who
                    wins the most games at a table wins its round.
    game            one deal of Five Tricks, won by the player who takes the most tricks (the
                    most so far when the round ends in the middle of it).
    move up / move down
                    after a round a table's winner goes to the next higher table and its loser
                    to the next lower one; two each way at a table of more than four players.
                    The top table's winners and the bottom table's losers stay. Ties follow
                    the one order of tournament.rules.ordering: more games first, then names
                    alphabetically with accents and case ignored.

The page must not hint that tables play different rules: that discovery is the point of the
game. Everything a person reads is English marked with ``gettext_noop`` and passed through a
``translate`` callable at call time, as in tables.rules.rule_sheets.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.common.i18n import Translate, gettext_noop, translated, untranslated

STUDY = "study"
SILENCE = "silence"
PRACTICE = "practice"
ROUNDS = "rounds"
GAME = "game"
ROUND = "round"
MOVES = "moves"
TIES = "ties"


@dataclass(frozen=True)
class GuideSection:
    key: str
    heading: str
    paragraphs: tuple[str, ...]
    duration: str | None = None  # "about 5 min", for the steps the clock times


@dataclass(frozen=True)
class PlayersGuide:
    title: str
    subtitle: str
    steps_heading: str
    steps: tuple[GuideSection, ...]
    rules_heading: str
    rules: tuple[GuideSection, ...]

    @property
    def sections(self) -> tuple[GuideSection, ...]:
        return self.steps + self.rules


def _duration(minutes: int, translate: Translate, *, each: bool = False) -> str:
    # "min" does not change with the number, so one message serves 1 and 5 minutes alike.
    if each:
        return translated(translate, gettext_noop("about %(minutes)s min each"), minutes=minutes)
    return translated(translate, gettext_noop("about %(minutes)s min"), minutes=minutes)


def players_guide(
    *,
    study_minutes: int,
    practice_minutes: int,
    round_minutes: int,
    translate: Translate = untranslated,
    winner_by_sheet: bool = False,
    paper_only: bool = False,
) -> PlayersGuide:
    """The guide in the product's own words, timed with the event's clock settings.

    With ``winner_by_sheet`` (an event where some table wins a game with the fewest tricks)
    "Who wins a game" points to the rule sheet instead of saying "the most tricks". The
    guide stays on the table for visitors to read, so it must be the same at every table of
    the event: a per-table sentence would give a fewest-wins table away. With
    ``paper_only`` (an event without phones) it speaks of the tally sheet, never of phones.
    """
    for name, minutes in (
        ("study_minutes", study_minutes),
        ("practice_minutes", practice_minutes),
        ("round_minutes", round_minutes),
    ):
        if minutes < 1:
            raise ValueError(f"{name} must be at least 1, got {minutes}")
    return PlayersGuide(
        title=translated(translate, gettext_noop("How the tournament works")),
        subtitle=translated(translate, gettext_noop("Five Tricks · keep this page on the table")),
        steps_heading=translated(translate, gettext_noop("What happens, in order")),
        steps=_steps(
            translate, study_minutes, practice_minutes, round_minutes, paper_only=paper_only
        ),
        rules_heading=translated(translate, gettext_noop("How you win, and where you go next")),
        rules=_rules(translate, winner_by_sheet=winner_by_sheet),
    )


def _section(
    translate: Translate,
    key: str,
    heading: str,
    *paragraphs: str,
    minutes: int | None = None,
    each: bool = False,
) -> GuideSection:
    return GuideSection(
        key=key,
        heading=translated(translate, heading),
        paragraphs=tuple(translated(translate, paragraph) for paragraph in paragraphs),
        duration=None if minutes is None else _duration(minutes, translate, each=each),
    )


def _steps(
    translate: Translate,
    study_minutes: int,
    practice_minutes: int,
    round_minutes: int,
    *,
    paper_only: bool,
) -> tuple[GuideSection, ...]:
    """What happens next, in the order the event runs (see Terms: step)."""
    silence = (
        gettext_noop(
            "When study time is over, the rule sheets are collected. From then on, until the "
            "end of the tournament, nobody says a word."
        )
        if paper_only
        else gettext_noop(
            "When study time is over, the rule sheets are collected and the phones stop "
            "showing the rules. From then on, until the end of the tournament, nobody says "
            "a word."
        )
    )
    rounds = (
        gettext_noop(
            "Then the tournament starts and every game counts: tick each game's winner on "
            "your table's tally sheet. Each round is timed; play as many games as you can "
            "before time is called."
        )
        if paper_only
        else gettext_noop(
            "Then the tournament starts and every game counts. Each round is timed; play "
            "as many games as you can before time is called."
        )
    )
    return (
        _section(
            translate,
            STUDY,
            gettext_noop("Study the rules, talking allowed"),
            gettext_noop(
                "Learn Five Tricks from the rule sheet on your table and try it out in a few "
                "practice games. Talk as much as you like: ask, explain, agree."
            ),
            minutes=study_minutes,
        ),
        _section(
            translate,
            SILENCE,
            gettext_noop("Then silence, until the end"),
            silence,
            gettext_noop(
                "No talking, no written words, no sign language. Pointing, miming and drawing "
                "pictures are fine, as long as a drawing holds no words."
            ),
        ),
        _section(
            translate,
            PRACTICE,
            gettext_noop("Practice at your home table"),
            gettext_noop(
                "A few more games at the same table, already in silence. They do not count."
            ),
            minutes=practice_minutes,
        ),
        _section(
            translate,
            ROUNDS,
            gettext_noop("The rounds"),
            rounds,
            minutes=round_minutes,
            each=True,
        ),
    )


def _rules(translate: Translate, *, winner_by_sheet: bool) -> tuple[GuideSection, ...]:
    """How the tournament counts (see Terms: rule)."""
    return (
        _section(
            translate,
            GAME,
            gettext_noop("Who wins a game"),
            gettext_noop(
                "The player your rule sheet names, counting the tricks each player took. When "
                "time is called in the middle of a game, finish the trick on the table: the "
                "tricks so far decide that game, the same way."
            )
            if winner_by_sheet
            else gettext_noop(
                "The player who takes the most tricks. When time is called in the middle of a "
                "game, finish the trick on the table: the most tricks so far wins that game."
            ),
        ),
        _section(
            translate,
            ROUND,
            gettext_noop("Who wins a round"),
            gettext_noop("The player who wins the most games at the table during the round."),
        ),
        _section(
            translate,
            MOVES,
            gettext_noop("Who changes tables"),
            gettext_noop(
                "Table 1 is the lowest table: the higher the number, the better the table."
            ),
            gettext_noop(
                "When a round ends, the player with the most games goes up to the next higher "
                "table and the player with the fewest goes down to the next lower one. "
                "Everybody else stays."
            ),
            gettext_noop("At a table of more than four players, two go up and two go down."),
            gettext_noop("The top table's winners and the bottom table's losers stay put."),
        ),
        _section(
            translate,
            TIES,
            gettext_noop("Ties"),
            gettext_noop(
                "Ties go by name. The table is put in one order: more games first, and equal "
                "games in alphabetical order, ignoring accents and capital letters. The first "
                "in that order go up, the last go down."
            ),
            gettext_noop(
                "Equal tricks in a game are split the same way: the name that comes first "
                "alphabetically wins it."
            ),
        ),
    )
