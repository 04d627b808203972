"""The legal set (docs/games/ultra_war.md, Actions): what each phase offers, each option with a legal
completion so the mask is exact; tests/ultra_war/reference.py checks steps and attacks against an
independent model."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.geometry import FIELDS, ORIENT
from ultimata.envs.ultra_war.phases import (
    ACTIVE,
    CARD_TARGET,
    DEVIATE,
    DISCARD,
    DRAFT,
    FEAT_TARGET,
    MAIN,
    OVER,
    PAUSE,
    QUICK,
    SETUP,
)
from ultimata.envs.ultra_war.units import Source, Unit

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
else:
    _Base = object

FACES = [A.FACE + d for d in range(8)]
PAUSE_END = [A.PAUSE, A.END_ACT]
END_ONLY = [A.END_ACT]


class LegalRules(_Base):
    """The legal set, a part of UltraWarState (state.py says how the rule modules are composed)."""

    def legal_action_mask(self) -> np.ndarray:
        """As the engine's, keeping the list too: legal_actions() sorts it when asked (the AEC loop and apply
        read only the mask) and needs no scan of the mask."""
        if self._mask is None:
            raw = self._legal_actions()
            mask = bytearray(A.NUM_ACTIONS)  # (set byte by byte: cheaper than numpy's list indexing)
            for a in raw:
                mask[a] = 1
            self._mask = np.frombuffer(mask, dtype=np.int8)
            self._raw, self._legal = raw, None
        return self._mask

    def legal_actions(self) -> list[int]:
        self.legal_action_mask()
        if self._legal is None:
            self._legal = sorted(set(self._raw))
        return list(self._legal)

    def _legal_actions(self) -> list[int]:
        """Computed with lookups (who stands where, pools, feat targets...) kept for this one call and
        dropped after it."""
        self._look = Lookups(self)
        try:
            return self._legal_now()
        finally:
            self._look = None

    def _legal_now(self) -> list[int]:
        """In any order (legal_action_mask sorts)."""
        p = self.phase
        seat = self.current_player
        rel = ORIENT[seat]
        out: list[int] = []
        if p == OVER:
            return out
        if p in (SETUP, MAIN):
            if p == MAIN:
                out += [A.SELECT + u.slot for u in self.units if u.side == seat and self.can_activate(u)]
                out += self._own_turn_abilities(seat)
            out += self._playable_cards(seat)
            out.append(A.END_TURN)
        elif p == ACTIVE:
            u = self.units[self.active]
            stepping = self.step_targets(u)
            out += [A.STEP + rel[f] for f in stepping]
            if self.over_another(u):
                return out
            if self.can_attack(u):
                for slot in range(A.ATTACK_SLOTS):
                    targets = self.attack_targets(u, slot)
                    if targets:
                        base = A.ATTACK + slot * FIELDS
                        out += [base + rel[f] for f in targets]
            out += [A.TARGET + rel[f] for f in self.breach_targets(u) + self.give_targets(u, self.active)]
            if u.steps == 0 and not u.charging and u.attacks_made == 0 and stepping:
                out.append(A.CHARGE)
            if self.can_fly(u) and not u.turned and not u.disabled and not u.flew and (
                    u.flying or u.attacks_made == 0):
                out.append(A.FLY)
            out += [A.DROP + k for k, part in enumerate(A.GEAR) if getattr(u, part)
                    and not (part == "standard" and u.flying and self.card(seat, u.standard).flight)]
            if not u.turned:
                out += FACES
            out += END_ONLY if u.paused else PAUSE_END
        elif p == PAUSE:  # the activation paused: what the main phase offers besides activations
            out += self._own_turn_abilities(seat)
            u = self.units[self.active]
            if self.free_after_attacking(u):  # the movement event (book: Player Turns)
                out += self._playable_cards(seat)
            out.append(A.PASS)
        elif p == CARD_TARGET:
            name = self.hands[seat][self.pending]
            out += [A.TARGET + rel[f] for f in self.card_targets(seat, self.card(seat, name), name)]
        elif p == FEAT_TARGET:
            u = self.units[self.performer]
            c = self.card(seat, self.hands[seat][self.pending])
            out += [A.TARGET + rel[f] for f in self.feat_targets(u, c)]
        elif p == QUICK:
            out += self._playable_cards(seat)
            out += [A.USE + rel[f] for f in self.use_targets(seat, self.window_victims())]
            out.append(A.PASS)
        elif p == DISCARD:
            out += [A.DISCARD + h for h in range(len(self.hands[seat]))]
        elif p == DEVIATE:
            ui, slot, f, _ = self.attack
            out += [A.ATTACK + slot * FIELDS + rel[g] for g in self.deviate_targets(self.units[ui], slot, f)]
            out.append(A.PASS)
        elif p == DRAFT:
            out += [A.SELECT + s for s in self.draftable(seat)]
            if self.draft_done_ok(seat):
                out.append(A.END_TURN)
        return out

    def _playable_cards(self, seat: int) -> list[int]:
        verdict: dict[str, bool] = {}  # copies of a card share their verdict
        out = []
        for h, name in enumerate(self.hands[seat]):
            if name not in verdict:
                verdict[name] = self.playable(seat, h)
            if verdict[name]:
                out.append(A.PLAY + h)
        return out

    def _own_turn_abilities(self, seat: int) -> list[int]:
        """A source's own ability and reserve transfers, at any time of the own turn (main phase or an
        activation)."""
        rel = ORIENT[seat]
        return [A.USE + rel[f] for f in self.use_targets(seat, None)] + \
            [A.TRANSFER + rel[f] for f in self.transfer_targets(seat)]


class Lookups:
    """What one legal-action computation reads over and over, each part built when first asked for
    (nothing moves while legal actions are computed)."""

    __slots__ = ("state", "_occupied", "_units", "_tokens", "pools", "foes", "closest", "feat_targets", "_usable",
                 "_mine", "openings", "_marks")

    def __init__(self, state: UltraWarState) -> None:
        self.state = state
        self._occupied: dict[int, bool] | None = None
        self._units: dict[int, Unit] | None = None
        self._tokens: dict[int, Source] | None = None
        self.pools: list[int] | None = None
        self.foes: dict[int, list[Unit]] = {}
        self.closest: dict[int, int] = {}
        self.feat_targets: dict[tuple[int, int, int], list[int]] = {}
        self._usable: list[Source] | None = None
        self._mine: dict[int, list[Unit]] = {}
        self.openings: dict[tuple[int, str], bool] = {}
        self._marks: dict[int, list[int]] = {}

    def marks(self, side: int) -> list[int]:
        """state.marks(side)."""
        if side not in self._marks:
            self._marks[side] = self.state.marks(side)
        return self._marks[side]

    def usable(self) -> list[Source]:
        if self._usable is None:
            self._usable = self.state.usable_sources()
        return self._usable

    def mine(self, side: int) -> list[Unit]:
        """state.able(side)."""
        if side not in self._mine:
            self._mine[side] = self.state.able(side)
        return self._mine[side]

    def occupied(self) -> dict[int, bool]:
        if self._occupied is None:
            self._occupied = self.state.occupied_map()
        return self._occupied

    def units(self) -> dict[int, Unit]:
        """unit_at for every field: the first character listed there, a passing flyer only if alone."""
        if self._units is None:
            st = self.state
            act = st.units[st.active] if st.active >= 0 else None
            self._units = {u.pos: u for u in reversed(st.units) if u is not act and u.pos >= 0}
            if act is not None and act.pos >= 0 and act.pos not in self._units:
                self._units[act.pos] = act
        return self._units

    def tokens(self) -> dict[int, Source]:
        """token_at for every field."""
        if self._tokens is None:
            self._tokens = {s.pos: s for s in reversed(self.state.sources) if s.token and s.life > 0}
        return self._tokens
