"""The rules engine of Ultimatum (1985): set-up, turns, money, placing reinforcements, cards, the win
and the round cap. Attacks live in `attacks.py`, the legal set of every decision in `legal.py`. A turn
is a chain of small decisions; `pending` holds the verb and the places chosen so far."""

from __future__ import annotations

import copy
from itertools import compress
from typing import Any

import numpy as np

from ultimata.envs.core.engine import State
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world import legal as L
from ultimata.envs.ultimatum_world.attacks import AttackRules
from ultimata.envs.ultimatum_world.content import CARD_KINDS, world
from ultimata.envs.ultimatum_world.legal import (  # noqa: F401 (the phase and attack names, re-exported)
    ACT,
    ATTACK_KINDS,
    BATTLE,
    BLOCKADES,
    BUY,
    COMMUNIST,
    JET,
    LASER_SHOT,
    MOVE_IN,
    NATIONS,
    NAVAL,
    OIL,
    OVER,
    PEACE,
    PHASES,
    SEAS,
    SETUP_FILL,
    SETUP_FLEET,
    SETUP_START,
    TROOPS_ATTACK,
    WESTERN,
    WINDOW,
)
from ultimata.envs.ultimatum_world.pieces import troops_left

W = world()
ALLIANCE_MONEY = {WESTERN: 20, COMMUNIST: 15, PEACE: 25}
"""Book: $20 billion for the whole Western, $15 billion Communist, $25 billion Peace Alliance."""
COST = L.COST
K = L.K
PIECES = ("troop", "battleship", "submarine")
EVENTS_KEPT = 12
ALL_NATIONS = range(NATIONS)


def _copied(items: list) -> list:
    """A copy of nested lists of immutable values."""
    return [_copied(x) if type(x) is list else x for x in items]


def place_name(place: int) -> str:
    return W.names[place] if place < NATIONS else W.sea_names[place - NATIONS]


class WorldState(AttackRules, State):
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
        """Vessels of the player whose turn it is that may still make their one move this turn."""
        self.bank = [0] * n
        self.turn_money = 0
        """Conquest money: spent this turn on troops, vessels or lasers."""
        self.embargo_money = 0
        """Oil Embargo money: spent this turn on troops or vessels (book: 'troops and/or naval vessels')."""
        self.debts: list[list[int]] = []
        """[debtor, creditor, amount]: Oil Embargo money owed until the debtor can pay."""
        self.lasers = [0] * n
        self.hands = [[0] * len(CARD_KINDS) for _ in range(n)]
        self.deck: list[int] = rng.shuffled(list(self.rules.deck))
        self.used = 0
        """How many cards at the bottom of the deck were played, in an order everyone saw."""
        self.known = [[0] * len(CARD_KINDS) for _ in range(n)]
        """known[q][kind]: cards q drew back from the used ones, which everyone could follow (a lower
        bound of q's hand: playing a card of that kind may have been one of them)."""
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
        self.placing = [0, 0, 0]
        """Troops, battleships, submarines bought or given by a card and still to be placed."""
        self.place_at = -1
        """The place chosen for the reinforcements, waiting for how many go there."""
        self.transfer = [-1, -1]
        """[from, to] while troops moving in or airlifted may be followed by more (book: 'any number')."""
        self.attack: list[int] = []
        """[kind, attacker, defender, target place, source place] of the attack under way."""
        self.force = [0, 0]
        """The attacking battleships and submarines of a naval battle; [1, 0] while a jet bomber flies."""
        self.aim = -1
        """The announced naval pair, 2 * attacker's kind + defender's kind (-1: none yet)."""
        self.blitz = False
        self.laser_answered = False
        self.rolls = 0
        """Rolls made in the attack under way."""
        self.conquered_nations = 0
        self.conquered_blockades = 0
        self.emptied: list[int] = []
        """Blockades the player on turn conquered this turn by sinking their last vessel, still vacant."""
        self.winners: list[int] = []
        self.events: list[str] = [f"player_{self.setup_first} rolled highest and picks first"]
        self._last_observation: tuple[int, np.ndarray] | None = None
        """(seat, observation) of the last view given, while only choices were made since (not saved)."""
        if cfg.setup == "dealt":
            self._deal_setup()

    # -- small queries -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase in (SETUP_START, SETUP_FILL):
            step = self.setup_count // 4 if self.phase == SETUP_START else self.setup_count
            return (self.setup_first + step) % self.n
        if self.phase == SETUP_FLEET:
            return (self.fleet_first + self.setup_count) % self.n
        if self.phase == WINDOW:
            return self.attack[2]
        return -1 if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def nations_of(self, p: int) -> list[int]:
        return list(compress(ALL_NATIONS, map(p.__eq__, self.owner)))  # the C-speed [x for x if owner[x] == p]

    def blockades_of(self, p: int) -> int:
        return sum(1 for t in range(BLOCKADES) if self.sea_owner[t] == p)

    def holds_alliance(self, p: int, a: int) -> bool:
        owner = self.owner
        return all(owner[i] == p for i in W.members[a])

    def alliances_held(self, p: int) -> int:
        return sum(self.holds_alliance(p, a) for a in range(4))

    def has_won(self, p: int) -> bool:
        """Book: the whole Oil Alliance plus one of Western, Communist or Peace (two of them with 2 players)."""
        others = sum(self.holds_alliance(p, a) for a in (WESTERN, COMMUNIST, PEACE))
        return self.holds_alliance(p, OIL) and others >= (2 if self.n == 2 else 1)

    def has_fleet(self, p: int) -> bool:
        """A sea place is held exactly while its holder's vessels are on it."""
        return p in self.sea_owner

    def owner_of(self, place: int) -> int:
        return self.owner[place] if place < NATIONS else self.sea_owner[place - NATIONS]

    def placing_now(self) -> bool:
        return self.placing != [0, 0, 0]

    def transferring(self) -> bool:
        return self.transfer[0] >= 0

    def troop_money(self) -> int:
        """Money for troops and vessels now: embargo and conquest money, and the bank before any attack."""
        return self.embargo_money + self.turn_money + (self.bank[self.player] if self.phase == BUY else 0)

    def laser_money(self) -> int:
        """Money for a laser now: conquest money, and the bank before any attack (never embargo money)."""
        return self.turn_money + (self.bank[self.player] if self.phase == BUY else 0)

    def _legal_actions(self) -> list[int]:
        return L.legal_actions(self)

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        choice_only = False  # the decision only chose a verb or a place: nothing but pending / place_at changed
        if self.pending:
            self.pending.append(action)
            if len(self.pending) > L.chain_length(self, self.pending[0]):
                verb, args = self.pending[0], self.pending[1:]
                self.pending = []
                self._do(verb, args)
            else:
                choice_only = True
        elif self.placing_now():
            self._place(action)
            choice_only = self.place_at >= 0
        elif self.transferring():
            self._top_up(action)
        elif self.phase in (SETUP_START, SETUP_FILL, SETUP_FLEET):
            self._setup(action - A.PLACE)
        elif self.phase == BATTLE:
            self._battle_decision(action)
            choice_only = bool(self.pending)
        elif self.phase == MOVE_IN:
            self._move_in(action)
        elif action == A.DONE:
            self._done()
        elif L.chain_length(self, action):
            self.pending = [action]
            choice_only = True
        else:
            self._do(action, [])
        if not choice_only:
            self._last_observation = None
        if self.phase == WINDOW and not self.pending and not self.transferring() and not L.window_verbs(self):
            self._close_window()
        busy = self.pending or self.placing_now() or self.transferring()
        if self.phase == BUY and not busy and not L.purchases(self):
            self.phase = ACT  # nothing more to buy with the bank's money: the purchases are over

    def _log(self, text: str) -> None:
        self.events.append(text)
        del self.events[:-EVENTS_KEPT]

    def _do(self, verb: int, args: list[int]) -> None:
        p = self.current_player
        if verb in A.BUY_TROOPS or verb == A.BUY_TROOPS_ALL:
            k = A.BUY_TROOPS.get(verb) or min(self.troop_money(), troops_left(self, p))
            self._pay(k)
            self._reinforce(p, [k, 0, 0], f"buys {k} troop(s)")
        elif verb in (A.BUY_BATTLESHIP, A.BUY_SUBMARINE):
            ship = "battleship" if verb == A.BUY_BATTLESHIP else "submarine"
            self._pay(COST[ship])
            self._reinforce(p, [0, 1, 0] if ship == "battleship" else [0, 0, 1], f"buys a {ship}")
        elif verb == A.BUY_LASER:
            self._pay(COST["laser"], laser=True)
            self.lasers[p] += 1
            self._log(f"player_{p} buys a laser ({self.lasers[p]} on the space stations)")
        elif verb == A.ATTACK:
            self._declare(TROOPS_ATTACK, args[1], source=args[0])
        elif verb == A.LASER:
            self._fire_laser(args[0])
        elif verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
            battleships = verb == A.MOVE_BATTLESHIPS
            if self.phase == BATTLE:
                self._join(battleships, args[0] - NATIONS, args[1])
            else:
                self._move_fleet(battleships, args[0] - NATIONS, args[1] - NATIONS, args[2])
        else:
            self._play_card(verb - A.CARD, args)

    # -- placing reinforcements --------------------------------------------------------------
    def _reinforce(self, p: int, pieces: list[int], what: str) -> None:
        """Book: purchased or card reinforcements 'must be immediately placed on one or any number of'
        the player's nations (troops) or blockades (vessels)."""
        self.placing = [a + b for a, b in zip(self.placing, pieces)]
        self._log(f"player_{p} {what}")

    def _place(self, action: int) -> None:
        kind = next(i for i, c in enumerate(self.placing) if c)
        if self.place_at < 0 and self.placing[kind] > 1:
            self.place_at = action - A.PLACE
            return
        count = 1 if self.place_at < 0 else self._amount(action, self.placing[kind])
        where = action - A.PLACE if self.place_at < 0 else self.place_at
        self.place_at = -1
        self.placing[kind] -= count
        p = self.player
        if kind == 0:
            self.troops[where] += count
        else:
            self._add_vessels(p, where - NATIONS, kind == 1, count)
        self._log(f"player_{p} places {count} {PIECES[kind]}(s) on {place_name(where)}")

    def _add_vessels(self, p: int, t: int, battleship: bool, count: int) -> None:
        """New or moved vessels cannot move (again) until the player's next turn: not added to the ready
        counts. Moving into a blockade earns nothing (book), even one the player conquered this turn."""
        if t in self.emptied:
            self.emptied.remove(t)
        self.sea_owner[t] = p
        if battleship:
            self.bs[t] += count
        else:
            self.subs[t] += count

    def _move_troops(self, source: int, into: int, action: int) -> int:
        """Troops move between two of a player's nations, one always staying behind; more may follow."""
        moved = self._amount(action, self.troops[source] - 1)
        self.troops[source] -= moved
        self.troops[into] += moved
        self.transfer = [source, into] if self.troops[source] >= 2 else [-1, -1]
        return moved

    def _top_up(self, action: int) -> None:
        source, into = self.transfer
        if action == A.DONE:
            self.transfer = [-1, -1]
            return
        moved = self._move_troops(source, into, action)
        self._log(f"player_{self.owner[into]} moves {moved} more troops from {W.names[source]} to {W.names[into]}")

    @staticmethod
    def _amount(action: int, available: int) -> int:
        return {A.AMOUNT_ONE: 1, A.AMOUNT_HALF: max(1, available // 2), A.AMOUNT_ALL: available}[action]

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
        while self.phase in (SETUP_START, SETUP_FILL, SETUP_FLEET):
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
        if not L.purchases(self):
            self.phase = ACT

    def _done(self) -> None:
        if self.phase == BUY:
            self.phase = ACT
        elif self.phase == WINDOW:
            self._close_window()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Book: cards earned are given at the end of the turn (1 a nation, 2 a blockade, at most 3);
        the bank pays $1 billion a nation and $2 billion a blockade held."""
        p = self.player
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

    def _update_out(self) -> None:
        """Ours: at the end of a turn, a player with no nation, no vessel and no Helicopter Commando card
        can never come back (the Q&A's only way back) and is skipped from then on."""
        for q in range(self.n):
            if (
                not self.out[q]
                and not self.nations_of(q)
                and not self.has_fleet(q)
                and not self.hands[q][K["helicopter_commando"]]
            ):
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

    def returns(self) -> list[float]:
        """Zero-sum: the winners share +1, the others share -1 (all tied: all 0)."""
        if self.phase != OVER or len(self.winners) == self.n:
            return [0.0] * self.n
        w, rest = len(self.winners), self.n - len(self.winners)
        return [1.0 / w if q in self.winners else -1.0 / rest for q in range(self.n)]

    def potentials(self) -> list[float]:
        """Ours, for shaping and depth-cut search: the round cap's order (alliances, then nations, then
        blockades) as one number per seat - alliances held, plus twice the share of the 37 nations, plus
        half the share of the 14 blockades - relative to the table mean, so it stays zero-sum."""
        scores = [
            self.alliances_held(q) + 2.0 * len(self.nations_of(q)) / NATIONS + 0.5 * self.blockades_of(q) / BLOCKADES
            for q in range(self.n)
        ]
        mean = sum(scores) / self.n
        return [s - mean for s in scores]

    # -- money -------------------------------------------------------------------------------
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

    # -- taking nations ----------------------------------------------------------------------
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
                self._log(
                    f"player_{p} holds the whole {('Western', 'Communist', 'Peace')[a]} Alliance: "
                    f"${ALLIANCE_MONEY[a]} billion"
                )
        if self.has_won(p):
            self._finish([p], "holds the Oil Alliance and " + ("two more" if self.n == 2 else "another") + " alliance")

    # -- text ----------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        from ultimata.envs.ultimatum_world.text import action_text

        return action_text(self, action)

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.ultimatum_world.text import render

        return render(self, viewer)

    def observation(self, player: int) -> np.ndarray:
        """The seat's view; after a decision that only chose a verb or a place, the last view patched."""
        from ultimata.envs.ultimatum_world.observation import after_choice, observe

        last = self._last_observation
        obs = after_choice(self, last[1]) if last is not None and last[0] == player else observe(self, player)
        self._last_observation = (player, obs.copy())
        return obs

    def clone(self) -> WorldState:
        """Shares what never changes (the game, its frozen config and rules) and copies the rest, lists of
        numbers nested a few deep: the engine's deep copy also copied the config and the rules, and took a
        third of each `mcts` simulation."""
        other = copy.copy(self)
        copies = other.__dict__
        for k, v in self.__dict__.items():
            if type(v) is list:
                copies[k] = _copied(v)
        other.rng = Rng.from_state_dict(self.rng.state_dict())
        return other

    # -- search --------------------------------------------------------------------------------
    def sample_consistent(self, viewer: int, rng: Rng) -> WorldState:
        """The cards the viewer cannot see re-dealt: other hands (sizes and the cards everyone knows
        they drew back kept) and the unseen top of the deck (the used cards below it stay in order)."""
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        top = len(self.deck) - self.used
        unseen = list(self.deck[:top])
        for q in range(self.n):
            if q != viewer:
                unseen += [k for k, c in enumerate(self.hands[q]) for _ in range(c - self.known[q][k])]
        unseen = rng.shuffled(sorted(unseen))  # sorted first: the real deck order must not steer the deal
        for q in range(self.n):
            if q != viewer:
                size = sum(self.hands[q]) - sum(self.known[q])
                other.hands[q] = list(self.known[q])
                for k in unseen[:size]:
                    other.hands[q][k] += 1
                unseen = unseen[size:]
        other.deck = unseen + self.deck[top:]
        other._mask = other._last_observation = None
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
        "embargo_money",
        "debts",
        "lasers",
        "hands",
        "deck",
        "used",
        "known",
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
        "placing",
        "place_at",
        "transfer",
        "attack",
        "force",
        "aim",
        "blitz",
        "laser_answered",
        "rolls",
        "conquered_nations",
        "conquered_blockades",
        "emptied",
        "winners",
        "events",
    )

    def _check_consistency(self) -> None:
        from ultimata.envs.ultimatum_world.consistency import check

        check(self)
