"""The invariants a loaded Ultra War state must keep (the engine contract's `_check_consistency`): each
raises ValueError naming what is wrong."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war.abilities import DUAL_WIELD
from ultimata.envs.ultra_war.content import HAND_SLOTS
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
    PHASES,
    QUICK,
    SETUP,
)
from ultimata.envs.ultra_war.windows import FEAT, FREE_STRIKE

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState


def check(st: UltraWarState) -> None:
    _armies(st)
    _pawns(st)
    _sources(st)
    _phase(st)
    _cards(st)


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
        if u.side not in (0, 1) or u.slot != counts[u.side]:
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
        if not -1 <= u.pos < FIELDS or not 0 <= u.facing < 8:
            raise ValueError(f"{u.name}: position or facing out of range")
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
            if not 1 <= u.life <= u.ch.life or not 0 <= u.void_from < FIELDS:
                raise ValueError(f"{u.name}: in the Void without life or a space to return to")
        elif u.life != 0:
            raise ValueError(f"{u.name}: off the board but alive")
        for k, v in u.reserves.items():
            if k not in u.ch.reserves or not 0 <= v <= u.ch.reserves[k]:
                raise ValueError(f"{u.name}: reserve {k}={v} outside its maximum")
        if min(u.stun, u.stasis, u.deprived, u.steps, u.attacks_made, u.void) < 0:
            raise ValueError(f"{u.name}: a negative counter")
        if len(u.upgrades) > u.ch.upgrades:
            raise ValueError(f"{u.name}: more upgrades than allowed")
        if u.flying and not st.can_fly(u):
            raise ValueError(f"{u.name}: flying without Flight")
    for s in st.sources:
        if s.pos >= 0 and s.token and s.life > 0 and s.pos in seen and s.pos != flyer_at:
            raise ValueError("a power token shares a space with a pawn")


def _sources(st: UltraWarState) -> None:
    for s in st.sources:
        if not 0 <= s.points <= s.max or not -1 <= s.bearer < len(st.units) or not -1 <= s.pos < FIELDS:
            raise ValueError("a power source out of range")
        if s.bearer >= 0 and (s.token or s.pos != -1 or st.units[s.bearer].life == 0
                              or s.side != st.units[s.bearer].side):
            raise ValueError("a crystal borne by no living character of its side")
        if not s.token and s.bearer < 0 and s.pos >= 0 and s.points:
            raise ValueError("a dropped crystal keeps no points")


def _phase(st: UltraWarState) -> None:
    if not 0 <= st.phase < len(PHASES) or st.turn not in (0, 1) or st.round < 1:
        raise ValueError("phase, turn or round out of range")
    if (st.phase == OVER) != (st.winner in (0, 1, 2)):
        raise ValueError("the winner does not fit the phase")
    if st.first not in (0, 1) or st.setup_side not in (0, 1) or st._saved_phase not in (SETUP, MAIN, PAUSE):
        raise ValueError("first player, set-up side or saved phase out of range")
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
        if len(st.attack) != 4 or st.responder not in (0, 1) or not 0 <= st.attack[3] <= 3 or st.passes not in (0, 1):
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
