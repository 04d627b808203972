"""Ultimatum's phases: whose decision it is and what kind. Names and numbers only, importing nothing, so
the rules, the observation (its phase one-hot), the text, the web view and the scripted bot all read them
from this one place."""

SETUP_START, SETUP_FILL, SETUP_FLEET, BUY, ACT, BATTLE, MOVE_IN, WINDOW, OVER = range(9)
SETUP = (SETUP_START, SETUP_FILL, SETUP_FLEET)
"""The three set-up steps: four nations each, then one at a time, then two battleships a blockade."""
PHASES = (
    "set-up: four nations",
    "set-up: one nation",
    "set-up: battleships",
    "purchases",
    "attacks",
    "battle",
    "moving in",
    "defence",
    "over",
)
"""Each phase's name, by its number."""
