"""Random games for the fuzz tests: the configs they cover, positions random play rarely reaches (money,
lasers, cards, nearly whole alliances), and a random policy nudged toward the rare paths. The number of
games is small by default; ULTIMATA_FUZZ_GAMES=N plays N games per test on demand, from seed
ULTIMATA_FUZZ_FIRST (default 0), so a long run can be split over processes."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import world
from ultimata.envs.ultimatum_world.scripted import choose_action
from ultimata.envs.ultimatum_world.state import WorldState

W = world()


def seeds(default: int) -> range:
    first = int(os.environ.get("ULTIMATA_FUZZ_FIRST", 0))
    return range(first, first + int(os.environ.get("ULTIMATA_FUZZ_GAMES", default)))


TIGHT_PIECES = {"troop_discs": 30, "large_discs": 7, "battleships": 14, "submarines": 2}
"""A set small enough that players run out often, and still large enough for the set-up at 2 players."""


def config(seed: int) -> dict[str, Any]:
    """Every table size, both set-ups, both ways of keeping conquest money, short and long caps, both
    kinds of defence windows, and the book's set of pieces, unlimited pieces and a tight set."""
    return {
        "num_players": 2 + seed % 5,
        "setup": "book" if seed % 4 == 1 else "dealt",
        "turn_money_kept": seed % 3 == 0,
        "max_rounds": 3 + seed % 4,
        "reaction_windows": "revealing" if seed % 7 < 3 else "always",
        **({}, {"pieces": None}, {"pieces": TIGHT_PIECES})[seed // 5 % 3],
    }


def rich(seed: int) -> bool:
    """Two games in three start from an enriched position."""
    return seed % 3 != 0


def enrich(s: WorldState, pick: random.Random) -> None:
    """After the set-up: money, lasers and cards for everyone, and each alliance all but one nation in
    one player's hands, so lasers, embargoes, alliance money and the win come up."""
    for members in W.members:
        q = pick.randrange(s.n)
        for x in members[:-1]:
            s.owner[x] = q
    for q in range(s.n):
        s.bank[q] = pick.randrange(60)
        s.lasers[q] = pick.randrange(4)
        for _ in range(pick.randrange(8)):
            if s.deck:
                s.hands[q][s.deck.pop(pick.randrange(len(s.deck)))] += 1
        while s.troops_left(q) < 0 and max(s.troops[x] for x in s.nations_of(q)) > 1:  # fit q's set of pieces
            biggest = max(s.nations_of(q), key=s.troops.__getitem__)
            s.troops[biggest] = max(1, s.troops[biggest] + s.troops_left(q))
    s.alliance_flag = [[s.holds_alliance(q, a) for a in range(4)] for q in range(s.n)]
    s.turn -= 1
    s._start_turn(s.player)
    s._mask = None
    s._check_consistency()


def choose(s: WorldState, pick: random.Random, style: int, bots: set[int]) -> int:
    """style 0: uniform; 1: rarely DONE; 2: also curious (sea targets, emptied blockades)."""
    if s.current_player in bots:
        return choose_action(s, pick)  # type: ignore[arg-type]
    legal = s.legal_actions()
    if style >= 2 and pick.random() < 0.5:
        emptied = [a for a in legal if a >= A.NATIONS and a - A.NATIONS in s.emptied and a < A.PLACES]
        seas = [a for a in legal if A.NATIONS <= a < A.PLACES]
        for rare in (emptied, seas):
            if rare:
                return pick.choice(rare)
    if style >= 1 and len(legal) > 1 and pick.random() < 0.7:
        legal = [a for a in legal if a != A.DONE]
    return pick.choice(legal)


def play(seed: int, rng: Rng | None = None) -> Iterator[tuple[WorldState, random.Random, int]]:
    """Yields (state, the game's random source, the next action) until the game is over, then (state,
    pick, -1). Seats are random players, and in one game in four some are the scripted bot."""
    cfg = config(seed)
    pick = random.Random(seed)
    s = game_class("ultimatum_world_v4").from_config(cfg).new_initial_state(rng or Rng(seed))
    if rich(seed):
        if cfg["setup"] == "book":
            s._deal_setup()
        enrich(s, pick)
    bots = {q for q in range(s.n) if pick.random() < 0.3} if seed % 4 == 2 else set()
    style = seed % 3
    while not s.is_terminal():
        action = choose(s, pick, style, bots)
        yield s, pick, action
        s.apply(action)
    yield s, pick, -1
