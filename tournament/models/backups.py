"""Backups kept in the database, for an installation on PostgreSQL.

Terms:
    stored backup  one event's JSON record (tournament.reads.records) as it stood at a
                   moment, kept as a row (``StoredBackup``) rather than a file, so that
                   every app server of an installation sees the same backups with no
                   shared disk (why: tournament.writes.backups).
    name           the name the same backup would have as a file,
                   ``event-12-round-02-20261122T231005.123456Z-closed.json``: how a console
                   message, ``restore_backup`` and ``import_event`` refer to it.

A stored backup names its event by id, not by a foreign key: it outlives the event, since
bringing back an event deleted by mistake is one of the things it is for (file backups
outlive theirs too).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class StoredBackupQuerySet(models.QuerySet["StoredBackup"]):
    def newest_first(self) -> StoredBackupQuerySet:
        return self.order_by("-taken_at", "-name")

    def listed(self) -> StoredBackupQuerySet:
        """Newest first, without the records themselves (a few MB each at 500 players)."""
        return self.newest_first().defer("record")


class StoredBackup(models.Model):
    """One event's JSON record at a moment: a round closed, the debrief started, or the
    organizer asked (see Terms)."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    event_id = models.BigIntegerField(_("event"), db_index=True)
    round_number = models.PositiveSmallIntegerField(_("round"))
    moment = models.CharField(_("moment"), max_length=16)
    taken_at = models.DateTimeField(_("taken at"))
    # The JSON text as a file would hold it, so that it reads back byte for byte.
    record = models.TextField(_("record"))

    objects = StoredBackupQuerySet.as_manager()

    class Meta:
        verbose_name = _("backup")
        verbose_name_plural = _("backups")

    def __str__(self) -> str:
        return self.name
