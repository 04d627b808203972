"""ULTIMADE's scripted bot: greedy one-run-at-a-time play over a hand-made position value.

Offense values open lanes from the disc holder (more when they point forward, end in the endzone,
are short - the book: long throws are 'prevented too easily' - and point in different directions,
so one marker cannot close them all), and cuts forward. Defense values the same lanes negatively,
so it marks the thrower's most dangerous direction and steps into the other lanes, then covers
receivers goal-side. Each running step the bot picks the runner whose best run gains most and
stops when no run helps. Everything on the pitch is public, so it reads the engine state directly.
"""

from __future__ import annotations

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.actions import DONE, NO_ROLL, from_field, to_field
from ultimata.envs.ultimade.board import (
    BETWEEN,
    BIT,
    COL,
    FIELDS,
    FULL,
    LENGTH,
    NEIGHBOURS,
    ROW,
    WIDTH,
    chebyshev,
    fields_of,
)
from ultimata.envs.ultimade.phases import MONSTER, PLACE, PULL, RUN, SELECT, THROW
from ultimata.envs.ultimade.state import UltimadeState

_EPS = 1e-9
_MIN_GAIN = 0.05
"""A run must improve the position by this much, or the runner stays (DONE)."""


def choose_action(state: UltimadeState, rng: Rng) -> int:
    """A legal action for the player to move; ties are broken with `rng`."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase == PLACE:
        return _place(state, legal, rng)
    if phase == PULL:
        return _pull(state, legal, rng)
    if phase == SELECT:
        return _select(state, legal, rng)
    if phase == RUN:
        return _run(state, legal, rng)
    if phase == THROW:
        return _throw(state, legal, rng)
    if phase == MONSTER:
        return _monster(state, legal)
    return legal[rng.below(len(legal))]


# -- helpers -------------------------------------------------------------------------------------
_STEPS = [[chebyshev(a, b) for b in range(FIELDS)] for a in range(FIELDS)]
"""_STEPS[a][b]: king steps between two fields (the bot values ~80 positions a decision: as a table, its
distances cost a lookup instead of a call; search runs the bot in every rollout)."""
_FORWARD = (ROW, [LENGTH - 1 - r for r in ROW])
"""_FORWARD[team][f]: rows gained toward the team's attacking endzone (0 at its own back line)."""


def _forward(team: int, f: int) -> int:
    return _FORWARD[team][f]


def _pick(scored: list[tuple[float, int]], rng: Rng) -> int:
    best = max(s for s, _ in scored)
    ties = [a for s, a in scored if s >= best - _EPS]
    return ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]


def _direction(a: int, b: int) -> tuple[int, int]:
    dr, dc = ROW[b] - ROW[a], COL[b] - COL[a]
    return (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)


_DIRECTION = [[_direction(a, b) for b in range(FIELDS)] for a in range(FIELDS)]


def _threat(state: UltimadeState, pos: list[int]) -> float:
    """How good the offense's throwing options are in this position (0 when it has none)."""
    off = state.offense
    holder = state.holder
    if holder < 0:
        return 0.0
    base = off * 4
    defenders = 0
    for f in pos[4 - base : 8 - base]:
        defenders |= BIT[f]
    occupied = defenders
    for f in pos[base : base + 4]:
        occupied |= BIT[f]
    empty = FULL ^ occupied if state.game.config.throw_needs_free_field else FULL
    attack = state.game.attack_zone[off]
    monster = state.game.config.monster_defense
    hf = pos[holder]
    forward, lanes, steps, directions = _FORWARD[off], BETWEEN[hf], _STEPS[hf], _DIRECTION[hf]
    value, seen = 0.0, set()
    for q in range(base, base + 4):
        g = pos[q]
        lane = lanes[g]
        if not lane or lane & defenders or not lane & empty:
            continue
        gain = forward[g] - forward[hf]
        v = 1.0 + 0.25 * max(gain, -2) + (0.3 if steps[g] == 2 else 0.0)
        if BIT[g] & attack:
            v += 6.0
        if monster and NEIGHBOURS[g] & defenders:
            v -= 0.4
        direction = directions[g]
        if direction in seen:
            v *= 0.4  # a second catcher on the same line is closed by the same defender
        seen.add(direction)
        value += v
    return value


def _value(state: UltimadeState, pos: list[int], team: int) -> float:
    """The position from `team`'s side: throwing options, plus territory and coverage."""
    off = state.offense
    threat = _threat(state, pos)
    base = off * 4
    receivers = [pos[q] for q in range(base, base + 4) if q != state.holder]
    defenders = pos[4 - base : 8 - base]
    forward = _FORWARD[off]
    if state.holder < 0:  # disc on the ground: the offense gathers near it, the defense closes in
        to_disc = _STEPS[state.disc]
        spread = sum(min(to_disc[f], 6) for f in receivers)
        advance = sum(forward[f] for f in receivers)
        if team == off:
            return 0.05 * advance - 0.05 * spread
        return -0.1 * _cover(receivers, defenders)
    if team == off:
        advance = sum(forward[f] for f in receivers)
        return threat + 0.04 * advance
    holder_row = forward[pos[state.holder]]
    goal_side = sum(1 for d in defenders if forward[d] > holder_row)
    return -threat - 0.08 * _cover(receivers, defenders) + 0.05 * goal_side


def _cover(receivers: list[int], defenders: list[int]) -> int:
    """Each receiver's king steps to the nearest defender, summed."""
    return sum(min(map(_STEPS[r].__getitem__, defenders)) for r in receivers)


# -- phases --------------------------------------------------------------------------------------
def _place(state: UltimadeState, legal: list[int], rng: Rng) -> int:
    """Spread over the endzone's front row, on columns b, d, f, h."""
    seat = state.current_player
    slot = state.pos[4 * seat : 4 * seat + 4].count(-1)
    front = state.game.config.endzone_depth - 1
    want = (front, (1, 3, 5, 7)[4 - slot])
    scored = [(-abs(a // WIDTH - want[0]) - abs(a % WIDTH - want[1]), a) for a in legal]  # seat frame
    return _pick(scored, rng)


def _pull(state: UltimadeState, legal: list[int], rng: Rng) -> int:
    """As far from every receiver as the endzone allows: time for the defense to come down."""
    seat = state.current_player
    receivers = state.pos[4 * (1 - seat) : 4 * (1 - seat) + 4]
    scored = [(min(_STEPS[to_field(a, seat)][r] for r in receivers), a) for a in legal]
    return _pick(scored, rng)


def _run_options(state: UltimadeState, p: int) -> list[tuple[float, int]]:
    """(value after the run, field) for each legal run of player p."""
    team = p >> 2
    pos = state.pos[:]
    out = []
    for g in fields_of(state.destinations(p)):
        pos[p] = g
        out.append((_value(state, pos, team), g))
    return out


def _select(state: UltimadeState, legal: list[int], rng: Rng) -> int:
    seat = state.current_player
    now = _value(state, state.pos, seat)
    scored = []
    for a in legal:
        if a == DONE:
            scored.append((_MIN_GAIN, a))
            continue
        options = _run_options(state, state.pos.index(to_field(a, seat)))
        scored.append((max(v for v, _ in options) - now if options else -1.0, a))
    return _pick(scored, rng)


def _run(state: UltimadeState, legal: list[int], rng: Rng) -> int:
    seat = state.current_player
    return _pick([(v, from_field(g, seat)) for v, g in _run_options(state, state.runner)], rng)


def _throw(state: UltimadeState, legal: list[int], rng: Rng) -> int:
    """Score if possible; else the catcher furthest forward with the fewest markers around him."""
    seat = state.current_player
    attack = state.game.attack_zone[seat]
    defenders = state.team_bb[1 - seat]
    scored = []
    for a in legal:
        g = to_field(a, seat)
        markers = (NEIGHBOURS[g] & defenders).bit_count()
        scored.append((100.0 * bool(BIT[g] & attack) + _forward(seat, g) - 1.5 * markers, a))
    return _pick(scored, rng)


def _monster(state: UltimadeState, legal: list[int]) -> int:
    """Gamble only when the catcher is close to scoring: a failed roll freezes three defenders."""
    off = state.offense
    if _forward(off, state.disc) >= LENGTH - state.game.config.endzone_depth - 5:
        return next(a for a in legal if a != NO_ROLL)
    return NO_ROLL
