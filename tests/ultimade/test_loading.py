"""Loading a saved ULTIMADE state (issue 40): every field of its exact type and range, and only positions
the rules can reach; each refusal names the field, and the state that was there stays."""

from __future__ import annotations

import json

import pytest

from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.board import parse
from ultimata.envs.ultimade.game import UltimadeGame
from ultimata.envs.ultimade.phases import MONSTER, PLACE

from .positions import position


def saved(state) -> dict:
    return json.loads(json.dumps(state.state_dict()))


def refused(d: dict, match: str) -> None:
    game = UltimadeGame.from_config({})
    state = game.new_initial_state(Rng(0))
    before = state.state_dict()
    with pytest.raises(UltimataError, match=match):
        state.load_state_dict(d)
    assert state.state_dict() == before


def mid_game() -> dict:
    game = UltimadeGame.from_config({})
    return saved(position(game, ["e5", "e8", "a1", "i1"], ["f9", "c16", "g16", "i16"], step="defense"))


@pytest.mark.parametrize("key", ["to_move", "disc", "holder", "phase", "offense", "cycle", "moved", "runner"])
@pytest.mark.parametrize("bad", [1.0, 1.5, True, None, "1", [1]])
def test_every_whole_number_field_refuses_other_types(key: str, bad) -> None:
    d = mid_game()
    d["state"][key] = bad
    refused(d, f"{key}.* must be a whole number")


OUT_OF_RANGE = [("to_move", 2), ("disc", 162), ("holder", 8), ("phase", 7), ("last_roll", 7), ("score", [0, -1]),
                ("pos", [0] * 7), ("surplus", 1), ("last_event", 5)]  # fmt: skip


@pytest.mark.parametrize(("key", "bad"), OUT_OF_RANGE)
def test_out_of_range_values_are_refused_naming_the_field(key: str, bad) -> None:
    d = mid_game()
    d["state"][key] = bad
    refused(d, key)


def test_unknown_and_missing_keys_are_refused() -> None:
    d = mid_game()
    d["state"]["unexpected"] = 1
    refused(d, "unknown")
    d = mid_game()
    del d["state"]["chase"]
    refused(d, "missing")


def test_a_player_set_up_outside_his_endzone_is_refused() -> None:
    state = UltimadeGame.from_config({}).new_initial_state(Rng(0))
    state.apply(parse("c2"))
    d = saved(state)
    assert d["state"]["phase"] == PLACE
    d["state"]["pos"][0] = parse("c9")
    refused(d, "own endzone")


def test_a_monster_defense_choice_without_a_defender_next_to_the_catcher_is_refused() -> None:
    game = UltimadeGame.from_config({})
    state = position(game, ["e5", "e8", "a1", "i1"], ["f9", "c16", "g16", "i16"], step="throw")
    state.apply(parse("e8"))  # A2 catches next to B1 on f9
    d = saved(state)
    assert d["state"]["phase"] == MONSTER
    d["state"]["pos"][4] = parse("h12")
    refused(d, "defender next to the catcher")


def test_chase_must_be_what_the_position_gives() -> None:
    game = UltimadeGame.from_config({})
    d = saved(position(game, ["a1", "b1", "c1", "d1"], ["e16", "a18", "c17", "i16"], holder=None, disc="i3"))
    assert d["state"]["chase"] == 1
    d["state"]["chase"] = 0
    refused(d, "chase must be 1")


def test_a_surplus_flag_without_two_markers_is_refused_in_the_new_offenses_step() -> None:
    d = mid_game()  # A's defense step is next: make it the offense's step with one marker and the flag on
    d["state"].update(to_move=0, surplus=True)
    refused(d, "surplus")


def test_a_step_with_only_done_left_is_refused() -> None:
    game = UltimadeGame.from_config({})
    d = saved(position(game, ["e8", "e10", "a3", "i3"], ["a16", "c16", "g16", "i16"]))
    d["state"]["moved"] = 0b1110  # A2-A4 ran; A1 holds the disc: the step would have ended by itself
    refused(d, "ends by itself")
