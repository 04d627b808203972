"""A minimal CleanRL-style masked PPO loop over the raw PettingZoo AEC env: one network plays every seat.

    python examples/cleanrl_masked_ppo.py --iterations 200

Nothing here is ultimata-specific beyond `envs.make(game)`: it is the loop you would write for any
PettingZoo classic game. Each seat's decisions form its own trajectory; `env.last()` hands a seat the
reward gathered since its previous move, so the final result reaches every seat, whoever ended the game.
Illegal moves are never sampled: masked logits are set to a large negative number.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import ultimata.envs as envs
from ultimata import arena


class ActorCritic(nn.Module):
    def __init__(self, obs_size: int, actions: int, hidden: int = 64) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.actor, self.critic = nn.Linear(hidden, actions), nn.Linear(hidden, 1)

    def dist_and_value(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[Categorical, torch.Tensor]:
        h = self.body(obs)
        logits = torch.where(mask, self.actor(h), torch.tensor(-1e8))
        return Categorical(logits=logits), self.critic(h).squeeze(-1)


def collect(env, net: ActorCritic, steps: int, rng: np.random.Generator, gamma: float, lam: float) -> dict:
    """Whole episodes until `steps` decisions; returns flat tensors with GAE advantages per seat."""
    batch: dict[str, list] = {k: [] for k in ("obs", "mask", "action", "logp", "adv", "ret")}
    while len(batch["obs"]) < steps:
        env.reset(seed=int(rng.integers(2**31)))
        traj = {agent: [] for agent in env.possible_agents}  # per seat: [obs, mask, action, logp, value, reward]
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if traj[agent]:
                traj[agent][-1][5] += reward  # what happened since this seat last moved
            if terminated or truncated:
                env.step(None)
                continue
            o = torch.as_tensor(obs["observation"], dtype=torch.float32)
            m = torch.as_tensor(obs["action_mask"], dtype=torch.bool)
            with torch.no_grad():
                dist, value = net.dist_and_value(o, m)
                action = dist.sample()
            traj[agent].append([o, m, int(action), float(dist.log_prob(action)), float(value), 0.0])
            env.step(int(action))
        for steps_of_seat in traj.values():  # GAE over one seat's decisions; the episode ends after the last
            adv, next_value = 0.0, 0.0
            for o, m, a, logp, v, r in reversed(steps_of_seat):
                delta = r + gamma * next_value - v
                adv = delta + gamma * lam * adv
                next_value = v
                for key, value in zip(batch, (o, m, a, logp, adv, adv + v)):
                    batch[key].append(value)
    return {
        "obs": torch.stack(batch["obs"]), "mask": torch.stack(batch["mask"]),
        **{k: torch.tensor(batch[k]) for k in ("action", "logp", "adv", "ret")},
    }


def update(net: ActorCritic, optimizer, b: dict, epochs: int = 4, minibatch: int = 256, clip: float = 0.2) -> None:
    adv = (b["adv"] - b["adv"].mean()) / (b["adv"].std() + 1e-8)
    for _ in range(epochs):
        for idx in torch.randperm(len(adv)).split(minibatch):
            dist, value = net.dist_and_value(b["obs"][idx], b["mask"][idx])
            ratio = (dist.log_prob(b["action"][idx]) - b["logp"][idx]).exp()
            pg = -torch.min(ratio * adv[idx], ratio.clamp(1 - clip, 1 + clip) * adv[idx]).mean()
            loss = pg + 0.5 * ((value - b["ret"][idx]) ** 2).mean() - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()


class NetAgent:
    """The trained network as an arena agent (its most likely legal move)."""

    def __init__(self, net: ActorCritic) -> None:
        self.net = net

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state=None) -> int:
        with torch.no_grad():
            dist, _ = self.net.dist_and_value(torch.as_tensor(observation, dtype=torch.float32),
                                              torch.as_tensor(action_mask, dtype=torch.bool))
        return int(dist.probs.argmax())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimatum_cards", help="a game's name without its version")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--steps", type=int, default=2048, help="decisions per iteration")
    parser.add_argument("--tiny", action="store_true", help="two small iterations and 4 games (what CI runs)")
    args = parser.parse_args()
    game = envs.env_name(args.game)
    iterations, steps, games = (2, 128, 4) if args.tiny else (args.iterations, args.steps, 200)

    torch.manual_seed(0)
    env = envs.make(game)
    space = env.observation_space(env.possible_agents[0])["observation"]
    net = ActorCritic(int(np.prod(space.shape)), int(env.action_space(env.possible_agents[0]).n))
    optimizer = torch.optim.Adam(net.parameters(), lr=2.5e-4)
    rng = np.random.default_rng(0)
    for i in range(iterations):
        batch = collect(env, net, steps, rng, gamma=0.99, lam=0.95)
        update(net, optimizer, batch)
        print(f"iteration {i + 1}: {len(batch['adv'])} decisions, mean return {batch['ret'].mean():+.3f}")

    print(arena.run(game, [("masked ppo", lambda: NetAgent(net)), "random"], games=games, seed=1).to_markdown())


if __name__ == "__main__":
    main()
