"""The table as text: the ansi table, what the phase asks a seat, and why the game ended (a move's words are
words.py's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.config import most_rounds
from ultimata.envs.ultimatum_cards.deck import BLOCK, COUNTER, SWAP, ULTIMATUM
from ultimata.envs.ultimatum_cards.phases import BLOCKS, COUNTERS, ENDED, OVER, PHASES, RESOLVED, RESPOND

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_cards.state import UltimatumCardsState


def prompt(state: UltimatumCardsState, seat: int | None) -> str:
    """What the phase asks, in words for `seat` when it is that seat's decision: a reaction window names the
    card and the seat's part in it (the Ultimatum's own initiator may still counter: the book lets 'all
    players other than the responder' counter), so a person is asked only what they can do."""
    phase = state.phase
    if seat is None or seat != state.current_player or phase not in (COUNTERS, BLOCKS, RESPOND):
        return PHASES[phase]
    if phase == RESPOND:
        return "accept a proposal (click it) or 'reject all proposals'"
    card = deck.NAMES[state.card]
    held = state.hands[seat][BLOCK if phase == BLOCKS else COUNTER]
    if not held:  # every eligible seat is asked (reaction_windows: always), so the table learns nothing
        what = f"block player_{state.actor}'s {card}" if phase == BLOCKS else f"counter player_{state.actor}'s {card}"
        return f"pass: you hold no {'Block' if phase == BLOCKS else 'Counter'} card to {what}"
    if phase == BLOCKS:
        return f"block player_{state.actor}'s {card} with your Block card ('block'), or 'pass'"
    responder, target = f"player_{state.p1}", f"player_{state.p2}"
    if seat == state.p2:
        return (f"you are the target: play your Counter card to offer {responder} a share of your own chips "
                "instead, or 'pass'")
    if seat == state.actor:
        return (f"your offer is made; you may still play your Counter card to make {responder} a second offer "
                f"for {target}'s chips (they may accept either), or 'pass'")
    return f"play your Counter card to offer {responder} a split of {target}'s chips with you, or 'pass'"


def end_reason(state: UltimatumCardsState) -> str:
    """Why the game ended, once it has: what ended the last round, and why that round was the last."""
    cfg = state.game.config
    card, actor, p1, _, outcome, _ = state.history[-1] if state.history else (-1, -1, -1, -1, -1, 0)
    emptied = [p for p in range(state.n) if not any(state.hands[p])]
    if outcome == ENDED:
        ended = f"player_{actor} played a Round card"
    elif card == SWAP and outcome == RESOLVED and p1 in emptied:
        ended = f"player_{p1} was left with no cards by a swap of hands"
    elif emptied:
        ended = f"{' and '.join(f'player_{p}' for p in emptied)} played the last card of their hand"
    else:
        ended = f"player_{actor} played the last card of their hand (a Draw, with last_card_ends_round)"
    rounds = most_rounds(cfg)
    if cfg.mode == "quick":
        last = "quick play lasts one round"
    elif cfg.mode == "match":
        last = f"match play lasts {rounds} round{'s' * (rounds != 1)}"
    elif max(state.scores) >= cfg.target_score:
        reached = [f"player_{p}" for p in range(state.n) if state.scores[p] >= cfg.target_score]
        last = f"{' and '.join(reached)} reached the target score of {cfg.target_score}"
    else:
        last = f"point play stops after {rounds} rounds, and nobody reached {cfg.target_score}"
    scores = ", ".join(f"player_{p} {state.scores[p]}" for p in range(state.n))
    return f"The round ended: {ended}; {last}. Final scores: {scores}."


def table(state: UltimatumCardsState, viewer: int | None = None) -> str:
    """A readable table; with a viewer, that seat's hand is shown and no other."""
    if state.phase == OVER:
        lines = [f"Ultimatum — game over after {state.rounds_played} round{'s' * (state.rounds_played != 1)}"]
    else:
        round_no, dealer = state.rounds_played + 1, state.dealer
        lines = [f"Ultimatum — round {round_no}, dealer player_{dealer}, {len(state.pile)} to draw"]
    lines.append(f"{'seat':<10}{'chips':>6}{'cards':>6}{'score':>7}")
    for p in range(state.n):
        marks = ("*" if p == state.current_player else " ") + ("D" if p == state.dealer else " ")
        lines.append(f"player_{p:<3}{state.chips[p]:>6}{sum(state.hands[p]):>6}{state.scores[p]:>7} {marks}")
    if state.card == ULTIMATUM and state.p2 >= 0:
        lines.append(
            f"Ultimatum by player_{state.actor}: responder player_{state.p1}, target player_{state.p2} "
            f"({state.chips[state.p2]} chips)"
        )
        for i, (proposer, share) in enumerate(state.proposals):
            lines.append(f"  proposal {i}: player_{proposer} offers {share} to the responder")
    elif state.card >= 0 and state.phase != OVER:
        chosen = [f"player_{p}" for p in (state.p1, state.p2) if p >= 0]
        on = f" on {' and '.join(chosen)}" if chosen else ""
        what = (" (hands)" if state.swap_hands else " (chips)") if state.card == SWAP and state.phase == BLOCKS else ""
        lines.append(f"pending: {deck.NAMES[state.card]}{what} by player_{state.actor}{on}")
    if viewer is not None:
        held = [f"{deck.NAMES[k]} x{c}" if c > 1 else deck.NAMES[k] for k, c in enumerate(state.hands[viewer]) if c]
        lines.append(f"your hand (player_{viewer}): {', '.join(held) or '(empty)'}")
    if state.last_event:
        lines.append(f"last: {state.last_event}")
    if state.phase == OVER:
        lines.append(f"game over — winners: {', '.join(f'player_{p}' for p in state.winners())}")
        lines.append(end_reason(state))
    else:
        lines.append(f"player_{state.current_player} to {prompt(state, viewer)}")
    return "\n".join(lines)
