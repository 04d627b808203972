"""The fixed action layout (147 actions). Countries are absolute (the board has no seat); players in
PROPOSE are relative seats (1 = the player to your left)."""

from __future__ import annotations

from ultimata.envs.conquest_of_the_world.combat import SPENDS, WEAPONS

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
"""PROPOSE + r - 1: propose a player alliance to the player r seats to your left (r = 1..5)."""
BREAK = PROPOSE + MAX_PLAYERS - 1
"""Leave your player alliance (never renewable with its members)."""
ACCEPT = BREAK + 1
DECLINE = ACCEPT + 1
DONE = DECLINE + 1
"""End the in-zone alliances, pass the attack option to the left, or close your diplomacy window."""
NUM_ACTIONS = DONE + 1


def weapon_action(weapon: int, spend: int) -> int:
    return WEAPON + weapon * len(SPENDS) + spend


def propose_action(relative_seat: int) -> int:
    """PROPOSE to the player `relative_seat` (1..5) seats to the left."""
    return PROPOSE + relative_seat - 1
