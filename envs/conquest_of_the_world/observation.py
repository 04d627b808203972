"""The observation: everything public, seat-relative (index 0 is the viewer, 1 the player to its left).
A weapon chosen first stays hidden from everyone but the player who chose it until the battle.

Layout (727 floats):
  countries   43 x 9: holder as relative seat one-hot (6), kind one-hot (homeland, conquest, ally)
  players      6 x 35 (relative seat): present, alive, record/100 spaces, chips/10000; allied with each
               relative seat (6), broken with each (6), proposed to each this turn (6); holds the attack
               option, is the attacking / defending player of the fight, directs its side's battle now,
               its side's barred weapons (3), energy/10000, battles won in this war/2; has a diplomacy
               window now or still to come this round, still has to answer the proposal, still has its
               final-round turn to come, still to be met in the end-game ladder
  global      99: phase (7), stage (3), mode war/duel (2), turn/max_turns, alliances left to buy/3, target
               country (43), battles fought/3, a first choice is pending, my own pending choice (9),
               proposal from (6) and to (6) relative seats, my home-zone capacity left/30 (during the
               set-up), board filled, end-game challenger (6), the rules (11: war energy/10000, end-game
               energy per space/1000, siege by allies too, zone bonus once, player alliances, end game,
               wooded/100, one homeland per zone, target record/100, allies alternate battles, max
               turns/100)
  last battle 31: what everyone saw of the last battle fought: its two directors (2 x 6 relative seats),
               their choices (2 x 9) and whether the field was wooded
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ultimata.envs.conquest_of_the_world.actions import COUNTRIES, MAX_PLAYERS
from ultimata.envs.conquest_of_the_world.phases import PHASES, ZONE_ALLY
from ultimata.envs.conquest_of_the_world.terms import DUEL

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


def rule_features(cfg: ConquestConfig) -> list[float]:
    """The rule settings every seat knows (computed once per game, see ConquestGame)."""
    return [cfg.war_energy / 10000, cfg.endgame_energy_per_space / 1000, float(cfg.homeland_siege == "held"),
            float(cfg.zone_bonus_once), float(cfg.player_alliances), float(cfg.end_game),
            cfg.wooded_chance / 100, float(cfg.one_homeland_per_zone), (cfg.target_record or 0) / 100,
            float(cfg.alliance_battles == "alternate"), cfg.max_turns / 100]


class LastView:
    """The parts of one state's observations that change seldom (the country block, the alliance rows),
    each kept with the fields it was built from and reused while those stay equal (compared element by
    element, so a stale part is never used): most decisions change neither. The state owns one, so it
    holds at most one part of each kind per seat; a copy of the state starts with none."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: dict[tuple, tuple] = {}

    def __deepcopy__(self, memo: dict) -> LastView:
        return LastView()

    def part(self, build: Callable[[ConquestState, int], Any], s: ConquestState, viewer: int, fields: tuple) -> Any:
        """`build(s, viewer)`, reused while `fields` (lists, or lists of lists) stay equal."""
        key = (build, viewer)
        kept = self.parts.get(key)
        if kept is not None and kept[0] == fields:
            return kept[1]
        value = build(s, viewer)
        self.parts[key] = (tuple([row[:] for row in f] if f and type(f[0]) is list else f[:] for f in fields), value)
        return value


def _absolute_countries(s: ConquestState, _: int) -> np.ndarray:
    """Holder as absolute seat (column 9 stays zero, for the seats a smaller table lacks), kind."""
    holder, kind = np.array(s.holder), np.array(s.kind)
    held = np.flatnonzero(holder >= 0)
    block = np.zeros((COUNTRIES, COUNTRY_FEATURES + 1), dtype=np.float32)
    block[held, holder[held]] = 1.0
    block[held, MAX_PLAYERS - 1 + kind[held]] = 1.0
    return block


def _relative_countries(s: ConquestState, viewer: int) -> np.ndarray:
    """The country block as the viewer sees it: the absolute one's columns turned to the viewer."""
    absolute = s.last_view.part(_absolute_countries, s, -1, (s.holder, s.kind))
    return absolute.take(_SEAT_COLUMNS[s.n, viewer], axis=1).ravel()


def _alliance_features(s: ConquestState, viewer: int) -> list[int]:
    """The set features of the players' alliance rows: allied with, broken with, proposed to."""
    rel, row = _ROTATIONS[s.n, viewer]
    out = []
    for matrix, offset in ((s.allied, ALLIED), (s.broken, BROKEN), (s.proposed, PROPOSED)):
        for q, line in enumerate(matrix):
            if True in line:
                out += [row[q] + offset + rel[r] for r, on in enumerate(line) if on]
    return out


# offsets inside a player's row and the global block (the layout above)
ALLIED, BROKEN, PROPOSED, OPTION, ATTACKER, DEFENDER, DIRECTS = 4, 10, 16, 22, 23, 24, 25
BARRED, ENERGY, WINS = 26, 29, 30
WINDOW, ANSWER, FINAL_TURN, LADDER = 31, 32, 33, 34
PLAYERS_AT = COUNTRY_BLOCK
GLOBAL_AT = PLAYERS_AT + MAX_PLAYERS * PLAYER_FEATURES
STAGE, MODE, TURN, BUYS, TARGET = 7, 10, 12, 13, 14
BATTLES, PENDING, MINE, PROPOSAL_FROM, PROPOSAL_TO = 57, 58, 59, 68, 74
CAPACITY, FILLED, CHALLENGER, RULES = 80, 81, 82, 88
LAST_AT = GLOBAL_AT + GLOBAL_FEATURES
_ROTATIONS = {(n, v): (tuple((q - v) % n for q in range(n)),
                       tuple(PLAYERS_AT + (q - v) % n * PLAYER_FEATURES for q in range(n)))
              for n in range(2, MAX_PLAYERS + 1) for v in range(n)}
"""Per seat count and viewer: each absolute seat's relative seat, and where its row starts."""
_SEAT_COLUMNS = {(n, v): np.array([(v + r) % n if r < n else COUNTRY_FEATURES for r in range(MAX_PLAYERS)]
                                  + list(range(MAX_PLAYERS, COUNTRY_FEATURES)))
                 for n in range(2, MAX_PLAYERS + 1) for v in range(n)}
"""Per seat count and viewer: the absolute country block's column for each column of the viewer's."""
_BARRED = tuple(tuple(w for w in range(3) if barred >> w & 1) for barred in range(8))


def template(cfg: ConquestConfig) -> np.ndarray:
    """The parts every observation of a game shares (the seats present, the rules); see
    ConquestGame.observation_template."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    obs[PLAYERS_AT:PLAYERS_AT + cfg.num_players * PLAYER_FEATURES:PLAYER_FEATURES] = 1.0
    obs[GLOBAL_AT + RULES:GLOBAL_AT + RULES + RULE_FEATURES] = rule_features(cfg)
    return obs


def observe(s: ConquestState, viewer: int) -> np.ndarray:
    """Built as a list of the few features that are set and one numpy scatter (most of the vector is
    zeros), with the country block and the alliance rows reused while they do not change (`LastView`):
    writing the vector feature by feature cost most of an env step."""
    n = s.n
    rel, row = _ROTATIONS[n, viewer]
    obs = s.game.observation_template.copy()
    last = s.last_view
    obs[:COUNTRY_BLOCK] = last.part(_relative_countries, s, viewer, (s.holder, s.kind))
    ones = last.part(_alliance_features, s, viewer, (s.allied, s.broken, s.proposed)).copy()
    at: list[int] = []
    values: list[float] = []
    for q in range(n):
        b = row[q]
        if s.alive[q]:
            ones.append(b + 1)
        at += (b + 2, b + 3)
        values += (s.record[q] / 200, s.chips[q] / 10000)
    if s.option >= 0:
        ones.append(row[s.option] + OPTION)
    fighters, directors = s.fighters, (-1, -1)
    if fighters[0] >= 0:
        directors = (s.director(0), s.director(1))
        for side in (0, 1):
            b = row[fighters[side]]
            ones += (b + ATTACKER + side, row[directors[side]] + DIRECTS)
            barred = s.barred[side]
            if barred:
                ones += [b + BARRED + w for w in _BARRED[barred]]
            at += (b + ENERGY, b + WINS)
            values += (s.energy[side] / 10000, s.wins[side] / 2)
    if s.window >= 0:
        ones.append(row[s.window] + WINDOW)
        ones += [row[q] + WINDOW for q in s.round_left]
    if s.answers:
        ones += [row[q] + ANSWER for q in s.answers]
    if s.final_left:
        ones += [row[q] + FINAL_TURN for q in s.final_left]
    if s.ladder:
        ones += [row[q] + LADDER for q in s.ladder]
    g = GLOBAL_AT
    ones += (g + s.phase, g + STAGE + s.stage)
    if fighters[0] >= 0:
        ones.append(g + MODE + s.mode)
    at += (g + TURN, g + BUYS, g + BATTLES)
    values += (s.turn / s.cfg.max_turns, s.buys / 3, s.battles / 3)
    if s.target >= 0:
        ones.append(g + TARGET + s.target)
    if s.pending >= 0:
        ones.append(g + PENDING)
        if directors[s.battles % 2 if s.mode == DUEL else 0] == viewer:
            ones.append(g + MINE + s.pending)
    if s.proposal[0] >= 0:
        ones += (g + PROPOSAL_FROM + rel[s.proposal[0]], g + PROPOSAL_TO + rel[s.proposal[1]])
    if s.phase <= ZONE_ALLY and s.homeland[viewer] >= 0:
        at.append(g + CAPACITY)
        values.append(s.zone_capacity_left(viewer) / 30)
    if -1 not in s.holder:
        ones.append(g + FILLED)
    if s.challenger >= 0:
        ones.append(g + CHALLENGER + rel[s.challenger])
    a, d, pick_a, pick_d, wooded = s.last_battle
    if a >= 0:
        ones += (LAST_AT + rel[a], LAST_AT + MAX_PLAYERS + rel[d], LAST_AT + 2 * MAX_PLAYERS + pick_a,
                 LAST_AT + 2 * MAX_PLAYERS + 9 + pick_d)
        if wooded:
            ones.append(OBS_SIZE - 1)
    index = np.array(ones + at, dtype=np.intp)  # one conversion, then two writes: the cheapest measured
    obs[index[:len(ones)]] = 1.0
    obs[index[len(ones):]] = values
    return obs
