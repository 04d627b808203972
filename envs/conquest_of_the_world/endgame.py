"""How play ends: after the last round (rule 20C) the chips go to the record; then the end game (rule 21),
a ladder of duels from the lowest record up, fought with the battles of wars.py. With variant 2's target
record, the first to reach it wins at once, at any time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world.phases import OVER, TURN
from ultimata.envs.conquest_of_the_world.terms import DUEL, LADDER, round_to

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState as _Base
else:
    _Base = object


class EndGameRules(_Base):
    """The end of play, a part of ConquestState (state.py says how the rule modules are composed)."""

    def _check_target(self) -> None:
        """Variant 2: the first to reach the target record wins at once."""
        goal = self.cfg.target_record
        if goal is None or self.phase == OVER:
            return
        reached = [q for q in range(self.n) if self.alive[q] and self.record[q] >= 2 * goal]
        if reached:
            self.target_winner = max(reached, key=lambda q: (self.record[q], -q))
            self._log(f"player_{self.target_winner} reaches {goal} on the record and wins")
            self._clear_fight()
            self.phase, self.window, self.round_left = OVER, -1, []
            self.proposal, self.answers = [-1, -1], []

    def _finish_play(self) -> None:
        """Rule 20C: chips to the record, one half space per 500 (nearest 500, halves up); then rule 21."""
        for q in range(self.n):
            if self.alive[q]:
                self.record[q] += round_to(self.chips[q], 500) // 500
                self.chips[q] = 0
        self._log("the chips are counted onto the record")
        self.window, self.round_left = -1, []
        self._check_target()
        if self.phase == OVER:
            return
        living = sorted((q for q in range(self.n) if self.alive[q]), key=lambda q: (self.record[q], q))
        if not self.cfg.end_game or len(living) < 2:
            self.phase = OVER
            return
        self.stage, self.option, self.buys = LADDER, -1, 0
        self.challenger, self.ladder = living[0], living[1:]
        self._open_diplomacy(self.challenger, new_turn=False)  # 18F: breaks before each duel

    def _next_duel(self) -> None:
        """Rule 21B/H: the challenger meets the next player up the ladder who is not its ally (18C); an
        ally is passed over for this duel and keeps its place, to compete later ("until all players have
        competed"). Gap (ours): once only the challenger's allies are left, the lowest of them challenges
        the player nearest it on the record who is not its ally (the next one up, else the next one down)."""
        c = self.challenger
        foe = next((q for q in self.ladder if not self.allied[c][q]), -1)
        if foe >= 0:
            for q in self.ladder[:self.ladder.index(foe)]:
                self._log(f"player_{q} is an ally of player_{c}: passed over for now")
            self.ladder.remove(foe)
            self._duel(c, foe)
            return
        while self.ladder:
            q = self.ladder.pop(0)
            foe = self._nearest_foe(q)
            if foe >= 0:
                self.challenger = q
                self._duel(q, foe)
                return
            self._log(f"player_{q} has no one to fight: every living player is its ally")
        self.phase = OVER

    def _nearest_foe(self, q: int) -> int:
        """The living player nearest q on the record (ties by seat, as the ladder) who is not its ally:
        the next one up, else the next one down; -1 when there is none."""
        def rank(r: int) -> tuple[int, int]:
            return self.record[r], r

        foes = [r for r in range(self.n) if r != q and self.alive[r] and not self.allied[q][r]]
        above = [r for r in foes if rank(r) > rank(q)]
        if above:
            return min(above, key=rank)
        return max(foes, key=rank, default=-1)

    def _duel(self, c: int, q: int) -> None:
        """Rule 21C: each side's energy is its record x 100 (records are kept in half spaces)."""
        per = self.cfg.endgame_energy_per_space
        self._log(f"end game: player_{c} challenges player_{q}")
        self._start_fight(DUEL, -1, c, q, self.record[c] * per // 2, self.record[q] * per // 2)

    def _after_duel_battle(self, hit: list[bool], w: list[int]) -> None:
        """Rule 21D/F: the battle's winner +1 space, the loser -1; a lost weapon is barred next battle only."""
        self.barred = [0, 0]
        for i in (0, 1):
            q = self.fighters[i]
            if hit[1 - i]:
                self.barred[i] = 1 << w[i]
            if hit[i] and not hit[1 - i]:
                self.record[q] += 2
                other = self.fighters[1 - i]
                self.record[other] = max(0, self.record[other] - 2)
        self.choosing = self.battles % 2  # rule 21E: attack and defence alternate
        self._check_target()

    def _end_duel(self, out: list[bool]) -> None:
        """Rule 21G: the side still in transfers its leftover energy to the record (500 per half space)."""
        for i in (0, 1):
            if not out[i] and out[1 - i]:
                q = self.fighters[i]
                self.record[q] += round_to(self.energy[i], 500) // 500
        a, d = self.fighters
        self.challenger = a if self.record[a] > self.record[d] else d
        self._clear_fight()
        self.phase = TURN  # until the next duel starts or the game ends
        self._check_target()
        if self.phase == OVER:
            return
        if self.ladder:
            self._open_diplomacy(self.challenger, new_turn=False)  # 18F: breaks before each duel
        else:
            self.phase = OVER
