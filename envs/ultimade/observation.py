"""What a seat sees: 9 planes of 18 x 9 fields plus 14 scalars, one flat float32 vector in [0, 1].

Seat-relative: player_1's planes are mirrored (board.FLIP) so every seat defends rows 1..depth and
attacks 'up', and field actions use the same frame. Everything on the pitch is public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultimade.board import FIELDS, FLIP, NEIGHBOURS, fields_of
from ultimata.envs.ultimade.phases import MONSTER, OVER, PLACE, SELECT

if TYPE_CHECKING:
    from ultimata.envs.ultimade.state import UltimadeState

PLANES = (
    "own_players",
    "opponents",
    "disc",  # the holder's field, or where the disc lies
    "ran_this_cycle",  # players who already ran in this cycle
    "runner",  # the player picked to run now
    "marked",  # offense players with a defender in one of their 8 neighbour fields
    "own_endzone",  # constant: the endzone this seat defends (rows 1..depth in its frame)
    "attack_endzone",  # constant: where this seat scores
    "monster_marker",  # after a failed Monster-Defense roll: the only defender who may run
)
SCALARS = (
    "phase_place",
    "phase_pull",
    "phase_select",
    "phase_run",
    "phase_throw",
    "phase_monster",
    "my_decision",
    "my_team_on_offense",  # in possession, or receiving the pull
    "disc_on_ground",
    "surplus_markers_must_leave",  # after a turn, while two or more defenders still mark the new holder
    "my_score",  # / points_to_win
    "their_score",  # / points_to_win
    "cycles_used",  # / max_cycles
    "my_players_to_place",  # / 4
)
P = {n: i * FIELDS for i, n in enumerate(PLANES)}
S = {n: len(PLANES) * FIELDS + i for i, n in enumerate(SCALARS)}
OBS_SIZE = len(PLANES) * FIELDS + len(SCALARS)
_IDENTITY = list(range(FIELDS))


class ObservationLayout:
    """Offsets of the planes and scalars; the constant endzone planes are kept in a template."""

    def __init__(self, endzones: tuple[int, int]) -> None:
        self.size = OBS_SIZE
        self.planes = P
        self.scalars = S
        self.template = np.zeros(self.size, dtype=np.float32)
        # In its own frame every seat defends endzone[0] and attacks endzone[1].
        self.template[[P["own_endzone"] + f for f in fields_of(endzones[0])]] = 1.0
        self.template[[P["attack_endzone"] + f for f in fields_of(endzones[1])]] = 1.0

    def planes_of(self, obs: np.ndarray) -> np.ndarray:
        """The plane part as (9, 18, 9): plane, row from the seat's own end, column a..i."""
        return obs[: len(PLANES) * FIELDS].reshape(len(PLANES), FIELDS // 9, 9)


_OWN, _OPP, _DISC, _RAN, _RUNNER, _MARKED = (P[n] for n in PLANES[:6])
_MONSTER = P["monster_marker"]
_PHASE, _MINE, _OFFENSE, _GROUND, _SURPLUS, _MY_SCORE, _THEIR_SCORE, _CYCLES, _TO_PLACE = (
    S[n] for n in SCALARS[:1] + SCALARS[6:]
)


def encode(state: UltimadeState, viewer: int) -> np.ndarray:
    """Kept to a handful of list operations and one scatter: it runs on every env step."""
    cfg = state.game.config
    obs = state.game.obs_layout.template.copy()
    frame = FLIP if viewer == 1 else _IDENTITY
    pos = state.pos
    idx = [(_OWN if p >> 2 == viewer else _OPP) + frame[f] for p, f in enumerate(pos) if f >= 0]
    holder, disc, phase = state.holder, state.disc, state.phase
    if disc >= 0:
        idx.append(_DISC + frame[disc])
        if holder < 0:
            idx.append(_GROUND)
    moved = state.moved
    if moved:
        idx += [_RAN + frame[pos[p]] for p in range(8) if moved >> p & 1]
    if state.runner >= 0:
        idx.append(_RUNNER + frame[pos[state.runner]])
    if state.marker_only >= 0:
        idx.append(_MONSTER + frame[pos[state.marker_only]])
    if SELECT <= phase <= MONSTER:
        defenders = state.team_bb[1 - state.offense]
        base = state.offense * 4
        idx += [_MARKED + frame[f] for f in pos[base : base + 4] if NEIGHBOURS[f] & defenders]
    if phase < OVER:
        idx.append(_PHASE + phase)
    if state.to_move == viewer:
        idx.append(_MINE)
    if state.offense == viewer:
        idx.append(_OFFENSE)
    if state.surplus and state.surplus_markers():
        idx.append(_SURPLUS)
    obs.put(idx, 1.0)
    score = state.score
    if score[0] or score[1]:
        obs[_MY_SCORE] = score[viewer] / cfg.points_to_win
        obs[_THEIR_SCORE] = score[1 - viewer] / cfg.points_to_win
    obs[_CYCLES] = min(state.cycle / cfg.max_cycles, 1.0)
    if phase == PLACE:
        obs[_TO_PLACE] = pos[4 * viewer : 4 * viewer + 4].count(-1) / 4
    return obs
