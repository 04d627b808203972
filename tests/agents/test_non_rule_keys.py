"""`max_decisions` (a cap on an episode's length) and `dense_reward` (a shaping reward) are not rules a
policy depends on: a checkpoint, `pretrained` and `hard` stay available when only they change. The first
test is why that is sound: the engine never reads them, so a policy sees the same positions either way."""

from __future__ import annotations

import numpy as np
import pytest

from ultimata.agents import load_agent
from ultimata.agents.checkpoint import NOT_RULES, check_compatible, read_meta
from ultimata.agents.specs import pretrained_path
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.rng import Rng
from ultimata.training.config import load_train_config
from ultimata.web.opponents import Opponents

SHIPPED = [name for name in sorted(GAMES) if pretrained_path(name).exists()]


def _changed(name: str, rules: dict) -> dict:
    """`rules` with every non-rule key moved off its value (dense_reward only where the game has one)."""
    game = game_class(name).from_config(rules)
    changed = {**rules, "max_decisions": game.config.max_decisions + 7}
    if game.supports_dense_reward:
        changed["dense_reward"] = not game.config.dense_reward
    return changed


def test_the_non_rule_keys_are_the_base_configs_episode_settings():
    from ultimata.envs.core.config import GameConfig

    assert set(NOT_RULES) == set(GameConfig.model_fields)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_engine_plays_the_same_positions_whatever_the_non_rule_keys_say(name):
    plain, changed = (game_class(name).from_config(c) for c in ({}, _changed(name, {})))
    states = [game.new_initial_state(Rng(7)) for game in (plain, changed)]
    pick = np.random.default_rng(7)
    for _ in range(150):
        if states[0].is_terminal():
            break
        seat = states[0].current_player
        assert seat == states[1].current_player
        assert np.array_equal(states[0].observation(seat), states[1].observation(seat))
        mask = states[0].legal_action_mask()
        assert np.array_equal(mask, states[1].legal_action_mask())
        action = int(pick.choice(np.flatnonzero(mask)))
        for state in states:
            state.apply(action)
    same, other = ({k: v for k, v in state.state_dict().items() if k != "config"} for state in states)
    assert same == other, "the config the state records aside, the two games are one"


@pytest.mark.parametrize("name", SHIPPED)
def test_pretrained_and_hard_stay_available_when_only_non_rule_keys_change(name):
    rules = _changed(name, load_train_config(name).rules)
    check_compatible(read_meta(pretrained_path(name)), game_class(name).from_config(rules), "the shipped bot")
    assert load_agent("pretrained", name, rules).spec == "pretrained"
    offered = {o["spec"] for o in Opponents(None).offered(name, rules)}
    assert {"pretrained", "hard"} <= offered


def test_a_checkpoint_trained_with_a_shaping_reward_plays_without_it(tiny_checkpoint):
    load_agent(str(tiny_checkpoint), "ultimatum_cards_v3", {"dense_reward": True, "max_decisions": 50})
