"""Warm start: teach a fresh policy a teacher's moves before self-play begins.

From scratch, PPO spends most of a short budget rediscovering basics (take from whoever leads, end the
round when ahead) that the scripted bot already knows. A few seconds of supervised learning on the
teacher's own games (its moves for the policy head, each seat's final return for the value head) starts
PPO near the teacher's level, and self-play then looks for what it does wrong. The teacher is any agent
spec: the scripted bot by default, or `mcts` to distil search into the policy. Nothing here is
game-specific.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch.nn import functional as F

from ultimata.agents.base import Agent
from ultimata.agents.policy import actor_logits, logits_and_values, masked_logits
from ultimata.agents.policy_agent import PolicyAgent
from ultimata.agents.specs import load_agent
from ultimata.envs.core.engine import Game
from ultimata.envs.core.rng import Rng, derived_seed

# A game's seeds are derived from (run seed, game index, role): with `seed + game`, the runs at seeds 0 and 1
# imitated the same games shifted by one.
_DEAL, _TEACHER, _OPPONENTS = 0, 1, 2


def teacher_samples(game: Game, samples: int, seed: int = 0, teacher: str = "heuristic",
                    progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, ...]:
    """(observations, masks, actions, final returns of the deciding seat) from games the teacher plays
    against itself; `progress` hears the count of decisions so far after each one."""
    agent = load_agent(teacher, game.name, game.config.model_dump(mode="json"), seed=seed)
    obs, masks, actions, seats, game_ids, finals = [], [], [], [], [], []
    g = 0
    while len(actions) < samples:
        state = game.new_initial_state(Rng(derived_seed(seed, g, _DEAL)))
        agent.reset(0, seed=derived_seed(seed, g, _TEACHER))
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


def student_samples(policy, game: Game, samples: int, seed: int = 0, teacher: str | Agent = "heuristic",
                    opponents: Sequence[str | Agent] = ("random", "heuristic"),
                    progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, ...]:
    """DAgger's data: the policy (greedy, as it plays when shipped) holds one seat against `opponents` (one
    per game in turn, at every other seat; the seat rotates), and the teacher labels each of the policy's
    positions with its own move. Specs are loaded once per seat; an Agent object given plays every seat.
    Same arrays as `teacher_samples`; the returns are the policy's."""
    config = game.config.model_dump(mode="json")
    n = game.num_players

    def seats_of(who: str | Agent) -> list[Agent]:
        if isinstance(who, str):
            return [load_agent(who, game.name, config, seed=seed) for _ in range(n)]
        return [who] * n

    student = PolicyAgent(policy, spec="student")
    teach = load_agent(teacher, game.name, config, seed=seed) if isinstance(teacher, str) else teacher
    others = [seats_of(who) for who in opponents]
    obs, masks, actions, seats, game_ids, finals = [], [], [], [], [], []
    g = 0
    while len(actions) < samples:
        state, me = game.new_initial_state(Rng(derived_seed(seed, g, _DEAL))), g % n
        agents = others[(g // n) % len(others)]
        for seat in range(n):
            agents[seat].reset(seat, seed=derived_seed(seed, g, _OPPONENTS + seat))
        teach.reset(me, seed=derived_seed(seed, g, _TEACHER))
        while not state.is_terminal() and state.decisions < game.config.max_decisions:
            p = state.current_player
            observation, mask = state.observation(p), state.legal_action_mask()
            if p != me:
                state.apply(int(agents[p].act(observation, mask, state)))
                continue
            obs.append(observation)
            masks.append(mask.copy())
            actions.append(int(teach.act(observation, mask, state)))
            seats.append(p)
            game_ids.append(g)
            state.apply(int(student.act(observation, mask, state)))
            if progress is not None:
                progress(len(actions))
        finals.append(state.returns() if state.is_terminal() else [0.0] * n)
        g += 1
    returns = np.array([finals[i][s] for i, s in zip(game_ids, seats)], dtype=np.float32)
    return np.array(obs, np.float32), np.array(masks, bool), np.array(actions, np.int64), returns


def imitate(policy, game: Game, samples: int, epochs: int, seed: int = 0, batch_size: int = 512,
            lr: float = 1e-3, teacher: str = "heuristic",
            progress: Callable[[int, int], None] | None = None, dagger: DaggerPlan | None = None,
            on_round: Callable[[int, float], None] | None = None) -> dict[str, float]:
    """Fit `policy` (an SB3 MaskableActorCriticPolicy) to the teacher, then run `dagger`'s rounds if
    given. `progress(round, n)` hears the count of samples gathered so far in each round (0: the teacher's
    games); `on_round(round, agreement)` hears how often the policy already made the teacher's move on its
    own positions before each refit. Returns the final accuracy over all samples, and the loss."""
    def counter(round_: int) -> Callable[[int], None] | None:
        return None if progress is None else lambda n: progress(round_, n)

    data = teacher_samples(game, samples, seed, teacher, counter(0))
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    loss = _fit(policy, data, epochs, batch_size, optimizer, gen)
    stats: dict[str, float] = {}
    for r in range(dagger.rounds if dagger is not None else 0):
        new = student_samples(policy, game, dagger.samples, derived_seed(seed, r + 1), teacher, dagger.opponents,
                              counter(r + 1))
        agreement = _accuracy(policy, new[0], new[1], new[2], batch_size)
        stats[f"round_{r + 1}_agreement"] = agreement
        if on_round is not None:
            on_round(r + 1, agreement)
        data = tuple(np.concatenate([old, fresh]) for old, fresh in zip(data, new))
        loss = _fit(policy, data, dagger.epochs, batch_size, optimizer, gen)
    accuracy = _accuracy(policy, data[0], data[1], data[2], batch_size)
    return {"samples": len(data[2]), "accuracy": accuracy, "loss": loss, **stats}


@dataclass(frozen=True)
class DaggerPlan:
    """How many rounds of DAgger follow the first fit, and their size (ImitationConfig's dagger_* keys)."""

    rounds: int
    samples: int
    epochs: int
    opponents: tuple[str, ...] = ("random", "heuristic")


def _fit(policy, data: tuple[np.ndarray, ...], epochs: int, batch_size: int, optimizer, gen) -> float:
    """Cross-entropy on the teacher's moves plus the value head's error on the final returns."""
    o, m, a, r = (torch.as_tensor(x, device=policy.device) for x in data)
    policy.set_training_mode(True)
    n, loss = len(a), torch.zeros(())
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen).to(policy.device)
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            logits, value = logits_and_values(policy, o[idx])
            logits = masked_logits(logits, m[idx])
            loss = F.cross_entropy(logits, a[idx]) + 0.5 * F.mse_loss(value, r[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    return float(loss.detach())


def _accuracy(policy, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray, batch_size: int) -> float:
    """The share of samples where the policy's greedy move is the teacher's; in batches, since one pass
    over 120k board observations would need ~30 GB."""
    matched = 0
    with torch.no_grad():
        for start in range(0, len(actions), batch_size):
            rows = slice(start, start + batch_size)
            logits = actor_logits(policy, torch.as_tensor(obs[rows], device=policy.device))
            logits = masked_logits(logits, torch.as_tensor(masks[rows], device=policy.device))
            matched += int((logits.argmax(-1).cpu().numpy() == actions[rows]).sum())
    return matched / len(actions)

