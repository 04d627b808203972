"""ULTIMADE's phases: whose decision it is and what kind. Names and numbers only, importing nothing, so
the rules, the observation (its phase one-hot), the text, the web view and the scripted bot all read them
from this one place."""

PLACE, PULL, SELECT, RUN, THROW, MONSTER, OVER = range(7)
PHASES = ("place a player in the endzone", "pull", "pick a runner or end the step", "run", "throw",
          "roll the Monster-Defense die or not", "game over")
"""Each phase's name, by its number."""
