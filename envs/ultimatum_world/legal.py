"""What a player may do: the legal set of every decision. Every option offered has a legal completion,
so the mask is exact; tests/ultimatum_world/reference.py checks these sets against an independent model
written from the rules doc."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.actions import BLOCKADES, NATIONS, SEAS
from ultimata.envs.ultimatum_world.attacks import JET, LASER_SHOT, NAVAL, TROOPS_ATTACK
from ultimata.envs.ultimatum_world.cards import (
    AIRLIFT,
    ANTI_AIRCRAFT,
    HELICOPTER_COMMANDO,
    JET_BOMBER,
    MINEFIELD,
    OCEAN_MINE,
    REINFORCE,
)
from ultimata.envs.ultimatum_world.content import CARD_KINDS, COMMUNIST, WESTERN, world
from ultimata.envs.ultimatum_world.phases import (
    ACT,
    BATTLE,
    BUY,
    MOVE_IN,
    SETUP_FILL,
    SETUP_FLEET,
    SETUP_START,
    WINDOW,
)

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState as _Base
else:
    _Base = object

W = world()
AMOUNTS = list(A.AMOUNTS)
ANY_CARD = (1,) * len(CARD_KINDS)
NO_CARD = (0,) * len(CARD_KINDS)
"""Hands that hold one of every kind, or nothing: what the table can tell of a defender's hand from its size."""


class LegalRules(_Base):
    """The legal set, a part of WorldState (state.py says how the rule modules are composed)."""

    def _legal_actions(self) -> list[int]:
        if self.pending:
            return sorted(self.verb_options(self.pending[0], self.pending[1:]) or [])
        phase = self.phase
        if self.placing_now():
            return self.placing_options()
        if self.transferring():
            return AMOUNTS + [A.DONE]
        if phase == SETUP_START:
            return [A.PLACE + x for x in self.start_options(self.current_player)]
        if phase == SETUP_FILL:
            return [A.PLACE + x for x in range(NATIONS) if self.owner[x] < 0]
        if phase == SETUP_FLEET:
            return [A.PLACE + NATIONS + t for t in range(BLOCKADES) if self.sea_owner[t] < 0]
        if phase in (BUY, ACT):
            return self.turn_verbs()
        if phase == BATTLE:
            return self.battle_options()
        if phase == MOVE_IN:
            return AMOUNTS
        if phase == WINDOW:
            return self.window_verbs() + [A.DONE]
        return []

    # -- places ----------------------------------------------------------------------------------
    def holder_places(self, p: int) -> list[int]:
        return self.nations_of(p) + [NATIONS + t for t in range(SEAS) if self.sea_owner[t] == p]

    def enemy_places(self, p: int) -> list[int]:
        return [x for x in range(A.PLACES) if self.owner_of(x) not in (-1, p)]

    def enemy_nations(self, p: int) -> list[int]:
        return [x for x in range(NATIONS) if self.owner[x] not in (-1, p)]

    def fleet_places(self, p: int, mine: list[int]) -> list[int]:
        """Where new vessels go: blockades p holds; once p's whole navy is gone, a vacant blockade (the
        Q&A's only way back to sea), but only for a player still on the board, holding nations `mine`
        (with no nation and no vessel the only way back is a Helicopter Commando)."""
        if self.has_fleet(p):
            return [NATIONS + t for t in range(BLOCKADES) if self.sea_owner[t] == p]
        if not mine:
            return []
        return [NATIONS + t for t in range(BLOCKADES) if self.sea_owner[t] < 0]

    def _troop_targets(self, p: int, a: int) -> Iterator[int]:
        """Book: 3+ troops; a shared border (t < 0), or water between two nations carrying the number of a
        blockade t that p holds or that is vacant (not held by an opponent). May repeat a target."""
        if self.troops[a] < 3:
            return
        owner, sea = self.owner, self.sea_owner
        for b, t in W.crossings[a]:
            if owner[b] != p and owner[b] >= 0 and (t < 0 or sea[t] == p or sea[t] < 0):
                yield b

    def attack_targets(self, p: int, a: int) -> list[int]:
        return sorted(set(self._troop_targets(p, a)))

    def can_attack_from(self, p: int, a: int) -> bool:
        """attack_targets(p, a) is not empty (without building it: asked for every nation, every turn, and
        most nations fail the troop count at once)."""
        return self.troops[a] >= 3 and next(self._troop_targets(p, a), None) is not None

    def airlift_sources(self, p: int, into: int | None) -> list[int]:
        """Nations with a troop to spare (one always stays behind), other than the destination."""
        mine = self.nations_of(p)
        return [a for a in mine if self.troops[a] >= 2 and (a != into if into is not None else len(mine) > 1)]

    def jet_targets(self, p: int) -> list[int]:
        """Any opponent's nation, or any opponent's sea place with battleships (never submarines alone)."""
        seas = [NATIONS + t for t in range(SEAS) if self.sea_owner[t] not in (-1, p) and self.bs[t]]
        return self.enemy_nations(p) + seas

    def join_sources(self, battleships: bool) -> list[int]:
        """Places from which ready vessels can still join the naval battle under way."""
        p, target = self.player, self.attack[3] - NATIONS
        if battleships:
            return [NATIONS + t for t in W.sea_links[target] if self.sea_owner[t] == p and self.ready_bs[t]]
        return [NATIONS + t for t in range(SEAS) if self.sea_owner[t] == p and self.ready_subs[t]]

    # -- one verb at a time ----------------------------------------------------------------------
    def chain_length(self, verb: int) -> int:
        """How many choices follow a verb before it happens (0: it happens at once)."""
        if verb == A.ATTACK:
            return 2
        if verb == A.LASER or verb in (A.CARD + HELICOPTER_COMMANDO, A.CARD + JET_BOMBER):
            return 1
        if verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
            return 2 if self.phase == BATTLE else 3  # in a battle: join it from where, how many
        if verb == A.CARD + AIRLIFT:
            return 2 if self.phase == WINDOW else 3  # for the defender the destination is the nation attacked
        return 0

    def verb_options(self, verb: int, args: list[int]) -> list[int] | None:
        """The next choices of a verb given its arguments so far, or None when it is complete."""
        p, step = self.current_player, len(args)
        if step >= self.chain_length(verb):
            return None
        if verb == A.ATTACK:
            if step == 0:
                return [a for a in self.nations_of(p) if self.can_attack_from(p, a)]
            return self.attack_targets(p, args[0])
        if verb == A.LASER:
            return self.holder_places(self.attack[1]) if self.phase == WINDOW else self.enemy_places(p)
        if verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
            battleships = verb == A.MOVE_BATTLESHIPS
            if self.phase == BATTLE:
                return self.join_sources(battleships) if step == 0 else AMOUNTS
            ready = self.ready_bs if battleships else self.ready_subs
            if step == 0:
                return [NATIONS + t for t in range(SEAS) if self.sea_owner[t] == p and ready[t]]
            if step == 1:
                here = args[0] - NATIONS
                if battleships:
                    return [NATIONS + t for t in W.sea_links[here]]
                return [NATIONS + t for t in range(SEAS) if t != here]
            return AMOUNTS
        if verb == A.CARD + HELICOPTER_COMMANDO:
            return self.enemy_nations(p)
        if verb == A.CARD + JET_BOMBER:
            return self.jet_targets(p)
        # the airlift
        if self.phase == WINDOW:
            return self.airlift_sources(p, self.attack[3]) if step == 0 else AMOUNTS
        if step == 0:
            return self.airlift_sources(p, None)
        return [b for b in self.nations_of(p) if b != args[0]] if step == 1 else AMOUNTS

    def purchases(self) -> list[int]:
        """What the money the player may spend now buys at the book's prices, where the pieces have
        somewhere to go and are still in the player's set."""
        return self._purchases(self.nations_of(self.player))

    def _purchases(self, mine: list[int]) -> list[int]:
        """`purchases`, given the player's nations (the turn's other verbs read them too)."""
        p, money, prices = self.player, self.troop_money(), self.rules.prices
        out = []
        if money >= prices.troop and mine:
            room = self.troops_left(p)
            if room:
                out += [v for v, k in A.BUY_TROOPS.items() if money >= k * prices.troop and room >= k]
                out.append(A.BUY_TROOPS_ALL)
        if (money >= prices.battleship or money >= prices.submarine) and self.fleet_places(p, mine):
            battleships, submarines = self.vessels_left(p)
            if money >= prices.battleship and battleships:
                out.append(A.BUY_BATTLESHIP)
            if money >= prices.submarine and submarines:
                out.append(A.BUY_SUBMARINE)
        if (
            self.laser_money() >= prices.laser
            and (self.holds_alliance(p, WESTERN) or self.holds_alliance(p, COMMUNIST))
            and self.laser_fits(p)
        ):
            out.append(A.BUY_LASER)
        return out

    def _card_usable(self, p: int, kind: int, mine: list[int]) -> bool:
        """An attacker card with somewhere to go (its first choice, asked as yes/no) and, if it brings
        pieces, at least one of them left in the player's set (p holds nations `mine`)."""
        card = self.rules.cards[kind]
        enemy_nation = len(mine) < NATIONS  # every nation is held after the set-up
        if card.user == "defender":
            return False
        if kind in REINFORCE:  # every piece it gives needs a place
            troops, *vessels = self.card_gift(p, card)
            return bool(troops or any(vessels)) and (not troops or bool(mine)) and (
                not any(vessels) or bool(self.fleet_places(p, mine))
            )
        if kind == HELICOPTER_COMMANDO:
            return enemy_nation and self.troops_left(p) > 0
        if kind == JET_BOMBER:
            return enemy_nation or any(o != p and o >= 0 and bs for o, bs in zip(self.sea_owner, self.bs))
        if kind == AIRLIFT:
            return len(mine) > 1 and any(self.troops[a] >= 2 for a in mine)
        return True  # intelligence

    def turn_verbs(self) -> list[int]:
        """Purchases, attacker cards, attacks, lasers and fleet moves, then DONE; a verb is offered when its
        first choice has an option (the first step of verb_options, asked as yes/no: this runs for most
        decisions). Attacker cards are usable 'any time during the attacking player's turn', purchases too."""
        p, sea_owner = self.player, self.sea_owner
        mine = self.nations_of(p)
        out = self._purchases(mine)
        out += [A.CARD + kind for kind, held in enumerate(self.hands[p]) if held and self._card_usable(p, kind, mine)]
        if any(self.can_attack_from(p, a) for a in mine):
            out.append(A.ATTACK)
        if any(o == p and ready for o, ready in zip(sea_owner, self.ready_bs)):
            out.append(A.MOVE_BATTLESHIPS)
        if any(o == p and ready for o, ready in zip(sea_owner, self.ready_subs)):
            out.append(A.MOVE_SUBMARINES)
        if self.lasers[p] and (len(mine) < NATIONS or any(o != p and o >= 0 for o in sea_owner)):
            out.append(A.LASER)
        return sorted(out) + [A.DONE]

    # -- attacks ---------------------------------------------------------------------------------
    def roll_pending(self) -> bool:
        """Whether the attack's next roll can still happen (a defender reacts only before a roll)."""
        kind, source = self.attack[0], self.attack[4]
        if kind == TROOPS_ATTACK:
            return self.troops[source] >= 3
        if kind == JET:
            return self.force[0] > 0
        if kind == NAVAL:
            return self.aim >= 0 and self.force[self.aim // 2] > 0
        return True

    def window_verbs(self) -> list[int]:
        """What the defender may use before the next roll (from its hand, its lasers and the attack)."""
        return self._window_uses(self.hands[self.attack[2]])

    def window_opens(self) -> bool:
        """Whether the defender is asked before the next roll. 'always' (config `reaction_windows`): while
        it holds any card of a kind the attack allows or a laser it may fire, which the table sees
        (hand sizes, lasers and the attack are public), so being asked tells nobody what it holds.
        'revealing': only while it holds something usable, which tells the table that it does."""
        if self.cfg.reaction_windows == "revealing":
            return bool(self.window_verbs())
        d = self.attack[2]
        return bool(self._window_uses(ANY_CARD if any(self.hands[d]) else NO_CARD))

    def _window_uses(self, hand: Sequence[int]) -> list[int]:
        """The defender's uses before the next roll if it held `hand` (a count per card kind)."""
        kind, attacker, d, target, source = self.attack
        if not self.roll_pending():
            return []
        out = []
        if kind == TROOPS_ATTACK and hand[MINEFIELD] and self.troops[source] >= 2:
            out.append(A.CARD + MINEFIELD)
        if kind == NAVAL and hand[OCEAN_MINE] and target < NATIONS + BLOCKADES:
            out.append(A.CARD + OCEAN_MINE)
        if kind == JET and hand[ANTI_AIRCRAFT]:
            out.append(A.CARD + ANTI_AIRCRAFT)
        if kind != NAVAL and target < NATIONS and hand[AIRLIFT] and self.airlift_sources(d, target):
            out.append(A.CARD + AIRLIFT)
        if self.lasers[d] and not (kind == LASER_SHOT and self.laser_answered) and self.holder_places(attacker):
            out.append(A.LASER)
        return sorted(out)

    def aims(self) -> list[int]:
        """Naval announcements: one of the attacker's vessel kinds against one of the defender's."""
        t = self.attack[3] - NATIONS
        theirs = [kind for kind, count in ((A.BATTLESHIP, self.bs[t]), (A.SUBMARINE, self.subs[t])) if count]
        mine = (A.BATTLESHIP, A.SUBMARINE)
        return [A.AIM + 2 * kind + other for kind in mine if self.force[kind] for other in theirs]

    def battle_options(self) -> list[int]:
        if self.attack[0] == TROOPS_ATTACK:
            # book: announcing an attack means rolling; stopping before one roll would loop forever
            return [A.ROLL, A.BLITZ, A.STOP] if self.rolls else [A.ROLL, A.BLITZ]
        joins = [v for v in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES) if self.join_sources(v == A.MOVE_BATTLESHIPS)]
        return sorted(joins + [A.BLITZ] + self.aims())

    # -- placing and the set-up ------------------------------------------------------------------
    def placing_options(self) -> list[int]:
        """Reinforcements go on the player's own nations (troops) or blockades (vessels), one place at a
        time: a place, then (when more than one is left) how many of them go there."""
        if self.place_at >= 0:
            return AMOUNTS
        mine = self.nations_of(self.player)
        places = mine if self.placing[0] else self.fleet_places(self.player, mine)
        return [A.PLACE + x for x in places]

    def start_options(self, p: int) -> list[int]:
        """Book: four nations from four different alliances, exactly one of them a Worldpower. A pick is
        offered only if the player can still complete its four."""
        used = {W.alliance[x] for x in self.start_picks}
        has_wp = any(W.worldpower[x] for x in self.start_picks)
        out = []
        for x in range(NATIONS):
            if self.owner[x] >= 0 or W.alliance[x] in used or (has_wp and W.worldpower[x]):
                continue
            rest = [a for a in range(4) if a not in used and a != W.alliance[x]]
            if self._completable(rest, not (has_wp or W.worldpower[x]), x):
                out.append(x)
        return out

    def _completable(self, alliances: list[int], need_wp: bool, taken: int) -> bool:
        owner = self.owner

        def free(a: int, wp: bool) -> bool:
            return any(owner[y] < 0 and y != taken and W.worldpower[y] == wp for y in W.members[a])

        if not need_wp:
            return all(free(a, False) for a in alliances)
        return any(free(w, True) and all(free(a, False) for a in alliances if a != w) for w in alliances)
