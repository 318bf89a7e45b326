"""Co-facilitators: the people an organizer invites to help run one event.

Terms:
    co-facilitator
             an invitation to help run one event, and (once its link is used) the account
             it signed in: a user without a password, bound to this one invitation.
    role     what a co-facilitator may do: an *observer* watches and takes notes, an
             *assistant* also helps run the room (the capabilities are in
             tournament.writes.cofacilitators).
    revoked  an invitation the organizer withdrew; every console request checks it
             (EventQuerySet.reachable_by), so revoking works at once.
    shown name
             how a person is named on screens and in the report: an organizer by their
             username, a co-facilitator by name and role in the page's language ("Noor ·
             assistante"), never by the account's username ("Noor · assistant #2"), whose
             role is an internal value and whose number only keeps it unique.
    record name
             how the event's record (its JSON file) names an account: an organizer by
             their username, a co-facilitator by name and role in no language ("Noor ·
             assistant", the role's value), never with the account's number. An import
             finds the account again by it when exactly one account of this installation
             has that name and role (accounts_named).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class CoRole(models.TextChoices):
    """What a co-facilitator may do (see tournament.writes.cofacilitators for the capabilities)."""

    OBSERVER = "observer", _("observer")
    ASSISTANT = "assistant", _("assistant")


COFACILITATOR_NAME_MAX_LENGTH = 40


class CoFacilitatorQuerySet(models.QuerySet["CoFacilitator"]):
    def active(self) -> CoFacilitatorQuerySet:
        return self.filter(revoked_at__isnull=True)


class CoFacilitator(models.Model):
    """An invitation to help run one event, and (once its link is used) the account it
    signed in: a user without a password, bound to this one invitation. Revoking sets
    revoked_at; every console request checks it (EventQuerySet.reachable_by)."""

    # By name: tournament.models.event builds on this module.
    event = models.ForeignKey("Event", on_delete=models.CASCADE, related_name="cofacilitators")
    name = models.CharField(_("name"), max_length=COFACILITATOR_NAME_MAX_LENGTH)
    role = models.CharField(_("role"), max_length=10, choices=CoRole, default=CoRole.OBSERVER)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cofacilitation",
    )
    created_at = models.DateTimeField(_("invited"), auto_now_add=True)
    redeemed_at = models.DateTimeField(_("joined"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    objects = CoFacilitatorQuerySet.as_manager()

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("co-facilitator")
        verbose_name_plural = _("co-facilitators")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="cofacilitator_named"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_role_display()})"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_redeemed(self) -> bool:
        return self.redeemed_at is not None


# The username tournament.writes.cofacilitators gives a co-facilitator's account.
_COFACILITATOR_USERNAME = re.compile(r"^(?P<name>.+) · (?P<role>[a-z]+) #\d+$")


def shown_name(username: str) -> str:
    """The shown name (see Terms) of the account with this username."""
    match = _COFACILITATOR_USERNAME.match(username or "")
    if match is None or match["role"] not in CoRole.values:
        return username
    return f"{match['name']} · {CoRole(match['role']).label}"


def record_name(username: str) -> str:
    """The record name (see Terms) of the account with this username."""
    match = _COFACILITATOR_USERNAME.match(username or "")
    if match is None or match["role"] not in CoRole.values:
        return username
    return f"{match['name']} · {match['role']}"


def accounts_named(names: set[str]) -> dict[str, str]:
    """Each record name (see Terms) to the one username of this installation it names: a
    username as it is, a co-facilitator's name and role to its one account with them; a
    name with no account, or with two (two events' "Noor · assistant"), is left out."""
    user_model = get_user_model()
    found = {
        username: username
        for username in user_model.objects.filter(username__in=names).values_list(
            user_model.USERNAME_FIELD, flat=True
        )
    }
    for name in names - set(found):
        candidates = [
            username
            for username in user_model.objects.filter(
                **{f"{user_model.USERNAME_FIELD}__startswith": f"{name} #"}
            ).values_list(user_model.USERNAME_FIELD, flat=True)
            if record_name(username) == name and username != name
        ]
        if len(candidates) == 1:
            found[name] = candidates[0]
    return found
