"""Ultra War's phases: whose decision it is and what kind. Names and numbers only, importing nothing, so
the rules, the observation (its phase one-hot), the text, the web view and the scripted bot all read them
from this one place."""

SETUP, MAIN, ACTIVE, CARD_TARGET, FEAT_TARGET, QUICK, DISCARD, OVER, DEVIATE, DRAFT, PAUSE = range(11)
PHASES = ("setup", "main", "activation", "card target", "feat target", "quick window", "discard", "over", "deviate",
          "draft", "pause")
"""Each phase's name, by its number."""
