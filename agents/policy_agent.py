"""A trained MaskablePPO policy as an agent.

It runs the policy network's forward pass directly (agents/policy.py: features -> actor MLP -> logits)
instead of `model.predict`: a single observation per call is the common case in arenas and self-play
opponents, and skipping predict's checks and conversions makes each move several times cheaper.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from ultimata.agents.checkpoint import CheckpointMeta, load_policy
from ultimata.agents.explain import Explanation, from_shares, masked_softmax
from ultimata.agents.policy import actor_logits

if TYPE_CHECKING:
    from ultimata.envs.core.engine import Game, State


def action_logits(policy: Any, observations: np.ndarray) -> np.ndarray:
    """The actor's logits for a batch of observations (rows), unmasked: one forward pass for all."""
    with torch.no_grad():
        obs = torch.as_tensor(observations, dtype=torch.float32, device=policy.device)
        return actor_logits(policy, obs).cpu().numpy()


class PolicyAgent:
    def __init__(
        self, policy: Any, *, deterministic: bool = True, seed: int | None = None, spec: str = "policy",
        meta: CheckpointMeta | None = None,
    ) -> None:
        self.policy = policy
        self.policy.set_training_mode(False)
        self.deterministic = deterministic
        self.spec = spec
        self.meta = meta
        self._rng = np.random.default_rng(seed)

    @classmethod
    def from_checkpoint(
        cls, path: str | Path, game: Game, *, deterministic: bool = True, seed: int | None = None,
        spec: str | None = None,
    ) -> PolicyAgent:
        """The checkpoint's network, built from data (nothing in the file is unpickled)."""
        policy, meta = load_policy(path, game)
        return cls(policy, deterministic=deterministic, seed=seed, spec=spec or str(path), meta=meta)

    def reset(self, seat: int, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        return action_logits(self.policy, np.asarray(observation).reshape(1, -1))[0]

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int:
        logits = self.logits(observation).astype(np.float64)
        logits[action_mask == 0] = -np.inf
        if self.deterministic:
            return int(np.argmax(logits))
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        return int(self._rng.choice(len(probs), p=probs))

    def explain(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> Explanation:
        """The move `act` plays, with its share under the policy (softmax of the masked logits) and the likeliest
        others."""
        shares = masked_softmax(self.logits(observation), action_mask)
        return from_shares(self.act(observation, action_mask, state), "policy", shares)
