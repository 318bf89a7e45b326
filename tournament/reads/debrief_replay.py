"""One trick replayed at the debrief, and a table's pad at the end of one game.

Terms:
    choice       what the organizer picked: a round, a table, a game and a trick, each a
                 number (``Choice``); without a game there is nothing to show, without a
                 trick only the game's pad and its disputed tricks.
    seat label   "Player 1", "Player 2"... in the deal's seat order: how the replay names
                 the players unless the organizer asks for their names (``names``). A
                 hidden name is never in the page, not merely hidden by its style.
    replay       the chosen trick: the cards played to it in order, with who played each
                 and when (seconds after its first card), then each player's pointing over
                 time, every change (tables.models.Pointing keeps them all), in seconds
                 after its last card, and how it ended: taken by agreement, settled by the
                 organizer, or never taken (the round ended first).
    game's pad   the table's drawing pad as it was when the game ended (the deal's end, or
                 the round's close for a game cut off; now for one still in play), from
                 tables.reads.silent_channel.pad_view.
    page         the console's tricks' page (``TricksPage``): the story beside the clash
                 map, the choice, the chosen round in detail, and the chosen game.

A constant number of queries: the deal, its trick's plays, its pointing, its taking and the
players' names, five; the pad one more; the page adds the debrief's five and the story's.
Nothing here shows a table's variant: cards and pointing only, as the players saw them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from urllib.parse import urlencode

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tables.models import Deal, Play, Pointing, TakenTrick
from tables.reads.screen_play import CardView, card_view
from tables.reads.silent_channel import PadView, pad_view
from tournament.common.inputs import positive_int
from tournament.models import Event, Player
from tournament.reads.debrief import build_debrief
from tournament.reads.debrief_tricks import TricksStory, settle_seconds, tricks_story
from tournament.reads.projector.boards import LegendEntry, ReasonMark
from tournament.rules import charts
from tournament.rules.clash import legend_kinds

# A number beyond any round, table, game or trick: read as no choice.
CHOICE_MOST = 999


def _number(value: object) -> int | None:
    number = positive_int(value)
    return number if number is not None and number <= CHOICE_MOST else None


@dataclass(frozen=True)
class Choice:
    round: int | None = None
    table: int | None = None
    game: int | None = None
    trick: int | None = None
    names: bool = False

    @classmethod
    def parse(cls, query) -> Choice:
        """The choice a query string names (anything unreadable is no choice)."""
        return cls(
            _number(query.get("round")),
            _number(query.get("table")),
            _number(query.get("game")),
            _number(query.get("trick")),
            query.get("names") == "1",
        )

    @property
    def game_chosen(self) -> bool:
        return None not in (self.round, self.table, self.game)

    def query(self, **changes: object) -> str:
        """This choice as a query string, with ``changes`` (e.g. trick=3, names=False)."""
        values = {
            "round": self.round,
            "table": self.table,
            "game": self.game,
            "trick": self.trick,
            **changes,
        }
        names = changes.get("names", self.names)
        chosen = {key: value for key, value in values.items() if key != "names" and value}
        return urlencode({**chosen, **({"names": 1} if names else {})})


@dataclass(frozen=True)
class PlayedCard:
    player: str
    card: CardView
    seconds: int  # after the trick's first card


@dataclass(frozen=True)
class PointingChange:
    card: CardView
    seconds: int  # after the trick's last card; a pointing can't come before it


@dataclass(frozen=True)
class PlayerPointing:
    player: str
    changes: list[PointingChange]


@dataclass(frozen=True)
class TrickReplay:
    trick: int
    cards: list[PlayedCard]
    pointing: list[PlayerPointing]  # seat order
    taker: str | None  # who took it; None: never taken
    taken_card: CardView | None
    seconds: int | None  # to settle
    disagreed: bool
    settled: bool


@dataclass(frozen=True)
class GameView:
    """The chosen game: the table's pad at its end, and its trick replayed if one is chosen
    (None: no trick chosen, or that trick was never played)."""

    choice: Choice
    deal: Deal
    pad: PadView
    pad_at: datetime | None  # None: the game is still in play, the pad is as it is now
    replay: TrickReplay | None


def seat_labels(deal: Deal, *, names: bool) -> dict[int, str]:
    """Each player of the deal as the replay names them (see Terms: seat label). One
    query with names, none without."""
    seats = [int(player) for player in deal.seats]
    if names:
        found = dict(Player.objects.filter(pk__in=seats).values_list("pk", "name"))
        return {player: found.get(player, "") for player in seats}
    return {
        player: _("Player %(number)s") % {"number": place}
        for place, player in enumerate(seats, start=1)
    }


def chosen_game(event: Event, choice: Choice) -> GameView | None:
    """The chosen game (see Terms), or None when the event has no such counted game."""
    if choice.round is None or choice.table is None or choice.game is None:
        return None
    deal = (
        Deal.objects.filter(
            round__event=event,
            round__number=choice.round,
            table__number=choice.table,
            number=choice.game,
            practice=False,
        )
        .select_related("round")
        .first()
    )
    if deal is None:
        return None
    until = deal.ended_at or deal.round.closed_at
    replay = trick_replay(deal, choice.trick, names=choice.names) if choice.trick else None
    pad = pad_view(deal.round_id, deal.table_id, until=until)
    return GameView(choice, deal, pad, until, replay)


def trick_replay(deal: Deal, trick: int, *, names: bool) -> TrickReplay | None:
    """Trick ``trick`` of ``deal`` (see Terms: replay); None if no card was played to it.
    Three queries, and one for the names when they are shown."""
    plays = list(
        Play.objects.filter(deal=deal, trick=trick)
        .order_by("pk")
        .values_list("player_id", "card", "played_at")
    )
    if not plays:
        return None
    labels = seat_labels(deal, names=names)
    first, last = plays[0][2], max(at for _player, _card, at in plays)
    changes: dict[int, list[PointingChange]] = {player: [] for player in labels}
    for player, card, at in (
        Pointing.objects.filter(deal=deal, trick=trick)
        .order_by("pk")
        .values_list("player_id", "card", "pointed_at")
    ):
        changes.setdefault(player, []).append(
            PointingChange(card_view(card), settle_seconds(last, at))
        )
    taken = TakenTrick.objects.filter(deal=deal, number=trick).first()
    return TrickReplay(
        trick=trick,
        cards=[
            PlayedCard(labels.get(player, ""), card_view(card), settle_seconds(first, at))
            for player, card, at in plays
        ],
        pointing=[PlayerPointing(labels.get(p, ""), found) for p, found in changes.items()],
        taker=labels.get(taken.taker_id, "") if taken else None,
        taken_card=card_view(taken.card) if taken else None,
        seconds=settle_seconds(taken.complete_at, taken.taken_at) if taken else None,
        disagreed=bool(taken and taken.disagreed),
        settled=bool(taken and taken.settled),
    )


# --- the console's page: the story beside the clash map, and the choice ---------------


@dataclass(frozen=True)
class TricksPage:
    """What the console's tricks' page shows (tournament.views.organizer.debrief)."""

    choice: Choice
    story: TricksStory
    clash_map: SafeString
    sentence: str
    kind_legend: list[LegendEntry]
    game: GameView | None
    missing: str  # why the choice shows nothing, or ""

    @property
    def story_chart(self) -> SafeString:
        """Every round side by side, as tall as its tables need (a page, not a screen)."""
        return self.story.story_chart(pattern_id="hatch-story", fill=False)

    @property
    def shown_round(self) -> int | None:
        """The chosen round, if it was played: shown in detail under the choice."""
        return self.choice.round if self.choice.round in self.story.rounds else None

    @cached_property
    def round_chart(self) -> SafeString | None:
        if self.shown_round is None:
            return None
        return self.story.round_chart(self.shown_round, pattern_id="hatch-round")

    @property
    def round_summaries(self) -> list[str]:
        return [] if self.shown_round is None else self.story.summaries(self.shown_round)

    @property
    def disputed(self) -> list[charts.TrickMark]:
        """The chosen game's tricks in disagreement, beside its pad."""
        if self.game is None:
            return []
        # A game was found, so the choice names all three.
        choice = self.choice
        return self.story.disputed(choice.table or 0, choice.round or 0, choice.game or 0)

    @property
    def names_shown_query(self) -> str:
        return self.choice.query(names=True)

    @property
    def names_hidden_query(self) -> str:
        return self.choice.query(names=False)

    @property
    def games(self) -> range:
        return range(1, self.story.most_games + 1)

    @property
    def tricks(self) -> range:
        return range(1, self.story.most_tricks + 1)


def tricks_page(event: Event, choice: Choice) -> TricksPage:
    """The page (see TricksPage): the debrief's five queries, the story's one, and the
    chosen game's (see chosen_game)."""
    data = build_debrief(event)
    story = tricks_story(event, data)
    clash_map = charts.grid_svg(
        data.tables,
        data.rounds,
        data.grid_cells(),
        label=_("Which rules met, and tricks in disagreement, per table and round"),
        show_kinds=True,
        pattern_id="hatch-clashes",
        translate=_,
    )
    game = chosen_game(event, choice)
    return TricksPage(
        choice=choice,
        story=story,
        clash_map=mark_safe(clash_map),  # ElementTree escaped every word in it
        sentence=data.sentence,
        kind_legend=[
            LegendEntry(ReasonMark(charts.KIND_SYMBOLS[k], str(k)), _(charts.CLASH_TITLES[k]))
            for k in legend_kinds(data.cells.values())
        ],
        game=game,
        missing=_missing(choice, game),
    )


def _missing(choice: Choice, game: GameView | None) -> str:
    """Why a choice shows nothing: no such game, or no card played to that trick."""
    values = {"round": choice.round, "table": choice.table, "game": choice.game}
    if choice.game_chosen and game is None:
        return _("Table %(table)s played no game %(game)s in round %(round)s.") % values
    if game is not None and choice.trick is not None and game.replay is None:
        return _("No card was played to trick %(trick)s of that game.") % {"trick": choice.trick}
    return ""
