"""The card game's scripted bot (`envs/ultimatum_cards/scripted.py`) on the array state: every row's decision
in one batched, branch-free pass, so the array sampler can seat it without leaving the tensors.

Each part mirrors a function of the Python bot (named in its docstring) and is worked out for every row; the
phase then picks which part a row's action comes from (`torch.where`). Where the Python bot takes the first
best of a list (`max` keeps the first of equals), the candidates here are laid out in the same order and
`argmax` takes the first too, and the values are the same float64 sums in the same order, so the choice is
the Python bot's own. The one difference: in PLAY the Python bot breaks a tie between equally scored cards
with `rng.below(1000)`; here a tie is broken uniformly at random with the `torch.Generator` passed in. (Its
other draw, the fallback `legal[rng.below(...)]`, is never reached: every phase has its rule.)

It reads what the seat may see only: its own hand, the chips and scores, hand sizes, the pending card, its
players and the proposals.
"""

from __future__ import annotations

import torch

from ultimata.envs.ultimatum_cards.array.rules import Rules
from ultimata.envs.ultimatum_cards.deck import BLOCK, COUNTER, DRAW, NUM_KINDS, ROUND, STEAL, SWAP, ULTIMATUM
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
from ultimata.envs.ultimatum_cards.scripted import _SPEND

State = dict[str, torch.Tensor]
_LOW = -(2**62)
"""Below every total: a seat left out of a max."""
_ALL = 10**6
"""Steal's amount, as the Python bot writes it: every chip the victim has."""


class ScriptedBot:
    """The scripted bot of one rule variant (seats, layout, `give_to_self`), for batches of rows."""

    def __init__(self, game, rules: Rules) -> None:
        cfg, device = game.config, rules.device
        self.rules = rules
        self.n, self.lay, self.device = cfg.num_players, game.layout, device
        self.give_to_self = bool(cfg.give_to_self)
        self.seats = torch.arange(self.n, device=device)
        self.spend = torch.tensor([_SPEND.get(k, 0.0) for k in range(NUM_KINDS)], dtype=torch.float64, device=device)
        self.takes = torch.tensor([1, 2, 3, 4, 5, _ALL], device=device)
        """The Take cards' amounts, then Steal's: the rows of `take`'s table."""
        self.eye = torch.eye(self.n, dtype=torch.int64, device=device)
        self.give_values = torch.arange(1, 6, device=device).view(1, 5, 1)
        self.give_pattern = self.eye[None, :] - self.eye[:, None]
        """[giver, receiver, seat]: +1 at the receiver, -1 at the giver (0 where they are one seat)."""
        self.distinct = ~torch.eye(self.n, dtype=torch.bool, device=device)
        self.offer_steps = (self.lay.max_amount + 2).bit_length()
        """Halvings that find the fair share among 0..max_amount+1."""

    def f64(self, x: float) -> torch.Tensor:
        """A float64 constant: a Python float in `torch.where` would come out float32 and miss a tie."""
        return torch.tensor(x, dtype=torch.float64, device=self.device)

    # -- the Python bot's helpers, batched ---------------------------------------------------------
    def value(self, scores: torch.Tensor, chips: torch.Tensor, who: torch.Tensor) -> torch.Tensor:
        """scripted._value for seat `who` ([B]) of chips [B, *E, n]: margin plus 0.01 of its own total."""
        b, extra = chips.shape[0], chips.dim() - 2
        totals = scores.view(b, *([1] * extra), self.n) + chips
        w = who.view(b, *([1] * extra), 1)
        mine = totals.gather(-1, w.expand(*totals.shape[:-1], 1)).squeeze(-1)
        rival = totals.masked_fill(self.seats == w, _LOW).max(-1).values
        return (mine - rival).to(torch.float64) + 0.01 * mine.to(torch.float64)

    def moved(self, chips: torch.Tensor, giver: torch.Tensor, taker: torch.Tensor,
              amount: torch.Tensor) -> torch.Tensor:
        """scripted._after_move for candidates [B, *E] (giver, taker, amount): chips [B, *E, n]."""
        b, shape = chips.shape[0], giver.shape
        have = chips.gather(1, giver.reshape(b, -1)).view(shape)
        amt = torch.minimum(amount.expand(shape), have)[..., None]
        x = self.seats
        base = chips.view(b, *([1] * (len(shape) - 1)), self.n)
        return base + (x == taker[..., None]) * amt - (x == giver[..., None]) * amt

    def ultimatum_chips(self, chips: torch.Tensor, target: torch.Tensor, responder: torch.Tensor,
                        proposer: torch.Tensor, share: torch.Tensor) -> torch.Tensor:
        """scripted._after_ultimatum for candidates [B, *E]: chips [B, *E, n]."""
        b, shape = chips.shape[0], target.shape
        total = chips.gather(1, target.reshape(b, -1)).view(shape)[..., None]
        share = share.expand(shape)[..., None]
        x = self.seats
        base = chips.view(b, *([1] * (len(shape) - 1)), self.n)
        return (base - (x == target[..., None]) * total + (x == responder[..., None]) * share
                + (x == proposer[..., None]) * (total - share))

    def swapped(self, chips: torch.Tensor, a: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        """Chips with seats a and c ([B, *E]) exchanged: [B, *E, n]."""
        b, shape = chips.shape[0], a.shape
        ca = chips.gather(1, a.reshape(b, -1)).view(*shape, 1)
        cc = chips.gather(1, c.reshape(b, -1)).view(*shape, 1)
        base = chips.view(b, *([1] * (len(shape) - 1)), self.n)
        x = self.seats
        return torch.where(x == a[..., None], cc, torch.where(x == c[..., None], ca, base))

    def leader(self, totals: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
        """_Planner.leader: the highest total among `allowed` seats, the lowest seat of equals."""
        key = torch.where(allowed, totals * 8 + (7 - self.seats), _LOW)
        return key.argmax(1)

    def poorest(self, totals: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
        """_Planner.poorest: the lowest total among `allowed` seats, the lowest seat of equals."""
        key = torch.where(allowed, totals * 8 + self.seats, -_LOW)
        return key.argmin(1)

    def fair_offer(self, scores: torch.Tensor, chips: torch.Tensor, target: torch.Tensor, responder: torch.Tensor,
                   proposer: torch.Tensor) -> torch.Tensor:
        """scripted.fair_offer: the smallest share that does not cut the responder's value. That value never
        falls as the share grows (the responder gains, only the proposer's total drops), so the first such
        share is found by halving the range 0..total+1 (total+1: none, then half the pot as the bot says)."""
        total = chips.gather(1, target[:, None])[:, 0]
        before = self.value(scores, chips, responder)
        lo, hi = torch.zeros_like(total), total + 1
        for _ in range(self.offer_steps):
            mid = (lo + hi) // 2
            ok = self.value(scores, self.ultimatum_chips(chips, target, responder, proposer, mid), responder) >= before
            open_ = lo < hi
            hi = torch.where(open_ & ok, mid, hi)
            lo = torch.where(open_ & ~ok, mid + 1, lo)
        return torch.where(lo > total, (total + 1) // 2, lo)

    # -- one decision per row ------------------------------------------------------------------------
    def actions(self, s: State, generator: torch.Generator | None = None) -> torch.Tensor:
        """scripted.choose_action for every row's current player ([B] int64). A finished row gets 0 (it has
        no legal action, and the array engine leaves it as it is)."""
        lay, n, x = self.lay, self.n, self.seats
        phase, card, p1, p2 = s["phase"], s["card"], s["p1"].clamp(min=0), s["p2"].clamp(min=0)
        chips, scores = s["chips"], s["scores"]
        b = phase.shape[0]
        me = self.rules.current_player(s).clamp(min=0)
        actor = s["actor"]
        totals = scores + chips
        others = x != me[:, None]
        now = self.value(scores, chips, me)
        my_total = totals.gather(1, me[:, None])[:, 0]
        margin = my_total - totals.masked_fill(~others, _LOW).max(1).values
        ahead = margin > 0
        hand = Rules.seat_row(s["hands"], me)
        sizes = s["hands"].sum(2, dtype=torch.int64)

        def gain(new: torch.Tensor) -> torch.Tensor:
            return self.value(scores, new, me) - now.view(b, *([1] * (new.dim() - 2)))

        def offset(seat: torch.Tensor) -> torch.Tensor:
            return lay.seat + (seat - me) % n

        # _Planner.give for the five Give cards: [B, 5, giver, receiver], givers then receivers in seat order
        # the chips after each give: giver g's min(value, its chips) moves to receiver r (a fixed +-1 pattern)
        paid = torch.minimum(self.give_values, chips[:, None, :])  # [B, 5, giver]
        gives = gain(chips[:, None, None, None, :] + paid[:, :, :, None, None] * self.give_pattern)
        may = others[:, None, :, None] & self.distinct  # [B, 1, giver, receiver]
        if not self.give_to_self:
            may = may & (x != me.view(b, 1, 1, 1))
        gives = gives.masked_fill(~may, float("-inf")).reshape(b, 5, n * n)
        give_gain, give_best = gives.max(2).values, gives.argmax(2)
        # _Planner.take for Take 1-5 and Steal: [B, 6, victim]
        taken = torch.minimum(self.takes.view(1, 6, 1), chips[:, None, :])  # [B, 6, victim]
        mine = (x == me[:, None]).to(torch.int64)
        takes = gain(chips[:, None, None, :] + taken[..., None] * (mine[:, None, None, :] - self.eye))
        takes = takes.masked_fill(~others[:, None, :], float("-inf"))
        take_gain, take_best = takes.max(2).values, takes.argmax(2)
        # _Planner.swap: [B, other]
        swaps = gain(self.swapped(chips, x.expand(b, n), me[:, None].expand(b, n))).masked_fill(~others, float("-inf"))
        swap_gain, swap_best = swaps.max(1).values, swaps.argmax(1)
        # _Planner.ultimatum: squeeze the leader among those holding chips, pay the poorest just enough
        holding = others & (chips > 0)
        nobody = ~holding.any(1)
        target = torch.where(nobody, self.leader(totals, others), self.leader(totals, holding))
        responder = self.poorest(totals, others & ~((x == target[:, None]) & ~nobody[:, None]))
        # one fair offer per row: the plan's in PLAY, the pending Ultimatum's when offering
        offering = phase == OFFER
        offer_target, offer_responder = torch.where(offering, p2, target), torch.where(offering, p1, responder)
        share = self.fair_offer(scores, chips, offer_target, offer_responder, me)
        ult_gain = torch.where(nobody, -10.0, gain(self.ultimatum_chips(chips, target, responder, me, share)))

        # PLAY: _card_score of every card in the hand, a tie broken at random
        score = torch.zeros(b, NUM_KINDS, dtype=torch.float64, device=self.device)
        score[:, :5] = give_gain
        score[:, 5:10] = take_gain[:, :5]
        score[:, STEAL] = take_gain[:, 5]
        score[:, SWAP] = swap_gain
        score[:, ULTIMATUM] = ult_gain
        score[:, DRAW] = torch.where(ahead, self.f64(-0.2), self.f64(0.2))
        score = score - self.spend
        score[:, ROUND] = torch.where(ahead, self.f64(100.0), self.f64(-100.0))
        held = hand > 0
        score = score.masked_fill(~held, float("-inf"))
        tied = held & (score == score.max(1, keepdim=True).values)
        draw = torch.rand(b, NUM_KINDS, generator=generator, device=self.device, dtype=torch.float64)
        play = torch.where(tied, draw, -1.0).argmax(1)

        kind = card.clamp(min=0)
        # GIVE_FROM: the giver of the card's best give
        give_kind = kind.clamp(max=4)
        give_from = offset(give_best.gather(1, give_kind[:, None])[:, 0] // n)
        # GIVE_TO: the receiver, options in seat-offset order
        k_seat = (me[:, None] + x) % n
        first = 0 if self.give_to_self else 1
        amount = (give_kind + 1)[:, None].expand(b, n)
        to_gain = gain(self.moved(chips, p1[:, None].expand(b, n), k_seat, amount))
        to_gain = to_gain.masked_fill((x < first) | (k_seat == p1[:, None]), float("-inf"))
        give_to = lay.seat + to_gain.argmax(1)
        # CHOOSE_PLAYER
        draw_pick = self._draw_target(sizes, totals, others)
        draw_choice = torch.where(margin <= 0, lay.seat, offset(draw_pick))
        take_row = torch.where(kind == STEAL, 5, (kind - 5).clamp(0, 4))
        take_choice = offset(take_best.gather(1, take_row[:, None])[:, 0])
        choose = torch.where(kind == DRAW, draw_choice, torch.where(kind == SWAP, offset(swap_best), take_choice))
        # SWAP_MODE
        mode_gain = gain(self.swapped(chips, me[:, None], p1[:, None]))[:, 0]
        swap_mode = torch.where(mode_gain > 0, lay.swap_chips, lay.swap_hands)
        # RESPONDER, TARGET, OFFER
        pick_responder = offset(responder)
        pick_target = offset(self.leader(totals, others & (x != p1[:, None])))
        offer = lay.amount + share
        # COUNTERS, RESPOND, BLOCKS
        counter = self._counter(s, scores, chips, me, hand, gain)
        respond = self._respond(s, chips, me, gain)
        block = torch.where(self._pending_gain(s, chips, me, actor, p1, p2, sizes, gain) < 0, lay.block, lay.pass_)
        only_pass = ((phase == COUNTERS) & (hand[:, COUNTER] == 0)) | ((phase == BLOCKS) & (hand[:, BLOCK] == 0))

        out = torch.zeros(b, dtype=torch.int64, device=self.device)
        for which, action in ((PLAY, play), (GIVE_FROM, give_from), (GIVE_TO, give_to), (CHOOSE_PLAYER, choose),
                              (SWAP_MODE, swap_mode), (RESPONDER, pick_responder), (TARGET, pick_target),
                              (OFFER, offer), (COUNTERS, counter), (RESPOND, respond), (BLOCKS, block)):
            out = torch.where(phase == which, action, out)
        return torch.where(only_pass, lay.pass_, out)

    def _draw_target(self, sizes: torch.Tensor, totals: torch.Tensor, others: torch.Tensor) -> torch.Tensor:
        """Draw when ahead: the other with the biggest hand, then the lowest total, then the lowest seat."""
        big = others & (sizes == sizes.masked_fill(~others, -1).max(1, keepdim=True).values)
        low = big & (totals == totals.masked_fill(~big, -_LOW).min(1, keepdim=True).values)
        return low.to(torch.int8).argmax(1)  # the first seat left

    def _best_proposal(self, s: State) -> tuple[torch.Tensor, torch.Tensor]:
        """(proposer, share) of the first proposal with the largest share."""
        shares = s["proposals"][:, :, 1].masked_fill(self.seats >= s["num_proposals"][:, None], -1)
        best = shares.argmax(1)
        return s["proposals"][:, :, 0].gather(1, best[:, None])[:, 0], shares.gather(1, best[:, None])[:, 0]

    def _counter(self, s: State, scores, chips, me, hand, gain) -> torch.Tensor:
        """scripted._counter: outbid the best standing offer by one chip when keeping the rest beats letting it
        stand; the target holding a Block passes."""
        lay, target, responder = self.lay, s["p2"].clamp(min=0), s["p1"].clamp(min=0)
        total = chips.gather(1, target[:, None])[:, 0]
        proposer, best_share = self._best_proposal(s)
        share = best_share + 1
        proposer = proposer.clamp(min=0)
        standing = gain(self.ultimatum_chips(chips, target[:, None], responder[:, None], proposer[:, None],
                                             best_share.clamp(min=0)[:, None]))[:, 0]
        mine = gain(self.ultimatum_chips(chips, target[:, None], responder[:, None], me[:, None],
                                         share[:, None]))[:, 0]
        keeps = (me == target) & (hand[:, BLOCK] > 0)
        bids = ~keeps & (share <= total) & (mine > standing)
        return torch.where(bids, lay.amount + share.clamp(min=0), lay.pass_)

    def _respond(self, s: State, chips, me, gain) -> torch.Tensor:
        """scripted._respond: accept the first best proposal that helps, else reject."""
        lay, n = self.lay, self.n
        b = chips.shape[0]
        target = s["p2"].clamp(min=0)[:, None].expand(b, n)
        proposer, share = s["proposals"][:, :, 0], s["proposals"][:, :, 1]
        g = gain(self.ultimatum_chips(chips, target, me[:, None].expand(b, n), proposer, share))
        g = g.masked_fill(self.seats >= s["num_proposals"][:, None], float("-inf"))
        best = g.max(1).values
        return torch.where(best > 0.0, lay.accept + g.argmax(1), lay.reject)

    def _pending_gain(self, s: State, chips, me, actor, p1, p2, sizes, gain) -> torch.Tensor:
        """scripted._pending_gain: what the card waiting on a block does to my value if nobody blocks it."""
        card = s["card"]
        victim_chips = chips.gather(1, p1[:, None])
        steal = gain(self.moved(chips, p1[:, None], actor[:, None], victim_chips))[:, 0]
        swap_chips = gain(self.swapped(chips, actor[:, None], p1[:, None]))[:, 0]
        mine = sizes.gather(1, me[:, None])[:, 0]
        theirs = torch.where(actor != me, sizes.gather(1, actor[:, None])[:, 0], 0)
        swap_hands = torch.where((me == p1) & (mine > theirs), self.f64(-1.0), self.f64(0.0))
        swap = torch.where(s["swap_hands"] > 0, swap_hands, swap_chips)
        accepted = s["accepted"]
        live = (accepted >= 0) & (accepted < s["num_proposals"])
        at = accepted.clamp(min=0)[:, None]
        proposer = s["proposals"][:, :, 0].gather(1, at)
        share = s["proposals"][:, :, 1].gather(1, at)
        ult = gain(self.ultimatum_chips(chips, p2[:, None], p1[:, None], proposer, share))[:, 0]
        ult = torch.where(live, ult, 0.0)
        return torch.where(card == STEAL, steal, torch.where(card == SWAP, swap, torch.where(
            card == ULTIMATUM, ult, torch.zeros_like(ult))))
