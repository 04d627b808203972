"""Quick windows (book: Enhancement Cards: "Quick Enhancements can be played at any time. If more than one
Quick Enhancement is played at the same time ... the last Quick Enhancement is played first"; "Any ability
that a Character can play by paying a cost ... [is] played at Quick Enhancement speed").

A window opens on a trigger - a declared attack, a free strike, a deviated attack, a feat - and hands the
decision back and forth: first to the side that did not declare it, then to the other, skipping a side with
nothing that fits; two passes in a row (a side with nothing to play passes by itself) close it. Played
cards and source abilities go on a stack that resolves last-played-first, then the trigger resolves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.phases import ACTIVE, QUICK

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.content import Card
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
    from ultimata.envs.ultra_war.units import Source, Unit
else:
    _Base = object

ATTACK, FREE_STRIKE, FEAT, DEVIATED = range(4)
"""What opened the window (the fourth entry of `state.attack`)."""


class WindowRules(_Base):
    """Quick windows and their stack, a part of UltraWarState (state.py says how the rule modules are
    composed)."""

    _last_mode = ATTACK
    """The mode of the last window that closed, read within the same decision (not saved)."""

    # -- opening and handing on ----------------------------------------------------------------
    def _open_window(self, ui: int, slot: int, f: int, mode: int, stack: list[list[Any]] | None = None) -> bool:
        """Open a window on a trigger; True while it waits for a decision, False once it closed at once
        (nobody had anything that fits) and the trigger resolved."""
        self.attack = [ui, slot, f, mode]
        self.stack = [] if stack is None else stack
        self.phase = QUICK
        self.responder, self.passes = self.units[ui].side, 0
        return self._hand_on()

    def _hand_on(self) -> bool:
        """After `responder` played (passes 0) or passed: the other side answers if it can, else the same side
        again if it can; two passes in a row close the window. True while it waits."""
        side = self.responder
        while self.passes < 2:
            side = 1 - side
            if self.can_answer(side):
                self.responder = side
                return True
            self.passes += 1
        self._close_window()
        return False

    def can_answer(self, side: int) -> bool:
        hand = self.hands[side]
        seen: set[str] = set()
        for h, name in enumerate(hand):
            if name not in seen:
                seen.add(name)
                if self.playable(side, h):
                    return True
        return bool(self.use_targets(side, self.window_victims()))

    def window_victims(self) -> list[Unit]:
        """The characters the window's trigger attacks (or the feat's target)."""
        ui, slot, f, mode = self.attack
        if mode == FEAT:
            target = self.unit_at(f)
            return [target] if target is not None else []
        u = self.units[ui]
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if mode == ATTACK:
            out = [x for g in self.attacked_fields(u, spec, f) if (x := self.unit_at(g)) is not None]
            return out
        target = self.unit_at(f)
        return [target] if target is not None else []

    def quick_fits(self, side: int, c: Card) -> bool:
        """A quick card fits the window: a cancel the card (or ability) below it if that is the other side's;
        a defence card a window where one of the side's characters is attacked; an offence card the
        attacking side's."""
        if c.cancel:
            return bool(self.stack) and self.stack[-1][0] != side
        mode = self.attack[3]
        if mode == FEAT:
            return False
        if c.defense:
            return any(v.side == side for v in self.window_victims())
        return side == self.units[self.attack[0]].side

    # -- answers -------------------------------------------------------------------------------
    def _window_play(self, side: int, name: str) -> bool:
        self.stack.append([side, name, -1])
        self.log(f"player_{side} plays {name}")
        return self._answered(side)

    def _window_use(self, side: int, s: Source) -> bool:
        a = s.spec.ability
        assert a is not None
        s.points -= a.cost
        self.stack.append([side, "", self.sources.index(s)])
        self.log(f"player_{side} uses {s.name}'s {a.name}")
        return self._answered(side)

    def _answered(self, side: int) -> bool:
        self.responder, self.passes = side, 0
        return self._hand_on()

    def _window_pass(self) -> bool:
        self.passes += 1
        return self._hand_on()

    # -- closing -------------------------------------------------------------------------------
    def _close_window(self) -> None:
        """Resolve the stack last-played-first (a cancel cancels the item below it), then the trigger."""
        mode = self.attack[3]
        victims = self.window_victims()
        att_bonus, def_bonus = 0, {}
        cancel = False
        feat = ""
        for i in range(len(self.stack) - 1, -1, -1):
            side, name, src = self.stack[i]
            if cancel:
                cancel = False
                self.log(f"{name or self.sources[src].name} is cancelled")
                continue
            if mode == FEAT and i == 0:
                feat = name  # the feat itself resolves as the trigger
                continue
            if src >= 0:
                s = self.sources[src]
                a = s.spec.ability
                assert a is not None
                if a.defense:
                    for v in self.guarded(s, victims):
                        k = self.units.index(v)
                        def_bonus[k] = def_bonus.get(k, 0) + a.defense
                else:
                    self._apply_source_ability(s)
                continue
            c = self.card(side, name)
            if c.cancel:
                cancel = True
                continue
            att_bonus += c.offense
            for v in victims:
                if v.side == side and c.defense:
                    k = self.units.index(v)
                    def_bonus[k] = def_bonus.get(k, 0) + c.defense
        self.stack, self.responder, self.passes = [], -1, 0
        self._resolve_trigger(mode, feat, att_bonus, def_bonus)

    def _resolve_trigger(self, mode: int, feat: str, att_bonus: int, def_bonus: dict[int, int]) -> None:
        """What a closed window was about, with the stack's bonuses (def_bonus: unit -> defence)."""
        ui, slot, f, _ = self.attack
        self.attack = []
        self._last_mode = mode
        if mode == FEAT:
            self.phase = self._saved_phase
            side = self.units[ui].side
            target = self.unit_at(f)
            if feat and target is not None:
                self.resolve_feat(self.units[ui], self.card(side, feat), feat, target)
            return
        self.phase = ACTIVE
        u = self.units[ui]
        spec = combat.attack_spec(u, slot)
        assert spec is not None
        if mode == FREE_STRIKE:
            target = self.unit_at(f)
            self.roll_attack(u, spec, slot, f, free_strike=True, att_bonus=att_bonus,
                             def_bonus=def_bonus.get(self.units.index(target), 0) if target else 0)
            self.spend_kamikaze(u, spec)
        elif mode == DEVIATED:
            target = self.unit_at(f)
            self.roll_attack(u, spec, slot, f, att_bonus=att_bonus,
                             def_bonus=def_bonus.get(self.units.index(target), 0) if target else 0)
            self.spend_kamikaze(u, spec)
            self._after_attack(u)
        else:
            self._resolve_attack(u, slot, f, att_bonus, def_bonus)

    def _after_window(self) -> None:
        """A window closed by a decision: after a free strike's, the move goes on (the next strike, or what
        follows the move)."""
        if self._last_mode == FREE_STRIKE and self.phase == ACTIVE:
            self._run_strikes()
