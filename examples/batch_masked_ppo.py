"""Masked PPO in CleanRL's style on the batched API: 64 games at once, one network plays every seat.

    python examples/batch_masked_ppo.py --iterations 100

`envs.batch` steps every game with numpy arrays in and out; each row is one game's waiting decision.
Each (game, seat) is its own trajectory: a seat's decision is closed by its next decision (whose value
it bootstraps from) or by the end of the game, and the rewards in between are summed onto it, so the
result reaches every seat, whoever's move ended the game. A game cut at the rule config's
`max_decisions` (`truncated`) is not lost: each seat's last decision bootstraps from the value of its view
of the final position (`info["final_obs"]`). Decisions still open when a rollout ends are left out of that
update (a few per game).
The mask and the loss are the trainer's own (agents/policy.py,
training/ppo_update.py); examples/cleanrl_masked_ppo.py writes them out instead.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import ultimata.envs as envs
from ultimata import arena
from ultimata.agents.policy import masked_logits
from ultimata.training.ppo_update import ppo_loss


class ActorCritic(nn.Module):
    def __init__(self, obs_size: int, actions: int, hidden: int = 64) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.actor, self.critic = nn.Linear(hidden, actions), nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Unmasked logits and values."""
        h = self.body(obs)
        return self.actor(h), self.critic(h).squeeze(-1)


def rollout(env, net, state, steps: int, gamma: float = 0.99, lam: float = 0.95) -> dict[str, torch.Tensor]:
    obs, mask, seat = state["view"]
    rows = np.arange(env.num_games)
    data = {k: [] for k in ("obs", "mask", "action", "logp", "value")}
    reward, nxt, done = [], [], []  # per decision: reward after it, index of the seat's next decision, game over
    boot: dict[int, float] = {}  # decision -> value of its seat's final view, where the game was truncated
    last: dict[tuple[int, int], int] = {}  # (row, seat) -> its open decision
    while len(reward) < steps:
        o, m = torch.as_tensor(obs), torch.as_tensor(mask).bool()
        with torch.no_grad():
            logits, value = net(o)
            dist = Categorical(logits=masked_logits(logits, m))
            action = dist.sample()
        for i, p in zip(rows, seat):
            if (i, p) in last:
                nxt[last[i, p]] = len(reward)
            last[i, p] = len(reward)
            reward.append(0.0)
            nxt.append(-1)
            done.append(False)
        for key, x in zip(data, (o, m, action, dist.log_prob(action), value)):
            data[key].append(x)
        obs, mask, seat, rewards, terminated, truncated, info = env.step(action.numpy())
        for (i, p), k in list(last.items()):
            reward[k] += rewards[i, p]
            if terminated[i] or truncated[i]:
                done[k] = True
                del last[i, p]
            if truncated[i]:
                with torch.no_grad():
                    boot[k] = float(net.dist_and_value(torch.as_tensor(info["final_obs"][i][p][None]),
                                                       torch.ones(1, mask.shape[1], dtype=torch.bool))[1])
    state["view"] = (obs, mask, seat)
    b = {k: torch.cat(v) for k, v in data.items()}
    values, adv = b["value"].numpy(), np.zeros(len(reward), np.float32)
    for k in range(len(reward) - 1, -1, -1):  # GAE along each seat's own chain of decisions
        if done[k]:
            adv[k] = reward[k] + gamma * boot.get(k, 0.0) - values[k]
        elif nxt[k] >= 0:  # an open successor's advantage stays 0: GAE is cut there, as at a rollout's end
            adv[k] = reward[k] + gamma * values[nxt[k]] - values[k] + gamma * lam * adv[nxt[k]]
    keep = torch.as_tensor([d or n >= 0 for d, n in zip(done, nxt)])  # open decisions wait for no one
    b = {k: v[keep] for k, v in b.items()}
    b["adv"] = torch.as_tensor(adv)[keep]
    b["ret"] = b["adv"] + b["value"]
    return b


def update(net: ActorCritic, optimizer, b: dict, epochs: int = 4, minibatch: int = 512, clip: float = 0.2) -> None:
    for _ in range(epochs):
        for idx in torch.randperm(len(b["adv"])).split(minibatch):
            logits, value = net(b["obs"][idx])
            terms = ppo_loss(logits, value, b["mask"][idx], b["action"][idx], b["logp"][idx], b["adv"][idx],
                             b["ret"][idx], clip, ent_coef=0.01, vf_coef=0.5)
            optimizer.zero_grad()
            terms.loss.backward()
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
            logits, _ = self.net(torch.as_tensor(observation, dtype=torch.float32)[None])
        return int(masked_logits(logits, torch.as_tensor(action_mask, dtype=torch.bool)[None]).argmax())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimatum_cards", help="a game's name without its version")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--games", type=int, default=64, help="games stepped together")
    parser.add_argument("--steps", type=int, default=4096, help="decisions per iteration")
    parser.add_argument("--tiny", action="store_true", help="two small iterations and 4 games (what CI runs)")
    args = parser.parse_args()
    game = envs.env_name(args.game)
    iterations, steps, eval_games = (2, 256, 4) if args.tiny else (args.iterations, args.steps, 200)

    torch.manual_seed(0)
    env = envs.batch(game, args.games, seed=0)
    net = ActorCritic(int(np.prod(env.single_observation_space.shape)), int(env.single_action_space.n))
    optimizer = torch.optim.Adam(net.parameters(), lr=2.5e-4)
    state = {"view": env.reset()}
    for i in range(iterations):
        batch = rollout(env, net, state, steps)
        update(net, optimizer, batch)
        print(f"iteration {i + 1}: {len(batch['adv'])} decisions, mean return {batch['ret'].mean():+.3f}")

    print(arena.run(game, [("masked ppo", lambda: NetAgent(net)), "random"], games=eval_games, seed=1).to_markdown())


if __name__ == "__main__":
    main()
