"""The warm start learns from any agent spec (`imitation.teacher`): the scripted bot by default, or
`mcts` to distil search into the policy."""

from __future__ import annotations

import numpy as np
import pytest

from ultimata.agents.scripted_agent import scripted_policy
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng, derived_seed
from ultimata.training.config import load_train_config
from ultimata.training.imitation import teacher_samples


def _scripted_agreement(game, obs, actions, seed: int) -> float:
    """Replays the samples' games: the share of moves the scripted bot would have made (observations
    checked along the way)."""
    choose = scripted_policy(game.name)
    def game_and_bot(g: int) -> tuple:  # the deal and the teacher's seed of game g (keys: seed, game, role)
        return game.new_initial_state(Rng(derived_seed(seed, g, 0))), Rng(derived_seed(seed, g, 1))

    (state, rng), g, same = game_and_bot(0), 0, 0
    for k, action in enumerate(actions):
        if state.is_terminal():
            g += 1
            state, rng = game_and_bot(g)
        assert np.array_equal(obs[k], state.observation(state.current_player))
        same += int(choose(state, rng)) == action
        state.apply(int(action))
    return same / len(actions)


def test_the_default_teacher_is_the_scripted_bot_move_for_move():
    game = game_class("ultimatum_cards_v3").from_config({})
    obs, masks, actions, returns = teacher_samples(game, 60, seed=3)
    assert all(masks[k][a] for k, a in enumerate(actions)) and len(returns) == len(actions)
    assert _scripted_agreement(game, obs, actions, seed=3) == 1.0


def test_another_teacher_is_the_one_learned_from():
    game = game_class("ultimatum_cards_v3").from_config({})
    obs, _, actions, _ = teacher_samples(game, 60, seed=3, teacher="random")
    assert _scripted_agreement(game, obs, actions, seed=3) < 0.9


def test_an_mcts_teacher_plays_legal_moves_and_reports_progress():
    game = game_class("ultimatum_cards_v3").from_config({})
    seen: list[int] = []
    obs, masks, actions, _ = teacher_samples(game, 12, seed=0, teacher="mcts:sims=4,time=1", progress=seen.append)
    assert len(actions) >= 12 and seen == list(range(1, len(actions) + 1))
    assert all(masks[k][a] for k, a in enumerate(actions))
    assert obs.shape == (len(actions), *game.observation_shape)


@pytest.mark.parametrize(("teacher", "message"), [
    ("oracle", "imitation.teacher in .*unknown agent spec 'oracle'"),
    ("mcts:sims=lots", "imitation.teacher in .*sims"),
])
def test_a_bad_teacher_is_refused_up_front(teacher, message):
    with pytest.raises(ConfigError, match=message):
        load_train_config("ultimatum_cards_v3", overrides={"imitation": {"teacher": teacher}})


def test_an_mcts_teacher_config_loads():
    cfg = load_train_config("ultimade_v2", overrides={"imitation": {"teacher": "mcts:sims=20", "samples": 500}})
    assert cfg.imitation.teacher == "mcts:sims=20"


def test_the_reported_accuracy_is_the_share_of_teacher_moves_the_policy_picks():
    """Counted in batches (a whole dataset of board observations in one pass would not fit in memory), it
    must equal the policy's own greedy choice checked sample by sample."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from ultimata.training.imitation import imitate

    game = game_class("ultimatum_cards_v3").from_config({})
    space = spaces.Box(-np.inf, np.inf, game.observation_shape, np.float32)
    policy = MaskableActorCriticPolicy(space, spaces.Discrete(game.num_actions), lambda _: 1e-3, net_arch=[16])
    result = imitate(policy, game, samples=50, epochs=1, seed=5, batch_size=7)
    obs, masks, actions, _ = teacher_samples(game, 50, seed=5)
    picked = [policy.predict(o, action_masks=m, deterministic=True)[0] for o, m in zip(obs, masks)]
    assert result["samples"] == len(actions)
    assert result["accuracy"] == pytest.approx(np.mean(np.array(picked) == actions))
