"""What a table's printed kit carries: its variant, its phone link, its sheet's language.

Terms:
    variant       a table's hidden rules, drawn from the event's seed (tables.rules.variants)
                  or set by hand.
    locked        after the study phase the players have seen their rules: a variant
                  changes only with the organizer's confirmation, and never once the debrief
                  has started.
    phone link    the table's secret URL (its QR code); a new one makes the old one stop.
    reprint       a change to any of these after the kit was printed marks the table for a
                  reprint (tables.models: needs reprint).

Each function locks the event's row first (Event.objects.lock) and bumps its version, so
every screen refreshes.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from tables.models import VARIANT_FIELDS, Table, variant_warnings
from tables.rules.variants import Variant, classic_variants, draw_variants, redraw_variant
from tournament.common.errors import Refused
from tournament.common.languages import known_language
from tournament.models import Event, Phase


def _refuse_after_study_unless_confirmed(event: Event, confirmed: bool) -> None:
    # The phase is read again: the caller's event may be older than a click on "Start study".
    phase = Event.objects.lock(event.pk).phase
    if not event.tables.exists():
        raise Refused(_("Make the table plan first: variants are drawn for its tables."))
    if phase == Phase.DEBRIEF:
        raise Refused(_("The debrief has started: the variants the tables played are final."))
    if phase != Phase.SETUP and not confirmed:
        raise Refused(
            _("The players have already seen their rules. Confirm to change a variant anyway.")
        )


def _save_variants(event: Event, tables: list[Table], by_hand: bool = False) -> None:
    for table in tables:
        table.variant_set_by_hand = by_hand
    Table.objects.bulk_update(tables, [*VARIANT_FIELDS, "trump", "variant_set_by_hand"])
    Event.objects.bump_version(event.pk)


@transaction.atomic
def redraw_variants(*, event: Event, confirmed: bool = False) -> list[Table]:
    """Draw every table's variant again, with a fresh seed."""
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    variants = draw_variants(
        len(tables),
        secrets.randbelow(1_000_000),
        event.trump_anytime_share,
        clauses=event.draw_clauses,
        disruptive_share=event.disruptive_share,
    )
    for table, variant in zip(tables, variants, strict=True):
        table.set_variant(variant)
    _save_variants(event, tables)
    return tables


@transaction.atomic
def use_classic_variants(*, event: Event, confirmed: bool = False) -> list[Table]:
    """Give tables 1 to 10 the source tournament's own ten rule sheets (the classic set);
    further tables continue it (tables.rules.variants.classic_variants)."""
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    variants = classic_variants(len(tables), event.trump_anytime_share)
    for table, variant in zip(tables, variants, strict=True):
        table.set_variant(variant)
    _save_variants(event, tables)
    return tables


@transaction.atomic
def redraw_table_variant(*, table: Table, confirmed: bool = False) -> Table:
    """Draw one table's variant again, keeping the draw's rules against the other tables:
    it follows the event's difference set (the table may carry one of its clauses, and
    gets back its own while the plan lacks it) and the anytime and disruptive caps."""
    event = table.event
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    index = next(i for i, t in enumerate(tables) if t.pk == table.pk)
    variant = redraw_variant(
        [t.variant for t in tables],
        index,
        secrets.randbelow(1_000_000),
        event.trump_anytime_share,
        clauses=event.draw_clauses,
        disruptive_share=event.disruptive_share,
    )
    tables[index].set_variant(variant)
    _save_variants(event, [tables[index]])
    return tables[index]


@transaction.atomic
def set_table_variant(*, table: Table, variant: Variant, confirmed: bool = False) -> list[str]:
    """Set one table's variant by hand; returns warnings about the whole plan (not errors)."""
    event = table.event
    _refuse_after_study_unless_confirmed(event, confirmed)
    table.set_variant(variant)
    _save_variants(event, [table], by_hand=True)
    return variant_warnings(event.tables.all(), event.trump_anytime_share, event.disruptive_share)


# --- table links and language -----------------------------------------------------


@transaction.atomic
def rotate_table_link(*, table: Table) -> Table:
    """Give a table a new phone link (a lost or photographed QR code); the old one stops.

    The new token and the version bump land together, so no screen polls in between and
    keeps showing the old link as current.
    """
    Event.objects.lock(table.event_id)
    table.rotate_token()
    Event.objects.bump_version(table.event_id)
    return table


@transaction.atomic
def set_sheet_language(*, table: Table, language: str) -> Table:
    """Print a table's rule sheet (and its tent card and guide) in ``language``, or in the
    event's language when it is blank; the kit then marks the table for a reprint."""
    if language and not known_language(language):
        raise Refused(_("Choose a language from the list."))
    Event.objects.lock(table.event_id)
    table.sheet_language = language
    table.save(update_fields=["sheet_language"])
    Event.objects.bump_version(table.event_id)
    return table
