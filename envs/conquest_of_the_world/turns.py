"""The order of play: the set-up's choices in turn (rules 2-8: homelands, then in-zone alliances) and the
attack option (rules 8-9, 20A-B), which passes left with one alliance to buy until the filled board starts
the last round or the turn cap ends play. Wars are wars.py's; what is held and paid, holdings.py's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.phases import OVER, TURN, ZONE_ALLY
from ultimata.envs.conquest_of_the_world.terms import ALLY, FINAL, HOME, PLAY

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState as _Base
else:
    _Base = object

BOARD = board()


class TurnRules(_Base):
    """The order of play, a part of ConquestState (state.py says how the rule modules are composed)."""

    # -- queries -----------------------------------------------------------------------------
    def board_filled(self) -> bool:
        return -1 not in self.holder

    def left_of(self, p: int) -> int:
        """The next living player clockwise (to the left)."""
        for k in range(1, self.n + 1):
            q = (p + k) % self.n
            if self.alive[q]:
                return q
        return p

    def zone_capacity_left(self, p: int) -> int:
        """Rule 4A: the homeland's PBU less the in-zone alliances already made."""
        h = self.homeland[p]
        zone = BOARD.zone_members[BOARD.zone[h]]
        used = sum(BOARD.value[c] for c in zone if self.holder[c] == p and self.kind[c] == ALLY)
        return BOARD.value[h] - used

    def buyable(self, p: int) -> list[int]:
        """Rules 9A, 13D, 16E: with a right to buy, an unoccupied country outside every other living
        player's home zone, at half its value x 1000 (allies' chips pooled)."""
        if not self.buys:
            return []
        chips = self.bloc_chips(p)
        barred = {BOARD.zone[self.homeland[q]] for q in range(self.n) if q != p and self.homeland[q] >= 0}
        return [c for c, h in enumerate(self.holder)
                if h < 0 and BOARD.zone[c] not in barred and chips >= BOARD.value[c] * 500]

    # -- set-up (rules 2-8) ------------------------------------------------------------------
    def _choose_homeland(self, p: int, c: int) -> None:
        """Rule 3: homelands in turn order from the first player, clockwise."""
        self.homeland[p] = c
        self.holder[c], self.kind[c] = p, HOME
        self._log(f"player_{p} chooses {BOARD.names[c]} as homeland")
        self.chooser += 1
        if self.chooser == self.n:
            self.phase, self.chooser = ZONE_ALLY, 0

    def _zone_ally(self, p: int, c: int) -> None:
        """Rule 4: a free alliance with a country of the home zone, within the homeland's value."""
        self._gain(p, c, ALLY)
        self._log(f"player_{p} allies with {BOARD.names[c]} in its home zone")

    def _next_zone_chooser(self) -> None:
        """Rule 4: each player makes its in-zone alliances in turn; then rule 8: the last chooser attacks first."""
        self.chooser += 1
        if self.chooser == self.n:
            self._start_turn((self.first + self.n - 1) % self.n)

    # -- the attack option (rules 8-17, 20A-B) -----------------------------------------------
    def _start_turn(self, p: int) -> None:
        """The attack option comes to p with one alliance to buy (rule 9A, not in the final round);
        first every player may propose or break player alliances (rule 18, diplomacy.py)."""
        self.phase, self.option, self.defender_ptr = TURN, p, p
        self.buys = 1 if self.stage == PLAY else 0
        self.turn += 1
        self._open_diplomacy(p)

    def _end_play_if_filled(self) -> None:
        """Rules 18A and 20: the moment the last unoccupied country is taken (bought, conquered or won by a
        defender), the play stage is over: no player alliance may be proposed from then on ("until the
        board is filled"), and each living player from the option holder's left has one more turn. The
        holder's own turn goes on; an elimination that frees countries later does not reopen the stage."""
        if self.stage != PLAY or self.phase == OVER or not self.board_filled():
            return
        nxt = self.left_of(self.option)
        self.stage = FINAL
        self.final_left = [(nxt + k) % self.n for k in range(self.n) if self.alive[(nxt + k) % self.n]]
        self._log(f"the board is filled: no more player alliances; from player_{nxt}, each player has one more"
                  " turn of attacks on occupied countries")

    def _end_turn(self) -> None:
        """The attack option passes left, or to the next player of the last round (rule 20); in the play
        stage the turn cap ends play."""
        nxt = self.left_of(self.option)
        if self.stage == PLAY and self.turn >= self.cfg.max_turns:
            self._log("the turn cap is reached")
            self._finish_play()
            return
        if self.stage == FINAL:
            self.final_left = [q for q in self.final_left if self.alive[q]]
            if not self.final_left:
                self._finish_play()
                return
            nxt = self.final_left.pop(0)
        self._start_turn(nxt)

    def _turn_action(self, p: int, action: int) -> None:
        if action == A.DONE:
            self._log(f"player_{p} passes the attack option")
            self._end_turn()
        elif action < A.ATTACK:
            c = action - A.BUY
            self._pay(p, BOARD.value[c] * 500)
            self.buys -= 1
            self._log(f"player_{p} buys an alliance with {BOARD.names[c]}")
            self._gain(p, c, ALLY)
            self._end_play_if_filled()
            if self.phase != OVER:
                self._open_diplomacy(p, new_turn=False)
        else:
            self._declare_war(p, action - A.ATTACK)
