"""The hostile-input suite borrows the agent tests' untrained tiny checkpoint (saving needs no training)."""

from tests.agents.conftest import tiny_checkpoint  # noqa: F401
