"""The opponent pool: who plays the non-learning seats of a self-play episode.

Each opponent seat draws its own kind every episode, with the configured weights: a frozen past
checkpoint of the learner ("snapshots", weight split evenly over the `keep` most recent), or any
agent spec (random, heuristic, pretrained, a checkpoint path). Kinds with nothing to offer yet (no
snapshot before the first checkpoint) hand their weight to the others. A pool may instead seat fixed
specs (`seated`): the single-agent view's opponents, one per seat after the learner's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ultimata.agents.base import Agent
from ultimata.agents.policy_agent import PolicyAgent
from ultimata.agents.specs import load_agent
from ultimata.envs.core.engine import Game

SNAPSHOTS = "snapshots"
MIRROR = "mirror"
"""The learning policy itself in an opponent seat (batched sampler only): its decisions are samples too."""


class OpponentPool:
    def __init__(
        self, game: Game, weights: dict[str, float], keep: int = 5, deterministic: bool = False,
        agents: dict[str, Agent] | None = None, seated: list[str] | None = None,
    ) -> None:
        self.game = game
        self.seated = seated
        """Fixed specs by seat after the learner's: seated[0] plays the seat after it, and so on."""
        self.weights = dict(weights)
        self.keep = keep
        self.deterministic = deterministic
        self.snapshots: list[str] = []
        self._policies: dict[str, Any] = {}
        self._fixed = dict(agents or {})
        """Ready-made agents by label (tests, custom pools); used instead of resolving the label as a spec."""

    def add_snapshot(self, path: str) -> None:
        """A new frozen copy of the learner joins; the oldest beyond `keep` leaves."""
        path = str(path)
        if path in self.snapshots:
            return
        self.snapshots.append(path)
        for old in self.snapshots[: -self.keep]:
            self._policies.pop(old, None)
        self.snapshots = self.snapshots[-self.keep :]

    def drop_snapshot(self, path: str) -> None:
        """A snapshot that no longer loads (deleted, damaged on disk) leaves the pool."""
        self.snapshots = [p for p in self.snapshots if p != str(path)]
        self._policies.pop(str(path), None)

    def probabilities(self) -> dict[str, float]:
        """Chance of each label (a spec or a snapshot path) for one opponent seat."""
        probs: dict[str, float] = {}
        for kind, w in self.weights.items():
            if w <= 0:
                continue
            if kind == SNAPSHOTS:
                for path in self.snapshots:
                    probs[path] = probs.get(path, 0.0) + w / len(self.snapshots)
            else:
                probs[kind] = probs.get(kind, 0.0) + w
        total = sum(probs.values())
        if total <= 0:
            raise ValueError("the opponent pool is empty: give random or heuristic a positive weight")
        return {k: v / total for k, v in probs.items()}

    def label_for(self, offset: int, rng: np.random.Generator) -> str:
        """Who plays the seat `offset` seats after the learner's: its fixed spec, or a draw from the pool."""
        return self.seated[offset - 1] if self.seated else self.sample(rng)

    def sample(self, rng: np.random.Generator) -> str:
        probs = self.probabilities()
        labels = list(probs)
        return labels[int(rng.choice(len(labels), p=np.fromiter(probs.values(), float)))]

    def make_agent(self, label: str, seed: int | None = None) -> Agent:
        """A fresh agent for one seat. Snapshot networks are loaded once and shared between seats."""
        if label in self._fixed:
            return self._fixed[label]
        if label in self.snapshots:
            if label not in self._policies:
                self._policies[label] = PolicyAgent.from_checkpoint(label, self.game).policy
            return PolicyAgent(self._policies[label], deterministic=self.deterministic, seed=seed, spec=label)
        return load_agent(label, self.game.name, self.game.config.model_dump(mode="json"), seed=seed)
