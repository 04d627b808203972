"""Warm start: teach a fresh policy a teacher's moves before self-play begins.

From scratch, PPO spends most of a short budget rediscovering basics (take from whoever leads, end the
round when ahead) that the scripted bot already knows. A few seconds of supervised learning on the
teacher's own games (its moves for the policy head, each seat's final return for the value head) starts
PPO near the teacher's level, and self-play then looks for what it does wrong. The teacher is any agent
spec: the scripted bot by default, or `mcts` to distil search into the policy. Nothing here is
game-specific.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch.nn import functional as F

from ultimata.agents.specs import load_agent
from ultimata.envs.core.engine import Game
from ultimata.envs.core.rng import Rng


def teacher_samples(game: Game, samples: int, seed: int = 0, teacher: str = "heuristic",
                    progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, ...]:
    """(observations, masks, actions, final returns of the deciding seat) from games the teacher plays
    against itself; `progress` hears the count of decisions so far after each one."""
    agent = load_agent(teacher, game.name, game.config.model_dump(mode="json"), seed=seed)
    obs, masks, actions, seats, game_ids, finals = [], [], [], [], [], []
    g = 0
    while len(actions) < samples:
        state = game.new_initial_state(Rng(seed + g))
        agent.reset(0, seed=seed + 1_000_003 + g)
        while not state.is_terminal() and state.decisions < game.config.max_decisions:
            p = state.current_player
            observation, mask = state.observation(p), state.legal_action_mask().copy()
            action = int(agent.act(observation, mask, state))
            obs.append(observation)
            masks.append(mask)
            actions.append(action)
            seats.append(p)
            game_ids.append(g)
            state.apply(action)
            if progress is not None:
                progress(len(actions))
        finals.append(state.returns() if state.is_terminal() else [0.0] * game.num_players)
        g += 1
    returns = np.array([finals[i][s] for i, s in zip(game_ids, seats)], dtype=np.float32)
    return np.array(obs, np.float32), np.array(masks, bool), np.array(actions, np.int64), returns


def imitate(policy, game: Game, samples: int, epochs: int, seed: int = 0, batch_size: int = 512,
            lr: float = 1e-3, teacher: str = "heuristic",
            progress: Callable[[int], None] | None = None) -> dict[str, float]:
    """Fit `policy` (an SB3 MaskableActorCriticPolicy) to the teacher; returns final accuracy/loss."""
    obs, masks, actions, returns = teacher_samples(game, samples, seed, teacher, progress)
    o, m = torch.as_tensor(obs), torch.as_tensor(masks)
    a, r = torch.as_tensor(actions), torch.as_tensor(returns)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    policy.set_training_mode(True)
    n = len(a)
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            pi_features, vf_features = _features(policy, o[idx])
            latent_pi = policy.mlp_extractor.forward_actor(pi_features)
            latent_vf = policy.mlp_extractor.forward_critic(vf_features)
            logits = policy.action_net(latent_pi).masked_fill(~m[idx], -1e8)
            value = policy.value_net(latent_vf).squeeze(-1)
            loss = F.cross_entropy(logits, a[idx]) + 0.5 * F.mse_loss(value, r[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    matched = 0
    with torch.no_grad():  # in batches: one pass over 120k board observations would need ~30 GB
        for start in range(0, n, batch_size):
            pi_features, _ = _features(policy, o[start : start + batch_size])
            logits = policy.action_net(policy.mlp_extractor.forward_actor(pi_features))
            logits = logits.masked_fill(~m[start : start + batch_size], -1e8)
            matched += int((logits.argmax(-1) == a[start : start + batch_size]).sum())
    return {"samples": n, "accuracy": matched / n, "loss": float(loss.detach())}


def _features(policy, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    if policy.share_features_extractor:
        features = policy.features_extractor(obs)
        return features, features
    return policy.pi_features_extractor(obs), policy.vf_features_extractor(obs)
