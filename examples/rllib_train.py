"""Train on Ray RLlib (league self-play, PPO), then rate the result in the arena.

    pip install "ultimata[rllib]"
    python examples/rllib_train.py --steps 500000      # the CLI does the same: ultimata train GAME --backend rllib

The run folder gets RLlib's own checkpoints (to resume) and `final.zip`, an ordinary ultimata
checkpoint: the arena, `play --vs` and the web server load it without Ray. Settings are the game's
training config (configs/<game>.yaml) with the overrides below; see docs/training.md.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import ultimata.envs as envs
from ultimata import arena
from ultimata.training.rllib.trainer import train_rllib
from ultimata.training.trainer import prepare_run

TINY = {  # a smoke run: one small PPO iteration or two
    "total_timesteps": 512, "sampler": {"rollout": 256}, "checkpoint_every": 512,
    "rllib": {"num_envs_per_env_runner": 2},
    "imitation": None,
    "ppo": {"batch_size": 256, "n_epochs": 1, "net_arch": [16, 16]},
    "pool": {"weights": {"snapshots": 0.5, "heuristic": 0.25, "random": 0.25}, "keep": 1},
    "eval": {"every": 512, "games": 4, "final_games": 4},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimatum_cards", help="a game's name without its version")
    parser.add_argument("--steps", type=int, default=500_000)
    parser.add_argument("--out", help="run folder (default: a temporary one)")
    parser.add_argument("--tiny", action="store_true", help="512 steps and 4 games (what CI runs)")
    args = parser.parse_args()
    game = envs.env_name(args.game)
    run_dir = Path(args.out or tempfile.mkdtemp(prefix="ultimata-rllib-"))

    cfg, progress = prepare_run(game, run_dir, overrides=TINY if args.tiny else {"total_timesteps": args.steps})
    outcome = train_rllib(cfg, run_dir, progress)
    print(f"trained {outcome.steps:,} steps; checkpoint {outcome.final}")

    result = arena.run(game, [str(outcome.final), "heuristic"], games=4 if args.tiny else 200, seed=1)
    print(result.to_markdown())


if __name__ == "__main__":
    main()
