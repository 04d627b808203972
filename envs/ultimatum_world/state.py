"""Ultimatum's state: the fields of a position, the engine contract's hooks, the action dispatch and saving.
A turn is a chain of small decisions; `pending` holds the verb and the places chosen so far.

The rules are composed as in every wargame (envs/ultra_war/state.py's docstring says how and why): one
mixin class `<Concept>Rules` per concept, in a module named after it - turns.py (the set-up, turns, the
end of the game), money.py, placement.py, attacks.py, cards.py, pieces.py (the sets of pieces) and
legal.py (the legal set) - and `WorldState` is those mixins plus the engine's `State`. How a roll comes
out (combat.py) and the map and rules data (content.py) stay plain functions and data."""

from __future__ import annotations

from itertools import compress
from typing import Any

import numpy as np

from ultimata.envs.core.engine import State
from ultimata.envs.core.fields import COPIED, SEAT, SHARED, TABLE, Bool, Fields, Fresh, Int, ListOf, Row, Str
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.actions import BLOCKADES, NATIONS, SEAS
from ultimata.envs.ultimatum_world.attacks import ATTACK_KINDS, TROOPS_ATTACK, AttackRules
from ultimata.envs.ultimatum_world.cards import CardRules
from ultimata.envs.ultimatum_world.consistency import MANY, MONEY, check
from ultimata.envs.ultimatum_world.content import CARD_KINDS, COMMUNIST, OIL, PEACE, WESTERN, world
from ultimata.envs.ultimatum_world.legal import LegalRules
from ultimata.envs.ultimatum_world.money import MoneyRules
from ultimata.envs.ultimatum_world.observation import ANYTHING, CHOICE, LastView
from ultimata.envs.ultimatum_world.phases import (
    ACT,
    BATTLE,
    BUY,
    MOVE_IN,
    OVER,
    PHASES,
    SETUP,
    SETUP_FILL,
    SETUP_FLEET,
    SETUP_START,
    WINDOW,
)
from ultimata.envs.ultimatum_world.pieces import PieceRules
from ultimata.envs.ultimatum_world.placement import PlacementRules
from ultimata.envs.ultimatum_world.turns import TurnRules
from ultimata.envs.ultimatum_world.words import move_words

W = world()
EVENTS_KEPT = 12
ALL_NATIONS = range(NATIONS)


_MANY, _MONEY = Int(0, MANY), Int(0, MONEY)
_VESSELS = ListOf(_MANY, size=SEAS)
_CARD_ROWS = ListOf(ListOf(_MANY, size=len(CARD_KINDS)), size=TABLE)
"""A count of each card kind per seat."""


class WorldState(LegalRules, TurnRules, MoneyRules, PlacementRules, AttackRules, CardRules, PieceRules, State):
    last_event_per_move = True

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
        self.move_events: list[str] = []
        """What the latest move made happen, in order and all of it (`State.last_event_per_move`); not saved."""
        self.changed = ANYTHING
        """What the last decision changed, for the observation (`_apply`); not saved."""
        self.last_view = LastView()
        if cfg.setup == "dealt":
            self._deal_setup()
            self.move_events = []  # the dealt set-up is in `events`; no move made it happen

    # -- queries -----------------------------------------------------------------------------
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

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        """The action, as the call of one rule method. `changed` records what it changed: anything, unless
        it only chose a verb or a place (nothing but `pending` or `place_at` changed)."""
        self.changed = ANYTHING
        self.move_events = []
        if self.pending:
            self.pending.append(action)
            if len(self.pending) > self.chain_length(self.pending[0]):
                verb, args = self.pending[0], self.pending[1:]
                self.pending = []
                self._do(verb, args)
            else:
                self.changed = CHOICE
        elif self.placing_now():
            self._place(action)
            if self.place_at >= 0:
                self.changed = CHOICE
        elif self.transferring():
            self._top_up(action)
        elif self.phase in SETUP:
            self._setup(action - A.PLACE)
        elif self.phase == BATTLE:
            self._battle_decision(action)
            if self.pending:
                self.changed = CHOICE
        elif self.phase == MOVE_IN:
            self._move_in(action)
        elif action == A.DONE:
            self._done()
        elif self.chain_length(action):
            self.pending = [action]
            self.changed = CHOICE
        else:
            self._do(action, [])
        if self.phase == WINDOW and not self.pending and not self.transferring() and not self.window_opens():
            self._close_window()
        busy = self.pending or self.placing_now() or self.transferring()
        if self.phase == BUY and not busy and not self.purchases():
            self.phase = ACT  # nothing more to buy with the bank's money: the purchases are over

    def _log(self, text: str) -> None:
        """A sentence for the event log, which keeps the latest `EVENTS_KEPT`; the move under way tells
        every one (`move_events`)."""
        self.events.append(text)
        del self.events[:-EVENTS_KEPT]
        self.move_events.append(text)

    def _do(self, verb: int, args: list[int]) -> None:
        if A.BUY_TROOPS_1 <= verb <= A.BUY_LASER:
            self._buy(self.current_player, verb)
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

    # -- text ----------------------------------------------------------------------------------
    def _action_to_string(self, action: int) -> str:
        return move_words(self, action)[0]

    def _narrate(self, action: int) -> str:
        return move_words(self, action)[1]

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.ultimatum_world.text import render

        return render(self, viewer)

    def observation(self, player: int) -> np.ndarray:
        """The seat's view; after a decision that only chose a verb or a place, the last view patched."""
        return self.last_view.observe(self, player)

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
        other._mask = None
        return other

    # -- saving --------------------------------------------------------------------------------
    FIELDS = Fields(
        owner=ListOf(Int(-1, SEAT), size=NATIONS), troops=ListOf(_MANY, size=NATIONS),
        sea_owner=ListOf(Int(-1, SEAT), size=SEAS), bs=_VESSELS, subs=_VESSELS, ready_bs=_VESSELS,
        ready_subs=_VESSELS, bank=ListOf(_MONEY, size=TABLE), turn_money=_MONEY, embargo_money=_MONEY,
        debts=ListOf(Row(("debtor", Int(0, SEAT)), ("creditor", Int(0, SEAT)), ("billions", Int(1, 6)))),
        lasers=ListOf(_MANY, size=TABLE), hands=_CARD_ROWS, deck=ListOf(Int(0, len(CARD_KINDS) - 1)), used=_MANY,
        known=_CARD_ROWS, revealed=ListOf(ListOf(ListOf(Int(-1, MANY), size=len(CARD_KINDS)), size=TABLE),
                                          size=TABLE),
        alliance_flag=ListOf(ListOf(Bool(), size=4), size=TABLE), out=ListOf(Bool(), size=TABLE),
        phase=Int(0, len(PHASES) - 1), setup_first=Int(0, SEAT), setup_count=_MANY,
        start_picks=ListOf(Int(0, NATIONS - 1), most=3), fleet_first=Int(-1, SEAT), order_first=Int(-1, SEAT),
        player=Int(-1, SEAT), turn=_MANY, round=_MANY, pending=ListOf(Int(0, A.NUM_ACTIONS - 1), most=4),
        placing=ListOf(_MANY, size=3), place_at=Int(-1, A.PLACES - 1), transfer=ListOf(Int(-1, NATIONS - 1), size=2),
        attack=Row(("kind", Int(0, len(ATTACK_KINDS) - 1)), ("attacker", Int(0, SEAT)), ("defender", Int(0, SEAT)),
                   ("target", Int(0, A.PLACES - 1)), ("source", Int(-1, A.PLACES - 1)), or_empty=True),
        force=ListOf(_MANY, size=2), aim=Int(-1, 3), blitz=Bool(), laser_answered=Bool(), rolls=_MANY,
        conquered_nations=Int(0, NATIONS), conquered_blockades=Int(0, BLOCKADES),
        emptied=ListOf(Int(0, BLOCKADES - 1), distinct=True), winners=ListOf(Int(0, SEAT), distinct=True),
        events=ListOf(Str(), most=EVENTS_KEPT),
        kept={"cfg": SHARED, "rules": SHARED, "n": SHARED, "move_events": COPIED, "changed": SHARED,
              "last_view": Fresh(LastView)},
    )

    def _check_consistency(self) -> None:
        """The position is one the rules can reach (consistency.py names what is not)."""
        check(self)
