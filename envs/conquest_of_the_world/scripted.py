"""Conquest of the World's scripted bot: the strongest homeland with room for allies, greedy in-zone
alliances, zone bonuses first, free wars on the most valuable unoccupied countries, paid attacks only on
the leader (or to finish a zone or a homeland), weapons by the matchup table against what the enemy still
has, a steady spend it can pay, and player alliances kept with the weaker players only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.combat import SPENDS, battle_model
from ultimata.envs.conquest_of_the_world.phases import DIPLOMACY, HOMELAND, RESPOND, WEAPON, ZONE_ALLY
from ultimata.envs.conquest_of_the_world.terms import HOME

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState
    from ultimata.envs.core.rng import Rng

B = board()
MODEL = battle_model()


def _homeland_score(s: ConquestState, c: int) -> float:
    mates = sorted((B.value[x] for x in B.zone_members[B.zone[c]] if x != c and s.holder[x] < 0), reverse=True)
    room, allied = B.value[c], 0
    for v in mates:
        if v <= room:
            room -= v
            allied += v
    return 2 * B.value[c] + allied + (2 if allied == sum(mates) and mates else 0)


def _zone_gap(s: ConquestState, p: int, c: int) -> int:
    """Countries of c's zone that p does not hold yet (1 means c completes the zone)."""
    return sum(1 for x in B.zone_members[B.zone[c]] if s.holder[x] != p)


def _country_score(s: ConquestState, p: int, c: int) -> float:
    gap = _zone_gap(s, p, c)
    bonus = len(B.zone_members[B.zone[c]]) if gap == 1 else 0
    return B.value[c] + bonus


def _leader(s: ConquestState, p: int) -> int:
    others = [q for q in range(s.n) if q != p and s.alive[q]]
    return max(others, key=lambda q: s.record[q] + s.chips[q] // 500)


def _weapon(s: ConquestState, legal: list[int], rng: Rng) -> int:
    side = s.choosing
    enemy = [w for w in range(3) if not s.barred[1 - side] >> w & 1] or [0, 1, 2]
    weapons = sorted({(a - A.WEAPON) // len(SPENDS) for a in legal})

    def edge(w: int) -> float:
        return sum(MODEL.hit[w][o] - MODEL.hit[o][w] for o in enemy) / len(enemy)

    best = max(edge(w) for w in weapons)
    choices = [w for w in weapons if edge(w) >= best - 1e-9]
    w = choices[rng.below(len(choices))]
    energy = s.energy[side]
    spend = 1 if energy >= 3 * MODEL.cost[w][1] else 0
    return A.weapon_action(w, spend)


def choose_action(state: ConquestState, rng: Rng) -> int:
    s, p = state, state.current_player
    legal = s.legal_actions()
    if s.phase == HOMELAND:
        return max(legal, key=lambda a: (_homeland_score(s, a - A.PICK), -a))
    if s.phase == ZONE_ALLY:
        picks = [a for a in legal if a != A.DONE]
        return max(picks, key=lambda a: B.value[a - A.PICK]) if picks else A.DONE
    if s.phase == WEAPON:
        return _weapon(s, legal, rng)
    if s.phase == RESPOND:
        newcomers = s.group(s.proposal[0]) if p in s.group(s.proposal[1]) else s.group(s.proposal[1])
        return A.ACCEPT if all(s.record[q] <= s.record[p] + 6 for q in newcomers) else A.DECLINE
    if s.phase == DIPLOMACY:
        return _diplomacy(s, p, legal)
    homeland = [a for a in legal if A.ATTACK <= a < A.WEAPON and s.kind[a - A.ATTACK] == HOME]
    if homeland:
        return homeland[0]
    buys = [a for a in legal if A.BUY <= a < A.ATTACK]
    if buys:
        return max(buys, key=lambda a: (_country_score(s, p, a - A.BUY), -a))
    attacks = [a for a in legal if A.ATTACK <= a < A.WEAPON]
    free = [a for a in attacks if s.holder[a - A.ATTACK] < 0]
    if free:
        return max(free, key=lambda a: (_country_score(s, p, a - A.ATTACK), -a))
    leader = _leader(s, p)
    paid = [a for a in attacks if s.holder[a - A.ATTACK] == leader or _zone_gap(s, p, a - A.ATTACK) == 1]
    if paid:
        return max(paid, key=lambda a: (_country_score(s, p, a - A.ATTACK), -a))
    return A.DONE


def _diplomacy(s: ConquestState, p: int, legal: list[int]) -> int:
    """Keep alliances while they pay: leave one with a player far ahead; offer one to a weaker player
    who is not the leader."""
    if A.BREAK in legal and any(s.record[q] > s.record[p] + 10 for q in s.group(p)[1:]):
        return A.BREAK
    leader = _leader(s, p)
    for a in legal:
        if A.PROPOSE <= a < A.BREAK:
            q = (p + a - A.PROPOSE + 1) % s.n
            if q != leader and s.record[q] <= s.record[p]:
                return a
    return A.DONE
