"""The rules of the Ultimatum card game. A turn is a short chain of masked decisions:
play a card, then name its players / amount, then any reaction windows (counter, accept, block).

Seats in actions are offsets from the deciding player; seats in this state are absolute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.core.engine import State
from ultimata.envs.core.fields import SEAT, SHARED, TABLE, Bool, Fields, Int, ListOf, Row, Str
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.config import last_round_played
from ultimata.envs.ultimatum_cards.consistency import check
from ultimata.envs.ultimatum_cards.deck import BLOCK, COUNTER, DRAW, NUM_KINDS, ROUND, STEAL, SWAP, ULTIMATUM
from ultimata.envs.ultimatum_cards.phases import (
    BLOCKED,
    BLOCKS,
    CHOOSE_PLAYER,
    COUNTERS,
    DISCARDED,
    ENDED,
    GIVE_FROM,
    GIVE_TO,
    HISTORY,
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
    from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame


def _CHIPS(s: UltimatumCardsState) -> int:  # noqa: N802 (a bound in the field declaration, like SEAT)
    """All the chips in play: no count of chips is larger."""
    return s.game.config.starting_chips * s.n


_COUNT = Int(0, len(deck.DECK))
_CARD_ROWS = ListOf(ListOf(_COUNT, size=NUM_KINDS), size=TABLE)
"""A count of each card kind per seat."""


class UltimatumCardsState(State):
    game: UltimatumCardsGame

    def __init__(self, game: UltimatumCardsGame, rng: Rng) -> None:
        super().__init__(game, rng)
        cfg = game.config
        self.n = cfg.num_players
        self.layout = game.layout
        self.scores = [0] * self.n
        self.rounds_played = 0
        self.history: list[list[int]] = []
        """The last plays, oldest first: [card, actor, p1, p2, outcome, chips moved] (see HISTORY)."""
        self.dealer = cfg.first_dealer if cfg.first_dealer is not None else rng.below(self.n)
        self.last_event = ""
        self._deal()

    # -- round set-up --------------------------------------------------------------------------
    def _deal(self) -> None:
        """Fresh shuffle of all 48 cards, hands dealt, chips given; the left of the dealer starts."""
        cfg = self.game.config
        n = self.n
        pile = self.rng.shuffled(deck.DECK)
        self.hands = [[0] * NUM_KINDS for _ in range(n)]
        for _ in range(cfg.cards_per_hand):
            for k in range(1, n + 1):
                self.hands[(self.dealer + k) % n][pile.pop()] += 1
        self.pile = pile
        self.discards = [0] * NUM_KINDS
        # What the table remembers this round (all public, or known to one seat: see `known`).
        self.played = [[0] * NUM_KINDS for _ in range(n)]
        """Cards each seat has played this round, reactions included."""
        self.showed = [[0, 0] for _ in range(n)]
        """[Block, Counter]: the seat was asked to react, so it held one then, and has not played one since."""
        self.known = [[[0] * NUM_KINDS for _ in range(n)] for _ in range(n)]
        """known[v][q]: cards seat v knows are in q's hand (after a Swap of hands, v knows what it gave)."""
        if self.rounds_played == 0 or not cfg.chips_carry_over:
            self.chips = [cfg.starting_chips] * n
        self.actor = (self.dealer + 1) % n
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = PLAY
        self.card = -1
        self.p1 = -1  # giver / victim / responder
        self.p2 = -1  # receiver / ultimatum target
        self.swap_hands = False
        self.proposals: list[list[int]] = []  # [proposer seat, responder's share]
        self.queue: list[int] = []  # players still to react, in order
        self.accepted = -1

    # -- whose decision ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return -1
        if phase in (COUNTERS, BLOCKS):
            return self.queue[0]
        if phase == RESPOND:
            return self.p1
        return self.actor

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # -- legal actions -------------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        phase, lay, n = self.phase, self.layout, self.n
        me = self.current_player
        if phase == PLAY:
            hand = self.hands[me]
            return [k for k in range(NUM_KINDS) if hand[k]]
        if phase in (GIVE_FROM, CHOOSE_PLAYER, RESPONDER):
            first = 0 if (phase == CHOOSE_PLAYER and self.card == DRAW) else 1
            return [lay.seat + k for k in range(first, n)]
        if phase == GIVE_TO:
            allowed = range(0 if self.game.config.give_to_self else 1, n)
            return [lay.seat + k for k in allowed if (me + k) % n != self.p1]
        if phase == TARGET:
            return [lay.seat + k for k in range(1, n) if (me + k) % n != self.p1]
        if phase == SWAP_MODE:
            return [lay.swap_chips, lay.swap_hands]
        if phase == COUNTERS and not self.hands[me][COUNTER]:
            return [lay.pass_]  # asked without a Counter (reaction_windows: always): only a pass
        if phase in (OFFER, COUNTERS):
            amounts = list(range(lay.amount, lay.amount + self.chips[self.p2] + 1))
            return amounts + [lay.pass_] if phase == COUNTERS else amounts
        if phase == RESPOND:
            return [*range(lay.accept, lay.accept + len(self.proposals)), lay.reject]
        if phase == BLOCKS:
            return [lay.block, lay.pass_] if self.hands[me][BLOCK] else [lay.pass_]
        return []

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase, lay = self.phase, self.layout
        me = self.current_player
        if phase == PLAY:
            self._play(me, action)
        elif phase == GIVE_FROM:
            self.p1 = self._seat(action)
            self.phase = GIVE_TO
        elif phase == GIVE_TO:
            self.p2 = self._seat(action)
            self._resolve()
        elif phase == CHOOSE_PLAYER:
            self.p1 = self._seat(action)
            if self.card == SWAP:
                self.phase = SWAP_MODE
            elif self.card == STEAL:
                self._open_blocks(self.p1)
            else:
                self._resolve()
        elif phase == SWAP_MODE:
            self.swap_hands = action == lay.swap_hands
            self._open_blocks(self.p1)
        elif phase == RESPONDER:
            self.p1 = self._seat(action)
            self.phase = TARGET
        elif phase == TARGET:
            self.p2 = self._seat(action)
            self.phase = OFFER
        elif phase == OFFER:
            self.proposals.append([me, action - lay.amount])
            self._open_counters()
        elif phase == COUNTERS:
            self.queue.pop(0)
            if action != lay.pass_:
                self._discard(me, COUNTER)
                self.proposals.append([me, action - lay.amount])
            if not self.queue:
                self.phase = RESPOND
        elif phase == RESPOND:
            if action == lay.reject:
                self.last_event = f"player_{me} rejects every proposal: nobody gets chips"
                self._log(REJECTED)
                self._end_turn()
            else:
                self.accepted = action - lay.accept
                self._open_blocks(self.p2)
        elif phase == BLOCKS:
            if action == lay.block:
                self._discard(me, BLOCK)
                self.last_event = f"player_{me} blocks the {deck.NAMES[self.card]}"
                self._log(BLOCKED)
                self._end_turn()
            else:
                self.queue.pop(0)
                if not self.queue:
                    self._resolve()
        self._note_reveal()

    def _log(self, outcome: int, moved: int = 0) -> None:
        self.history = [*self.history, [self.card, self.actor, self.p1, self.p2, outcome, moved]][-HISTORY:]

    def _note_reveal(self) -> None:
        """With `reaction_windows: revealing`, being asked to block or counter shows the table that you
        hold that card (asked always, a seat shows nothing)."""
        if self.phase in (BLOCKS, COUNTERS) and self.game.config.reaction_windows == "revealing":
            self.showed[self.queue[0]][0 if self.phase == BLOCKS else 1] = 1

    def _seat(self, action: int) -> int:
        return (self.current_player + action - self.layout.seat) % self.n

    def _discard(self, player: int, kind: int) -> None:
        self.hands[player][kind] -= 1
        self.discards[kind] += 1
        self.played[player][kind] += 1
        if kind in (BLOCK, COUNTER):
            self.showed[player][0 if kind == BLOCK else 1] = 0
        for seen in self.known:
            if seen[player][kind]:
                seen[player][kind] -= 1

    def _play(self, me: int, kind: int) -> None:
        self._discard(me, kind)
        self.card = kind
        if kind == ROUND:
            self.last_event = f"player_{me} plays Round: the round ends"
            self._log(ENDED)
            self._end_round()
        elif kind in (BLOCK, COUNTER):
            self.last_event = f"player_{me} discards {deck.NAMES[kind]} (nothing to block or counter)"
            self._log(DISCARDED)
            self._end_turn()
        elif kind < 5:
            self.phase = GIVE_FROM
        elif kind == ULTIMATUM:
            self.phase = RESPONDER
        else:
            self.phase = CHOOSE_PLAYER

    def _open_counters(self) -> None:
        """Counters run from the left of the target round the table, skipping the responder; the
        target counters last (config `reaction_windows`: every one of them is asked, or only holders)."""
        n, target = self.n, self.p2
        order = [(target + k) % n for k in range(1, n)]
        self.queue = self._asked([p for p in order if p != self.p1] + [target], COUNTER)
        self.phase = COUNTERS if self.queue else RESPOND

    def _open_blocks(self, target: int) -> None:
        """Ask who may block the pending card (config `blockers`); resolve if nobody can."""
        n = self.n
        if self.game.config.blockers == "target":
            order = [target]
        else:
            excluded = {self.actor, self.p1} if self.card == ULTIMATUM else {self.actor}
            order = [p for p in ((self.actor + k) % n for k in range(1, n)) if p not in excluded]
        own_counter = self.card == ULTIMATUM and self.proposals[self.accepted][0] == target
        if own_counter and not self.game.config.target_blocks_own_counter:
            order = [p for p in order if p != target]
        self.queue = self._asked(order, BLOCK)
        if self.queue:
            self.phase = BLOCKS
        else:
            self._resolve()

    def _asked(self, order: list[int], kind: int) -> list[int]:
        """The seats of `order` a reaction window asks: all of them by default, so that who is asked
        depends on no hidden card; with `reaction_windows: revealing`, only those holding `kind`."""
        if self.game.config.reaction_windows == "always":
            return order
        return [p for p in order if self.hands[p][kind]]

    def _resolve(self) -> None:
        """Carry out the pending card, now that nobody blocked it."""
        kind, me, chips = self.card, self.actor, self.chips
        name = deck.NAMES[kind]
        moved = 0
        if kind < 5:
            amount = min(deck.value(kind), chips[self.p1])
            chips[self.p1] -= amount
            chips[self.p2] += amount
            moved = amount
            self.last_event = f"player_{me} plays {name}: player_{self.p1} gives {amount} to player_{self.p2}"
        elif kind < 10:
            amount = min(deck.value(kind), chips[self.p1])
            chips[self.p1] -= amount
            chips[me] += amount
            moved = amount
            self.last_event = f"player_{me} plays {name}: takes {amount} from player_{self.p1}"
        elif kind == SWAP:
            other = self.p1
            if self.swap_hands:
                gave, got = self.hands[me], self.hands[other]
                self.hands[me], self.hands[other] = got, gave
                for seen in self.known:  # what anyone knew of a hand follows the hand
                    seen[me], seen[other] = seen[other], seen[me]
                self.known[me][other], self.known[other][me] = gave[:], got[:]
                self.known[me][me] = [0] * NUM_KINDS
                self.known[other][other] = [0] * NUM_KINDS
                self.showed[me], self.showed[other] = self.showed[other], self.showed[me]
            else:
                chips[me], chips[other] = chips[other], chips[me]
            what = "hands" if self.swap_hands else "chips"
            self.last_event = f"player_{me} plays Swap: swaps {what} with player_{other}"
        elif kind == STEAL:
            amount, chips[self.p1] = chips[self.p1], 0
            chips[me] += amount
            moved = amount
            self.last_event = f"player_{me} plays Steal: takes all {amount} chips of player_{self.p1}"
        elif kind == DRAW:
            last_card = not any(self.hands[me])  # the Draw was its player's last card (config last_card_ends_round)
            count = min(self.game.config.draw_count, len(self.pile))
            for _ in range(count):
                self.hands[self.p1][self.pile.pop()] += 1
            self.last_event = f"player_{me} plays Draw: player_{self.p1} draws {count}"
        elif kind == ULTIMATUM:
            proposer, share = self.proposals[self.accepted]
            total, target, responder = chips[self.p2], self.p2, self.p1
            chips[target] -= total
            chips[responder] += share
            chips[proposer] += total - share
            moved = total
            self.last_event = (
                f"Ultimatum on player_{target}: player_{responder} accepts player_{proposer}'s split, "
                f"{share} to player_{responder} and {total - share} to player_{proposer}"
            )
        self._log(RESOLVED, moved)
        if kind == DRAW and last_card and self.game.config.last_card_ends_round:
            self._end_round()
            return
        self._end_turn()

    def _end_turn(self) -> None:
        """A play is over; the round ends when any hand is empty, else the next player to the left."""
        if any(sum(hand) == 0 for hand in self.hands):
            self._end_round()
            return
        self.actor = (self.actor + 1) % self.n
        self._start_turn()

    def _end_round(self) -> None:
        cfg = self.game.config
        for p in range(self.n):
            self.scores[p] += self.chips[p]
        self.rounds_played += 1
        if last_round_played(cfg, self.rounds_played, max(self.scores)):
            self._start_turn()
            self.phase = OVER
            return
        self.dealer = (self.dealer + 1) % self.n
        self._deal()

    # -- results -------------------------------------------------------------------------------
    def winners(self) -> list[int]:
        best = max(self.scores)
        return [p for p in range(self.n) if self.scores[p] == best]

    def returns(self) -> list[float]:
        """Winners share +1, losers share -1; everyone tied scores 0."""
        if self.phase != OVER:
            return [0.0] * self.n
        won = self.winners()
        if len(won) == self.n:
            return [0.0] * self.n
        win, lose = 1.0 / len(won), -1.0 / (self.n - len(won))
        return [win if p in won else lose for p in range(self.n)]

    def potentials(self) -> list[float]:
        """Score plus chips in hand, relative to the table mean, in starting-chip units. Once the game
        is over the last round's chips are already in the scores: count them once."""
        over = self.phase == OVER
        totals = list(self.scores) if over else [s + c for s, c in zip(self.scores, self.chips)]
        mean = sum(totals) / self.n
        unit = self.game.config.starting_chips
        return [(t - mean) / unit for t in totals]

    # -- views ---------------------------------------------------------------------------------
    def observation(self, player: int) -> np.ndarray:
        return self.game.observe(self, player)

    def _action_to_string(self, action: int) -> str:
        from ultimata.envs.ultimatum_cards.words import describe_action

        return describe_action(self, action)

    def _narrate(self, action: int) -> str:
        from ultimata.envs.ultimatum_cards.words import narrate_action

        return narrate_action(self, action)

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.ultimatum_cards.text import table

        return table(self, viewer)

    # -- serialisation -------------------------------------------------------------------------
    FIELDS = Fields(
        hands=_CARD_ROWS, chips=ListOf(Int(0, _CHIPS), size=TABLE), scores=ListOf(Int(0, 10**9), size=TABLE),
        pile=ListOf(Int(0, NUM_KINDS - 1), most=len(deck.DECK)), discards=ListOf(_COUNT, size=NUM_KINDS),
        rounds_played=Int(0, 100), dealer=Int(0, SEAT), actor=Int(0, SEAT), phase=Int(0, len(PHASES) - 1),
        card=Int(-1, NUM_KINDS - 1), p1=Int(-1, SEAT), p2=Int(-1, SEAT), swap_hands=Bool(),
        proposals=ListOf(Row(("proposer", Int(0, SEAT)), ("share", Int(0, _CHIPS))), most=TABLE),
        queue=ListOf(Int(0, SEAT), most=TABLE), accepted=Int(-1, SEAT), last_event=Str(),
        history=ListOf(Row(("card", Int(0, NUM_KINDS - 1)), ("actor", Int(0, SEAT)), ("p1", Int(-1, SEAT)),
                           ("p2", Int(-1, SEAT)), ("outcome", Int(0, len(OUTCOMES) - 1)),
                           ("chips moved", Int(0, _CHIPS))), most=HISTORY),
        played=_CARD_ROWS, showed=ListOf(ListOf(Int(0, 1), size=2), size=TABLE),
        known=ListOf(_CARD_ROWS, size=TABLE),
        kept={"n": SHARED, "layout": SHARED},
    )

    def _check_consistency(self) -> None:
        """The position is one the rules can reach (consistency.py names what is not)."""
        check(self)

    def sample_consistent(self, viewer: int, rng: Rng) -> UltimatumCardsState:
        """Other hands re-dealt from the cards `viewer` has not seen (theirs and the pile), each hand
        keeping its size and future chance re-seeded. What the viewer knows stays put: cards it saw
        go into a hand by a Swap, and, with `reaction_windows: revealing`, a Block or Counter a seat
        showed by being asked (or is queued to be asked, which the next decisions will show anyway)."""
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        others = [p for p in range(self.n) if p != viewer]
        unseen = list(self.pile)
        fixed = {}
        for p in others:
            unseen += [k for k in range(NUM_KINDS) for _ in range(self.hands[p][k])]
            keep = self.known[viewer][p][:]
            for flag, kind in ((self.showed[p][0], BLOCK), (self.showed[p][1], COUNTER)):
                keep[kind] = max(keep[kind], flag)
            if p in self.queue[1:] and self.game.config.reaction_windows == "revealing":
                kind = COUNTER if self.phase == COUNTERS else BLOCK
                keep[kind] = max(keep[kind], 1)
            fixed[p] = keep
        for keep in fixed.values():
            for k in range(NUM_KINDS):
                for _ in range(keep[k]):
                    unseen.remove(k)
        unseen = rng.shuffled(sorted(unseen))  # sorted: the draw depends only on what is unseen, not where
        for p in others:
            hand = fixed[p][:]
            for _ in range(sum(self.hands[p]) - sum(hand)):
                hand[unseen.pop()] += 1
            other.hands[p] = hand
        other.pile = unseen
        for v in others:  # what other seats know is hidden from the viewer: keep only what still fits
            other.known[v] = [[min(c, h) for c, h in zip(row, other.hands[q])] for q, row in enumerate(other.known[v])]
        other._mask = None
        return other
