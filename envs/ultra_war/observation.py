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

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultra_war.combat import attack_spec
from ultimata.envs.ultra_war.content import HAND_SLOTS, MAX_ARMY, SIZE
from ultimata.envs.ultra_war.geometry import DIRS, FIELDS

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState

PLANES = 32
UNIT_BLOCK = 16
OBS_SIZE = PLANES * FIELDS + 2 * MAX_ARMY * UNIT_BLOCK + 16 + HAND_SLOTS + 32


def observe(state: UltraWarState, seat: int) -> np.ndarray:
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    planes = obs[: PLANES * FIELDS].reshape(PLANES, FIELDS)
    order = np.arange(FIELDS) if seat == 0 else np.arange(FIELDS)[::-1]
    b = state.board
    breached = state.breached
    planes[0] = b.wall
    planes[1] = b.door
    planes[2] = [b.breachable[f] and f not in breached for f in range(FIELDS)]
    planes[3] = b.obstruction
    planes[4] = b.level
    planes[5] = b.stairs
    planes[6] = b.objective
    planes[7] = b.escape
    planes[8] = b.start[seat]
    planes[9] = b.start[1 - seat]
    for s in state.sources:
        if s.pos >= 0:
            if s.kind == "crystal":
                planes[10, s.pos] = 1
            elif s.life > 0:
                planes[11 if s.side == seat else 12, s.pos] = 1
    if state.active >= 0:
        planes[13, state.units[state.active].pos] = 1
    sign = 1 if seat == 0 else -1
    generals = (state.active_general(0), state.active_general(1))
    for u in state.units:
        if not u.on_map:
            continue
        base = 14 if u.side == seat else 23
        f = u.pos
        dr, dc = DIRS[u.facing]
        planes[base:base + 9, f] = (1, u.life / u.ch.life, u.flying, u.turned, u is generals[u.side],
                                    (sign * dc + 1) / 2, (sign * -dr + 1) / 2, u.disabled, u.acted)
    planes[:] = planes[:, order]
    at = PLANES * FIELDS
    for u in state.units:
        slot = (0 if u.side == seat else MAX_ARMY) + u.slot
        if slot >= 2 * MAX_ARMY:
            continue
        ch = u.ch
        ranges = [(attack_spec(u, k).range if attack_spec(u, k) else 0) / 12 for k in range(2)]
        block = (u.on_map, u.life / 20, ch.offense / 10, ch.defense / 10, ch.movement / 8, *ranges, ch.magic / 10,
                 ch.energy / 10, min(1.0, sum(u.reserves.values()) / 20), bool(u.weapon), bool(u.armor),
                 bool(u.standard), len(u.upgrades) / 5, min(1.0, u.enh_off / 5), min(1.0, u.enh_def / 5))
        obs[at + slot * UNIT_BLOCK: at + (slot + 1) * UNIT_BLOCK] = block
    at += 2 * MAX_ARMY * UNIT_BLOCK
    names = list(state.game.content.decks[state.game.scenario.factions[seat]])
    for card in state.hands[seat]:
        obs[at + names.index(card)] += 1 / HAND_SLOTS
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
