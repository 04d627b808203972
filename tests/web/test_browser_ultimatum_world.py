"""The world wargame in chromium, as a person sees it (issue 42): every nation's name and every sea mark has
a spot of its own on the map, measured with getBoundingClientRect, and amount buttons that move the same
count read differently."""

from __future__ import annotations

from tests.ultimatum_world.positions import position
from ultimata.envs.ultimatum_world import phases as P

from . import test_browser_ultimatum_cards as shared
from .names import env_name

server, browser, page = shared.server, shared.browser, shared.page
"""The card game's fixtures: a test server whose live games a test may set up, chromium, a page."""
click, open_game = shared.click, shared.open_game
WORLD = env_name("ultimatum_world")
BODY = {"game": WORLD, "config": {"num_players": 4, "setup": "dealt"}, "human_seat": 0,
        "opponents": {"1": "random", "2": "random", "3": "random"}, "seed": 3}
BOXES = """() => [...document.querySelectorAll(
  '.board svg .nation-label, .board svg .nation-mark, .board svg .ring, .board svg .sea-mark, .board svg .fleet,'
  + '.board svg .station, .board svg .station-label')].map((e) => {
    const r = e.getBoundingClientRect();
    return { kind: e.getAttribute('class').split(' ')[0], place: e.dataset.place || null, text: e.textContent,
             box: [r.left, r.top, r.right, r.bottom] };
  })"""


def overlap(a: list[float], b: list[float]) -> bool:
    """More than touching (half a pixel of rounding allowed)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def test_no_name_or_mark_on_the_map_overlaps_another(page, server):
    """A name may sit on nothing but the sea and lines; a nation, blockade, anchor, fleet count or laser
    station overlaps no other one (a fleet count sits under its own sea place, a ring around its disc)."""
    open_game(page, server, BODY)
    marks = page.evaluate(BOXES)
    labels = [m for m in marks if m["kind"] == "nation-label"]
    assert len(labels) == 37 and len([m for m in marks if m["kind"] == "sea-mark"]) == 23
    assert min(m["box"][3] - m["box"][1] for m in labels) >= 12, "names are 13 units high, not 9"
    clashes = []
    for i, a in enumerate(marks):
        for b in marks[i + 1:]:
            kinds = {a["kind"], b["kind"]}
            same_place = a["place"] is not None and a["place"] == b["place"] and "nation-label" not in kinds
            rings = kinds == {"ring", "nation-mark"} and a["place"] == b["place"]
            if overlap(a["box"], b["box"]) and not same_place and not rings:
                clashes.append(f"{a['kind']} {a['text'] or a['place']} / {b['kind']} {b['text'] or b['place']}")
    assert not clashes, clashes


def test_placing_three_troops_offers_three_buttons_that_read_differently(page, server):
    state = position(n=4, nations={"North Korea": (0, 1)}, phase=P.BUY)
    state.bank[0] = 3
    state._mask = None
    open_game(page, server, BODY, state)
    click(page, page.locator(".moves > button", has_text="buy as many troops"))
    click(page, page.locator(".board svg [data-action].clickable").first)
    buttons = page.locator(".moves > button").all_inner_texts()
    assert buttons == ["place 1 troop on North Korea", "place 1 troop on North Korea (half of 3: the same as 'one')",
                       "place all 3 troops on North Korea"], buttons
