"""What a loaded state must satisfy: one holder per country, homelands with their living players,
counts in range, and a phase that fits (raise ValueError naming the problem)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.board import board

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState


BOARD = board()


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def _ints(values: list, n: int, lo: int, hi: int, name: str) -> None:
    _require(isinstance(values, list) and len(values) == n, f"{name} must be a list of {n}")
    for v in values:
        ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
        _require(ok, f"{name} value {v!r} out of {lo}..{hi}")


def _bools(matrix: list, rows: int, cols: int, name: str) -> None:
    _require(isinstance(matrix, list) and len(matrix) == rows, f"{name} must have {rows} rows")
    for row in matrix:
        _require(isinstance(row, list) and len(row) == cols and all(isinstance(x, bool) for x in row),
                 f"{name} rows must hold {cols} booleans")


def check(s: ConquestState) -> None:
    n, size = s.n, BOARD.size
    _ints([s.phase, s.stage, s.mode], 3, 0, P.OVER, "phase/stage/mode")
    _require(s.stage <= T.LADDER and s.mode <= T.DUEL, "stage or mode out of range")
    _ints([s.first], 1, 0, n - 1, "first")
    _ints(s.holder, size, -1, n - 1, "holder")
    _ints(s.kind, size, T.NONE, T.ALLY, "kind")
    _ints(s.homeland, n, -1, size - 1, "homeland")
    _ints(s.record, n, 0, 10_000, "record")
    _ints(s.chips, n, 0, 10**9, "chips")
    _require(all(c % 100 == 0 for c in s.chips), "chips must be whole hundreds")
    _require(isinstance(s.alive, list) and len(s.alive) == n and all(isinstance(x, bool) for x in s.alive), "alive")
    _ints(s.eliminated, len(s.eliminated), 0, n - 1, "eliminated")
    _require(sorted(s.eliminated) == [q for q in range(n) if not s.alive[q]], "eliminated does not match alive")
    for name in ("allied", "broken", "proposed"):
        _bools(getattr(s, name), n, n, name)
    _bools(s.zone_paid, n, len(BOARD.zone_members), "zone_paid")
    for p in range(n):
        _require(not s.allied[p][p] and not s.broken[p][p], "a player cannot ally with itself")
        for q in range(n):
            _require(s.allied[p][q] == s.allied[q][p] and s.broken[p][q] == s.broken[q][p], "alliances are mutual")
            _require(not (s.allied[p][q] and s.broken[p][q]), "a broken alliance cannot be renewed")
            _require(not s.allied[p][q] or (s.alive[p] and s.alive[q]), "only living players are allied")
            for r in range(n):
                _require(not (s.allied[p][q] and s.allied[q][r]) or p == r or s.allied[p][r],
                         "an alliance is a group: the allies of an ally are allies")
    for c in range(size):
        _require((s.holder[c] < 0) == (s.kind[c] == T.NONE), f"country {c}: holder and kind disagree")
        _require(s.holder[c] < 0 or s.alive[s.holder[c]], f"country {c} is held by an eliminated player")
        if s.kind[c] == T.HOME:
            _require(s.homeland[s.holder[c]] == c, f"country {c} is a homeland of no one")
    for p in range(n):
        h = s.homeland[p]
        _require(h < 0 or (s.holder[h] == p and s.kind[h] == T.HOME), f"player_{p}'s homeland marker is wrong")
        _require(s.alive[p] or h < 0, f"eliminated player_{p} keeps a homeland")
    chosen = sum(1 for h in s.homeland if h >= 0)
    if s.phase == P.HOMELAND:
        _require(0 <= s.chooser < n and chosen == s.chooser and s.turn == 0, "homeland phase: chooser mismatch")
    else:
        _require(chosen == sum(s.alive), "every living player has a homeland after the homeland phase")
    if s.phase == P.ZONE_ALLY:
        _require(0 <= s.chooser < n and s.turn == 0, "zone alliance phase: chooser out of range")
        p = (s.first + s.chooser) % n
        _require(s.zone_capacity_left(p) >= 0, "in-zone alliances exceed the homeland's value")
    _ints([s.turn], 1, 0, s.cfg.max_turns + n, "turn")
    _ints([s.option, s.defender_ptr, s.challenger, s.target_winner, s.window], 5, -1, n - 1, "seat fields")
    _ints([s.buys], 1, 0, 10**6, "buys")
    _ints(s.round_left, len(s.round_left), 0, n - 1, "round_left")
    _ints(s.answers, len(s.answers), 0, n - 1, "answers")
    _ints(s.final_left, len(s.final_left), 0, n - 1, "final_left")
    _ints(s.ladder, len(s.ladder), 0, n - 1, "ladder")
    for seats in (s.final_left, s.ladder, s.round_left, s.answers):
        _require(len(set(seats)) == len(seats), "repeated seats")
    _ints(s.proposal, 2, -1, n - 1, "proposal")
    _ints(s.fighters, 2, -1, n - 1, "fighters")
    _ints(s.energy, 2, 0, 10**7, "energy")
    _ints(s.wins, 2, 0, 1, "wins")
    _ints(s.barred, 2, 0, 6, "barred")
    _ints([s.battles, s.choosing], 2, 0, 10**6, "battles/choosing")
    _ints([s.target], 1, -1, size - 1, "target")
    _ints(s.last_battle, 5, -1, max(n - 1, A.PROPOSE - A.WEAPON - 1), "last_battle")
    _require(s.last_battle[4] in (0, 1) and (s.last_battle[0] < 0) == (s.last_battle[2] < 0), "last_battle")
    _ints([s.pending], 1, -1, A.PROPOSE - A.WEAPON - 1, "pending")
    _require(s.target_winner < 0 or s.phase == P.OVER, "a target winner only when the game is over")
    _require(isinstance(s.events, list) and all(isinstance(e, str) for e in s.events), "events must be strings")
    if s.phase == P.DIPLOMACY and s.stage == T.LADDER:
        _require(s.option == -1 and s.ladder != [], "end-game diplomacy comes before a duel, with no attack option")
    elif s.phase in (P.TURN, P.DIPLOMACY, P.RESPOND):
        _require(s.option >= 0 and s.alive[s.option] and s.stage != T.LADDER, "the attack option needs a living holder")
    if s.phase in (P.DIPLOMACY, P.RESPOND):
        _require(s.window >= 0 and s.alive[s.window] and s.window not in s.round_left,
                 "a diplomacy window needs its player")
        _require(all(s.alive[q] for q in s.round_left), "only living players get diplomacy windows")
    else:
        _require(s.window == -1 and s.round_left == [], "diplomacy windows outside a diplomacy round")
    if s.phase == P.DIPLOMACY:
        _require(s.has_window(s.window), "a diplomacy window for a player with nothing to do")
    if s.phase == P.RESPOND:
        p, q = s.proposal
        _require(p == s.window and q >= 0 and q != p and s.alive[q] and not s.allied[p][q] and s.proposed[p][q],
                 "a proposal needs its proposer and a living, unallied addressee")
        waiting = set(s.group(p)[1:]) | set(s.group(q))
        _require(bool(s.answers) and set(s.answers) <= waiting, "the answers must come from the alliance to be")
    else:
        _require(s.answers == [], "answers outside a proposal")
    if s.phase == P.WEAPON:
        a, d = s.fighters
        _require(a >= 0 and d >= 0 and a != d and s.alive[a] and s.alive[d] and not s.allied[a][d],
                 "a battle needs two living, unallied fighters")
        _require(s.choosing in (0, 1), "choosing must be 0 or 1")
        _require(s.barred[s.choosing] < 7, "the chooser has no weapon left")
        if s.mode == T.WAR:
            _require(s.stage != T.LADDER and s.option == a and s.target >= 0 and s.battles <= 2, "war fields")
            _require(s.target >= 0 and s.holder[s.target] != a, "the attacker already holds the country")
            _require(s.energy[0] <= s.cfg.war_energy and s.energy[1] <= s.cfg.war_energy, "war energy too high")
            _require(s.holder[s.target] in (-1, d), "the defender does not hold the country")
            _require(s.barred[0] != 7 and s.barred[1] != 7, "a side has no weapon left")
            first = 0
        else:
            _require(s.stage == T.LADDER and s.target == -1 and s.challenger == a, "duel fields")
            first = s.battles % 2
        _require(s.choosing == (first if s.pending < 0 else 1 - first), "choosing does not fit the pending choice")
        if s.pending >= 0:
            _require(not s.barred[first] >> (s.pending // 3) & 1, "the pending weapon is barred")
    else:
        _require(s.fighters == [-1, -1] and s.pending == -1 and s.energy == [0, 0] and s.wins == [0, 0]
                 and s.battles == 0 and s.barred == [0, 0] and s.choosing == 0 and s.target == -1
                 and s.mode == T.WAR, "battle fields outside a battle")
    if s.phase != P.RESPOND:
        _require(s.proposal == [-1, -1], "a proposal outside the answer to it")
