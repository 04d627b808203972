"""`rllib_observations(env)`: an env's observation dict under the names RLlib's action-masking module reads.

RLlib's `ActionMaskingTorchRLModule` (and its examples) expect `{"observations", "action_mask"}`; ultimata's
envs, like PettingZoo's classic games, say `{"observation", "action_mask"}`. The wrapper renames that one key
and changes nothing else, so RLlib's own `PettingZooEnv` and that module work on any ultimata env.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

OBSERVATIONS = "observations"


class RLlibObservations(BaseWrapper):
    """The AEC env with `observation` renamed to `observations` in its spaces and observations."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._spaces: dict[str, spaces.Space] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        """The same object every time (PettingZoo's api_test asks it, so that seeding a space sticks)."""
        if agent not in self._spaces:
            inner = self.env.observation_space(agent)
            self._spaces[agent] = spaces.Dict({OBSERVATIONS: inner["observation"], "action_mask": inner["action_mask"]})
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, Any] | None:
        obs = self.env.observe(agent)
        return None if obs is None else {OBSERVATIONS: obs["observation"], "action_mask": obs["action_mask"]}


def rllib_observations(env: AECEnv) -> AECEnv:
    """`env` (from `envs.make`) as RLlib's PettingZooEnv and ActionMaskingTorchRLModule want to read it."""
    return RLlibObservations(env)
