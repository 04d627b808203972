"""The card game's rules as batched tensor functions: the deal, whose decision, the legal mask and one step.

Each function mirrors a method of `envs/ultimatum_cards/state.py` (named in its docstring) and works on
every row at once: what a phase does is computed for all rows and kept only where that phase holds
(`torch.where`, masked adds), so no row takes a Python branch. A step runs the state machine's stages in
the order the Python engine can chain them (act, open a window, resolve, log, end the turn, end the
round, deal), each stage masked by the rows that reach it.

Speed (the CPU has to step thousands of rows in a few milliseconds): the card counts are int8, a row's
seat-indexed entries are read and written through flat indices (one gather or index op per field, not
advanced indexing), and the three rare, heavy stages (a deal, a Swap of hands, a Draw) run on the rows
that reach them only, picked by `nonzero` and written back with `index_copy_`: still no Python branch on
any row, and a step's ops do not grow with the batch.
"""

from __future__ import annotations

import torch

from ultimata.envs.core.array import rng
from ultimata.envs.ultimatum_cards.config import last_round_played
from ultimata.envs.ultimatum_cards.deck import BLOCK, COUNTER, DECK, DRAW, NUM_KINDS, ROUND, STEAL, SWAP, ULTIMATUM
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
    OVER,
    PLAY,
    REJECTED,
    RESOLVED,
    RESPOND,
    RESPONDER,
    SWAP_MODE,
    TARGET,
)

State = dict[str, torch.Tensor]


class Rules:
    """One rule variant's constants (seats, layout, config switches) and the batched rules."""

    def __init__(self, game, device: torch.device) -> None:
        cfg = game.config
        self.cfg, self.n, self.lay, self.device = cfg, cfg.num_players, game.layout, device
        self.num_actions = game.num_actions
        self.cards_per_hand = cfg.cards_per_hand
        self.seats = torch.arange(self.n, device=device)
        self.kinds = torch.arange(NUM_KINDS, device=device)
        self.deck = torch.tensor(DECK, dtype=torch.int64, device=device)
        self.actions = torch.arange(self.num_actions, device=device)
        t = torch.arange(len(DECK), device=device).flip(0)  # pile position j is popped t = 47 - j'th
        self.dealt = t < self.cards_per_hand * self.n
        self.deal_offset = 1 + t % self.n  # ...to seat (dealer + offset) % n
        self.value = (self.kinds % 5 + 1)
        self.revealing = cfg.reaction_windows == "revealing"
        """Windows ask only the seats holding the card (and so show it); else every eligible seat."""

    # -- helpers ----------------------------------------------------------------------------------
    def rows(self, state: State) -> torch.Tensor:
        return torch.arange(state["phase"].shape[0], device=self.device)

    @staticmethod
    def seat_row(x: torch.Tensor, seat: torch.Tensor) -> torch.Tensor:
        """x[b, seat[b]] for x of shape [B, n, ...]."""
        shape = (x.shape[0], 1, *x.shape[2:])
        return x.gather(1, seat.view(-1, *([1] * (x.dim() - 1))).expand(shape)).squeeze(1)

    @staticmethod
    def entry(x: torch.Tensor, seat: torch.Tensor) -> torch.Tensor:
        """x[b, seat[b]] for x of shape [B, n]."""
        return x.gather(1, seat[:, None])[:, 0]

    # -- the deal (state._deal) --------------------------------------------------------------------
    def dealt_cards(self, dealer: torch.Tensor, perm: torch.Tensor):
        """Hands and pile of a fresh shuffle `perm` (indices into DECK, the Python Rng.shuffled order)."""
        b, n = dealer.shape[0], self.n
        pile = self.deck[perm]
        seat = (dealer[:, None] + self.deal_offset) % n  # [b, 48]: where the card at each pile position goes
        column = torch.where(self.dealt, seat * NUM_KINDS + pile, n * NUM_KINDS)  # undealt: a spare column
        hands = torch.zeros(b, n * NUM_KINDS + 1, dtype=torch.int8, device=self.device)
        hands.scatter_add_(1, column, torch.ones_like(column, dtype=torch.int8))
        pile = torch.where(self.dealt, 0, pile)  # the pile past its length reads 0, as from_states pads it
        return hands[:, :-1].reshape(b, n, NUM_KINDS), pile.to(torch.int8)

    # -- whose decision (state.current_player) ----------------------------------------------------
    def current_player(self, state: State) -> torch.Tensor:
        phase = state["phase"]
        window = (phase == COUNTERS) | (phase == BLOCKS)
        out = torch.where(window, state["queue"][:, 0], torch.where(phase == RESPOND, state["p1"], state["actor"]))
        return torch.where(phase == OVER, -1, out)

    # -- legal actions (state._legal_actions) ---------------------------------------------------
    def legal_mask(self, state: State) -> torch.Tensor:
        lay, n = self.lay, self.n
        phase, card, p1 = state["phase"], state["card"], state["p1"]
        me = self.current_player(state).clamp(min=0)
        a = self.actions
        hand = self.seat_row(state["hands"], me) > 0
        play = (phase == PLAY)[:, None] & hand
        k = self.seats  # seat offsets
        not_p1 = (me[:, None] + k) % n != p1[:, None]
        pick = (phase == GIVE_FROM) | (phase == CHOOSE_PLAYER) | (phase == RESPONDER)
        first = torch.where((phase == CHOOSE_PLAYER) & (card == DRAW), 0, 1)
        seat_ok = pick[:, None] & (k >= first[:, None])
        first_give = 0 if self.cfg.give_to_self else 1
        seat_ok |= (phase == GIVE_TO)[:, None] & (k >= first_give) & not_p1
        seat_ok |= (phase == TARGET)[:, None] & (k >= 1) & not_p1
        swap_mode = (phase == SWAP_MODE)[:, None].expand(-1, 2)
        pot = self.entry(state["chips"], state["p2"].clamp(min=0))
        amounts = a[lay.amount:lay.accept] - lay.amount
        counters = phase == COUNTERS
        blocks = phase == BLOCKS
        if not self.revealing:  # asked without the card: only a pass
            counters_with = counters & hand[:, COUNTER]
            blocks_with = blocks & hand[:, BLOCK]
        else:
            counters_with, blocks_with = counters, blocks
        amount_ok = ((phase == OFFER) | counters_with)[:, None] & (amounts <= pot[:, None])
        respond = phase == RESPOND
        accepts = a[lay.accept:lay.reject] - lay.accept
        accept_ok = respond[:, None] & (accepts < state["num_proposals"][:, None])
        tail = torch.stack([respond, blocks_with, blocks | counters], 1)
        return torch.cat([play, seat_ok, swap_mode, amount_ok, accept_ok, tail], 1)

    # -- one step (state._apply and what it calls) ------------------------------------------------
    IN_PLACE = ("hands", "discards", "played", "showed", "known", "proposals", "pile", "chips")
    """The fields a step writes through indices: copied first, so the caller's state stays as it was."""

    def step(self, state: State, action: torch.Tensor, chance: torch.Tensor | None = None):
        lay, n = self.lay, self.n
        s = dict(state)
        for name in self.IN_PLACE:
            s[name] = state[name].clone()
        rows = self.rows(s)
        phase, card = s["phase"], s["card"]
        live = phase != OVER
        me = self.current_player(s).clamp(min=0)
        seat_of = (me + action - lay.seat) % n
        amount = action - lay.amount

        # -- the decision itself --
        is_play = phase == PLAY
        play_card = action.clamp(0, NUM_KINDS - 1)
        card = torch.where(is_play, play_card, card)
        counters = phase == COUNTERS
        blocks = phase == BLOCKS
        respond = phase == RESPOND
        countered = counters & (action != lay.pass_)
        blocked = blocks & (action == lay.block)
        # one discard at most: the played card, a Counter or a Block
        discarding = is_play | countered | blocked
        kind = torch.where(is_play, play_card, torch.where(countered, COUNTER, BLOCK))
        self._discard(s, rows, me, kind, discarding)
        s["card"] = card

        choose = phase == CHOOSE_PLAYER
        sets_p1 = (phase == GIVE_FROM) | choose | (phase == RESPONDER)
        sets_p2 = (phase == GIVE_TO) | (phase == TARGET)
        s["p1"] = torch.where(sets_p1, seat_of, s["p1"])
        s["p2"] = torch.where(sets_p2, seat_of, s["p2"])
        s["swap_hands"] = torch.where(phase == SWAP_MODE, (action == lay.swap_hands).to(torch.int64), s["swap_hands"])
        proposing = (phase == OFFER) | countered
        at = rows * n + s["num_proposals"].clamp(max=n - 1)
        flat = s["proposals"].view(-1, 2)
        flat.index_copy_(0, at, torch.where(proposing[:, None], torch.stack([me, amount], 1), flat[at]))
        s["num_proposals"] = s["num_proposals"] + proposing
        accepting = respond & (action != lay.reject)
        s["accepted"] = torch.where(accepting, action - lay.accept, s["accepted"])
        popping = counters | (blocks & ~blocked)
        self._pop_queue(s, popping)

        # -- where each phase leads --
        new_phase = torch.where(is_play, torch.where(play_card < 5, GIVE_FROM, torch.where(
            play_card == ULTIMATUM, RESPONDER, CHOOSE_PLAYER)), phase)
        new_phase = torch.where(phase == GIVE_FROM, GIVE_TO, new_phase)
        new_phase = torch.where(choose & (card == SWAP), SWAP_MODE, new_phase)
        new_phase = torch.where(phase == RESPONDER, TARGET, new_phase)
        new_phase = torch.where(phase == TARGET, OFFER, new_phase)
        new_phase = torch.where(counters & (s["queue_len"] == 0), RESPOND, new_phase)
        s["phase"] = new_phase

        ended = is_play & (play_card == ROUND)
        discarded = is_play & ((play_card == BLOCK) | (play_card == COUNTER))
        rejected = respond & (action == lay.reject)
        opens_blocks = (choose & (card == STEAL)) | (phase == SWAP_MODE) | accepting
        block_target = torch.where(accepting, s["p2"], s["p1"])
        resolving = (phase == GIVE_TO) | (choose & (card != SWAP) & (card != STEAL)) | (
            popping & blocks & (s["queue_len"] == 0))
        self._open_counters(s, phase == OFFER)
        resolving = resolving | self._open_blocks(s, opens_blocks, block_target)

        moved, draw_ends = self._resolve(s, rows, resolving)
        outcome = torch.where(ended, ENDED, torch.where(discarded, DISCARDED, torch.where(
            rejected, REJECTED, torch.where(blocked, BLOCKED, RESOLVED))))
        logging = ended | discarded | rejected | blocked | resolving
        self._log(s, rows, logging, outcome, moved)
        # what the newest play's sentence names beyond its history entry (0 where it names nothing more)
        s["ev_a"] = torch.where(logging, torch.where(blocked, me, torch.where(resolving, s["ev_a"], 0)), state["ev_a"])
        s["ev_b"] = torch.where(logging & ~blocked & resolving, s["ev_b"], torch.where(logging, 0, state["ev_b"]))

        turn_over = discarded | rejected | blocked | (resolving & ~draw_ends)
        empty_hand = (s["hands"] != 0).sum(2).eq(0).any(1)
        round_over = ended | draw_ends | (turn_over & empty_hand)
        next_turn = turn_over & ~round_over
        s["actor"] = torch.where(next_turn, (s["actor"] + 1) % n, s["actor"])
        over = self._end_round(s, round_over, chance)
        self.start_turn(s, next_turn | round_over)
        s["phase"] = torch.where(over, OVER, s["phase"])
        self._note_reveal(s, rows)
        s["decisions"] = s["decisions"] + live
        return s, over

    # -- the stages a step chains -------------------------------------------------------------------
    def _discard(self, s: State, rows: torch.Tensor, who: torch.Tensor, kind: torch.Tensor,
                 flag: torch.Tensor) -> None:
        """state._discard: a card leaves `who`'s hand for the discards, and every memory of it there."""
        n = self.n
        f = flag.to(torch.int8)
        card_at = (rows * n + who) * NUM_KINDS + kind
        s["hands"].view(-1).index_add_(0, card_at, -f)
        s["played"].view(-1).index_add_(0, card_at, f)
        s["discards"].view(-1).index_add_(0, rows * NUM_KINDS + kind, f)
        reaction = flag & ((kind == BLOCK) | (kind == COUNTER))
        showed_at = (rows * n + who) * 2 + (kind == COUNTER).to(torch.int64)
        showed = s["showed"].view(-1)
        showed.index_copy_(0, showed_at, torch.where(reaction, 0, showed[showed_at]))
        known = s["known"].view(-1)
        seen_at = ((rows[:, None] * n + self.seats) * n + who[:, None]) * NUM_KINDS + kind[:, None]  # every viewer
        seen = known[seen_at]
        known[seen_at] = torch.where(flag[:, None], (seen - 1).clamp(min=0), seen)

    def _pop_queue(self, s: State, flag: torch.Tensor) -> None:
        queue = s["queue"]
        shifted = torch.cat([queue[:, 1:], torch.full_like(queue[:, :1], -1)], dim=1)
        s["queue"] = torch.where(flag[:, None], shifted, queue)
        s["queue_len"] = s["queue_len"] - flag.to(torch.int64)

    def _set_queue(self, s: State, idx: torch.Tensor, asked: torch.Tensor, order: torch.Tensor) -> torch.Tensor:
        """Rows `idx` get the queue of seats `asked` ([len(idx), n] bool) in `order` (each seat's place in
        the round, all different); returns the queues' lengths."""
        n = self.n
        place = (asked[:, None, :] & (order[:, None, :] < order[:, :, None])).sum(2)  # asked seats before each
        place = torch.where(asked, place, n)  # not asked: a spare column
        queue = torch.full((asked.shape[0], n + 1), -1, dtype=torch.int64, device=self.device)
        queue.scatter_(1, place, self.seats.expand_as(place))
        length = asked.sum(1)
        s["queue"] = s["queue"].index_copy(0, idx, queue[:, :n])
        s["queue_len"] = s["queue_len"].index_copy(0, idx, length)
        return length

    def _open_counters(self, s: State, flag: torch.Tensor) -> None:
        """state._open_counters: from the left of the target round the table, the responder skipped, the
        target last; every one of them is asked, or only Counter holders (reaction_windows). Worked out on
        the rows that open one only, as the window-opening stages below."""
        x, n = self.seats, self.n
        idx = flag.nonzero()[:, 0]
        order = (x - s["p2"][idx, None] - 1) % n
        asked = x != s["p1"][idx, None]
        if self.revealing:
            asked = asked & (s["hands"][idx, :, COUNTER] > 0)
        length = self._set_queue(s, idx, asked, order)
        s["phase"] = s["phase"].index_copy(0, idx, torch.where(length > 0, COUNTERS, RESPOND))

    def _open_blocks(self, s: State, flag: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        """state._open_blocks: who may block the pending card; returns the rows that resolve at once
        because nobody can."""
        cfg, x, n = self.cfg, self.seats, self.n
        idx = flag.nonzero()[:, 0]
        actor, card, target = s["actor"][idx], s["card"][idx], target[idx]
        ultimatum = card == ULTIMATUM
        if cfg.blockers == "target":
            eligible = x == target[:, None]
        else:
            eligible = (x != actor[:, None]) & ~(ultimatum[:, None] & (x == s["p1"][idx, None]))
        if not cfg.target_blocks_own_counter:
            proposer = s["proposals"][idx, s["accepted"][idx].clamp(min=0), 0]
            own_counter = ultimatum & (proposer == target)
            eligible &= ~(own_counter[:, None] & (x == target[:, None]))
        order = (x - actor[:, None] - 1) % n
        asked = eligible & (s["hands"][idx, :, BLOCK] > 0) if self.revealing else eligible
        length = self._set_queue(s, idx, asked, order)
        s["phase"] = s["phase"].index_copy(0, idx, torch.where(length > 0, BLOCKS, s["phase"][idx]))
        nobody = torch.zeros_like(flag).index_copy(0, idx, length == 0)
        return nobody

    def _resolve(self, s: State, rows: torch.Tensor, flag: torch.Tensor):
        """state._resolve: carry out the pending card. Returns (chips moved, rows whose last-card Draw
        ends the round)."""
        kind, actor, p1, p2 = s["card"], s["actor"], s["p1"].clamp(min=0), s["p2"].clamp(min=0)
        chips = s["chips"]
        give, take = kind < 5, (kind >= 5) & (kind < 10)
        steal, ult, swap, draw = kind == STEAL, kind == ULTIMATUM, kind == SWAP, kind == DRAW
        c1, c2 = self.entry(chips, p1), self.entry(chips, p2)
        amt = torch.minimum(self.value[kind.clamp(min=0)], c1)
        proposer, share = self.seat_row(s["proposals"], s["accepted"].clamp(min=0)).unbind(1)
        moving = flag & (give | take | steal | ult)
        x = torch.where(moving, torch.where(ult, c2, torch.where(steal, c1, amt)), 0)
        y = torch.where(ult, share, x) * moving
        z = torch.where(ult & moving, x - share, 0)
        seats = torch.stack([torch.where(ult, p2, p1), torch.where(give, p2, torch.where(ult, p1, actor)), proposer], 1)
        delta = torch.zeros_like(chips).scatter_add_(1, seats, torch.stack([-x, y, z], 1))
        swapping = flag & swap
        swap_hands = s["swap_hands"] > 0
        x_ = self.seats
        perm = torch.where(x_ == actor[:, None], p1[:, None], torch.where(x_ == p1[:, None], actor[:, None], x_))
        s["chips"] = torch.where((swapping & ~swap_hands)[:, None], chips.gather(1, perm), chips + delta)
        self._swap_hands(s, swapping & swap_hands, actor, p1, perm)
        drawing = flag & draw
        last_card = (self.seat_row(s["hands"], actor) != 0).sum(1) == 0
        count = self._draw(s, drawing, p1)
        s["ev_a"] = torch.where(swap, s["swap_hands"], torch.where(draw, count, torch.where(ult, proposer, 0)))
        s["ev_b"] = torch.where(ult, share, 0)
        draw_ends = drawing & last_card if self.cfg.last_card_ends_round else torch.zeros_like(flag)
        return x, draw_ends

    def _draw(self, s: State, flag: torch.Tensor, who: torch.Tensor) -> torch.Tensor:
        """A Draw's cards: the top of the pile (its end) into `who`'s hand, for the rows in `flag`; returns
        how many each drew."""
        n = self.n
        count = torch.where(flag, torch.clamp(s["pile_len"], max=self.cfg.draw_count), 0)
        idx = flag.nonzero()[:, 0]
        pile, length, c = s["pile"][idx], s["pile_len"][idx], count[idx]
        j = torch.arange(pile.shape[1], device=self.device)
        takes = (j >= (length - c)[:, None]) & (j < length[:, None])
        column = torch.where(takes, pile.to(torch.int64), NUM_KINDS)
        drawn = torch.zeros(len(idx), NUM_KINDS + 1, dtype=torch.int8, device=self.device)
        drawn.scatter_add_(1, column, torch.ones_like(column, dtype=torch.int8))
        flat = s["hands"].view(-1, NUM_KINDS)
        at = idx * n + who[idx]
        flat.index_copy_(0, at, flat[at] + drawn[:, :NUM_KINDS])
        s["pile"].index_copy_(0, idx, torch.where(takes, 0, pile))  # the pile past its length reads 0
        s["pile_len"] = s["pile_len"] - count
        return count

    def _swap_hands(self, s: State, flag: torch.Tensor, me: torch.Tensor, other: torch.Tensor,
                    perm: torch.Tensor) -> None:
        """The hand half of a Swap, for the rows in `flag`: hands, what anyone knew of them, and what each
        showed, change seats; the two players now know what they gave."""
        idx = flag.nonzero()[:, 0]
        b = torch.arange(len(idx), device=self.device)
        perm, me, other = perm[idx], me[idx], other[idx]
        hands, showed, known = s["hands"][idx], s["showed"][idx], s["known"][idx]
        gave, got = hands[b, me], hands[b, other]
        hands = hands.gather(1, perm[:, :, None].expand_as(hands))
        showed = showed.gather(1, perm[:, :, None].expand_as(showed))
        known = known.gather(2, perm[:, None, :, None].expand_as(known))
        known[b, me, other] = gave
        known[b, other, me] = got
        known[b, me, me] = 0
        known[b, other, other] = 0
        s["hands"].index_copy_(0, idx, hands)
        s["showed"].index_copy_(0, idx, showed)
        s["known"].index_copy_(0, idx, known)

    def _log(self, s: State, rows: torch.Tensor, flag: torch.Tensor, outcome: torch.Tensor,
             moved: torch.Tensor) -> None:
        """state._log: the play joins the history, the oldest leaving past HISTORY."""
        history, length = s["history"], s["history_len"]
        full = flag & (length >= HISTORY)
        history = torch.where(full[:, None, None], torch.roll(history, -1, dims=1), history)
        entry = torch.stack([s["card"], s["actor"], s["p1"], s["p2"], outcome, moved], dim=1).to(history.dtype)
        at = rows * HISTORY + length.clamp(max=HISTORY - 1)
        flat = history.view(-1, 6)
        flat.index_copy_(0, at, torch.where(flag[:, None], entry, flat[at]))
        s["history"] = history
        s["history_len"] = torch.where(flag, (length + 1).clamp(max=HISTORY), length)

    def _end_round(self, s: State, flag: torch.Tensor, chance: torch.Tensor | None) -> torch.Tensor:
        """state._end_round (and _deal for the rows that play on): returns the rows now over."""
        cfg, n = self.cfg, self.n
        s["scores"] = torch.where(flag[:, None], s["scores"] + s["chips"], s["scores"])
        s["rounds_played"] = s["rounds_played"] + flag.to(torch.int64)
        over = flag & last_round_played(cfg, s["rounds_played"], s["scores"].max(1).values)
        dealing = flag & ~over
        self.deal_into(s, dealing, torch.where(dealing, (s["dealer"] + 1) % n, s["dealer"]), chance,
                       fresh_chips=not cfg.chips_carry_over)
        return over

    def deal_into(self, s: State, flag: torch.Tensor, dealer: torch.Tensor, chance: torch.Tensor | None,
                  fresh_chips: bool) -> None:
        """state._deal for the rows in `flag`: a fresh shuffle (the forced one of `chance` where given, else
        the row's next 48 counter draws), hands dealt from the dealer's left."""
        idx = flag.nonzero()[:, 0]
        perm = rng.permutation(s["key"][idx], s["draws"][idx], len(DECK))
        if chance is not None:
            forced = chance[idx]
            perm = torch.where(forced[:, :1] >= 0, forced, perm)
        hands, pile = self.dealt_cards(dealer[idx], perm)
        s["dealer"] = dealer
        s["draws"] = s["draws"] + torch.where(flag, len(DECK), 0)
        s["hands"].index_copy_(0, idx, hands)
        s["pile"].index_copy_(0, idx, pile)
        s["pile_len"] = torch.where(flag, len(DECK) - self.cards_per_hand * self.n, s["pile_len"])
        for name in ("discards", "played", "showed", "known"):
            s[name].index_fill_(0, idx, 0)
        if fresh_chips:
            s["chips"].index_fill_(0, idx, self.cfg.starting_chips)
        s["actor"] = torch.where(flag, (dealer + 1) % self.n, s["actor"])

    def start_turn(self, s: State, flag: torch.Tensor) -> None:
        for name, value in (("phase", PLAY), ("card", -1), ("p1", -1), ("p2", -1), ("swap_hands", 0),
                            ("num_proposals", 0), ("queue_len", 0), ("accepted", -1)):
            s[name] = torch.where(flag, value, s[name])
        s["queue"] = torch.where(flag[:, None], -1, s["queue"])
        s["proposals"] = torch.where(flag[:, None, None], 0, s["proposals"])

    def _note_reveal(self, s: State, rows: torch.Tensor) -> None:
        """state._note_reveal: with revealing windows, being asked to block or counter shows the table that
        you hold that card."""
        if not self.revealing:
            return
        phase = s["phase"]
        window = (phase == BLOCKS) | (phase == COUNTERS)
        at = (rows * self.n + s["queue"][:, 0].clamp(min=0)) * 2 + (phase == COUNTERS).to(torch.int64)
        showed = s["showed"].view(-1)
        showed.index_copy_(0, at, torch.where(window, 1, showed[at]))
