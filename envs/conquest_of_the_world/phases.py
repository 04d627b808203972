"""Conquest of the World's phases: whose decision it is and what kind. Names and numbers only, importing
nothing, so the rules, the observation (its phase one-hot), the text, the web view and the scripted bot all
read them from this one place."""

HOMELAND, ZONE_ALLY, TURN, DIPLOMACY, RESPOND, WEAPON, OVER = range(7)
"""In the order of play: the set-up's two come first, so `phase <= ZONE_ALLY` reads "during the set-up"."""
PHASES = ("homeland", "zone alliances", "attack option", "diplomacy", "alliance answer", "weapon choice",
          "over")
"""Each phase's name, by its number (the web view reads these names)."""
