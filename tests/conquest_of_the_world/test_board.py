"""The board as the book prints it (43 countries, 11 zones, each power base), our neighbours, and the
validators of the two data files."""

import pytest

from ultimata.envs.conquest_of_the_world.board import parse_board
from ultimata.envs.conquest_of_the_world.combat import parse_battle
from ultimata.envs.core.errors import ConfigError

from .positions import B, c

BOOK = {
    1: {"Canada": 7, "United States": 30, "Mexico": 5},
    2: {"Romania": 2, "Poland": 3, "U.S.S.R.": 30, "Czechoslovakia": 1, "East Germany": 2, "Cuba": 1},
    3: {"Vietnam": 3, "China": 13, "North Korea": 2},
    4: {"Greece": 1, "Italy": 5, "West Germany": 10, "Spain": 4, "France": 8, "United Kingdom": 8, "Norway": 2},
    5: {"Iran": 5, "Saudi Arabia": 4, "Iraq": 3, "Syria": 1, "Jordan": 1, "Israel": 3, "Egypt": 5, "Libya": 3},
    6: {"Afghanistan": 2, "Pakistan": 4, "India": 6, "Bangladesh": 2},
    7: {"Philippines": 3, "Indonesia": 6},
    8: {"Taiwan": 3, "Japan": 10, "South Korea": 3},
    9: {"Venezuela": 2, "Columbia": 3, "Brazil": 6, "Argentina": 5},
    10: {"South Africa": 4, "Nigeria": 5},
    11: {"Australia": 4},
}


def test_rule_1a_the_board_has_the_books_43_countries_in_11_zones_with_each_value():
    assert B.size == 43 and len(B.zone_members) == 11
    for zone, countries in BOOK.items():
        assert [B.names[i] for i in B.zone_members[zone - 1]] == list(countries)
        for name, value in countries.items():
            assert B.value[c(name)] == value and B.zone[c(name)] == zone - 1
    assert B.value[c("United States")] == 30  # rule 1A's example: 30,000 PBU


def test_neighbours_are_symmetric_and_every_country_has_one():
    for i, near in enumerate(B.neighbours):
        assert near and all(i in B.neighbours[j] for j in near)
    assert set(B.neighbours[c("United States")]) == {c("Canada"), c("Mexico"), c("Cuba"), c("U.S.S.R.")}
    assert set(B.neighbours[c("West Germany")]) == {c("France"), c("Czechoslovakia"), c("East Germany")}


def test_board_validator_names_the_file_entry_and_field():
    raw = {"zones": {k: dict(v) for k, v in BOOK.items()}, "neighbours": {"Canada": ["Atlantis"]}}
    with pytest.raises(ConfigError, match="board.yaml: entry 'neighbours', field 'Canada'"):
        parse_board(raw)
    raw["zones"][1]["Canada"] = 0
    with pytest.raises(ConfigError, match="entry 'zone 1', field 'Canada'"):
        parse_board(raw)
    del raw["zones"][11]
    with pytest.raises(ConfigError, match="zones must be numbered"):
        parse_board(raw)


def test_battle_validator_names_the_entry_and_field():
    good = {"weapons": ["tank", "submarine", "plane"], "spend_levels": ["cautious", "steady", "all_out"],
            "hit": {w: {"tank": 30, "submarine": 30, "plane": 30} for w in ("tank", "submarine", "plane")},
            "cost": {"cautious": 100, "steady": 200, "all_out": 300},
            "bonus": {"cautious": -10, "steady": 0, "all_out": 10},
            "burn": {"tank": 100, "submarine": 125, "plane": 150}, "tree_penalty": 15}
    model = parse_battle(good)
    assert model.cost[2][2] == 450 and model.chance(0, 1, 2, wooded=True) == 30 + 10 - 15
    good["hit"]["plane"]["tank"] = 120
    with pytest.raises(ConfigError, match="battle.yaml: entry 'hit', field 'plane'"):
        parse_battle(good)
