"""The map and rules data against the book's numbers, and clear errors for bad data."""

from __future__ import annotations

import copy

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.ultimatum_world.content import (
    BOOK_WORLDPOWERS,
    _connected,
    _load,
    default_rules_raw,
    parse_rules,
    parse_world,
    world,
)

W = world()


def test_the_books_counts_37_nations_in_11_10_10_6_six_worldpowers_outside_oil():
    assert W.size == 37
    assert [len(m) for m in W.members] == [11, 10, 10, 6]
    assert {W.names[x] for x in range(37) if W.worldpower[x]} == BOOK_WORLDPOWERS
    assert not any(W.worldpower[x] for x in W.members[3])
    assert W.sea_size == 14 + 9 and len(W.station_at) == 6


def test_the_world_is_connected_and_every_blockade_links_nations_with_its_number():
    assert _connected(W)
    for b, shore in enumerate(W.coast):
        assert len(shore) >= 2 and all(b in W.seas[x] for x in shore)
    for t in range(14, 23):
        assert all(u < 14 for u in W.sea_links[t]), "anchors link blockades only"


def test_book_examples_britain_2_france_2_and_an_anchor_numbered_6_4_3_7():
    assert 1 in W.seas[W.nation("Great Britain")] and 1 in W.seas[W.nation("France")]
    assert (3, 4, 6, 7) in W.anchor_numbers


def test_borders_are_symmetric():
    for x, near in enumerate(W.borders):
        assert all(x in W.borders[y] for y in near)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda m: m["nations"].pop("Cuba"), "Communist Alliance has 10 nations, got 9"),
    (lambda m: m["nations"]["Canada"].update(worldpower=True), "Worldpowers"),
    (lambda m: m["nations"]["Canada"]["borders"].append("Atlantis"), "entry 'nations/Canada', field 'borders'"),
    (lambda m: m["nations"]["Canada"]["seas"].append(15), "no blockade numbered 15"),
    (lambda m: m["anchors"][0]["numbers"].append(99), "entry 'anchors/0', field 'numbers'"),
    (lambda m: m["anchors"].pop(), "9 anchors"),
    (lambda m: m["nations"]["Canada"].update(colour="red"), "entry 'nations/Canada', field 'colour'"),
])
def test_a_bad_map_is_refused_naming_the_entry_and_field(edit, message):
    raw = copy.deepcopy(_load("map.yaml"))
    edit(raw)
    with pytest.raises(ConfigError, match=message):
        parse_world(raw)


def test_the_deck_has_72_cards_and_bad_rules_data_is_named():
    rules = game_class("ultimatum_world_v4").from_config({}).rules
    assert len(rules.deck) == 72
    raw = copy.deepcopy(default_rules_raw())
    raw["cards"]["jet_bomber"]["count"] += 1
    with pytest.raises(ConfigError, match="72 cards"):
        parse_rules(raw)
    raw = copy.deepcopy(default_rules_raw())
    raw["dice"]["green"] = ["WIN", "MAYBE"]
    with pytest.raises(ConfigError, match="entry 'dice/green'"):
        parse_rules(raw)


def test_the_books_prices_troop_1_battleship_2_submarine_5_laser_10_are_the_rules_data():
    prices = game_class("ultimatum_world_v4").from_config({}).rules.prices
    assert (prices.troop, prices.battleship, prices.submarine, prices.laser) == (1, 2, 5, 10)
    raw = copy.deepcopy(default_rules_raw())
    raw["prices"]["laser"] = 0
    with pytest.raises(ConfigError, match="entry 'prices', field 'laser'"):
        parse_rules(raw)
    raw["prices"].pop("laser")
    with pytest.raises(ConfigError, match="entry 'prices', field 'laser'"):
        parse_rules(raw)


def test_config_overrides_dice_and_card_counts_and_refuses_unknown_kinds():
    game = game_class("ultimatum_world_v4").from_config(
        {"dice": {"black": [1, 2, 3, 4, 5, 6], "red": [2], "green": ["WIN"]},
         "cards": {"jet_bomber": 12, "airlift": 6}})
    assert game.rules.red == (2,) and len(game.rules.deck) == 72
    with pytest.raises(ConfigError, match="unknown card kind"):
        game_class("ultimatum_world_v4").from_config({"cards": {"nuke": 1}})
    with pytest.raises(ConfigError, match="max_rounds"):
        game_class("ultimatum_world_v4").from_config({"max_rounds": 0})


def test_the_rules_doc_states_the_action_and_observation_sizes_the_game_has():
    import re
    from pathlib import Path

    from ultimata.envs.ultimatum_world.actions import NUM_ACTIONS
    from ultimata.envs.ultimatum_world.observation import OBS_SIZE, SIZES

    doc = (Path(__file__).parents[2] / "docs" / "games" / "ultimatum_world.md").read_text()
    assert f"## Actions ({NUM_ACTIONS}, fixed" in doc
    assert re.search(rf"## Observation \({OBS_SIZE:,} float32", doc)
    for block in SIZES:
        assert f"\n| {block} |" in doc, f"the observation block {block} is in the doc's table"
