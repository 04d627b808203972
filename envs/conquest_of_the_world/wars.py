"""Wars (rules 10-17, 19): what may be attacked, who defends, who directs each battle, the battles of
the abstract battle model (data/battle.yaml), the war's result, and a homeland's fall with its booty.
The end game's duels reuse the battles (endgame.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.combat import SPEND_WORDS, SPENDS, WEAPONS, battle_model
from ultimata.envs.conquest_of_the_world.phases import OVER, TURN, WEAPON
from ultimata.envs.conquest_of_the_world.terms import ALLY, CONQUEST, DUEL, HOME, NONE, PLAY, WAR, round_to

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState as _Base
else:
    _Base = object

BOARD = board()
MODEL = battle_model()
CHOICES = tuple(f"{weapon} ({spend})" for weapon in WEAPONS for spend in SPEND_WORDS)
"""A weapon choice as the events name it, by its index (3 x weapon + spend)."""


class WarRules(_Base):
    """Wars and battles, a part of ConquestState (state.py says how the rule modules are composed)."""

    # -- what may be attacked ----------------------------------------------------------------
    def unoccupied_defender(self, p: int) -> int:
        """Rules 11A/13E: the first living player to the left of the last defender (or of the attacker),
        skipping the attacker and its player allies (gap (ours): allies do not fight, 18C)."""
        q, row = self.defender_ptr, self.allied[p]
        for _ in range(self.n):
            q = (q + 1) % self.n
            if q != p and self.alive[q] and not row[q]:
                return q
        return -1

    def siege_complete(self, p: int, home: int) -> bool:
        """Rule 19A/B: every neighbour of the homeland is conquered first (a conquest or a homeland; with
        `homeland_siege: held` an ally too) by anyone but the homeland's owner, or, with
        `homeland_siege_by: attacker`, by the attacker's own player alliance."""
        ok = (HOME, CONQUEST) if self.cfg.homeland_siege == "conquered" else (HOME, CONQUEST, ALLY)
        holder, kind = self.holder, self.kind
        if self.cfg.homeland_siege_by == "attacker":
            side = self.group(p)
            return all(holder[x] in side and kind[x] in ok for x in BOARD.neighbours[home])
        owner = holder[home]
        return all(holder[x] != owner and kind[x] in ok for x in BOARD.neighbours[home])

    def attackable(self, p: int) -> list[int]:
        """Rules 8B, 10-11, 15, 19: unoccupied countries in the play stage while a defender can be found;
        from the second turn on, occupied ones outside the attacker's alliance that its pooled chips pay
        for (value x 1000), homelands only once besieged."""
        side = self.group(p)
        chips = sum(self.chips[q] for q in side)
        free = self.stage == PLAY and self.unoccupied_defender(p) >= 0
        paid = self.turn > 1
        value, kind = BOARD.value, self.kind
        out = []
        for c, h in enumerate(self.holder):
            if h < 0:
                if free:
                    out.append(c)
            elif paid and h not in side and chips >= value[c] * 1000 and (
                    kind[c] != HOME or self.siege_complete(p, c)):
                out.append(c)
        return out

    # -- a war -------------------------------------------------------------------------------
    def weapon_open(self, side: int, weapon: int) -> bool:
        """Whether side may still choose this weapon: one destroyed is barred (rules 12, 21F)."""
        return not self.barred[side] >> weapon & 1

    def _declare_war(self, p: int, c: int) -> None:
        q = self.holder[c]
        if q < 0:
            q = self.unoccupied_defender(p)
            self.defender_ptr = q
        else:
            self._pay(p, BOARD.value[c] * 1000)  # rule 15A, 19B: no refund (16D)
        self._log(f"player_{p} attacks {BOARD.names[c]}, defended by player_{q}")
        energy = self.cfg.war_energy
        self._start_fight(WAR, c, p, q, energy, energy)

    def _start_fight(self, mode: int, c: int, a: int, d: int, ea: int, ed: int) -> None:
        self.mode, self.target, self.fighters, self.energy = mode, c, [a, d], [ea, ed]
        self.wins, self.battles, self.barred, self.pending, self.choosing = [0, 0], 0, [0, 0], -1, 0
        self.phase = WEAPON

    def _clear_fight(self) -> None:
        self.mode, self.fighters, self.energy, self.target = WAR, [-1, -1], [0, 0], -1
        self.wins, self.battles, self.barred, self.pending, self.choosing = [0, 0], 0, [0, 0], -1, 0

    def director(self, side: int) -> int:
        """Who chooses side's weapon in the battle under way. Rule 18B: an allied attacker's battles are
        directed by the allies in turn, the declarer first, then its allies clockwise."""
        p = self.fighters[side]
        if side or self.mode == DUEL or True not in self.allied[p] or self.cfg.alliance_battles != "alternate":
            return p
        members = self.group(p)
        return members[self.battles % len(members)]

    def _choose_weapon(self, choice: int) -> None:
        """Both sides choose; the first choice stays hidden until the second is made."""
        if self.pending < 0:
            self.pending = choice
            self.choosing = 1 - self.choosing
            return
        first = self.battles % 2 if self.mode == DUEL else 0
        picks = [0, 0]
        picks[first], picks[1 - first] = self.pending, choice
        self.pending = -1
        self._battle(picks)

    def _battle(self, picks: list[int]) -> None:
        """One battle: exchanges until a weapon is destroyed or a side cannot pay (battle.yaml).
        Draws: one below(100) for the woods, then per exchange one below(100) per side, side 0 first."""
        spends = len(SPENDS)
        w0, s0, w1, s1 = picks[0] // spends, picks[0] % spends, picks[1] // spends, picks[1] % spends
        who = [self.director(0), self.director(1)]
        rng = self.rng
        wooded = rng.below(100) < self.cfg.wooded_chance
        self.last_battle = [who[0], who[1], picks[0], picks[1], int(wooded)]
        cost0, cost1 = MODEL.cost[w0][s0], MODEL.cost[w1][s1]
        chances = MODEL.chances[wooded]
        chance0, chance1 = chances[w0][w1][s0], chances[w1][w0][s1]
        e0, e1 = self.energy
        while True:
            if e0 < cost0 or e1 < cost1:
                self.energy = [e0, e1]
                self._narrate_battle(who, picks, wooded, "energy runs out")
                self._out_of_energy([e0 < cost0, e1 < cost1])
                return
            e0 -= cost0
            e1 -= cost1
            hit0 = rng.below(100) < chance0
            hit1 = rng.below(100) < chance1
            if hit0 or hit1:
                break
        self.energy = [e0, e1]
        self.battles += 1
        self._narrate_battle(who, picks, wooded,
                             "both destroyed, a tie" if hit0 and hit1 else f"player_{who[0 if hit0 else 1]} wins")
        hit, w = [hit0, hit1], [w0, w1]
        if self.mode == WAR:
            self._after_war_battle(hit, w)
        else:
            self._after_duel_battle(hit, w)

    def _narrate_battle(self, who: list[int], picks: list[int], wooded: bool, result: str) -> None:
        where = " in the woods" if wooded else ""
        self._log(f"player_{who[0]} {CHOICES[picks[0]]} vs player_{who[1]} {CHOICES[picks[1]]}{where}: "
                           + result)

    def _after_war_battle(self, hit: list[bool], w: list[int]) -> None:
        """Rule 12: best of three; a destroyed weapon is barred for the war; a mutual kill is a tie;
        after three battles the one with more wins takes it, equal wins go to the energy left (12C; gap
        (ours): then to the defender)."""
        for i in (0, 1):
            if hit[1 - i]:
                self.barred[i] |= 1 << w[i]
            if hit[i] and not hit[1 - i]:
                self.wins[i] += 1
        if max(self.wins) == 2:
            self._end_war(0 if self.wins[0] == 2 else 1)
        elif self.battles == 3:
            if self.wins[0] != self.wins[1]:
                self._end_war(0 if self.wins[0] > self.wins[1] else 1)
            else:
                self._end_war(0 if self.energy[0] > self.energy[1] else 1)
        else:
            self.choosing = 0

    def _out_of_energy(self, out: list[bool]) -> None:
        """Rule 12G / 21G: a side that cannot pay loses (gap (ours): both out, the one with more left wins,
        then the defender)."""
        if self.mode == DUEL:
            self._end_duel(out)
        elif out[0] and out[1]:
            self._end_war(0 if self.energy[0] > self.energy[1] else 1)
        else:
            self._end_war(1 if out[0] else 0)

    def _end_war(self, won: int) -> None:
        """Rules 13, 14, 16, 17, 19: chips for the loser's energy, then the country changes hands or not."""
        a, d = self.fighters
        winner, c = self.fighters[won], self.target
        prize = round_to(self.energy[1 - won], 100)
        self._share(winner, prize)
        self._log(f"player_{winner} wins the war for {BOARD.names[c]} and takes {prize} in chips")
        self.phase = TURN
        self._clear_fight()
        if won == 0:
            self.buys += 1  # rules 13D / 16E: one alliance may be bought
            if self.kind[c] == HOME:
                self._eliminate(d, a)
            else:
                if self.holder[c] >= 0:
                    self._lose(d, c)
                self._gain(a, c, CONQUEST)
        elif self.holder[c] < 0:
            self._gain(d, c, ALLY)  # rule 14B
        self._end_play_if_filled()
        if self.phase == OVER:
            return
        if won == 0:
            self._open_diplomacy(a, new_turn=False)  # the attacker keeps the option (13E, 16F)
        else:
            self._end_turn()  # rule 14D: the option passes to the losing attacker's left

    # -- a homeland falls (rule 19C/D) -------------------------------------------------------
    def _eliminate(self, loser: int, victor: int) -> None:
        """The loser is out; its allied countries become unoccupied; its homeland, conquests and chips are
        the booty of the victor's alliance, divided equally (19D): chips in whole hundreds, the rest to the
        victor; countries dealt most valuable first, each to the member with the least booty value so far
        (ties: the victor, then its allies clockwise). Each recipient records its countries at full value."""
        members = self.group(victor)
        booty = []
        for c in range(BOARD.size):
            if self.holder[c] == loser:
                if self.kind[c] != ALLY:
                    booty.append(c)
                self.holder[c], self.kind[c] = -1, NONE
        booty.sort(key=lambda c: (-BOARD.value[c], c))
        shares = [0] * len(members)
        for c in booty:
            k = shares.index(min(shares))
            shares[k] += BOARD.value[c]
            q = members[k]
            self.holder[c], self.kind[c] = q, CONQUEST
            self.record[q] += 2 * BOARD.value[c]
        chips, self.chips[loser] = self.chips[loser], 0
        self._share(victor, chips)
        self.alive[loser] = False
        self.eliminated.append(loser)
        self.homeland[loser] = -1
        for r in range(self.n):
            self.allied[loser][r] = self.allied[r][loser] = False
        taken = ", ".join(f"player_{q} {shares[k]}" for k, q in enumerate(members) if len(members) > 1)
        self._log(f"player_{victor} conquers the homeland of player_{loser}, who is out"
                           + (f" (booty values: {taken})" if taken else ""))
        for q in members:
            for z in range(len(BOARD.zone_members)):
                self._zone_bonus(q, z)
        if sum(self.alive) == 1:
            self.phase = OVER
            return
        self._check_target()
