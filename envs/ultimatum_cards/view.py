"""JSON for people and browsers: the table as one seat may see it, and the legal moves as things to
click (a card in hand, a player, an amount, a button). Hidden: other hands and the draw pile's order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.phases import OVER
from ultimata.envs.ultimatum_cards.text import end_reason, prompt

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_cards.state import UltimatumCardsState


def view(state: UltimatumCardsState, seat: int | None) -> dict[str, Any]:
    """What `seat` may see (None: a spectator, who sees no hand)."""
    over = state.phase == OVER
    pending = None
    if state.card >= 0 and not over:
        pending = {
            "card": deck.NAMES[state.card],
            "by": state.actor,
            "p1": state.p1 if state.p1 >= 0 else None,
            "p2": state.p2 if state.p2 >= 0 else None,
            "target_chips": state.chips[state.p2] if state.p2 >= 0 else None,
            "proposals": [{"by": by, "share": share} for by, share in state.proposals],
            "accepted": state.accepted if state.accepted >= 0 else None,
        }
    return {
        "seat": seat,
        "players": [
            {
                "seat": p,
                "chips": state.chips[p],
                "cards": sum(state.hands[p]),
                "score": state.scores[p],
                "dealer": p == state.dealer,
            }
            for p in range(state.n)
        ],
        "hand": [] if seat is None else [
            {"kind": k, "name": deck.NAMES[k], "count": c, "rules": deck.RULES[k]}
            for k, c in enumerate(state.hands[seat])
            if c
        ],
        "round": state.rounds_played + (0 if over else 1),
        "pile": len(state.pile),
        "discards": {deck.NAMES[k]: c for k, c in enumerate(state.discards) if c},
        "phase": prompt(state, seat),
        "to_move": None if over else state.current_player,
        "pending": pending,
        "last_event": state.last_event,
        "over": over,
        "winners": state.winners() if over else [],
        "end_reason": end_reason(state) if over else None,
    }


def moves(state: UltimatumCardsState) -> list[dict[str, Any]]:
    """The current player's legal moves, each tagged with what a click on the table means."""
    lay, me = state.layout, state.current_player
    out = []
    for action in state.legal_actions():
        move: dict[str, Any] = {"action": action, "label": state.action_to_string(action)}
        if action < lay.seat:
            move.update(target="card", value=action)
        elif action < lay.swap_chips:
            move.update(target="player", value=(me + action - lay.seat) % state.n)
        elif lay.amount <= action < lay.accept:
            move.update(target="amount", value=action - lay.amount)
        elif lay.accept <= action < lay.reject:
            move.update(target="proposal", value=action - lay.accept)
        else:
            move.update(target="button", value=None)
        out.append(move)
    return out
