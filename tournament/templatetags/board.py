"""Template tags for the projector's board (templates/projector/_board.html).

Terms:
    standings row       one player and the games they won this round.
    standings fragment  one table's rows in one column of a standings board, under the
                        table's badge (tournament.rules.board_layout.Fragment).

A 500-player board has 500 rows in about 125 fragments, and the projector draws it again
after every report: through the template language that took most of the page's time. So
a standings fragment is written here in one pass, escaped the same way, and kept by its
value and language: a report changes one table's fragment, and the others are taken from
memory. A fragment is a frozen value, so one found in memory is the same HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament.rules.board_layout import Fragment

register = template.Library()

# Enough for every fragment of the largest boards on a few projectors' screens at once,
# in every language; a fragment is a few hundred bytes.
FRAGMENTS_KEPT = 4096
SHORT_BADGE_ROWS = 3  # a fragment of fewer rows has no room for the word "table"


@register.filter
def standing_rows(rows) -> str:
    """``{{ fragment.rows|standing_rows }}``: the <li> of each standings row."""
    return format_html_join(
        "",
        '<li class="row"><bdi class="name">{}</bdi><span class="games{}">{}</span></li>',
        ((row.name, "" if row.games else " is-zero", row.games) for row in rows),
    )


@register.simple_tag
def standings_column(column: Sequence[Fragment]) -> SafeString:
    """``{% standings_column column %}``: the fragments of one column of a standings
    board, as the moves and ladder fragments are drawn in _board.html. A whole column in
    one call: the template language's own loop cost more than the fragments kept."""
    language = get_language()
    # Safe: each fragment is format_html's, its names escaped there.
    return mark_safe("".join(_standings_fragment(fragment, language) for fragment in column))


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _standings_fragment(fragment: Fragment, language: str | None) -> SafeString:
    # ``language`` is part of the key only: gettext reads the active language itself.
    classes = "fragment" + (" is-top" if fragment.group.top else "")
    classes += " is-continued" if fragment.continued else ""
    if fragment.table is None:
        badge = format_html('<span class="badge-number" title="{}">+</span>', _("Back in the game"))
    else:
        small = (
            format_html("<small>{}</small>", _("table"))
            if len(fragment.rows) >= SHORT_BADGE_ROWS
            else ""
        )
        badge = format_html(
            '{}<span class="badge-number"><span class="visually-hidden">{} </span>{}</span>',
            small,
            _("Table"),
            fragment.table,
        )
    return format_html(
        '<div class="{}"><div class="table-badge">{}</div><ol class="rows">{}</ol></div>',
        classes,
        badge,
        standing_rows(fragment.rows),
    )
