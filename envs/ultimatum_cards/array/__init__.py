"""The card game's array engine (issue 52): `ArrayEngine`, found by `envs.batch(..., backend="array")`."""

from ultimata.envs.ultimatum_cards.array.engine import ArrayEngine

__all__ = ["ArrayEngine"]
