"""The Ultimatum card game's scripted bot.

It plays for its *lead margin*: its own chips (plus banked score) minus the best other player's.
So it takes and steals from the leader, makes the leader give to the poorest, blocks whatever would
cut its margin, counters an Ultimatum to grab a share, accepts only splits that help it, and plays
Round to end the round as soon as it is strictly ahead. It reads only what its seat may see: its own
hand, the public chips and scores, hand sizes and the pending card.
"""

from __future__ import annotations

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.deck import BLOCK, COUNTER, DRAW, ROUND, STEAL, SWAP, ULTIMATUM
from ultimata.envs.ultimatum_cards.phases import (
    BLOCKS,
    CHOOSE_PLAYER,
    COUNTERS,
    GIVE_FROM,
    GIVE_TO,
    OFFER,
    PLAY,
    RESPOND,
    RESPONDER,
    SWAP_MODE,
    TARGET,
)
from ultimata.envs.ultimatum_cards.state import UltimatumCardsState

# Small costs for spending a card, so equal gains use the cheaper card and keep Steal for a fat target.
_SPEND = {STEAL: 0.6, ULTIMATUM: 0.4, SWAP: 0.3, BLOCK: 0.5, COUNTER: 0.5}


def margin(totals: list[int], me: int) -> int:
    """How far `me` is ahead of the best other player (negative when behind)."""
    return totals[me] - max(t for p, t in enumerate(totals) if p != me)


def _totals(state: UltimatumCardsState, chips: list[int] | None = None) -> list[int]:
    chips = state.chips if chips is None else chips
    return [s + c for s, c in zip(state.scores, chips)]


def _after_move(chips: list[int], giver: int, taker: int, amount: int) -> list[int]:
    out = chips[:]
    amount = min(amount, out[giver])
    out[giver] -= amount
    out[taker] += amount
    return out


def _after_ultimatum(chips: list[int], target: int, responder: int, proposer: int, share: int) -> list[int]:
    out = chips[:]
    total = out[target]
    out[target] -= total
    out[responder] += share
    out[proposer] += total - share
    return out


def _value(state: UltimatumCardsState, chips: list[int], me: int) -> float:
    """Margin first; own chips as a small tie-break."""
    totals = _totals(state, chips)
    return margin(totals, me) + 0.01 * totals[me]


class _Planner:
    """Evaluates each way to play one card for the seat `me`."""

    def __init__(self, state: UltimatumCardsState, me: int) -> None:
        self.state, self.me, self.n = state, me, state.n
        self.chips = state.chips
        self.now = _value(state, self.chips, me)
        self.others = [p for p in range(self.n) if p != me]

    def leader(self, exclude: tuple[int, ...] = ()) -> int:
        totals = _totals(self.state)
        return max((p for p in self.others if p not in exclude), key=lambda p: (totals[p], -p))

    def poorest(self, exclude: tuple[int, ...] = ()) -> int:
        totals = _totals(self.state)
        return min((p for p in self.others if p not in exclude), key=lambda p: (totals[p], p))

    def gain(self, chips: list[int]) -> float:
        return _value(self.state, chips, self.me) - self.now

    def give(self, kind: int) -> tuple[float, int, int]:
        """Best (gain, giver, receiver) for a Give card: the leader gives to the poorest."""
        best = (-1e9, -1, -1)
        for giver in self.others:
            for receiver in range(self.n):
                if receiver == giver or (receiver == self.me and not self.state.game.config.give_to_self):
                    continue
                g = self.gain(_after_move(self.chips, giver, receiver, deck.value(kind)))
                best = max(best, (g, giver, receiver), key=lambda t: t[0])
        return best

    def take(self, amount: int) -> tuple[float, int]:
        return max(((self.gain(_after_move(self.chips, p, self.me, amount)), p) for p in self.others),
                   key=lambda t: t[0])

    def swap(self) -> tuple[float, int]:
        def swapped(p: int) -> list[int]:
            out = self.chips[:]
            out[p], out[self.me] = out[self.me], out[p]
            return out

        return max(((self.gain(swapped(p)), p) for p in self.others), key=lambda t: t[0])

    def ultimatum(self) -> tuple[float, int, int, int]:
        """(gain, responder, target, share): squeeze the leader among those holding chips, pay the
        poorest just enough. With nobody to squeeze it is the worst card to spend."""
        broke = tuple(p for p in self.others if self.chips[p] == 0)
        if len(broke) == len(self.others):
            return -10.0, self.poorest(), self.leader(), 0
        target = self.leader(exclude=broke)
        responder = self.poorest(exclude=(target,))
        share = fair_offer(self.state, target, responder, self.me)
        return self.gain(_after_ultimatum(self.chips, target, responder, self.me, share)), responder, target, share


def fair_offer(state: UltimatumCardsState, target: int, responder: int, proposer: int) -> int:
    """The smallest share the responder should accept: one that does not cut its own margin."""
    total = state.chips[target]
    before = _value(state, state.chips, responder)
    for share in range(total + 1):
        if _value(state, _after_ultimatum(state.chips, target, responder, proposer, share), responder) >= before:
            return share
    return (total + 1) // 2


def _card_score(state: UltimatumCardsState, me: int, kind: int, plan: _Planner) -> float:
    ahead = margin(_totals(state), me) > 0
    if kind == ROUND:
        return 100.0 if ahead else -100.0
    if kind < 5:
        gain = plan.give(kind)[0]
    elif kind < 10:
        gain = plan.take(deck.value(kind))[0]
    elif kind == STEAL:
        gain = plan.take(10**6)[0]
    elif kind == SWAP:
        gain = plan.swap()[0]
    elif kind == ULTIMATUM:
        gain = plan.ultimatum()[0]
    elif kind == DRAW:
        gain = -0.2 if ahead else 0.2  # more cards help the one behind; ahead, let the hand run out
    else:  # Block or Counter from the hand does nothing; they are kept for reactions
        gain = 0.0
    return gain - _SPEND.get(kind, 0.0)


def choose_action(state: UltimatumCardsState, rng: Rng) -> int:
    """One decision for the current player."""
    me, lay, phase = state.current_player, state.layout, state.phase
    legal = state.legal_actions()
    plan = _Planner(state, me)

    def seat_action(p: int) -> int:
        return lay.seat + (p - me) % state.n

    if phase == PLAY:
        scored = [(_card_score(state, me, k, plan), rng.below(1000), k) for k in legal]
        return max(scored)[2]
    if phase == GIVE_FROM:
        return seat_action(plan.give(state.card)[1])
    if phase == GIVE_TO:
        options = [a for a in legal]
        return max(options, key=lambda a: plan.gain(
            _after_move(state.chips, state.p1, (me + a - lay.seat) % state.n, deck.value(state.card))))
    if phase == CHOOSE_PLAYER:
        if state.card == DRAW:
            if margin(_totals(state), me) <= 0:
                return seat_action(me)  # behind: more cards, more chances
            # ahead: the round ends when a hand runs out, so feed the biggest hand, and not a rival
            sizes = [sum(h) for h in state.hands]
            return seat_action(max(plan.others, key=lambda p: (sizes[p], -_totals(state)[p], -p)))
        if state.card == SWAP:
            return seat_action(plan.swap()[1])
        amount = 10**6 if state.card == STEAL else deck.value(state.card)
        return seat_action(plan.take(amount)[1])
    if phase == SWAP_MODE:
        swapped = state.chips[:]
        swapped[me], swapped[state.p1] = swapped[state.p1], swapped[me]
        return lay.swap_chips if plan.gain(swapped) > 0 else lay.swap_hands
    if phase == RESPONDER:
        return seat_action(plan.ultimatum()[1])
    if phase == TARGET:
        return seat_action(plan.leader(exclude=(state.p1,)))
    if phase == OFFER:
        return lay.amount + fair_offer(state, state.p2, state.p1, me)
    if legal == [lay.pass_]:
        return lay.pass_  # asked to react without the card (reaction_windows: always)
    if phase == COUNTERS:
        return _counter(state, me, plan)
    if phase == RESPOND:
        return _respond(state, me, plan)
    if phase == BLOCKS:
        return lay.block if _pending_gain(state, plan) < 0 else lay.pass_
    return legal[rng.below(len(legal))]


def _counter(state: UltimatumCardsState, me: int, plan: _Planner) -> int:
    """Outbid the best standing offer by one chip when keeping the rest beats letting it stand."""
    lay, target, responder = state.layout, state.p2, state.p1
    if me == target and state.hands[me][BLOCK]:
        return lay.pass_  # keep the chips whole: block whatever split is accepted rather than pay a share
    total = state.chips[target]
    proposer, best_share = max(state.proposals, key=lambda p: p[1])
    share = best_share + 1
    if share > total:
        return lay.pass_
    standing = plan.gain(_after_ultimatum(state.chips, target, responder, proposer, best_share))
    mine = plan.gain(_after_ultimatum(state.chips, target, responder, me, share))
    return lay.amount + share if mine > standing else lay.pass_


def _respond(state: UltimatumCardsState, me: int, plan: _Planner) -> int:
    lay = state.layout
    best, choice = 0.0, lay.reject  # rejecting leaves the chips where they are
    for i, (proposer, share) in enumerate(state.proposals):
        g = plan.gain(_after_ultimatum(state.chips, state.p2, me, proposer, share))
        if g > best:
            best, choice = g, lay.accept + i
    return choice


def _pending_gain(state: UltimatumCardsState, plan: _Planner) -> float:
    """What the card waiting on a block would do to my margin if nobody blocks it."""
    kind, actor, chips = state.card, state.actor, state.chips
    if kind == STEAL:
        return plan.gain(_after_move(chips, state.p1, actor, chips[state.p1]))
    if kind == SWAP:
        if state.swap_hands:
            mine, theirs = sum(state.hands[plan.me]), sum(state.hands[actor] if actor != plan.me else 0)
            return -1.0 if plan.me == state.p1 and mine > theirs else 0.0
        out = chips[:]
        out[actor], out[state.p1] = out[state.p1], out[actor]
        return plan.gain(out)
    if kind == ULTIMATUM and 0 <= state.accepted < len(state.proposals):
        proposer, share = state.proposals[state.accepted]
        return plan.gain(_after_ultimatum(chips, state.p2, state.p1, proposer, share))
    return 0.0
