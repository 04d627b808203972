"""Checks a loaded state against the game's invariants, naming what is wrong (the contract's
`_check_consistency`): pieces never negative and within each player's set, a held nation has troops, a
held sea has vessels, the cards add up to the deck, money is never negative, and the phase fits the
position."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.attacks import ATTACK_KINDS, NAVAL, TROOPS_ATTACK
from ultimata.envs.ultimatum_world.content import CARD_KINDS
from ultimata.envs.ultimatum_world.phases import ACT, BATTLE, BUY, MOVE_IN, OVER, PHASES, SETUP, WINDOW

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def check(s: WorldState) -> None:
    n = s.n
    _need(0 <= s.phase < len(PHASES), f"phase {s.phase} is not one of 0..{len(PHASES) - 1}")
    lists = {
        "owner": A.NATIONS,
        "troops": A.NATIONS,
        "sea_owner": A.SEAS,
        "bs": A.SEAS,
        "subs": A.SEAS,
        "ready_bs": A.SEAS,
        "ready_subs": A.SEAS,
        "bank": n,
        "lasers": n,
        "out": n,
    }
    for name, size in lists.items():
        _need(len(getattr(s, name)) == size, f"{name} must have {size} entries")
    playing = s.phase >= BUY
    for x in range(A.NATIONS):
        _need(-1 <= s.owner[x] < n, f"nation {x} has owner {s.owner[x]}")
        _need(s.troops[x] >= 0, f"nation {x} has {s.troops[x]} troops")
        held_ok = s.troops[x] >= 1 if s.owner[x] >= 0 else s.troops[x] == 0
        if s.phase != MOVE_IN or x != (s.attack[3] if s.attack else -1):
            _need(held_ok, f"nation {x}: a held nation keeps at least one troop, an empty one none")
        _need(not playing or s.owner[x] >= 0, f"nation {x} is empty after the set-up")
    for t in range(A.SEAS):
        _need(-1 <= s.sea_owner[t] < n, f"sea place {t} has owner {s.sea_owner[t]}")
        _need(s.bs[t] >= 0 and s.subs[t] >= 0, f"sea place {t} has negative vessels")
        _need((s.sea_owner[t] >= 0) == (s.bs[t] + s.subs[t] > 0), f"sea place {t}: held iff vessels are there")
        _need(
            0 <= s.ready_bs[t] <= s.bs[t] and 0 <= s.ready_subs[t] <= s.subs[t],
            f"sea place {t}: more vessels ready to move than present",
        )
        _need(
            s.sea_owner[t] == s.player or s.ready_bs[t] + s.ready_subs[t] == 0 or s.phase == WINDOW,
            f"sea place {t}: only the player whose turn it is has vessels ready",
        )
    _need(all(b >= 0 for b in s.bank) and s.turn_money >= 0 and s.embargo_money >= 0, "money is never negative")
    _need(all(x >= 0 for x in s.lasers), "lasers are never negative")
    _check_pieces(s)
    _need(all(len(d) == 3 and 0 <= d[0] < n and 0 <= d[1] < n and d[2] > 0 for d in s.debts), "bad embargo debt")
    total = Counter(s.rules.deck)
    held: Counter[int] = Counter(s.deck)
    for q in range(n):
        _need(len(s.hands[q]) == len(CARD_KINDS) and all(c >= 0 for c in s.hands[q]), f"player {q}'s hand is malformed")
        for k, c in enumerate(s.hands[q]):
            held[k] += c
    _need(held == total, "the cards in hands and deck are not the game's deck")
    _need(all(0 <= k < len(CARD_KINDS) for k in s.deck), "unknown card in the deck")
    _need(0 <= s.used <= len(s.deck), "the used cards are part of the deck")
    _need(
        len(s.known) == n
        and all(0 <= known <= held for q in range(n) for known, held in zip(s.known[q], s.hands[q], strict=True)),
        "the cards everyone knows a player holds are in its hand",
    )
    if s.phase in (BUY, ACT, BATTLE, MOVE_IN, WINDOW):
        _need(0 <= s.player < n and not s.out[s.player], "the player whose turn it is must be in the game")
    if s.phase in (BATTLE, MOVE_IN, WINDOW):
        _need(len(s.attack) == 5 and 0 <= s.attack[3] < A.PLACES, "an attack needs its target")
        _need(0 <= s.attack[2] < n and s.attack[1] == s.player, "an attack names its attacker and defender")
        _need(0 <= s.attack[0] < len(ATTACK_KINDS), "an attack is a troop attack, jet bomber, laser or naval attack")
    troop_battle = s.phase in (BATTLE, MOVE_IN, WINDOW) and s.attack[0] == TROOPS_ATTACK
    if troop_battle:
        _need(
            0 <= s.attack[4] < A.NATIONS and s.owner[s.attack[4]] == s.player,
            "a troop battle starts from a held nation",
        )
        _need(s.attack[3] < A.NATIONS, "a troop battle is fought over a nation")
    naval = s.phase in (BATTLE, WINDOW) and s.attack[0] == NAVAL
    _need(len(s.force) == 2 and min(s.force) >= 0, "the attacking force is two counts, never negative")
    if naval:
        t = s.attack[3] - A.NATIONS
        _need(t >= 0 and s.sea_owner[t] == s.attack[2] and any(s.force), "a naval battle has both sides' vessels")
    _need(-1 <= s.aim < 4 and (s.aim < 0 or naval), "a naval pair is announced only in a naval battle")
    _need(s.phase != WINDOW or s.attack[0] != NAVAL or s.aim >= 0, "a window in a naval battle follows an announcement")
    _need(
        len(s.placing) == 3 and min(s.placing) >= 0 and (s.placing == [0, 0, 0] or s.phase in (BUY, ACT)),
        "reinforcements are placed during the player's own turn",
    )
    _need(s.place_at < 0 or s.placing != [0, 0, 0], "a place is chosen only for reinforcements")
    if s.transfer != [-1, -1]:
        source, into = s.transfer
        _need(
            0 <= source < A.NATIONS and 0 <= into < A.NATIONS and source != into and s.phase in (BUY, ACT, WINDOW),
            "troops move on between two nations during a turn",
        )
        _need(
            s.owner[source] == s.owner[into] == s.current_player and s.troops[source] >= 2,
            "more troops move only between two nations of the deciding player with a troop to spare",
        )
    _need(all(0 <= t < A.BLOCKADES and s.sea_owner[t] < 0 for t in s.emptied), "emptied blockades are vacant")
    _need(s.rolls >= 0, "a battle's roll count is never negative")
    if s.phase == MOVE_IN:
        _need(s.troops[s.attack[3]] == 0 and s.troops[s.attack[4]] >= 2, "moving in needs a conquered nation")
    if s.phase == OVER:
        _need(bool(s.winners) and all(0 <= q < n for q in s.winners), "a finished game names its winners")
    if s.phase in SETUP:
        _need(s.player == -1 and not s.pending, "no turns are played during the set-up")
    _need(s.round >= 1 and s.turn >= 0, "round and turn count from 1 and 0")
    _check_decision(s)


def _check_pieces(s: WorldState) -> None:
    """Nobody has more in play than its set of pieces holds (config `pieces`)."""
    pieces = s.cfg.pieces
    for q in range(s.n if pieces is not None else 0):
        _need(s.lasers[q] <= pieces.large_discs, f"player {q} has more lasers than large discs")
        _need(s.troops_left(q) >= 0, f"player {q} has more troops and lasers in play than its set of pieces")
        _need(min(s.vessels_left(q)) >= 0, f"player {q} has more vessels in play than its set of pieces")


def _check_decision(s: WorldState) -> None:
    """The decision under way was reachable: at most one of a verb chain, reinforcements to place or
    troops moving on; the chain's verb and each choice were offered; an attack names its parties."""
    busy = [bool(s.pending), s.placing != [0, 0, 0], s.transfer != [-1, -1]]
    _need(sum(busy) <= 1, "one decision at a time: a verb's choices, reinforcements or troops moving on")
    if s.phase in (BATTLE, MOVE_IN, WINDOW):
        kind, attacker, defender, target, source = s.attack
        _need(s.owner_of(target) == defender != attacker, "the attack's target is the defender's")
        _need(kind != NAVAL or target >= A.NATIONS, "a naval attack is fought at sea")
        _need(kind == NAVAL or s.force[1] == 0, "only a naval attack has submarines in it")
    if s.pending:
        verb, args = s.pending[0], s.pending[1:]
        _need(A.BUY_TROOPS_1 <= verb < A.NUM_ACTIONS, f"pending verb {verb} is not a verb")
        chain = list(s.pending)
        s.pending = []
        try:
            _need(verb in s._legal_actions(), f"pending verb {verb} is not legal here")
            for step, arg in enumerate(args):
                options = s.verb_options(verb, args[:step])
                _need(options is not None and arg in options, f"pending choice {arg} was not offered")
        finally:
            s.pending = chain
    if s.place_at >= 0:
        place_at, s.place_at = s.place_at, -1
        try:
            _need(A.PLACE + place_at in s._legal_actions(), f"reinforcements cannot go on place {place_at}")
        finally:
            s.place_at = place_at
    s._legal_actions()  # a position whose legal set cannot be computed is refused
