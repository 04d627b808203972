"""The cards (book: Ultimatum Playing Cards, How to Get and How to Use Ultimatum Cards): drawing the
cards a turn earned, and what each card does when played. A used card goes to the bottom of the deck,
in an order everyone saw, so which cards a player draws back from the used ones is public (`known`).
When a card may be played is in `legal.py`; the attacks the attacker cards start are in `attacks.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world.attacks import JET, VESSEL
from ultimata.envs.ultimatum_world.content import CARD_INDEX, CARD_KINDS, world
from ultimata.envs.ultimatum_world.phases import WINDOW

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState as _Base
else:
    _Base = object

W = world()
HELICOPTER_COMMANDO, JET_BOMBER, AIRLIFT = (CARD_INDEX[k] for k in ("helicopter_commando", "jet_bomber", "airlift"))
MINEFIELD, OCEAN_MINE, ANTI_AIRCRAFT = (CARD_INDEX[k] for k in ("minefield", "ocean_mine", "anti_aircraft_missile"))
REINFORCE = tuple(CARD_INDEX[k] for k in ("troops_5", "troops_10", "battleships_2", "submarine_1"))
"""The cards that give pieces to place."""
INTEL = {CARD_INDEX["army_intelligence"]: "army", CARD_INDEX["navy_intelligence"]: "navy",
         CARD_INDEX["air_intelligence"]: "air"}
"""The Intelligence cards, each with the branch it shows."""


class CardRules(_Base):
    """The cards, a part of WorldState (state.py says how the rule modules are composed)."""

    def _draw_earned(self, p: int) -> int:
        """Book: cards earned are given at the end of the turn, 1 a nation and 2 a blockade conquered, at
        most 3, from the top of the deck; returns how many were drawn."""
        earned = min(3, self.conquered_nations + 2 * self.conquered_blockades)
        drawn = 0
        for _ in range(earned):
            if self.deck:
                card = self.deck.pop(0)
                self.hands[p][card] += 1
                drawn += 1
                if self.used > len(self.deck):  # the unseen cards ran out: this one was seen played
                    self.used -= 1
                    self.known[p][card] += 1
        return drawn

    def _play_card(self, kind: int, args: list[int]) -> None:
        p = self.current_player
        self.hands[p][kind] -= 1
        self.known[p][kind] = max(0, self.known[p][kind] - 1)
        self.deck.append(kind)  # book: a used card goes to the bottom of the deck, seen by all
        self.used += 1
        name = CARD_KINDS[kind].replace("_", " ")
        spec = self.rules.cards[kind]
        if kind in REINFORCE:
            self._reinforce(p, self.card_gift(p, spec), f"plays {name}")
        elif kind in INTEL:
            branch = INTEL[kind]
            for q in range(self.n):
                if q != p:
                    for k2, card in enumerate(self.rules.cards):
                        if card.branch == branch:
                            self.revealed[p][q][k2] = self.hands[q][k2]
            self._log(f"player_{p} plays {name} and sees every opponent's {branch} cards")
        elif kind == HELICOPTER_COMMANDO:
            self._commando(p, args[0])
        elif kind == JET_BOMBER:
            self.force = [1, 0]
            self._declare(JET, args[0])
        elif kind == AIRLIFT:
            source, into = (args[0], self.attack[3]) if self.phase == WINDOW else (args[0], args[1])
            moved = self._move_troops(source, into, args[-1])
            self._log(f"player_{p} airlifts {moved} troops from {W.names[source]} to {W.names[into]}")
        elif kind == MINEFIELD:
            src = self.attack[4]
            lost = min(5, self.troops[src] - 1)
            self.troops[src] -= lost
            self._log(f"player_{p} lays a minefield: player_{self.attack[1]} loses {lost} troops in {W.names[src]}")
        elif kind == OCEAN_MINE:
            mine = self.aim // 2
            self.force[mine] -= 1
            self._log(f"player_{p} sets off an ocean mine: player_{self.attack[1]} loses a {VESSEL[mine]}")
        elif kind == ANTI_AIRCRAFT:
            self.force = [0, 0]
            self._log(f"player_{p} fires an anti-aircraft missile: the jet bomber is lost")
