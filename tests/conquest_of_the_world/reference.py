"""An independent model of Conquest of the World, written from the book and from
docs/games/conquest_of_the_world.md, never from the engine's rules code.

It reads a position as the engine saves it (the public fields of `state_dict()["state"]`) and says
which actions are legal there and what the position is after one of them, drawing its battle dice
from a copy of the engine's generator in the documented order (one draw for the woods, then per
exchange one per side, the attacking side first). The fuzz tests play the engine and this model side
by side: every mask must equal `legal()`, and every position after a move must equal `after()`.
Everything is plain data (a dict of lists) and written the long way, on purpose.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parents[2] / "envs" / "conquest_of_the_world" / "data"

# the vocabulary, in the order the rules doc lists it (observation: phase, stage, kind, mode)
PH_HOMELAND, PH_ZONE, PH_TURN, PH_DIPLOMACY, PH_ANSWER, PH_WEAPON, PH_OVER = range(7)
ST_PLAY, ST_FINAL, ST_LADDER = range(3)
FREE, HOMELAND, CONQUEST, ALLY = range(4)
WAR, DUEL = range(2)
# the action layout, from the doc's table
PICK, BUY, ATTACK, WEAPON, PROPOSE, BREAK, ACCEPT, DECLINE, DONE = 0, 43, 86, 129, 138, 143, 144, 145, 146


def _load_board() -> tuple[list[str], list[int], list[int], list[set[int]]]:
    raw = yaml.safe_load((DATA / "board.yaml").read_text())
    names, zone, value = [], [], []
    for number in sorted(raw["zones"]):
        for name, pbu in raw["zones"][number].items():
            names.append(name)
            zone.append(number - 1)
            value.append(pbu)
    near: list[set[int]] = [set() for _ in names]
    for name, others in raw["neighbours"].items():
        for other in others:
            near[names.index(name)].add(names.index(other))
            near[names.index(other)].add(names.index(name))
    return names, zone, value, near


NAMES, ZONE, VALUE, NEAR = _load_board()
COUNTRIES = range(len(NAMES))
ZONE_MEMBERS = [[c for c in COUNTRIES if ZONE[c] == z] for z in range(max(ZONE) + 1)]
_BATTLE = yaml.safe_load((DATA / "battle.yaml").read_text())
ARMS = list(_BATTLE["weapons"])
LEVELS = list(_BATTLE["spend_levels"])


def exchange_cost(weapon: int, level: int) -> int:
    """The doc: a spend level's cost times the weapon's burn (percent)."""
    return _BATTLE["cost"][LEVELS[level]] * _BATTLE["burn"][ARMS[weapon]] // 100


def hit_chance(own: int, enemy: int, level: int, woods: bool) -> int:
    """The doc: the table's percent + the spend level's bonus, a tank -15 in the woods, kept in 1..99."""
    pct = _BATTLE["hit"][ARMS[own]][ARMS[enemy]] + _BATTLE["bonus"][LEVELS[level]]
    if woods and ARMS[own] == "tank":
        pct -= _BATTLE["tree_penalty"]
    return min(99, max(1, pct))


def nearest(amount: int, step: int) -> int:
    """Nearest multiple of step, halves up (the doc's gap for 13A and 20C)."""
    down = amount - amount % step
    return down + step if amount - down >= step / 2 else down


class Reference:
    """The rules for one config (a dict of the config's keys)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.cfg = config
        self.n = config["num_players"]

    # -- reading a position ------------------------------------------------------------------
    def living(self, g: dict) -> list[int]:
        return [p for p in range(self.n) if g["alive"][p]]

    def clockwise_from(self, g: dict, p: int, include: bool = True) -> list[int]:
        """Living players from p (or from p's left) around the table."""
        order = [(p + k) % self.n for k in range(0 if include else 1, self.n + (0 if include else 1))]
        return [q for q in order if g["alive"][q]]

    def alliance(self, g: dict, p: int) -> list[int]:
        """p and its allies clockwise from p: an alliance is a group (doc, rule 18)."""
        return [p] + [(p + k) % self.n for k in range(1, self.n) if g["allied"][p][(p + k) % self.n]]

    def to_move(self, g: dict) -> int:
        phase = g["phase"]
        if phase in (PH_HOMELAND, PH_ZONE):
            return (g["first"] + g["chooser"]) % self.n
        if phase == PH_TURN:
            return g["option"]
        if phase == PH_DIPLOMACY:
            return g["window"]
        if phase == PH_ANSWER:
            return g["answers"][0]
        if phase == PH_WEAPON:
            return self.directing(g, g["choosing"])
        return -1

    def directing(self, g: dict, side: int) -> int:
        """Rule 18B as the doc has it: an allied attacker's battles are directed in turn."""
        principal = g["fighters"][side]
        if side == 1 or g["mode"] == DUEL or self.cfg["alliance_battles"] == "declarer":
            return principal
        team = self.alliance(g, principal)
        return team[g["battles"] % len(team)]

    def pooled(self, g: dict, p: int) -> int:
        return sum(g["chips"][q] for q in self.alliance(g, p))

    def defender_for_free_country(self, g: dict, p: int) -> int:
        """Rules 11A/13E/14D: left of the last defender (or of the attacker), never p or an ally of p."""
        seat = g["defender_ptr"]
        for _ in range(self.n):
            seat = (seat + 1) % self.n
            if seat != p and g["alive"][seat] and not g["allied"][p][seat]:
                return seat
        return -1

    def besieged(self, g: dict, p: int, home: int) -> bool:
        """Rule 19A/B: every neighbour conquered (a conquest or a homeland; with 'held', an ally too) by
        anyone but the homeland's owner, or (homeland_siege_by 'attacker') by p's alliance."""
        kinds = {HOMELAND, CONQUEST} | ({ALLY} if self.cfg["homeland_siege"] == "held" else set())
        if self.cfg["homeland_siege_by"] == "attacker":
            takers = set(self.alliance(g, p))
        else:
            takers = set(range(self.n)) - {g["holder"][home]}
        return all(g["holder"][x] in takers and g["kind"][x] in kinds for x in NEAR[home])

    def can_propose(self, g: dict, p: int, q: int) -> bool:
        if not self.cfg["player_alliances"] or self.n < 3 or g["stage"] != ST_PLAY:
            return False
        if q == p or not g["alive"][q] or g["allied"][p][q] or g["proposed"][p][q]:
            return False
        ours, theirs = self.alliance(g, p), self.alliance(g, q)
        if len(ours) + len(theirs) >= len(self.living(g)):
            return False
        return all(not g["broken"][x][y] for x in ours for y in theirs)

    def can_break(self, g: dict, p: int) -> bool:
        return len(self.alliance(g, p)) > 1

    def can_do_diplomacy(self, g: dict, p: int) -> bool:
        return self.can_break(g, p) or any(self.can_propose(g, p, q) for q in range(self.n))

    # -- the legal actions -------------------------------------------------------------------
    def legal(self, g: dict) -> set[int]:
        phase, p = g["phase"], self.to_move(g)
        if phase == PH_OVER:
            return set()
        if phase == PH_HOMELAND:
            home_zones = {ZONE[h] for h in g["homeland"] if h >= 0}
            return {PICK + c for c in COUNTRIES if g["holder"][c] == -1
                    and not (self.cfg["one_homeland_per_zone"] and ZONE[c] in home_zones)}
        if phase == PH_ZONE:
            home = g["homeland"][p]
            used = sum(VALUE[c] for c in ZONE_MEMBERS[ZONE[home]] if g["holder"][c] == p and g["kind"][c] == ALLY)
            room = VALUE[home] - used
            return {PICK + c for c in ZONE_MEMBERS[ZONE[home]] if g["holder"][c] == -1 and VALUE[c] <= room} | {DONE}
        if phase == PH_TURN:
            return self._turn_moves(g, p)
        if phase == PH_DIPLOMACY:
            moves = {PROPOSE + r - 1 for r in range(1, self.n) if self.can_propose(g, p, (p + r) % self.n)}
            if self.can_break(g, p):
                moves.add(BREAK)
            return moves | {DONE}
        if phase == PH_ANSWER:
            return {ACCEPT, DECLINE}
        lost = g["barred"][g["choosing"]]
        return {WEAPON + 3 * w + s for w in range(3) if not lost & (1 << w) for s in range(3)}

    def _turn_moves(self, g: dict, p: int) -> set[int]:
        moves = {DONE}
        purse = self.pooled(g, p)
        team = self.alliance(g, p)
        if g["buys"] > 0:
            closed = {ZONE[g["homeland"][q]] for q in self.living(g) if q != p}
            moves |= {BUY + c for c in COUNTRIES
                      if g["holder"][c] == -1 and ZONE[c] not in closed and purse >= 500 * VALUE[c]}
        for c in COUNTRIES:
            h = g["holder"][c]
            if h == -1:
                if g["stage"] == ST_PLAY and self.defender_for_free_country(g, p) >= 0:
                    moves.add(ATTACK + c)
            elif g["turn"] >= 2 and h not in team and purse >= 1000 * VALUE[c] and (
                    g["kind"][c] != HOMELAND or self.besieged(g, p, c)):
                moves.add(ATTACK + c)
        return moves

    # -- the position after an action --------------------------------------------------------
    def after(self, g: dict, action: int, draw: Callable[[int], int]) -> dict:
        g = copy.deepcopy(g)
        p = self.to_move(g)
        phase = g["phase"]
        if phase == PH_HOMELAND:
            c = action - PICK
            g["homeland"][p] = c
            g["holder"][c], g["kind"][c] = p, HOMELAND
            g["chooser"] += 1
            if g["chooser"] == self.n:
                g["phase"], g["chooser"] = PH_ZONE, 0
        elif phase == PH_ZONE:
            if action == DONE:
                g["chooser"] += 1
                if g["chooser"] == self.n:
                    self._new_turn(g, (g["first"] - 1) % self.n)
            else:
                self._take(g, p, action - PICK, ALLY)
        elif phase == PH_TURN:
            self._turn(g, p, action)
        elif phase == PH_DIPLOMACY:
            self._diplomacy(g, p, action)
        elif phase == PH_ANSWER:
            self._answer(g, action == ACCEPT)
        elif phase == PH_WEAPON:
            self._weapon(g, action - WEAPON, draw)
        return g

    def _new_turn(self, g: dict, p: int) -> None:
        g["phase"], g["option"], g["defender_ptr"] = PH_TURN, p, p
        g["buys"] = 1 if g["stage"] == ST_PLAY else 0
        g["turn"] += 1
        g["proposed"] = [[False] * self.n for _ in range(self.n)]
        g["round_left"] = self.clockwise_from(g, p)
        self._open_next_window(g)

    def _talk_again(self, g: dict, p: int) -> None:
        """The doc (18A, 18F): before the option holder's next move in its turn, and before each end-game
        duel, another round of windows from p, the turn's proposals still counted."""
        g["round_left"] = self.clockwise_from(g, p)
        self._open_next_window(g)

    def _open_next_window(self, g: dict) -> None:
        while g["round_left"]:
            q = g["round_left"].pop(0)
            if self.can_do_diplomacy(g, q):
                g["phase"], g["window"] = PH_DIPLOMACY, q
                return
        g["window"] = -1
        if g["stage"] == ST_LADDER:
            self._next_challenge(g)
        else:
            g["phase"] = PH_TURN

    def _back_to_window(self, g: dict) -> None:
        if self.can_do_diplomacy(g, g["window"]):
            g["phase"] = PH_DIPLOMACY
        else:
            self._open_next_window(g)

    def _diplomacy(self, g: dict, p: int, action: int) -> None:
        if action == DONE:
            self._open_next_window(g)
        elif action == BREAK:
            for q in self.alliance(g, p)[1:]:
                g["allied"][p][q] = g["allied"][q][p] = False
                g["broken"][p][q] = g["broken"][q][p] = True
            self._back_to_window(g)
        else:
            q = (p + action - PROPOSE + 1) % self.n
            g["proposed"][p][q] = True
            g["proposal"] = [p, q]
            g["answers"] = self.alliance(g, q) + self.alliance(g, p)[1:]
            g["phase"] = PH_ANSWER

    def _answer(self, g: dict, yes: bool) -> None:
        p, q = g["proposal"]
        if yes:
            g["answers"].pop(0)
            if g["answers"]:
                return
            everyone = self.alliance(g, p) + self.alliance(g, q)
            for x in everyone:
                for y in everyone:
                    if x != y:
                        g["allied"][x][y] = True
        g["proposal"], g["answers"] = [-1, -1], []
        self._back_to_window(g)

    def _turn(self, g: dict, p: int, action: int) -> None:
        if action == DONE:
            self._pass_option(g)
        elif action < ATTACK:
            c = action - BUY
            self._pay(g, p, 500 * VALUE[c])
            g["buys"] -= 1
            self._take(g, p, c, ALLY)
            self._board_filled_now(g)
            if g["phase"] != PH_OVER:
                self._talk_again(g, p)
        else:
            c = action - ATTACK
            if g["holder"][c] == -1:
                defender = self.defender_for_free_country(g, p)
                g["defender_ptr"] = defender
            else:
                defender = g["holder"][c]
                self._pay(g, p, 1000 * VALUE[c])
            energy = self.cfg["war_energy"]
            self._fight(g, WAR, c, [p, defender], [energy, energy])

    def _board_filled_now(self, g: dict) -> None:
        """The doc (18A, 20): the moment no country is unoccupied, in the play stage, the last round is
        set: everyone from the holder's left; proposals end there and then."""
        if g["stage"] == ST_PLAY and g["phase"] != PH_OVER and all(h != -1 for h in g["holder"]):
            g["stage"] = ST_FINAL
            g["final_left"] = self.clockwise_from(g, g["option"], include=False)

    def _pass_option(self, g: dict) -> None:
        """Rules 14D, 20, variant 1."""
        nxt = self.clockwise_from(g, g["option"], include=False)[0]
        if g["stage"] == ST_PLAY and g["turn"] >= self.cfg["max_turns"]:
            self._count_chips(g)
            return
        if g["stage"] == ST_FINAL:
            g["final_left"] = [q for q in g["final_left"] if g["alive"][q]]
            if not g["final_left"]:
                self._count_chips(g)
                return
            nxt = g["final_left"].pop(0)
        self._new_turn(g, nxt)

    # -- chips, holdings, records ------------------------------------------------------------
    def _pay(self, g: dict, p: int, amount: int) -> None:
        for q in self.alliance(g, p):
            part = min(amount, g["chips"][q])
            g["chips"][q] -= part
            amount -= part
        assert amount == 0, "paid more than the alliance holds"

    def _divide(self, g: dict, winner: int, amount: int) -> None:
        """Rule 18D/19D: equal parts in whole hundreds, the odd hundreds to the winner."""
        team = self.alliance(g, winner)
        part = amount // (100 * len(team)) * 100
        for q in team:
            g["chips"][q] += part
        g["chips"][winner] += amount - part * len(team)

    def _take(self, g: dict, p: int, c: int, kind: int) -> None:
        g["holder"][c], g["kind"][c] = p, kind
        g["record"][p] += 2 * VALUE[c] if kind == CONQUEST else VALUE[c]
        self._bonus(g, p, ZONE[c])
        self._target(g)

    def _bonus(self, g: dict, p: int, z: int) -> None:
        """Rule 7: 1000 per country of the zone but p's homeland, once per holding."""
        members = ZONE_MEMBERS[z]
        if g["zone_paid"][p][z] or any(g["holder"][c] != p for c in members):
            return
        g["zone_paid"][p][z] = True
        g["chips"][p] += 1000 * len([c for c in members if c != g["homeland"][p]])

    def _target(self, g: dict) -> None:
        goal = self.cfg["target_record"]
        if goal is None or g["phase"] == PH_OVER:
            return
        best = [q for q in self.living(g) if g["record"][q] >= 2 * goal]
        if best:
            top = max(g["record"][q] for q in best)
            g["target_winner"] = min(q for q in best if g["record"][q] == top)
            self._over(g)

    def _over(self, g: dict) -> None:
        g["phase"] = PH_OVER
        self._no_fight(g)
        g["window"], g["round_left"], g["proposal"], g["answers"] = -1, [], [-1, -1], []

    def _no_fight(self, g: dict) -> None:
        g.update(mode=WAR, target=-1, fighters=[-1, -1], energy=[0, 0], wins=[0, 0], battles=0, barred=[0, 0],
                 choosing=0, pending=-1)

    # -- fights ------------------------------------------------------------------------------
    def _fight(self, g: dict, mode: int, target: int, sides: list[int], energy: list[int]) -> None:
        self._no_fight(g)
        g.update(mode=mode, target=target, fighters=sides, energy=energy, phase=PH_WEAPON)

    def _weapon(self, g: dict, choice: int, draw: Callable[[int], int]) -> None:
        if g["pending"] == -1:
            g["pending"] = choice
            g["choosing"] = 1 - g["choosing"]
            return
        first = g["battles"] % 2 if g["mode"] == DUEL else 0
        chosen = [0, 0]
        chosen[first], chosen[1 - first] = g["pending"], choice
        g["pending"] = -1
        weapons, levels = [x // 3 for x in chosen], [x % 3 for x in chosen]
        woods = draw(100) < self.cfg["wooded_chance"]
        g["last_battle"] = [self.directing(g, 0), self.directing(g, 1), chosen[0], chosen[1], int(woods)]
        cost = [exchange_cost(weapons[i], levels[i]) for i in (0, 1)]
        chance = [hit_chance(weapons[i], weapons[1 - i], levels[i], woods) for i in (0, 1)]
        while True:
            broke = [g["energy"][i] < cost[i] for i in (0, 1)]
            if any(broke):
                self._out_of_energy(g, broke)
                return
            g["energy"] = [g["energy"][i] - cost[i] for i in (0, 1)]
            hits = [draw(100) < chance[0], draw(100) < chance[1]]
            if any(hits):
                break
        g["battles"] += 1
        if g["mode"] == WAR:
            self._war_battle(g, hits, weapons)
        else:
            self._duel_battle(g, hits, weapons)

    def _war_battle(self, g: dict, hits: list[bool], weapons: list[int]) -> None:
        for i in (0, 1):
            if hits[1 - i]:
                g["barred"][i] |= 1 << weapons[i]
        if hits[0] != hits[1]:
            g["wins"][0 if hits[0] else 1] += 1
        if 2 in g["wins"]:
            self._war_over(g, g["wins"].index(2))
        elif g["battles"] == 3:
            a, d = g["wins"]
            if a == d:
                self._war_over(g, 0 if g["energy"][0] > g["energy"][1] else 1)
            else:
                self._war_over(g, 0 if a > d else 1)
        else:
            g["choosing"] = 0

    def _out_of_energy(self, g: dict, broke: list[bool]) -> None:
        if g["mode"] == DUEL:
            self._duel_over(g, broke)
        elif all(broke):
            self._war_over(g, 0 if g["energy"][0] > g["energy"][1] else 1)
        else:
            self._war_over(g, 1 if broke[0] else 0)

    def _war_over(self, g: dict, side: int) -> None:
        attacker, defender = g["fighters"]
        country = g["target"]
        winner = g["fighters"][side]
        self._divide(g, winner, nearest(g["energy"][1 - side], 100))
        self._no_fight(g)
        g["phase"] = PH_TURN
        if side == 0:
            g["buys"] += 1
            if g["kind"][country] == HOMELAND:
                self._homeland_falls(g, defender, attacker)
            else:
                if g["holder"][country] != -1:
                    loser = g["holder"][country]
                    g["record"][loser] -= 2 * VALUE[country] if g["kind"][country] == CONQUEST else VALUE[country]
                    if not self.cfg["zone_bonus_once"]:
                        g["zone_paid"][loser][ZONE[country]] = False
                self._take(g, attacker, country, CONQUEST)
            self._board_filled_now(g)
            if g["phase"] != PH_OVER:
                self._talk_again(g, attacker)
        else:
            if g["holder"][country] == -1:
                self._take(g, defender, country, ALLY)
            self._board_filled_now(g)
            if g["phase"] != PH_OVER:
                self._pass_option(g)

    def _homeland_falls(self, g: dict, loser: int, victor: int) -> None:
        team = self.alliance(g, victor)
        loot = sorted((c for c in COUNTRIES if g["holder"][c] == loser and g["kind"][c] != ALLY),
                      key=lambda c: (-VALUE[c], c))
        for c in COUNTRIES:
            if g["holder"][c] == loser:
                g["holder"][c], g["kind"][c] = -1, FREE
        got = dict.fromkeys(team, 0)
        for c in loot:
            least = min(got.values())
            taker = next(q for q in team if got[q] == least)
            got[taker] += VALUE[c]
            g["holder"][c], g["kind"][c] = taker, CONQUEST
            g["record"][taker] += 2 * VALUE[c]
        chips, g["chips"][loser] = g["chips"][loser], 0
        self._divide(g, victor, chips)
        g["alive"][loser] = False
        g["eliminated"].append(loser)
        g["homeland"][loser] = -1
        for q in range(self.n):
            g["allied"][loser][q] = g["allied"][q][loser] = False
        for q in team:
            for z in range(len(ZONE_MEMBERS)):
                self._bonus(g, q, z)
        if len(self.living(g)) == 1:
            g["phase"] = PH_OVER
        else:
            self._target(g)

    # -- after play: chips to the record and the ladder (rules 20C, 21) ----------------------
    def _count_chips(self, g: dict) -> None:
        for q in self.living(g):
            g["record"][q] += nearest(g["chips"][q], 500) // 500
            g["chips"][q] = 0
        g["window"], g["round_left"] = -1, []
        self._target(g)
        if g["phase"] == PH_OVER:
            return
        order = sorted(self.living(g), key=lambda q: (g["record"][q], q))
        if not self.cfg["end_game"] or len(order) < 2:
            g["phase"] = PH_OVER
            return
        g["stage"], g["option"], g["buys"] = ST_LADDER, -1, 0
        g["challenger"], g["ladder"] = order[0], order[1:]
        self._talk_again(g, order[0])

    def _next_challenge(self, g: dict) -> None:
        """Rule 21H as the doc has it: the challenger meets the first player still waiting on the ladder who
        is not its ally (allies keep their places and compete later); once only its allies wait, the
        lowest of them meets the nearest non-ally on the record, looking up first, then down."""
        champion = g["challenger"]
        for i, q in enumerate(g["ladder"]):
            if not g["allied"][champion][q]:
                del g["ladder"][i]
                self._challenge(g, champion, q)
                return
        while g["ladder"]:
            q = g["ladder"].pop(0)
            me = (g["record"][q], q)
            others = sorted((g["record"][r], r) for r in self.living(g) if r != q and not g["allied"][q][r])
            if not others:
                continue
            higher = [x for x in others if x > me]
            g["challenger"] = q
            self._challenge(g, q, higher[0][1] if higher else others[-1][1])
            return
        g["phase"] = PH_OVER

    def _challenge(self, g: dict, low: int, high: int) -> None:
        per = self.cfg["endgame_energy_per_space"]
        self._fight(g, DUEL, -1, [low, high], [g["record"][low] * per // 2, g["record"][high] * per // 2])

    def _duel_battle(self, g: dict, hits: list[bool], weapons: list[int]) -> None:
        g["barred"] = [(1 << weapons[i]) if hits[1 - i] else 0 for i in (0, 1)]
        if hits[0] != hits[1]:
            won = 0 if hits[0] else 1
            g["record"][g["fighters"][won]] += 2
            lost = g["fighters"][1 - won]
            g["record"][lost] = max(0, g["record"][lost] - 2)
        g["choosing"] = g["battles"] % 2
        self._target(g)

    def _duel_over(self, g: dict, broke: list[bool]) -> None:
        for i in (0, 1):
            if broke[1 - i] and not broke[i]:
                g["record"][g["fighters"][i]] += nearest(g["energy"][i], 500) // 500
        a, d = g["fighters"]
        g["challenger"] = a if g["record"][a] > g["record"][d] else d
        self._no_fight(g)
        g["phase"] = PH_TURN
        self._target(g)
        if g["phase"] != PH_OVER:
            if g["ladder"]:
                self._talk_again(g, g["challenger"])
            else:
                g["phase"] = PH_OVER

    # -- results -----------------------------------------------------------------------------
    def returns(self, g: dict) -> list[float]:
        """Rule 22 as the doc has it: by rank, +1 .. -1 evenly, ties share the mean."""
        def key(q: int) -> tuple:
            if q == g["target_winner"]:
                return (2, 0, 0)
            if g["alive"][q]:
                return (1, g["record"][q], 0)
            return (0, 0, g["eliminated"].index(q))

        ranked = sorted(range(self.n), key=key, reverse=True)
        place_score = [1 - 2 * i / (self.n - 1) for i in range(self.n)]
        out = [0.0] * self.n
        for q in range(self.n):
            places = [i for i, r in enumerate(ranked) if key(r) == key(q)]
            out[q] = sum(place_score[i] for i in places) / len(places)
        return out

    def holdings_record(self, g: dict, p: int) -> int:
        """During play a record is exactly its holdings: conquests at full value, allies at half (half
        spaces), the own homeland nothing (rules 5, 13C, 14C, 16B-C, 19C)."""
        return sum(2 * VALUE[c] if g["kind"][c] == CONQUEST else VALUE[c] if g["kind"][c] == ALLY else 0
                   for c in COUNTRIES if g["holder"][c] == p)
