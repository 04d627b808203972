"""An independent model of Ultimatum, written from docs/games/ultimatum_world.md and the book, not from
the engine's code: the legal set of every decision and what every decision does (money, conquests,
cards, battles). It works on a plain dict with the keys of the engine's `state_dict()["state"]` and
takes its dice from a recording of the engine's random draws, so the fuzz can compare the two after
every decision. It reads only data from the package: the map (names, alliances, borders, blockade
numbers, anchor numbers), the card specs and the dice faces, never the legality or rules code."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world.content import CARD_KINDS, world

MAP = world()
N_NATIONS, N_BLOCKADES, N_ANCHORS = 37, 14, 9
N_SEAS = N_BLOCKADES + N_ANCHORS
SEA0 = N_NATIONS  # action / place index of sea place 0

# the action layout of the doc's table
BUY1, BUY5, BUYALL, BUYBS, BUYSUB, BUYLASER = 60, 61, 62, 63, 64, 65
CARD0 = 66
ATTACK, LASER, MOVEBS, MOVESUB, ROLL, BLITZ, STOP = 79, 80, 81, 82, 83, 84, 85
AIM0 = 86
ONE, HALF, ALL = 90, 91, 92
DONE = 93
AMOUNTS = [ONE, HALF, ALL]

SETUP4, SETUP1, SETUPSEA, PURCHASES, ATTACKS, BATTLE, MOVING_IN, DEFENCE, OVER = range(9)
TROOPS, JET, LASERSHOT, NAVAL = range(4)
BS, SUB = 0, 1
OIL = 3
ALLIANCE_PRIZE = {0: 20, 1: 15, 2: 25}
KIND = {name: k for k, name in enumerate(CARD_KINDS)}
BRANCH_INTEL = {"army_intelligence": "army", "navy_intelligence": "navy", "air_intelligence": "air"}

# the map, as the reference reads it
BORDERS = [set(b) for b in MAP.borders]
COAST_NUMBERS = [set(s) for s in MAP.seas]  # blockade indexes on each nation's coast
ANCHOR_LINKS = [[num - 1 for num in nums] for nums in MAP.anchor_numbers]
SEA_NEIGHBOURS = [set() for _ in range(N_SEAS)]
for _k, _links in enumerate(ANCHOR_LINKS):
    for _b in _links:
        SEA_NEIGHBOURS[N_BLOCKADES + _k].add(_b)
        SEA_NEIGHBOURS[_b].add(N_BLOCKADES + _k)


class Mismatch(AssertionError):
    """The engine and the reference disagree."""


class Dice:
    """The engine's random draws in order, handed to the reference one at a time."""

    def __init__(self, log: list[tuple]) -> None:
        self.log = log

    def _next(self, kind: str, size: Any) -> Any:
        if not self.log:
            raise Mismatch(f"the reference wants a {kind}({size}) draw the engine never made")
        got = self.log.pop(0)
        if got[0] != kind or got[1] != size:
            raise Mismatch(f"the reference wants {kind}({size}), the engine drew {got[0]}({got[1]})")
        return got[2]

    def face(self, faces: Sequence) -> Any:
        return faces[self._next("roll", len(faces)) - 1]

    def below(self, n: int) -> int:
        return self._next("below", n)

    def shuffled(self, items: list) -> list:
        return self._next("shuffled", len(items))


class RecordingRng(Rng):
    """The engine's generator, writing down every draw for the reference."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.log: list[tuple] = []

    def roll(self, sides: int) -> int:
        value = super().roll(sides)
        self.log.append(("roll", sides, value))
        return value

    def below(self, n: int) -> int:
        value = super().below(n)
        self.log.append(("below", n, value))
        return value

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        value = super().shuffled(items)
        self.log.append(("shuffled", len(items), list(value)))
        return value


class Reference:
    def __init__(self, g: dict[str, Any], n: int, rules: Any, config: Any) -> None:
        self.g = g
        self.n = n
        self.rules = rules
        self.max_rounds = config.max_rounds
        self.keep_money = config.turn_money_kept
        self.windows = config.reaction_windows
        self.pieces = config.pieces
        self.dice = Dice([])

    # -- building the first position ------------------------------------------------------------
    @classmethod
    def new_game(cls, n: int, rules: Any, config: Any, log: list[tuple]) -> Reference:
        """The position before the first decision, from the config and the engine's first draws."""
        g: dict[str, Any] = {
            "owner": [-1] * N_NATIONS, "troops": [0] * N_NATIONS, "sea_owner": [-1] * N_SEAS,
            "bs": [0] * N_SEAS, "subs": [0] * N_SEAS, "ready_bs": [0] * N_SEAS, "ready_subs": [0] * N_SEAS,
            "bank": [0] * n, "turn_money": 0, "embargo_money": 0, "debts": [], "lasers": [0] * n,
            "hands": [[0] * len(CARD_KINDS) for _ in range(n)], "deck": [], "used": 0,
            "known": [[0] * len(CARD_KINDS) for _ in range(n)],
            "revealed": [[[-1] * len(CARD_KINDS) for _ in range(n)] for _ in range(n)],
            "alliance_flag": [[False] * 4 for _ in range(n)], "out": [False] * n, "phase": SETUP4,
            "setup_first": -1, "setup_count": 0, "start_picks": [], "fleet_first": -1, "order_first": -1,
            "player": -1, "turn": 0, "round": 1, "pending": [], "placing": [0, 0, 0], "place_at": -1,
            "transfer": [-1, -1],
            "attack": [], "force": [0, 0], "aim": -1, "blitz": False, "laser_answered": False, "rolls": 0,
            "conquered_nations": 0, "conquered_blockades": 0, "emptied": [], "winners": [],
        }  # fmt: skip
        ref = cls(g, n, rules, config)
        ref.dice = Dice(log)
        g["deck"] = ref.dice.shuffled(list(rules.deck))
        g["setup_first"] = ref.dice.below(n)
        if config.setup == "dealt":
            while g["phase"] in (SETUP4, SETUP1, SETUPSEA):
                options = sorted(ref.legal())
                ref.step(options[ref.dice.below(len(options))], log=None)
        return ref

    # -- reading the position ---------------------------------------------------------------------
    def who(self) -> int:
        g = self.g
        if g["phase"] == SETUP4:
            return (g["setup_first"] + g["setup_count"] // 4) % self.n
        if g["phase"] == SETUP1:
            return (g["setup_first"] + g["setup_count"]) % self.n
        if g["phase"] == SETUPSEA:
            return (g["fleet_first"] + g["setup_count"]) % self.n
        if g["phase"] == DEFENCE:
            return g["attack"][2]
        return -1 if g["phase"] == OVER else g["player"]

    def holder(self, place: int) -> int:
        g = self.g
        return g["owner"][place] if place < SEA0 else g["sea_owner"][place - SEA0]

    def my_nations(self, p: int) -> list[int]:
        return [x for x in range(N_NATIONS) if self.g["owner"][x] == p]

    def my_seas(self, p: int) -> list[int]:
        return [t for t in range(N_SEAS) if self.g["sea_owner"][t] == p]

    def vessels(self, p: int) -> int:
        return sum(self.g["bs"][t] + self.g["subs"][t] for t in self.my_seas(p))

    def whole(self, p: int, alliance: int) -> bool:
        return all(self.g["owner"][x] == p for x in MAP.members[alliance])

    def not_mine(self, place: int, p: int) -> bool:
        return self.holder(place) not in (-1, p)

    def spare(self, p: int, piece: str) -> int:
        """How many more troops / battleships / submarines p's set of pieces can bring into play: its set
        minus what is on the board, waiting to be placed or fighting at sea; a laser takes a large disc,
        which is ten troops otherwise. A big number when pieces are unlimited."""
        if self.pieces is None:
            return 10**9
        g = self.g
        own_turn = g["player"] == p
        if piece == "troop":
            cap = self.pieces.troop_discs + 10 * self.pieces.large_discs
            used = sum(g["troops"][x] for x in self.my_nations(p)) + 10 * g["lasers"][p]
            return cap - used - (g["placing"][0] if own_turn else 0)
        kind = BS if piece == "battleship" else SUB
        cap = self.pieces.battleships if kind == BS else self.pieces.submarines
        used = sum(g["bs" if kind == BS else "subs"][t] for t in self.my_seas(p))
        at_war = g["attack"] and g["attack"][0] == NAVAL and g["attack"][1] == p
        return cap - used - (g["placing"][1 + kind] if own_turn else 0) - (g["force"][kind] if at_war else 0)

    def laser_disc_free(self, p: int) -> bool:
        """A large disc that is not a laser yet and not needed to count p's troops."""
        if self.pieces is None:
            return True
        return self.g["lasers"][p] < self.pieces.large_discs and self.spare(p, "troop") >= 10

    def card_pieces(self, spec: Any, p: int) -> list[int]:
        """A reinforcement card's troops, battleships and submarines, as many as p's set has left."""
        return [min(spec.troops, self.spare(p, "troop")), min(spec.battleships, self.spare(p, "battleship")),
                min(spec.submarines, self.spare(p, "submarine"))]  # fmt: skip

    # -- what each decision offers -----------------------------------------------------------------
    def troop_money(self) -> int:
        g = self.g
        return g["embargo_money"] + g["turn_money"] + (g["bank"][g["player"]] if g["phase"] == PURCHASES else 0)

    def laser_money(self) -> int:
        g = self.g
        return g["turn_money"] + (g["bank"][g["player"]] if g["phase"] == PURCHASES else 0)

    def new_vessel_blockades(self, p: int) -> list[int]:
        """Blockades p holds; with no vessel left, any vacant one, if p is still on the board."""
        g = self.g
        if self.vessels(p) > 0:
            return [t for t in range(N_BLOCKADES) if g["sea_owner"][t] == p]
        if self.my_nations(p):
            return [t for t in range(N_BLOCKADES) if g["sea_owner"][t] == -1]
        return []

    def targets_from(self, a: int, p: int) -> list[int]:
        g = self.g
        if g["owner"][a] != p or g["troops"][a] < 3:
            return []
        found = []
        for b in range(N_NATIONS):
            if not self.not_mine(b, p):
                continue
            by_land = b in BORDERS[a]
            by_sea = any(g["sea_owner"][t] in (-1, p) for t in COAST_NUMBERS[a] & COAST_NUMBERS[b])
            if by_land or by_sea:
                found.append(b)
        return found

    def lift_from(self, p: int, into: int | None) -> list[int]:
        mine = self.my_nations(p)
        if into is None and len(mine) < 2:
            return []
        return [a for a in mine if self.g["troops"][a] > 1 and a != into]

    def bomb_targets(self, p: int) -> list[int]:
        g = self.g
        nations = [x for x in range(N_NATIONS) if self.not_mine(x, p)]
        seas = [SEA0 + t for t in range(N_SEAS) if self.not_mine(SEA0 + t, p) and g["bs"][t] > 0]
        return nations + seas

    def joiners(self, battleships: bool) -> list[int]:
        g = self.g
        p, t = g["player"], g["attack"][3] - SEA0
        if battleships:
            return [SEA0 + u for u in sorted(SEA_NEIGHBOURS[t]) if g["sea_owner"][u] == p and g["ready_bs"][u] > 0]
        return [SEA0 + u for u in range(N_SEAS) if g["sea_owner"][u] == p and g["ready_subs"][u] > 0]

    def chain_length(self, verb: int) -> int:
        """How many choices follow a verb before it happens."""
        phase = self.g["phase"]
        if verb == ATTACK:
            return 2
        if verb == LASER:
            return 1
        if verb in (MOVEBS, MOVESUB):
            return 2 if phase == BATTLE else 3
        if verb in (CARD0 + KIND["helicopter_commando"], CARD0 + KIND["jet_bomber"]):
            return 1
        if verb == CARD0 + KIND["airlift"]:
            return 2 if phase == DEFENCE else 3
        return 0

    def chain_options(self, verb: int, args: list[int]) -> list[int]:
        g, p, step = self.g, self.who(), len(args)
        if verb == ATTACK:
            if step == 0:
                return [a for a in self.my_nations(p) if self.targets_from(a, p)]
            return self.targets_from(args[0], p)
        if verb == LASER:
            if g["phase"] == DEFENCE:
                attacker = g["attack"][1]
                return self.my_nations(attacker) + [SEA0 + t for t in self.my_seas(attacker)]
            return [x for x in range(SEA0 + N_SEAS) if self.not_mine(x, p)]
        if verb in (MOVEBS, MOVESUB):
            battleships = verb == MOVEBS
            if g["phase"] == BATTLE:
                return self.joiners(battleships) if step == 0 else AMOUNTS
            if step == 0:
                ready = g["ready_bs"] if battleships else g["ready_subs"]
                return [SEA0 + t for t in range(N_SEAS) if g["sea_owner"][t] == p and ready[t] > 0]
            if step == 1:
                here = args[0] - SEA0
                if battleships:
                    return [SEA0 + t for t in sorted(SEA_NEIGHBOURS[here])]
                return [SEA0 + t for t in range(N_SEAS) if t != here]
            return AMOUNTS
        if verb == CARD0 + KIND["helicopter_commando"]:
            return [x for x in range(N_NATIONS) if self.not_mine(x, p)]
        if verb == CARD0 + KIND["jet_bomber"]:
            return self.bomb_targets(p)
        if verb == CARD0 + KIND["airlift"]:
            if g["phase"] == DEFENCE:
                return self.lift_from(p, g["attack"][3]) if step == 0 else AMOUNTS
            if step == 0:
                return self.lift_from(p, None)
            if step == 1:
                return [x for x in self.my_nations(p) if x != args[0]]
            return AMOUNTS
        raise Mismatch(f"verb {verb} has no choices")

    def can_buy(self) -> list[int]:
        g = self.g
        p, money = g["player"], self.troop_money()
        out = []
        troops = self.spare(p, "troop")
        if money >= 1 and self.my_nations(p) and troops >= 1:
            out += [BUY1, BUYALL] + ([BUY5] if money >= 5 and troops >= 5 else [])
        if self.new_vessel_blockades(p):
            out += ([BUYBS] if money >= 2 and self.spare(p, "battleship") else [])
            out += [BUYSUB] if money >= 5 and self.spare(p, "submarine") else []
        if self.laser_money() >= 10 and (self.whole(p, 0) or self.whole(p, 1)) and self.laser_disc_free(p):
            out.append(BUYLASER)
        return out

    def card_usable(self, kind: int) -> bool:
        g = self.g
        p = g["player"]
        spec = self.rules.cards[kind]
        name = CARD_KINDS[kind]
        if spec.user == "defender":
            return False
        if spec.troops or spec.battleships or spec.submarines:
            troops, battleships, submarines = self.card_pieces(spec, p)
            if troops + battleships + submarines == 0:
                return False
            return (not troops or bool(self.my_nations(p))) and (
                not (battleships or submarines) or bool(self.new_vessel_blockades(p))
            )
        if name == "helicopter_commando" and self.spare(p, "troop") == 0:
            return False
        if name in ("helicopter_commando", "jet_bomber", "airlift"):
            return bool(self.chain_options(CARD0 + kind, []))
        return True  # intelligence

    def turn_options(self) -> list[int]:
        g = self.g
        p = g["player"]
        out = self.can_buy()
        out += [CARD0 + k for k in range(len(CARD_KINDS)) if g["hands"][p][k] > 0 and self.card_usable(k)]
        if self.chain_options(ATTACK, []):
            out.append(ATTACK)
        if any(g["sea_owner"][t] == p and g["ready_bs"][t] > 0 for t in range(N_SEAS)):
            out.append(MOVEBS)
        if any(g["sea_owner"][t] == p and g["ready_subs"][t] > 0 for t in range(N_SEAS)):
            out.append(MOVESUB)
        if g["lasers"][p] > 0 and self.chain_options(LASER, []):
            out.append(LASER)
        return out + [DONE]

    def next_roll_possible(self) -> bool:
        g = self.g
        kind, source = g["attack"][0], g["attack"][4]
        if kind == TROOPS:
            return g["troops"][source] >= 3
        if kind == JET:
            return g["force"][0] > 0
        if kind == NAVAL:
            return g["aim"] >= 0 and g["force"][g["aim"] // 2] > 0
        return True

    def defence_options(self, hand: list[int] | None = None) -> list[int]:
        """What the defender may use now; with `hand`, what it could use if that were its hand."""
        g = self.g
        kind, attacker, d, target, source = g["attack"]
        if not self.next_roll_possible():
            return []
        hand, out = g["hands"][d] if hand is None else hand, []
        if kind == TROOPS and hand[KIND["minefield"]] and g["troops"][source] > 1:
            out.append(CARD0 + KIND["minefield"])
        if kind == NAVAL and hand[KIND["ocean_mine"]] and SEA0 <= target < SEA0 + N_BLOCKADES:
            out.append(CARD0 + KIND["ocean_mine"])
        if kind == JET and hand[KIND["anti_aircraft_missile"]]:
            out.append(CARD0 + KIND["anti_aircraft_missile"])
        if kind in (TROOPS, JET, LASERSHOT) and target < SEA0 and hand[KIND["airlift"]] and self.lift_from(d, target):
            out.append(CARD0 + KIND["airlift"])
        attacker_places = self.my_nations(attacker) + self.my_seas(attacker)
        if g["lasers"][d] > 0 and attacker_places and not (kind == LASERSHOT and g["laser_answered"]):
            out.append(LASER)
        return out

    def defender_asked(self) -> bool:
        """Doc, Defence windows: 'always' asks a defender holding any card (when the attack allows a card)
        or a laser it may fire; 'revealing' only one holding something usable."""
        if self.windows == "revealing":
            return bool(self.defence_options())
        d = self.g["attack"][2]
        holds = 1 if sum(self.g["hands"][d]) else 0
        return bool(self.defence_options([holds] * len(CARD_KINDS)))

    def battle_options(self) -> list[int]:
        g = self.g
        if g["attack"][0] == TROOPS:
            return [ROLL, BLITZ] + ([STOP] if g["rolls"] > 0 else [])
        t = g["attack"][3] - SEA0
        theirs = [kind for kind, count in ((BS, g["bs"][t]), (SUB, g["subs"][t])) if count > 0]
        out = [BLITZ] + [AIM0 + 2 * mine + other for mine in (BS, SUB) if g["force"][mine] > 0 for other in theirs]
        out += [MOVEBS] if self.joiners(True) else []
        out += [MOVESUB] if self.joiners(False) else []
        return out

    def start_options(self, p: int) -> list[int]:
        g = self.g
        picked = g["start_picks"]
        used = {MAP.alliance[x] for x in picked}
        have_wp = any(MAP.worldpower[x] for x in picked)
        options = []
        for x in range(N_NATIONS):
            if g["owner"][x] != -1 or MAP.alliance[x] in used or (have_wp and MAP.worldpower[x]):
                continue
            rest = [a for a in range(4) if a not in used | {MAP.alliance[x]}]
            wp_done = have_wp or MAP.worldpower[x]
            free = {(a, wp): any(g["owner"][y] == -1 and MAP.worldpower[y] == wp for y in MAP.members[a]) for a in rest
                    for wp in (False, True)}  # fmt: skip
            if wp_done:
                ok = all(free[(a, False)] for a in rest)
            else:
                ok = any(free[(w, True)] and all(free[(a, False)] for a in rest if a != w) for w in rest)
            if ok:
                options.append(x)
        return options

    def legal(self) -> set[int]:
        g = self.g
        phase = g["phase"]
        if g["pending"]:
            return set(self.chain_options(g["pending"][0], g["pending"][1:]))
        if g["placing"] != [0, 0, 0]:
            if g["place_at"] >= 0:
                return set(AMOUNTS)
            if g["placing"][0]:
                return set(self.my_nations(g["player"]))
            return {SEA0 + t for t in self.new_vessel_blockades(g["player"])}
        if g["transfer"][0] != -1:
            return set(AMOUNTS) | {DONE}
        if phase == SETUP4:
            return set(self.start_options(self.who()))
        if phase == SETUP1:
            return {x for x in range(N_NATIONS) if g["owner"][x] == -1}
        if phase == SETUPSEA:
            return {SEA0 + t for t in range(N_BLOCKADES) if g["sea_owner"][t] == -1}
        if phase in (PURCHASES, ATTACKS):
            return set(self.turn_options())
        if phase == BATTLE:
            return set(self.battle_options())
        if phase == MOVING_IN:
            return set(AMOUNTS)
        if phase == DEFENCE:
            return set(self.defence_options()) | {DONE}
        return set()

    # -- what each decision does --------------------------------------------------------------------
    def step(self, action: int, log: list[tuple] | None) -> None:
        if log is not None:
            self.dice = Dice(log)
        g = self.g
        if g["pending"]:
            g["pending"].append(action)
            verb, args = g["pending"][0], g["pending"][1:]
            if len(args) == self.chain_length(verb):
                g["pending"] = []
                self.do(verb, args)
        elif g["placing"] != [0, 0, 0]:
            self.place(action)
        elif g["transfer"][0] != -1:
            if action == DONE:
                g["transfer"] = [-1, -1]
            else:
                self.shift(g["transfer"][0], g["transfer"][1], action)
        elif g["phase"] in (SETUP4, SETUP1, SETUPSEA):
            self.setup(action)
        elif g["phase"] == BATTLE:
            self.battle(action)
        elif g["phase"] == MOVING_IN:
            self.move_in(action)
        elif action == DONE:
            if g["phase"] == PURCHASES:
                g["phase"] = ATTACKS
            elif g["phase"] == DEFENCE:
                self.close_window()
            else:
                self.end_turn()
        elif self.chain_length(action):
            g["pending"] = [action]
        else:
            self.do(action, [])
        moving_on = g["transfer"][0] != -1
        if g["phase"] == DEFENCE and not g["pending"] and not moving_on and not self.defender_asked():
            self.close_window()
        idle = not g["pending"] and g["placing"] == [0, 0, 0] and not moving_on
        if g["phase"] == PURCHASES and idle and not self.can_buy():
            g["phase"] = ATTACKS
        if log is not None and self.dice.log:
            raise Mismatch(f"the engine made draws the reference did not: {self.dice.log}")

    @staticmethod
    def amount(action: int, available: int) -> int:
        return {ONE: 1, HALF: max(1, available // 2), ALL: available}[action]

    def shift(self, source: int, into: int, action: int) -> None:
        """Troops move between two nations of one player, one staying behind; any number in all, as
        long as the player asks for more."""
        g = self.g
        moved = self.amount(action, g["troops"][source] - 1)
        g["troops"][source] -= moved
        g["troops"][into] += moved
        g["transfer"] = [source, into] if g["troops"][source] > 1 else [-1, -1]

    def do(self, verb: int, args: list[int]) -> None:
        g = self.g
        p = self.who()
        if verb in (BUY1, BUY5, BUYALL):
            count = {BUY1: 1, BUY5: 5}.get(verb) or min(self.troop_money(), self.spare(p, "troop"))
            self.pay(count, laser=False)
            g["placing"][0] += count
        elif verb in (BUYBS, BUYSUB):
            self.pay(2 if verb == BUYBS else 5, laser=False)
            g["placing"][1 if verb == BUYBS else 2] += 1
        elif verb == BUYLASER:
            self.pay(10, laser=True)
            g["lasers"][p] += 1
        elif verb == ATTACK:
            self.declare(TROOPS, args[1], args[0])
        elif verb == LASER:
            g["lasers"][p] -= 1
            if g["phase"] == DEFENCE:
                g["laser_answered"] = True
                self.laser_strike(args[0], by_attacker=False)
            else:
                self.declare(LASERSHOT, args[0], -1)
        elif verb in (MOVEBS, MOVESUB):
            if g["phase"] == BATTLE:
                kind = BS if verb == MOVEBS else SUB
                g["force"][kind] += self.sail_away(kind, args[0] - SEA0, args[1])
            else:
                self.sail(BS if verb == MOVEBS else SUB, args[0] - SEA0, args[1] - SEA0, args[2])
        else:
            self.card(verb - CARD0, args)

    def pay(self, cost: int, laser: bool) -> None:
        g = self.g
        for pot in ([] if laser else ["embargo_money"]) + ["turn_money"]:
            used = min(cost, g[pot])
            g[pot] -= used
            cost -= used
        g["bank"][g["player"]] -= cost
        if g["bank"][g["player"]] < 0:
            raise Mismatch("the reference paid with money the player does not have")

    def earn(self, q: int, amount: int, into: str) -> None:
        g = self.g
        for debt in g["debts"]:
            if debt[0] == q and amount > 0:
                paid = min(amount, debt[2])
                debt[2] -= paid
                amount -= paid
                g["bank"][debt[1]] += paid
        g["debts"] = [d for d in g["debts"] if d[2] > 0]
        if into == "bank":
            g["bank"][q] += amount
        else:
            g[into] += amount

    def place(self, action: int) -> None:
        g = self.g
        kind = [k for k in range(3) if g["placing"][k]][0]
        if g["place_at"] < 0 and g["placing"][kind] > 1:
            g["place_at"] = action
            return
        where = action if g["place_at"] < 0 else g["place_at"]
        count = 1 if g["place_at"] < 0 else self.amount(action, g["placing"][kind])
        g["place_at"] = -1
        g["placing"][kind] -= count
        if kind == 0:
            g["troops"][where] += count
        else:
            self.arrive(where - SEA0, BS if kind == 1 else SUB, count)

    def arrive(self, t: int, kind: int, count: int) -> None:
        """Vessels that arrive (placed, moved or victorious) stay put this turn; arriving conquers nothing."""
        g = self.g
        if t in g["emptied"]:
            g["emptied"].remove(t)
        g["sea_owner"][t] = g["player"]
        g["bs" if kind == BS else "subs"][t] += count

    def vacate_if_empty(self, t: int) -> None:
        g = self.g
        if g["bs"][t] == 0 and g["subs"][t] == 0:
            g["sea_owner"][t] = -1
            g["ready_bs"][t] = g["ready_subs"][t] = 0

    def setup(self, action: int) -> None:
        g = self.g
        p = self.who()
        g["setup_count"] += 1
        if g["phase"] == SETUPSEA:
            t = action - SEA0
            g["sea_owner"][t], g["bs"][t] = p, 2
            if all(o != -1 for o in g["sea_owner"][:N_BLOCKADES]):
                g["order_first"] = p
                for k in range(self.n):
                    g["bank"][(p + k) % self.n] = 2 + k
                self.start_turn(p)
            return
        g["owner"][action] = p
        g["troops"][action] = 10 if g["phase"] == SETUP4 and MAP.worldpower[action] else 5
        if g["phase"] == SETUP4:
            g["start_picks"] = [] if len(g["start_picks"]) == 3 else g["start_picks"] + [action]
            if g["setup_count"] == 4 * self.n:
                g["phase"], g["setup_count"] = SETUP1, 0
        elif all(o != -1 for o in g["owner"]):
            g["phase"], g["setup_count"] = SETUPSEA, 0
            g["fleet_first"] = self.dice.below(self.n)

    def start_turn(self, p: int) -> None:
        g = self.g
        g["player"] = p
        g["turn"] += 1
        g["turn_money"] = g["embargo_money"] = 0
        g["conquered_nations"] = g["conquered_blockades"] = 0
        g["emptied"] = []
        g["ready_bs"] = [g["bs"][t] if g["sea_owner"][t] == p else 0 for t in range(N_SEAS)]
        g["ready_subs"] = [g["subs"][t] if g["sea_owner"][t] == p else 0 for t in range(N_SEAS)]
        g["phase"] = PURCHASES
        if not self.can_buy():
            g["phase"] = ATTACKS

    def end_turn(self) -> None:
        g = self.g
        p = g["player"]
        for _ in range(min(3, g["conquered_nations"] + 2 * g["conquered_blockades"])):
            if g["deck"]:
                from_used_pile = g["used"] == len(g["deck"])  # nothing unseen is left above them
                card = g["deck"].pop(0)
                g["hands"][p][card] += 1
                if from_used_pile:
                    g["used"] -= 1
                    g["known"][p][card] += 1
        income = len(self.my_nations(p)) + 2 * sum(1 for t in range(N_BLOCKADES) if g["sea_owner"][t] == p)
        if self.keep_money:
            income += g["turn_money"] + g["embargo_money"]
        g["turn_money"] = g["embargo_money"] = 0
        self.earn(p, income, "bank")
        for q in range(self.n):
            hand = g["hands"][q]
            way_back = g["lasers"][q] or hand[KIND["helicopter_commando"]] or hand[KIND["jet_bomber"]]
            if not (self.my_nations(q) or self.vessels(q) or way_back):
                g["out"][q] = True
        standing = [q for q in range(self.n) if not g["out"][q]]
        if len(standing) == 1:
            self.finish(standing)
            return
        q, new_round = p, False
        for _ in range(self.n):
            q = (q + 1) % self.n
            new_round = new_round or q == g["order_first"]
            if not g["out"][q]:
                break
        if new_round:
            g["round"] += 1
            if g["round"] > self.max_rounds:
                g["round"] = self.max_rounds
                score = {
                    q: (sum(self.whole(q, a) for a in range(4)), len(self.my_nations(q)),
                        sum(1 for t in range(N_BLOCKADES) if g["sea_owner"][t] == q), g["bank"][q])
                    for q in range(self.n)
                }  # fmt: skip
                best = max(score.values())
                self.finish([q for q in range(self.n) if score[q] == best])
                return
        self.start_turn(q)

    def finish(self, winners: list[int]) -> None:
        g = self.g
        g["winners"], g["phase"], g["pending"], g["placing"], g["place_at"] = winners, OVER, [], [0, 0, 0], -1
        g["transfer"] = [-1, -1]

    def conquer(self, p: int, x: int) -> None:
        g = self.g
        loser, alliance = g["owner"][x], MAP.alliance[x]
        g["owner"][x] = p
        g["conquered_nations"] += 1
        if loser != -1:
            g["alliance_flag"][loser][alliance] = False
        prize = (2 if alliance == OIL else 0) + (5 if MAP.worldpower[x] else 0)
        if prize:
            self.earn(p, prize, "turn_money")
        if not g["alliance_flag"][p][alliance] and self.whole(p, alliance):
            g["alliance_flag"][p][alliance] = True
            if alliance == OIL:
                collected = 0
                for q in range(self.n):
                    if q != p:
                        paid = min(6, g["bank"][q])
                        g["bank"][q] -= paid
                        collected += paid
                        if paid < 6:
                            g["debts"].append([q, p, 6 - paid])
                self.earn(p, collected, "embargo_money")
            else:
                self.earn(p, ALLIANCE_PRIZE[alliance], "turn_money")
        others = sum(self.whole(p, a) for a in range(3))
        if self.whole(p, OIL) and others >= (2 if self.n == 2 else 1):
            self.finish([p])

    # -- attacks -------------------------------------------------------------------------------------
    def declare(self, kind: int, target: int, source: int) -> None:
        g = self.g
        if g["phase"] == PURCHASES:
            g["phase"] = ATTACKS
        p = g["player"]
        g["attack"] = [kind, p, self.holder(target), target, source]
        g["laser_answered"], g["blitz"], g["aim"], g["rolls"] = False, False, -1, 0
        if kind in (TROOPS, NAVAL):
            g["phase"] = BATTLE
        else:
            self.roll_on(window_seen=False)

    def over(self) -> None:
        g = self.g
        g["phase"], g["force"], g["aim"], g["blitz"] = ATTACKS, [0, 0], -1, False

    def naval_blitz_aim(self) -> int:
        g = self.g
        t = g["attack"][3] - SEA0
        return 2 * (SUB if g["force"][SUB] > 0 else BS) + (BS if g["bs"][t] > 0 else SUB)

    def battle(self, action: int) -> None:
        g = self.g
        if action == STOP:
            self.over()
            return
        if action in (MOVEBS, MOVESUB):
            g["pending"] = [action]
            return
        g["blitz"] = g["blitz"] or action == BLITZ
        if g["attack"][0] == NAVAL:
            g["aim"] = self.naval_blitz_aim() if action == BLITZ else action - AIM0
        self.roll_on(window_seen=False)

    def can_go_on(self) -> bool:
        g = self.g
        kind = g["attack"][0]
        if kind == TROOPS and g["troops"][g["attack"][4]] < 3:
            self.over()
            return False
        if kind == JET and g["force"][0] == 0:
            self.over()
            return False
        if kind == NAVAL:
            if g["force"] == [0, 0]:
                self.over()
                return False
            if g["force"][g["aim"] // 2] == 0:
                if g["blitz"]:
                    g["aim"] = self.naval_blitz_aim()
                else:
                    g["phase"], g["aim"] = BATTLE, -1
                    return False
        return True

    def roll_on(self, window_seen: bool) -> None:
        g = self.g
        while self.can_go_on():
            if not window_seen and self.defender_asked():
                g["phase"] = DEFENCE
                return
            window_seen = False
            self.one_roll()
            if g["phase"] != BATTLE or not g["blitz"]:
                return
            if g["attack"][0] == NAVAL:
                g["aim"] = self.naval_blitz_aim()

    def close_window(self) -> None:
        self.g["phase"] = BATTLE
        self.roll_on(window_seen=True)

    def one_roll(self) -> None:
        g = self.g
        kind, p, _, target, source = g["attack"]
        g["rolls"] += 1
        if kind == TROOPS:
            mine, theirs = self.dice.face(self.rules.black), self.dice.face(self.rules.black)
            if mine >= theirs:
                g["troops"][target] -= 1
            if mine <= theirs:
                g["troops"][source] -= 1
            if g["troops"][target] == 0:
                g["phase"] = MOVING_IN
            elif g["troops"][source] < 3:
                self.over()
            else:
                g["phase"] = BATTLE
        elif kind == JET:
            red = self.dice.face(self.rules.red)
            if target < SEA0:
                g["troops"][target] -= max(0, min(red, g["troops"][target] - 1))
            else:
                t = target - SEA0
                g["bs"][t] -= min(red // 2, g["bs"][t])
                self.after_losses(t, by_attacker=True)
            self.over()
        elif kind == LASERSHOT:
            self.laser_strike(target, by_attacker=True)
            self.over()
        else:
            self.naval_roll(p, target - SEA0)

    def naval_roll(self, p: int, t: int) -> None:
        g = self.g
        mine, theirs = divmod(g["aim"], 2)
        green = self.dice.face(self.rules.green)
        if green == "WIN" or (green == "DRAW" and mine == SUB):
            attacker_lost, defender_lost = 0, 1
        elif green == "LOSE":
            attacker_lost, defender_lost = 1, 0
        else:  # a battleship's draw
            attacker_lost, defender_lost = 1, 1 if theirs == BS else 0
        g["force"][mine] -= attacker_lost
        g["bs" if theirs == BS else "subs"][t] -= defender_lost
        g["aim"] = -1
        if g["bs"][t] + g["subs"][t] == 0:
            survivors = list(g["force"])
            g["sea_owner"][t] = -1
            if sum(survivors):
                self.arrive(t, BS, survivors[BS])
                self.arrive(t, SUB, survivors[SUB])
                g["ready_bs"][t] = g["ready_subs"][t] = 0
                if t < N_BLOCKADES:
                    g["conquered_blockades"] += 1
            else:
                self.after_losses(t, by_attacker=True)
            self.over()
        elif sum(g["force"]) == 0:
            self.over()
        else:
            g["phase"] = BATTLE

    def after_losses(self, t: int, by_attacker: bool) -> None:
        g = self.g
        g["ready_bs"][t] = min(g["ready_bs"][t], g["bs"][t])
        g["ready_subs"][t] = min(g["ready_subs"][t], g["subs"][t])
        if g["bs"][t] + g["subs"][t] == 0 and by_attacker and t < N_BLOCKADES:
            g["emptied"].append(t)  # the opponent's last vessel sunk: the blockade is conquered
            g["conquered_blockades"] += 1
        self.vacate_if_empty(t)

    def laser_strike(self, target: int, by_attacker: bool) -> None:
        g = self.g
        black = self.dice.face(self.rules.black)
        if target < SEA0:
            g["troops"][target] -= max(0, min(black, g["troops"][target] - 1))
            return
        t = target - SEA0
        hits = black // 2
        sunk_bs = min(hits, g["bs"][t])
        g["bs"][t] -= sunk_bs
        g["subs"][t] -= min(hits - sunk_bs, g["subs"][t])
        self.after_losses(t, by_attacker)

    def move_in(self, action: int) -> None:
        g = self.g
        _, p, _, target, source = g["attack"]
        self.over()
        self.shift(source, target, action)
        self.conquer(p, target)

    def sail_away(self, kind: int, s: int, amount: int) -> int:
        g = self.g
        ready = g["ready_bs" if kind == BS else "ready_subs"]
        count = self.amount(amount, ready[s])
        ready[s] -= count
        g["bs" if kind == BS else "subs"][s] -= count
        self.vacate_if_empty(s)
        return count

    def sail(self, kind: int, s: int, t: int, amount: int) -> None:
        g = self.g
        count = self.sail_away(kind, s, amount)
        if g["sea_owner"][t] in (-1, g["player"]):
            self.arrive(t, kind, count)
            return
        g["force"] = [count, 0] if kind == BS else [0, count]
        self.declare(NAVAL, SEA0 + t, SEA0 + s)

    def card(self, kind: int, args: list[int]) -> None:
        g = self.g
        p = self.who()
        g["hands"][p][kind] -= 1
        g["known"][p][kind] = max(0, g["known"][p][kind] - 1)
        g["deck"].append(kind)
        g["used"] += 1
        name, spec = CARD_KINDS[kind], self.rules.cards[kind]
        if spec.troops or spec.battleships or spec.submarines:
            g["placing"] = [a + b for a, b in zip(g["placing"], self.card_pieces(spec, p))]
        elif name in BRANCH_INTEL:
            for q in range(self.n):
                if q != p:
                    for k, other in enumerate(self.rules.cards):
                        if other.branch == BRANCH_INTEL[name]:
                            g["revealed"][p][q][k] = g["hands"][q][k]
        elif name == "helicopter_commando":
            if g["phase"] == PURCHASES:
                g["phase"] = ATTACKS
            x = args[0]
            raiders, defenders = min(10, self.spare(p, "troop")), g["troops"][x]
            while raiders and defenders:
                mine, theirs = self.dice.face(self.rules.black), self.dice.face(self.rules.black)
                if mine == theirs and raiders == defenders == 1:
                    defenders = 0
                    break
                raiders -= mine <= theirs
                defenders -= mine >= theirs
            if defenders:
                g["troops"][x] = defenders
            else:
                g["troops"][x] = raiders
                self.conquer(p, x)
        elif name == "jet_bomber":
            g["force"] = [1, 0]
            self.declare(JET, args[0], -1)
        elif name == "airlift":
            into = g["attack"][3] if g["phase"] == DEFENCE else args[1]
            self.shift(args[0], into, args[-1])
        elif name == "minefield":
            source = g["attack"][4]
            g["troops"][source] -= min(5, g["troops"][source] - 1)
        elif name == "ocean_mine":
            g["force"][g["aim"] // 2] -= 1
        elif name == "anti_aircraft_missile":
            g["force"] = [0, 0]


def compare(engine_state: dict[str, Any], ref: Reference, context: str) -> None:
    """Every field of the engine's state dict but the event log must equal the reference's."""
    for key, value in ref.g.items():
        if engine_state[key] != value:
            raise Mismatch(f"{context}: {key} engine {engine_state[key]!r} reference {value!r}")


def reference_from(engine_state: dict[str, Any], n: int, rules: Any, config: Any) -> Reference:
    g = {k: copy.deepcopy(v) for k, v in engine_state.items() if k != "events"}
    return Reference(g, n, rules, config)
