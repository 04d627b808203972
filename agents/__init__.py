"""Anything that picks an action: random, scripted per game, checkpoint-backed policy, human.

Every agent keeps the protocol in `agents.base`; `load_agent(spec, game, config)` turns the string
specs used by train, arena and play (`random`, `heuristic`, `pretrained`, a checkpoint path) into one.
"""

from ultimata.agents.base import Agent
from ultimata.agents.specs import SPEC_FORMS, load_agent

__all__ = ["SPEC_FORMS", "Agent", "load_agent"]
