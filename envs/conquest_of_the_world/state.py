"""The rules engine of Conquest of the World: the state, the set-up (homelands, in-zone alliances), the
attack option's turns, holdings and chips, and the results. Wars live in wars.py, player alliances in
diplomacy.py, the board-filled count and the end game in endgame.py. Records are kept in half spaces
(ints), chips in PBU (multiples of 100). Rule numbers are the book's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.battle import SPENDS, WEAPONS
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.diplomacy import DiplomacyMixin
from ultimata.envs.conquest_of_the_world.endgame import EndGameMixin
from ultimata.envs.conquest_of_the_world.observation import observe
from ultimata.envs.conquest_of_the_world.phases import DIPLOMACY, HOMELAND, OVER, RESPOND, TURN, WEAPON, ZONE_ALLY
from ultimata.envs.conquest_of_the_world.terms import ALLY, CONQUEST, DUEL, FINAL, HOME, NONE, PLAY, WAR
from ultimata.envs.conquest_of_the_world.wars import WarsMixin
from ultimata.envs.core.engine import State
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


class ConquestState(WarsMixin, DiplomacyMixin, EndGameMixin, State):
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
        self.events: list[str] = [f"player_{self.first} won the draw and chooses a homeland first"]

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

    # -- small queries -----------------------------------------------------------------------
    def board_filled(self) -> bool:
        return -1 not in self.holder

    def left_of(self, p: int) -> int:
        """The next living player clockwise (to the left)."""
        for k in range(1, self.n + 1):
            q = (p + k) % self.n
            if self.alive[q]:
                return q
        return p

    def zone_capacity_left(self, p: int) -> int:
        """Rule 4A: the homeland's PBU less the in-zone alliances already made."""
        h = self.homeland[p]
        zone = BOARD.zone_members[BOARD.zone[h]]
        used = sum(BOARD.value[c] for c in zone if self.holder[c] == p and self.kind[c] == ALLY)
        return BOARD.value[h] - used

    def bloc_chips(self, p: int) -> int:
        """Rule 18B: allies combine their chips."""
        return sum(self.chips[q] for q in self.group(p))

    def buyable(self, p: int) -> list[int]:
        """Rules 9A, 13D, 16E: with a right to buy, an unoccupied country outside every other living
        player's home zone, at half its value x 1000 (allies' chips pooled)."""
        if not self.buys:
            return []
        chips = self.bloc_chips(p)
        barred = {BOARD.zone[self.homeland[q]] for q in range(self.n) if q != p and self.homeland[q] >= 0}
        return [c for c, h in enumerate(self.holder)
                if h < 0 and BOARD.zone[c] not in barred and chips >= BOARD.value[c] * 500]

    def weapon_open(self, side: int, weapon: int) -> bool:
        return not self.barred[side] >> weapon & 1

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
            barred = self.barred[self.choosing]
            return [a for w in range(len(WEAPONS)) if not barred >> w & 1 for a in _WEAPON_ACTIONS[w]]
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
            self._gain(p, action - A.PICK, ALLY)
            self.events.append(f"player_{p} allies with {BOARD.names[action - A.PICK]} in its home zone")

    # -- set-up (rules 2-8) ------------------------------------------------------------------
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
            self._start_turn((self.first + self.n - 1) % self.n)

    # -- the attack option (rules 8-17, 20A-B) -----------------------------------------------
    def _start_turn(self, p: int) -> None:
        """The attack option comes to p with one alliance to buy (rule 9A, not in the final round);
        first every player may propose or break player alliances (rule 18, diplomacy.py)."""
        self.phase, self.option, self.defender_ptr = TURN, p, p
        self.buys = 1 if self.stage == PLAY else 0
        self.turn += 1
        self._open_diplomacy(p)

    def _end_turn(self) -> None:
        """The attack option passes left; the filled board starts the last round (rule 20), the turn cap ends play."""
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
            self.buys -= 1
            self._gain(p, c, ALLY)
            self.events.append(f"player_{p} buys an alliance with {BOARD.names[c]}")
            if self.phase != OVER:
                self._open_diplomacy(p, new_turn=False)
        else:
            self._declare_war(p, action - A.ATTACK)

    # -- holdings and chips ------------------------------------------------------------------
    def _pay(self, p: int, amount: int) -> None:
        """Rule 18B: allies pool chips; gap (ours): the payer pays first, then its allies clockwise."""
        for q in self.group(p):
            part = min(amount, self.chips[q])
            self.chips[q] -= part
            amount -= part

    def _share(self, p: int, amount: int) -> None:
        """Rules 18D/19D: gains are divided equally among allies, in whole 100s, the rest to the winner."""
        side = self.group(p)
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
        """Rule 7: 1000 in chips per country of a fully held zone, the homeland excepted; paid once while
        the zone stays held (once per game with `zone_bonus_once`)."""
        if self.zone_paid[p][z]:
            return
        members = BOARD.zone_members[z]
        holder = self.holder
        for c in members:
            if holder[c] != p:
                return
        self.zone_paid[p][z] = True
        bonus = 1000 * sum(1 for c in members if self.kind[c] != HOME)
        self.chips[p] += bonus
        self.events.append(f"player_{p} dominates zone {z + 1}: {bonus} in chips")

    def _lose(self, q: int, c: int) -> None:
        """q loses country c: the record drops by the full value (conquest) or half (ally), rule 16C."""
        self.record[q] -= BOARD.value[c] * (2 if self.kind[c] == CONQUEST else 1)
        if not self.cfg.zone_bonus_once:
            self.zone_paid[q][BOARD.zone[c]] = False
        self.holder[c], self.kind[c] = -1, NONE

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
            self.phase, self.window, self.round_left = OVER, -1, []
            self.proposal, self.answers = [-1, -1], []

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
            cost = 0 if self.holder[c] < 0 else BOARD.value[c] * 1000
            return f"attack {BOARD.names[c]}" + (f" paying {cost}" if cost else "")
        if action < A.PROPOSE:
            k = action - A.WEAPON
            return f"fight with a {WEAPONS[k // len(SPENDS)]}, spending {SPENDS[k % len(SPENDS)].replace('_', '-')}"
        if action < A.BREAK:
            return f"propose a player alliance to player_{(p + action - A.PROPOSE + 1) % self.n}"
        if action == A.BREAK:
            allies = ", ".join(f"player_{q}" for q in self.group(p)[1:]) or "no one"
            return f"break the player alliance with {allies} for good"
        if action == A.DONE:
            return {ZONE_ALLY: "done allying in the home zone", DIPLOMACY: "no more diplomacy now"}.get(
                self.phase, "pass the attack option")
        return {A.ACCEPT: "accept the alliance", A.DECLINE: "decline the alliance"}.get(action, "?")

    def narrate(self, action: int) -> str:
        """A battle's first weapon choice is hidden until the battle resolves, so the table hears only
        that one was made; the battle's event then names both choices."""
        if self.phase == WEAPON and self.pending < 0:
            return f"player_{self.current_player} chooses a weapon"
        return super().narrate(action)

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
    FIELDS = ("phase", "stage", "first", "chooser", "holder", "kind", "homeland", "record", "chips", "alive",
              "eliminated", "allied", "broken", "proposed", "zone_paid", "option", "buys", "defender_ptr",
              "turn", "window", "round_left", "proposal", "answers", "final_left", "ladder", "challenger",
              "target_winner", "mode", "target", "fighters", "energy", "wins", "battles", "barred", "choosing",
              "pending", "last_battle", "events")

    def _check_consistency(self) -> None:
        from ultimata.envs.conquest_of_the_world.consistency import check

        check(self)

