"""Template tags for the phones' report forms (templates/phone/).

Terms:
    report fields  the hidden fields every report carries (tables.forms.ReportForm): its
                   round, its game and its client key.

They are written here in one pass rather than through Django's widget templates: a phone
page carries them twice (the confirm box and the winner form), every page and every
report's answer renders them, and the widgets also gave both forms the same ids.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from tables.forms import REPORT_FIELDS, ReportForm

register = template.Library()


@register.simple_tag
def report_fields(form: ReportForm) -> SafeString:
    """``{% report_fields form %}``: the form's hidden report fields, with their values."""
    return format_html_join(
        "",
        '<input type="hidden" name="{}" value="{}">',
        ((name, _text(form[name].value())) for name in REPORT_FIELDS),
    )


def _text(value: object) -> str:
    return "" if value is None else str(value)
