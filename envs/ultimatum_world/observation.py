"""What one seat sees, seat-relative (relative seat 0 is the viewer, 1 the player to its left).
Everything on the table is public; a seat sees its own hand and what its Intelligence cards showed it,
never another hand or the deck order.

Layout (1,181 floats):
  nations   37 x 7: holder (relative seat one-hot, 6), troops / 20
  seas      23 x 11: holder (6), battleships / 10, submarines / 10, ready to move this turn (2, / 10),
            a blockade emptied this turn by the player on turn (moving in conquers it)
  players    6 x 12: present, out, bank / 50, lasers / 5, cards held / 10, whole alliances held (4),
            embargo debt owed / 10, whose turn it is, nations held / 37
  hand      13: my cards per kind / 4
  intel      5 x 16: per opponent, which branches I have seen (army, navy, air) and the counts I saw / 4
  cards     5 x 13 + 13 + 1: per opponent, the cards everyone knows it holds (drawn back from the used
            cards) / 4; the used cards at the bottom of the deck per kind / 10; unseen cards above them / 72
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
    "cards": (MAX_PLAYERS - 1) * KINDS + KINDS + 1,
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


HOLDER = np.vstack([np.eye(MAX_PLAYERS, dtype=np.float32), np.zeros((1, MAX_PLAYERS), dtype=np.float32)])
"""Row r: relative seat r one-hot; the last row, for nobody, is empty."""
RELATIVE = {
    (n, viewer): np.array([(q - viewer) % n for q in range(n)] + [MAX_PLAYERS])
    for n in range(2, MAX_PLAYERS + 1)
    for viewer in range(n)
}
"""Relative seats indexed by holder, holder -1 (nobody) reading the last entry: the empty row."""
UNSEEN = [-1] * KINDS
BRANCH_OF_KIND: list[int] = []
"""Filled on first use from the rules data (the card branches)."""


def _board(s: WorldState, obs: np.ndarray, rel: np.ndarray, mine: bool) -> None:
    """Nations and seas as (place x feature) views of the observation, written a column at a time."""
    nations = obs[AT["nations"] : AT["seas"]].reshape(A.NATIONS, 7)
    nations[:, :MAX_PLAYERS] = HOLDER[rel[s.owner]]
    nations[:, 6] = s.troops
    nations[:, 6] /= 20
    seas = obs[AT["seas"] : AT["players"]].reshape(A.SEAS, SEA_WIDTH)
    seas[:, :MAX_PLAYERS] = HOLDER[rel[s.sea_owner]]
    seas[:, 6] = s.bs
    seas[:, 7] = s.subs
    if mine:
        seas[:, 8] = s.ready_bs
        seas[:, 9] = s.ready_subs
    seas[:, 6:10] /= 10
    seas[s.emptied, 10] = 1.0


def _players(s: WorldState, obs: np.ndarray, rel: np.ndarray) -> None:
    owner, n = s.owner, s.n
    owed = [0] * n
    for debtor, _, amount in s.debts:
        owed[debtor] += amount
    whole = []
    for members in W.members:
        first = owner[members[0]]
        whole.append(first if all(owner[x] == first for x in members) else -1)
    rows = [
        (1.0, s.out[q], s.bank[q] / 50, s.lasers[q] / 5, sum(s.hands[q]) / 10, *[h == q for h in whole],
         owed[q] / 10, s.player == q, owner.count(q) / 37)
        for q in range(n)
    ]  # fmt: skip
    obs[AT["players"] : AT["hand"]].reshape(MAX_PLAYERS, 12)[rel[:n]] = rows


def _intel(s: WorldState, obs: np.ndarray, viewer: int, rel: np.ndarray) -> None:
    if not BRANCH_OF_KIND:
        BRANCH_OF_KIND.extend(BRANCHES.index(s.rules.cards[k].branch) for k in range(KINDS))
    for q in range(s.n):
        seen = s.revealed[viewer][q]
        if q == viewer or seen == UNSEEN:  # nothing seen of q: most calls stop here
            continue
        b = AT["intel"] + (3 + KINDS) * (rel[q] - 1)
        for k, count in enumerate(seen):
            if count >= 0:
                obs[b + BRANCH_OF_KIND[k]] = 1.0
                obs[b + 3 + k] = count / 4


def _public_cards(s: WorldState, obs: np.ndarray, viewer: int, rel: np.ndarray) -> None:
    """Used cards go to the bottom of the deck in an order everyone saw; once the unseen cards above
    them run out, everyone knows which card a player draws."""
    b = AT["cards"]
    top = len(s.deck) - s.used
    if s.used:
        used = obs[b + (MAX_PLAYERS - 1) * KINDS : b + MAX_PLAYERS * KINDS]
        used[:] = np.bincount(s.deck[top:], minlength=KINDS)
        used /= 10
    obs[b + MAX_PLAYERS * KINDS] = top / 72
    for q in range(s.n):
        if q != viewer and any(s.known[q]):
            row = obs[b + KINDS * (rel[q] - 1) : b + KINDS * rel[q]]
            row[:] = s.known[q]
            row /= 4


def observe(s: WorldState, viewer: int) -> np.ndarray:
    rel = RELATIVE[s.n, viewer]
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    _board(s, obs, rel, s.player == viewer)
    _players(s, obs, rel)
    hand = obs[AT["hand"] : AT["hand"] + KINDS]
    hand[:] = s.hands[viewer]
    hand /= 4
    _intel(s, obs, viewer, rel)
    _public_cards(s, obs, viewer, rel)
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
        obs[b : b + 2] = s.force
        obs[b : b + 2] /= 10
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
        float(s.n == 2),
    )
    return obs
