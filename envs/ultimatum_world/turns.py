"""The turn sequence (book: How to Win, The World Chooses Sides, The Conflict Begins): the set-up's
picks, a turn's start, the end of a turn (its cards and income), players out of the war, and the end of
the game by the last one standing or the round cap (a win by conquest is checked in money.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.actions import BLOCKADES, NATIONS, SEAS
from ultimata.envs.ultimatum_world.cards import HELICOPTER_COMMANDO, JET_BOMBER
from ultimata.envs.ultimatum_world.content import world
from ultimata.envs.ultimatum_world.phases import ACT, BUY, OVER, SETUP, SETUP_FILL, SETUP_FLEET, SETUP_START, WINDOW

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState as _Base
else:
    _Base = object

W = world()


class TurnRules(_Base):
    """The turn sequence, a part of WorldState (state.py says how the rule modules are composed)."""

    # -- set-up ------------------------------------------------------------------------------
    def _setup(self, place: int) -> None:
        p = self.current_player
        if self.phase == SETUP_FLEET:
            t = place - NATIONS
            self.sea_owner[t], self.bs[t] = p, 2
            self._log(f"player_{p} places 2 battleships on {W.sea_names[t]}")
            self.setup_count += 1
            if all(o >= 0 for o in self.sea_owner[:BLOCKADES]):
                self._begin_play(p)
            return
        self.owner[place] = p
        self.troops[place] = 10 if self.phase == SETUP_START and W.worldpower[place] else 5
        self._log(f"player_{p} takes {W.names[place]} with {self.troops[place]} troops")
        self.setup_count += 1
        if self.phase == SETUP_START:
            self.start_picks.append(place)
            if len(self.start_picks) == 4:
                self.start_picks = []
            if self.setup_count == 4 * self.n:
                self.phase, self.setup_count = SETUP_FILL, 0
        if self.phase == SETUP_FILL and all(o >= 0 for o in self.owner):
            self.phase, self.setup_count = SETUP_FLEET, 0
            self.fleet_first = self.rng.below(self.n)  # the black die rolled again
            self._log(f"player_{self.fleet_first} rolled highest and places battleships first")

    def _begin_play(self, last_placer: int) -> None:
        """Book: the last to place battleships attacks first; money 2, 3, 4, ... in playing order."""
        self.order_first = last_placer
        for k in range(self.n):
            self.bank[(last_placer + k) % self.n] = 2 + k
        self._start_turn(last_placer)

    def _deal_setup(self) -> None:
        """The 'dealt' variant: the book's set-up steps with every pick made at random."""
        while self.phase in SETUP:
            legal = self._legal_actions()
            self._setup(legal[self.rng.below(len(legal))] - A.PLACE)

    # -- turns -------------------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.player, self.turn = p, self.turn + 1
        self.turn_money = self.embargo_money = 0
        self.conquered_nations = self.conquered_blockades = 0
        self.emptied = []
        for t in range(SEAS):
            mine = self.sea_owner[t] == p
            self.ready_bs[t] = self.bs[t] if mine else 0
            self.ready_subs[t] = self.subs[t] if mine else 0
        self.phase = BUY
        self._log(f"player_{p}'s turn {self.turn} (round {self.round})")
        if not self.purchases():
            self.phase = ACT

    def _done(self) -> None:
        if self.phase == BUY:
            self.phase = ACT
        elif self.phase == WINDOW:
            self._close_window()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Book: the cards earned, then the bank pays $1 billion a nation and $2 billion a blockade held."""
        p = self.player
        drawn = self._draw_earned(p)
        income = len(self.nations_of(p)) + 2 * self.blockades_of(p)
        if self.cfg.turn_money_kept:
            income += self.turn_money + self.embargo_money
        self.turn_money = self.embargo_money = 0
        self._earn(p, income, "bank")
        self._log(f"player_{p} ends the turn: {drawn} card(s), ${income} billion income")
        self._update_out()
        if self.phase == OVER:
            return
        q, wrapped = p, False
        for _ in range(self.n):
            q = (q + 1) % self.n
            wrapped |= q == self.order_first
            if not self.out[q]:
                break
        if wrapped:
            self.round += 1
            if self.round > self.cfg.max_rounds:
                self.round = self.cfg.max_rounds  # the last round played, for every view
                self._finish_by_cap()
                return
        self._start_turn(q)

    # -- the end of the game -----------------------------------------------------------------
    def has_way_back(self, q: int) -> bool:
        """Ours (the book has no elimination): a player is in while it holds a nation or a vessel, or
        anything that can bring it back. A laser ('used for attacking or defending, regardless of your
        alliance status') or a Jet Bomber can sink the last vessel on a blockade, which conquers it for two
        cards; a Helicopter Commando is 'the only way back onto the playing board'. Money alone is none:
        troops need a nation, vessels a nation or a fleet, a laser a whole Western or Communist Alliance."""
        hand = self.hands[q]
        return bool(
            self.lasers[q] or hand[HELICOPTER_COMMANDO] or hand[JET_BOMBER] or self.has_fleet(q)
            or q in self.owner
        )

    def _update_out(self) -> None:
        """Ours: at the end of a turn, a player with no way back (`has_way_back`) is out of the war and
        skipped from then on."""
        for q in range(self.n):
            if not self.out[q] and not self.has_way_back(q):
                self.out[q] = True
                self._log(f"player_{q} is out of the war")
        alive = [q for q in range(self.n) if not self.out[q]]
        if len(alive) == 1:
            self._finish(alive, "is the last one standing")

    def _finish_by_cap(self) -> None:
        def key(q: int) -> tuple[int, int, int, int]:
            return (self.alliances_held(q), len(self.nations_of(q)), self.blockades_of(q), self.bank[q])

        best = max(key(q) for q in range(self.n))
        self._finish([q for q in range(self.n) if key(q) == best], "leads when the round cap is reached")

    def _finish(self, winners: list[int], why: str) -> None:
        self.winners, self.phase, self.pending = winners, OVER, []
        self.placing, self.place_at, self.transfer = [0, 0, 0], -1, [-1, -1]
        self._log(f"{' and '.join(f'player_{q}' for q in winners)} {why}")
