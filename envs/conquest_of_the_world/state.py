"""Conquest of the World's state: the fields of a position, the engine contract's hooks (whose decision,
the legal set, the results, the text, the observation), the action dispatch and saving. Records are kept in
half spaces (ints), chips in PBU (multiples of 100). Rule numbers are the book's.

The rules are composed in the one style of every wargame, written out in envs/ultra_war/state.py's
docstring: a module per rule concept, each holding one mixin class `<Concept>Rules` without fields or
`__init__` - turns.py (the set-up and the attack option), holdings.py (countries and chips), wars.py (wars
and battles), diplomacy.py (player alliances), endgame.py (the end of play) - and `ConquestState` is those
mixins plus the engine's `State`. What is one computation rather than a rule of the position stays plain
functions and data: the board, the battle model, the observation."""

from __future__ import annotations

from typing import Any

import numpy as np

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.combat import SPENDS, WEAPONS
from ultimata.envs.conquest_of_the_world.consistency import CHOICES, check
from ultimata.envs.conquest_of_the_world.diplomacy import DiplomacyRules
from ultimata.envs.conquest_of_the_world.endgame import EndGameRules
from ultimata.envs.conquest_of_the_world.holdings import HoldingRules
from ultimata.envs.conquest_of_the_world.observation import LastView, observe
from ultimata.envs.conquest_of_the_world.phases import DIPLOMACY, HOMELAND, OVER, RESPOND, TURN, WEAPON, ZONE_ALLY
from ultimata.envs.conquest_of_the_world.terms import ALLY, DUEL, LADDER, NONE, PLAY, WAR
from ultimata.envs.conquest_of_the_world.turns import TurnRules
from ultimata.envs.conquest_of_the_world.wars import WarRules
from ultimata.envs.conquest_of_the_world.words import move_words
from ultimata.envs.core.engine import State
from ultimata.envs.core.fields import COPIED, SEAT, SHARED, TABLE, Bool, Fields, Fresh, Int, ListOf, Str
from ultimata.envs.core.rng import Rng

BOARD = board()
_WEAPON_ACTIONS = tuple(tuple(A.weapon_action(w, s) for s in range(len(SPENDS))) for w in range(len(WEAPONS)))


def _weapon_masks() -> tuple[np.ndarray, ...]:
    """The mask of a weapon choice for each set of barred weapons (a bitmask): read-only and shared,
    since a choice is most of a game's decisions."""
    masks = []
    for barred in range(1 << len(WEAPONS)):
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask[[a for w in range(len(WEAPONS)) if not barred >> w & 1 for a in _WEAPON_ACTIONS[w]]] = 1
        mask.setflags(write=False)
        masks.append(mask)
    return tuple(masks)


_WEAPON_MASKS = _weapon_masks()
_WEAPON_LEGAL = tuple(tuple(np.flatnonzero(mask).tolist()) for mask in _WEAPON_MASKS)


_SEATS = ListOf(Int(0, SEAT), distinct=True)
"""Seats in an order the rules keep (a queue, the eliminated), each at most once."""
_PAIRS = ListOf(ListOf(Bool(), size=TABLE), size=TABLE)
"""A flag for every pair of seats (alliances)."""


class ConquestState(TurnRules, HoldingRules, WarRules, DiplomacyRules, EndGameRules, State):
    last_event_per_move = True

    def __init__(self, game: Any, rng: Rng) -> None:
        super().__init__(game, rng)
        cfg = game.config
        n = self.n = cfg.num_players
        self.cfg = cfg
        self.phase = HOMELAND
        self.stage = PLAY
        self.first = rng.below(n)  # rule 2: the number game becomes a seeded draw
        self.chooser = 0
        self.holder = [-1] * BOARD.size
        self.kind = [NONE] * BOARD.size
        self.homeland = [-1] * n
        self.record = [0] * n
        self.chips = [0] * n
        self.alive = [True] * n
        self.eliminated: list[int] = []
        self.allied = [[False] * n for _ in range(n)]
        self.broken = [[False] * n for _ in range(n)]
        self.proposed = [[False] * n for _ in range(n)]
        self.zone_paid = [[False] * len(BOARD.zone_members) for _ in range(n)]
        self.option = -1
        self.buys = 0
        self.defender_ptr = -1
        self.turn = 0
        self.window = -1
        self.round_left: list[int] = []
        self.proposal = [-1, -1]
        self.answers: list[int] = []
        self.final_left: list[int] = []
        self.ladder: list[int] = []
        self.challenger = -1
        self.target_winner = -1
        self.mode = WAR
        self.target = -1
        self.fighters = [-1, -1]
        self.energy = [0, 0]
        self.wins = [0, 0]
        self.battles = 0
        self.barred = [0, 0]
        self.choosing = 0
        self.pending = -1
        self.last_battle = [-1, -1, -1, -1, 0]
        """The last battle fought, as everyone saw it: its two directors, their choices, wooded (0/1)."""
        self.move_events: list[str] = []
        """What the latest move made happen, in order (`State.last_event_per_move`); not saved."""
        self.events: list[str] = [f"player_{self.first} won the draw and chooses a homeland first"]
        self.last_view = LastView()
        """The observation's, not the rules': what its seldom-changing parts were built from."""

    # -- whose decision ----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == TURN:
            return self.option
        if phase == WEAPON:
            return self.director(self.choosing)
        if phase <= ZONE_ALLY:
            return (self.first + self.chooser) % self.n
        if phase == DIPLOMACY:
            return self.window
        if phase == RESPOND:
            return self.answers[0]
        return -1

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # -- legal actions -----------------------------------------------------------------------
    def legal_action_mask(self) -> np.ndarray:
        """The engine's cached mask, with the weapon choices' shared read-only masks."""
        mask = self._mask
        if mask is None:
            if self.phase == WEAPON:
                mask = _WEAPON_MASKS[self.barred[self.choosing]]
            else:
                mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
                mask[self._legal_actions()] = 1
            self._mask = mask
        return mask

    def legal_actions(self) -> list[int]:
        if self.phase == WEAPON:
            return list(_WEAPON_LEGAL[self.barred[self.choosing]])
        return super().legal_actions()

    def _legal_actions(self) -> list[int]:
        phase, p = self.phase, self.current_player
        if phase == WEAPON:
            return list(_WEAPON_LEGAL[self.barred[self.choosing]])
        if phase == TURN:
            out = [A.BUY + c for c in self.buyable(p)]
            out += [A.ATTACK + c for c in self.attackable(p)]
            out.append(A.DONE)
            return out
        if phase == DIPLOMACY:
            return self.diplomacy_actions(p)
        if phase == RESPOND:
            return [A.ACCEPT, A.DECLINE]
        if phase == HOMELAND:
            taken = {BOARD.zone[h] for h in self.homeland if h >= 0}
            return [A.PICK + c for c in range(BOARD.size) if self.holder[c] < 0
                    and not (self.cfg.one_homeland_per_zone and BOARD.zone[c] in taken)]
        if phase == ZONE_ALLY:
            room = self.zone_capacity_left(p)
            zone = BOARD.zone_members[BOARD.zone[self.homeland[p]]]
            return [A.PICK + c for c in zone if self.holder[c] < 0 and BOARD.value[c] <= room] + [A.DONE]
        return []

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self.move_events = []
        phase, p = self.phase, self.current_player
        if phase == WEAPON:
            self._choose_weapon(action - A.WEAPON)
        elif phase == TURN:
            self._turn_action(p, action)
        elif phase == DIPLOMACY:
            self._diplomacy_action(p, action)
        elif phase == RESPOND:
            self._respond(p, action == A.ACCEPT)
        elif phase == HOMELAND:
            self._choose_homeland(p, action - A.PICK)
        elif action == A.DONE:
            self._next_zone_chooser()
        else:
            self._zone_ally(p, action - A.PICK)

    def _log(self, text: str) -> None:
        """A sentence for the event log; the move under way tells it too (`move_events`)."""
        self.events.append(text)
        self.move_events.append(text)

    # -- results -----------------------------------------------------------------------------
    def standing(self) -> list[tuple]:
        """Sort key per seat, higher is better: the target winner, then survivors by record, then the
        eliminated by how long they lasted."""
        keys = []
        for q in range(self.n):
            if q == self.target_winner:
                keys.append((2, 0, 0))
            elif self.alive[q]:
                keys.append((1, self.record[q], 0))
            else:
                keys.append((0, 0, self.eliminated.index(q)))
        return keys

    def potentials(self) -> list[float]:
        """Ours, for shaping and depth-cut search: what rule 20C would put on each record now (the record
        in half spaces plus one per 500 chips), relative to the table mean, in units of 10 PBU (20 half
        spaces). Zero-sum; an eliminated player counts 0."""
        values = [self.record[q] + self.chips[q] / 500 if self.alive[q] else 0.0 for q in range(self.n)]
        mean = sum(values) / self.n
        return [(v - mean) / 20 for v in values]

    def returns(self) -> list[float]:
        """Zero-sum by rank: first +1, last -1, evenly spaced; tied seats share their places' mean."""
        if self.phase != OVER:
            return [0.0] * self.n
        keys = self.standing()
        order = sorted(range(self.n), key=lambda q: keys[q], reverse=True)
        scores = [1.0 - 2.0 * i / (self.n - 1) for i in range(self.n)]
        out = [0.0] * self.n
        i = 0
        while i < self.n:
            j = i
            while j + 1 < self.n and keys[order[j + 1]] == keys[order[i]]:
                j += 1
            mean = sum(scores[i:j + 1]) / (j - i + 1)
            for k in range(i, j + 1):
                out[order[k]] = mean
            i = j + 1
        return out

    # -- text --------------------------------------------------------------------------------
    def _action_to_string(self, action: int) -> str:
        return move_words(self, action)[0]

    def hidden_choice_pending(self) -> bool:
        return self.phase == WEAPON and self.pending >= 0

    def _narrate(self, action: int) -> str:
        """A battle's first weapon choice is hidden until the battle resolves, so the table hears only
        that one was made; the battle's event then names both choices."""
        if self.phase == WEAPON and self.pending < 0:
            return f"player_{self.current_player} chooses a weapon"
        return move_words(self, action)[1]

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.conquest_of_the_world.text import render

        return render(self, viewer)

    def observation(self, player: int) -> np.ndarray:
        return observe(self, player)

    def sample_consistent(self, viewer: int, rng: Rng) -> ConquestState:
        """Everything is public except a pending first weapon choice: redraw it unless the viewer made it."""
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        first = self.battles % 2 if self.mode == DUEL else 0
        if self.pending >= 0 and self.director(first) != viewer:
            open_ = [w for w in range(len(WEAPONS)) if self.weapon_open(first, w)]
            other.pending = open_[rng.below(len(open_))] * len(SPENDS) + rng.below(len(SPENDS))
        return other

    # -- saving ------------------------------------------------------------------------------
    FIELDS = Fields(
        phase=Int(0, OVER), stage=Int(0, LADDER), first=Int(0, SEAT), chooser=Int(0, TABLE),
        holder=ListOf(Int(-1, SEAT), size=BOARD.size), kind=ListOf(Int(NONE, ALLY), size=BOARD.size),
        homeland=ListOf(Int(-1, BOARD.size - 1), size=TABLE), record=ListOf(Int(0, 10_000), size=TABLE),
        chips=ListOf(Int(0, 10**9), size=TABLE), alive=ListOf(Bool(), size=TABLE), eliminated=_SEATS,
        allied=_PAIRS, broken=_PAIRS, proposed=_PAIRS,
        zone_paid=ListOf(ListOf(Bool(), size=len(BOARD.zone_members)), size=TABLE),
        option=Int(-1, SEAT), buys=Int(0, 10**6), defender_ptr=Int(-1, SEAT),
        turn=Int(0, lambda s: s.cfg.max_turns + s.n), window=Int(-1, SEAT), round_left=_SEATS,
        proposal=ListOf(Int(-1, SEAT), size=2), answers=_SEATS, final_left=_SEATS, ladder=_SEATS,
        challenger=Int(-1, SEAT), target_winner=Int(-1, SEAT), mode=Int(0, DUEL), target=Int(-1, BOARD.size - 1),
        fighters=ListOf(Int(-1, SEAT), size=2), energy=ListOf(Int(0, 10**7), size=2),
        wins=ListOf(Int(0, 1), size=2), battles=Int(0, 10**6), barred=ListOf(Int(0, 6), size=2),
        choosing=Int(0, 1), pending=Int(-1, CHOICES - 1),
        last_battle=ListOf(Int(-1, lambda s: max(s.n - 1, CHOICES - 1)), size=5), events=ListOf(Str()),
        kept={"n": SHARED, "cfg": SHARED, "move_events": COPIED, "last_view": Fresh(LastView)},
    )

    def _check_consistency(self) -> None:
        check(self)

