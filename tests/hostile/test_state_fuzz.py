"""Issue 40: a state dict that is not a position the rules allow is refused with a clear error; none is
accepted and then crashes. Mutants of real mid-game positions, in every registered game."""

import os

import pytest

from tests.hostile.state_fuzz import fuzz
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.registry import game_base_name

POSITIONS = int(os.environ.get("ULTIMATA_STATE_FUZZ", "240")) // 40 or 1
"""Positions per game; each gets 40 mutants (CI: 6 x 40 = 240 a game)."""

HARDENED = {"conquest_of_the_world", "ultimatum_cards", "ultimatum_world"}
"""Games whose loading has been hardened so far (issue 40 lands game by game; all five by its end)."""


@pytest.mark.parametrize("name", [name for name in GAMES if game_base_name(name) in HARDENED])
def test_no_mutated_state_dict_is_accepted_and_then_crashes(name: str) -> None:
    game = game_class(name).from_config({})
    verdict = fuzz(game, positions=POSITIONS, per_position=40, seed=11, limit=3000)
    assert not verdict.crashed, f"{len(verdict.crashed)} crashes:\n" + "\n".join(verdict.crashed[:20])
    assert verdict.refused > 0 and verdict.played > 0
