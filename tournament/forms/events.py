"""The form of a new event, and of an existing event's settings.

Terms:
    cards         on the table (real cards, phones report) or on screens (each player plays
                  from their own device; tables.rules.screen_play). Chosen when the event is
                  made, and changed only before the study time begins.
    differences   which hidden clauses the variant draw may use (tournament.rules.cards).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from tables.rules.variants import NEW_CLAUSES, DifferenceSet, clause_meaning
from tournament.common.languages import known_language
from tournament.models import CardsOn, Event, Phase


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's own copy of a choice field, whose choices are set when the form is made."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{name} is not a choice field")
    return field


class EventForm(forms.ModelForm):
    """A new event, or an existing event's settings."""

    class Meta:
        model = Event
        fields = [
            "name",
            "rounds_planned",
            "round_minutes",
            "study_minutes",
            "practice_minutes",
            "cards",
            "paper_only",
            "language",
            "difference_set",
            "disruptive_share",
        ]
        widgets = {
            "cards": forms.RadioSelect,
            "disruptive_share": forms.NumberInput(attrs={"min": 0, "max": 1, "step": 0.05}),
            "name": forms.TextInput(attrs={"autocomplete": "off", "autofocus": True}),
            "rounds_planned": forms.NumberInput(attrs={"min": 1, "max": 20}),
            "round_minutes": forms.NumberInput(attrs={"min": 1, "max": 60}),
            "study_minutes": forms.NumberInput(attrs={"min": 1, "max": 60}),
            "practice_minutes": forms.NumberInput(attrs={"min": 1, "max": 60}),
        }
        labels = {
            "rounds_planned": gettext_lazy("Number of rounds"),
            "round_minutes": gettext_lazy("Round (minutes)"),
            "study_minutes": gettext_lazy("Study (minutes)"),
            "practice_minutes": gettext_lazy("Practice (minutes)"),
            "difference_set": gettext_lazy("Hidden differences"),
            "disruptive_share": gettext_lazy("Disruptive tables, at most (share)"),
        }
        help_texts = {
            "difference_set": gettext_lazy("Used by the next draw of the variants."),
            "disruptive_share": gettext_lazy(
                "“Fewest tricks wins” and “must beat the best card” go to at most this share "
                "of the tables, e.g. 0.2 for one in five."
            ),
        }

    custom_clauses = forms.MultipleChoiceField(
        label=gettext_lazy("Clauses of a custom set"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "custom_clauses").choices = [
            (clause.value, clause_meaning(clause, _)) for clause in NEW_CLAUSES
        ]
        if not self.is_bound:
            self.initial["custom_clauses"] = list(self.instance.custom_clauses or [])
        # A form that leaves them out (an older page, a script) keeps the event's choice.
        self.fields["difference_set"].required = False
        self.fields["disruptive_share"].required = False
        self.fields["language"].required = False
        self.fields["cards"].required = False

    def clean_language(self) -> str:
        if language := self.cleaned_data.get("language"):
            return language
        # A new event speaks the console's language; an existing one keeps its own.
        if self.instance._state.adding:
            return known_language(get_language()) or settings.LANGUAGE_CODE
        return self.instance.language

    def clean_difference_set(self) -> str:
        return self.cleaned_data.get("difference_set") or self.instance.difference_set

    def clean_disruptive_share(self) -> float:
        share = self.cleaned_data.get("disruptive_share")
        return self.instance.disruptive_share if share is None else share

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what super().clean() returns
        chosen = cleaned.get("custom_clauses") or []
        if cleaned.get("cards") == CardsOn.SCREENS and cleaned.get("paper_only"):
            self.add_error(
                "paper_only", _("An event whose cards are on screens needs no paper tally sheet.")
            )
        if cleaned.get("difference_set") == DifferenceSet.CUSTOM and not chosen:
            self.add_error(
                "custom_clauses", _("Tick at least one clause for a custom set of differences.")
            )
        return cleaned

    def save(self, commit: bool = True) -> Event:
        self.instance.custom_clauses = list(self.cleaned_data.get("custom_clauses") or [])
        return super().save(commit)

    def clean_cards(self) -> str:
        cards = self.cleaned_data.get("cards") or self.instance.cards
        event = self.instance
        if not event._state.adding and cards != event.cards and event.phase != Phase.SETUP:
            raise ValidationError(_("The cards stay where they are once the study time has begun."))
        return cards

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise ValidationError(_("Give the event a name."))
        return name

    def clean_rounds_planned(self) -> int:
        rounds = self.cleaned_data["rounds_planned"]
        event = self.instance
        if event.pk is None:
            return rounds
        highest = max((r.number for r in event.rounds.all()), default=0)
        if rounds < highest:
            raise ValidationError(
                _("Round %(number)s is already seated or played, so at least %(number)s rounds.")
                % {"number": highest}
            )
        last_closed_was_last = (
            event.phase in (Phase.BETWEEN_ROUNDS, Phase.DEBRIEF)
            and event.round_number == event.rounds_planned
            and highest == event.round_number
        )
        if rounds > event.rounds_planned and last_closed_was_last:
            raise ValidationError(
                _(
                    "The last round is already closed, without a seating for another round. "
                    "To play more rounds: undo that close, change the number of rounds, "
                    "then close the round again."
                )
            )
        return rounds
