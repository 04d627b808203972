"""Set up card-game positions by name and play them by the words `action_to_string` uses."""

from __future__ import annotations

from collections import Counter

from ultimata.envs import game_class
from ultimata.envs.core.rng import ScriptedRng
from ultimata.envs.ultimatum_cards.deck import NUM_KINDS, kind_from_name
from ultimata.envs.ultimatum_cards.state import UltimatumCardsState


def position(
    hands: dict[int, list[str]],
    chips: list[int] | None = None,
    actor: int = 0,
    pile: list[str] = (),
    **config,
) -> UltimatumCardsState:
    """A state mid-round: `actor` to play, the given hands (others empty would end the round, so every
    seat not named gets one Draw card), chips, and a draw pile (last listed = top)."""
    game = game_class("ultimatum_cards_v3").from_config(config)
    state = game.new_initial_state(ScriptedRng(decks=[], rolls=[0]))
    n = game.num_players
    state.hands = [[0] * NUM_KINDS for _ in range(n)]
    for seat in range(n):
        for card, count in Counter(hands.get(seat, ["Draw"])).items():
            state.hands[seat][kind_from_name(card)] = count
    state.chips = list(chips) if chips is not None else [game.config.starting_chips] * n
    state.pile = [kind_from_name(c) for c in pile]
    state.actor = actor
    state.dealer = (actor - 1) % n
    state._start_turn()
    state._mask = None
    return state


def do(state: UltimatumCardsState, *moves: str) -> None:
    """Apply moves named as `action_to_string` names them; fail loudly if one is not legal."""
    for move in moves:
        named = {state.action_to_string(a): a for a in state.legal_actions()}
        assert move in named, f"{move!r} is not legal for player_{state.current_player}; legal: {list(named)}"
        state.apply(named[move])


def legal_names(state: UltimatumCardsState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
