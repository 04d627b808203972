"""The card game's rules as batched tensor functions: the deal, whose decision, the legal mask and one step.

Each function mirrors a method of `envs/ultimatum_cards/state.py` (named in its docstring) and works on
every row at once: what a phase does is computed for all rows and kept only where that phase holds
(`torch.where`, masked adds), so no row takes a Python branch. A step runs the state machine's stages in
the order the Python engine can chain them (act, open a window, resolve, log, end the turn, end the
round, deal), each stage masked by the rows that reach it.
"""

from __future__ import annotations

import torch

from ultimata.envs.core.array import rng
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

    # -- helpers ----------------------------------------------------------------------------------
    def rows(self, state: State) -> torch.Tensor:
        return torch.arange(state["phase"].shape[0], device=self.device)

    def onehot_seat(self, seat: torch.Tensor) -> torch.Tensor:
        """[B, n] bool: seat `seat` (nothing where it is -1)."""
        return seat[:, None] == self.seats

    # -- the deal (state._deal) --------------------------------------------------------------------
    def dealt_cards(self, dealer: torch.Tensor, perm: torch.Tensor):
        """Hands and pile of a fresh shuffle `perm` (indices into DECK, the Python Rng.shuffled order)."""
        pile = self.deck[perm]
        seat = (dealer[:, None] + self.deal_offset) % self.n  # [B, 48]
        goes = self.dealt[:, None] & (seat[:, :, None] == self.seats)  # [B, 48, n]
        card = pile[:, :, None] == self.kinds  # [B, 48, 17]
        hands = torch.einsum("bjs,bjk->bsk", goes.to(torch.float32), card.to(torch.float32)).to(torch.int64)
        pile_len = torch.full_like(dealer, len(DECK) - self.cards_per_hand * self.n)
        return hands, pile, pile_len

    def draw_permutation(self, state: State, rows_dealing: torch.Tensor, chance: torch.Tensor | None):
        """The deck order of each dealing row: the forced one from `chance` where given, else the
        row's next counter draws."""
        own = rng.permutation(state["key"], state["draws"], len(DECK))
        if chance is None:
            return own
        forced = chance[:, 0] >= 0
        return torch.where(forced[:, None], chance, own)

    # -- whose decision (state.current_player) ----------------------------------------------------
    def current_player(self, state: State) -> torch.Tensor:
        phase = state["phase"]
        window = (phase == COUNTERS) | (phase == BLOCKS)
        out = torch.where(window, state["queue"][:, 0], torch.where(phase == RESPOND, state["p1"], state["actor"]))
        return torch.where(phase == OVER, torch.full_like(out, -1), out)

    # -- legal actions (state._legal_actions) ---------------------------------------------------
    def legal_mask(self, state: State) -> torch.Tensor:
        lay, n = self.lay, self.n
        phase, card, p1 = state["phase"], state["card"], state["p1"]
        me = self.current_player(state)
        rows = self.rows(state)
        a = self.actions
        mask = torch.zeros(len(rows), self.num_actions, dtype=torch.bool, device=self.device)
        hand = state["hands"][rows, me.clamp(min=0)] > 0
        mask[:, :NUM_KINDS] = hand & (phase == PLAY)[:, None]
        # seat offsets
        k = self.seats  # offset
        target_seat = (me[:, None] + k) % n
        not_p1 = target_seat != p1[:, None]
        pick = (phase == GIVE_FROM) | (phase == CHOOSE_PLAYER) | (phase == RESPONDER)
        first = torch.where((phase == CHOOSE_PLAYER) & (card == DRAW), 0, 1)
        seat_ok = pick[:, None] & (k >= first[:, None])
        first_give = 0 if self.cfg.give_to_self else 1
        seat_ok |= (phase == GIVE_TO)[:, None] & (k >= first_give) & not_p1
        seat_ok |= (phase == TARGET)[:, None] & (k >= 1) & not_p1
        mask[:, lay.seat:lay.seat + n] = seat_ok
        mask[:, lay.swap_chips] = phase == SWAP_MODE
        mask[:, lay.swap_hands] = phase == SWAP_MODE
        pot = state["chips"][rows, state["p2"].clamp(min=0)]
        amounts = a[lay.amount:lay.accept] - lay.amount
        mask[:, lay.amount:lay.accept] = ((phase == OFFER) | (phase == COUNTERS))[:, None] & (amounts <= pot[:, None])
        accepts = a[lay.accept:lay.reject] - lay.accept
        respond = phase == RESPOND
        mask[:, lay.accept:lay.reject] = respond[:, None] & (accepts < state["num_proposals"][:, None])
        mask[:, lay.reject] = respond
        mask[:, lay.block] = phase == BLOCKS
        mask[:, lay.pass_] = (phase == BLOCKS) | (phase == COUNTERS)
        return mask

    # -- one step (state._apply and what it calls) ------------------------------------------------
    def step(self, state: State, action: torch.Tensor, chance: torch.Tensor | None = None):
        lay, n = self.lay, self.n
        s = {name: value.clone() for name, value in state.items()}
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
        slot = s["num_proposals"].clamp(max=n - 1)
        new_prop = torch.stack([me, amount], dim=1)
        s["proposals"][rows, slot] = torch.where(proposing[:, None], new_prop, s["proposals"][rows, slot])
        s["num_proposals"] = s["num_proposals"] + proposing
        accepting = respond & (action != lay.reject)
        s["accepted"] = torch.where(accepting, action - lay.accept, s["accepted"])
        popping = counters | (blocks & ~blocked)
        self._pop_queue(s, popping)

        # -- where each phase leads --
        new_phase = phase.clone()
        new_phase = torch.where(is_play & (play_card < 5), GIVE_FROM, new_phase)
        new_phase = torch.where(is_play & (play_card >= 5), CHOOSE_PLAYER, new_phase)
        new_phase = torch.where(is_play & (play_card == ULTIMATUM), RESPONDER, new_phase)
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
        resolving = (phase == GIVE_TO) | (choose & (card != SWAP) & (card != STEAL)) | (popping & blocks
                                                                                          & (s["queue_len"] == 0))
        self._open_counters(s, phase == OFFER)
        resolving = resolving | self._open_blocks(s, opens_blocks, block_target)

        moved, draw_ends = self._resolve(s, rows, resolving)
        outcome = torch.where(ended, ENDED, torch.where(discarded, DISCARDED, torch.where(
            rejected, REJECTED, torch.where(blocked, BLOCKED, RESOLVED))))
        logging = ended | discarded | rejected | blocked | resolving
        self._log(s, rows, logging, outcome, moved)
        s["ev_a"] = torch.where(blocked, me, s["ev_a"])

        turn_over = discarded | rejected | blocked | (resolving & ~draw_ends)
        empty_hand = (s["hands"].sum(2) == 0).any(1)
        round_over = ended | draw_ends | (turn_over & empty_hand)
        next_turn = turn_over & ~round_over
        s["actor"] = torch.where(next_turn, (s["actor"] + 1) % n, s["actor"])
        over, dealing = self._end_round(s, rows, round_over, chance)
        self._start_turn(s, next_turn | round_over)
        s["phase"] = torch.where(over, OVER, s["phase"])
        self._note_reveal(s, rows)
        s["decisions"] = s["decisions"] + 1
        s = {name: torch.where(live.view(-1, *([1] * (v.dim() - 1))), v, state[name]) for name, v in s.items()}
        return s, over & live

    # -- the stages a step chains -------------------------------------------------------------------
    def _discard(self, s: State, rows: torch.Tensor, who: torch.Tensor, kind: torch.Tensor,
                 flag: torch.Tensor) -> None:
        """state._discard: a card leaves `who`'s hand for the discards, and every memory of it there."""
        f = flag.to(torch.int64)
        s["hands"][rows, who, kind] -= f
        s["discards"][rows, kind] += f
        s["played"][rows, who, kind] += f
        reaction = flag & ((kind == BLOCK) | (kind == COUNTER))
        column = (kind == COUNTER).to(torch.int64)
        s["showed"][rows, who, column] = torch.where(reaction, 0, s["showed"][rows, who, column])
        seen = s["known"][rows, :, who, kind]
        s["known"][rows, :, who, kind] = torch.where(flag[:, None], (seen - 1).clamp(min=0), seen)

    def _pop_queue(self, s: State, flag: torch.Tensor) -> None:
        queue = s["queue"]
        shifted = torch.cat([queue[:, 1:], torch.full_like(queue[:, :1], -1)], dim=1)
        s["queue"] = torch.where(flag[:, None], shifted, queue)
        s["queue_len"] = s["queue_len"] - flag.to(torch.int64)

    def _set_queue(self, s: State, flag: torch.Tensor, asked: torch.Tensor, order: torch.Tensor) -> torch.Tensor:
        """Rows in `flag` get the queue of seats `asked` ([B, n] bool) in `order` (each seat's place in
        the round); returns the queue's lengths."""
        n = self.n
        key = torch.where(asked, order, order + n)
        queue = torch.argsort(key, dim=1)
        length = asked.sum(1)
        queue = torch.where(self.seats < length[:, None], queue, -1)
        s["queue"] = torch.where(flag[:, None], queue, s["queue"])
        s["queue_len"] = torch.where(flag, length, s["queue_len"])
        return length

    def _open_counters(self, s: State, flag: torch.Tensor) -> None:
        """state._open_counters: from the left of the target round the table, the responder skipped, the
        target last; only Counter holders are asked."""
        x, n = self.seats, self.n
        order = (x - s["p2"][:, None] - 1) % n
        asked = (x != s["p1"][:, None]) & (s["hands"][:, :, COUNTER] > 0)
        length = self._set_queue(s, flag, asked, order)
        s["phase"] = torch.where(flag, torch.where(length > 0, COUNTERS, RESPOND), s["phase"])

    def _open_blocks(self, s: State, flag: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        """state._open_blocks: who may block the pending card; returns the rows that resolve at once
        because nobody can."""
        cfg, x, n = self.cfg, self.seats, self.n
        actor, card = s["actor"], s["card"]
        ultimatum = card == ULTIMATUM
        if cfg.blockers == "target":
            eligible = x == target[:, None]
        else:
            eligible = (x != actor[:, None]) & ~(ultimatum[:, None] & (x == s["p1"][:, None]))
        if not cfg.target_blocks_own_counter:
            rows = self.rows(s)
            proposer = s["proposals"][rows, s["accepted"].clamp(min=0), 0]
            own_counter = ultimatum & (proposer == target)
            eligible &= ~(own_counter[:, None] & (x == target[:, None]))
        order = (x - actor[:, None] - 1) % n
        asked = eligible & (s["hands"][:, :, BLOCK] > 0)
        length = self._set_queue(s, flag, asked, order)
        s["phase"] = torch.where(flag & (length > 0), BLOCKS, s["phase"])
        return flag & (length == 0)

    def _resolve(self, s: State, rows: torch.Tensor, flag: torch.Tensor):
        """state._resolve: carry out the pending card. Returns (chips moved, rows whose last-card Draw
        ends the round)."""
        kind, actor, p1, p2 = s["card"], s["actor"], s["p1"].clamp(min=0), s["p2"].clamp(min=0)
        chips = s["chips"]
        give, take = kind < 5, (kind >= 5) & (kind < 10)
        steal, ult, swap, draw = kind == STEAL, kind == ULTIMATUM, kind == SWAP, kind == DRAW
        c1, c2 = chips[rows, p1], chips[rows, p2]
        amt = torch.minimum(self.value[kind.clamp(min=0)], c1)
        proposer, share = s["proposals"][rows, s["accepted"].clamp(min=0)].unbind(1)
        moving = flag & (give | take | steal | ult)
        x = torch.where(ult, c2, torch.where(steal, c1, amt))
        x = torch.where(moving, x, 0)
        y = torch.where(ult, share, x)
        y = torch.where(moving, y, 0)
        z = torch.where(ult & moving, x - share, 0)
        delta = torch.zeros_like(chips)
        delta.scatter_add_(1, torch.where(ult, p2, p1)[:, None], -x[:, None])
        delta.scatter_add_(1, torch.where(give, p2, torch.where(ult, p1, actor))[:, None], y[:, None])
        delta.scatter_add_(1, proposer[:, None], z[:, None])
        swapping = flag & swap
        swap_hands = s["swap_hands"] > 0
        x_ = self.seats
        perm = torch.where(x_ == actor[:, None], p1[:, None], torch.where(x_ == p1[:, None], actor[:, None], x_))
        chips_swapped = chips.gather(1, perm)
        s["chips"] = torch.where((swapping & ~swap_hands)[:, None], chips_swapped, chips + delta)
        hands_swap = swapping & swap_hands
        self._swap_hands(s, rows, hands_swap, actor, p1, perm)
        # Draw
        drawing = flag & draw
        last_card = s["hands"][rows, actor].sum(1) == 0
        count = torch.minimum(torch.full_like(kind, self.cfg.draw_count), s["pile_len"])
        count = torch.where(drawing, count, 0)
        j = torch.arange(s["pile"].shape[1], device=self.device)
        takes = (j >= (s["pile_len"] - count)[:, None]) & (j < s["pile_len"][:, None])
        drawn = (takes[:, :, None] & (s["pile"][:, :, None] == self.kinds)).sum(1)
        s["hands"][rows, p1] += drawn
        s["pile_len"] = s["pile_len"] - count
        s["ev_a"] = torch.where(flag & swap, s["swap_hands"], torch.where(drawing, count, torch.where(
            flag & ult, proposer, s["ev_a"])))
        s["ev_b"] = torch.where(flag & ult, share, s["ev_b"])
        draw_ends = drawing & last_card if self.cfg.last_card_ends_round else torch.zeros_like(flag)
        return x, draw_ends

    def _swap_hands(self, s: State, rows: torch.Tensor, flag: torch.Tensor, me: torch.Tensor,
                    other: torch.Tensor, perm: torch.Tensor) -> None:
        """The hand half of a Swap: hands, what anyone knew of them, and what each showed, change seats;
        the two players now know what they gave."""
        hands = s["hands"]
        gave, got = hands[rows, me], hands[rows, other]
        f3 = flag[:, None, None]
        s["hands"] = torch.where(f3, hands.gather(1, perm[:, :, None].expand_as(hands)), hands)
        s["showed"] = torch.where(f3, s["showed"].gather(1, perm[:, :, None].expand(-1, -1, 2)), s["showed"])
        known = s["known"]
        known = torch.where(flag[:, None, None, None], known.gather(2, perm[:, None, :, None].expand_as(known)), known)
        f = flag[:, None]
        known[rows, me, other] = torch.where(f, gave, known[rows, me, other])
        known[rows, other, me] = torch.where(f, got, known[rows, other, me])
        known[rows, me, me] = torch.where(f, 0, known[rows, me, me])
        known[rows, other, other] = torch.where(f, 0, known[rows, other, other])
        s["known"] = known

    def _log(self, s: State, rows: torch.Tensor, flag: torch.Tensor, outcome: torch.Tensor,
             moved: torch.Tensor) -> None:
        """state._log: the play joins the history, the oldest leaving past HISTORY."""
        history, length = s["history"], s["history_len"]
        full = length >= HISTORY
        shifted = torch.where(full[:, None, None], torch.roll(history, -1, dims=1), history)
        entry = torch.stack([s["card"], s["actor"], s["p1"], s["p2"], outcome, moved], dim=1)
        at = length.clamp(max=HISTORY - 1)
        shifted[rows, at] = entry
        s["history"] = torch.where(flag[:, None, None], shifted, history)
        s["history_len"] = torch.where(flag, (length + 1).clamp(max=HISTORY), length)

    def _end_round(self, s: State, rows: torch.Tensor, flag: torch.Tensor, chance: torch.Tensor | None):
        """state._end_round (and _deal for the rows that play on): returns (rows now over, rows dealt)."""
        cfg, n = self.cfg, self.n
        s["scores"] = torch.where(flag[:, None], s["scores"] + s["chips"], s["scores"])
        s["rounds_played"] = s["rounds_played"] + flag.to(torch.int64)
        played = s["rounds_played"]
        if cfg.mode == "quick":
            over = flag
        elif cfg.mode == "match":
            over = flag & (played >= cfg.match_rounds)
        else:
            over = flag & ((s["scores"].max(1).values >= cfg.target_score) | (played >= cfg.max_rounds))
        dealing = flag & ~over
        self.deal_into(s, dealing, torch.where(dealing, (s["dealer"] + 1) % n, s["dealer"]), chance,
                       fresh_chips=not cfg.chips_carry_over)
        return over, dealing

    def deal_into(self, s: State, flag: torch.Tensor, dealer: torch.Tensor, chance: torch.Tensor | None,
                  fresh_chips: bool) -> None:
        """state._deal for the rows in `flag`: a fresh shuffle, hands dealt from the dealer's left."""
        perm = self.draw_permutation(s, flag, chance)
        hands, pile, pile_len = self.dealt_cards(dealer, perm)
        f1, f2, f3 = flag[:, None], flag[:, None, None], flag[:, None, None, None]
        s["dealer"] = dealer
        s["draws"] = s["draws"] + torch.where(flag, len(DECK), 0)
        s["hands"] = torch.where(f2, hands, s["hands"])
        s["pile"] = torch.where(f1, pile, s["pile"])
        s["pile_len"] = torch.where(flag, pile_len, s["pile_len"])
        s["discards"] = torch.where(f1, 0, s["discards"])
        s["played"] = torch.where(f2, 0, s["played"])
        s["showed"] = torch.where(f2, 0, s["showed"])
        s["known"] = torch.where(f3, 0, s["known"])
        if fresh_chips:
            s["chips"] = torch.where(f1, self.cfg.starting_chips, s["chips"])
        s["actor"] = torch.where(flag, (dealer + 1) % self.n, s["actor"])

    def _start_turn(self, s: State, flag: torch.Tensor) -> None:
        for name, value in (("phase", PLAY), ("card", -1), ("p1", -1), ("p2", -1), ("swap_hands", 0),
                            ("num_proposals", 0), ("queue_len", 0), ("accepted", -1)):
            s[name] = torch.where(flag, value, s[name])
        s["queue"] = torch.where(flag[:, None], -1, s["queue"])

    def _note_reveal(self, s: State, rows: torch.Tensor) -> None:
        """state._note_reveal: being asked to block or counter shows the table that you hold that card."""
        phase = s["phase"]
        window = (phase == BLOCKS) | (phase == COUNTERS)
        who = s["queue"][:, 0].clamp(min=0)
        column = (phase == COUNTERS).to(torch.int64)
        s["showed"][rows, who, column] = torch.where(window, 1, s["showed"][rows, who, column])
