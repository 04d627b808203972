"""The turn sequence (book: The Game Setup, Player Turns, Victory Conditions): set-up and deployment, a
turn's start (its power and draw events, and the start-of-turn abilities), activations starting and ending,
the discard event, the round's end with its hold points and round cap, and victory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.abilities import MINION_HUB, RECHARGE, REGENERATE, RELOAD
from ultimata.envs.ultra_war.content import HAND_SLOTS
from ultimata.envs.ultra_war.geometry import chebyshev
from ultimata.envs.ultra_war.phases import ACTIVE, DISCARD, DRAFT, MAIN, OVER, PAUSE
from ultimata.envs.ultra_war.units import Source, Unit

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState as _Base
else:
    _Base = object


class TurnRules(_Base):
    """The turn sequence, a part of UltraWarState (state.py says how the rule modules are composed)."""

    def _setup(self) -> None:
        """Book: The Game Setup, steps 1-7, up to the card payments of step 5 (decisions, ended by
        `_finish_setup`); with `army: draft`, the draft comes first (draft.py)."""
        sc, cfg = self.game.scenario, self.game.config
        draft = cfg.army == "draft"
        for side in (0, 1):
            if not draft:
                self._deploy(side, sc.armies[side])
            deck = [name for name, card in self.game.content.decks[sc.factions[side]].items()
                    for _ in range(card.count)]
            self.decks[side] = self.rng.shuffled(deck)
            self.hands[side] = [self.decks[side].pop() for _ in range(cfg.hand_limit)]
        if sc.prisoner and not draft:
            self._add_prisoner()
        if cfg.first_player == "roll":  # "the winner decides who goes first": its first decision (_choose_first)
            while True:
                a, b = self.rng.roll(6), self.rng.roll(6)
                if a != b:
                    break
            self.first, self.choosing = (0 if a > b else 1), True
            self.log(f"player_{self.first} wins the roll ({max(a, b)} against {min(a, b)}) and decides who goes first")
        else:
            self.first = int(cfg.first_player[-1])
        self.setup_side = self.first
        if draft:
            self.phase, self.setup_side = DRAFT, 0

    def _choose_first(self, side: int, second: bool) -> None:
        """The roll's winner goes first (SELECT 0) or second (SELECT 1); the opening-hand step follows, the
        side to go first paying first."""
        self.first, self.choosing = (1 - side if second else side), False
        self.setup_side = self.first
        self.log(f"player_{side} chooses to go {'second' if second else 'first'}")

    def start_spaces(self, side: int) -> list[int]:
        """The side's start spaces, nearest the map centre first (the game's)."""
        return self.game.board.start_spaces[side]

    def _deploy(self, side: int, army: list[str]) -> None:
        """Steps 3-4: the army's pawns on its start spaces (the ones nearest the centre, facing the enemy's
        end), then its power sources."""
        for name in army:
            self._place_new(side, name)
        self._add_sources(side)

    def _place_new(self, side: int, name: str) -> None:
        u = Unit(name, side, len(self.side_units(side)))
        u.pos, u.facing = self.start_spaces(side)[u.slot], 0 if side == 0 else 4
        self.units.append(u)

    def _add_sources(self, side: int) -> None:
        """Gap (ours): crystals go to the first characters of the army; tokens on the start spaces farthest
        from the centre. Each starts empty (book), or with the scenario's `power_start` points (`power_start:
        scenario`, v4's reading)."""
        sc = self.game.scenario
        start = sc.power_start if self.game.config.power_start == "scenario" else 0
        name = self.game.content.factions[sc.factions[side]].power
        mine = self.side_units(side)
        for k in range(sc.power_sources):
            src = Source(side, name, start)
            if src.token:
                src.pos = self.start_spaces(side)[-1 - k]
            else:
                src.bearer = self.units.index(mine[k % len(mine)])
            self.sources.append(src)

    def _add_prisoner(self) -> None:
        sc = self.game.scenario
        assert sc.prisoner is not None
        p = Unit(sc.prisoner, 0, len(self.side_units(0)))
        p.pos, p.facing, p.imprisoned, p.turned = self.board.prison, 4, True, True
        self.units.append(p)

    def _finish_setup(self, side: int) -> None:
        """Book step 5: after paying for opening-hand cards, draw back up to 5."""
        while len(self.hands[side]) < self.game.config.hand_limit and self.decks[side]:
            self.hands[side].append(self.decks[side].pop())
        if side == self.first:
            self.setup_side = 1 - side
        else:
            self.turn = self.first
            self._start_turn()

    def _start_turn(self) -> None:
        """Book: Player Turns 1-2 (power event, draw event), after the start-of-turn abilities."""
        side = self.turn
        self.phase = MAIN
        for u in self.units:  # a stun counts down at both players' turn starts: "one full round"
            if u.stun:
                u.stun -= 1
                if not u.stun and u.side != side and not u.disabled and not u.imprisoned:
                    u.turned = False  # (its own side's characters un-turn below)
        for u in self.side_units(side):
            if u.void and u.life > 0:
                u.void -= 1
                if not u.void:
                    self._return_from_void(u)
            if not u.on_map:
                continue
            u.acted = False
            u.steps, u.backward, u.charging, u.attacks_made = 0, False, 0, 0
            u.flew = u.paused = False
            if u.stasis:
                u.stasis -= 1
            if u.deprived:
                u.deprived -= 1
            if not u.disabled and not u.imprisoned:
                u.turned = False
            u.flying = self.can_fly(u) and not u.landed
            u.ethereal_off = False
            if (u.disarmed or u.disarmed2) and not any(e.side != side and e.pos >= 0 and chebyshev(e.pos, u.pos) == 1
                                                        for e in self.units):
                if u.disarmed:  # disengaged: the weapons come back
                    u.weapon, u.disarmed = u.disarmed, ""
                if u.disarmed2:
                    u.weapon2, u.disarmed2 = u.disarmed2, ""
            if u.burning:
                u.burning = False
                self.damage(u, combat.fire_damage(self.rng.roll(6)), "burning (a Fire Attack last turn)")
                if self.phase == OVER:
                    return
                if not u.on_map:
                    continue
            regen = u.param(REGENERATE) + (self.card(side, u.standard).regenerate if u.standard else 0)
            u.life = min(u.ch.life, u.life + regen)
            for ability, keys in ((RECHARGE, ("electrical", "fuel", "alien")), (RELOAD, ("ammunition",))):
                if not u.has(ability):
                    continue
                for k in keys:
                    if k in u.ch.reserves:
                        u.reserves[k] = min(u.ch.reserves[k], u.reserves[k] + u.param(ability))
                        break
            self._legacy(u)
            if u.is_droid:
                if not self.controlled(u):
                    u.powered_down, u.turned = True, True
                elif u.powered_down and self.rng.roll(6) >= 4:
                    u.powered_down, u.turned = False, u.stun > 0
        for s in self.sources:
            if s.side == side and self.source_usable(s):
                s.points = min(s.max, s.points + 1)
        if self.decks[side] and len(self.hands[side]) < HAND_SLOTS:
            self.hands[side].append(self.decks[side].pop())

    def _return_from_void(self, u: Unit) -> None:
        """Back from the Void on the space it left, or the nearest free one (gap, ours)."""
        u.pos = self.nearest_free(u.void_from)
        u.void_from = -1
        self.log(f"{u.name} returns from the Void")

    def controlled(self, u: Unit) -> bool:
        """A robot droid is online only within range of a Minion Hub (every General; tripod tokens)."""
        for o in self.units:
            if o.side == u.side and o.on_map and not o.imprisoned and o is not u:
                hub = o.param(MINION_HUB) or (5 if o.ch.rank == "General" else 0)
                if hub and chebyshev(o.pos, u.pos) <= hub:
                    return True
        return any(s.side == u.side and s.kind == "tripod" and s.pos >= 0 and s.life > 0
                   and chebyshev(s.pos, u.pos) <= s.range for s in self.sources)

    def _lose_control(self) -> bool:
        """Minion Hub: "If Minions move outside this range, they become unusable": after every decision, a
        robot droid out of every hub's range powers down at once (its own step, its hub's step, a hub
        defeated or a tripod destroyed); an active droid's activation ends. True if one did."""
        lost = False
        for u in self.units:
            if u.is_droid and u.on_map and not u.powered_down and not u.imprisoned and not self.controlled(u):
                u.powered_down, u.turned, lost = True, True, True
                self.log(f"{u.name} is out of control range and powers down")
        if self.phase in (ACTIVE, PAUSE) and self.units[self.active].powered_down:  # (also once a window
            self._end_activation(self.units[self.active])  # that opened on its step has closed)
            lost = True
        return lost

    def can_activate(self, u: Unit) -> bool:
        return not u.acted and not u.turned and u.on_map and not u.imprisoned and not u.disabled

    def _activate(self, side: int, slot: int) -> None:
        """SELECT: the character in army slot `slot` starts its activation (only the choice in progress
        changes)."""
        u = next(x for x in self.units if x.side == side and x.slot == slot)
        self.active = self.units.index(u)
        u.steps, u.backward, u.charging, u.attacks_made = 0, False, 0, 0
        u.flew = u.paused = False
        self.phase = ACTIVE

    def _pause(self, u: Unit) -> None:
        """PAUSE: the activation waits while its player plays cards, uses sources or transfers (book: the
        movement event); PASS resumes it. Only the choice in progress changes."""
        u.paused = True
        self.phase = PAUSE

    def _resume(self) -> None:
        """PASS in a pause: the activation goes on (only the choice in progress changes)."""
        self.phase = ACTIVE

    def _end_activation(self, u: Unit, facing: int | None = None) -> None:
        """END, or FACE `facing` and end; an activation also ends when nothing is left to it after an attack,
        and by a Breach. Besides the choice in progress, only the pawn's facing and flags change."""
        if facing is not None:
            u.facing = facing
        if not self.free_after_attacking(u):
            u.turned = True  # attacking turns the character (at the end, so Dual Attack / Multi-Shot can go on)
        if self.plain_charge(u):
            u.turned = True
        u.acted = True
        self.phase, self.active, self.disengaged = MAIN, -1, []

    def _end_turn(self) -> None:
        if len(self.hands[self.turn]) > self.game.config.hand_limit:
            self.phase = DISCARD
        else:
            self._next_turn()

    def _discard(self, side: int, h: int) -> None:
        """The discard event: one card at a time until the hand is down to the limit, then the turn passes."""
        self.hands[side].pop(h)
        self.discards[side] += 1
        if len(self.hands[side]) <= self.game.config.hand_limit:
            self._next_turn()

    def _next_turn(self) -> None:
        for u in self.side_units(self.turn):
            u.acted = False
        self.turn = 1 - self.turn
        if self.turn == self.first:
            self._end_round()
            if self.phase == OVER:
                return
            self.round += 1
        self._start_turn()

    def _end_round(self) -> None:
        sc = self.game.scenario
        if sc.objective == "hold":
            held = [sum(1 for u in self.side_units(s) if u.on_map and self.board.objective[u.pos]) for s in (0, 1)]
            if held[0] != held[1]:
                self.hold[0 if held[0] > held[1] else 1] += 1
            for s in (0, 1):
                if self.hold[s] >= sc.hold_points:
                    return self._finish(s)
        cap = self.game.config.rounds or sc.rounds
        if self.round >= cap:
            score = [(self.hold[s], self.harm_done(s)) for s in (0, 1)]
            self._finish(2 if score[0] == score[1] else 0 if score[0] > score[1] else 1)
        return None

    def harm_done(self, side: int) -> float:
        """Round-cap tiebreak (gap, ours): the enemy army's value destroyed, counting each character's
        value times the fraction of its life lost; fair between armies of different totals."""
        return round(sum(u.ch.value * (u.ch.life - u.life) / u.ch.life for u in self.side_units(1 - side)), 6)

    _victory_held = False
    """True while both dice of a double-six exchange are applied (attacks.roll_attack): the defeats they cause
    count together, decided once both stand; set only inside that call, never saved."""

    def _check_victory(self) -> None:
        """A side with no character left (on the board or in the Void) loses (ours: the book names no such
        rule; a side that cannot act can meet no objective); with `defeat_general`, one with no General left;
        with `rescue`, player_0 when the prisoner falls, player_1 when it escapes. Both at once: a draw."""
        if self.phase in (OVER, DRAFT) or self._victory_held:
            return
        sc = self.game.scenario
        lost = []
        for s in (0, 1):
            army = [u for u in self.side_units(s) if u.life > 0 and not u.imprisoned]
            gone = not army
            if sc.objective == "defeat_general":
                gone = gone or not any(u.ch.rank == "General" for u in army)
            lost.append(gone)
        if sc.objective == "rescue":
            prisoner = self.units[-1]
            if prisoner.life == 0:
                lost[0] = True
            elif prisoner.on_map and not prisoner.imprisoned and self.board.escape[prisoner.pos]:
                lost[1] = True
        if lost[0] or lost[1]:
            self._finish(2 if lost[0] and lost[1] else 1 if lost[0] else 0)

    def _finish(self, winner: int) -> None:
        self.winner, self.phase, self.active = winner, OVER, -1
        self.stack, self.attack, self.strikes, self.lift, self.disengaged = [], [], [], False, []
        self.responder, self.passes, self.pending, self.performer = -1, 0, -1, -1
        self.log("the game ends: " + ("a draw" if winner == 2 else f"player_{winner} wins"))
