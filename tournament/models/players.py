"""The players of an event's roster.

Terms:
    player    one person on an event's roster, named once per event: two names that differ
              only in case or accents are the same name (``name_key``,
              tournament.rules.roster).
    status    *present* players are seated in the next round; *absent* ones sit it out;
              *removed* ones leave the roster but stay in the database, so that past rounds
              stay as they were.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event
from tournament.models.tokens import new_secret_token
from tournament.rules.roster import (
    bidi_controls,
    code_point,
    control_characters,
    same_name_key,
    shown,
)

PLAYER_NAME_MAX_LENGTH = 40
# The most players an event takes, removed ones included: far above any room (the app is
# made for 10 to 500), it keeps a roster or an imported record from making an event whose
# console takes minutes to draw.
EVENT_MAX_PLAYERS = 2000


class PlayerStatus(models.TextChoices):
    PRESENT = "present", _("Present")
    ABSENT = "absent", _("Absent")
    REMOVED = "removed", _("Removed")


class PlayerQuerySet(models.QuerySet["Player"]):
    def bulk_create(self, objs, *args, **kwargs):
        # bulk_create skips save(), where the name key is set.
        objs = list(objs)
        for player in objs:
            player.name_key = same_name_key(player.name)
        return super().bulk_create(objs, *args, **kwargs)

    def seatable(self) -> PlayerQuerySet:
        return self.filter(status=PlayerStatus.PRESENT)

    def on_roster(self) -> PlayerQuerySet:
        return self.exclude(status=PlayerStatus.REMOVED)


def validate_player_name(name: str) -> None:
    """A name is text and nothing else (tournament.rules.roster: Terms: control, bidi
    control): what the admin, or any form built on the model, saves is checked too."""
    if controls := control_characters(name, spaces=False):
        raise ValidationError(
            _(
                "“%(name)s” holds a control character (%(character)s), which cannot be part "
                "of a name."
            ),
            code="control",
            params={"name": shown(name), "character": code_point(controls[0])},
        )
    if marks := bidi_controls(name):
        raise ValidationError(
            _(
                "“%(name)s” holds an invisible direction mark (%(character)s), which could "
                "make it look like another name."
            ),
            code="bidi",
            params={"name": shown(name), "character": code_point(marks[0])},
        )


class Player(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(
        _("name"), max_length=PLAYER_NAME_MAX_LENGTH, validators=[validate_player_name]
    )
    # The name with case and accents folded, computed in Python (tournament.rules.roster), so
    # SQLite and PostgreSQL refuse exactly the names the roster check refuses.
    name_key = models.TextField(editable=False, default="")
    # Removed players stay in the database so that past rounds stay as they were.
    status = models.CharField(
        _("status"), max_length=10, choices=PlayerStatus, default=PlayerStatus.PRESENT
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The player's own link at a screen event (/t/p/<token>/): it holds their seat and hand.
    token = models.CharField(max_length=64, unique=True, default=new_secret_token)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "name_key"],
                name="player_name_unique_per_event",
                violation_error_message=_("This event already has a player with that name."),
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = same_name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)
