"""JSON for people and browsers: the map (nations, seas, stations and who holds what), the players'
money, lasers and card counts, the viewer's own hand and intelligence, the attack under way, and the
legal moves with what a click on the map means."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import ALLIANCES, CARD_KINDS, world

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()


def view(state: WorldState, seat: int | None) -> dict[str, Any]:
    from ultimata.envs.ultimatum_world.state import ATTACK_KINDS, BATTLE, MOVE_IN, NAVAL, OVER, PHASES, WINDOW

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
        "kind": "ultimatum_world",
        "seat": seat,
        "nations": [
            {
                "place": x,
                "name": W.names[x],
                "alliance": ALLIANCES[W.alliance[x]],
                "worldpower": W.worldpower[x],
                "at": W.nation_at[x],
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
