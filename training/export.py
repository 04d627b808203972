"""Make a shippable copy of a checkpoint: optimizer state dropped, the value head zeroed (an opponent
only needs the policy, and zeros compress to nothing) and weights stored as float16, in a deflated zip,
so it stays small (a conv policy over a board is ~1 MB of float32 weights).

    python -m ultimata.training.export RUN/final.zip agents/pretrained/<game base name>.zip [--float32]

The source is read as data, like any checkpoint that is played (agents/checkpoint.load_policy), and its
weights are put into a fresh MaskablePPO to be saved: nothing in the source is unpickled. Loading casts
the float16 weights back into the float32 network (torch's load_state_dict copies across dtypes), so
nothing else changes; the copy plays but should not be resumed from.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from ultimata.agents.checkpoint import load_policy, read_meta, save_checkpoint
from ultimata.agents.policy_net import describe, parse_spec, policy_kwargs
from ultimata.envs.core.registry import game_class


class _Spaces(gym.Env):
    """The spaces MaskablePPO is built for; it is saved, never stepped."""

    def __init__(self, policy: MaskableActorCriticPolicy) -> None:
        self.observation_space = policy.observation_space
        self.action_space = policy.action_space

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        raise RuntimeError("an export's model is never stepped")

    def step(self, action: int) -> Any:
        raise RuntimeError("an export's model is never stepped")


def export_checkpoint(src: str | Path, dst: str | Path, *, float16: bool = True) -> Path:
    meta = read_meta(src)
    game = game_class(meta.game).from_config(meta.config)
    policy, meta = load_policy(src, game)
    kwargs = policy_kwargs(parse_spec(describe(policy), str(src)))
    model = MaskablePPO(MaskableActorCriticPolicy, _Spaces(policy), device="cpu", policy_kwargs=kwargs)
    model.policy.load_state_dict(policy.state_dict())
    meta.extra = {k: v for k, v in meta.extra.items() if k != "run"}  # a local path means nothing elsewhere
    with torch.no_grad():  # the critic: what the policy's moves never read
        for part in (model.policy.mlp_extractor.value_net, model.policy.value_net):
            for weight in part.parameters():
                weight.zero_()
    meta.extra["value_head"] = "dropped"
    if float16:
        model.policy.to(torch.float16)
        meta.extra["weights"] = "float16"
    return save_checkpoint(model, dst, meta, slim=True)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--float32"]
    if len(args) != 2:
        sys.exit("usage: python -m ultimata.training.export SRC.zip DST.zip [--float32]")
    out = export_checkpoint(args[0], args[1], float16="--float32" not in sys.argv)
    print(f"{out}: {out.stat().st_size / 1024:.0f} KiB")
