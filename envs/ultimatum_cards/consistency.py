"""What a loaded card-game state must satisfy (issue 40) beyond each field's type, size and range (which
`UltimatumCardsState.FIELDS` declares and the engine checks first): the position is one the rules can reach -
the deck and the chips all somewhere, scores that add up to the rounds played, a card in play exactly while
its phase resolves one, the players that phase needs, and a reaction queue of the players still to be asked
(with `reaction_windows: revealing`, only those who hold the card they are asked for). Each refusal is a
ValueError naming the field."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.config import last_round_played, most_rounds
from ultimata.envs.ultimatum_cards.deck import BLOCK, COUNTER, DRAW, NUM_KINDS, ROUND, STEAL, SWAP, TAKE, ULTIMATUM
from ultimata.envs.ultimatum_cards.phases import (
    BLOCKED,
    BLOCKS,
    CHOOSE_PLAYER,
    COUNTERS,
    DISCARDED,
    ENDED,
    GIVE_FROM,
    GIVE_TO,
    OFFER,
    OUTCOMES,
    OVER,
    PHASES,
    PLAY,
    REJECTED,
    RESOLVED,
    RESPOND,
    RESPONDER,
    SWAP_MODE,
    TARGET,
)

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_cards.state import UltimatumCardsState

CARDS_OF_PHASE = {
    GIVE_FROM: set(deck.GIVE), GIVE_TO: set(deck.GIVE), CHOOSE_PLAYER: {*TAKE, SWAP, STEAL, DRAW},
    SWAP_MODE: {SWAP}, RESPONDER: {ULTIMATUM}, TARGET: {ULTIMATUM}, OFFER: {ULTIMATUM}, COUNTERS: {ULTIMATUM},
    RESPOND: {ULTIMATUM}, BLOCKS: {SWAP, STEAL, ULTIMATUM},
}  # fmt: skip
"""The cards each phase can be resolving."""


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(what)


def check(s: UltimatumCardsState) -> None:
    """The position is one the rules can reach."""
    cfg, n, phase = s.game.config, s.n, s.phase
    chips_in_play = cfg.starting_chips * n
    totals = [sum(h[k] for h in s.hands) + s.pile.count(k) + s.discards[k] for k in range(NUM_KINDS)]
    _need(totals == list(deck.COPIES), "hands, pile and discards must hold the deck exactly (each card once)")
    _need(sum(s.chips) == chips_in_play, f"the chips must add up to {chips_in_play}")
    _need(sum(s.scores) == s.rounds_played * chips_in_play,
          f"scores add up to the chips in play ({chips_in_play}) once a round played")
    _need([sum(p[k] for p in s.played) for k in range(NUM_KINDS)] == s.discards,
          "the cards each seat played this round are the discards")
    _check_rounds(s)
    _need((s.card >= 0) == (phase not in (PLAY, OVER)), "a card is in play exactly when the phase resolves one")
    _need(phase not in CARDS_OF_PHASE or s.card in CARDS_OF_PHASE[phase],
          f"phase {PHASES[phase]!r} does not resolve a {deck.NAMES[s.card] if s.card >= 0 else 'missing card'}")
    if phase == PLAY:
        _need(all(any(h) for h in s.hands), "a round goes on only while every hand holds a card")
    _check_players(s)
    _check_reactions(s)
    _check_history(s)
    _need(cfg.reaction_windows == "revealing" or not any(map(any, s.showed)),
          "showed: being asked shows no card unless reaction_windows is revealing")
    asked = {BLOCK: any(s.discards[k] for k in (SWAP, STEAL, ULTIMATUM)), COUNTER: s.discards[ULTIMATUM] > 0}
    for q in range(n):
        for flag, kind in zip(s.showed[q], (BLOCK, COUNTER)):
            _need(not flag or (s.hands[q][kind] > 0 and asked[kind]),
                  f"showed[{q}]: a seat showed a {deck.NAMES[kind]} it still holds, asked this round")
    seen = any(count for table in s.known for row in table for count in row)
    _need(not seen or s.discards[SWAP] > 0, "known: nobody sees into another hand before a Swap this round")
    if phase != OVER:
        last = s.history[-1][1] if s.history and _a_play_ended_this_round(s) else s.dealer
        _need(s.actor == (last + 1) % s.n, "the player to play is left of the last one (of the dealer, first)")
    for v in range(n):
        _need(not any(s.known[v][v]), f"known[{v}][{v}]: a seat does not 'know' its own hand")
        for q in range(n):
            _need(all(k <= h for k, h in zip(s.known[v][q], s.hands[q])),
                  f"known[{v}][{q}]: known cards must be cards that seat really holds")


def _check_rounds(s: UltimatumCardsState) -> None:
    """Rounds played fit the mode: the game is over exactly when its last round has been played."""
    cfg = s.game.config
    last = last_round_played(cfg, s.rounds_played, max(s.scores))
    limit = most_rounds(cfg)
    _need(s.rounds_played <= limit, f"rounds_played {s.rounds_played}: {cfg.mode} play lasts at most {limit}")
    _need(last == (s.phase == OVER), "the game is over exactly when its last round has been played")


def _check_players(s: UltimatumCardsState) -> None:
    """The players each phase has chosen so far, and no other."""
    phase, actor, p1, p2 = s.phase, s.actor, s.p1, s.p2
    one = {GIVE_TO, SWAP_MODE, TARGET} | ({BLOCKS} if s.card in (SWAP, STEAL) else set())
    two = {OFFER, COUNTERS, RESPOND} | ({BLOCKS} if s.card == ULTIMATUM else set())
    chosen = 2 if phase in two else 1 if phase in one else 0
    _need((p1 >= 0) == (chosen >= 1) and (p2 >= 0) == (chosen == 2),
          f"phase {PHASES[phase]!r} has {chosen} player(s) chosen (p1, p2)")
    _need(p1 != actor or chosen == 0, "p1 (giver, victim or responder) is another player than the card's")
    _need(chosen < 2 or p2 not in (actor, p1), "the Ultimatum's target is a third player")
    _need(s.swap_hands is False or (s.card == SWAP and phase == BLOCKS),
          "swap_hands only while a Swap waits for a Block")


def _check_reactions(s: UltimatumCardsState) -> None:
    """Proposals, the accepted one and the queue of players asked to counter or block."""
    phase, n, cfg = s.phase, s.n, s.game.config
    ultimatum_made = phase in (COUNTERS, RESPOND) or (phase == BLOCKS and s.card == ULTIMATUM)
    _need(bool(s.proposals) == ultimatum_made, "proposals are there exactly from the offer to the block")
    if s.proposals:
        proposers = [p for p, _ in s.proposals]
        _need(proposers[0] == s.actor, "the first proposal is the initiator's offer")
        _need(len(set(proposers[1:])) == len(proposers) - 1 and s.p1 not in proposers[1:],
              "each counter is by another player than the responder, once")
        _need(all(share <= s.chips[s.p2] for _, share in s.proposals), "a share is at most the target's chips")
    _need((s.accepted >= 0) == (phase == BLOCKS and s.card == ULTIMATUM) and s.accepted < max(1, len(s.proposals)),
          "accepted names a proposal exactly while the accepted Ultimatum waits for a Block")
    _need(bool(s.queue) == (phase in (COUNTERS, BLOCKS)), f"phase {PHASES[phase]!r} and the reaction queue disagree")
    _need(len(set(s.queue)) == len(s.queue), "the reaction queue must list distinct seats")
    if phase == COUNTERS:
        order = [q for q in ((s.p2 + k) % n for k in range(1, n)) if q != s.p1] + [s.p2]
        _need(s.queue[0] in order and s.queue == _holders_from(s, order, s.queue[0], COUNTER),
              f"the counter queue is the players (reaction_windows: {cfg.reaction_windows}) still to be asked, "
              "from the left of the target, the responder skipped and the target last")
        _need(not set(s.queue) & {p for p, _ in s.proposals[1:]}, "a player counters once")
    if phase == BLOCKS:
        target = s.p2 if s.card == ULTIMATUM else s.p1
        if cfg.blockers == "target":
            order = [target]
        else:
            excluded = {s.actor, s.p1} if s.card == ULTIMATUM else {s.actor}
            order = [q for q in ((s.actor + k) % n for k in range(1, n)) if q not in excluded]
        if s.card == ULTIMATUM and s.proposals[s.accepted][0] == target and not cfg.target_blocks_own_counter:
            order.remove(target)
        _need(s.queue[0] in order and s.queue == _holders_from(s, order, s.queue[0], BLOCK),
              f"the block queue is the players still to be asked (blockers: {cfg.blockers}, "
              f"reaction_windows: {cfg.reaction_windows})")


def _check_history(s: UltimatumCardsState) -> None:
    """Each remembered play fits its card: its players, its outcome and the chips it moved."""
    cfg = s.game.config
    for i, (card, actor, p1, p2, outcome, moved) in enumerate(s.history):
        if card in (BLOCK, COUNTER, ROUND):
            fits = p1 == p2 == -1 and moved == 0 and outcome == (ENDED if card == ROUND else DISCARDED)
        elif card == ULTIMATUM:
            fits = -1 not in (p1, p2) and len({actor, p1, p2}) == 3 and outcome in (RESOLVED, BLOCKED, REJECTED)
        else:
            chosen = p1 >= 0 and (p2 >= 0) == (card in deck.GIVE) and (p1 != actor or card == DRAW)
            giver_ok = card not in deck.GIVE or (p2 != p1 and (p2 != actor or cfg.give_to_self))
            cap = deck.value(card) if card < 10 else 0 if card in (SWAP, DRAW) else cfg.starting_chips * s.n
            blockable = outcome == BLOCKED and card in (SWAP, STEAL)
            fits = chosen and giver_ok and moved <= cap and (outcome == RESOLVED or blockable)
        _need(fits and (outcome == RESOLVED or moved == 0), f"history[{i}] is not a play the rules allow: "
              f"{deck.NAMES[card]} by player_{actor} on {p1}, {p2}, {OUTCOMES[outcome]}, {moved} chips")


def _a_play_ended_this_round(s: UltimatumCardsState) -> bool:
    """Whether this round's discards hold more than the play in progress: its card and the Counters played
    on it (a Block ends a play at once). Only then is the newest remembered play one of this round's; the
    first play of a round, still in progress, follows a history that ends in an earlier round."""
    in_progress = 0 if s.card < 0 else 1 + max(0, len(s.proposals) - 1)
    return sum(s.discards) > in_progress


def _holders_from(s: UltimatumCardsState, order: list[int], first: int, kind: int) -> list[int]:
    """The players of `order` from `first` on still to be asked: all of them (`reaction_windows: always`),
    or those who hold a card of `kind` (`revealing`)."""
    rest = order[order.index(first):]
    return rest if s.game.config.reaction_windows == "always" else [q for q in rest if s.hands[q][kind]]
