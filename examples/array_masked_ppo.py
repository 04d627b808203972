"""Masked self-play PPO that never leaves the tensors: the array backend, one network in every seat.

    python examples/array_masked_ppo.py --iterations 50 [--device cuda]

`envs.batch(game, n, backend="array")` holds every game as tensors with the batch first, so a rollout is
T steps of one forward pass each, and the per-seat credit assignment is one backward scan over time with
no Python loop over games. Each (game, seat) is its own chain of decisions: a seat's decision is closed by
its next decision (whose value it bootstraps from) or by the end of the game, and every reward in between
is summed onto it, whoever moved. Decisions still open at the rollout's end are left out of the update.
The mask and the loss are the trainer's own (agents/policy.py, training/ppo_update.py); `ultimata train
GAME --preset array` is the full recipe (pool, snapshots, checkpoints) on the same engines.
"""

from __future__ import annotations

import argparse

import torch
from torch import nn

import ultimata.envs as envs
from ultimata.agents.policy import masked_logits
from ultimata.training.ppo_update import ppo_loss


def rollout(env, net: nn.Module, view, steps: int, gamma: float = 0.99, lam: float = 0.95):
    """`steps` moves of every game; returns the closed decisions with their advantages, and the last view."""
    obs, mask, seat = view
    cols = {k: [] for k in ("obs", "mask", "seat", "action", "logp", "value", "reward", "done")}
    for _ in range(steps):
        with torch.no_grad():
            logits, value = net(obs)
            dist = torch.distributions.Categorical(logits=masked_logits(logits, mask.bool()))
            action = dist.sample()
        for key, x in zip(("obs", "mask", "seat", "action", "logp", "value"),
                          (obs, mask.bool(), seat, action, dist.log_prob(action), value)):
            cols[key].append(x)
        obs, mask, seat, rewards, terminated, truncated, _ = env.step(action)
        cols["reward"].append(rewards)                  # [B, players]: every seat's reward for this move
        cols["done"].append(terminated | truncated)     # the row now shows its next game
    b = {k: torch.stack(v) for k, v in cols.items()}    # [T, B, ...]
    t_len, n = b["seat"].shape
    rows = torch.arange(n)
    players = b["reward"].shape[-1]
    owed = torch.zeros(n, players)                      # reward since each seat's open decision
    next_value, next_adv = torch.zeros(n, players), torch.zeros(n, players)
    closed = torch.zeros(n, players, dtype=torch.bool)  # the seat's later decision (or the end) is in view
    adv, keep = torch.zeros(t_len, n), torch.zeros(t_len, n, dtype=torch.bool)
    for t in reversed(range(t_len)):                    # GAE along each seat's own chain, all games at once
        end = b["done"][t][:, None]
        owed, next_value, next_adv = (torch.where(end, 0.0, x) for x in (owed, next_value, next_adv))
        closed = closed | end
        owed = owed + b["reward"][t]
        s, v = b["seat"][t], b["value"][t]
        delta = owed[rows, s] + gamma * next_value[rows, s] - v
        adv[t] = delta + gamma * lam * next_adv[rows, s]
        keep[t] = closed[rows, s]
        owed[rows, s], next_value[rows, s], next_adv[rows, s], closed[rows, s] = 0.0, v, adv[t], True
    out = {k: b[k][keep] for k in ("obs", "mask", "action", "logp", "value")}
    out["adv"] = adv[keep]
    out["ret"] = out["adv"] + out["value"]
    return out, (obs, mask, seat)


def win_rate_against_random(game: str, net: nn.Module, games: int) -> float:
    """The network in one seat (rotated) and uniform random play in the others, all on tensors."""
    env = envs.batch(game, games, backend="array", seed=1)
    obs, mask, seat = env.reset()
    mine, result = torch.arange(games) % env.num_players, torch.full((games,), float("nan"))
    while bool(result.isnan().any()):
        with torch.no_grad():
            greedy = masked_logits(net(obs)[0], mask.bool()).argmax(1)
        uniform = (torch.rand(mask.shape) * mask).argmax(1)
        obs, mask, seat, rewards, terminated, truncated, info = env.step(torch.where(seat == mine, greedy, uniform))
        first = (terminated | truncated) & result.isnan()
        result[first] = (info["returns"][first, mine[first]] > 0).float()
    return float(result.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimatum_cards", help="a game with an array engine")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--games", type=int, default=1024, help="games stepped together")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--tiny", action="store_true", help="two small iterations and 4 games (what CI runs)")
    args = parser.parse_args()
    game = envs.env_name(args.game)
    iterations, games, steps, eval_games = (2, 8, 16, 4) if args.tiny else (args.iterations, args.games, 32, 400)

    torch.manual_seed(0)
    env = envs.batch(game, games, backend="array", seed=0, device=args.device)
    obs_size, actions = env.single_observation_space.shape[0], int(env.single_action_space.n)
    body = nn.Sequential(nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh())
    heads = nn.Linear(128, actions + 1)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body, self.heads = body, heads

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            out = self.heads(self.body(x))
            return out[:, :-1], out[:, -1]               # unmasked logits, value

    net = Net().to(args.device)
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    view = env.reset()
    for i in range(iterations):
        batch, view = rollout(env, net, view, steps)
        for idx in torch.randperm(len(batch["adv"]), device=args.device).split(4096):  # one epoch
            logits, value = net(batch["obs"][idx])
            terms = ppo_loss(logits, value, batch["mask"][idx], batch["action"][idx], batch["logp"][idx],
                             batch["adv"][idx], batch["ret"][idx], clip=0.2, ent_coef=0.01, vf_coef=0.5)
            optimizer.zero_grad()
            terms.loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()
        print(f"iteration {i + 1}: {len(batch['adv'])} decisions, mean return {batch['ret'].mean():+.3f}")
    rate = win_rate_against_random(game, net.cpu(), eval_games)
    print(f"against random, {eval_games} games: won {rate:.1%} (fair share {1 / env.num_players:.1%})")


if __name__ == "__main__":
    main()
