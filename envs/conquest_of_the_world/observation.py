"""The observation: everything public, seat-relative (index 0 is the viewer, 1 the player to its left).
A weapon chosen first stays hidden from everyone but the player who chose it until the battle.

Layout (727 floats):
  countries   43 x 9: holder as relative seat one-hot (6), kind one-hot (homeland, conquest, ally)
  players      6 x 35 (relative seat): present, alive, record/100 spaces, chips/10000; allied with each
               relative seat (6), broken with each (6), proposed to each this round (6); holds the attack
               option, is the attacking / defending player of the fight, directs its side's battle now,
               its side's barred weapons (3), energy/10000, battles won in this war/2; has a diplomacy
               window now or still to come this round, still has to answer the proposal, still has its
               final-round turn to come, still to be met in the end-game ladder
  global      99: phase (7), stage (3), mode war/duel (2), turn/max_turns, alliances left to buy/3, target
               country (43), battles fought/3, a first choice is pending, my own pending choice (9),
               proposal from (6) and to (6) relative seats, my home-zone capacity left/30, board filled,
               end-game challenger (6), the rules (11: war energy/10000, end-game energy per space/1000,
               siege by allies too, zone bonus once, player alliances, end game, wooded/100, one homeland
               per zone, target record/100, allies alternate battles, max turns/100)
  last battle 31: what everyone saw of the last battle fought: its two directors (2 x 6 relative seats),
               their choices (2 x 9) and whether the field was wooded
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.conquest_of_the_world.actions import COUNTRIES, MAX_PLAYERS
from ultimata.envs.conquest_of_the_world.terms import DUEL, PHASES, WAR

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.config import ConquestConfig
    from ultimata.envs.conquest_of_the_world.state import ConquestState

COUNTRY_FEATURES = MAX_PLAYERS + 3
PLAYER_FEATURES = 35
RULE_FEATURES = 11
GLOBAL_FEATURES = (len(PHASES) + 3 + 2 + 1 + 1 + COUNTRIES + 1 + 1 + 9 + 2 * MAX_PLAYERS + 1 + 1 + MAX_PLAYERS
                   + RULE_FEATURES)
LAST_BATTLE_FEATURES = 2 * MAX_PLAYERS + 2 * 9 + 1
COUNTRY_BLOCK = COUNTRIES * COUNTRY_FEATURES
OBS_SIZE = COUNTRY_BLOCK + MAX_PLAYERS * PLAYER_FEATURES + GLOBAL_FEATURES + LAST_BATTLE_FEATURES
_COUNTRY_CACHE: dict[tuple, np.ndarray] = {}
"""The country block changes only when a country changes hands: cached by holdings (bounded, read-only)."""


def rule_features(cfg: ConquestConfig) -> list[float]:
    """The rule settings every seat knows (computed once per game, see ConquestGame)."""
    return [cfg.war_energy / 10000, cfg.endgame_energy_per_space / 1000, float(cfg.homeland_siege == "held"),
            float(cfg.zone_bonus_once), float(cfg.player_alliances), float(cfg.end_game),
            cfg.wooded_chance / 100, float(cfg.one_homeland_per_zone), (cfg.target_record or 0) / 100,
            float(cfg.alliance_battles == "alternate"), cfg.max_turns / 100]


def _countries(s: ConquestState, viewer: int) -> np.ndarray:
    key = (s.n, viewer, *s.holder, *s.kind)
    block = _COUNTRY_CACHE.get(key)
    if block is None:
        n = s.n
        block = np.zeros(COUNTRY_BLOCK, dtype=np.float32)
        for c, h in enumerate(s.holder):
            if h >= 0:
                block[c * COUNTRY_FEATURES + (h - viewer) % n] = 1.0
                block[c * COUNTRY_FEATURES + MAX_PLAYERS + s.kind[c] - 1] = 1.0
        if len(_COUNTRY_CACHE) > 1024:
            _COUNTRY_CACHE.clear()
        _COUNTRY_CACHE[key] = block
    return block


def observe(s: ConquestState, viewer: int) -> np.ndarray:
    n = s.n
    seats = [(viewer + k) % n for k in range(n)]  # absolute seat of each relative seat
    pad = [0.0] * (MAX_PLAYERS - n)
    fighting = s.fighters[0] >= 0
    directors = (s.director(0), s.director(1)) if fighting else (-1, -1)
    option = s.option
    waiting = set(s.round_left)
    if s.window >= 0:
        waiting.add(s.window)
    out: list[float] = []
    for q in seats:
        allied, broken, proposed = s.allied[q], s.broken[q], s.proposed[q]
        out += (1.0, float(s.alive[q]), s.record[q] / 200, s.chips[q] / 10000)
        out += [float(allied[r]) for r in seats] + pad
        out += [float(broken[r]) for r in seats] + pad
        out += [float(proposed[r]) for r in seats] + pad
        side = 0 if s.fighters[0] == q else 1 if s.fighters[1] == q else -1
        out += (float(q == option), float(side == 0), float(side == 1), float(q in directors))
        if side >= 0:
            barred = s.barred[side]
            out += (float(barred & 1), float(barred >> 1 & 1), float(barred >> 2 & 1),
                    s.energy[side] / 10000, s.wins[side] / 2)
        else:
            out += (0.0, 0.0, 0.0, 0.0, 0.0)
        out += (float(q in waiting), float(q in s.answers), float(q in s.final_left), float(q in s.ladder))
    out += [0.0] * (PLAYER_FEATURES * (MAX_PLAYERS - n))
    phase = [0.0] * len(PHASES)
    phase[s.phase] = 1.0
    stage = [0.0, 0.0, 0.0]
    stage[s.stage] = 1.0
    out += phase
    out += stage
    out += (float(s.mode == WAR and fighting), float(s.mode == DUEL), s.turn / s.cfg.max_turns, s.buys / 3)
    target = [0.0] * COUNTRIES
    if s.target >= 0:
        target[s.target] = 1.0
    out += target
    out += (s.battles / 3, float(s.pending >= 0))
    mine = [0.0] * 9
    if s.pending >= 0 and directors[s.battles % 2 if s.mode == DUEL else 0] == viewer:
        mine[s.pending] = 1.0
    out += mine
    proposal = [0.0] * (2 * MAX_PLAYERS)
    if s.proposal[0] >= 0:
        proposal[(s.proposal[0] - viewer) % n] = 1.0
        proposal[MAX_PLAYERS + (s.proposal[1] - viewer) % n] = 1.0
    out += proposal
    out += (s.zone_capacity_left(viewer) / 30 if s.homeland[viewer] >= 0 else 0.0, float(-1 not in s.holder))
    challenger = [0.0] * MAX_PLAYERS
    if s.challenger >= 0:
        challenger[(s.challenger - viewer) % n] = 1.0
    out += challenger
    out += s.game.rule_features
    last = [0.0] * LAST_BATTLE_FEATURES
    a, d, pick_a, pick_d, wooded = s.last_battle
    if a >= 0:
        last[(a - viewer) % n] = last[MAX_PLAYERS + (d - viewer) % n] = 1.0
        last[2 * MAX_PLAYERS + pick_a] = last[2 * MAX_PLAYERS + 9 + pick_d] = 1.0
        last[-1] = float(wooded)
    out += last
    return np.concatenate((_countries(s, viewer), np.array(out, dtype=np.float32)))
