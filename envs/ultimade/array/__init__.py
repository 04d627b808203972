"""ULTIMADE as a batch-first torch program, matched move for move to envs/ultimade/ (see engine.py)."""

from ultimata.envs.ultimade.array.engine import ArrayEngine, UltimadeArrayEngine

__all__ = ["ArrayEngine", "UltimadeArrayEngine"]
