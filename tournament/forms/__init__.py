"""Forms of the organizer console.

Terms:
    roster form   names pasted one per line, or a CSV file; read by tournament.rules.roster and
                  taken whole or not at all, with one message per problem line.
    confirmed     a tick that says "the players have already seen their rules, change the
                  variant anyway"; needed once the study phase has started.
    sign-in forms the console's and the admin's password forms, rate-limited per account
                  and per client address (tournament.writes.signin).
    question form one debrief question's words and stage; the words are tidied
                  (tournament.rules.debrief_questions.tidy_question) and their length checked
                  with a message that says how long they are.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tables.rules.variants import (
    ALL_VARIANTS,
    EVERY_VARIANT,
    Variant,
    variant_label,
)
from tournament.common.isolation import with_names
from tournament.common.requests import client_address
from tournament.forms.events import EventForm as EventForm
from tournament.forms.events import choice_field
from tournament.models import (
    PLAYER_NAME_MAX_LENGTH,
    STAGE_CHOICES,
    Event,
    Player,
    PlayerStatus,
)
from tournament.rules.debrief_questions import QUESTION_MAX_LENGTH, tidy_question
from tournament.rules.movement import decode_seating, seating_fingerprint
from tournament.rules.roster import (
    MAX_CSV_BYTES,
    MAX_LINES,
    SHOWN_CONTROL,
    FileProblem,
    LineProblem,
    ProblemKind,
    RosterInput,
    control_characters,
    read_csv,
    read_lines,
)
from tournament.writes import signin


def _name_the_line_of_a_nul(field: forms.Field) -> None:
    """Leave a NUL to the roster's own check, which names its line and every other control
    character too (tournament.rules.roster: Terms: control), rather than Django's "Null
    characters are not allowed"."""
    field.validators = [
        v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)
    ]


def line_problem_message(problem: LineProblem, *, row_word: bool = False) -> str:
    """One problem as the organizer reads it, naming the line (or the file's row); the
    names in it isolated (tournament.common.isolation), so "Line 3: “שרה 2”" keeps its
    order."""
    where = (
        _("Row %(line)s") % {"line": problem.line}
        if row_word
        else _("Line %(line)s") % {"line": problem.line}
    )
    values = {
        "where": where,
        "name": problem.name,
        "other": problem.other_line,
        "other_name": problem.other_name,
        "length": problem.length,
        "limit": PLAYER_NAME_MAX_LENGTH,
        "character": problem.character,
    }
    return with_names(_line_problem_text(problem), values, names={"name", "other_name"})


def _line_problem_text(problem: LineProblem) -> str:
    """The translated sentence of line_problem_message, its values still to fill in."""
    if problem.kind == ProblemKind.CONTROL:
        return _(
            "%(where)s: “%(name)s” holds a control character (%(character)s), which "
            "cannot be part of a name. Retype the name."
        )
    if problem.kind == ProblemKind.EMPTY:
        return _("%(where)s: there is no name to add.")
    if problem.kind == ProblemKind.TOO_LONG:
        return _("%(where)s: “%(name)s” has %(length)s characters; the limit is %(limit)s.")
    # A name that differs only in capitals is named beside the one it clashes with: the
    # organizer would otherwise look for an identical name and not find it.
    if problem.kind == ProblemKind.REPEATED:
        if problem.clashes:
            return _(
                "%(where)s: “%(name)s” clashes with “%(other_name)s” on line %(other)s — "
                "names must differ by more than capital letters and accents."
            )
        return _("%(where)s: “%(name)s” is already on line %(other)s.")
    if problem.kind == ProblemKind.ON_ROSTER:
        if problem.clashes:
            return _(
                "%(where)s: “%(name)s” clashes with “%(other_name)s” already on the roster — "
                "names must differ by more than capital letters and accents."
            )
        return _("%(where)s: “%(name)s” is already on the roster.")
    if problem.clashes:
        return _(
            "%(where)s: “%(name)s” clashes with “%(other_name)s”, who was removed earlier; "
            "put them back from the list of removed players instead."
        )
    return _(
        "%(where)s: “%(name)s” was removed earlier; put them back from the list of "
        "removed players instead."
    )


FILE_PROBLEM_MESSAGES = {
    FileProblem.TOO_BIG: gettext_lazy("This file is too big for a roster (1 MB at most)."),
    FileProblem.NOT_TEXT: gettext_lazy(
        "This file is not a CSV file. In a spreadsheet, choose “Save as” and “CSV”."
    ),
    FileProblem.TOO_MANY_LINES: gettext_lazy("A roster can have at most %(max)s lines."),
    FileProblem.NO_NAMES: gettext_lazy("There are no names to add."),
}


class RosterForm(forms.Form):
    """Names to add: typed one per line, or an uploaded CSV file (the file wins)."""

    names = forms.CharField(
        label=gettext_lazy("Names, one per line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
        help_text=gettext_lazy("Blank lines are skipped."),
    )
    file = forms.FileField(
        label=gettext_lazy("Or a CSV file"),
        required=False,
        help_text=gettext_lazy(
            "The column headed “Name” (or “First name” and “Last name”), else the first column."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )
    # What was posted: the view's request.POST, a test's dict. clean() writes the names
    # back into a copy of it, which both kinds make.
    data: QueryDict | dict[str, Any]

    def __init__(self, *args, event: Event, players: list[Player] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        _name_the_line_of_a_nul(self.fields["names"])
        self.event = event
        self.players = players if players is not None else list(event.players.all())
        self.roster_input: RosterInput | None = None
        self.from_file = False

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what super().clean() returns
        existing = [p.name for p in self.players if p.status != PlayerStatus.REMOVED]
        removed = [p.name for p in self.players if p.status == PlayerStatus.REMOVED]
        upload = cleaned.get("file")
        if upload:
            self.from_file = True
            if upload.size > MAX_CSV_BYTES:
                result = RosterInput(file_problem=FileProblem.TOO_BIG)
            else:
                result = read_csv(upload.read(), existing=existing, removed=removed)
            if result.names:
                # Put the file's names in the box so that nothing is lost: the organizer
                # can fix them there and add them without the file.
                self.data = self.data.copy()
                self.data["names"] = "\n".join(
                    [*result.names, *(p.name for p in result.problems if p.name)]
                )
        else:
            text = cleaned.get("names", "")
            result = read_lines(text, existing=existing, removed=removed)
            if any(p.kind == ProblemKind.CONTROL for p in result.problems):
                # The box shows the text again with a visible mark where each control
                # character was, never the character itself.
                self.data = self.data.copy()
                self.data["names"] = "".join(
                    SHOWN_CONTROL if control_characters(char) else char for char in text
                )
        self.roster_input = result
        if result.file_problem is not None:
            raise ValidationError(
                str(FILE_PROBLEM_MESSAGES[result.file_problem]) % {"max": MAX_LINES}
            )
        if result.problems:
            raise ValidationError(
                [line_problem_message(p, row_word=self.from_file) for p in result.problems]
            )
        return cleaned

    @property
    def accepted_names(self) -> list[str]:
        return self.roster_input.names if self.roster_input else []


class RenameForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=200,  # the real limit is checked with a message that says the length
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _name_the_line_of_a_nul(self.fields["name"])


class TablePlanForm(forms.Form):
    table_count = forms.TypedChoiceField(label=gettext_lazy("Tables"), coerce=int)

    def __init__(self, *args, options: list, **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "table_count").choices = [
            (plan.table_count, plan_choice_label(plan)) for plan in options
        ]


def plan_choice_label(plan) -> str:
    sizes = ", ".join(
        _("%(tables)s × %(size)s") % {"tables": count, "size": size}
        for size, count in plan.size_counts.items()
    )
    return ngettext(
        "%(count)s table (%(sizes)s players)",
        "%(count)s tables (%(sizes)s players)",
        plan.table_count,
    ) % {"count": plan.table_count, "sizes": sizes}


class MovePlayerForm(forms.Form):
    """Move one seated player to another table in the planned round."""

    player = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    table = forms.TypedChoiceField(label=gettext_lazy("to table"), coerce=int)

    def __init__(self, *args, players: list[tuple[int, str]], tables: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "player").choices = [("", _("Choose a player")), *players]
        choice_field(self, "table").choices = [
            (n, _("Table %(number)s") % {"number": n}) for n in tables
        ]


def variant_choices() -> list[tuple[str, str]]:
    # The classic ones first, as the organizer knows them, then every clause combination.
    variants = [*sorted(ALL_VARIANTS), *EVERY_VARIANT[len(ALL_VARIANTS) :]]
    return [(v.code, variant_label(v, _)) for v in variants]


class SetVariantForm(forms.Form):
    variant = forms.ChoiceField(label=gettext_lazy("Variant"))
    confirmed = forms.BooleanField(
        label=gettext_lazy("The players have seen their rules: change it anyway"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "variant").choices = variant_choices()

    def clean_variant(self) -> Variant:
        return Variant.from_code(self.cleaned_data["variant"])


class CloseRoundForm(forms.Form):
    """The moves the organizer saw: the close is refused only if it would make others.

    moves is the fingerprint of the seating shown (tournament.rules.movement); shown is
    that seating itself, so a refused close can mark the moves that changed. A shown
    seating that is not one, or not the fingerprint's, cleans to None: nothing is
    marked then, and the fingerprint alone decides. disputed_ok is the tick "close
    anyway: the disputed games count for nobody".
    """

    moves = forms.CharField(max_length=64, widget=forms.HiddenInput)
    shown = forms.CharField(required=False, strip=False, widget=forms.HiddenInput)
    disputed_ok = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what super().clean() returns
        seating = decode_seating(cleaned.get("shown") or "")
        if seating is not None and seating_fingerprint(seating) != cleaned.get("moves"):
            seating = None
        cleaned["shown"] = seating
        return cleaned


class SignInForm(AuthenticationForm):
    """The console's password sign-in. It counts its failures and refuses, unchecked, once an
    account or an address has failed too often (tournament.writes.signin), saying until when."""

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # a field is missing: its own error says so
        attempt = signin.start_password_attempt(
            username=username, address=client_address(self.request)
        )
        if isinstance(attempt, signin.Lockout):
            raise ValidationError(attempt.message(), code="too_many_attempts")
        try:
            cleaned = super().clean()
        except ValidationError:
            signin.finish_password_attempt(attempt, succeeded=False)
            raise
        signin.finish_password_attempt(attempt, succeeded=True)
        return cleaned


class AdminSignInForm(SignInForm, AdminAuthenticationForm):
    """The admin's sign-in: staff accounts only, rate-limited like the console's."""


class DebriefQuestionForm(forms.Form):
    """One debrief question, new or edited. Errors keep what was typed (bound form)."""

    text = forms.CharField(
        label=gettext_lazy("Question"),
        # The real limit is checked below, with a message that says the length; the
        # browser gets no maxlength, which would cut a pasted question short unseen.
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    stage = forms.ChoiceField(label=gettext_lazy("Stage"), choices=STAGE_CHOICES)

    def clean_text(self) -> str:
        text = tidy_question(self.cleaned_data.get("text") or "")
        if not text:
            raise ValidationError(_("Write the question: it cannot be empty."))
        if len(text) > QUESTION_MAX_LENGTH:
            raise ValidationError(
                _("A question can be at most %(limit)s characters long; this one has %(count)s.")
                % {"limit": QUESTION_MAX_LENGTH, "count": len(text)}
            )
        return text


class RadarForm(forms.ModelForm):
    """The radar's thresholds (tournament.reads.radar), set by the organizer on the console."""

    class Meta:
        model = Event
        fields = ["radar_quiet_minutes", "radar_newcomer_minutes", "radar_streak"]
