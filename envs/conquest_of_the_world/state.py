"""The rules engine of Conquest of the World: homelands, in-zone alliances, the warchest, wars, player
alliances, the board-filled last chance, chips to record and the end-game ladder. Records are kept in
half spaces (ints), chips in PBU (multiples of 100). Rule numbers are the book's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.battle import SPENDS, WEAPONS, battle_model
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.core.engine import State
from ultimata.envs.core.rng import Rng

HOMELAND, ZONE_ALLY, TURN, RESPOND, WEAPON, OVER = range(6)
PHASES = ("homeland", "zone alliances", "attack option", "alliance proposal", "weapon choice", "over")
NONE, HOME, CONQUEST, ALLY = range(4)
KINDS = ("unoccupied", "homeland", "conquest", "ally")
PLAY, FINAL, LADDER = range(3)
STAGES = ("play", "final round", "end game")
WAR, DUEL = 0, 1
BOARD = board()
MODEL = battle_model()
N_WEAPONS = len(WEAPONS)


def round_to(amount: int, step: int) -> int:
    """Round to the nearest multiple of `step`, halves up (book: 1355 -> 1400; chips to the nearest 500)."""
    return (amount + step // 2) // step * step


class ConquestState(State):
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
        self.buy_right = False
        self.defender_ptr = -1
        self.turn = 0
        self.final_left: list[int] = []
        self.ladder: list[int] = []
        self.challenger = -1
        self.proposal = [-1, -1]
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
        self.events: list[str] = [f"player_{self.first} won the draw and chooses a homeland first"]

    # -- small queries -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase in (HOMELAND, ZONE_ALLY):
            return (self.first + self.chooser) % self.n
        if self.phase == TURN:
            return self.option
        if self.phase == RESPOND:
            return self.proposal[1]
        if self.phase == WEAPON:
            return self.fighters[self.choosing]
        return -1

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def bloc(self, p: int) -> list[int]:
        """The player and its player allies (rule 18)."""
        return [p] + [q for q in range(self.n) if self.allied[p][q]]

    def bloc_chips(self, p: int) -> int:
        return sum(self.chips[q] for q in self.bloc(p))

    def board_filled(self) -> bool:
        return all(h >= 0 for h in self.holder)

    def left_of(self, p: int) -> int:
        """The next living player clockwise (to the left)."""
        for k in range(1, self.n + 1):
            q = (p + k) % self.n
            if self.alive[q]:
                return q
        return p

    def zone_capacity_left(self, p: int) -> int:
        h = self.homeland[p]
        zone = BOARD.zone_members[BOARD.zone[h]]
        used = sum(BOARD.value[c] for c in zone if self.holder[c] == p and self.kind[c] == ALLY)
        return BOARD.value[h] - used

    def unoccupied_defender(self, p: int) -> int:
        """Rules 11A/13E: the first living non-ally to the left of the last defender (or of the attacker)."""
        q = self.defender_ptr
        for _ in range(self.n):
            q = (q + 1) % self.n
            if q != p and self.alive[q] and not self.allied[p][q]:
                return q
        return -1

    def siege_complete(self, p: int, home: int) -> bool:
        """Rule 19A: every neighbour of the homeland is held by the attacker's side first."""
        side = self.bloc(p)
        ok = (HOME, CONQUEST) if self.cfg.homeland_siege == "conquered" else (HOME, CONQUEST, ALLY)
        return all(self.holder[x] in side and self.kind[x] in ok for x in BOARD.neighbours[home])

    def attack_cost(self, c: int) -> int:
        return 0 if self.holder[c] < 0 else BOARD.value[c] * 1000

    def attackable(self, p: int) -> list[int]:
        """Rules 10-11, 15, 19: unoccupied countries while a defender can be found (in the play stage),
        occupied ones outside the attacker's side that its bloc can pay for, homelands once besieged."""
        side = self.bloc(p)
        chips = sum(self.chips[q] for q in side)
        wars = self.stage == PLAY and self.unoccupied_defender(p) >= 0
        out = []
        for c, h in enumerate(self.holder):
            if h < 0:
                if wars:
                    out.append(c)
            elif h not in side and chips >= BOARD.value[c] * 1000 and (
                    self.kind[c] != HOME or self.siege_complete(p, c)):
                out.append(c)
        return out

    def buyable(self, p: int) -> list[int]:
        """Rule 9: unoccupied countries outside every other living player's home zone, at half value x 1000."""
        if not (self.buy_right and self.stage == PLAY):
            return []
        chips = self.bloc_chips(p)
        barred = {BOARD.zone[self.homeland[q]] for q in range(self.n)
                  if self.alive[q] and q != p and self.homeland[q] >= 0}
        return [c for c, h in enumerate(self.holder)
                if h < 0 and BOARD.zone[c] not in barred and chips >= BOARD.value[c] * 500]

    def may_propose(self, p: int, q: int) -> bool:
        return (self.cfg.player_alliances and self.n >= 3 and self.stage == PLAY and q != p and self.alive[q]
                and not self.allied[p][q] and not self.broken[p][q] and not self.proposed[p][q]
                and not self.board_filled())

    def weapon_open(self, side: int, weapon: int) -> bool:
        return not self.barred[side] >> weapon & 1

    # -- legal actions -----------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        p = self.current_player
        if self.phase == HOMELAND:
            taken = {BOARD.zone[h] for h in self.homeland if h >= 0}
            return [A.PICK + c for c in range(BOARD.size) if self.holder[c] < 0
                    and not (self.cfg.one_homeland_per_zone and BOARD.zone[c] in taken)]
        if self.phase == ZONE_ALLY:
            room = self.zone_capacity_left(p)
            zone = BOARD.zone_members[BOARD.zone[self.homeland[p]]]
            return [A.PICK + c for c in zone if self.holder[c] < 0 and BOARD.value[c] <= room] + [A.DONE]
        if self.phase == TURN:
            out = [A.BUY + c for c in self.buyable(p)]
            out += [A.ATTACK + c for c in self.attackable(p)]
            out += [A.PROPOSE + r for r in range(1, self.n) if self.may_propose(p, (p + r) % self.n)]
            out += [A.BREAK + r for r in range(1, self.n) if self.allied[p][(p + r) % self.n]]
            return out + [A.DONE]
        if self.phase == RESPOND:
            return [A.ACCEPT, A.DECLINE]
        if self.phase == WEAPON:
            return [A.weapon_action(w, s) for w in range(N_WEAPONS) if self.weapon_open(self.choosing, w)
                    for s in range(len(SPENDS))]
        return []

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        p = self.current_player
        if self.phase == HOMELAND:
            self._choose_homeland(p, action - A.PICK)
        elif self.phase == ZONE_ALLY:
            if action == A.DONE:
                self._next_zone_chooser()
            else:
                self._gain(p, action - A.PICK, ALLY)
                self.events.append(f"player_{p} allies with {BOARD.names[action - A.PICK]} in its home zone")
        elif self.phase == TURN:
            self._turn_action(p, action)
        elif self.phase == RESPOND:
            self._respond(p, action == A.ACCEPT)
        elif self.phase == WEAPON:
            self._choose_weapon(action - A.WEAPON)

    def _choose_homeland(self, p: int, c: int) -> None:
        """Rule 3: homelands in turn order from the first player, clockwise."""
        self.homeland[p] = c
        self.holder[c], self.kind[c] = p, HOME
        self.events.append(f"player_{p} chooses {BOARD.names[c]} as homeland")
        self.chooser += 1
        if self.chooser == self.n:
            self.phase, self.chooser = ZONE_ALLY, 0

    def _next_zone_chooser(self) -> None:
        """Rule 4: each player makes its in-zone alliances in turn; then rule 8: the last chooser attacks first."""
        self.chooser += 1
        if self.chooser == self.n:
            self.phase = TURN
            self._start_turn((self.first + self.n - 1) % self.n)

    def _start_turn(self, p: int) -> None:
        self.phase, self.option, self.buy_right, self.defender_ptr = TURN, p, self.stage == PLAY, p
        self.proposed[p] = [False] * self.n
        self.turn += 1

    def _end_turn(self) -> None:
        """The attack option passes left; the filled board starts the last round (rule 20), the turn cap ends play."""
        if self.phase == OVER:
            return
        nxt = self.left_of(self.option)
        if self.stage == PLAY and (self.board_filled() or self.turn >= self.cfg.max_turns):
            if self.turn >= self.cfg.max_turns:
                self.events.append("the turn cap is reached")
                self._finish_play()
                return
            self.stage = FINAL
            self.final_left = [(nxt + k) % self.n for k in range(self.n) if self.alive[(nxt + k) % self.n]]
            self.events.append("the board is filled: each player has one more chance to attack")
        if self.stage == FINAL:
            self.final_left = [q for q in self.final_left if self.alive[q]]
            if not self.final_left:
                self._finish_play()
                return
            nxt = self.final_left.pop(0)
        self._start_turn(nxt)

    def _turn_action(self, p: int, action: int) -> None:
        if action == A.DONE:
            self.events.append(f"player_{p} passes the attack option")
            self._end_turn()
        elif action < A.ATTACK:
            c = action - A.BUY
            self._pay(p, BOARD.value[c] * 500)
            self.buy_right = False
            self._gain(p, c, ALLY)
            self.events.append(f"player_{p} buys an alliance with {BOARD.names[c]}")
        elif action < A.WEAPON:
            self._declare_war(p, action - A.ATTACK)
        elif action < A.BREAK:
            q = (p + action - A.PROPOSE) % self.n
            self.proposed[p][q] = True
            self.proposal = [p, q]
            self.phase = RESPOND
            self.events.append(f"player_{p} proposes a player alliance to player_{q}")
        else:
            q = (p + action - A.BREAK) % self.n
            self.allied[p][q] = self.allied[q][p] = False
            self.broken[p][q] = self.broken[q][p] = True
            self.events.append(f"player_{p} breaks the alliance with player_{q} for good")

    def _respond(self, q: int, accept: bool) -> None:
        p = self.proposal[0]
        if accept:
            self.allied[p][q] = self.allied[q][p] = True
        self.events.append(f"player_{q} {'accepts' if accept else 'declines'} the alliance of player_{p}")
        self.proposal = [-1, -1]
        self.phase = TURN

    def _pay(self, p: int, amount: int) -> None:
        """Rule 18B: allies pool chips; the payer pays first, then its allies in seat order."""
        for q in self.bloc(p):
            part = min(amount, self.chips[q])
            self.chips[q] -= part
            amount -= part

    def _share(self, p: int, amount: int) -> None:
        """Rules 18D/19D: gains are divided equally among allies, in whole 100s, the rest to the winner."""
        side = self.bloc(p)
        each = amount // len(side) // 100 * 100
        for q in side:
            self.chips[q] += each
        self.chips[p] += amount - each * len(side)

    def _gain(self, p: int, c: int, kind: int) -> None:
        """p takes country c as a conquest (full value) or an ally (half value); then rule 7."""
        self.holder[c], self.kind[c] = p, kind
        self.record[p] += BOARD.value[c] * (2 if kind == CONQUEST else 1)
        self._zone_bonus(p, BOARD.zone[c])
        self._check_target()

    def _zone_bonus(self, p: int, z: int) -> None:
        """Rule 7: 1000 in chips per country of a fully held zone, the homeland excepted."""
        members = BOARD.zone_members[z]
        if not all(self.holder[c] == p for c in members) or (self.zone_paid[p][z] and self.cfg.zone_bonus_once):
            return
        self.zone_paid[p][z] = True
        bonus = 1000 * sum(1 for c in members if self.kind[c] != HOME)
        self.chips[p] += bonus
        self.events.append(f"player_{p} dominates zone {z + 1}: {bonus} in chips")

    def _check_target(self) -> None:
        """Variant 2: the first to reach the target record wins at once."""
        goal = self.cfg.target_record
        if goal is None or self.phase == OVER:
            return
        reached = [q for q in range(self.n) if self.alive[q] and self.record[q] >= 2 * goal]
        if reached:
            self.target_winner = max(reached, key=lambda q: (self.record[q], -q))
            self.events.append(f"player_{self.target_winner} reaches {goal} on the record and wins")
            self._clear_fight()
            self.phase = OVER

    def _lose(self, q: int, c: int) -> None:
        """q loses country c: the record drops by the full value (conquest) or half (ally), rule 16C."""
        self.record[q] = max(0, self.record[q] - BOARD.value[c] * (2 if self.kind[c] == CONQUEST else 1))
        if not self.cfg.zone_bonus_once:
            self.zone_paid[q][BOARD.zone[c]] = False
        self.holder[c], self.kind[c] = -1, NONE

    # -- wars (rules 10-17, 19) --------------------------------------------------------------
    def _declare_war(self, p: int, c: int) -> None:
        q = self.holder[c]
        if q < 0:
            q = self.unoccupied_defender(p)
            self.defender_ptr = q
        else:
            self._pay(p, BOARD.value[c] * 1000)
        self.events.append(f"player_{p} attacks {BOARD.names[c]}, defended by player_{q}")
        energy = self.cfg.war_energy
        self._start_fight(WAR, c, p, q, energy, energy)

    def _start_fight(self, mode: int, c: int, a: int, d: int, ea: int, ed: int) -> None:
        self.mode, self.target, self.fighters, self.energy = mode, c, [a, d], [ea, ed]
        self.wins, self.battles, self.barred, self.pending, self.choosing = [0, 0], 0, [0, 0], -1, 0
        self.phase = WEAPON

    def _clear_fight(self) -> None:
        self.mode, self.fighters, self.energy, self.target = WAR, [-1, -1], [0, 0], -1
        self.wins, self.battles, self.barred, self.pending, self.choosing = [0, 0], 0, [0, 0], -1, 0

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
        w = [x // len(SPENDS) for x in picks]
        s = [x % len(SPENDS) for x in picks]
        wooded = self.rng.below(100) < self.cfg.wooded_chance
        cost = [MODEL.cost[w[i]][s[i]] for i in (0, 1)]
        chance = [MODEL.chance(w[i], w[1 - i], s[i], wooded) for i in (0, 1)]
        names = [f"player_{self.fighters[i]} {WEAPONS[w[i]]} ({SPENDS[s[i]]})" for i in (0, 1)]
        where = " in the woods" if wooded else ""
        while True:
            out = [self.energy[i] < cost[i] for i in (0, 1)]
            if out[0] or out[1]:
                self.events.append(f"{names[0]} vs {names[1]}{where}: energy runs out")
                self._out_of_energy(out)
                return
            self.energy = [self.energy[i] - cost[i] for i in (0, 1)]
            hit = [self.rng.below(100) < chance[i] for i in (0, 1)]
            if hit[0] or hit[1]:
                break
        self.battles += 1
        if hit[0] and hit[1]:
            self.events.append(f"{names[0]} vs {names[1]}{where}: both destroyed, a tie")
        else:
            self.events.append(f"{names[0]} vs {names[1]}{where}: player_{self.fighters[0 if hit[0] else 1]} wins")
        if self.mode == WAR:
            self._after_war_battle(hit, w)
        else:
            self._after_duel_battle(hit, w)

    def _after_war_battle(self, hit: list[bool], w: list[int]) -> None:
        """Rule 12: best of three; a destroyed weapon is barred for the war; a mutual kill is a tie;
        after three battles equal wins go to the energy left (gap (ours): then to the defender)."""
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
            return
        if out[0] and out[1]:
            self._end_war(0 if self.energy[0] > self.energy[1] else 1)
        else:
            self._end_war(1 if out[0] else 0)

    def _end_war(self, won: int) -> None:
        """Rules 13, 14, 16, 17, 19: chips for the loser's energy, then the country changes hands or not."""
        a, d = self.fighters
        winner, c = self.fighters[won], self.target
        prize = round_to(self.energy[1 - won], 100)
        self._share(winner, prize)
        self.events.append(f"player_{winner} wins the war for {BOARD.names[c]} and takes {prize} in chips")
        self.phase = TURN
        self._clear_fight()
        if won == 0:
            if self.kind[c] == HOME:
                self._eliminate(d, a)
            else:
                if self.holder[c] >= 0:
                    self._lose(d, c)
                self._gain(a, c, CONQUEST)
            self.buy_right = self.stage == PLAY  # rules 13D / 16E
        else:
            if self.holder[c] < 0:
                self._gain(d, c, ALLY)  # rule 14B
            if self.phase != OVER:
                self._end_turn()  # rule 14D: the option passes to the losing attacker's left

    def _eliminate(self, q: int, p: int) -> None:
        """Rule 19C/D: p takes q's homeland, conquests and chips (chips shared in p's alliance); q's allied
        countries become unoccupied; q is out."""
        for c in range(BOARD.size):
            if self.holder[c] != q:
                continue
            if self.kind[c] == ALLY:
                self.holder[c], self.kind[c] = -1, NONE
            else:
                self.holder[c], self.kind[c] = p, CONQUEST
                self.record[p] += 2 * BOARD.value[c]
        chips, self.chips[q] = self.chips[q], 0
        self._share(p, chips)
        self.alive[q] = False
        self.eliminated.append(q)
        self.homeland[q] = -1
        for r in range(self.n):
            self.allied[q][r] = self.allied[r][q] = False
        self.events.append(f"player_{p} conquers the homeland of player_{q}, who is out")
        for z in range(len(BOARD.zone_members)):
            self._zone_bonus(p, z)
        if sum(self.alive) == 1:
            self.phase = OVER
            return
        self._check_target()

    # -- after the last round: chips to record, then the end game (rules 20C, 21) -----------
    def _finish_play(self) -> None:
        for q in range(self.n):
            if self.alive[q]:
                self.record[q] += round_to(self.chips[q], 500) // 500
                self.chips[q] = 0
        self.events.append("the chips are counted onto the record")
        self._check_target()
        if self.phase == OVER:
            return
        living = sorted((q for q in range(self.n) if self.alive[q]), key=lambda q: (self.record[q], q))
        if not self.cfg.end_game or len(living) < 2:
            self.phase = OVER
            return
        self.stage, self.option, self.buy_right = LADDER, -1, False
        self.challenger, self.ladder = living[0], living[1:]
        self._next_duel()

    def _next_duel(self) -> None:
        """Rule 21B/H: the challenger meets the next highest player; allies do not fight (passed over)."""
        while self.ladder:
            q = self.ladder.pop(0)
            if self.allied[self.challenger][q]:
                self.events.append(f"player_{self.challenger} and player_{q} are allies and do not fight")
                continue
            c = self.challenger
            per = self.cfg.endgame_energy_per_space
            self.events.append(f"end game: player_{c} challenges player_{q}")
            self._start_fight(DUEL, -1, c, q, self.record[c] * per // 2, self.record[q] * per // 2)
            return
        self.phase = OVER

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
        self.phase = TURN  # placeholder until the next duel or the end
        self._check_target()
        if self.phase != OVER:
            self._next_duel()

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
    def action_to_string(self, action: int) -> str:
        p = max(self.current_player, 0)
        if action < A.BUY:
            c = action - A.PICK
            what = "choose homeland" if self.phase == HOMELAND else "ally in the home zone with"
            return f"{what} {BOARD.names[c]} ({BOARD.value[c]})"
        if action < A.ATTACK:
            c = action - A.BUY
            return f"buy an alliance with {BOARD.names[c]} for {BOARD.value[c] * 500}"
        if action < A.WEAPON:
            c = action - A.ATTACK
            cost = self.attack_cost(c)
            return f"attack {BOARD.names[c]}" + (f" paying {cost}" if cost else "")
        if action < A.PROPOSE:
            k = action - A.WEAPON
            return f"fight with a {WEAPONS[k // len(SPENDS)]}, spending {SPENDS[k % len(SPENDS)].replace('_', '-')}"
        if action < A.BREAK:
            return f"propose a player alliance to player_{(p + action - A.PROPOSE) % self.n}"
        if action < A.ACCEPT:
            return f"break the player alliance with player_{(p + action - A.BREAK) % self.n}"
        return {A.ACCEPT: "accept the alliance", A.DECLINE: "decline the alliance",
                A.DONE: "done (pass)"}.get(action, "?")

    def render_text(self, viewer: int | None = None) -> str:
        from ultimata.envs.conquest_of_the_world.text import render

        return render(self, viewer)

    def observation(self, player: int) -> np.ndarray:
        from ultimata.envs.conquest_of_the_world.observation import observe

        return observe(self, player)

    def sample_consistent(self, viewer: int, rng: Rng) -> ConquestState:
        """Everything is public except a pending first weapon choice: redraw it unless the viewer made it."""
        other = self.clone()
        other.rng = Rng(rng.below(2**62))
        first = self.battles % 2 if self.mode == DUEL else 0
        if self.pending >= 0 and self.fighters[first] != viewer:
            open_ = [w for w in range(N_WEAPONS) if self.weapon_open(first, w)]
            other.pending = open_[rng.below(len(open_))] * len(SPENDS) + rng.below(len(SPENDS))
        return other

    # -- saving ------------------------------------------------------------------------------
    FIELDS = ("phase", "stage", "first", "chooser", "holder", "kind", "homeland", "record", "chips", "alive",
              "eliminated", "allied", "broken", "proposed", "zone_paid", "option", "buy_right", "defender_ptr",
              "turn", "final_left", "ladder", "challenger", "proposal", "target_winner", "mode", "target",
              "fighters", "energy", "wins", "battles", "barred", "choosing", "pending", "events")

    def _check_consistency(self) -> None:
        from ultimata.envs.conquest_of_the_world.consistency import check

        check(self)
