"""Ultra War's state: the fields of a position, the engine contract's hooks, the action dispatch and saving.

How the rules are composed (one style for every wargame): the rules are split by concept into modules named
after it - turns.py, movement.py, attacks.py, cards.py, power.py, windows.py, draft.py, legal.py - each
holding one mixin class, `<Concept>Rules`, of the methods that rule that concept. `UltraWarState` is those
mixins plus the engine's `State`. A mixin has no `__init__` and no fields: the fields are declared here, in
`__init__`, and a mixin reaches them, and the other concepts' rules, through `self` (for type checkers its
base is this class: the `_Base` lines). `_apply` turns an action into the call of one rule method. What is
one computation rather than a rule of the position stays plain functions that change nothing: what an attack
roll's dice mean (combat.py), the geometry, the board, the observation. Only this class and its mixins
change a position.

Why mixins: every caller - the dispatch, the observation, the bots, search, the tests, the reference model -
asks the state (`st.attack_targets(u, slot)`), so splitting the rules changes no call; a rule is found by
its concept; and there is no list of delegates or stubs to keep in step with the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ultimata.envs.core.engine import State
from ultimata.envs.core.fields import (
    COPIED,
    SHARED,
    Bool,
    Derived,
    Fields,
    Fresh,
    Int,
    ListOf,
    Records,
    Row,
    SetOf,
    Str,
)
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.abilities import GIGANTIC
from ultimata.envs.ultra_war.attacks import AttackRules
from ultimata.envs.ultra_war.cards import CardRules
from ultimata.envs.ultra_war.consistency import check, hold_goal, last_round
from ultimata.envs.ultra_war.draft import DraftRules
from ultimata.envs.ultra_war.geometry import FIELDS, ORIENT
from ultimata.envs.ultra_war.legal import LegalRules
from ultimata.envs.ultra_war.memo import Memo, memoized
from ultimata.envs.ultra_war.movement import MovementRules
from ultimata.envs.ultra_war.observation import ANYTHING, CHOICE, LastView
from ultimata.envs.ultra_war.phases import (
    ACTIVE,
    CARD_TARGET,
    DEVIATE,
    DRAFT,
    FEAT_TARGET,
    MAIN,
    OVER,
    PAUSE,
    PHASES,
    QUICK,
    SETUP,
)
from ultimata.envs.ultra_war.power import PowerRules
from ultimata.envs.ultra_war.turns import TurnRules
from ultimata.envs.ultra_war.units import COUNT, INDEX, SIDE, Source, Unit
from ultimata.envs.ultra_war.windows import WindowRules
from ultimata.envs.ultra_war.words import narration, own_words

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.game import UltraWarGame

_NAMES_PER_SIDE = ListOf(ListOf(Str()), size=2)
"""Card names, a list for each side (hands, decks)."""


def _anything(_: UltraWarState) -> int:
    """A loaded position's observation is built afresh (`observation.ANYTHING` changed)."""
    return ANYTHING


def _no_move_yet(_: UltraWarState) -> list[str]:
    """A loaded position has made no move yet: nothing to tell of one."""
    return []


class UltraWarState(LegalRules, TurnRules, MovementRules, AttackRules, CardRules, PowerRules, WindowRules, DraftRules,
                    State):
    game: UltraWarGame
    last_event_per_move = True

    def __init__(self, game: UltraWarGame, rng: Rng) -> None:
        super().__init__(game, rng)
        self.memo = Memo()
        """What one legal set reads over and over (memo.py); not saved."""
        self.board = game.board
        self.units: list[Unit] = []
        self.sources: list[Source] = []
        self.hands: list[list[str]] = [[], []]
        self.decks: list[list[str]] = [[], []]
        self.discards = [0, 0]
        self.breached: set[int] = set()
        self.phase, self.turn, self.round, self.first = SETUP, 0, 1, 0
        self.choosing = False
        """The roll's winner (`first` until then) has still to decide who goes first (book: Player Turns)."""
        self.setup_side, self.active, self.pending, self.performer = 0, -1, -1, -1
        self.stack: list[list[Any]] = []
        """A quick window's stack, bottom first: [side, card name, -1] or [side, "", source index]."""
        self.attack: list[int] = []
        """What a quick window (or the `deviate` phase) is about: [unit, attack slot, field, mode] (mode:
        windows.ATTACK, FREE_STRIKE, FEAT (slot -1), DEVIATED)."""
        self.responder = -1
        self.passes = 0
        """Passes in a row in the open window (two close it)."""
        self.strikes: list[int] = []
        """Free strikes still to come against the active character (units, in order)."""
        self.lift = False
        """The active character is taking off: it flies once the free strikes it drew are over."""
        self.disengaged: list[int] = []
        """The enemies (units) that made a free strike at the active character in this activation and that it has
        stayed next to since: it is disengaged from them (book: "If the Character survives the Attack, it may
        become disengaged"), so they strike it no more while it stays within their reach."""
        self.hold = [0, 0]
        self.winner = -1
        """-1 live, 0/1 the winning side, 2 a draw."""
        self.events: list[str] = []
        self.move_events: list[str] = []
        """What the latest move made happen, as logged (`last_event`); not saved."""
        self._saved_phase = MAIN
        self._raw: list[int] = []
        self._legal: list[int] | None = None
        """The legal actions behind `_mask` (set with it), and sorted (when first asked for)."""
        self.changed = ANYTHING
        """What the last decision changed, for the observation (`_apply`); not saved."""
        self.last_view = LastView()
        self._setup()

    # -- queries -------------------------------------------------------------------------------
    def side_units(self, side: int) -> list[Unit]:
        return [u for u in self.units if u.side == side]

    def unit_at(self, f: int) -> Unit | None:
        """The character standing on f (a flyer passing over it mid-move is not the one found)."""
        found = None
        for u in self.units:
            if u.pos == f:
                if self.active < 0 or u is not self.units[self.active]:
                    return u
                found = u
        return found

    def token_at(self, f: int) -> Source | None:
        for s in self.sources:
            if s.token and s.pos == f and s.life > 0:
                return s
        return None

    def blocked(self, f: int) -> bool:
        return self.unit_at(f) is not None or self.token_at(f) is not None

    def active_general(self, side: int) -> Unit | None:
        """The first General of the army on the board (gap, ours: when it falls, or is in the Void, the next
        takes over)."""
        return self.active_generals()[side]

    def active_generals(self) -> list[Unit | None]:
        """Both sides' active generals, in one pass."""
        found: list[Unit | None] = [None, None]
        for u in self.units:
            if found[u.side] is None and u.pos >= 0 and u.ch.rank == "General" and not u.imprisoned:
                found[u.side] = u
        return found

    @memoized
    def occupied_map(self) -> dict[int, bool]:
        """Field -> whether a Gigantic character stands there, for every field someone or a token occupies
        (two pawns share a space only while one passes through: either being Gigantic counts). The one read
        of Gigantic: it blocks passing over (movement.can_pass) and sight (board.sight_clear) even for flyers."""
        occ: dict[int, bool] = {}
        for s in self.sources:
            if s.token and s.pos >= 0 and s.life > 0:
                occ[s.pos] = False
        for u in self.units:
            if u.pos >= 0:
                occ[u.pos] = occ.get(u.pos, False) or GIGANTIC in u.ch.tags
        return occ

    def log(self, text: str) -> None:
        self.events.append(text)
        self.move_events.append(text)
        del self.events[:-12]

    @property
    def last_event(self) -> str:
        """Everything the latest move made happen by itself (damage, a card landing, a turn's end), for the
        move log under the move's words; empty when it did nothing more than its words say."""
        return "; ".join(self.move_events)

    # -- the contract --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == MAIN or self.phase == ACTIVE:  # the common case first
            return self.turn
        if self.phase == OVER:
            return -1
        if self.phase in (SETUP, DRAFT) or (self.phase in (CARD_TARGET, FEAT_TARGET) and self._saved_phase == SETUP):
            return self.setup_side
        if self.phase == QUICK:
            return self.responder
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.winner in (0, 1):
            return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]
        return [0.0, 0.0]

    def potentials(self) -> list[float]:
        """Ours, for shaping and depth-cut search, zero-sum: half the round cap's tiebreak (enemy army value
        destroyed, as a share of the army total), plus half the enemy Generals' life lost with
        `defeat_general`, plus half the hold points (as a share of those that win) with `hold`; each as
        player_0's lead over player_1."""
        sc = self.game.scenario
        lead = 0.5 * (self.harm_done(0) - self.harm_done(1)) / sc.army_total
        if sc.objective == "defeat_general":
            lead += 0.5 * (self._generals_hurt(1) - self._generals_hurt(0))
        elif sc.objective == "hold":
            lead += 0.5 * (self.hold[0] - self.hold[1]) / sc.hold_points
        return [lead, -lead]

    def _generals_hurt(self, side: int) -> float:
        """The share of life the side's Generals have lost (0 without Generals)."""
        generals = [u for u in self.side_units(side) if u.ch.rank == "General"]
        return sum((u.ch.life - u.life) / u.ch.life for u in generals) / len(generals) if generals else 0.0

    def _apply(self, action: int) -> None:
        """The action, as the call of one rule method. Here, and nowhere else, `changed` says what it changed,
        for the observation's patch (observation.LastView): ANYTHING, unless the action changes only the
        choice in progress - SELECT, CHARGE, PAUSE, PASS in a pause, PLAY of a card that waits for its
        target: CHOICE - or that and one pawn's facing and flags - FACE, END: the pawn's index; a droid
        losing control makes it ANYTHING again. The rules return nothing for it: they do not know the
        observation (tests/ultra_war/test_observation.py checks every patch against a fresh observation)."""
        self.changed = ANYTHING
        self.move_events = []
        seat = self.current_player
        p = self.phase
        to_abs = ORIENT[seat]
        if action == A.END_TURN:
            if p == DRAFT:
                self._finish_draft(seat)
            elif p == SETUP:
                self._finish_setup(seat)
            else:
                self._end_turn()
        elif A.SELECT <= action < A.FACE:
            if p == SETUP:
                self._choose_first(seat, action - A.SELECT == 1)
            elif p == DRAFT:
                self._draft(seat, action - A.SELECT)
            else:
                self._activate(seat, action - A.SELECT)
                self.changed = CHOICE
        elif action < A.ATTACK:
            self._step(self.units[self.active], to_abs[action])
        elif action < A.TARGET:
            slot, f = divmod(action - A.ATTACK, FIELDS)
            if p == DEVIATE:
                self._deviate(to_abs[f])
            else:
                self._declare_attack(self.units[self.active], slot, to_abs[f])
        elif action < A.USE:
            if p == ACTIVE:
                self._activation_target(to_abs[action - A.TARGET])
            else:
                self._card_target(seat, to_abs[action - A.TARGET])
        elif action < A.TRANSFER:
            s = self.source_at(seat, to_abs[action - A.USE])
            if p == QUICK:
                if not self._window_use(seat, s):
                    self._after_window()
            else:
                self._use_source(seat, s)
        elif action < A.SELECT:
            self._transfer(to_abs[action - A.TRANSFER])
        elif action < A.END_ACT:
            self.changed = self.active
            self._end_activation(self.units[self.active], A.to_dir(action - A.FACE, seat))
        elif action == A.END_ACT:
            self.changed = self.active
            self._end_activation(self.units[self.active])
        elif action == A.CHARGE:
            self._charge(self.units[self.active])
            self.changed = CHOICE
        elif action == A.FLY:
            self._fly(self.units[self.active])
        elif action == A.PAUSE:
            self._pause(self.units[self.active])
            self.changed = CHOICE
        elif A.PLAY <= action < A.DISCARD:
            self._play(seat, action - A.PLAY)
            if p != QUICK:
                self.changed = CHOICE
        elif A.DISCARD <= action < A.DROP:
            self._discard(seat, action - A.DISCARD)
        elif action < A.PASS:
            self._drop_gear(self.units[self.active], A.GEAR[action - A.DROP])
        elif action == A.PASS:
            if p == PAUSE:
                self._resume()
                self.changed = CHOICE
            elif p == DEVIATE:
                self._no_deviation()
            elif not self._window_pass():
                self._after_window()
        if self.phase != OVER and self.phase != DRAFT and self.phase != SETUP and self._lose_control():
            self.changed = ANYTHING

    # -- saving --------------------------------------------------------------------------------
    FIELDS = Fields(
        units=Records(Unit), sources=Records(Source), hands=_NAMES_PER_SIDE, decks=_NAMES_PER_SIDE,
        discards=ListOf(COUNT, size=2), breached=SetOf(Int(0, FIELDS - 1)), phase=Int(0, len(PHASES) - 1),
        turn=SIDE, round=Int(1, last_round), first=SIDE, choosing=Bool(), setup_side=SIDE, active=INDEX, pending=INDEX,
        performer=INDEX, stack=ListOf(Row(("side", SIDE), ("card name", Str()), ("source index", INDEX))),
        attack=ListOf(INDEX, most=4), responder=Int(-1, 1), passes=Int(0, 1), strikes=ListOf(COUNT),
        lift=Bool(), disengaged=ListOf(COUNT), hold=ListOf(Int(0, hold_goal), size=2), winner=Int(-1, 2),
        saved_phase=Int(0, len(PHASES) - 1), events=ListOf(Str()),
        renamed={"saved_phase": "_saved_phase"},
        kept={"board": SHARED, "memo": Fresh(Memo), "changed": Derived(_anything, copier=None),
              "last_view": Fresh(LastView), "move_events": Derived(_no_move_yet), "_raw": COPIED, "_legal": SHARED},
    )

    def _check_consistency(self) -> None:
        check(self)

    # -- views ---------------------------------------------------------------------------------
    def sample_consistent(self, viewer: int, rng: Rng) -> UltraWarState:
        """For search: the other side's hand re-drawn from its hand and deck (keeping the hand's
        size), both decks reshuffled (nobody knows a deck's order), future dice re-seeded."""
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        foe = 1 - viewer
        pool = sorted(self.hands[foe] + self.decks[foe])  # sorted: the draw depends on what, not where
        pool = rng.shuffled(pool)
        size = len(self.hands[foe])
        other.hands[foe], other.decks[foe] = pool[:size], pool[size:]
        other.decks[viewer] = rng.shuffled(sorted(self.decks[viewer]))
        other._mask = None
        return other

    def observation(self, player: int) -> np.ndarray:
        return self.last_view.observe(self, player)

    def _action_to_string(self, action: int) -> str:
        return own_words(self, action)

    def _narrate(self, action: int) -> str:
        return narration(self, action)

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.ultra_war.text import render

        return render(self, viewer)
