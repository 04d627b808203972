"""JSON for people and browsers: the board (zones, countries, holders and kinds), the players' records,
chips and alliances, the battle under way without a hidden weapon choice, and the legal moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.board import board

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState


def view(state: ConquestState, seat: int | None) -> dict[str, Any]:
    from ultimata.envs.conquest_of_the_world.terms import KINDS, OVER, PHASES, STAGES, WEAPON

    b = board()
    over = state.phase == OVER
    returns = state.returns() if over else []
    best = max(returns) if returns else 0
    return {
        "kind": "conquest",
        "seat": seat,
        "zones": [[{"country": c, "name": b.names[c], "value": b.value[c], "holder": state.holder[c],
                    "held_as": KINDS[state.kind[c]]} for c in members] for members in b.zone_members],
        "players": [{"record": state.record[q] / 2, "chips": state.chips[q], "alive": state.alive[q],
                     "allies": [r for r in range(state.n) if state.allied[q][r]],
                     "broken_with": [r for r in range(state.n) if state.broken[q][r]],
                     "homeland": state.homeland[q]} for q in range(state.n)],
        "option": state.option,
        "buys": state.buys,
        "proposal": ({"from": state.proposal[0], "to": state.proposal[1], "waiting": list(state.answers)}
                     if state.proposal[0] >= 0 else None),
        "turn": state.turn,
        "stage": STAGES[state.stage],
        "phase": PHASES[state.phase],
        "battle": ({"fighters": state.fighters, "directors": [state.director(0), state.director(1)],
                    "energy": state.energy, "wins": state.wins,
                    "target": state.target, "battle": state.battles + 1, "first_chosen": state.pending >= 0}
                   if state.phase == WEAPON else None),
        "events": list(state.events[-6:]),
        "to_move": None if over else state.current_player,
        "over": over,
        "winners": [q for q in range(state.n) if returns and returns[q] == best],
    }


def moves(state: ConquestState) -> list[dict[str, Any]]:
    out = []
    for action in state.legal_actions():
        move: dict[str, Any] = {"action": action, "label": state.action_to_string(action)}
        if action < A.WEAPON:
            move.update(target="country", country=(action - A.PICK) % A.COUNTRIES,
                        kind=("pick", "buy", "attack")[action // A.COUNTRIES])
        else:
            move.update(target="button", kind="")
        out.append(move)
    return out
