"""DAgger rounds of the warm start (`imitation.dagger_rounds`): the policy plays, the teacher labels the
positions the policy reached, and the policy is refit on everything so far."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from ultimata.agents.policy_agent import PolicyAgent
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng, derived_seed
from ultimata.training.config import load_train_config
from ultimata.training.imitation import DaggerPlan, imitate, student_samples

GAME = "ultimatum_cards_v3"


class Lowest:
    """Always the lowest legal action: a teacher or opponent whose every move a test can predict."""

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation, action_mask, state=None) -> int:
        return int(np.flatnonzero(action_mask)[0])


class Highest(Lowest):
    def act(self, observation, action_mask, state=None) -> int:
        return int(np.flatnonzero(action_mask)[-1])


def _policy(game, seed: int = 0) -> MaskableActorCriticPolicy:
    import torch

    torch.manual_seed(seed)
    space = spaces.Box(-np.inf, np.inf, game.observation_shape, np.float32)
    return MaskableActorCriticPolicy(space, spaces.Discrete(game.num_actions), lambda _: 1e-3, net_arch=[16])


def _replay(game, policy, seed: int, samples: int, opponent) -> tuple[list, list]:
    """The student's observations and its final returns, from whole games replayed with the student's
    own greedy moves until at least `samples` positions are seen."""
    student, n = PolicyAgent(policy), game.num_players
    seen, returns, g = [], [], 0
    while len(seen) < samples:
        state, me, mine = game.new_initial_state(Rng(derived_seed(seed, g, 0))), g % n, 0
        while not state.is_terminal() and state.decisions < game.config.max_decisions:
            p = state.current_player
            observation, mask = state.observation(p), state.legal_action_mask()
            if p == me:
                seen.append(observation)
                mine += 1
            state.apply((student if p == me else opponent).act(observation, mask, state))
        returns += [state.returns()[me]] * mine
        g += 1
    return seen, returns


def test_the_positions_are_the_students_and_the_labels_the_teachers():
    game = game_class(GAME).from_config({})
    policy = _policy(game)
    obs, masks, actions, returns = student_samples(policy, game, 40, seed=11, teacher=Lowest(), opponents=[Highest()])
    seen, finals = _replay(game, policy, 11, 40, Highest())
    assert np.array_equal(obs, np.array(seen, np.float32))
    assert np.allclose(returns, finals)
    assert all(a == np.flatnonzero(masks[k])[0] for k, a in enumerate(actions))
    greedy = [PolicyAgent(policy).act(o, m) for o, m in zip(obs, masks)]
    assert np.mean(np.array(greedy) == actions) < 0.9  # the teacher's moves were not the ones played


def test_each_opponent_meets_the_student_at_every_seat():
    game = game_class(GAME).from_config({})
    n = game.num_players

    class Tagged(Lowest):
        """Notes the seats it plays in each game; in a game where every other seat moved, the one it never
        played is the student's."""

        def __init__(self) -> None:
            self.games: list[set[int]] = []

        def reset(self, seat: int, seed: int | None = None) -> None:
            if seat == 0:
                self.games.append(set())

        def act(self, observation, action_mask, state=None) -> int:
            self.games[-1].add(state.current_player)
            return super().act(observation, action_mask, state)

    first, second = Tagged(), Tagged()
    student_samples(_policy(game), game, 80 * n, seed=2, teacher=Lowest(), opponents=[first, second])
    for opponent in (first, second):
        full = [played for played in opponent.games if len(played) == n - 1]  # some games end early
        assert len(full) >= n
        assert {seat for played in full for seat in set(range(n)) - played} == set(range(n))


def test_rounds_add_the_students_positions_to_the_data():
    game = game_class(GAME).from_config({})
    heard: list[tuple[int, float]] = []
    counts: dict[int, int] = {}
    result = imitate(_policy(game), game, samples=60, epochs=1, seed=5, batch_size=16,
                     dagger=DaggerPlan(rounds=2, samples=30, epochs=1, opponents=("random",)),
                     on_round=lambda r, agreement: heard.append((r, agreement)),
                     progress=lambda r, n: counts.__setitem__(r, n))
    assert [r for r, _ in heard] == [1, 2]
    assert all(0.0 <= a <= 1.0 for _, a in heard)
    assert counts[0] >= 60 and counts[1] >= 30 and counts[2] >= 30
    assert result["samples"] == counts[0] + counts[1] + counts[2]
    assert result["round_2_agreement"] == heard[1][1]


def test_no_rounds_is_the_plain_warm_start():
    game = game_class(GAME).from_config({})
    plain = imitate(_policy(game), game, samples=60, epochs=1, seed=5, batch_size=16)
    none = imitate(_policy(game), game, samples=60, epochs=1, seed=5, batch_size=16,
                   dagger=DaggerPlan(rounds=0, samples=30, epochs=1))
    assert plain == none and "round_1_agreement" not in plain


def test_a_bad_dagger_opponent_is_refused_up_front():
    with pytest.raises(ConfigError, match="imitation.dagger_opponents in .*unknown agent spec 'oracle'"):
        load_train_config(GAME, overrides={"imitation": {"dagger_rounds": 1, "dagger_opponents": ["oracle"]}})
    with pytest.raises(ConfigError, match="dagger_opponents"):
        load_train_config(GAME, overrides={"imitation": {"dagger_rounds": 1, "dagger_opponents": []}})


def test_a_training_run_does_the_configured_rounds(tmp_path, capsys):
    from tests.training.conftest import tiny_overrides
    from ultimata.training import trainer

    overrides = tiny_overrides(imitation={"samples": 200, "epochs": 1, "dagger_rounds": 2, "dagger_samples": 50},
                               total_timesteps=128, eval={"every": 10_000, "games": 2, "final_games": 2})
    cfg, progress = trainer.prepare_run(GAME, tmp_path, overrides=overrides)
    trainer.train(cfg, tmp_path, progress, show_bar=False)
    out = capsys.readouterr().out
    assert "DAgger round 1/2: on its own 50 positions" in out and "DAgger round 2/2" in out
    assert "DAgger round 3" not in out
