"""Co-facilitators: invitations, what each role may do, redemption and revocation.

Terms:
    co-facilitator  someone the organizer invites to help run one event: an *observer*
                    (the console read-only, plus notes) or an *assistant* (also enters
                    paper results, adds games and settles disputes). Either sees that one
                    event only.
    invitation      a CoFacilitator row; its one-time link is signed with its own salt
                    (no other signed value passes as one) and names the invitation. Opening
                    it (GET) shows a button; the button's POST redeems it, so a chat app's
                    link preview cannot use it up. Once redeemed the link is spent.
    account         redeeming makes a Django user for that invitation only: no password,
                    not staff, its username the name and role ("Sam · assistant #3"), so
                    the corrections log names who did what.
    revoked         revoked_at is set: the link no longer works and the account's next
                    request is refused (EventQuerySet.reachable_by checks it every time).
    capability      what a request may do to an event, from least to most: view, observe
                    (write notes), assist, organize. The owner (and a superuser) organize.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.common.errors import Refused
from tournament.models import CoFacilitator, CoRole, Event

LINK_SALT = "tournament.writes.cofacilitators.invitation"
LINK_MAX_AGE = 7 * 24 * 60 * 60  # a week: invitations are sent before the event day

CAPABILITIES = ("view", "observe", "assist", "organize")
ROLE_CAPABILITY = {CoRole.OBSERVER: "observe", CoRole.ASSISTANT: "assist"}


@dataclass(frozen=True)
class Access:
    """What one signed-in user may do to one event (see Terms: capability)."""

    capability: str
    cofacilitator: CoFacilitator | None = None

    def allows(self, capability: str) -> bool:
        return CAPABILITIES.index(self.capability) >= CAPABILITIES.index(capability)

    @property
    def organize(self) -> bool:
        return self.allows("organize")

    @property
    def assist(self) -> bool:
        return self.allows("assist")

    @property
    def observe(self) -> bool:
        return self.allows("observe")

    @property
    def role_label(self) -> str:
        if self.cofacilitator is None:
            return _("organizer")
        return self.cofacilitator.get_role_display()


ORGANIZER_ACCESS = Access("organize")


def access_for(user, event: Event) -> Access | None:
    """The user's access to the event, None if they have none (or were revoked)."""
    if user.is_superuser or event.owner_id == user.pk:
        return ORGANIZER_ACCESS
    invitation = CoFacilitator.objects.active().filter(user_id=user.pk, event_id=event.pk).first()
    if invitation is None:
        return None
    return Access(ROLE_CAPABILITY[CoRole(invitation.role)], invitation)


def revoked_invitation(user) -> CoFacilitator | None:
    """The revoked invitation this account was made for, if it was (to say why it is
    refused instead of a bare 404)."""
    if not user.is_authenticated:
        return None
    return CoFacilitator.objects.filter(user_id=user.pk, revoked_at__isnull=False).first()


def invitation_of(user) -> CoFacilitator | None:
    """The invitation this account was made for (revoked or not); None for an organizer.
    One query."""
    if not user.is_authenticated:
        return None
    return CoFacilitator.objects.filter(user_id=user.pk).first()


# --- invitations -------------------------------------------------------------------------


def link_path(invitation: CoFacilitator) -> str:
    token = signing.dumps(invitation.pk, salt=LINK_SALT)
    return reverse("organizer:join", kwargs={"token": token})


def invitation_from_link(token: str) -> CoFacilitator | None:
    """The invitation a link names while it may still be redeemed, else None."""
    try:
        pk = signing.loads(token, salt=LINK_SALT, max_age=LINK_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(pk, int):
        return None
    return CoFacilitator.objects.select_related("event", "user").filter(pk=pk).first()


def invite(*, event: Event, name: str, role: str) -> CoFacilitator:
    name = " ".join(name.split())
    if not name:
        raise Refused(_("Give the co-facilitator a name, so the log can say who did what."))
    if role not in CoRole.values:
        raise Refused(_("Choose observer or assistant."))
    with transaction.atomic():
        Event.objects.lock(event.pk)
        return CoFacilitator.objects.create(event=event, name=name[:40], role=role)


def revoke(*, invitation: CoFacilitator) -> CoFacilitator:
    """Revoke at once: the link stops working and the account's next request is refused."""
    with transaction.atomic():
        Event.objects.lock(invitation.event_id)
        CoFacilitator.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        invitation.refresh_from_db()
    return invitation


def redeem(*, invitation: CoFacilitator):
    """Spend the link: make the invitation's account and return it (to sign in).

    Refused for a revoked invitation or one already redeemed (the link is one-time).
    """
    with transaction.atomic():
        Event.objects.lock(invitation.event_id)
        invitation = CoFacilitator.objects.select_for_update().get(pk=invitation.pk)
        if invitation.is_revoked:
            raise Refused(_("This invitation was revoked. Ask the organizer for a new one."))
        if invitation.is_redeemed:
            raise Refused(_("This invitation was already used. Ask the organizer for a new one."))
        user = get_user_model().objects.create(
            username=f"{invitation.name} · {invitation.role} #{invitation.pk}",
            first_name=invitation.name[:150],
            is_staff=False,
            is_superuser=False,
        )
        user.set_unusable_password()
        user.save(update_fields=["password"])
        invitation.user = user
        invitation.redeemed_at = timezone.now()
        invitation.save(update_fields=["user", "redeemed_at"])
    return user
