"""Train with plain Stable-Baselines3 PPO through `single_agent`, then rate it against the scripted bot.

    python examples/sb3_single_agent.py --steps 200000

`envs.single_agent(game, opponents)` is an ordinary `gymnasium.Env`: you hold one seat (it rotates
every episode) and the opponents move inside `step()`. Plain PPO does not know the legal moves: an
illegal action ends its episode with reward -1, so it learns to avoid them. (sb3-contrib's MaskablePPO
reads `env.action_masks()` instead and never tries one.) The trained policy then enters the arena as
an agent that masks its own logits.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from stable_baselines3 import PPO

import ultimata.envs as envs
from ultimata import arena


class PPOAgent:
    """The trained policy as an arena agent: its most likely legal move."""

    def __init__(self, model: PPO) -> None:
        self.policy = model.policy

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state=None) -> int:
        with torch.no_grad():
            obs = torch.as_tensor(observation[None], dtype=torch.float32)
            logits = self.policy.get_distribution(obs).distribution.logits[0].numpy()
        return int(np.argmax(np.where(action_mask == 1, logits, -np.inf)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimatum_cards", help="a game's name without its version")
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tiny", action="store_true", help="a few hundred steps and games (what CI runs)")
    args = parser.parse_args()
    game = envs.env_name(args.game)
    steps, games = (512, 4) if args.tiny else (args.steps, args.games)

    env = envs.single_agent(game, opponents=["heuristic"])
    model = PPO("MlpPolicy", env, n_steps=256 if args.tiny else 2048, batch_size=64, seed=0, device="cpu")
    model.learn(steps)

    result = arena.run(game, [("ppo", lambda: PPOAgent(model)), "heuristic"], games=games, seed=1)
    print(result.to_markdown())


if __name__ == "__main__":
    main()
