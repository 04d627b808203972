"""`sampler.kind: array`: the one trainer on a game's array engine, every seat a batched forward pass."""

from __future__ import annotations

import pytest
import torch
from rich.console import Console
from stable_baselines3.common.vec_env import DummyVecEnv

from ultimata import arena
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.training.array_sampler import ArraySampler
from ultimata.training.config import load_train_config
from ultimata.training.model import new_model
from ultimata.training.trainer import SpacesEnv, prepare_run, train

GAME = "ultimatum_cards_v3"
POOL = {"weights": {"mirror": 0.5, "snapshots": 0.3, "random": 0.2, "heuristic": 0}, "keep": 2}


def _sampler(games: int = 16, rollout: int = 256, **pool) -> tuple[ArraySampler, object]:
    cfg = load_train_config(GAME, overrides={"sampler": {"kind": "array", "games": games, "rollout": rollout},
                                             "pool": {**POOL, **pool}, "ppo": {"batch_size": 64}})
    game = game_class(GAME).from_config(cfg.rules)
    model = new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game)
    return ArraySampler(cfg, game, model.policy, []), model


def test_a_rollout_is_exactly_the_asked_samples_of_legal_learner_moves():
    sampler, _ = _sampler()
    for _ in range(3):
        rollout = sampler.collect(256)
        assert len(rollout) == 256
        chosen = rollout.masks.gather(1, rollout.actions[:, None])[:, 0]
        assert bool((chosen == 1).all()), "every sample's action is legal under its own mask"
        assert torch.isfinite(rollout.advantages).all() and torch.isfinite(rollout.log_probs).all()
        assert bool((rollout.log_probs <= 0).all())
        torch.testing.assert_close(rollout.returns, rollout.advantages + rollout.values)
    assert sampler.size < 256 + 2 * sampler.n * sampler.players, "what is kept is the overflow and the open seats"


def test_finished_games_credit_their_result_to_the_learner_seats():
    """The card game pays only at its end: the rewards summed onto samples are final results (+-1 or a
    share), and some samples carry them once games have ended."""
    sampler, _ = _sampler(games=64, rollout=1024)
    rollout = sampler.collect(1024)
    paid = rollout.rewards[rollout.rewards != 0]
    assert paid.numel() > 0 and bool((paid.abs() <= 1).all())


def test_a_seats_decisions_chain_to_its_own_next_decision():
    sampler, _ = _sampler(games=8)
    for _ in range(40):
        sampler._step()
    b, n = sampler.buffer, sampler.size
    has_next = (b["next"][:n] >= 0).nonzero()[:, 0]
    nxt = b["next"][has_next]
    assert bool((nxt > has_next).all()) and bool((b["step"][nxt] > b["step"][has_next]).all())
    assert len(set(nxt.tolist())) == len(nxt), "no decision is the successor of two"


def test_the_same_seed_plays_the_same_rollout():
    one, two = _sampler()[0].collect(256), _sampler()[0].collect(256)
    assert torch.equal(one.actions, two.actions) and torch.equal(one.obs, two.obs)


def test_a_pool_or_game_the_array_sampler_cannot_seat_is_refused_when_the_config_loads():
    load_train_config("ultimade_v2", overrides={"sampler": {"kind": "array"}})  # its scripted pool: on tensors too
    with pytest.raises(ConfigError, match="pool kinds mirror, snapshots, random, heuristic on tensors.*checkpoint "
                                          r"agents \(pretrained, a .zip\); pool.weights gives weight to mcts"):
        load_train_config(GAME, overrides={"sampler": {"kind": "array"}, "pool": {"weights": {"mcts": 1}}})
    with pytest.raises(ConfigError, match="has no array engine"):
        load_train_config("ultra_war_v5", overrides={"sampler": {"kind": "array"}, "pool": POOL})


def test_shaping_plays_the_rules_dense_reward_and_only_weight_one_is_allowed():
    """ULTIMADE's config shapes with weight 1: the array sampler then credits the potentials' changes between a
    seat's decisions (most samples carry a reward), and without shaping only finished games pay. A weight the
    array engine cannot play is refused when the config loads."""
    def rewards(shaping: float) -> torch.Tensor:
        cfg = load_train_config("ultimade_v2", overrides={
            "shaping": shaping, "imitation": None, "sampler": {"kind": "array", "games": 8, "rollout": 1024},
            "pool": {"weights": {"mirror": 1.0}},
            "ppo": {"batch_size": 64, "conv_channels": [4], "conv_out_channels": 2}})
        game = game_class("ultimade_v2").from_config(cfg.rules)
        model = new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game)
        return ArraySampler(cfg, game, model.policy, []).collect(1024).rewards

    assert int((rewards(1.0) != 0).sum()) > 50
    assert int((rewards(0.0) != 0).sum()) == 0  # no game of ~1,000 decisions ends within 128 a game
    with pytest.raises(ConfigError, match="shaping must be 0 or 1.*got shaping 0.5"):
        load_train_config("ultimade_v2", overrides={"sampler": {"kind": "array"}, "shaping": 0.5})


def test_a_checkpoint_agent_in_the_pool_plays_its_own_arena_moves_on_tensors():
    """`pretrained` in pool.weights seats the shipped bot as a fixed network: every row it holds gets the move
    its PolicyAgent picks on that observation (greedy, as in the arena and the batched sampler's pool)."""
    from ultimata.agents.specs import load_agent

    sampler, _ = _sampler(games=32, weights={"pretrained": 1.0, "mirror": 0, "snapshots": 0, "random": 0,
                                                    "heuristic": 0})
    assert [spec for spec, _, _ in sampler.fixed] == ["pretrained"]
    bot = load_agent("pretrained", GAME, {})
    seen, apply = [], sampler.env.apply

    def recording(actions):
        owner = sampler.owner[sampler.rows, sampler.seat]
        seen.append((sampler.obs.clone(), sampler.mask.clone(), owner, actions.clone()))
        return apply(actions)

    sampler.env.apply = recording
    for _ in range(30):
        sampler._step()
    checked = 0
    for obs, mask, owner, actions in seen:
        assert set(owner.tolist()) <= {0, 1}, "the learner's seat and the shipped bot's, nothing else"
        for row in (owner == 1).nonzero()[:, 0].tolist():
            assert int(actions[row]) == bot.act(obs[row].numpy(), mask[row].numpy())
            checked += 1
    assert checked > 100


def test_an_array_trained_bot_is_an_ordinary_checkpoint(tmp_path):
    """Trained on tensors with its snapshots in the pool, then played in the AEC env by the arena."""
    overrides = {"total_timesteps": 1024, "checkpoint_every": 512, "imitation": None, "device": "cpu",
                 "sampler": {"kind": "array", "games": 32, "rollout": 512}, "pool": POOL,
                 "ppo": {"batch_size": 256, "n_epochs": 1, "net_arch": [16]},
                 "eval": {"every": 10**9, "games": 4, "final_games": 4, "opponents": ["random"]}}
    cfg, progress = prepare_run(GAME, tmp_path / "run", overrides=overrides)
    outcome = train(cfg, tmp_path / "run", progress, console=Console(quiet=True), show_bar=False)
    assert outcome.steps == 1024 and outcome.final.exists()
    result = arena.run(GAME, [str(outcome.final), "random"], games=8, seed=0)
    assert result.games == 8 and 0 <= result.agents[0].win_rate <= 1
