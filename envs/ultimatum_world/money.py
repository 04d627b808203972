"""Money (book: International Military Bank, Purchasing Military Reinforcements, How to Earn
International Military Currency): buying at the rules data's prices, paying, what a conquest earns
(Oil nations, Worldpowers, whole alliances, the Oil Embargo) and the win it may bring, and embargo
debts. Money that may be spent now is `troop_money` / `laser_money`; what it buys is in `legal.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.content import ALLIANCES, COMMUNIST, OIL, PEACE, WESTERN, world
from ultimata.envs.ultimatum_world.phases import BUY

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState as _Base
else:
    _Base = object

W = world()
ALLIANCE_MONEY = {WESTERN: 20, COMMUNIST: 15, PEACE: 25}
"""Book: $20 billion for the whole Western, $15 billion Communist, $25 billion Peace Alliance."""


class MoneyRules(_Base):
    """Money, a part of WorldState (state.py says how the rule modules are composed)."""

    def troop_money(self) -> int:
        """Money for troops and vessels now: embargo and conquest money, and the bank before any attack."""
        return self.embargo_money + self.turn_money + (self.bank[self.player] if self.phase == BUY else 0)

    def laser_money(self) -> int:
        """Money for a laser now: conquest money, and the bank before any attack (never embargo money)."""
        return self.turn_money + (self.bank[self.player] if self.phase == BUY else 0)

    def _buy(self, p: int, verb: int) -> None:
        """Book: troops and vessels are placed at once (placement.py); a laser goes on the space stations."""
        prices = self.rules.prices
        if verb == A.BUY_LASER:
            self._pay(prices.laser, laser=True)
            self.lasers[p] += 1
            self._log(f"player_{p} buys a laser ({self.lasers[p]} on the space stations)")
        elif verb == A.BUY_BATTLESHIP:
            self._pay(prices.battleship)
            self._reinforce(p, [0, 1, 0], "buys a battleship")
        elif verb == A.BUY_SUBMARINE:
            self._pay(prices.submarine)
            self._reinforce(p, [0, 0, 1], "buys a submarine")
        else:
            k = A.BUY_TROOPS.get(verb) or min(self.troop_money() // prices.troop, self.troops_left(p))
            self._pay(k * prices.troop)
            self._reinforce(p, [k, 0, 0], f"buys {k} troop(s)")

    def _earn(self, q: int, amount: int, into: str) -> None:
        """Money in ('bank', 'conquest' or 'embargo'): first it pays q's embargo debts (book: 'as soon as
        funds are acquired'); a debt paid reaches the creditor's bank (ours)."""
        for debt in self.debts:
            if debt[0] == q and amount:
                paid = min(amount, debt[2])
                debt[2] -= paid
                amount -= paid
                self.bank[debt[1]] += paid
        self.debts = [d for d in self.debts if d[2]]
        if into == "bank":
            self.bank[q] += amount
        elif into == "conquest":
            self.turn_money += amount
        else:
            self.embargo_money += amount

    def _pay(self, cost: int, laser: bool = False) -> None:
        """Money that expires goes first: embargo money (not for lasers), conquest money, then the bank."""
        if not laser:
            paid = min(cost, self.embargo_money)
            self.embargo_money -= paid
            cost -= paid
        paid = min(cost, self.turn_money)
        self.turn_money -= paid
        self.bank[self.player] -= cost - paid

    def _embargo(self, p: int) -> None:
        """Book: each opponent pays $6 billion at once, or owes it until it can pay."""
        total = 0
        for q in range(self.n):
            if q == p:
                continue
            paid = min(6, self.bank[q])
            self.bank[q] -= paid
            total += paid
            if paid < 6:
                self.debts.append([q, p, 6 - paid])
        self._log(f"player_{p} holds the whole Oil Alliance: Oil Embargo, $6 billion from each opponent")
        self._earn(p, total, "embargo")

    def _take_nation(self, p: int, x: int) -> None:
        """Book: $2 billion an Oil nation, $5 a Worldpower, and the alliance's money each time it becomes
        whole again; the win is checked after every conquest."""
        loser = self.owner[x]
        self.owner[x] = p
        self.conquered_nations += 1
        if loser >= 0:
            self.alliance_flag[loser][W.alliance[x]] = False
        bonus = (2 if W.alliance[x] == OIL else 0) + (5 if W.worldpower[x] else 0)
        if bonus:
            self._earn(p, bonus, "conquest")
        a = W.alliance[x]
        if not self.alliance_flag[p][a] and self.holds_alliance(p, a):
            self.alliance_flag[p][a] = True
            if a == OIL:
                self._embargo(p)
            else:
                self._earn(p, ALLIANCE_MONEY[a], "conquest")
                self._log(f"player_{p} holds the whole {ALLIANCES[a]} Alliance: ${ALLIANCE_MONEY[a]} billion")
        if self.has_won(p):
            self._finish([p], "holds the Oil Alliance and " + ("two more" if self.n == 2 else "another") + " alliance")
