"""Forms that phones post: a game's winner in one tap, or the tricks of a game cut off.

Terms:
    client key  a random key put into a report form when it is rendered. Sending the same
                rendered form twice (a double tap, a retry over bad Wi-Fi, a reload that
                resubmits) sends the same key, so the game is stored once
                (see tables.writes.reporting). A form rendered anew gets a new key.
    game number the "Game k" the page offered; phones that send the same k speak of the
                same game.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.rules import silent_channel
from tables.rules.screen_play import DECK
from tables.rules.silent_channel import MAX_STROKE_POINTS
from tables.rules.variants import DECK_SIZE
from tournament.models import Player

CLIENT_KEY_BYTES = 16  # 128 bits: two phones never make the same key


def new_client_key() -> str:
    return secrets.token_urlsafe(CLIENT_KEY_BYTES)


# The hidden fields of every report, in the order a page writes them
# (tables.templatetags.report_forms).
REPORT_FIELDS = ("round_number", "game_number", "client_key")


class ReportForm(forms.Form):
    """What every report carries besides its result: which round, which game, which key."""

    round_number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    game_number = forms.IntegerField(min_value=1, max_value=999, widget=forms.HiddenInput)
    client_key = forms.CharField(min_length=8, max_length=64, widget=forms.HiddenInput)

    @classmethod
    def fresh_initial(cls, *, round_number: int, game_number: int) -> dict[str, object]:
        return {
            "round_number": round_number,
            "game_number": game_number,
            "client_key": new_client_key(),
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what super().clean() returns
        # These fields are hidden, so their own errors would never be seen: say what to do.
        if any(self.has_error(name) for name in REPORT_FIELDS):
            raise forms.ValidationError(
                _("This form is out of date. Go back to your table's page and report again.")
            )
        return cleaned


class WinnerForm(ReportForm):
    """One tap on the winner's name: each name is a submit button carrying the player id.

    ``retap_checked`` says a quick retap was already asked about (tables.writes.reporting):
    by the phone's script, or by the page's "Yes, count game k"."""

    winner = forms.IntegerField(min_value=1)
    retap_checked = forms.BooleanField(required=False)


class TricksForm(ReportForm):
    """Tricks taken so far by each seated player, for a game the clock cut off.

    ``tricks_per_game`` is how many tricks a finished game has at this table's size
    (tables.rules.deal): no player can have taken more, and the page says it. The winner follows
    from the counts (tables.rules.scoring.game_winner); whether the counts fit the table's deal
    is checked by tables.writes.reporting, which has the final word.
    """

    def __init__(self, *args, players: Iterable[Player], tricks_per_game: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.tricks_per_game = tricks_per_game
        for player in self.players:
            self.fields[self.field_name(player)] = forms.IntegerField(
                label=player.name,
                min_value=0,
                max_value=tricks_per_game,
                required=False,
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "pattern": "[0-9]*", "placeholder": "0"}
                ),
            )

    @staticmethod
    def field_name(player: Player) -> str:
        return f"tricks_{player.pk}"

    def player_fields(self) -> list[forms.BoundField]:
        return [self[self.field_name(player)] for player in self.players]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what super().clean() returns
        if self.players and not any(
            cleaned.get(self.field_name(player)) for player in self.players
        ):
            raise forms.ValidationError(_("Enter the tricks each player has taken so far."))
        return cleaned

    def add_error(self, field: str | None, error) -> None:
        """Record the error, then point the page at it: the inputs it is about carry
        aria-invalid and name their message (aria-describedby), and the first of them
        takes the focus when the page opens (a total that does not fit is about them all)."""
        super().add_error(field, error)
        names = [self.field_name(player) for player in self.players]
        bad = [name for name in names if name in self.errors]
        messages = {name: f"{self[name].auto_id}-error" for name in bad}
        if self.non_field_errors():
            bad = names
            messages = {name: f"{messages.get(name, '')} tricks-errors".strip() for name in names}
        for index, name in enumerate(bad):
            attrs = self.fields[name].widget.attrs
            attrs.update({"aria-invalid": "true", "aria-describedby": messages[name]})
            if index == 0:
                attrs["autofocus"] = True
            else:
                attrs.pop("autofocus", None)

    def tricks(self) -> dict[Player, int]:
        return {
            player: self.cleaned_data.get(self.field_name(player)) or 0 for player in self.players
        }


class PickPlayerForm(forms.Form):
    player = forms.IntegerField(min_value=1)


# The organizer's paper entry (tournament.views.organizer.paper): one text box per game,
# named "game-<number>", holding the winner or the tricks (read by tables.rules.tally).
TALLY_FIELD_PREFIX = "game-"
MAX_TALLY_NUMBER = 60
MAX_TALLY_TEXT = 200


def tally_entries(data: Mapping[str, str]) -> dict[int, str] | None:
    """The typed rows of a paper entry form by game number, or None for a forged form
    (a game number out of range, or text no sheet row could hold)."""
    entries = {}
    for key, value in data.items():
        if not key.startswith(TALLY_FIELD_PREFIX):
            continue
        number = key.removeprefix(TALLY_FIELD_PREFIX)
        if not number.isdecimal() or not 1 <= int(number) <= MAX_TALLY_NUMBER:
            return None
        if len(value) > MAX_TALLY_TEXT:
            return None
        entries[int(number)] = value
    return entries


class ScreenActionForm(forms.Form):
    """A card played or pointed at from a player's screen (tables.views.screen), with the
    key the page made for it."""

    card = forms.ChoiceField(choices=[(card, card) for card in DECK])
    key = forms.RegexField(regex=r"^[A-Za-z0-9_-]{8,64}\Z")
    trick = forms.IntegerField(min_value=1, max_value=DECK_SIZE, required=False)
    deal = forms.IntegerField(min_value=1, required=False)  # the game the screen showed

    def first_error(self) -> str:
        if "card" in self.errors:
            return str(_("That card could not be read. Reload the page and try again."))
        return str(_("The page sent something it should not. Reload the page and try again."))


class GameClaimForm(forms.Form):
    """Who won the game, pointed at from a player's screen at an event with a scoring
    clause (tables.views.screen), with the key the page made for it, the game it showed
    and the tricks it showed taken."""

    winner = forms.IntegerField(min_value=1, max_value=2**63 - 1)
    key = forms.RegexField(regex=r"^[A-Za-z0-9_-]{8,64}\Z")
    deal = forms.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    taken = forms.IntegerField(min_value=0, max_value=DECK_SIZE, required=False)

    def first_error(self) -> str:
        return str(_("The page sent something it should not. Reload the page and try again."))


PAD_SHOWN = r"^[0-9]{1,12}-[0-9]{1,12}\Z"  # "round id-table id" of the pad a screen showed


class _AtPadForm(forms.Form):
    """What a stroke and a gesture both carry: the key the page made, and the pad (round
    and table) the screen showed."""

    key = forms.RegexField(regex=r"^[A-Za-z0-9_-]{8,64}\Z")
    pad = forms.RegexField(regex=PAD_SHOWN, required=False)  # "round id-table id"

    def shown_pad(self) -> tuple[int, int] | None:
        value = self.cleaned_data.get("pad", "")
        if not value:
            return None
        round_id, table_id = value.split("-")
        return int(round_id), int(table_id)


class StrokeForm(_AtPadForm):
    """A stroke drawn on the table's pad, or the pad cleared (tables.views.silent_channel).
    Only the shape is checked here; what a stroke may be is tables.rules.silent_channel's,
    checked by the write."""

    kind = forms.CharField(max_length=8)
    # 400 points of "1000,700 " at most; more is not a stroke of our pad.
    points = forms.CharField(max_length=MAX_STROKE_POINTS * 9, required=False, strip=False)


class GestureForm(_AtPadForm):
    """A gesture made beside a player's seat (tables.views.silent_channel)."""

    # "no", or "point 7H": the gesture and the card it points at, as one button's value.
    gesture = forms.RegexField(regex=r"^[a-z]{1,8}(?: [A2-7][HDCS])?\Z")

    def kind_and_card(self) -> tuple[str, str]:
        kind, _space, card = self.cleaned_data["gesture"].partition(" ")
        return kind, card


_VIDEO_ERRORS = {
    silent_channel.NOT_HTTPS: _(
        "Paste the meeting's https address, as the video service gives it (it starts with "
        "https://)."
    ),
    silent_channel.NO_TABLE_FIELD: _(
        "Put {table} in the pattern, where the table's number goes: without it every table "
        "meets in the same room."
    ),
    silent_channel.UNKNOWN_FIELD: _("A pattern may hold {event} and {table}, and nothing else."),
    silent_channel.USER_INFO: _(
        "Take out the part before the @ (a name or a password): a player would see one "
        "address and land on another. Paste the meeting's address as the video service "
        "gives it."
    ),
    silent_channel.HIDDEN: _(
        "This address holds characters nobody can see (some turn the text around, so it "
        "reads as another address). Type it again, or paste it straight from the video "
        "service."
    ),
}


class VideoRoomsForm(forms.Form):
    """Each screen table's video room: one pattern for all, and a table's own link that
    wins over it (tournament.views.organizer.video_rooms)."""

    pattern = forms.CharField(
        label=_("One pattern for every table"),
        max_length=silent_channel.VIDEO_MAX_LENGTH,
        required=False,
        help_text=_(
            "For example https://meet.jit.si/fivetricks-{event}-{table}: {table} becomes the "
            "table's number, {event} the event's name and a random part, so nobody outside "
            "the event can guess a table's room."
        ),
    )

    def __init__(self, *args, tables: Iterable[Any], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table_numbers = []
        for table in tables:
            self.fields[f"table_{table.number}"] = forms.CharField(
                label=_("Table %(number)s") % {"number": table.number},
                max_length=silent_channel.VIDEO_MAX_LENGTH,
                required=False,
                initial=table.video_link,
            )
            self.table_numbers.append(table.number)

    def _checked(self, name: str, *, pattern: bool) -> str:
        try:
            return silent_channel.check_video_link(self.cleaned_data[name], pattern=pattern)
        except silent_channel.VideoProblem as problem:
            raise forms.ValidationError(_VIDEO_ERRORS[problem.reason]) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in list(cleaned):
            try:
                cleaned[name] = self._checked(name, pattern=name == "pattern")
            except forms.ValidationError as error:
                self.add_error(name, error)
        return cleaned

    def links(self) -> dict[int, str]:
        return {number: self.cleaned_data[f"table_{number}"] for number in self.table_numbers}

    def table_fields(self) -> list[forms.BoundField]:
        return [self[f"table_{number}"] for number in self.table_numbers]
