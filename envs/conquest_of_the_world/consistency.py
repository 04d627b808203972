"""What a loaded state must satisfy beyond each field's kind (its type, length and range, which
`ConquestState.FIELDS` declares and the engine checks first), so that a saved dict is either a position
the rules allow or refused with one ValueError naming the field: the facts that tie fields together - one
holder per country, records that are the holdings' values, a zone bonus for every zone held, a stage and
phase that fit the turn, the lists and seats of whose decision it is, and a battle whose barred weapons
are its lost battles."""

from __future__ import annotations

from functools import reduce
from math import gcd
from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.combat import battle_model

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState


BOARD = board()
CHOICES = A.PROPOSE - A.WEAPON
"""Weapon choices (3 weapons x 3 spends): a pending or shown choice is 0..CHOICES-1."""
ENERGY_STEP = reduce(gcd, (cost for row in battle_model().cost for cost in row))
"""Every exchange of a war costs a multiple of this, so a war's energy stays war_energy less a multiple."""


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def check(s: ConquestState) -> None:
    _require(all(c % 100 == 0 for c in s.chips), "chips must be whole hundreds")
    _holdings(s)
    _players(s)
    _stage(s)
    _diplomacy(s)
    _fight(s)


def _holdings(s: ConquestState) -> None:
    """One holder and kind per country; homelands where their markers say."""
    for c in range(BOARD.size):
        name = BOARD.names[c]
        _require((s.holder[c] < 0) == (s.kind[c] == T.NONE), f"holder/kind of {name} disagree")
        _require(s.holder[c] < 0 or s.alive[s.holder[c]], f"holder: {name} is held by an eliminated player")
        if s.kind[c] == T.HOME:
            _require(s.homeland[s.holder[c]] == c, f"kind: {name} is a homeland of no one")
    for p in range(s.n):
        h = s.homeland[p]
        _require(h < 0 or (s.holder[h] == p and s.kind[h] == T.HOME), f"homeland: player_{p}'s marker is wrong")
        _require(s.alive[p] or h < 0, f"homeland: eliminated player_{p} keeps one")


def _holdings_record(s: ConquestState, p: int) -> int:
    """Rules 5, 9B, 13C, 16B-C, 19C: conquests at full value, allies at half (half spaces), no homeland."""
    return sum(BOARD.value[c] * (2 if s.kind[c] == T.CONQUEST else 1)
               for c in range(BOARD.size) if s.holder[c] == p and s.kind[c] != T.HOME)


def _players(s: ConquestState) -> None:
    """Who is out, alliances as groups, records and chips that add up, the zone bonus paid."""
    n = s.n
    _require(sorted(s.eliminated) == [q for q in range(n) if not s.alive[q]], "eliminated does not match alive")
    for p in range(n):
        _require(not s.allied[p][p] and not s.broken[p][p] and not s.proposed[p][p],
                 "allied/broken/proposed: a player cannot ally with itself")
        for q in range(n):
            _require(s.allied[p][q] == s.allied[q][p] and s.broken[p][q] == s.broken[q][p],
                     "allied/broken: alliances are mutual")
            _require(not (s.allied[p][q] and s.broken[p][q]), "allied: a broken alliance cannot be renewed")
            _require(not s.allied[p][q] or (s.alive[p] and s.alive[q]), "allied: only living players are allied")
            for r in range(n):
                _require(not (s.allied[p][q] and s.allied[q][r]) or p == r or s.allied[p][r],
                         "allied: an alliance is a group, the allies of an ally are allies")
    counted = s.stage == T.LADDER or s.phase == P.OVER
    for p in range(n):
        if not s.alive[p]:
            _require(s.chips[p] == 0, f"chips: eliminated player_{p}'s chips went to the victor (19C)")
            continue
        if not counted:  # until 20C adds the chips and the end game moves it, the record is the holdings
            _require(s.record[p] == _holdings_record(s, p), f"record: player_{p}'s is not its holdings' value")
        _require(s.stage != T.LADDER or s.chips[p] == 0, "chips: the end game comes after the chips are counted")
        for z, members in enumerate(BOARD.zone_members):
            held = all(s.holder[c] == p for c in members)
            if held and any(c != s.homeland[p] for c in members):
                _require(s.zone_paid[p][z], f"zone_paid: player_{p} holds zone {z + 1} without its bonus (rule 7)")
            if not s.cfg.zone_bonus_once and s.zone_paid[p][z]:
                _require(held, f"zone_paid: player_{p} lost a country of zone {z + 1}, so its bonus is due again")


def _stage(s: ConquestState) -> None:
    """The set-up, the play stage, the last round and the end game, each with its own fields."""
    n, phase, stage = s.n, s.phase, s.stage
    chosen = sum(1 for h in s.homeland if h >= 0)
    if phase <= P.ZONE_ALLY:
        _require(stage == T.PLAY and s.turn == 0 and s.option == -1 and s.buys == 0 and s.defender_ptr == -1,
                 "phase: the set-up comes before the first turn, with no attack option")
        _require(s.chooser < n and all(s.alive) and T.CONQUEST not in s.kind and not any(map(any, s.allied))
                 and not any(map(any, s.broken)) and not any(map(any, s.proposed)),
                 "phase: the set-up has no conquests, player alliances or eliminations")
        if phase == P.HOMELAND:
            _require(chosen == s.chooser, "chooser: it must be the number of homelands chosen")
        else:
            _require(chosen == n, "homeland: every player has one after the homeland phase")
            _require(s.zone_capacity_left((s.first + s.chooser) % n) >= 0,
                     "holder: in-zone alliances exceed the homeland's value")
        return
    _require(s.chooser == n, "chooser: the set-up is over, every player has chosen")
    _require(chosen == sum(s.alive), "homeland: every living player has one")
    _require(s.turn >= 1, "turn: play has started")
    if phase == P.OVER:
        _require(s.target_winner < 0 or (s.alive[s.target_winner] and s.cfg.target_record is not None),
                 "target_winner: a living player, under a target record")
        return
    _require(s.target_winner < 0, "target_winner: only when the game is over")
    if stage == T.PLAY:
        _require(s.turn <= s.cfg.max_turns, "turn: the play stage ends at the turn cap")
        _require(-1 in s.holder, "stage: the play stage ends the moment the board is filled (rules 18A, 20)")
    _require(stage == T.FINAL or s.final_left == [], "final_left: only in the last round")
    if stage == T.LADDER:
        _require(s.option == -1 and s.buys == 0, "option: the end game has no attack option")
        _require(s.challenger >= 0 and s.alive[s.challenger] and s.challenger not in s.ladder
                 and all(s.alive[q] for q in s.ladder), "challenger/ladder: living players, the challenger apart")
        _require(phase in (P.DIPLOMACY, P.WEAPON), "phase: the end game has diplomacy windows and duels")
        _require(phase != P.DIPLOMACY or s.ladder != [], "ladder: end-game diplomacy comes before a duel")
    else:
        _require(s.challenger == -1 and s.ladder == [], "challenger/ladder: only in the end game")
        _require(s.option >= 0 and s.alive[s.option], "option: the attack option needs a living holder")
        _require(s.defender_ptr >= 0, "defender_ptr: set when the attack option comes")


def _diplomacy(s: ConquestState) -> None:
    """Diplomacy windows and a proposal waiting for its answers."""
    phase = s.phase
    if phase in (P.DIPLOMACY, P.RESPOND):
        _require(s.window >= 0 and s.alive[s.window] and s.window not in s.round_left,
                 "window: a diplomacy window needs its player")
        _require(all(s.alive[q] for q in s.round_left), "round_left: only living players get windows")
    else:
        _require(s.window == -1 and s.round_left == [], "window/round_left: only in a round of diplomacy")
    if phase == P.DIPLOMACY:
        _require(s.has_window(s.window), "window: its player has nothing to do")
    if phase == P.RESPOND:
        p, q = s.proposal
        _require(s.stage == T.PLAY, "proposal: only until the board is filled (18A)")
        _require(p == s.window and q >= 0 and q != p and s.alive[q] and not s.allied[p][q] and s.proposed[p][q],
                 "proposal: needs its proposer and a living, unallied addressee")
        waiting = set(s.group(p)[1:]) | set(s.group(q))
        _require(bool(s.answers) and set(s.answers) <= waiting, "answers: they come from the alliance to be")
    else:
        _require(s.answers == [] and s.proposal == [-1, -1], "proposal/answers: only while one is answered")


def _fight(s: ConquestState) -> None:
    """A war or duel under way: its fighters, energy, battles, wins and barred weapons; the last battle."""
    a, d, pick_a, pick_d, wooded = s.last_battle
    _require(s.last_battle == [-1, -1, -1, -1, 0] or (
        a >= 0 and d >= 0 and a != d and 0 <= pick_a < CHOICES and 0 <= pick_d < CHOICES and wooded in (0, 1)),
        "last_battle: two directors, their choices and the field (0/1), or none yet")
    if s.phase != P.WEAPON:
        _require(s.fighters == [-1, -1] and s.pending == -1 and s.energy == [0, 0] and s.wins == [0, 0]
                 and s.battles == 0 and s.barred == [0, 0] and s.choosing == 0 and s.target == -1
                 and s.mode == T.WAR, "fighters/energy/battles: only during a battle")
        return
    a, d = s.fighters
    _require(a >= 0 and d >= 0 and a != d and s.alive[a] and s.alive[d] and not s.allied[a][d],
             "fighters: a battle needs two living, unallied fighters")
    if s.mode == T.WAR:
        war = s.cfg.war_energy
        _require(s.stage != T.LADDER and s.option == a and s.battles <= 2, "mode: a war is the option holder's")
        _require(s.target >= 0 and s.holder[s.target] in (-1, d) and s.holder[s.target] != a,
                 "target: the defender holds the country, or no one does")
        _require(s.holder[s.target] >= 0 or (s.stage == T.PLAY and d == s.defender_ptr),
                 "target: an unoccupied country is fought for in the play stage, by the defender in turn (13E)")
        _require(all(e <= war and (war - e) % ENERGY_STEP == 0 for e in s.energy),
                 f"energy: a war's is {war} less what its exchanges cost")
        _require(sum(s.wins) <= s.battles, "wins: no more than the battles fought")
        for side in (0, 1):
            _require(bin(s.barred[side]).count("1") == s.battles - s.wins[side],
                     "barred: a side's barred weapons are the battles it did not win (12F)")
        first = 0
    else:
        _require(s.stage == T.LADDER and s.target == -1 and s.challenger == a and s.wins == [0, 0],
                 "mode: a duel is the end game's challenger's")
        _require(all(bin(b).count("1") <= 1 for b in s.barred) and (s.battles or s.barred == [0, 0]),
                 "barred: a duel bars only the weapon lost in the last battle (21F)")
        first = s.battles % 2
    _require(s.choosing == (first if s.pending < 0 else 1 - first), "choosing: it does not fit the pending choice")
    _require(s.pending < 0 or not s.barred[first] >> (s.pending // 3) & 1, "pending: that weapon is barred")
