"""What one seat sees, seat-relative (relative seat 0 is the viewer, 1 the player to its left).
Everything on the table is public; a seat sees its own hand and what its Intelligence cards showed it,
never another hand or the deck order.

Layout (1,102 floats):
  nations   37 x 7: holder (relative seat one-hot, 6), troops / 20
  seas      23 x 11: holder (6), battleships / 10, submarines / 10, ready to move this turn (2, / 10),
            a blockade emptied this turn by the player on turn (moving in conquers it)
  players    6 x 12: present, out, bank / 50, lasers / 5, cards held / 10, whole alliances held (4),
            embargo debt owed / 10, whose turn it is, nations held / 37
  hand      13: my cards per kind / 4
  intel      5 x 16: per opponent, which branches I have seen (army, navy, air) and the counts I saw / 4
  phase      9 one-hot
  pending   34 + 60 + 60: the verb being built and the places chosen so far
  placing   3 + 60: troops, battleships, submarines still to place / 10, the place chosen for them
  transfer  37 + 37: troops moving on (after moving in or an airlift): from, to
  attack     4 + 6 + 6 + 60 + 60 + 2 + 4 + 2: kind, attacker, defender, target, source, attacking
            battleships and submarines / 10, the announced naval pair, blitzing, laser answered
  scalars    8: on turn: money for troops and vessels now / 50, for a laser now / 50, conquest money / 50,
            embargo money / 50; round / cap, nations and blockades conquered this turn / 3, the two-player rule
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import BRANCHES, CARD_KINDS, MAX_PLAYERS, world
from ultimata.envs.ultimatum_world.state import ACT, BATTLE, BUY, MOVE_IN, WINDOW

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
PLACES = A.PLACES
VERBS = A.NUM_ACTIONS - A.BUY_TROOPS_1
KINDS = len(CARD_KINDS)
SEA_WIDTH = 11
SIZES = {
    "nations": A.NATIONS * 7,
    "seas": A.SEAS * SEA_WIDTH,
    "players": MAX_PLAYERS * 12,
    "hand": KINDS,
    "intel": (MAX_PLAYERS - 1) * (3 + KINDS),
    "phase": 9,
    "pending": VERBS + 2 * PLACES,
    "placing": 3 + PLACES,
    "transfer": 2 * A.NATIONS,
    "attack": 4 + 2 * MAX_PLAYERS + 2 * PLACES + 2 + 4 + 2,
    "scalars": 8,
}
AT: dict[str, int] = {}
_start = 0
for _name, _size in SIZES.items():
    AT[_name] = _start
    _start += _size
OBS_SIZE = _start


_BOARD_CACHE: dict[tuple, np.ndarray] = {}
"""The nations and seas blocks by position and viewer: over half the decisions of a turn (choosing a
verb, a place, an amount) leave the board as it was (bounded, read-only)."""


def _board(s: WorldState, rel: list[int], mine: bool) -> np.ndarray:
    board = np.zeros(AT["players"], dtype=np.float32)
    at = AT["nations"]
    board[[at + 7 * x + rel[o] for x, o in enumerate(s.owner) if o >= 0]] = 1.0
    board[at + 6 : at + 7 * A.NATIONS : 7] = np.divide(s.troops, 20)
    at = AT["seas"]
    held = [t for t in range(A.SEAS) if s.sea_owner[t] >= 0]
    w, end = SEA_WIDTH, at + SEA_WIDTH * A.SEAS
    if held:
        board[[at + w * t + rel[s.sea_owner[t]] for t in held]] = 1.0
        board[at + 6 : end : w] = np.divide(s.bs, 10)
        board[at + 7 : end : w] = np.divide(s.subs, 10)
        if mine:
            board[at + 8 : end : w] = np.divide(s.ready_bs, 10)
            board[at + 9 : end : w] = np.divide(s.ready_subs, 10)
    for t in s.emptied:
        board[at + w * t + 10] = 1.0
    return board


def observe(s: WorldState, viewer: int) -> np.ndarray:
    n = s.n
    rel = [(q - viewer) % n for q in range(n)]
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    mine = s.player == viewer
    key = (
        viewer,
        n,
        mine,
        *s.owner,
        *s.troops,
        *s.sea_owner,
        *s.bs,
        *s.subs,
        *(s.ready_bs + s.ready_subs if mine else ()),
        -1,
        *s.emptied,
    )
    board = _BOARD_CACHE.get(key)
    if board is None:
        board = _board(s, rel, mine)
        if len(_BOARD_CACHE) > 1024:
            _BOARD_CACHE.clear()
        _BOARD_CACHE[key] = board
    obs[: AT["players"]] = board
    owed = [0] * n
    for debtor, _, amount in s.debts:
        owed[debtor] += amount
    alliance_holder = [s.owner[m[0]] if len({s.owner[x] for x in m}) == 1 else -1 for m in W.members]
    block = [0.0] * (12 * MAX_PLAYERS)  # written into the observation once: one conversion, not n
    for q in range(n):
        b = 12 * rel[q]
        block[b : b + 12] = (
            1.0,
            float(s.out[q]),
            s.bank[q] / 50,
            s.lasers[q] / 5,
            sum(s.hands[q]) / 10,
            *[float(h == q) for h in alliance_holder],
            owed[q] / 10,
            float(s.player == q),
            s.owner.count(q) / 37,
        )
    obs[AT["players"] : AT["hand"]] = block
    obs[AT["hand"] : AT["hand"] + KINDS] = np.asarray(s.hands[viewer], dtype=np.float32) / 4
    branch_of = None
    for q in range(n):
        seen = s.revealed[viewer][q]
        if q == viewer or max(seen) < 0:  # nothing seen of q: most calls stop here
            continue
        branch_of = branch_of or [s.rules.cards[k].branch for k in range(KINDS)]
        b = AT["intel"] + (3 + KINDS) * (rel[q] - 1)
        for k, count in enumerate(seen):
            if count >= 0:
                obs[b + BRANCHES.index(branch_of[k])] = 1.0
                obs[b + 3 + k] = count / 4
    obs[AT["phase"] + s.phase] = 1.0
    if s.pending:
        obs[AT["pending"] + s.pending[0] - A.BUY_TROOPS_1] = 1.0
        for i, arg in enumerate(s.pending[1:3]):
            if arg < PLACES:
                obs[AT["pending"] + VERBS + i * PLACES + arg] = 1.0
    if s.placing != [0, 0, 0]:
        b = AT["placing"]
        obs[b : b + 3] = np.divide(s.placing, 10)
        if s.place_at >= 0:
            obs[b + 3 + s.place_at] = 1.0
    if s.transfer[0] >= 0:
        obs[AT["transfer"] + s.transfer[0]] = 1.0
        obs[AT["transfer"] + A.NATIONS + s.transfer[1]] = 1.0
    if s.attack and s.phase in (BATTLE, MOVE_IN, WINDOW):
        kind, attacker, defender, target, source = s.attack
        b = AT["attack"]
        obs[b + kind] = 1.0
        obs[b + 4 + rel[attacker]] = 1.0
        obs[b + 10 + rel[defender]] = 1.0
        obs[b + 16 + target] = 1.0
        if source >= 0:
            obs[b + 16 + PLACES + source] = 1.0
        b += 16 + 2 * PLACES
        obs[b : b + 2] = np.divide(s.force, 10)
        if s.aim >= 0:
            obs[b + 2 + s.aim] = 1.0
        obs[b + 6] = float(s.blitz)
        obs[b + 7] = float(s.laser_answered)
    b = AT["scalars"]
    turn = s.phase in (BUY, ACT, BATTLE, MOVE_IN, WINDOW)
    obs[b : b + 8] = (
        (s.troop_money() if turn else 0) / 50,
        (s.laser_money() if turn else 0) / 50,
        s.turn_money / 50,
        s.embargo_money / 50,
        s.round / s.cfg.max_rounds,
        s.conquered_nations / 3,
        s.conquered_blockades / 3,
        float(n == 2),
    )
    return obs
