"""A move in words, for people: its mover reads a command ("activate Vegron", "attack Merlin (e3) with
Longbow"), everyone else a sentence about the mover ("player_1 activates Vegron"). Both name what a person
sees on the board - characters, cards, power sources, fields - never the slots and indices the action
space counts in. A card in hand is named only to its holder until it lands (the event log then names it).
What the move made happen by itself (damage, a card taking effect) is the state's event log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.geometry import DIR_NAMES, FIELDS, name
from ultimata.envs.ultra_war.phases import ACTIVE, CARD_TARGET, DEVIATE, DRAFT, FEAT_TARGET, PAUSE, QUICK, SETUP

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState
    from ultimata.envs.ultra_war.units import Unit

def own_words(state: UltraWarState, action: int) -> str:
    """The move as its mover reads it: a command naming its own cards too."""
    if not _legal(state, action):  # e.g. named in an error message: only what the action space says
        return A.describe(action, max(state.current_player, 0))
    return _words(state, action)[0]


def narration(state: UltraWarState, action: int) -> str:
    """The move as the other seat and watchers read it: player_N in the third person, no card in hand named."""
    if not _legal(state, action):
        return f"player_{state.current_player}: {A.describe(action, max(state.current_player, 0))}"
    return _words(state, action)[1]


def _legal(state: UltraWarState, action: int) -> bool:
    mask = state.legal_action_mask()
    return 0 <= action < len(mask) and bool(mask[action])


def there(state: UltraWarState, f: int) -> str:
    """What stands on field f, and where: 'Vegron (e7)', 'Power Generator (d2)', or the field alone."""
    who = state.unit_at(f) or state.token_at(f)
    return f"{who.name} ({name(f)})" if who else name(f)


def _words(state: UltraWarState, action: int) -> tuple[str, str]:
    """(the mover's command, the table's sentence) for a legal `action` of the current player."""
    seat = max(state.current_player, 0)
    who = f"player_{seat}"
    phase = state.phase
    unit = state.units[state.active] if state.active >= 0 else None
    active = unit.name if unit is not None else ""
    if action < A.SELECT:
        f = A.to_field(action % FIELDS, seat)
        if action < A.ATTACK:
            return f"move {active} to {name(f)}", f"{who} moves {active} to {name(f)}"
        if action < A.TARGET:
            return _attack(state, action, f, who)
        if action < A.USE:
            return _target(state, seat, f, who)
        if action < A.TRANSFER:
            from ultimata.envs.ultra_war.view import source_ability_text

            source = state.source_at(seat, f)
            ability = source.spec.ability.name if source.spec.ability else "ability"
            return (f"use {source.name}'s {source_ability_text(source.spec)}",
                    f"{who} uses {source.name}'s {ability}")
        return f"transfer a point to {there(state, f)}", f"{who} transfers a point to {there(state, f)}"
    if action < A.FACE:
        slot = action - A.SELECT
        if phase == SETUP:
            order = "second" if slot else "first"
            return f"go {order}", f"{who} chooses to go {order}"
        if phase == DRAFT:
            drafted = state.roster(seat)[slot]
            return f"draft {drafted}", f"{who} drafts {drafted}"
        mine = next(u for u in state.units if u.side == seat and u.slot == slot)
        return f"activate {mine.name}", f"{who} activates {mine.name}"
    if action < A.END_ACT:
        facing = DIR_NAMES[A.to_dir(action - A.FACE, seat)]
        return (f"end {active}'s activation facing {facing}",
                f"{who} ends {active}'s activation facing {facing}")
    if action == A.END_ACT:
        return f"end {active}'s activation", f"{who} ends {active}'s activation"
    if action == A.CHARGE:
        return _charge_words(state, unit, who)
    if action == A.FLY:
        lands = unit is not None and unit.flying
        return ((f"land {active}", f"{who} lands {active}") if lands
                else (f"take off with {active}", f"{who}'s {active} takes off"))
    if action == A.PAUSE:
        return f"pause {active}'s activation", f"{who} pauses {active}'s activation"
    if action == A.END_TURN:
        if phase == DRAFT:
            return "finish drafting", f"{who} finishes drafting"
        if phase == SETUP:
            return "finish paying and draw up to a full hand", f"{who} finishes paying and draws up to a full hand"
        return "end the turn", f"{who} ends the turn"
    if action < A.DROP:
        plays = action < A.DISCARD
        card = state.hands[seat][(action - A.PLAY) % A.HAND_SLOTS]
        if plays:  # a quick card is shown at once, on the stack; any other waits for its target unseen
            return f"play {card}", (f"{who} plays {card}" if phase == QUICK else f"{who} plays a card")
        return f"discard {card}", f"{who} discards a card"
    if action < A.PASS:
        part = A.GEAR[action - A.DROP]
        gear = getattr(unit, part)
        return f"drop {active}'s {gear}", f"{who} drops {active}'s {gear}"
    if phase == PAUSE:
        return f"resume {active}'s activation", f"{who} resumes {active}'s activation"
    if phase == DEVIATE:
        return "let the attack go where it was aimed", f"{who} does not deviate the attack"
    return "pass", f"{who} passes"


def _charge_words(state: UltraWarState, unit: Unit | None, who: str) -> tuple[str, str]:
    """A plain charge, or a Charge Attack character's choice between its Charge Attack and the plain one."""
    from ultimata.envs.ultra_war.abilities import CHARGE_ATTACK

    active = unit.name if unit is not None else ""
    if unit is not None and unit.charging:
        return (f"charge {active} the plain way instead (double movement, no attack, turned)",
                f"{who}'s {active} charges the plain way instead")
    if unit is not None and unit.has(CHARGE_ATTACK):
        return (f"charge attack with {active} (movement +2, may still attack)",
                f"{who}'s {active} makes a charge attack")
    return (f"charge with {active} (double movement, no attack, turned)", f"{who}'s {active} charges")


def _attack(state: UltraWarState, action: int, f: int, who: str) -> tuple[str, str]:
    slot = (action - A.ATTACK) // FIELDS
    attacker_index = state.attack[0] if state.attack else state.active  # a deviating attack, or the activation's
    attacker = state.units[attacker_index]
    spec = combat.attack_spec(attacker, slot)
    weapon = spec.name if spec else f"attack {slot}"
    if state.phase == DEVIATE:
        return (f"deviate {attacker.name}'s {weapon} to {there(state, f)}",
                f"{who} deviates {attacker.name}'s {weapon} to {there(state, f)}")
    return (f"attack {there(state, f)} with {weapon}",
            f"{who}'s {attacker.name} attacks {there(state, f)} with {weapon}")


def _target(state: UltraWarState, seat: int, f: int, who: str) -> tuple[str, str]:
    """TARGET f: in an activation a breach or a crystal given; else the pending card's character."""
    spot = there(state, f)
    if state.phase == ACTIVE:
        unit = state.units[state.active]
        if f in state.breach_targets(unit):
            return f"breach {name(f)}", f"{who}'s {unit.name} breaches {name(f)}"
        return f"give the crystal to {spot}", f"{who}'s {unit.name} gives a crystal to {spot}"
    card = state.hands[seat][state.pending]
    if state.phase == FEAT_TARGET:
        return f"perform {card} on {spot}", f"{who} chooses {spot}"
    if state.phase == CARD_TARGET and state.card(seat, card).kind == "feat":
        return f"have {spot} perform {card}", f"{who} chooses {spot}"
    return f"play {card} on {spot}", f"{who} chooses {spot}"


__all__ = ["own_words", "narration", "there"]
