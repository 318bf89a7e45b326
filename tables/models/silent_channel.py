"""What a screen table's players say without words: strokes on the table's drawing pad
and gestures beside their seat. The rules of them are tables.rules.silent_channel.

Terms:
    stroke    one line on a table's pad in a round (``Stroke``), stored once per client
              key, with the game in play when it was drawn (none between games). A
              ``clear`` stroke empties the pad from then on; every stroke stays, so the
              debrief can show the pad as it was at the end of any game.
    gesture   one wordless gesture (``Gesture``) a player made at their table: shown for a
              few seconds on every screen there, kept for the round's story.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models.screen_play import CARD_MAX_LENGTH, CLIENT_KEY_MAX_LENGTH
from tables.rules.silent_channel import GESTURES, STROKE_KINDS
from tournament.models import Player, Round


class Stroke(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="strokes")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="strokes")
    deal = models.ForeignKey(
        "tables.Deal", null=True, blank=True, on_delete=models.SET_NULL, related_name="strokes"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=[(kind, kind) for kind in STROKE_KINDS])
    points = models.JSONField(default=list)  # [[x, y], ...] inside the pad
    # len(points), so a pad's size is summed under the event's lock without reading them.
    point_count = models.PositiveSmallIntegerField(default=0)
    drawn_at = models.DateTimeField(default=timezone.now)
    client_key = models.CharField(max_length=CLIENT_KEY_MAX_LENGTH, unique=True)

    class Meta:
        ordering = ["round", "table", "pk"]
        verbose_name = _("stroke")
        verbose_name_plural = _("strokes")
        indexes = [models.Index(fields=["round", "table"], name="stroke_pad")]

    def __str__(self) -> str:
        return f"{self.table_id} · round {self.round_id} · {self.kind}"


class Gesture(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="gestures")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="gestures")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=[(kind, kind) for kind in GESTURES])
    card = models.CharField(max_length=CARD_MAX_LENGTH, blank=True, default="")
    made_at = models.DateTimeField(default=timezone.now)
    client_key = models.CharField(max_length=CLIENT_KEY_MAX_LENGTH, unique=True)

    class Meta:
        ordering = ["round", "table", "pk"]
        verbose_name = _("gesture")
        verbose_name_plural = _("gestures")
        indexes = [models.Index(fields=["round", "table", "made_at"], name="gesture_recent")]

    def __str__(self) -> str:
        return f"{self.player_id} · {self.kind}"
