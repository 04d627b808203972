"""Checks a loaded state against the game's invariants, naming what is wrong (the contract's
`_check_consistency`, issue 40). Each field's type, size and range (a whole number is never 1.5, true, null
or "1") is `WorldState.FIELDS`'s, checked by the engine first; here is the position: pieces never negative and
within each player's set, a held nation has troops, a held sea has vessels, the cards add up to the deck,
money is never negative, the set-up's picks, the players out, and the phase fitting the position."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.attacks import JET, NAVAL, TROOPS_ATTACK
from ultimata.envs.ultimatum_world.content import CARD_KINDS, world
from ultimata.envs.ultimatum_world.phases import (
    ACT,
    BATTLE,
    BUY,
    MOVE_IN,
    OVER,
    SETUP,
    SETUP_FILL,
    SETUP_FLEET,
    SETUP_START,
    WINDOW,
)

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
KINDS = len(CARD_KINDS)
MANY = 10**6
"""A bound for counts the rules do not bound (troops or vessels with unlimited pieces, rolls, turns)."""
MONEY = 10**9


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def check(s: WorldState) -> None:
    n = s.n
    for i, (debtor, creditor, _) in enumerate(s.debts):
        _need(debtor != creditor, f"debts[{i}] is [debtor, creditor, 1..6 billion] between two seats")
    playing = s.phase >= BUY
    attack_phase = s.phase in (BATTLE, MOVE_IN, WINDOW)
    for x in range(A.NATIONS):
        held_ok = s.troops[x] >= 1 if s.owner[x] >= 0 else s.troops[x] == 0
        if s.phase != MOVE_IN or x != s.attack[3]:
            _need(held_ok, f"nation {x}: a held nation keeps at least one troop, an empty one none")
        _need(not playing or s.owner[x] >= 0, f"nation {x} is empty after the set-up")
    for t in range(A.SEAS):
        _need((s.sea_owner[t] >= 0) == (s.bs[t] + s.subs[t] > 0), f"sea place {t}: held iff vessels are there")
        _need(
            s.ready_bs[t] <= s.bs[t] and s.ready_subs[t] <= s.subs[t],
            f"sea place {t}: more vessels ready to move than present",
        )
        _need(
            s.sea_owner[t] == s.player or s.ready_bs[t] + s.ready_subs[t] == 0 or s.phase == WINDOW,
            f"sea place {t}: only the player whose turn it is has vessels ready",
        )
    _check_pieces(s)
    _check_cards(s)
    for q in range(n):
        for a in range(4):
            _need(not s.alliance_flag[q][a] or s.holds_alliance(q, a),
                  f"alliance_flag[{q}][{a}]: an alliance is paid for only while it is held whole")
        _need(not s.out[q] or not s.has_way_back(q), f"out[{q}]: a player with a way back is in the war")
    if s.phase in SETUP:
        _check_setup(s)
    else:
        _need(0 <= s.order_first < n and 0 <= s.fleet_first < n, "play starts after the set-up's draws")
        _need(1 <= s.round <= s.cfg.max_rounds and s.turn >= 1, f"round is 1..{s.cfg.max_rounds} and turns count "
              "from 1 once play starts")
    if s.phase in (BUY, ACT, BATTLE, MOVE_IN, WINDOW):
        _need(0 <= s.player < n and not s.out[s.player], "the player whose turn it is must be in the game")
        _need(sum(not o for o in s.out) >= 2, "the game goes on while two players are in it")
        _need(not s.winners, "winners only once the game is over")
    if s.phase == OVER:
        _need(bool(s.winners), "a finished game names its winners")
    if attack_phase:
        _need(len(s.attack) == 5, "an attack needs its target")
        _need(s.attack[1] == s.player, "an attack names its attacker and defender")
    troop_battle = attack_phase and s.attack[0] == TROOPS_ATTACK
    if troop_battle:
        _need(
            0 <= s.attack[4] < A.NATIONS and s.owner[s.attack[4]] == s.player,
            "a troop battle starts from a held nation",
        )
        _need(s.attack[3] < A.NATIONS, "a troop battle is fought over a nation")
    naval = s.phase in (BATTLE, WINDOW) and s.attack[0] == NAVAL
    if naval:
        t = s.attack[3] - A.NATIONS
        _need(t >= 0 and s.sea_owner[t] == s.attack[2] and any(s.force), "a naval battle has both sides' vessels")
    jet = s.phase == WINDOW and s.attack[0] == JET
    _need(not any(s.force) or naval or (jet and s.force == [1, 0]),
          "an attacking force is out only in a naval battle (or a jet bomber in its defender's window)")
    _need(s.aim < 0 or naval, "a naval pair is announced only in a naval battle")
    _need(s.phase != WINDOW or s.attack[0] != NAVAL or s.aim >= 0, "a window in a naval battle follows an announcement")
    _need(not s.blitz or attack_phase, "a blitz only during an attack")
    _need(
        s.placing == [0, 0, 0] or s.phase in (BUY, ACT),
        "reinforcements are placed during the player's own turn",
    )
    _need(s.place_at < 0 or s.placing != [0, 0, 0], "a place is chosen only for reinforcements")
    if s.transfer != [-1, -1]:
        source, into = s.transfer
        _need(
            min(source, into) >= 0 and source != into and s.phase in (BUY, ACT, WINDOW),
            "troops move on between two nations during a turn",
        )
        _need(
            s.owner[source] == s.owner[into] == s.current_player and s.troops[source] >= 2,
            "more troops move only between two nations of the deciding player with a troop to spare",
        )
    _need(all(s.sea_owner[t] < 0 for t in s.emptied), "emptied blockades are vacant")
    _need(len(s.emptied) <= s.conquered_blockades, "a blockade emptied this turn was conquered this turn")
    if s.phase == MOVE_IN:
        _need(s.troops[s.attack[3]] == 0 and s.troops[s.attack[4]] >= 2, "moving in needs a conquered nation")
    _check_decision(s)


def _check_cards(s: WorldState) -> None:
    """The hands and the deck are the game's cards; what everyone knows and what Intelligence showed fit."""
    n, rules = s.n, s.rules
    held: Counter[int] = Counter(s.deck)
    for hand in s.hands:
        for k, c in enumerate(hand):
            held[k] += c
    _need(held == Counter(rules.deck), "the cards in hands and deck are not the game's deck")
    _need(s.used <= len(s.deck), "the used cards are part of the deck")
    _need(all(known <= count for q in range(n) for known, count in zip(s.known[q], s.hands[q])),
          "the cards everyone knows a player holds are in its hand")
    for v in range(n):
        _need(all(c < 0 for c in s.revealed[v][v]), f"revealed[{v}][{v}]: Intelligence shows opponents' cards")
        for q in range(n):
            for branch in ("army", "navy", "air"):
                seen = [s.revealed[v][q][k] >= 0 for k, card in enumerate(rules.cards) if card.branch == branch]
                _need(all(seen) or not any(seen), f"revealed[{v}][{q}]: Intelligence shows a whole branch")
            _need(all(c <= rules.cards[k].count for k, c in enumerate(s.revealed[v][q])),
                  f"revealed[{v}][{q}]: more cards seen than the deck holds")


def _check_setup(s: WorldState) -> None:
    """The set-up's picks so far: whose they are, their troops, the blockades taken."""
    n = s.n
    _need(s.player == -1 and not s.pending and s.turn == 0 and s.round == 1, "no turns are played during the set-up")
    _need(s.order_first == -1 and (s.fleet_first >= 0) == (s.phase == SETUP_FLEET),
          "the fleet's first player is drawn when the set-up reaches the blockades")
    owned = sum(o >= 0 for o in s.owner)
    held_seas = [t for t in range(A.SEAS) if s.sea_owner[t] >= 0]
    _need(not any(s.bank) and not s.turn_money and not s.embargo_money and not s.debts and not any(s.lasers),
          "nobody has money or lasers during the set-up")
    _need(not any(map(any, s.hands)) and s.used == 0 and not s.attack and not s.winners,
          "no card is dealt and no attack made during the set-up")
    _need(not s.conquered_nations and not s.conquered_blockades and not s.emptied and not any(s.out),
          "nothing is conquered during the set-up")
    if s.phase == SETUP_START:
        picker = s.current_player
        _need(s.setup_count < 4 * n and owned == s.setup_count and not held_seas,
              "each pick of the first set-up step takes one nation")
        _need(len(s.start_picks) == s.setup_count % 4 and all(s.owner[x] == picker for x in s.start_picks),
              "start_picks are the current player's picks so far")
        for x in range(A.NATIONS):
            _need(s.owner[x] < 0 or s.troops[x] == (10 if W.worldpower[x] else 5),
                  f"nation {x}: a first pick holds 10 troops on a Worldpower, 5 elsewhere")
    elif s.phase == SETUP_FILL:
        _need(owned == 4 * n + s.setup_count and not s.start_picks and not held_seas,
              "each pick of the second set-up step takes one more nation")
        _need(all(s.troops[x] in ((5, 10) if W.worldpower[x] else (5,)) for x in range(A.NATIONS) if s.owner[x] >= 0),
              "a nation taken in the set-up holds 5 troops (10 on a first-pick Worldpower)")
    else:
        _need(owned == A.NATIONS and not s.start_picks and len(held_seas) == s.setup_count,
              "each pick of the fleet step takes one blockade")
        _need(all(t < A.BLOCKADES and s.bs[t] == 2 and not s.subs[t] for t in held_seas),
              "the set-up places two battleships on each blockade taken")


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
    if s.phase == BUY and not any(busy):
        _need(bool(s.purchases()), "the purchases are over once nothing can be bought")
    if s.phase == WINDOW and not any(busy):
        _need(s.window_opens(), "a defence window is open only while the defender is asked (config reaction_windows)")
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
