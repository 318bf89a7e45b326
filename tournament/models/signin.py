"""Password sign-ins that have not succeeded, counted to slow down guessing.

Terms:
    attempt  a password sign-in under way or failed (``SignInAttempt``), with the account
             it named and the client address it came from.
    window   the recent span over which tournament.writes.signin counts attempts per
             account from one address, and per address; older rows are pruned.
"""

from __future__ import annotations

from datetime import datetime

from django.db import models
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _


class SignInAttemptQuerySet(models.QuerySet["SignInAttempt"]):
    def since(self, moment: datetime) -> SignInAttemptQuerySet:
        return self.filter(attempted_at__gte=moment)

    def counts(self, *, username: str, address: str, since: datetime) -> tuple[int, int]:
        """How many attempts in the window named this account from this address, and came
        from this address, in one query. An empty username (a cleared account's rows)
        counts for no account."""
        totals = self.since(since).aggregate(
            account=Count("pk", filter=Q(username=username, address=address) & ~Q(username="")),
            address=Count("pk", filter=Q(address=address)),
        )
        return totals["account"], totals["address"]

    def newest_times(self, n: int) -> list[datetime]:
        return list(self.order_by("-attempted_at").values_list("attempted_at", flat=True)[:n])


class SignInAttempt(models.Model):
    """A password sign-in that has not succeeded: under way, or failed.

    tournament.writes.signin writes one before it checks a password and counts them per
    account from one client address, and per client address, over a window, in the
    database so that every server worker (process) sees the same counts. A success
    deletes its own row and blanks the account's name on the others, which then count
    for their address only; rows older than the window are pruned on the next attempt.
    """

    # As typed at the sign-in form, casefolded; blank once the account has signed in.
    username = models.CharField(max_length=150, blank=True)
    address = models.CharField(max_length=64)
    attempted_at = models.DateTimeField(db_index=True)

    objects = SignInAttemptQuerySet.as_manager()

    class Meta:
        verbose_name = _("sign-in attempt")
        verbose_name_plural = _("sign-in attempts")
        indexes = [
            models.Index(fields=["username", "attempted_at"], name="signin_attempt_account"),
            models.Index(fields=["address", "attempted_at"], name="signin_attempt_address"),
        ]

    def __str__(self) -> str:
        return f"{self.username or '-'} from {self.address} at {self.attempted_at:%H:%M:%S}"
