"""What a seat sees, seat-relative (player_1's map is turned 180 degrees), as 32 planes of 12 x 12
followed by scalars. Everything on the board and every equipped card is public; the hand is one's own;
of the opponent only card counts. Deck order is never shown. All values lie in [0, 1].

Planes: 0 walls, 1 doors, 2 breachable walls (unbreached), 3 obstructions, 4 upper level, 5 stairs,
6 objectives, 7 escape, 8 own start, 9 enemy start, 10 dropped crystals, 11 own power tokens,
12 enemy power tokens, 13 the active character; own pawns 14-22 and enemy pawns 23-31: present, life
fraction, flying, turned, active general, facing x, facing y (0.5 = 0), stunned/stasis/powered down,
acted this turn.
Scalars: 16 per army slot (8 own then 8 enemy), 16 hand-card counts (own faction's cards in data
order), 8 pending-card one-hot, 32 globals (pools, decks, hands, round, phase one-hot, hold score...)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultra_war.content import HAND_SLOTS, MAX_ARMY, SIZE, content
from ultimata.envs.ultra_war.geometry import DIRS, FIELDS

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState

PLANES = 32
UNIT_BLOCK = 16
OBS_SIZE = PLANES * FIELDS + 2 * MAX_ARMY * UNIT_BLOCK + 16 + HAND_SLOTS + 32


@cache
def _card_index(faction: str) -> dict[str, int]:
    return {name: i for i, name in enumerate(content().decks[faction])}


@cache
def _character_block(name: str) -> tuple[float, ...]:
    """The printed stats of a character (offense, defense, movement, attack ranges, familiarities)."""
    ch = content().characters[name]
    ranges = [a.range / 12 for a in ch.attacks] + [0.0] * (2 - len(ch.attacks))
    return (ch.offense / 10, ch.defense / 10, ch.movement / 8, *ranges, ch.magic / 10, ch.energy / 10)


def static_planes(board, seat: int) -> np.ndarray:
    """Planes 0-9 (the map as this seat sees it, nothing breached), built once per board and seat.

    Kept on the board itself: a cache keyed on id(board) served a dead board's planes to a new one."""
    cache = board.observation_planes
    if seat not in cache:
        planes = np.zeros((10, FIELDS), dtype=np.float32)
        for i, layer in enumerate((board.wall, board.door, board.breachable, board.obstruction, board.level,
                                   board.stairs, board.objective, board.escape, board.start[seat],
                                   board.start[1 - seat])):
            planes[i] = layer
        cache[seat] = planes if seat == 0 else planes[:, ::-1].copy()
    return cache[seat]


def observe(state: UltraWarState, seat: int) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    planes = obs[: PLANES * FIELDS].reshape(PLANES, FIELDS)
    b = state.board
    planes[:10] = static_planes(b, seat)

    def o(f: int) -> int:
        return f if seat == 0 else FIELDS - 1 - f

    idx: list[int] = []
    val: list[float] = []
    for f in state.breached:
        idx.append(2 * FIELDS + o(f))
        val.append(0.0)
    for s in state.sources:
        if s.pos >= 0 and (s.kind == "crystal" or s.life > 0):
            plane = 10 if s.kind == "crystal" else 11 if s.side == seat else 12
            idx.append(plane * FIELDS + o(s.pos))
            val.append(1.0)
    if state.active >= 0:
        idx.append(13 * FIELDS + o(state.units[state.active].pos))
        val.append(1.0)
    sign = 1 if seat == 0 else -1
    generals = (state.active_general(0), state.active_general(1))
    for u in state.units:
        if u.pos < 0:
            continue
        f = o(u.pos) + (14 if u.side == seat else 23) * FIELDS
        dr, dc = DIRS[u.facing]
        idx += [f + k * FIELDS for k in range(9)]
        val += (1.0, u.life / u.ch.life, u.flying, u.turned, u is generals[u.side], (sign * dc + 1) / 2,
                (sign * -dr + 1) / 2, u.disabled, u.acted)
    obs[idx] = val
    at = PLANES * FIELDS
    vals = [0.0] * (2 * MAX_ARMY * UNIT_BLOCK)
    for u in state.units:
        slot = (0 if u.side == seat else MAX_ARMY) + u.slot
        if slot >= 2 * MAX_ARMY:
            continue
        k = slot * UNIT_BLOCK
        vals[k: k + UNIT_BLOCK] = (
            float(u.pos >= 0), u.life / 20, *_character_block(u.name), min(1.0, sum(u.reserves.values()) / 20),
            float(bool(u.weapon)), float(bool(u.armor)), float(bool(u.standard)), len(u.upgrades) / 5,
            min(1.0, u.enh_off / 5), min(1.0, u.enh_def / 5))
    obs[at: at + len(vals)] = vals
    at += 2 * MAX_ARMY * UNIT_BLOCK
    names = _card_index(state.game.scenario.factions[seat])
    for card in state.hands[seat]:
        obs[at + names[card]] += 1 / HAND_SLOTS
    at += 16
    if state.pending >= 0 and state.current_player == seat:
        obs[at + state.pending] = 1
    at += HAND_SLOTS
    cap = state.game.config.rounds or state.game.scenario.rounds
    g = [min(1.0, state.pool(seat) / 20), min(1.0, state.pool(1 - seat) / 20), len(state.decks[seat]) / 50,
         len(state.decks[1 - seat]) / 50, len(state.hands[seat]) / HAND_SLOTS, len(state.hands[1 - seat]) / HAND_SLOTS,
         min(1.0, state.round / cap), float(state.first == seat), float(state.turn == seat),
         min(1.0, state.hold[seat] / 10), min(1.0, state.hold[1 - seat] / 10), min(1.0, len(state.stack) / 4)]
    obs[at: at + len(g)] = g
    obs[at + 16 + state.phase] = 1
    return obs


assert SIZE * SIZE == FIELDS
