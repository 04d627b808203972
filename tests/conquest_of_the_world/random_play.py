"""Random play for the fuzz tests: a policy that leans towards the rare parts of the game (homeland
attacks, accepted proposals, paid attacks) so that a few hundred games reach all of them, and the
variants the fuzz runs in. ULTIMATA_FUZZ_GAMES sets the games per variant (thousands on demand)."""

from __future__ import annotations

import os
import random

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.state import ConquestState
from ultimata.envs.conquest_of_the_world.terms import HOME

VARIANTS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 6},
    {"num_players": 4, "one_homeland_per_zone": True, "homeland_siege": "held"},
    {"num_players": 4, "zone_bonus_once": False, "alliance_battles": "declarer", "homeland_siege_by": "attacker"},
    {"num_players": 3, "player_alliances": False, "wooded_chance": 100},
    {"num_players": 5, "target_record": 25, "wooded_chance": 0},
    {"num_players": 4, "end_game": False, "max_turns": 12},
    {"num_players": 3, "max_turns": 8, "war_energy": 800, "endgame_energy_per_space": 1000},
    {"num_players": 6, "max_turns": 60, "war_energy": 1500},
]


def variant_id(config: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items())


def games_per_variant(default: int) -> int:
    return int(os.environ.get("ULTIMATA_FUZZ_GAMES", default))


def lean(s: ConquestState, legal: list[int], pick: random.Random) -> int:
    """Most alliances kept (a break only one time in four it is offered, so that end games still hold
    alliances); then half the time uniform; otherwise a homeland attack, an acceptance, a paid attack
    or a proposal when there is one, else uniform."""
    if A.BREAK in legal and pick.random() < 0.75:
        legal = [a for a in legal if a != A.BREAK]
    if pick.random() < 0.5:
        return legal[pick.randrange(len(legal))]
    homes = [a for a in legal if A.ATTACK <= a < A.WEAPON and s.kind[a - A.ATTACK] == HOME]
    paid = [a for a in legal if A.ATTACK <= a < A.WEAPON and s.holder[a - A.ATTACK] >= 0]
    talk = [a for a in legal if A.PROPOSE <= a < A.BREAK]
    for group in (homes, [a for a in legal if a == A.ACCEPT], paid, talk):
        if group:
            return group[pick.randrange(len(group))]
    return legal[pick.randrange(len(legal))]
