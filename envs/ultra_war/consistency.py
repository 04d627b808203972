"""The invariants a loaded Ultra War state must keep (the engine contract's `_check_consistency`): each
raises ValueError naming what is wrong. What one field alone must be (a side 0 or 1, a space on the map, a
counter's range, the round cap) is declared with the field (state.py's and units.py's FIELDS) and checked on
load before this runs; here is what ties fields together or reads a character's card."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.abilities import CHARGE_ATTACK, DUAL_WIELD, ETHEREAL
from ultimata.envs.ultra_war.content import HAND_SLOTS, content
from ultimata.envs.ultra_war.geometry import FIELDS
from ultimata.envs.ultra_war.phases import (
    ACTIVE,
    CARD_TARGET,
    DEVIATE,
    DISCARD,
    DRAFT,
    FEAT_TARGET,
    MAIN,
    OVER,
    PAUSE,
    QUICK,
    SETUP,
)
from ultimata.envs.ultra_war.units import CHARGING_PLAIN
from ultimata.envs.ultra_war.windows import FEAT, FREE_STRIKE

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState

def last_round(st: UltraWarState) -> int:
    """The round cap (a bound of `round`): the config's, else the scenario's."""
    return st.game.config.rounds or st.game.scenario.rounds


def hold_goal(st: UltraWarState) -> int:
    """The hold points that win a hold scenario (a bound of `hold`: reaching them ends the game); 0 in any other."""
    return st.game.scenario.hold_points if st.game.scenario.objective == "hold" else 0


def check(st: UltraWarState) -> None:
    _armies(st)
    _pawns(st)
    _unit_facts(st)
    _sources(st)
    _phase(st)
    _activation(st)
    _cards(st)
    _counts(st)


def _armies(st: UltraWarState) -> None:
    sc = st.game.scenario
    prisoner = [sc.prisoner] if sc.prisoner and st.phase != DRAFT else []
    names = [u.name for u in st.units]
    if st.game.config.army == "scripted":
        if names != [n for army in sc.armies for n in army] + prisoner:
            raise ValueError("the units do not match the scenario's armies")
    else:
        sides = [u.side for u in st.units[: len(st.units) - len(prisoner)]]
        if sides != sorted(sides) or (st.phase == DRAFT and st.setup_side == 0 and 1 in sides):
            raise ValueError("drafted units are listed player_0's first, and player_1 drafts after player_0")
        if prisoner and names[-1] != sc.prisoner:
            raise ValueError("the prisoner comes last")
        for side in (0, 1):
            army = [u.name for u in st.units[: len(st.units) - len(prisoner)] if u.side == side]
            finished = st.phase != DRAFT or side < st.setup_side
            st.check_army(side, army, finished)
    counts = [0, 0]
    for u in st.units:
        if u.slot != counts[u.side]:
            raise ValueError("a unit's side and slot are its army and its place in that army's list")
        counts[u.side] += 1


def _pawns(st: UltraWarState) -> None:
    seen: set[int] = set()
    flyer_at = -1  # a pawn in mid-move through another (flight, Ethereal) shares its space
    passing = None
    if st.phase == ACTIVE and 0 <= st.active < len(st.units):
        passing = st.units[st.active]
        if not (passing.flying or st.ethereal(passing)):
            passing = None
    if passing is not None:
        flyer_at = passing.pos
        if sum(1 for u in st.units if u.pos == flyer_at) > 2:
            raise ValueError("three pawns on one space")
    for u in st.units:
        if u.on_map:
            if st.board.solid(u.pos, st.breached) and not (u is passing and st.ethereal(u)):
                raise ValueError(f"{u.name}: a pawn in a wall")
            if u.pos in seen and u.pos != flyer_at:
                raise ValueError(f"{u.name}: two pawns on one space")
            seen.add(u.pos)
            if not 1 <= u.life <= u.ch.life:
                raise ValueError(f"{u.name}: life {u.life} outside 1..{u.ch.life}")
            if u.void:
                raise ValueError(f"{u.name}: on the board and in the Void")
        elif u.void:
            if not 1 <= u.life <= u.ch.life or u.void_from < 0:
                raise ValueError(f"{u.name}: in the Void without life or a space to return to")
        elif u.life != 0:
            raise ValueError(f"{u.name}: off the board but alive")
        for k, v in u.reserves.items():
            if k not in u.ch.reserves or v > u.ch.reserves[k]:
                raise ValueError(f"{u.name}: reserve {k}={v} outside its maximum")
        if len(u.upgrades) > u.ch.upgrades:
            raise ValueError(f"{u.name}: more upgrades than allowed")
        if u.flying and not st.can_fly(u):
            raise ValueError(f"{u.name}: flying without Flight")
    for s in st.sources:
        if s.pos >= 0 and s.token and s.life > 0 and s.pos in seen and s.pos != flyer_at:
            raise ValueError("a power token shares a space with a pawn")


def _unit_facts(st: UltraWarState) -> None:
    """What a character's own fields must mean: counters in range, flags only where a rule sets them."""
    sc = st.game.scenario
    prisoner = st.units[-1] if sc.prisoner and st.units and st.units[-1].name == sc.prisoner else None
    longest_void = max(c.void for f in sc.factions for c in content().decks[f].values())
    for u in st.units:  # (the caster's deck sends a character to the Void, either side's: Void Rift on an enemy)
        deck = content().decks[u.ch.faction]
        if set(u.reserves) != set(u.ch.reserves):
            raise ValueError(f"{u.name}: reserves {sorted(u.reserves)} are not its card's {sorted(u.ch.reserves)}")
        if u.void > longest_void + 1:
            raise ValueError(f"{u.name}: in the Void for longer than any card sends it")
        if not u.void and u.void_from != -1:
            raise ValueError(f"{u.name}: a space to return to from the Void while not in it")
        if u.attacks_made > st.attack_limit(u):
            raise ValueError(f"{u.name}: {u.attacks_made} attacks made, more than it may make")
        if u.charging == CHARGING_PLAIN and not u.has(CHARGE_ATTACK):
            raise ValueError(f"{u.name}: charging {u.charging}, the plain charge only a Charge Attack character "
                             "chooses instead")
        for stat in ("offense", "defense"):
            top = sum(getattr(c, stat) * c.count for c in deck.values() if c.kind == "enhancement")
            if getattr(u, f"enh_{stat[:3]}") > top:
                raise ValueError(f"{u.name}: enhancement {stat} outside 0..{top}, what its deck's cards can add")
        if u.powered_down and not u.is_droid:
            raise ValueError(f"{u.name}: powered down, but not a robot droid")
        if u.imprisoned and u is not prisoner:
            raise ValueError(f"{u.name}: imprisoned, but not the scenario's prisoner")
        if u.ethereal_off and not u.has(ETHEREAL):
            raise ValueError(f"{u.name}: lost Ethereal it never had")
        if u.landed and not st.can_fly(u):
            raise ValueError(f"{u.name}: declared grounded without Flight")
        if u.acted and (u.side != st.turn or st.phase in (SETUP, DRAFT)):
            raise ValueError(f"{u.name}: acted, but it is not its side's turn")


def _sources(st: UltraWarState) -> None:
    sc = st.game.scenario
    names = [st.game.content.factions[f].power for f in sc.factions]
    for name in names:
        count = sum(1 for s in st.sources if s.name == name)
        if count > sc.power_sources or (count < sc.power_sources and st.phase != DRAFT):
            raise ValueError(f"{count} {name} sources; the scenario gives {sc.power_sources}")
    for s in st.sources:
        if s.name not in names:
            raise ValueError(f"a {s.name} in a game of {' and '.join(names)}")
        if s.token:
            owner = names.index(s.name)
            if s.side != owner or s.life > s.spec.life or (s.pos >= 0) != (s.life > 0):
                raise ValueError(f"{s.name}: a token's side, life and place do not fit (destroyed tokens leave)")
            if s.pos >= 0 and s.pos not in st.start_spaces(owner):
                raise ValueError(f"{s.name}: a token off its side's start area")
            if s.life == 0 and s.points and st.game.config.destroyed_source_points == "lost":
                raise ValueError(f"{s.name}: a destroyed token kept points under destroyed_source_points: lost")
        elif s.life != s.spec.life or (s.bearer < 0 and s.pos < 0):
            raise ValueError(f"{s.name}: a crystal is borne or lies on a space, and has no life to lose")
        elif s.pos >= 0 and st.board.solid(s.pos, st.breached):
            raise ValueError(f"{s.name}: a dropped crystal in a wall")
    for s in st.sources:
        if s.points > s.max or s.bearer >= len(st.units):
            raise ValueError(f"{s.name}: {s.points} points (at most {s.max}), or borne by no unit")
        if s.bearer >= 0 and (s.token or s.pos != -1 or st.units[s.bearer].life == 0
                              or s.side != st.units[s.bearer].side):
            raise ValueError("a crystal borne by no living character of its side")
        if not s.token and s.bearer < 0 and s.pos >= 0 and s.points:
            raise ValueError("a dropped crystal keeps no points")


def _phase(st: UltraWarState) -> None:
    if (st.phase == OVER) != (st.winner in (0, 1, 2)):
        raise ValueError("the winner does not fit the phase")
    if st.choosing and (st.game.config.first_player != "roll" or st.phase not in (SETUP, DRAFT)
                        or (st.phase == SETUP and st.setup_side != st.first)):
        raise ValueError("who goes first is still to be chosen, outside the set-up of a rolled first player, "
                         "or by a side that did not win the roll")
    if st._saved_phase not in (SETUP, MAIN, PAUSE):
        raise ValueError("the saved phase is none of set-up, main, pause")
    active_ok = 0 <= st.active < len(st.units) and st.units[st.active].on_map and st.units[st.active].side == st.turn
    if st.phase in (ACTIVE, DEVIATE, PAUSE) and not active_ok:
        raise ValueError("the active character does not fit the activation phase")
    if st.phase in (SETUP, MAIN, DISCARD, OVER, DRAFT) and st.active != -1:
        raise ValueError("an active character outside an activation")
    if st.phase in (CARD_TARGET, FEAT_TARGET, QUICK) and st.active != -1 and not active_ok:
        raise ValueError("an active character that cannot be active")
    if st.phase in (CARD_TARGET, FEAT_TARGET):
        if not 0 <= st.pending < len(st.hands[st.current_player]):
            raise ValueError("the pending card is not in the hand")
        if (st.active != -1) != (st._saved_phase == PAUSE):
            raise ValueError("a card played in a paused activation keeps its active character, and only then")
    if st.phase == FEAT_TARGET and not 0 <= st.performer < len(st.units):
        raise ValueError("the feat performer is missing")
    if st.phase not in (CARD_TARGET, FEAT_TARGET) and (st.pending != -1 or st.performer != -1):
        raise ValueError("a pending card outside card targeting")
    if st.phase == QUICK:
        if len(st.attack) != 4 or st.responder == -1 or not 0 <= st.attack[3] <= 3:
            raise ValueError("a quick window without its trigger")
        ui, slot, f, mode = st.attack
        if not 0 <= ui < len(st.units) or not st.units[ui].on_map or not 0 <= f < FIELDS:
            raise ValueError("a quick window's trigger is off the board")
        if (mode == FEAT) != (slot == -1) or (mode == FEAT and not st.stack) or not -1 <= slot < 3:
            raise ValueError("a feat window holds its feat; an attack window an attack slot")
        if mode != FEAT and st.active == -1:
            raise ValueError("an attack's window outside an activation")
        if mode == FEAT and (st.stack[0][2] != -1 or st.stack[0][0] != st.units[ui].side):
            raise ValueError("a feat window's stack starts with its feat")
    elif st.phase == DEVIATE:
        if len(st.attack) != 4 or st.attack[0] != st.active or st.stack:
            raise ValueError("a deviation without the attack that hit")
    elif st.stack or st.attack or st.responder != -1 or st.passes:
        raise ValueError("a quick-window stack outside a quick window")
    if (st.strikes or st.lift) and not (st.phase == QUICK and st.attack[3] == FREE_STRIKE):
        raise ValueError("pending free strikes outside a free strike's window")
    if any(not 0 <= i < len(st.units) for i in st.strikes):
        raise ValueError("a free strike by no one")
    for side, name, src in st.stack:
        if side not in (0, 1) or not -1 <= src < len(st.sources) or (src == -1) == (name == ""):
            raise ValueError("a stack entry is a card or a power source's ability")
        if src == -1 and name not in st.game.side_decks[side]:
            raise ValueError(f"player_{side}: a stacked card not in the faction deck")
    if st.phase == DISCARD and len(st.hands[st.turn]) <= st.game.config.hand_limit:
        raise ValueError("a discard event with nothing to discard")
    if st.phase == DRAFT and st.game.config.army != "draft":
        raise ValueError("a draft phase without drafting")
    goal = hold_goal(st)
    if st.phase != OVER and goal and max(st.hold) >= goal:
        raise ValueError(f"hold points {st.hold} before the end: reaching {goal} ends the game")
    if sum(st.hold) > st.round - (st.phase != OVER):
        raise ValueError(f"hold points {st.hold} in round {st.round}: a round's end scores at most one")
    if any(not (st.board.breachable[f] or st.board.door[f]) for f in st.breached):
        raise ValueError("a breach where there is no door or breachable wall")


def _activation(st: UltraWarState) -> None:
    """The attack a window or deviation is about exists; pending free strikes and disengagements are the
    active character's enemies."""
    if st.attack and st.attack[3] != FEAT and combat.attack_spec(st.units[st.attack[0]], st.attack[1]) is None:
        raise ValueError("a window or deviation about an attack slot the character does not have")
    enemies = set()
    if 0 <= st.active < len(st.units):
        side = st.units[st.active].side
        enemies = {i for i, u in enumerate(st.units) if u.side != side}
    if not set(st.strikes) <= enemies or not set(st.disengaged) <= enemies:
        raise ValueError("free strikes or disengagements by someone not an enemy of the active character")
    if len(set(st.disengaged)) != len(st.disengaged):
        raise ValueError("an enemy listed twice as disengaged")


def _counts(st: UltraWarState) -> None:
    """No card is in play more often than its deck holds it: hand, deck, attached gear, disarmed weapons and
    the stack together; `discards` (every enhancement, feat or quick card played, and every card discarded)
    covers the stack, and with hand, deck and gear makes at most the deck's 50 (dropped gear leaves)."""
    for side in (0, 1):
        deck = st.game.side_decks[side]
        held = list(st.hands[side]) + list(st.decks[side])
        for u in st.side_units(side):
            held += [c for c in (u.weapon, u.weapon2, u.armor, u.standard, u.disarmed, u.disarmed2, *u.upgrades) if c]
        stacked = [name for s, name, src in st.stack if s == side and src < 0]  # (counted as discarded)
        for name, n in Counter(held + stacked).items():
            if name in deck and n > deck[name].count:
                raise ValueError(f"player_{side}: {n} {name} cards, the deck holds {deck[name].count}")
        total = sum(c.count for c in deck.values())
        if not len(stacked) <= st.discards[side] <= total - len(held):
            raise ValueError(f"player_{side}: discards {st.discards[side]} (cards played or discarded) with "
                             f"{len(held)} in hand, deck or gear and {len(stacked)} on the stack")


def _cards(st: UltraWarState) -> None:
    if any(len(h) > HAND_SLOTS for h in st.hands):
        raise ValueError("a hand above 8 cards")
    for side in (0, 1):
        deck = st.game.side_decks[side]
        for u in st.side_units(side):
            for c in (u.weapon, u.weapon2, u.armor, u.standard, u.disarmed, u.disarmed2, *u.upgrades):
                if c and c not in deck:
                    raise ValueError(f"{u.name}: unknown card {c!r}")
            if (u.weapon2 or u.disarmed2) and not u.has(DUAL_WIELD):
                raise ValueError(f"{u.name}: a second weapon without Dual Wield")
        if any(c not in deck for c in st.hands[side] + st.decks[side]):
            raise ValueError(f"player_{side}: a card not in the faction deck")
