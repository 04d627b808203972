"""JSON for people and browsers: the map (nations, seas, stations and who holds what), the players'
money, lasers and card counts, the viewer's own hand and intelligence, the attack under way, and the
legal moves with what a click on the map means. A turn is a chain of clicks (a verb, then places, then
an amount): `chain` names its steps and the one asked now, and `prompt` says what to click next (to the
player whose chain it is; nobody else sees a chain half made)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.attacks import ATTACK_KINDS, NAVAL
from ultimata.envs.ultimatum_world.cards import AIRLIFT, HELICOPTER_COMMANDO, JET_BOMBER
from ultimata.envs.ultimatum_world.content import ALLIANCES, CARD_KINDS, world
from ultimata.envs.ultimatum_world.phases import (
    ACT,
    BATTLE,
    BUY,
    MOVE_IN,
    OVER,
    PHASES,
    SETUP_FILL,
    SETUP_FLEET,
    SETUP_START,
    WINDOW,
)

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()


def view(state: WorldState, seat: int | None) -> dict[str, Any]:
    over = state.phase == OVER
    attack = None
    if state.phase in (BATTLE, MOVE_IN, WINDOW):
        kind, attacker, defender, target, source = state.attack
        attack = {
            "kind": ATTACK_KINDS[kind],
            "attacker": attacker,
            "defender": defender,
            "target": target,
            "source": source,
            "battleships": state.force[0] if kind == NAVAL else 0,
            "submarines": state.force[1] if kind == NAVAL else 0,
        }
    return {
        "seat": seat,
        "nations": [
            {
                "place": x,
                "name": W.names[x],
                "alliance": ALLIANCES[W.alliance[x]],
                "worldpower": W.worldpower[x],
                "at": W.nation_at[x],
                "label": W.nation_label[x],
                "owner": state.owner[x],
                "troops": state.troops[x],
                "seas": [s + 1 for s in W.seas[x]],
                "borders": list(W.borders[x]),
            }
            for x in range(W.size)
        ],
        "seas": [
            {
                "place": A.NATIONS + t,
                "name": W.sea_names[t],
                "blockade": t < 14,
                "at": W.sea_at[t],
                "links": [A.NATIONS + u for u in W.sea_links[t]],
                "owner": state.sea_owner[t],
                "battleships": state.bs[t],
                "submarines": state.subs[t],
            }
            for t in range(W.sea_size)
        ],
        "stations": [list(at) for at in W.station_at],
        "players": [
            {
                "bank": state.bank[q],
                "lasers": state.lasers[q],
                "cards": sum(state.hands[q]),
                "out": state.out[q],
                "alliances": [ALLIANCES[a] for a in range(4) if state.holds_alliance(q, a)],
                "known_cards": {CARD_KINDS[k]: c for k, c in enumerate(state.known[q]) if c},
            }
            for q in range(state.n)
        ],
        "hand": ({CARD_KINDS[k]: c for k, c in enumerate(state.hands[seat]) if c} if seat is not None else {}),
        "intel": (
            {
                f"player_{q}": {CARD_KINDS[k]: c for k, c in enumerate(state.revealed[seat][q]) if c >= 0}
                for q in range(state.n)
                if q != seat
            }
            if seat is not None
            else {}
        ),
        "round": state.round,
        "max_rounds": state.cfg.max_rounds,
        "phase": PHASES[state.phase],
        "money_now": state.troop_money() if not over and state.player >= 0 else 0,
        "placing": list(state.placing),
        "transfer": list(state.transfer),
        "attack": attack,
        "chain": _chain(state) if seat is not None and seat == state.current_player else None,
        "prompt": _prompt(state) if seat is not None and seat == state.current_player else None,
        "events": list(state.events[-8:]),
        "to_move": None if over else state.current_player,
        "over": over,
        "winners": list(state.winners),
    }


def moves(state: WorldState) -> list[dict[str, Any]]:
    out = []
    for action in state.legal_actions():
        move: dict[str, Any] = {"action": action, "label": state.action_to_string(action)}
        if action < A.BUY_TROOPS_1:
            move.update(target="place", place=action)
        else:
            move.update(target="button")
        out.append(move)
    return out


_VERB_STEPS = {
    A.ATTACK: ("troop attack", "from: your nation with 3+ troops", "against: a bordering enemy nation"),
    A.LASER: ("laser", "target: an enemy nation or naval place"),
    A.CARD + HELICOPTER_COMMANDO: ("helicopter commando", "target: an enemy nation"),
    A.CARD + JET_BOMBER: ("jet bomber", "target: an enemy nation, or battleships at sea"),
}
_MOVES = {A.MOVE_BATTLESHIPS: "battleships", A.MOVE_SUBMARINES: "submarines"}


def _steps(state: WorldState, verb: int) -> tuple[str, ...]:
    """The names of a verb's clicks, the verb first (the same count as `chain_length` says follow it)."""
    if verb in _MOVES:
        kind = _MOVES[verb]
        if state.phase == BATTLE:
            return (f"{kind} join the battle", f"from: your place with ready {kind}", "how many")
        reach = "an anchor or blockade with the same number" if verb == A.MOVE_BATTLESHIPS else "any blockade or anchor"
        return (f"move {kind}", f"from: your place with ready {kind}", f"to: {reach}", "how many")
    if verb == A.CARD + AIRLIFT:
        if state.phase == WINDOW:
            return ("airlift", "from: your nation", "how many")
        return ("airlift", "from: your nation", "to: another of your nations", "how many")
    return _VERB_STEPS[verb]


def _chain(state: WorldState) -> dict[str, Any] | None:
    """The chain of clicks under way: its steps, how far it is, and the places chosen so far."""
    if state.pending:
        verb, args = state.pending[0], state.pending[1:]
        steps = _steps(state, verb)
        return {"steps": list(steps), "at": 1 + len(args), "chosen": [W.place_name(a) for a in args]}
    if state.placing_now():
        at = 2 if state.place_at >= 0 else 1
        chosen = [W.place_name(state.place_at)] if state.place_at >= 0 else []
        return {"steps": ["place reinforcements", "where: your nation or blockade", "how many"], "at": at,
                "chosen": chosen}
    if state.transferring() or state.phase == MOVE_IN:
        return {"steps": ["move troops in", "how many (one, half, all)"], "at": 1, "chosen": []}
    return None


def _prompt(state: WorldState) -> str:
    """What to click next, in words."""
    chain = _chain(state)
    if chain is not None:
        step = chain["steps"][chain["at"]] if chain["at"] < len(chain["steps"]) else "how many"
        where = step.split(": ", 1)
        if step.startswith("how many"):
            return f"{chain['steps'][0]}: choose how many (the buttons one, half, all)."
        return f"{chain['steps'][0]}: click {where[-1]} on the map (outlined)."
    phase = state.phase
    if phase == SETUP_START:
        return "Set-up: click a nation to take (four, each from a different alliance; one of them a Worldpower)."
    if phase == SETUP_FILL:
        return "Set-up: click an unoccupied nation to put five troops on it."
    if phase == SETUP_FLEET:
        return "Set-up: click a vacant naval blockade (dark square) to put two battleships on it."
    if phase in (BUY, ACT):
        buy = "buy troops, ships or a laser, or " if phase == BUY else ""
        return (f"Your turn: {buy}start an action with a button (troop attack, move ships, a card, laser); "
                "the map then asks for the places one click at a time; "
                + ("'end your purchases' when you are done." if phase == BUY else "'end your turn' ends it."))
    if phase == BATTLE:
        if state.attack and state.attack[0] == NAVAL:
            return "Naval battle: announce which of your vessels attacks which of theirs (a button), or blitz."
        return ("Troop battle: 'roll the black dice' once, 'roll until the battle is decided' (blitz) "
                "or 'stop the attack'.")
    if phase == MOVE_IN:
        return "You took the nation: choose how many troops move in."
    if phase == WINDOW:
        return "You are attacked: play a defence card or a laser now, or 'let the attack go on'."
    return ""
