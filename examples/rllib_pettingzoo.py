"""RLlib's own PettingZoo path: its `PettingZooEnv` over an ultimata env and its `ActionMaskingTorchRLModule`,
one module shared by every seat; then the trained module plays in ultimata's arena.

    pip install "ultimata[rllib]"
    python examples/rllib_pettingzoo.py --iterations 20

RLlib's masking module reads `{"observations", "action_mask"}`, ultimata's envs say `observation`:
`envs.rllib_observations(env)` renames that key and nothing else. (`ultimata train --backend rllib` is the
league self-play trainer with snapshots and scripted opponents; this is the plain RLlib way, for people who
bring their own RLlib setup.)
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

import ultimata.envs as envs
from ultimata import arena


class ModuleAgent:
    """The trained RLModule as an ultimata agent: its most likely legal move."""

    def __init__(self, module) -> None:
        self.module = module

    def reset(self, seat, seed=None):
        pass

    def act(self, observation, action_mask, state=None):
        batch = {"obs": {"observations": torch.as_tensor(observation[None], dtype=torch.float32),
                         "action_mask": torch.as_tensor(action_mask[None], dtype=torch.float32)}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        return int(np.argmax(np.where(action_mask > 0, logits, -np.inf)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimatum_cards", help="a game's name without its version")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--tiny", action="store_true", help="one small iteration and 4 games (what CI runs)")
    args = parser.parse_args()
    game = envs.env_name(args.game)
    register_env("ultimata", lambda _: PettingZooEnv(envs.rllib_observations(envs.make(game))))

    batch = 256 if args.tiny else 4000
    config = (
        PPOConfig()
        .environment("ultimata", disable_env_checking=True)  # its random pre-check ignores the mask
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 512), num_epochs=1 if args.tiny else 4)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                   model_config={"head_fcnet_hiddens": [16] if args.tiny else [128, 128]})}))
    )
    algo = config.build_algo()
    for _ in range(1 if args.tiny else args.iterations):
        steps = int(algo.train()["num_env_steps_sampled_lifetime"])
    print(f"trained {steps:,} env steps on RLlib's PettingZooEnv with ActionMaskingTorchRLModule")

    module = algo.get_module("shared")
    result = arena.run(game, [("rllib module", lambda: ModuleAgent(module)), "random"], games=4 if args.tiny else 200,
                       seed=1)
    print(result.to_markdown())
    algo.stop()


if __name__ == "__main__":
    main()
