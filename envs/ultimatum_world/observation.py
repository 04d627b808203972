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
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import BRANCHES, CARD_KINDS, MAX_PLAYERS, world
from ultimata.envs.ultimatum_world.phases import ACT, BATTLE, BUY, MOVE_IN, PHASES, WINDOW

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
    "phase": len(PHASES),
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
RELATIVE = {
    (n, viewer): tuple((q - viewer) % n for q in range(n)) for n in range(2, MAX_PLAYERS + 1) for viewer in range(n)
}
"""Each seat's place relative to the viewer, by table size and viewer."""
UNSEEN = [-1] * KINDS
ALLIANCE_MEMBERS = [itemgetter(*members) for members in W.members]
"""Each alliance's holders as one tuple, read from the owner list at C speed."""
BRANCH_OF_KIND: list[int] = []
"""Filled on first use from the rules data (the card branches)."""


BLOCKS_KEPT = 4096
"""How many nations blocks, and as many seas blocks, are kept (the least recently used go first). A block
depends only on the board and the viewer, and in random play the nations block is the same as at this
seat's last decision 69% of the time, the seas block 82%: looking one up is cheaper than writing it. The
blocks kept are shared and never written."""


@lru_cache(maxsize=BLOCKS_KEPT)
def _nations_block(rel: tuple[int, ...], owner: tuple[int, ...], troops: tuple[int, ...]) -> array:
    block = array("f", bytes(4 * (SEA_AT - NATION_AT)))
    for x, (holder, count) in enumerate(zip(owner, troops)):
        if holder >= 0:
            block[7 * x + rel[holder]] = 1.0
        block[7 * x + 6] = count / 20
    return block


@lru_cache(maxsize=BLOCKS_KEPT)
def _seas_block(rel: tuple[int, ...], holders: tuple[int, ...], bs: tuple[int, ...], subs: tuple[int, ...],
                ready: tuple[int, ...], emptied: tuple[int, ...]) -> array:
    """`ready`: the battleships then the submarines ready to move, when the viewer is on turn (else empty)."""
    block = array("f", bytes(4 * (PLAYER_AT - SEA_AT)))
    seas = len(holders)
    for t, holder in enumerate(holders):
        if holder >= 0:
            at = SEA_WIDTH * t
            block[at + rel[holder]] = 1.0
            block[at + 6] = bs[t] / 10
            block[at + 7] = subs[t] / 10
            if ready:
                block[at + 8] = ready[t] / 10
                block[at + 9] = ready[seas + t] / 10
    for t in emptied:
        block[SEA_WIDTH * t + 10] = 1.0
    return block


def _board(s: WorldState, o: array, rel: tuple[int, ...], mine: bool) -> None:
    o[NATION_AT:SEA_AT] = _nations_block(rel, tuple(s.owner), tuple(s.troops))
    ready = (*s.ready_bs, *s.ready_subs) if mine else ()
    o[SEA_AT:PLAYER_AT] = _seas_block(rel, tuple(s.sea_owner), tuple(s.bs), tuple(s.subs), ready, tuple(s.emptied))


def _players(s: WorldState, o: array, rel: tuple[int, ...]) -> None:
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


def _intel(s: WorldState, o: array, viewer: int, rel: tuple[int, ...]) -> None:
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


def _public_cards(s: WorldState, o: array, viewer: int, rel: tuple[int, ...]) -> None:
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


ANYTHING, CHOICE = 0, 1
"""What a decision changed (`state.changed`, set by `_apply`): anything, or only the choice in progress
(the verb being built and the places chosen, `pending`, or where reinforcements go, `place_at`)."""


class LastView:
    """The last observation made of one state (a private copy): the next one of the same seat, one decision
    later, is that one patched when the decision changed only the choice in progress (`state.changed`). A
    third of random play's decisions are such choices."""

    __slots__ = ("seat", "decisions", "obs")

    def __init__(self) -> None:
        self.seat, self.decisions = -1, -1
        self.obs: np.ndarray | None = None

    def observe(self, s: WorldState, seat: int) -> np.ndarray:
        patch = s.changed == CHOICE and self.obs is not None and seat == self.seat and self.decisions == s.decisions - 1
        obs = after_choice(s, self.obs) if patch else observe(s, seat)
        self.seat, self.decisions, self.obs = seat, s.decisions, obs.copy()
        return obs


def after_choice(s: WorldState, previous: np.ndarray) -> np.ndarray:
    """The observation after a decision that changed only the choice in progress: the previous one with
    the pending and placing blocks rewritten (tests/ultimatum_world/test_play.py checks it against
    `observe` after every decision of many games)."""
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
