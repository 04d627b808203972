"""The rules engine of Ultimatum (1985): set-up, money, troops, navies, jet bombers, lasers, cards,
defender windows and the win. A turn is a chain of small decisions; `pending` holds the verb and the
places chosen so far, and every option offered has a legal completion (so the mask is exact)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ultimata.envs.core.engine import State
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world import combat as C
from ultimata.envs.ultimatum_world.content import CARD_KINDS, world

W = world()
NATIONS, SEAS, BLOCKADES = W.size, W.sea_size, 14
SETUP_START, SETUP_FILL, SETUP_FLEET, BUY, ACT, BATTLE, MOVE_IN, WINDOW, OVER = range(9)
PHASES = (
    "set-up: four nations",
    "set-up: one nation",
    "set-up: battleships",
    "purchases",
    "attacks",
    "troop battle",
    "moving in",
    "defence",
    "over",
)
WESTERN, COMMUNIST, PEACE, OIL = range(4)
ALLIANCE_MONEY = {WESTERN: 20, COMMUNIST: 15, PEACE: 25}
"""Book: $20 billion for the whole Western, $15 billion Communist, $25 billion Peace Alliance."""
COST = {"troop": 1, "battleship": 2, "submarine": 5, "laser": 10}
TROOPS_ATTACK, JET, LASER_SHOT, NAVAL = range(4)
ATTACK_KINDS = ("troop attack", "jet bomber", "laser", "naval attack")
K = {name: i for i, name in enumerate(CARD_KINDS)}
INTEL = {K["army_intelligence"]: "army", K["navy_intelligence"]: "navy", K["air_intelligence"]: "air"}
REINFORCE_TROOPS = (K["troops_5"], K["troops_10"])
REINFORCE_SHIPS = (K["battleships_2"], K["submarine_1"])
EVENTS_KEPT = 12


def place_name(place: int) -> str:
    return W.names[place] if place < NATIONS else W.sea_names[place - NATIONS]


class WorldState(State):
    def __init__(self, game: Any, rng: Rng) -> None:
        super().__init__(game, rng)
        cfg = game.config
        self.cfg = cfg
        self.rules = game.rules
        n = self.n = cfg.num_players
        self.owner = [-1] * NATIONS
        self.troops = [0] * NATIONS
        self.sea_owner = [-1] * SEAS
        self.bs = [0] * SEAS
        self.subs = [0] * SEAS
        self.ready_bs = [0] * SEAS
        self.ready_subs = [0] * SEAS
        self.bank = [0] * n
        self.turn_money = 0
        self.debts: list[list[int]] = []
        """[debtor, creditor, amount]: Oil Embargo money owed until the debtor can pay."""
        self.lasers = [0] * n
        self.hands = [[0] * len(CARD_KINDS) for _ in range(n)]
        self.deck: list[int] = rng.shuffled(list(self.rules.deck))
        self.revealed = [[[-1] * len(CARD_KINDS) for _ in range(n)] for _ in range(n)]
        """revealed[viewer][q][kind]: q's count of that kind when an Intelligence card showed it (-1 unseen)."""
        self.alliance_flag = [[False] * 4 for _ in range(n)]
        """Whether a player's whole alliance has been paid for since it last lost a nation of it."""
        self.out = [False] * n
        self.phase = SETUP_START
        self.setup_first = rng.below(n)  # the book's black-die roll for the highest
        self.setup_count = 0
        """Picks made in the current set-up step (decides whose pick it is)."""
        self.start_picks: list[int] = []
        self.fleet_first = -1
        self.order_first = -1
        self.player = -1
        self.turn = 0
        self.round = 1
        self.pending: list[int] = []
        self.attack: list[int] = []
        """[kind, attacker, defender, target place, source place, vessel kind, vessels]."""
        self.laser_answered = False
        self.rolls = 0
        """Black-die exchanges in the troop battle under way."""
        self.conquered_nations = 0
        self.conquered_blockades = 0
        self.winners: list[int] = []
        self.events: list[str] = [f"player_{self.setup_first} rolled highest and picks first"]
        if cfg.setup == "dealt":
            self._deal_setup()

    # -- small queries -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase in (SETUP_START, SETUP_FILL):
            return self._setup_picker()
        if self.phase == SETUP_FLEET:
            return (self.fleet_first + self.setup_count) % self.n
        if self.phase == WINDOW:
            return self.attack[2]
        return -1 if self.phase == OVER else self.player

    def _setup_picker(self) -> int:
        step = self.setup_count // 4 if self.phase == SETUP_START else self.setup_count
        return (self.setup_first + step) % self.n

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def nations_of(self, p: int) -> list[int]:
        return [i for i in range(NATIONS) if self.owner[i] == p]

    def holds_alliance(self, p: int, a: int) -> bool:
        return all(self.owner[i] == p for i in W.members[a])

    def alliances_held(self, p: int) -> int:
        return sum(self.holds_alliance(p, a) for a in range(4))

    def has_won(self, p: int) -> bool:
        """Book: the whole Oil Alliance plus one of Western, Communist or Peace (two of them with 2 players)."""
        others = sum(self.holds_alliance(p, a) for a in (WESTERN, COMMUNIST, PEACE))
        return self.holds_alliance(p, OIL) and others >= (2 if self.n == 2 else 1)

    def fleet(self, p: int) -> int:
        return sum(self.bs[s] + self.subs[s] for s in range(SEAS) if self.sea_owner[s] == p)

    def spendable(self) -> int:
        """Start-of-turn money only before the attacks; conquest money until the turn ends."""
        return self.turn_money + (self.bank[self.player] if self.phase == BUY else 0)

    def owner_of(self, place: int) -> int:
        return self.owner[place] if place < NATIONS else self.sea_owner[place - NATIONS]

    def _holder_places(self, p: int) -> list[int]:
        return self.nations_of(p) + [NATIONS + s for s in range(SEAS) if self.sea_owner[s] == p]

    def _enemy_places(self, p: int) -> list[int]:
        return [x for x in range(NATIONS + SEAS) if self.owner_of(x) not in (-1, p)]

    # -- what a player may do ----------------------------------------------------------------
    def _fleet_places(self, p: int) -> list[int]:
        """Where new vessels go: blockades p holds, or any vacant blockade once p's navy is gone."""
        if self.fleet(p) == 0:
            return [NATIONS + s for s in range(BLOCKADES) if self.sea_owner[s] < 0]
        return [NATIONS + s for s in range(BLOCKADES) if self.sea_owner[s] == p]

    def _attack_targets(self, p: int, a: int) -> list[int]:
        """Book: 3+ troops; a shared border, or water between two nations carrying the number of a
        blockade that p holds or that is vacant (not held by an opponent)."""
        if self.troops[a] < 3:
            return []
        owner, sea = self.owner, self.sea_owner
        return sorted({b for b, t in W.crossings[a] if owner[b] not in (-1, p) and (t < 0 or sea[t] in (-1, p))})

    def _airlift_sources(self, p: int, into: int | None) -> list[int]:
        mine = self.nations_of(p)
        return [a for a in mine if self.troops[a] >= 2 and (a != into if into is not None else len(mine) > 1)]

    def _jet_targets(self, p: int) -> list[int]:
        seas = [NATIONS + s for s in range(SEAS) if self.sea_owner[s] not in (-1, p) and self.bs[s]]
        return [b for b in range(NATIONS) if self.owner[b] not in (-1, p)] + seas

    def _verb_options(self, verb: int, args: list[int]) -> list[int] | None:
        """The next choices of a verb given its arguments so far, or None when it is complete."""
        p, step = self.current_player, len(args)
        if verb in A.BUY_TROOPS or verb == A.BUY_TROOPS_ALL:
            return self.nations_of(p) if step == 0 else None
        if verb in (A.BUY_BATTLESHIP, A.BUY_SUBMARINE):
            return self._fleet_places(p) if step == 0 else None
        if verb == A.ATTACK:
            if step == 0:
                return [a for a in self.nations_of(p) if self._attack_targets(p, a)]
            return self._attack_targets(p, args[0]) if step == 1 else None
        if verb == A.LASER:
            if step:
                return None
            return self._holder_places(self.attack[1]) if self.phase == WINDOW else self._enemy_places(p)
        if verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
            ready = self.ready_bs if verb == A.MOVE_BATTLESHIPS else self.ready_subs
            if step == 0:
                return [NATIONS + s for s in range(SEAS) if self.sea_owner[s] == p and ready[s]]
            if step == 1:
                s = args[0] - NATIONS
                if verb == A.MOVE_BATTLESHIPS:
                    return [NATIONS + t for t in W.sea_links[s]]
                return [NATIONS + t for t in range(SEAS) if t != s]
            return list(A.AMOUNTS) if step == 2 else None
        kind = verb - A.CARD
        if kind in REINFORCE_TROOPS:
            return self.nations_of(p) if step == 0 else None
        if kind in REINFORCE_SHIPS:
            return self._fleet_places(p) if step == 0 else None
        if kind == K["helicopter_commando"] or kind == K["jet_bomber"]:
            if step:
                return None
            return (
                [b for b in range(NATIONS) if self.owner[b] not in (-1, p)]
                if kind == K["helicopter_commando"]
                else self._jet_targets(p)
            )
        if kind == K["airlift"]:
            if self.phase == WINDOW:
                return (
                    self._airlift_sources(p, self.attack[3]) if step == 0 else (list(A.AMOUNTS) if step == 1 else None)
                )
            if step == 0:
                return self._airlift_sources(p, None)
            if step == 1:
                return [b for b in self.nations_of(p) if b != args[0]]
            return list(A.AMOUNTS) if step == 2 else None
        return None  # intelligence and the defence cards need no choice

    def _verb_legal(self, verb: int) -> bool:
        options = self._verb_options(verb, [])
        return options is None or bool(options)

    def _turn_verbs(self) -> list[int]:
        p, money = self.player, self.spendable()
        out: list[int] = []
        if money and self.nations_of(p):
            out += [v for v, k in A.BUY_TROOPS.items() if money >= k] + [A.BUY_TROOPS_ALL]
        if money >= COST["battleship"] and self._fleet_places(p):
            out.append(A.BUY_BATTLESHIP)
        if money >= COST["submarine"] and self._fleet_places(p):
            out.append(A.BUY_SUBMARINE)
        if money >= COST["laser"] and (self.holds_alliance(p, WESTERN) or self.holds_alliance(p, COMMUNIST)):
            out.append(A.BUY_LASER)
        if self.phase == ACT:
            hand = self.hands[p]
            for kind, held in enumerate(hand):
                if held and self.rules.cards[kind].user != "defender" and self._verb_legal(A.CARD + kind):
                    out.append(A.CARD + kind)
            out += [v for v in (A.ATTACK, A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES) if self._verb_legal(v)]
            if self.lasers[p] and self._verb_legal(A.LASER):
                out.append(A.LASER)
        return sorted(out) + [A.DONE]

    def _window_verbs(self) -> list[int]:
        kind, attacker, d, target = self.attack[:4]
        hand, out = self.hands[d], []
        if kind == TROOPS_ATTACK and hand[K["minefield"]] and self.troops[self.attack[4]] >= 2:
            out.append(A.CARD + K["minefield"])
        if kind == NAVAL and hand[K["ocean_mine"]] and target < NATIONS + BLOCKADES and self.attack[6]:
            out.append(A.CARD + K["ocean_mine"])
        if kind == JET and hand[K["anti_aircraft_missile"]]:
            out.append(A.CARD + K["anti_aircraft_missile"])
        if (
            kind in (TROOPS_ATTACK, JET)
            and target < NATIONS
            and hand[K["airlift"]]
            and self._airlift_sources(d, target)
        ):
            out.append(A.CARD + K["airlift"])
        if self.lasers[d] and not self.laser_answered and self._holder_places(attacker):
            out.append(A.LASER)
        return sorted(out)

    def _legal_actions(self) -> list[int]:
        if self.pending:
            options = self._verb_options(self.pending[0], self.pending[1:])
            return sorted(options or [])
        p = self.current_player
        if self.phase == SETUP_START:
            return [A.PLACE + x for x in self._start_picks_legal(p)]
        if self.phase == SETUP_FILL:
            return [A.PLACE + x for x in range(NATIONS) if self.owner[x] < 0]
        if self.phase == SETUP_FLEET:
            return [A.PLACE + NATIONS + s for s in range(BLOCKADES) if self.sea_owner[s] < 0]
        if self.phase in (BUY, ACT):
            return self._turn_verbs()
        if self.phase == BATTLE:
            # book: announcing an attack means rolling; stopping before one roll would loop forever
            return [A.ROLL, A.BLITZ, A.STOP] if self.rolls else [A.ROLL, A.BLITZ]
        if self.phase == MOVE_IN:
            return list(A.AMOUNTS)
        if self.phase == WINDOW:
            return self._window_verbs() + [A.DONE]
        return []

    def _start_picks_legal(self, p: int) -> list[int]:
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
        def free(a: int, wp: bool) -> bool:
            return any(self.owner[y] < 0 and y != taken and W.worldpower[y] == wp for y in W.members[a])

        if not need_wp:
            return all(free(a, False) for a in alliances)
        return any(free(w, True) and all(free(a, False) for a in alliances if a != w) for w in alliances)

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self.pending:
            self.pending.append(action)
            if self._verb_options(self.pending[0], self.pending[1:]) is None:
                verb, args = self.pending[0], self.pending[1:]
                self.pending = []
                self._do(verb, args)
            return
        if self.phase in (SETUP_START, SETUP_FILL, SETUP_FLEET):
            self._setup(action - A.PLACE)
        elif self.phase in (BUY, ACT, WINDOW):
            if action == A.DONE:
                self._done()
            elif self._verb_options(action, []) is None:
                self._do(action, [])
            else:
                self.pending = [action]
        elif self.phase == BATTLE:
            self._battle(action)
        elif self.phase == MOVE_IN:
            self._move_in(action)

    def _log(self, text: str) -> None:
        self.events.append(text)
        del self.events[:-EVENTS_KEPT]

    # -- set-up ------------------------------------------------------------------------------
    def _setup(self, place: int) -> None:
        p = self.current_player
        if self.phase == SETUP_FLEET:
            s = place - NATIONS
            self.sea_owner[s], self.bs[s] = p, 2
            self._log(f"player_{p} places 2 battleships on {W.sea_names[s]}")
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
        while self.phase in (SETUP_START, SETUP_FILL, SETUP_FLEET):
            legal = self._legal_actions()
            self._setup(legal[self.rng.below(len(legal))] - A.PLACE)

    # -- turns -------------------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.player, self.turn = p, self.turn + 1
        self.turn_money = 0
        self.conquered_nations = self.conquered_blockades = 0
        for s in range(SEAS):
            mine = self.sea_owner[s] == p
            self.ready_bs[s] = self.bs[s] if mine else 0
            self.ready_subs[s] = self.subs[s] if mine else 0
        self.phase = BUY
        self._log(f"player_{p}'s turn {self.turn} (round {self.round})")
        if self._turn_verbs() == [A.DONE]:
            self.phase = ACT

    def _done(self) -> None:
        if self.phase == BUY:
            self.phase = ACT
        elif self.phase == WINDOW:
            self._resolve_attack()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        p = self.player
        earned = min(3, self.conquered_nations + 2 * self.conquered_blockades)
        drawn = 0
        for _ in range(earned):
            if self.deck:
                self.hands[p][self.deck.pop(0)] += 1
                drawn += 1
        income = len(self.nations_of(p)) + 2 * sum(1 for s in range(BLOCKADES) if self.sea_owner[s] == p)
        if self.cfg.turn_money_kept:
            income += self.turn_money
        self.turn_money = 0
        self._earn(p, income, to_bank=True)
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

    def _update_out(self) -> None:
        """A player with no nation, no vessel and no Helicopter Commando card can never come back."""
        if self.phase == OVER:
            return
        for q in range(self.n):
            if (
                not self.out[q]
                and not self.nations_of(q)
                and not self.fleet(q)
                and not self.hands[q][K["helicopter_commando"]]
            ):
                self.out[q] = True
                self._log(f"player_{q} is out of the war")
        alive = [q for q in range(self.n) if not self.out[q]]
        if len(alive) == 1:
            self._finish(alive, "is the last one standing")

    def _finish_by_cap(self) -> None:
        def key(q: int) -> tuple[int, int, int, int]:
            blockades = sum(1 for s in range(BLOCKADES) if self.sea_owner[s] == q)
            return (self.alliances_held(q), len(self.nations_of(q)), blockades, self.bank[q])

        best = max(key(q) for q in range(self.n))
        self._finish([q for q in range(self.n) if key(q) == best], "leads when the round cap is reached")

    def _finish(self, winners: list[int], why: str) -> None:
        self.winners, self.phase, self.pending = winners, OVER, []
        self._log(f"{' and '.join(f'player_{q}' for q in winners)} {why}")

    def returns(self) -> list[float]:
        """Zero-sum: the winners share +1, the others share -1 (all tied: all 0)."""
        if self.phase != OVER or len(self.winners) == self.n:
            return [0.0] * self.n
        w, rest = len(self.winners), self.n - len(self.winners)
        return [1.0 / w if q in self.winners else -1.0 / rest for q in range(self.n)]

    # -- money -------------------------------------------------------------------------------
    def _earn(self, q: int, amount: int, to_bank: bool) -> None:
        """Money in: first it pays q's embargo debts (book: 'as soon as funds are acquired')."""
        for debt in self.debts:
            if debt[0] == q and amount:
                paid = min(amount, debt[2])
                debt[2] -= paid
                amount -= paid
                self._credit(debt[1], paid)
        self.debts = [d for d in self.debts if d[2]]
        if to_bank:
            self.bank[q] += amount
        else:
            self.turn_money += amount

    def _credit(self, q: int, amount: int) -> None:
        """Embargo money: spent on the turn it is earned when it is q's turn; else saved (ours)."""
        if q == self.player and self.phase in (BUY, ACT, BATTLE, MOVE_IN, WINDOW):
            self.turn_money += amount
        else:
            self.bank[q] += amount

    def _pay(self, cost: int) -> None:
        """Conquest money goes first (it is lost at the end of the turn), then the bank."""
        from_turn = min(cost, self.turn_money)
        self.turn_money -= from_turn
        self.bank[self.player] -= cost - from_turn

    def _embargo(self, p: int) -> None:
        """Book: each opponent pays $6 billion at once, or owes it until it can pay."""
        for q in range(self.n):
            if q == p:
                continue
            paid = min(6, self.bank[q])
            self.bank[q] -= paid
            self.turn_money += paid
            if paid < 6:
                self.debts.append([q, p, 6 - paid])
        self._log(f"player_{p} holds the whole Oil Alliance: Oil Embargo, $6 billion from each opponent")

    # -- taking nations ----------------------------------------------------------------------
    def _take_nation(self, p: int, x: int) -> None:
        loser = self.owner[x]
        self.owner[x] = p
        self.conquered_nations += 1
        if loser >= 0:
            self.alliance_flag[loser][W.alliance[x]] = False
        bonus = (2 if W.alliance[x] == OIL else 0) + (5 if W.worldpower[x] else 0)
        if bonus:
            self._earn(p, bonus, to_bank=False)
        a = W.alliance[x]
        if not self.alliance_flag[p][a] and self.holds_alliance(p, a):
            self.alliance_flag[p][a] = True
            if a == OIL:
                self._embargo(p)
            else:
                self._earn(p, ALLIANCE_MONEY[a], to_bank=False)
                self._log(
                    f"player_{p} holds the whole {('Western', 'Communist', 'Peace')[a]} Alliance: "
                    f"${ALLIANCE_MONEY[a]} billion"
                )
        if self.has_won(p):
            self._finish([p], "holds the Oil Alliance and " + ("two more" if self.n == 2 else "another") + " alliance")

    def _clear_sea(self, s: int) -> None:
        if not self.bs[s] and not self.subs[s]:
            self.sea_owner[s] = -1
            self.ready_bs[s] = self.ready_subs[s] = 0

    # -- doing a verb ------------------------------------------------------------------------
    def _do(self, verb: int, args: list[int]) -> None:
        p = self.current_player
        if verb in A.BUY_TROOPS or verb == A.BUY_TROOPS_ALL:
            k = A.BUY_TROOPS.get(verb) or self.spendable()
            self._pay(k)
            self.troops[args[0]] += k
            self._log(f"player_{p} buys {k} troop(s) for {W.names[args[0]]}")
        elif verb in (A.BUY_BATTLESHIP, A.BUY_SUBMARINE):
            ship = "battleship" if verb == A.BUY_BATTLESHIP else "submarine"
            self._pay(COST[ship])
            self._add_vessels(p, args[0] - NATIONS, ship == "battleship", 1)
            self._log(f"player_{p} buys a {ship} for {place_name(args[0])}")
        elif verb == A.BUY_LASER:
            self._pay(COST["laser"])
            self.lasers[p] += 1
            self._log(f"player_{p} buys a laser ({self.lasers[p]} on the space stations)")
        elif verb == A.ATTACK:
            self._declare(TROOPS_ATTACK, args[1], source=args[0])
        elif verb == A.LASER:
            self.lasers[p] -= 1
            if self.phase == WINDOW:
                self.laser_answered = True
                self._log(f"player_{p} answers with a laser on {place_name(args[0])}")
                self._laser_hit(args[0])
            else:
                self._declare(LASER_SHOT, args[0])
        elif verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
            self._move_fleet(verb == A.MOVE_BATTLESHIPS, args[0] - NATIONS, args[1] - NATIONS, args[2])
        else:
            self._play_card(verb - A.CARD, args)

    def _add_vessels(self, p: int, s: int, battleship: bool, count: int) -> None:
        """New vessels cannot move until the player's next turn (not added to the ready counts)."""
        self.sea_owner[s] = p
        if battleship:
            self.bs[s] += count
        else:
            self.subs[s] += count

    def _amount(self, action: int, available: int) -> int:
        return {A.AMOUNT_ONE: 1, A.AMOUNT_HALF: max(1, available // 2), A.AMOUNT_ALL: available}[action]

    def _play_card(self, kind: int, args: list[int]) -> None:
        p = self.current_player
        self.hands[p][kind] -= 1
        self.deck.append(kind)  # book: a used card goes to the bottom of the deck
        name = CARD_KINDS[kind].replace("_", " ")
        spec = self.rules.cards[kind]
        if kind in REINFORCE_TROOPS:
            self.troops[args[0]] += spec.troops
            self._log(f"player_{p} plays {name}: {spec.troops} troops on {W.names[args[0]]}")
        elif kind in REINFORCE_SHIPS:
            s = args[0] - NATIONS
            self._add_vessels(p, s, True, spec.battleships)
            self._add_vessels(p, s, False, spec.submarines)
            self._log(f"player_{p} plays {name} on {W.sea_names[s]}")
        elif kind in INTEL:
            branch = INTEL[kind]
            for q in range(self.n):
                if q != p:
                    for k2, card in enumerate(self.rules.cards):
                        if card.branch == branch:
                            self.revealed[p][q][k2] = self.hands[q][k2]
            self._log(f"player_{p} plays {name} and sees every opponent's {branch} cards")
        elif kind == K["helicopter_commando"]:
            self._commando(p, args[0])
        elif kind == K["jet_bomber"]:
            self._declare(JET, args[0])
        elif kind == K["airlift"]:
            if self.phase == WINDOW:
                into, source = self.attack[3], args[0]
            else:
                into, source = args[1], args[0]
            moved = self._amount(args[-1], self.troops[source] - 1)
            self.troops[source] -= moved
            self.troops[into] += moved
            self._log(f"player_{p} airlifts {moved} troops from {W.names[source]} to {W.names[into]}")
        elif kind == K["minefield"]:
            src = self.attack[4]
            lost = min(5, self.troops[src] - 1)
            self.troops[src] -= lost
            self._log(f"player_{p} lays a minefield: player_{self.attack[1]} loses {lost} troops in {W.names[src]}")
        elif kind == K["ocean_mine"]:
            self.attack[6] -= 1
            self._log(f"player_{p} sets off an ocean mine: player_{self.attack[1]} loses a vessel")
        elif kind == K["anti_aircraft_missile"]:
            self.attack[6] = 0
            self._log(f"player_{p} fires an anti-aircraft missile: the jet bomber is lost")

    def _commando(self, p: int, x: int) -> None:
        """Book: ten troops on any opponent's nation, attacking alone until they win or die."""
        defender = self.owner[x]
        left, held = C.commando_battle(self.rng, self.rules.black, 10, self.troops[x])
        if held:
            self.troops[x] = held
            self._log(f"player_{p}'s helicopter commandos fall in {W.names[x]} (player_{defender} keeps {held})")
        else:
            self.troops[x] = left
            self._log(f"player_{p}'s helicopter commandos take {W.names[x]} from player_{defender} ({left} left)")
            self._take_nation(p, x)
        self._update_out()

    # -- attacks and the defender's window ---------------------------------------------------
    def _declare(self, kind: int, target: int, source: int = -1, ship: int = 0, count: int = 1) -> None:
        p = self.player
        self.attack = [kind, p, self.owner_of(target), target, source, ship, count]
        self.laser_answered = False
        what = {
            TROOPS_ATTACK: f"attacks {place_name(target)} from {place_name(source)}",
            JET: f"sends a jet bomber against {place_name(target)}",
            LASER_SHOT: f"fires a laser at {place_name(target)}",
            NAVAL: f"moves {count} {'battleship' if ship == C.BATTLESHIP else 'submarine'}(s) from "
            f"{place_name(source)} against {place_name(target)}",
        }[kind]
        self._log(f"player_{p} {what} (held by player_{self.attack[2]})")
        self.phase = WINDOW
        if not self._window_verbs():
            self._resolve_attack()

    def _laser_hit(self, target: int) -> None:
        roll = int(C.roll(self.rng, self.rules.black))  # type: ignore[arg-type]
        q = self.owner_of(target)
        if target < NATIONS:
            lost = C.troops_hit(self.troops[target], roll)
            self.troops[target] -= lost
            self._log(f"the laser rolls {roll}: player_{q} loses {lost} troops in {W.names[target]}")
        else:
            s = target - NATIONS
            lost_b, lost_s = C.vessels_lasered(self.bs[s], self.subs[s], roll)
            self.bs[s] -= lost_b
            self.subs[s] -= lost_s
            self.ready_bs[s] = min(self.ready_bs[s], self.bs[s])
            self.ready_subs[s] = min(self.ready_subs[s], self.subs[s])
            self._log(
                f"the laser rolls {roll}: player_{q} loses {lost_b} battleship(s) and {lost_s} "
                f"submarine(s) at {W.sea_names[s]}"
            )
            self._clear_sea(s)

    def _resolve_attack(self) -> None:
        kind, p, _, target, source, ship, count = self.attack
        self.phase = ACT
        if kind == TROOPS_ATTACK:
            if self.troops[source] >= 3 and self.owner[target] not in (-1, p):
                self.phase, self.rolls = BATTLE, 0
            else:
                self._log(f"player_{p} calls off the attack on {W.names[target]}")
        elif kind == JET:
            if not count:
                return
            red = int(C.roll(self.rng, self.rules.red))  # type: ignore[arg-type]
            q = self.owner_of(target)
            if target < NATIONS:
                lost = C.troops_hit(self.troops[target], red)
                self.troops[target] -= lost
                self._log(f"the jet bomber rolls {red}: player_{q} loses {lost} troops in {W.names[target]}")
            else:
                s = target - NATIONS
                lost = C.battleships_bombed(self.bs[s], red)
                self.bs[s] -= lost
                self._log(f"the jet bomber rolls {red}: player_{q} loses {lost} battleship(s) at {W.sea_names[s]}")
                self._clear_sea(s)
        elif kind == LASER_SHOT:
            self._laser_hit(target)
        else:
            self._naval_battle(p, source, target - NATIONS, ship, count)
        self._update_out()

    # -- troop battles -----------------------------------------------------------------------
    def _battle(self, action: int) -> None:
        _, p, q, target, source = self.attack[:5]
        if action == A.STOP:
            self.phase = ACT
            self._log(f"player_{p} stops the attack on {W.names[target]}")
            return
        while True:
            a, d = C.roll(self.rng, self.rules.black), C.roll(self.rng, self.rules.black)
            lost_a, lost_d = C.troop_exchange(a, d)  # type: ignore[arg-type]
            self.rolls += 1
            self.troops[source] -= lost_a
            self.troops[target] -= lost_d
            self._log(
                f"black dice {a} vs {d}: {W.names[source]} {self.troops[source]}, "
                f"{W.names[target]} {self.troops[target]}"
            )
            if self.troops[target] == 0:
                self.phase = MOVE_IN
                return
            if self.troops[source] < 3:
                self.phase = ACT
                self._log(f"player_{p} cannot go on attacking from {W.names[source]}")
                return
            if action == A.ROLL:
                return

    def _move_in(self, action: int) -> None:
        _, p, q, target, source = self.attack[:5]
        moved = self._amount(action, self.troops[source] - 1)
        self.troops[source] -= moved
        self.troops[target] = moved
        self.phase = ACT
        self._log(f"player_{p} conquers {W.names[target]} from player_{q} and moves in {moved}")
        self._take_nation(p, target)
        self._update_out()

    # -- navies ------------------------------------------------------------------------------
    def _move_fleet(self, battleships: bool, s: int, t: int, amount: int) -> None:
        p = self.player
        ready = self.ready_bs if battleships else self.ready_subs
        count = self._amount(amount, ready[s])
        ready[s] -= count
        if battleships:
            self.bs[s] -= count
        else:
            self.subs[s] -= count
        self._clear_sea(s)
        ship = C.BATTLESHIP if battleships else C.SUBMARINE
        if self.sea_owner[t] in (-1, p):
            self._add_vessels(p, t, battleships, count)  # moved vessels do not move again this turn
            self._log(
                f"player_{p} moves {count} {'battleship' if battleships else 'submarine'}(s) from "
                f"{W.sea_names[s]} to {W.sea_names[t]}"
            )
            return
        self._declare(NAVAL, NATIONS + t, source=NATIONS + s, ship=ship, count=count)

    def _naval_battle(self, p: int, source: int, t: int, ship: int, count: int) -> None:
        q = self.sea_owner[t]
        if not count:
            return
        left, bs, subs = C.naval_battle(self.rng, self.rules.green, ship, count, self.bs[t], self.subs[t])
        self.bs[t], self.subs[t] = bs, subs
        if left:
            self.sea_owner[t] = p
            self._add_vessels(p, t, ship == C.BATTLESHIP, left)
            if t < BLOCKADES:
                self.conquered_blockades += 1
            self._log(f"player_{p} wins the sea battle for {W.sea_names[t]} from player_{q} ({left} left)")
        else:
            self._clear_sea(t)
            self._log(f"player_{q} holds off the naval attack on {W.sea_names[t]}")

    # -- text ----------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        from ultimata.envs.ultimatum_world.text import action_text

        return action_text(self, action)

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.ultimatum_world.text import render

        return render(self, viewer)

    def observation(self, player: int) -> np.ndarray:
        from ultimata.envs.ultimatum_world.observation import observe

        return observe(self, player)

    # -- search --------------------------------------------------------------------------------
    def sample_consistent(self, viewer: int, rng: Rng) -> WorldState:
        """Other hands and the deck re-dealt from the cards the viewer cannot see (hand sizes kept)."""
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        unseen = list(self.deck)
        for q in range(self.n):
            if q != viewer:
                unseen += [k for k, c in enumerate(self.hands[q]) for _ in range(c)]
        unseen = rng.shuffled(unseen)
        for q in range(self.n):
            if q != viewer:
                size = sum(self.hands[q])
                other.hands[q] = [0] * len(CARD_KINDS)
                for k in unseen[:size]:
                    other.hands[q][k] += 1
                unseen = unseen[size:]
        other.deck = unseen
        other._mask = None
        return other

    # -- saving --------------------------------------------------------------------------------
    FIELDS = (
        "owner",
        "troops",
        "sea_owner",
        "bs",
        "subs",
        "ready_bs",
        "ready_subs",
        "bank",
        "turn_money",
        "debts",
        "lasers",
        "hands",
        "deck",
        "revealed",
        "alliance_flag",
        "out",
        "phase",
        "setup_first",
        "setup_count",
        "start_picks",
        "fleet_first",
        "order_first",
        "player",
        "turn",
        "round",
        "pending",
        "attack",
        "laser_answered",
        "rolls",
        "conquered_nations",
        "conquered_blockades",
        "winners",
        "events",
    )

    def _check_consistency(self) -> None:
        from ultimata.envs.ultimatum_world.consistency import check

        check(self)
