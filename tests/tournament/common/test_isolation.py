"""Player names isolated in a page: each in a <bdi> of its own, escaped."""

from __future__ import annotations

from django.template import Context, Template

from tournament.common.isolation import bdi, bdi_join, with_names


def test_a_name_is_escaped_inside_its_own_bdi():
    assert bdi("<b>Bo</b> & co") == "<bdi>&lt;b&gt;Bo&lt;/b&gt; &amp; co</bdi>"
    assert bdi_join(["محمد", "<i>"], " / ") == "<bdi>محمد</bdi> / <bdi>&lt;i&gt;</bdi>"


def test_a_sentence_isolates_only_the_names_and_escapes_the_rest():
    said = with_names(
        "%(name)s won game %(number)s <now>", {"name": "שרה 2", "number": 3}, names={"name"}
    )
    assert said == "<bdi>שרה 2</bdi> won game 3 &lt;now&gt;"


def test_every_template_has_the_filters_without_loading_them():
    page = Template("{{ name|bdi }} · {{ names|bdi_join:', ' }} · [{{ none|bdi }}]").render(
        Context({"name": "محمد علي", "names": ["Łukasz", "<b>"], "none": None})
    )
    assert page == "<bdi>محمد علي</bdi> · <bdi>Łukasz</bdi>, <bdi>&lt;b&gt;</bdi> · []"
