"""The projector read from the back of a 20-metre room, at 1920x1080: one event walked
through every phase, each screen measured in the browser.

Terms:
    time up      a study, practice or round screen whose clock ran out: its words on the
                 red stage or band, measured like the rest.
    text node    a visible piece of text the room reads: not hidden, not the screen-reader
                 copy (.visually-hidden), not the corner controls (they are for whoever
                 sets the projector up, and leave in full screen), not the letters drawn
                 in a pictogram (the "Abc" of "No written words": a picture, hidden from
                 screen readers, its caption beside it).
    size         the computed font-size of the text's element, in CSS pixels; for text
                 inside an SVG chart, the height its glyphs get once the chart is scaled to
                 its box (the font-size times the SVG's scale).
    contrast     WCAG's contrast ratio between the text's colour and the colour behind it:
                 the first ancestor (SVG shapes included, for a chart's text) with an
                 opaque background.
    content box  the box of anything on the stage that shows text, a chart or a card; the
                 corner controls must not overlap one.

With SHOTS=1 the screens of the acceptance (round board, moves, reveal, paths) are also
saved at 1080p and 720p under /tmp/shots-i24-projector/ to be looked at.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tests.browser.conftest import PROJECTOR, clock_ticked
from tests.browser.test_screenshots import play, room
from tournament.models import DebriefStep, Phase
from tournament.writes.debrief_bank import set_paths_highlight
from tournament.writes.rounds import advance_phase, reveal_rules, start_debrief, step_debrief

pytestmark = pytest.mark.django_db(transaction=True)

MIN_PX = 28
MIN_CONTRAST = 7.0
# The reveal's rule lines (direction, trump, clauses), which the room reads side by side.
MIN_RULE_PX = 32
SHOTS = Path("/tmp/shots-i24-projector") if os.environ.get("SHOTS") else None
CHART_SHOTS = Path("/tmp/shots-i24-charts") if os.environ.get("SHOTS") else None
SMALL = {"width": 1280, "height": 720}

MEASURE = """() => {
  const parse = (value) => {
    const m = value.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a] = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r, g, b, a: a === undefined ? 1 : a};
  };
  const luminance = ({r, g, b}) => {
    const channel = (c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const ratio = (x, y) => {
    const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
    return (hi + 0.05) / (lo + 0.05);
  };
  const over = (top, below) => ({
    r: top.r * top.a + below.r * (1 - top.a), g: top.g * top.a + below.g * (1 - top.a),
    b: top.b * top.a + below.b * (1 - top.a), a: 1});
  // Behind an SVG text: the last shape drawn before it whose box holds the text's middle.
  const svgGround = (text) => {
    const svg = text.ownerSVGElement;
    const box = text.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    let found = null;
    for (const shape of svg.querySelectorAll('rect, circle, path, polygon')) {
      if (shape.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_PRECEDING) continue;
      const fill = parse(getComputedStyle(shape).fill || '');
      if (!fill || fill.a < 1) continue;
      const s = shape.getBoundingClientRect();
      if (x >= s.left && x <= s.right && y >= s.top && y <= s.bottom) found = fill;
    }
    return found;
  };
  const ground = (el) => {
    if (el instanceof SVGElement && el.ownerSVGElement) {
      const fill = svgGround(el);
      if (fill) return fill;
    }
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour && colour.a > 0) { layers.push(colour); if (colour.a >= 1) break; }
    }
    return layers.reduceRight((below, top) => over(top, below), {r: 255, g: 255, b: 255, a: 1});
  };
  const shown = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden' ||
          style.opacity === '0') return false;
    }
    return el.getClientRects().length > 0;
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el) continue;
    if (el.closest('.visually-hidden, .screen-tools, script, style, noscript, title, desc, ' +
                   'svg[aria-hidden="true"]')) {
      continue;
    }
    if (!shown(el)) continue;
    const style = getComputedStyle(el);
    let px = parseFloat(style.fontSize);
    if (el instanceof SVGElement && el.ownerSVGElement) {
      const matrix = el.getScreenCTM();
      px *= matrix ? Math.hypot(matrix.a, matrix.b) : 1;
    }
    let ink = parse(el instanceof SVGElement ? style.fill : style.color);
    const behind = ground(el);
    if (ink.a < 1) ink = over(ink, behind);
    // Opacity on the way up fades the ink into its ground.
    let opacity = 1;
    for (let n = el; n; n = n.parentElement) opacity *= parseFloat(getComputedStyle(n).opacity);
    if (opacity < 1) ink = over({...ink, a: opacity}, behind);
    texts.push({text: node.textContent.trim().slice(0, 40), px: Math.round(px * 10) / 10,
                contrast: Math.round(ratio(ink, behind) * 100) / 100,
                where: el.tagName.toLowerCase() + '.' + (el.getAttribute('class') || '')});
  }
  const tools = [...document.querySelectorAll('.screen-tools > *')].filter(shown)
      .map((el) => el.getBoundingClientRect());
  const content = [...document.querySelectorAll(
      '#stage *:not(svg *)')].filter((el) => shown(el) && !el.closest('.visually-hidden') && (
      [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()) ||
      el.matches('svg, .rule-card, .row, .table-badge')));
  const overlaps = [];
  for (const el of content) {
    const box = el.getBoundingClientRect();
    for (const tool of tools) {
      if (box.left < tool.right && tool.left < box.right && box.top < tool.bottom &&
          tool.top < box.bottom) {
        overlaps.push((el.getAttribute('class') || el.tagName) + ' "' +
                      el.textContent.trim().slice(0, 40) + '"');
      }
    }
  }
  return {texts, overlaps};
}"""


# The rule lines' sizes; how much of a card's height its words take, on the fullest card (a
# card keeps room for the clause lines the page's other cards have); words out of a card.
RULE_LINES = """() => {
  const cards = [...document.querySelectorAll('.rules-page.is-current .rule-card')];
  const lines = cards.flatMap((card) => [...card.querySelectorAll(
      '.rule-direction, .rule-trump, .rule-clause')]);
  const fill = (card) => {
    const box = card.getBoundingClientRect();
    const parts = [...card.children].filter((el) => el.getClientRects().length &&
        !el.classList.contains('visually-hidden') && el.textContent.trim());
    const top = Math.min(...parts.map((el) => el.firstElementChild && el.classList.contains(
        'rule-extra') ? el.firstElementChild.getBoundingClientRect().top :
        el.getBoundingClientRect().top));
    const inks = parts.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().bottom;
    });
    return {share: (Math.max(...inks) - top) / box.height, out: Math.max(...inks) > box.bottom};
  };
  return {px: lines.map((el) => parseFloat(getComputedStyle(el).fontSize)),
          fill: Math.max(...cards.map((card) => fill(card).share)),
          spill: cards.filter((card) => fill(card).out).length};
}"""


def measure(page, name: str, problems: list[str]) -> dict:
    """The screen's smallest text and lowest contrast; what falls short goes to problems."""
    found = page.evaluate(MEASURE)
    texts = found["texts"]
    assert texts, f"{name}: no text measured"
    small = [t for t in texts if t["px"] < MIN_PX]
    faint = [t for t in texts if t["contrast"] < MIN_CONTRAST]
    if small:
        problems.append(f"{name}: text under {MIN_PX} px: {small[:8]}")
    if faint:
        problems.append(f"{name}: contrast under {MIN_CONTRAST}:1: {faint[:8]}")
    if found["overlaps"]:
        problems.append(f"{name}: the corner controls cover {found['overlaps'][:4]}")
    return {"smallest": min(t["px"] for t in texts), "contrast": min(t["contrast"] for t in texts)}


def test_every_projector_screen_reads_from_the_back_of_the_room(
    live_server, new_context, organizer
):
    event = room(organizer, 24, 6, rounds_planned=2)
    # Clause lines on the reveal: one card with three of them, two with one.
    event.tables.filter(number=1).update(fewest_wins=True)
    event.tables.filter(number=2).update(trump_anytime=True, must_overtake=True, fewest_wins=True)
    event.tables.filter(number=3).update(trumps_broken=True)
    url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    page = new_context(viewport=PROJECTOR, reduced_motion="reduce").new_page()
    small = new_context(viewport=SMALL, reduced_motion="reduce").new_page() if SHOTS else None
    smallest: dict[str, dict] = {}
    problems: list[str] = []

    def look(name: str) -> None:
        page.goto(url)
        page.wait_for_selector("#stage")
        if page.locator("[data-clock-seconds]").count():
            clock_ticked(page)
        smallest[name] = measure(page, name, problems)
        if SHOTS:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{name}-1080p.png"))
            small.goto(url)
            small.wait_for_selector("#stage")
            small.screenshot(path=str(SHOTS / f"{name}-720p.png"))
            # At 720p everything is two thirds as big: only reported, for the note.
            texts = small.evaluate(MEASURE)["texts"]
            smallest[name]["720p"] = min(text["px"] for text in texts)

    def time_up(name: str) -> None:
        """The same screen once its clock ran out: white words on the red stage."""
        event.clock_ends_at = timezone.now() - timedelta(seconds=5)
        event.save_and_bump(["clock_ends_at"])
        look(name)
        assert page.locator("#stage.is-time-up").count() == 1, f"{name}: time is not up"

    look("welcome")
    event = advance_phase(event=event)
    assert event.phase == Phase.STUDY
    look("study")
    time_up("study-time-up")
    event = advance_phase(event=event)
    assert event.phase == Phase.PRACTICE
    look("practice")
    time_up("practice-time-up")
    event = play(factories.start_rounds(event))
    look("round-board")
    time_up("round-time-up")
    event = factories.close_current_round(event, organizer)
    look("moves")
    event = advance_phase(event=event)
    event = factories.close_current_round(play(event), organizer)
    event.refresh_from_db()
    if event.phase != Phase.DEBRIEF:
        event = start_debrief(event=event)
    # The biggest climbers and fallers named on the paths chart.
    event = set_paths_highlight(event=event, highlight="climbers")
    steps = (DebriefStep.OPENING, DebriefStep.DISPUTES, DebriefStep.CLASHES, DebriefStep.PATHS)
    for step in (*steps, DebriefStep.FLOW, DebriefStep.RESULTS):
        event = step_debrief(event=event, to_step=step)
        look(f"debrief-{step.name.lower()}")
    event = reveal_rules(event=event)
    event = step_debrief(event=event, to_step=DebriefStep.REVEAL)
    look("reveal")
    sizes = page.evaluate(RULE_LINES)
    assert min(sizes["px"]) >= MIN_RULE_PX, sizes
    assert sizes["fill"] >= 0.75, f"the rule lines leave their cards empty: {sizes}"
    assert sizes["spill"] == 0, f"words run out of a card: {sizes}"
    print(smallest)
    assert problems == [], "\n".join(problems)


# The size of each debrief chart's drawing at 1080p, in CSS pixels per SVG unit.
CHART_SCALE = """() => {
  const svg = document.querySelector('svg.chart');
  const m = svg.getScreenCTM();
  const box = svg.getBoundingClientRect();
  return {scale: Math.hypot(m.a, m.b), width: box.width, height: box.height};
}"""


# 125 tables (500 players) take minutes to seat and play: only for the screenshots.
@pytest.mark.parametrize("tables", [30, 125] if CHART_SHOTS else [30])
def test_the_debrief_charts_read_from_the_back_of_the_room_with_many_tables(
    live_server, new_context, organizer, tables
):
    event = room(organizer, tables * 4, tables, rounds_planned=2)
    event = factories.close_current_round(play(factories.start_rounds(event)), organizer)
    event = advance_phase(event=event)
    event = factories.close_current_round(play(event), organizer)
    event.refresh_from_db()
    if event.phase != Phase.DEBRIEF:
        event = start_debrief(event=event)
    url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    page = new_context(viewport=PROJECTOR, reduced_motion="reduce").new_page()
    smallest: dict[str, dict] = {}
    problems: list[str] = []
    for step in (DebriefStep.DISPUTES, DebriefStep.CLASHES, DebriefStep.FLOW):
        event = step_debrief(event=event, to_step=step)
        name = f"debrief-{step.name.lower()}-{tables}-tables"
        page.goto(url)
        page.wait_for_selector("svg.chart")
        smallest[name] = {**measure(page, name, problems), **page.evaluate(CHART_SCALE)}
        if CHART_SHOTS:
            CHART_SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(CHART_SHOTS / f"{name}-1080p.png"))
    print(smallest)
    assert problems == [], "\n".join(problems)


def test_the_french_debrief_reads_from_the_back_of_the_room(live_server, new_context, organizer):
    """French says most in the most words: the clashes' sentence runs to four lines, and
    the chart below it must not shrink under 28 px for it."""
    event = room(organizer, 24, 6, rounds_planned=2, language="fr")
    # Every kind of clash met: the sentence says each, the legend names each.
    event.tables.filter(number=1).update(fewest_wins=True)
    event.tables.filter(number=2).update(trump_anytime=True, must_overtake=True, fewest_wins=True)
    event.tables.filter(number=3).update(trumps_broken=True)
    event = factories.close_current_round(play(factories.start_rounds(event)), organizer)
    event = advance_phase(event=event)
    event = factories.close_current_round(play(event), organizer)
    event.refresh_from_db()
    if event.phase != Phase.DEBRIEF:
        event = start_debrief(event=event)
    url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    page = new_context(viewport=PROJECTOR, reduced_motion="reduce").new_page()
    smallest: dict[str, dict] = {}
    problems: list[str] = []
    for step in (DebriefStep.DISPUTES, DebriefStep.CLASHES, DebriefStep.PATHS, DebriefStep.FLOW):
        event = step_debrief(event=event, to_step=step)
        name = f"debrief-{step.name.lower()}-fr"
        page.goto(url)
        page.wait_for_selector("svg.chart")
        assert page.locator("html").get_attribute("lang") == "fr"
        smallest[name] = measure(page, name, problems)
        if SHOTS:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{name}-1080p.png"))
    print(smallest)
    assert problems == [], "\n".join(problems)
