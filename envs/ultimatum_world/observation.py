"""What one seat sees, seat-relative (relative seat 0 is the viewer, 1 the player to its left).
Everything on the table is public; a seat sees its own hand and what its Intelligence cards showed it,
never another hand or the deck order.

Layout (`OBS_SIZE` floats, the blocks of `SIZES` in this order):
  nations   37 x 7: holder (relative seat one-hot, 6), troops / 20
  seas      23 x 11: holder (6), battleships / 10, submarines / 10, ready to move this turn (2, / 10),
            a blockade the player on turn conquered this turn by sinking its last vessel, still vacant
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

from array import array
from collections.abc import Callable
from operator import itemgetter
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
NATION_AT, SEA_AT, PLAYER_AT, HAND_AT, INTEL_AT, CARDS_AT, PHASE_AT = (
    AT[b] for b in ("nations", "seas", "players", "hand", "intel", "cards", "phase")
)

EMPTY = array("f", bytes(4 * OBS_SIZE))
"""The observation is written value by value into a copy of this float32 buffer and handed over as
one numpy array: at this size numpy's per-call cost is larger than Python's per-value one."""
RELATIVE = {(n, viewer): [(q - viewer) % n for q in range(n)] for n in range(2, MAX_PLAYERS + 1) for viewer in range(n)}
UNSEEN = [-1] * KINDS
ALLIANCE_MEMBERS = [itemgetter(*members) for members in W.members]
"""Each alliance's holders as one tuple, read from the owner list at C speed."""
BRANCH_OF_KIND: list[int] = []
"""Filled on first use from the rules data (the card branches)."""


_BLOCKS: dict[tuple, array] = {}
"""Nations and seas blocks by their content and viewer: in random play the nations block is the same
as at this seat's last decision 69% of the time, the seas block 82% (bounded; blocks are never
written after they are stored)."""


def _cached(key: tuple, write: Callable[[array], None], size: int) -> array:
    block = _BLOCKS.get(key)
    if block is None:
        if len(_BLOCKS) > 4096:
            _BLOCKS.clear()
        block = _BLOCKS[key] = array("f", bytes(4 * size))
        write(block)
    return block


def _board(s: WorldState, o: array, rel: list[int], mine: bool) -> None:
    def nations(block: array) -> None:
        for x, (holder, troops) in enumerate(zip(s.owner, s.troops)):
            if holder >= 0:
                block[7 * x + rel[holder]] = 1.0
            block[7 * x + 6] = troops / 20

    def seas(block: array) -> None:
        for t, holder in enumerate(s.sea_owner):
            if holder >= 0:
                at = SEA_WIDTH * t
                block[at + rel[holder]] = 1.0
                block[at + 6] = s.bs[t] / 10
                block[at + 7] = s.subs[t] / 10
                if mine:
                    block[at + 8] = s.ready_bs[t] / 10
                    block[at + 9] = s.ready_subs[t] / 10
        for t in s.emptied:
            block[SEA_WIDTH * t + 10] = 1.0

    seat = (s.n, rel[0])
    o[NATION_AT:SEA_AT] = _cached((*seat, *s.owner, *s.troops), nations, SEA_AT - NATION_AT)
    ready = (*s.ready_bs, *s.ready_subs) if mine else ()
    key = (*seat, *s.sea_owner, *s.bs, *s.subs, -1, *ready, -1, *s.emptied)
    o[SEA_AT:PLAYER_AT] = _cached(key, seas, PLAYER_AT - SEA_AT)


def _players(s: WorldState, o: array, rel: list[int]) -> None:
    owner = s.owner
    for q, (out, bank, lasers, cards) in enumerate(zip(s.out, s.bank, s.lasers, map(sum, s.hands))):
        at = PLAYER_AT + 12 * rel[q]
        o[at] = 1.0
        o[at + 1] = out
        o[at + 2] = bank / 50
        o[at + 3] = lasers / 5
        o[at + 4] = cards / 10
        o[at + 11] = owner.count(q) / 37
    for a, members in enumerate(ALLIANCE_MEMBERS):
        holders = members(owner)
        if holders[0] >= 0 and holders.count(holders[0]) == len(holders):
            o[PLAYER_AT + 12 * rel[holders[0]] + 5 + a] = 1.0
    if s.debts:
        owed = [0] * s.n
        for debtor, _, amount in s.debts:
            owed[debtor] += amount
        for q, amount in enumerate(owed):
            o[PLAYER_AT + 12 * rel[q] + 9] = amount / 10
    if s.player >= 0:
        o[PLAYER_AT + 12 * rel[s.player] + 10] = 1.0


def _intel(s: WorldState, o: array, viewer: int, rel: list[int]) -> None:
    if s.revealed[viewer].count(UNSEEN) == s.n:  # nothing seen of anyone: most calls stop here
        return
    if not BRANCH_OF_KIND:
        BRANCH_OF_KIND.extend(BRANCHES.index(s.rules.cards[k].branch) for k in range(KINDS))
    for q, seen in enumerate(s.revealed[viewer]):
        if q == viewer or seen == UNSEEN:
            continue
        at = INTEL_AT + (3 + KINDS) * (rel[q] - 1)
        for k, count in enumerate(seen):
            if count >= 0:
                o[at + BRANCH_OF_KIND[k]] = 1.0
                o[at + 3 + k] = count / 4


def _public_cards(s: WorldState, o: array, viewer: int, rel: list[int]) -> None:
    """Used cards go to the bottom of the deck in an order everyone saw; once the unseen cards above
    them run out, everyone knows which card a player draws."""
    top = len(s.deck) - s.used
    used_at = CARDS_AT + (MAX_PLAYERS - 1) * KINDS
    if s.used:
        counts = [0] * KINDS
        for k in s.deck[top:]:
            counts[k] += 1
        for k, count in enumerate(counts):
            if count:
                o[used_at + k] = count / 10
    o[used_at + KINDS] = top / 72
    for q, known in enumerate(s.known):
        if q != viewer and any(known):
            at = CARDS_AT + KINDS * (rel[q] - 1)
            for k, count in enumerate(known):
                o[at + k] = count / 4


def _choices(s: WorldState, o: array | np.ndarray) -> None:
    """The pending and placing blocks: the verb being built, the places chosen, the pieces to place."""
    if s.pending:
        o[AT["pending"] + s.pending[0] - A.BUY_TROOPS_1] = 1.0
        for i, arg in enumerate(s.pending[1:3]):
            if arg < PLACES:
                o[AT["pending"] + VERBS + i * PLACES + arg] = 1.0
    if s.placing != [0, 0, 0]:
        b = AT["placing"]
        for k, count in enumerate(s.placing):
            o[b + k] = count / 10
        if s.place_at >= 0:
            o[b + 3 + s.place_at] = 1.0


def after_choice(s: WorldState, previous: np.ndarray) -> np.ndarray:
    """The observation after a decision that only chose a verb, a place or a piece's place (the state
    changed in `pending` or `place_at` alone): the previous one with those blocks rewritten. A third of
    random play's decisions are such choices."""
    obs = previous.copy()
    obs[AT["pending"] : AT["transfer"]] = 0.0
    _choices(s, obs)
    return obs


def observe(s: WorldState, viewer: int) -> np.ndarray:
    rel = RELATIVE[s.n, viewer]
    o = array("f", EMPTY)
    _board(s, o, rel, s.player == viewer)
    _players(s, o, rel)
    for k, count in enumerate(s.hands[viewer]):
        if count:
            o[HAND_AT + k] = count / 4
    _intel(s, o, viewer, rel)
    _public_cards(s, o, viewer, rel)
    o[PHASE_AT + s.phase] = 1.0
    _choices(s, o)
    if s.transfer[0] >= 0:
        o[AT["transfer"] + s.transfer[0]] = 1.0
        o[AT["transfer"] + A.NATIONS + s.transfer[1]] = 1.0
    if s.attack and s.phase in (BATTLE, MOVE_IN, WINDOW):
        kind, attacker, defender, target, source = s.attack
        b = AT["attack"]
        o[b + kind] = 1.0
        o[b + 4 + rel[attacker]] = 1.0
        o[b + 10 + rel[defender]] = 1.0
        o[b + 16 + target] = 1.0
        if source >= 0:
            o[b + 16 + PLACES + source] = 1.0
        b += 16 + 2 * PLACES
        o[b], o[b + 1] = s.force[0] / 10, s.force[1] / 10
        if s.aim >= 0:
            o[b + 2 + s.aim] = 1.0
        o[b + 6] = float(s.blitz)
        o[b + 7] = float(s.laser_answered)
    b = AT["scalars"]
    turn = s.phase in (BUY, ACT, BATTLE, MOVE_IN, WINDOW)
    scalars = (
        (s.troop_money() if turn else 0) / 50,
        (s.laser_money() if turn else 0) / 50,
        s.turn_money / 50,
        s.embargo_money / 50,
        s.round / s.cfg.max_rounds,
        s.conquered_nations / 3,
        s.conquered_blockades / 3,
        s.n == 2,
    )
    for k, value in enumerate(scalars):
        o[b + k] = value
    return np.array(o)  # float32, from the buffer's typecode
