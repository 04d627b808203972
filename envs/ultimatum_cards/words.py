"""A move in words: its mover reads a command ("play Steal"), every other seat a sentence in the third
person ("player_2 offers 3 to player_0, keeping 21")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.phases import COUNTERS, OFFER

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_cards.state import UltimatumCardsState


def describe_action(state: UltimatumCardsState, action: int) -> str:
    """The move as its own player reads it."""
    return _words(state, action, third_person=False)


def narrate_action(state: UltimatumCardsState, action: int) -> str:
    """The move as the other seats read it: 'player_2 offers 3 to player_0, keeping 21'."""
    return _words(state, action, third_person=True)


def _words(state: UltimatumCardsState, action: int, third_person: bool) -> str:
    lay = state.layout
    me = state.current_player if state.current_player >= 0 else 0
    who = f"player_{me}"

    def say(first: str, third: str) -> str:
        return f"{who} {third}" if third_person else first

    if action < lay.seat:
        return say(f"play {deck.NAMES[action]}", f"plays {deck.NAMES[action]}")
    if action < lay.swap_chips:
        k = action - lay.seat
        if k == 0:
            return say("choose yourself", "chooses themself")
        return say(f"choose player_{(me + k) % state.n}", f"chooses player_{(me + k) % state.n}")
    if action == lay.swap_chips:
        return say("swap chips", "swaps chips")
    if action == lay.swap_hands:
        return say("swap hands", "swaps hands")
    if action < lay.accept:
        share = action - lay.amount
        if state.phase in (OFFER, COUNTERS) and state.p2 >= 0:
            total = state.chips[state.p2]
            verb = "counter" if state.phase == COUNTERS else "offer"
            return say(f"{verb}: {share} to player_{state.p1}, {total - share} to you",
                       f"{verb}s {share} to player_{state.p1}, keeping {total - share}")
        return say(f"amount {share}", f"names {share}")
    if action < lay.reject:
        i = action - lay.accept
        if i < len(state.proposals):
            proposer, share = state.proposals[i]
            return say(f"accept player_{proposer}'s proposal ({share} to you)",
                       f"accepts player_{proposer}'s proposal ({share} for themself)")
        return say(f"accept proposal {i}", f"accepts proposal {i}")
    if action == lay.reject:
        return say("reject all proposals", "rejects all proposals")
    if action == lay.block:
        return say("block", "blocks")
    if action == lay.pass_:
        return say("pass", "passes")
    return f"unknown action {action}"
