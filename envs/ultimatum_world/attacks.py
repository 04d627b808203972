"""Attacks (book: each arm's Regulations and Attack and Defence Options): troop battles, naval battles, jet
bombers, lasers, Helicopter Commandos, and the defender's window before every roll. How each roll comes
out is in `combat.py`; what each decision offers is in `legal.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world import combat as C
from ultimata.envs.ultimatum_world.actions import BLOCKADES, NATIONS
from ultimata.envs.ultimatum_world.content import world
from ultimata.envs.ultimatum_world.phases import ACT, BATTLE, BUY, MOVE_IN, WINDOW

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState as _Base
else:
    _Base = object

W = world()
TROOPS_ATTACK, JET, LASER_SHOT, NAVAL = range(4)
ATTACK_KINDS = ("troop attack", "jet bomber", "laser", "naval attack")
"""Each kind of attack's name, by its number (`attack[0]`)."""
VESSEL = ("battleship", "submarine")


class AttackRules(_Base):
    """Attacks, a part of WorldState (state.py says how the rule modules are composed)."""

    # -- declaring ---------------------------------------------------------------------------
    def _declare(self, kind: int, target: int, source: int = -1) -> None:
        """Bank money is spent 'prior to the player making attacks', so an attack ends the purchases."""
        if self.phase == BUY:
            self.phase = ACT
        p = self.player
        self.attack = [kind, p, self.owner_of(target), target, source]
        self.laser_answered, self.blitz, self.aim, self.rolls = False, False, -1, 0
        what = {
            TROOPS_ATTACK: f"attacks {W.place_name(target)} from {W.place_name(source)}",
            JET: f"sends a jet bomber against {W.place_name(target)}",
            LASER_SHOT: f"fires a laser at {W.place_name(target)}",
            NAVAL: f"moves {self._force_text()} from {W.place_name(source)} against {W.place_name(target)}",
        }[kind]
        self._log(f"player_{p} {what} (held by player_{self.attack[2]})")
        if kind in (TROOPS_ATTACK, NAVAL):
            self.phase = BATTLE  # the attacker rolls (troops) or announces its first pair (navy)
        else:
            self._next_roll()

    def vessels_fighting(self, p: int) -> tuple[int, int]:
        """Player p's battleships and submarines in the naval battle under way (off the board meanwhile)."""
        naval = self.attack and self.attack[0] == NAVAL and self.attack[1] == p
        return (self.force[0], self.force[1]) if naval else (0, 0)

    def _force_text(self) -> str:
        return " and ".join(f"{c} {VESSEL[k]}(s)" for k, c in enumerate(self.force) if c) or "no vessel"

    # -- rolling, with the defender's window before every roll -------------------------------
    def _battle_decision(self, action: int) -> None:
        if action == A.STOP:
            self._log(f"player_{self.player} stops the attack on {W.place_name(self.attack[3])}")
            self._end_attack()
        elif action in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
            self.pending = [action]
        else:
            if action == A.BLITZ:
                self.blitz = True
            if self.attack[0] == NAVAL:
                self.aim = self._default_aim() if action == A.BLITZ else action - A.AIM
            self._next_roll()

    def _default_aim(self) -> int:
        """A naval blitz attacks with a submarine while it has one (its draw goes to the attacker), at a
        battleship while the defender has one."""
        t = self.attack[3] - NATIONS
        mine = A.SUBMARINE if self.force[A.SUBMARINE] else A.BATTLESHIP
        return 2 * mine + (A.BATTLESHIP if self.bs[t] else A.SUBMARINE)

    def _next_roll(self, window_done: bool = False) -> None:
        """Book: defence cards are used 'any time ... when under an opponent's attack', so before every
        roll the defender is asked first (`window_opens` says when). A blitz rolls on until decided."""
        while True:
            if not self._attack_goes_on():
                return
            if not window_done and self.window_opens():
                self.phase = WINDOW
                return
            window_done = False
            self._roll_once()
            if self.phase != BATTLE or not self.blitz:
                return
            if self.attack[0] == NAVAL:
                self.aim = self._default_aim()

    def _attack_goes_on(self) -> bool:
        """False (and the attack over, or back to the attacker) when the next roll cannot happen."""
        kind = self.attack[0]
        if kind == TROOPS_ATTACK and self.troops[self.attack[4]] < 3:
            self._log(f"player_{self.player} cannot go on attacking from {W.place_name(self.attack[4])}")
            self._end_attack()
            return False
        if kind == JET and not self.force[0]:
            self._end_attack()
            return False
        if kind == NAVAL:
            if not any(self.force):
                self._log(f"player_{self.attack[2]} holds off the naval attack on {W.place_name(self.attack[3])}")
                self._end_attack()
                return False
            if not self.force[self.aim // 2]:  # an ocean mine sank the last vessel of the announced kind
                if not self.blitz:
                    self.phase, self.aim = BATTLE, -1
                    return False
                self.aim = self._default_aim()
        return True

    def _close_window(self) -> None:
        self.phase = BATTLE
        self._next_roll(window_done=True)

    def _end_attack(self) -> None:
        self.phase, self.force, self.aim, self.blitz = ACT, [0, 0], -1, False

    def _roll_once(self) -> None:
        kind, p, q, target, source = self.attack
        self.rolls += 1
        if kind == TROOPS_ATTACK:
            a, d = C.roll(self.rng, self.rules.black), C.roll(self.rng, self.rules.black)
            lost_a, lost_d = C.troop_exchange(a, d)  # type: ignore[arg-type]
            self.troops[source] -= lost_a
            self.troops[target] -= lost_d
            self._log(
                f"black dice {a} vs {d}: {W.names[source]} {self.troops[source]}, "
                f"{W.names[target]} {self.troops[target]}"
            )
            if self.troops[target] == 0:
                self.phase = MOVE_IN
            elif self.troops[source] < 3:
                self._log(f"player_{p} cannot go on attacking from {W.names[source]}")
                self._end_attack()
            else:
                self.phase = BATTLE
        elif kind == JET:
            red = int(C.roll(self.rng, self.rules.red))  # type: ignore[arg-type]
            if target < NATIONS:
                lost = C.troops_hit(self.troops[target], red)
                self.troops[target] -= lost
                self._log(f"the jet bomber rolls {red}: player_{q} loses {lost} troops in {W.names[target]}")
            else:
                t = target - NATIONS
                lost = C.battleships_bombed(self.bs[t], red)
                self.bs[t] -= lost
                self._log(f"the jet bomber rolls {red}: player_{q} loses {lost} battleship(s) at {W.sea_names[t]}")
                self._sea_hit(t, by_attacker=True)
            self._end_attack()
        elif kind == LASER_SHOT:
            self._laser_hit(target, by_attacker=True)
            self._end_attack()
        else:
            self._naval_roll()

    # -- troop battles -----------------------------------------------------------------------
    def _move_in(self, action: int) -> None:
        """Book: 'at least one troop' moves in and one stays behind; more may follow (`transfer`)."""
        _, p, q, target, source = self.attack
        self._end_attack()
        moved = self._move_troops(source, target, action)
        self._log(f"player_{p} conquers {W.names[target]} from player_{q} and moves in {moved}")
        self._take_nation(p, target)

    def _commando(self, p: int, x: int) -> None:
        """Book: ten troops on any opponent's nation, attacking alone until they win or die, with no
        defence cards or lasers against them: nobody has a choice to make, so it is one decision."""
        if self.phase == BUY:
            self.phase = ACT
        defender = self.owner[x]
        raiders = min(10, self.troops_left(p))  # ours: as many of the ten as the player's set has left
        left, held = C.commando_battle(self.rng, self.rules.black, raiders, self.troops[x])
        who = f"player_{p}'s helicopter commandos" + (f" ({raiders}: all its set had left)" if raiders < 10 else "")
        if held:
            self.troops[x] = held
            self._log(f"{who} fall in {W.names[x]} (player_{defender} keeps {held})")
        else:
            self.troops[x] = left
            self._log(f"{who} take {W.names[x]} from player_{defender} ({left} left)")
            self._take_nation(p, x)

    # -- navies ------------------------------------------------------------------------------
    def _take_vessels(self, battleships: bool, t: int, amount: int) -> int:
        """Ready vessels leave place t (one move a turn each); returns how many."""
        ready = self.ready_bs if battleships else self.ready_subs
        count = self._amount(amount, ready[t])
        ready[t] -= count
        if battleships:
            self.bs[t] -= count
        else:
            self.subs[t] -= count
        self._clear_sea(t)
        return count

    def _move_fleet(self, battleships: bool, s: int, t: int, amount: int) -> None:
        p = self.player
        count = self._take_vessels(battleships, s, amount)
        if self.sea_owner[t] in (-1, p):
            self._add_vessels(p, t, battleships, count)
            self._log(
                f"player_{p} moves {count} {VESSEL[not battleships]}(s) from {W.sea_names[s]} to {W.sea_names[t]}"
            )
            return
        self.force = [count, 0] if battleships else [0, count]
        self._declare(NAVAL, NATIONS + t, source=NATIONS + s)

    def _join(self, battleships: bool, s: int, amount: int) -> None:
        count = self._take_vessels(battleships, s, amount)
        self.force[not battleships] += count
        self._log(
            f"player_{self.player} sends {count} more {VESSEL[not battleships]}(s) "
            f"from {W.sea_names[s]} into the battle"
        )

    def _naval_roll(self) -> None:
        _, p, q, target, _ = self.attack
        t = target - NATIONS
        mine, theirs = divmod(self.aim, 2)
        green = str(C.roll(self.rng, self.rules.green))
        lost_a, lost_d = C.naval_exchange(mine, theirs, green)
        self.force[mine] -= lost_a
        if theirs == A.BATTLESHIP:
            self.bs[t] -= lost_d
        else:
            self.subs[t] -= lost_d
        self._log(
            f"green die {green}: player_{p}'s {VESSEL[mine]} against a {VESSEL[theirs]} at {W.sea_names[t]} "
            f"({self._force_text()} against {self.bs[t]} battleship(s) and {self.subs[t]} submarine(s))"
        )
        self.aim = -1
        if self.bs[t] + self.subs[t] == 0:
            force = self.force
            self._clear_sea(t)
            if any(force):
                self._add_vessels(p, t, True, force[0])
                self._add_vessels(p, t, False, force[1])
                self.conquered_blockades += t < BLOCKADES
                self._log(f"player_{p} wins the sea battle for {W.sea_names[t]} from player_{q}")
            else:
                self._log(f"both navies are sunk at {W.sea_names[t]}")
                self._sea_hit(t, by_attacker=True)
            self._end_attack()
        elif not any(self.force):
            self._log(f"player_{q} holds off the naval attack on {W.sea_names[t]}")
            self._end_attack()
        else:
            self.phase = BATTLE

    def _clear_sea(self, t: int) -> None:
        if not self.bs[t] and not self.subs[t]:
            self.sea_owner[t] = -1
            self.ready_bs[t] = self.ready_subs[t] = 0

    def _sea_hit(self, t: int, by_attacker: bool) -> None:
        """After vessels were lost at t: a place with none left is vacant. Book: an opponent's blockade
        'is considered conquered when their last naval vessel has been eliminated', so the attacker who
        sinks the last one conquers it then (two cards), whether or not it ever moves in."""
        self.ready_bs[t] = min(self.ready_bs[t], self.bs[t])
        self.ready_subs[t] = min(self.ready_subs[t], self.subs[t])
        if not self.bs[t] and not self.subs[t] and by_attacker and t < BLOCKADES:
            self.emptied.append(t)
            self.conquered_blockades += 1
            self._log(f"player_{self.player} sinks the last vessel at {W.sea_names[t]}: a blockade conquered")
        self._clear_sea(t)

    # -- lasers ------------------------------------------------------------------------------
    def _fire_laser(self, target: int) -> None:
        p = self.current_player
        self.lasers[p] -= 1
        if self.phase == WINDOW:
            self.laser_answered = True
            self._log(f"player_{p} answers with a laser on {W.place_name(target)}")
            self._laser_hit(target, by_attacker=False)
        else:
            self._declare(LASER_SHOT, target)

    def _laser_hit(self, target: int, by_attacker: bool) -> None:
        """Book: the black die in troops, never the last; on ships the die halved, battleships first."""
        roll = int(C.roll(self.rng, self.rules.black))  # type: ignore[arg-type]
        q = self.owner_of(target)
        if target < NATIONS:
            lost = C.troops_hit(self.troops[target], roll)
            self.troops[target] -= lost
            self._log(f"the laser rolls {roll}: player_{q} loses {lost} troops in {W.names[target]}")
            return
        t = target - NATIONS
        lost_b, lost_s = C.vessels_lasered(self.bs[t], self.subs[t], roll)
        self.bs[t] -= lost_b
        self.subs[t] -= lost_s
        self._log(
            f"the laser rolls {roll}: player_{q} loses {lost_b} battleship(s) and {lost_s} "
            f"submarine(s) at {W.sea_names[t]}"
        )
        self._sea_hit(t, by_attacker)
