"""The fixed action layout (153 actions). Countries are absolute (the board has no seat); players in
PROPOSE and BREAK are relative seats (1 = the player to your left)."""

from __future__ import annotations

from ultimata.envs.conquest_of_the_world.battle import SPENDS, WEAPONS

COUNTRIES = 43
MAX_PLAYERS = 6
PICK = 0
"""PICK + c: choose country c as homeland, or as an ally in the home zone at the start."""
BUY = PICK + COUNTRIES
"""BUY + c: buy an alliance with unoccupied country c (half its value x 1000 in chips)."""
ATTACK = BUY + COUNTRIES
"""ATTACK + c: start a war for country c (unoccupied, occupied or a homeland)."""
WEAPON = ATTACK + COUNTRIES
"""WEAPON + 3 * weapon + spend: the weapon and energy spend level for the next battle."""
PROPOSE = WEAPON + len(WEAPONS) * len(SPENDS)
"""PROPOSE + r: propose a player alliance to the player r seats to your left (r = 1..5)."""
BREAK = PROPOSE + MAX_PLAYERS
"""BREAK + r: break the player alliance with the player r seats to your left (never renewable)."""
ACCEPT = BREAK + MAX_PLAYERS
DECLINE = ACCEPT + 1
DONE = DECLINE + 1
"""End the in-zone alliances, or pass the attack option to the left."""
NUM_ACTIONS = DONE + 1


def weapon_action(weapon: int, spend: int) -> int:
    return WEAPON + weapon * len(SPENDS) + spend
