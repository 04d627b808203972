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

if TYPE_CHECKING:
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
        """Computed with the memo open (nothing moves meanwhile): what is read over and over - who stands
        where, the pools, feat targets... - is computed once."""
        with self.memo:
            return self._legal_now()

    def _legal_now(self) -> list[int]:
        """In any order (legal_action_mask sorts)."""
        p = self.phase
        seat = self.current_player
        rel = ORIENT[seat]
        out: list[int] = []
        if p == OVER:
            return out
        if p == SETUP and self.choosing:  # the roll's winner: go first, or second
            return [A.SELECT, A.SELECT + 1]
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
            if stepping and self.can_charge(u):
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

