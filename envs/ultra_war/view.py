"""JSON for people and browsers: the map and the pawns as anyone may see them (every character's card,
gear and status is public), the viewer's own hand with each card's text, and the legal moves as things
to click: a field (a step, an attack, a target), a unit (to activate it), a facing arrow, a card in
hand, or a button. Hidden: the other hand and both decks' order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.content import AttackSpec, Card, PowerSource, content
from ultimata.envs.ultra_war.geometry import CHEBYSHEV, COL, DIR_NAMES, FIELDS, ROW, name

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState
    from ultimata.envs.ultra_war.units import Unit

WHO = ("player_0", "player_1")


def _spot(f: int) -> dict[str, Any]:
    return {"field": name(f), "col": COL[f], "row": ROW[f]}


def attack_text(spec: AttackSpec) -> str:
    """'Longbow: ranged 6, attack 5, costs 1 ammunition' - what a person needs to choose an attack."""
    bonus = f" {spec.bonus:+d}" if spec.bonus else ""
    power = f"attack {spec.attack}" if spec.attack is not None else f"offense{bonus}"
    reach = f"ranged {spec.range}" if spec.kind == "ranged" else "melee"
    tags = [t if v is None else f"{t} {v}" for t, v in spec.tags.items()]
    cost = [f"costs {spec.cost.amount} {spec.cost.reserve.replace('_', ' ')}"] if spec.cost else []
    return f"{spec.name}: " + ", ".join([reach, power, *tags, *cost])


def source_ability_text(source: PowerSource) -> str:
    """'Mend (2 points of this crystal): its bearer regains 2 life' - what a source's paid ability does (ours:
    the sources have no printed text)."""
    a = source.ability
    if a is None:
        return ""
    what = "this crystal" if source.kind == "crystal" else "this token"
    if a.heal:
        effect = f"its bearer regains {a.heal} life"
    elif a.defense:
        effect = f"+{a.defense} defence to its bearer against one attack (in a quick window)"
    elif a.reboot:
        effect = f"every powered-down robot droid of yours within {source.control} spaces comes back online"
    else:
        effect = f"every character of yours within {a.range} spaces regains {a.recharge} energy points"
    return f"{a.name} ({a.cost} points of {what}, used at any time of your turn): {effect}"


def melee_notes(state: UltraWarState) -> list[str]:
    """Why the active character cannot melee an enemy next to it, said where a person would try: a flying
    enemy (only ranged attacks and flyers hit it), an Ethereal one (only magical attacks), or one across a
    level change."""
    if state.active < 0:
        return []
    u = state.units[state.active]
    melee = [spec for spec in (combat.attack_spec(u, k) for k in range(A.ATTACK_SLOTS))
             if spec is not None and spec.kind == "melee"]
    if not melee or u.pos < 0:
        return []
    out = []
    for e in state.units:
        if e.side == u.side or e.pos < 0 or CHEBYSHEV[u.pos][e.pos] != 1:
            continue
        if any(state.aim_ok(u, spec, e.pos) for spec in melee):
            continue
        who = f"{e.name} ({name(e.pos)})"
        if e.flying and not u.flying:
            out.append(f"{who} is flying: a melee attack cannot reach it; only ranged attacks and flying "
                       "characters hit a flying character")
        elif state.ethereal(e):
            out.append(f"{who} is Ethereal: only magical attacks hit it")
        elif state.board.level_line(u.pos, e.pos):
            out.append(f"{who} is across a level change: melee cannot reach it without flying")
    return out


def card_text(card: Card) -> str:
    """The card's effect in a sentence, from its data (the cards are ours and have no printed text)."""
    kind = {"standard": "standard equipment", "enhancement": "play enhancement", "quick": "quick enhancement",
            "upgrade": "robotic upgrade (Robot-Droid or Bionic only)"}.get(card.kind, card.kind)
    parts = []
    if card.attack is not None:
        parts.append(attack_text(card.attack))
    for value, what in ((card.offense, "offense"), (card.defense, "defence"), (card.movement, "movement")):
        if value:
            parts.append(f"{value:+d} {what}")
    if card.heal:
        parts.append(f"heals {card.heal} life when equipped")
    if card.regenerate:
        parts.append(f"Regenerate {card.regenerate}")
    if card.flight:
        parts.append("grants Flight")
    if card.kind == "feat":
        effect = (f"{card.damage} damage" if card.damage else "stuns" if card.stun
                  else f"sends the target to the Void for {card.void} turns")
        parts.append(f"{card.feat} feat, range {card.range}: {effect}; the performer turns")
    if card.cancel:
        parts.append("cancels the card or ability below it on the stack")
    if card.kind == "quick":
        parts.append("played in a quick window (an attack or feat)")
    ultra = " ULTRA (one on the battlefield)." if card.ultra else ""
    return f"{kind.capitalize()}, cost {card.cost}: " + "; ".join(parts) + "." + ultra


def _statuses(state: UltraWarState, u: Unit) -> list[str]:
    out = [label for label, on in (
        ("active", state.active >= 0 and state.units[state.active] is u), ("turned", u.turned),
        ("acted", u.acted), ("flying (only ranged attacks and flyers hit it)", u.flying),
        ("powered down", u.powered_down), ("imprisoned", u.imprisoned),
        ("burning (takes 1-3 damage at its next turn)", u.burning), ("charging", u.charging)) if on]
    if u.stun:  # it counts down at every turn start: two more is the turn of the side to play now, one the other
        until = state.turn if u.stun == 2 else 1 - state.turn
        out.append(f"stunned until player_{until}'s next turn starts (no actions, defence -3)")
    out += [f"{label} ({n} turns)" for label, n in (("in stasis", u.stasis), ("movement deprived", u.deprived),
                                                     ("in the Void", u.void)) if n]
    return out


def _initials(full: str) -> str:
    """Two letters for a pawn: 'Tristan the Bowman' -> 'TB', 'Justice' -> 'Ju' (the name is on hover)."""
    words = [w for w in full.replace("[", "").split() if w[0].isupper()]
    return words[0][0] + words[-1][0] if len(words) > 1 else full[:2]


def _unit(state: UltraWarState, u: Unit, generals: list[Unit | None]) -> dict[str, Any]:
    ch = u.ch
    attacks = [attack_text(spec) for spec in (combat.attack_spec(u, s) for s in range(A.ATTACK_SLOTS)) if spec]
    crystal = state.equipped_crystal(u)
    return {
        "side": u.side, "slot": u.slot, "name": u.name, "short": _initials(u.name),
        "faction": content().factions[ch.faction].title, "race": ch.race,
        "rank": ch.rank, "value": ch.value, "general": u is generals[u.side],
        **(_spot(u.pos) if u.on_map else {"field": None}),
        "facing": DIR_NAMES[u.facing], "life": u.life, "max_life": ch.life,
        "movement": state.full_movement(u), "offense": combat.base_offense(state, u),
        "defense": combat.base_defense(state, u, False), "attacks": attacks,
        "abilities": [a if v is None else f"{a} {v}" for a, v in ch.abilities.items()],
        "general_ability": [a if v is None else f"{a} {v:+d}" for a, v in ch.general_ability.items()],
        "gear": [x for x in (u.weapon, u.weapon2, u.armor, u.standard, *u.upgrades) if x],
        "reserves": {k.replace("_", " "): f"{v}/{ch.reserves.get(k, v)}" for k, v in u.reserves.items()},
        "crystal": None if crystal is None else {"name": crystal.name, "points": crystal.points,
                                                 "ability": source_ability_text(crystal.spec)},
        "crystals": len(state.borne(u)), "turned": u.turned, "flying": u.flying,
        "disabled": u.disabled, "status": _statuses(state, u),
    }


def view(state: UltraWarState, seat: int | None) -> dict[str, Any]:
    from ultimata.envs.ultra_war.phases import CARD_TARGET, FEAT_TARGET, OVER, PHASES

    b = state.board
    cells = []
    for f in range(FIELDS):
        kind = ("wall" if b.solid(f, state.breached) else "door" if b.door[f] else "obstruction" if b.obstruction[f]
                else "stairs" if b.stairs[f] else "floor")
        cells.append({"kind": kind, "level": b.level[f], "objective": b.objective[f], "escape": b.escape[f]})
    generals = state.active_generals()
    units = [_unit(state, u, generals) for u in state.units]
    tokens = [{"side": s.side, "kind": s.kind, "name": s.name, "points": s.points, "life": s.life,
               "defense": s.defense, "ability": source_ability_text(s.spec), **_spot(s.pos)}
              for s in state.sources if s.pos >= 0 and (s.kind == "crystal" or s.life > 0)]
    over = state.phase == OVER
    mine = seat is not None and state.current_player == seat
    decks = state.game.side_decks
    scenario = state.game.scenario
    return {
        "seat": seat,
        "size": 12,
        "cells": cells,
        "pawns": [u for u in units if u["field"] is not None],
        "off_board": [u for u in units if u["field"] is None],
        "tokens": tokens,
        "factions": [content().factions[f].title for f in scenario.factions],
        "scenario": scenario.title,
        "objective": scenario.objective,
        "hold": list(state.hold),
        "round": state.round,
        "rounds": state.game.config.rounds or scenario.rounds,
        "phase": PHASES[state.phase],
        "turn": state.turn,
        "active": None if state.active < 0 else state.units[state.active].name,
        "playing": (state.hands[seat][state.pending] if mine and state.phase in (CARD_TARGET, FEAT_TARGET)
                    and 0 <= state.pending < len(state.hands[seat]) else None),
        "stack": [f"{WHO[side]}: {card or state.sources[src].name}" for side, card, src in state.stack],
        "power": [state.pool(0), state.pool(1)],
        "hand_sizes": [len(h) for h in state.hands],
        "hand": list(state.hands[seat]) if seat is not None else [],
        "cards": ([{"slot": h, "name": c, "kind": decks[seat][c].kind, "cost": decks[seat][c].cost,
                    "text": card_text(decks[seat][c])} for h, c in enumerate(state.hands[seat])]
                  if seat is not None else []),
        "pile": len(state.decks[seat]) if seat is not None else 0,
        "events": list(state.events[-6:]),
        "notes": melee_notes(state) if mine else [],
        "to_move": None if over else state.current_player,
        "over": over,
        "winners": ([state.winner] if state.winner in (0, 1) else [0, 1]) if over else [],
    }


def moves(state: UltraWarState) -> list[dict[str, Any]]:
    """Each legal move with what a click means: a field (`kind` step / attack / target / use / transfer),
    a `unit` to activate, a `face` arrow, a `card` in hand (play or discard), or an `action` (end turn,
    end, charge, fly, pause, pass, drop, draft: buttons beside the map, where the activation is)."""
    from ultimata.envs.ultra_war.phases import DRAFT, SETUP

    seat = state.current_player
    hand = state.hands[seat]
    out = []
    for action in state.legal_actions():
        move: dict[str, Any] = {"action": action, "label": state.action_to_string(action)}
        if action < A.SELECT:
            f = A.to_field(action % FIELDS, seat)
            kind = ("step" if action < A.ATTACK else "attack" if action < A.TARGET else "target" if action < A.USE
                    else "use" if action < A.TRANSFER else "transfer")
            move.update(target="field", kind=kind, **_spot(f))
        elif action < A.FACE and state.phase not in (DRAFT, SETUP):
            u = next(u for u in state.units if u.side == seat and u.slot == action - A.SELECT)
            move.update(target="unit", kind="select", **_spot(u.pos))
        elif A.FACE <= action < A.END_ACT:
            move.update(target="face", kind="face", facing=DIR_NAMES[A.to_dir(action - A.FACE, seat)])
        elif A.PLAY <= action < A.DROP and (action - A.PLAY) % A.HAND_SLOTS < len(hand):
            move.update(target="card", kind="play" if action < A.DISCARD else "discard",
                        slot=(action - A.PLAY) % A.HAND_SLOTS)
        else:
            move.update(target="action", kind="")
        out.append(move)
    return out
