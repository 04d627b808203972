"""Positions for rule tests: a world where every nation is held by one player with one troop unless
the test says otherwise, the seas empty, and a chosen player to move with the dice forced."""

from __future__ import annotations

from typing import Any

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng, ScriptedRng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import CARD_KINDS, world
from ultimata.envs.ultimatum_world.phases import ACT
from ultimata.envs.ultimatum_world.state import WorldState

W = world()
BLACK = {2: 1, 5: 2, 10: 3, 15: 4, 20: 5, 28: 6}
RED = {1: 1, 2: 2, 4: 3, 6: 4, 8: 5, 10: 6}
GREEN = {"WIN": 1, "LOSE": 3, "DRAW": 5}
"""Forced-roll values giving each default face (a roll k shows the k-th face of data/rules.yaml)."""


def nation(name: str) -> int:
    return W.nation(name)


def sea(number_or_anchor: int | tuple[int, ...]) -> int:
    """A blockade by its number, or an anchor by its numbers, as an index of the sea places."""
    if isinstance(number_or_anchor, int):
        return number_or_anchor - 1
    return 14 + W.anchor_numbers.index(tuple(number_or_anchor))


def place(x: int, at_sea: bool = False) -> int:
    return A.PLACE + (A.NATIONS + x if at_sea else x)


def position(n: int = 3, to_move: int = 0, nations: dict[str, tuple[int, int]] | None = None,
             seas: dict[Any, tuple[int, int, int]] | None = None, rolls: list[int] | None = None,
             hands: dict[int, dict[str, int]] | None = None, phase: int = ACT, **cfg: Any) -> WorldState:
    """`nations`: name -> (owner, troops); the rest belong to the last player with 1 troop.
    `seas`: blockade number or anchor tuple -> (owner, battleships, submarines)."""
    game = game_class("ultimatum_world_v4").from_config({"num_players": n, "setup": "dealt", **cfg})
    s = game.new_initial_state(Rng(0))
    s.owner = [n - 1] * A.NATIONS
    s.troops = [1] * A.NATIONS
    for name, (owner, troops) in (nations or {}).items():
        s.owner[nation(name)], s.troops[nation(name)] = owner, troops
    s.sea_owner, s.bs, s.subs = [-1] * A.SEAS, [0] * A.SEAS, [0] * A.SEAS
    for key, (owner, bs, subs) in (seas or {}).items():
        t = sea(key)
        s.sea_owner[t], s.bs[t], s.subs[t] = owner, bs, subs
    s.hands = [[0] * len(CARD_KINDS) for _ in range(n)]
    s.deck = list(s.rules.deck)
    for q, cards in (hands or {}).items():
        for kind, count in cards.items():
            k = CARD_KINDS.index(kind)
            s.hands[q][k] += count
            for _ in range(count):
                s.deck.remove(k)
    s.bank = [0] * n
    s.alliance_flag = [[s.holds_alliance(q, a) for a in range(4)] for q in range(n)]
    s.order_first = 0
    s._start_turn(to_move)
    s.phase = phase
    s.rng = ScriptedRng(rolls=rolls or [])
    s._mask = None
    return s


def aim(mine: str, theirs: str) -> int:
    """The naval announcement 'my battleship/submarine attacks their battleship/submarine'."""
    kinds = ("battleship", "submarine")
    return A.AIM + 2 * kinds.index(mine) + kinds.index(theirs)


def play(s: WorldState, *actions: int) -> WorldState:
    for a in actions:
        s.apply(a)
    return s
