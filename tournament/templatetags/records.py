"""Template tags for the console's Records section.

Terms: the *records panel* is what that section shows besides its links (see
tournament.views.records.records_panel); the tag lets the console's template read it
without the console's read model touching the backup folder.
"""

from __future__ import annotations

from django import template

from tournament.models import Event
from tournament.views.records import records_panel as read_panel

register = template.Library()


@register.simple_tag
def records_panel(event: Event) -> dict:
    """``{% records_panel event as records %}``: the last backup and the backup folder."""
    return read_panel(event)
