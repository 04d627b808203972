"""The observation: everything public, seat-relative (index 0 is the viewer, 1 the player to its left).
A weapon chosen first stays hidden from the other fighter (and everyone else) until the battle.

Layout (558 floats):
  countries   43 x 9: holder as relative seat one-hot (6), kind one-hot (homeland, conquest, ally)
  players      6 x 15: present, alive, record/100 spaces, chips/10000, allied with me, broken with me,
               proposed to by me this turn, holds the attack option, is the attacker / defender of the
               battle, that fighter's barred weapons (3), energy/10000, battles won in this war/2
  global      81: phase (6), stage (3), mode war/duel (2), turn/max_turns, buy right, target country (43),
               battles fought/3, a first choice is pending, my own pending choice (9), proposal from
               relative seat (6), my home-zone capacity left/30, board filled, end-game challenger (6)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.conquest_of_the_world.actions import COUNTRIES, MAX_PLAYERS

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState

COUNTRY_FEATURES = MAX_PLAYERS + 3
PLAYER_FEATURES = 15
GLOBAL_FEATURES = 6 + 3 + 2 + 1 + 1 + COUNTRIES + 1 + 1 + 9 + MAX_PLAYERS + 1 + 1 + MAX_PLAYERS
COUNTRY_BLOCK = COUNTRIES * COUNTRY_FEATURES
OBS_SIZE = COUNTRY_BLOCK + MAX_PLAYERS * PLAYER_FEATURES + GLOBAL_FEATURES
_COUNTRY_CACHE: dict[tuple, np.ndarray] = {}
"""The country block changes only when a country changes hands: cached by holdings (bounded, read-only)."""


def observe(s: ConquestState, viewer: int) -> np.ndarray:
    from ultimata.envs.conquest_of_the_world import state as S

    n = s.n
    rel = [(q - viewer) % n for q in range(n)]
    key = (n, viewer, tuple(s.holder), tuple(s.kind))
    countries = _COUNTRY_CACHE.get(key)
    if countries is None:
        countries = np.zeros(COUNTRIES * COUNTRY_FEATURES, dtype=np.float32)
        for c, h in enumerate(s.holder):
            if h >= 0:
                countries[c * COUNTRY_FEATURES + rel[h]] = 1.0
                countries[c * COUNTRY_FEATURES + MAX_PLAYERS + s.kind[c] - 1] = 1.0
        if len(_COUNTRY_CACHE) > 512:
            _COUNTRY_CACHE.clear()
        _COUNTRY_CACHE[key] = countries
    # the rest is built in numpy directly: converting a list of 171 floats cost a third of the call
    obs = np.zeros(OBS_SIZE - COUNTRY_BLOCK, dtype=np.float32)
    option_live = s.phase in (S.TURN, S.RESPOND)
    for q in range(n):
        b = rel[q] * PLAYER_FEATURES
        side = 0 if s.fighters[0] == q else 1 if s.fighters[1] == q else -1
        obs[b:b + 10] = (1.0, float(s.alive[q]), s.record[q] / 200, s.chips[q] / 10000, float(s.allied[viewer][q]),
                         float(s.broken[viewer][q]), float(s.proposed[viewer][q]), float(option_live and s.option == q),
                         float(side == 0), float(side == 1))
        if side >= 0:
            for w in range(3):
                obs[b + 10 + w] = float(s.barred[side] >> w & 1)
            obs[b + 13] = s.energy[side] / 10000
            obs[b + 14] = s.wins[side] / 2
    g = MAX_PLAYERS * PLAYER_FEATURES
    obs[g + s.phase] = 1.0
    obs[g + 6 + s.stage] = 1.0
    obs[g + 9 + s.mode] = 1.0
    obs[g + 11] = s.turn / s.cfg.max_turns
    obs[g + 12] = float(s.buy_right)
    if s.target >= 0:
        obs[g + 13 + s.target] = 1.0
    k = g + 13 + COUNTRIES
    obs[k] = s.battles / 3
    obs[k + 1] = float(s.pending >= 0)
    first = (s.battles % 2 if s.mode == S.DUEL else 0)
    if s.pending >= 0 and s.fighters[first] == viewer:
        obs[k + 2 + s.pending] = 1.0
    k += 11
    if s.phase == S.RESPOND:
        obs[k + rel[s.proposal[0]]] = 1.0
    k += MAX_PLAYERS
    if s.homeland[viewer] >= 0:
        obs[k] = s.zone_capacity_left(viewer) / 30
    obs[k + 1] = float(s.board_filled())
    if s.challenger >= 0:
        obs[k + 2 + rel[s.challenger]] = 1.0
    return np.concatenate((countries, obs))
