"""An independent reference model of Ultra War's movement and targeting, written from the book and
docs/games/ultra_war.md, not from the engine: it reads the map from its data file and the pieces from the
state's plain fields (positions, facings, flags, reserves), and computes on its own terms

- which neighbouring spaces the active character may step to (8-neighbour steps, blocking, level lines,
  stairs, flight and Ethereal passing through, no diagonal squeeze between two touching pieces, charging,
  moving backwards halved, deprivation),
- which fields a single-target attack may be made at (melee adjacency and level lines; ranged: only
  at a target not behind the character's side line, range counted through the sides of squares, line of
  sight from centre to centre with its blockers and the level rule; who may be hit; the cost),
- whether a sight line is clear.

Geometry is done in doubled integer coordinates (a space (r, c) is the open square (2r, 2r+2) x (2c,
2c+2), its centre (2r+1, 2c+1)), with no shared table: the engine uses precomputed fractions."""

from __future__ import annotations

from typing import Any

from ultimata.envs.ultra_war.content import content

N = 12
DIRECTIONS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]
"""N, NE, E, SE, S, SW, W, NW as (drow, dcol): the doc's direction numbers 0..7."""


class RefMap:
    """The map as the doc describes it, from the scenario's data (terrain, levels)."""

    def __init__(self, map_name: str) -> None:
        spec = content().maps[map_name]
        self.terrain = [list(row) for row in spec.terrain]
        self.levels = [[int(x) for x in row] for row in spec.levels]

    def kind(self, r: int, c: int) -> str:
        return self.terrain[r][c]

    def solid(self, r: int, c: int, breached: set[tuple[int, int]]) -> bool:
        """Walls, and breachable walls not breached."""
        k = self.terrain[r][c]
        return k == "#" or (k == "B" and (r, c) not in breached)

    def blocks_sight_always(self, r: int, c: int, breached: set[tuple[int, int]]) -> bool:
        return self.solid(r, c, breached) or self.terrain[r][c] == "D"

    def level_line(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """A step between different levels where neither space is stairs."""
        return self.levels[a[0]][a[1]] != self.levels[b[0]][b[1]] and "s" not in (self.kind(*a), self.kind(*b))


def rc(f: int) -> tuple[int, int]:
    return divmod(f, N)


def on_board(r: int, c: int) -> bool:
    return 0 <= r < N and 0 <= c < N


class Reference:
    """One state seen through the doc's rules."""

    def __init__(self, st: Any) -> None:
        self.st = st
        self.map = RefMap(st.game.scenario.map)
        self.breached = {rc(f) for f in st.breached}
        self.pawns = [u for u in st.units if u.pos >= 0]
        self.tokens = [s for s in st.sources if s.token and s.pos >= 0 and s.life > 0]

    # -- who stands where ----------------------------------------------------------------------
    def others_at(self, mover: Any, r: int, c: int) -> list[Any]:
        return [u for u in self.pawns if u is not mover and rc(u.pos) == (r, c)]

    def token_at(self, r: int, c: int) -> Any:
        return next((s for s in self.tokens if rc(s.pos) == (r, c)), None)

    def taken(self, mover: Any, r: int, c: int) -> bool:
        """Another character or a power token stands there."""
        return bool(self.others_at(mover, r, c)) or self.token_at(r, c) is not None

    # -- a character's facts, as the doc states them -----------------------------------------------
    @staticmethod
    def has(u: Any, ability: str) -> bool:
        return ability in u.ch.abilities

    def ethereal(self, u: Any) -> bool:
        return self.has(u, "Ethereal") and not u.ethereal_off

    def deck(self, u: Any) -> dict:
        return content().decks[self.st.game.scenario.factions[u.side]]

    def allowance(self, u: Any) -> tuple[int, int]:
        """(ahead, behind): steps allowed this activation, and once moving backwards (halved, rounded up).
        Charging: twice the printed movement plus equipment movement (Charge Attack: movement + 2);
        deprived and not flying: less half, rounded up."""
        deck = self.deck(u)
        bonus = (deck[u.standard].movement if u.standard else 0) + sum(deck[x].movement for x in u.upgrades)
        printed = u.ch.movement
        if u.charging == 1 and self.has(u, "Charge Attack"):  # (2: the plain charge it chose instead)
            m = printed + bonus + 2
        elif u.charging:
            m = 2 * printed + bonus
        else:
            m = printed + bonus
        if u.deprived and not u.flying:
            m = m - (m + 1) // 2
        half = (m + 1) // 2
        return (half if u.backward else m), half

    def can_move(self, u: Any) -> bool:
        disabled = u.stun > 0 or u.stasis > 0 or u.powered_down
        return not (u.turned or disabled or u.imprisoned) and (u.attacks_made == 0 or self.has(u, "Empowered"))

    # -- movement ------------------------------------------------------------------------------
    def steps(self, u: Any) -> set[int]:
        """The fields the active character `u` may step to now."""
        if not self.can_move(u):
            return set()
        ahead, behind = self.allowance(u)
        r0, c0 = rc(u.pos)
        out = set()
        for d, (dr, dc) in enumerate(DIRECTIONS):
            r, c = r0 + dr, c0 + dc
            if not on_board(r, c):
                continue
            backwards = (d - u.facing) % 8 in (3, 4, 5)
            if u.steps + 1 > (behind if backwards or u.backward else ahead):
                continue
            if self.may_stop(u, (r0, c0), (r, c)) or self.may_pass(u, (r0, c0), (r, c), behind):
                out.add(r * N + c)
        return out

    def level_free(self, u: Any) -> bool:
        return u.flying or self.has(u, "Level Change Movement") or self.ethereal(u)

    def may_stop(self, u: Any, a: tuple[int, int], b: tuple[int, int]) -> bool:
        if self.map.solid(*b, self.breached) or self.taken(u, *b):
            return False
        if a[0] != b[0] and a[1] != b[1] and not (u.flying or self.ethereal(u) or
                                                   self.has(u, "Level Change Movement")):
            corners = ((a[0], b[1]), (b[0], a[1]))  # "As long as there is a space between the characters"
            if all(self.map.solid(*x, self.breached) or self.taken(u, *x) for x in corners):
                return False
        return self.level_free(u) or not self.map.level_line(a, b)

    def may_pass(self, u: Any, a: tuple[int, int], b: tuple[int, int], behind: int) -> bool:
        """Flight over a (non-Gigantic) character or a token; Ethereal through characters, tokens and walls;
        only if one more step (counted as if backwards) to a free neighbouring space fits."""
        eth = self.ethereal(u)
        if not (u.flying or eth) or u.steps + 2 > behind:
            return False
        if self.map.solid(*b, self.breached):
            if not eth:
                return False
        else:
            others = self.others_at(u, *b)
            if not others and self.token_at(*b) is None:
                return False
            if any("Gigantic" in o.ch.tags for o in others) and not eth:
                return False
        here_free = not self.taken(u, *a) and not (eth and self.map.solid(*a, self.breached))
        for dr, dc in DIRECTIONS:
            r, c = b[0] + dr, b[1] + dc
            if not on_board(r, c):
                continue
            if (r, c) == a:
                if here_free:
                    return True
            elif not self.map.solid(r, c, self.breached) and not self.taken(u, r, c):
                return True
        return False

    # -- line of sight -------------------------------------------------------------------------
    @staticmethod
    def crossed(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
        """Spaces whose open interior the segment between the two centres passes through (ends excluded):
        some corner of the square lies strictly on each side of the line (a line through a corner only
        grazes it). Only spaces in the box the two spaces span can be crossed."""
        (ra, ca), (rb, cb) = a, b
        ya, xa, yb, xb = 2 * ra + 1, 2 * ca + 1, 2 * rb + 1, 2 * cb + 1
        out = []
        for r in range(min(ra, rb), max(ra, rb) + 1):
            for c in range(min(ca, cb), max(ca, cb) + 1):
                if (r, c) in (a, b):
                    continue
                sides = {_sign((xb - xa) * (y - ya) - (yb - ya) * (x - xa))
                         for y in (2 * r, 2 * r + 2) for x in (2 * c, 2 * c + 2)}
                if 1 in sides and -1 in sides:
                    out.append((r, c))
        return out

    def sight(self, a: tuple[int, int], b: tuple[int, int], shooter_flies: bool, target_flies: bool) -> bool:
        """Walls, doors, unbreached walls block; obstructions and characters / tokens block unless one of the
        two flies; Gigantic characters block even then; unless one flies, a line with an end on the ground
        may not cross an upper-level space."""
        flies = shooter_flies or target_flies
        lv = self.map.levels
        ground = (lv[a[0]][a[1]] == 0 or lv[b[0]][b[1]] == 0) and not flies
        for r, c in self.crossed(a, b):
            if self.map.blocks_sight_always(r, c, self.breached):
                return False
            here = [u for u in self.pawns if rc(u.pos) == (r, c)]
            if any("Gigantic" in u.ch.tags for u in here):
                return False
            if not flies and (here or self.token_at(r, c) is not None or self.map.kind(r, c) == "o"):
                return False
            if ground and lv[r][c] == 1:
                return False
        return True

    # -- single-target attacks -----------------------------------------------------------------
    def attack_fields(self, u: Any, spec: Any) -> set[int]:
        """Where `u` may attack with `spec` (a single-target attack: no Explosive, Linear or Front Arch),
        as far as the target goes (range, sight, who may be hit, the cost)."""
        if not self.affordable(u, spec):
            return set()
        out = set()
        a = rc(u.pos)
        for target in [x for x in self.pawns if x.side != u.side] + [s for s in self.tokens if s.side != u.side]:
            b = rc(target.pos)
            if b == a:
                continue
            pawn = not hasattr(target, "bearer")
            t_flies = pawn and target.flying
            if pawn and not self.may_hit(u, spec, target):
                continue
            if spec.kind == "melee":
                if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
                    continue
                if not (u.flying or t_flies) and self.map.level_line(a, b):
                    continue
            else:
                if self.behind(u, b):
                    continue
                if abs(a[0] - b[0]) + abs(a[1] - b[1]) > spec.range:
                    continue
                if "Directed" not in spec.tags and not self.sight(a, b, u.flying, t_flies):
                    continue
            out.add(target.pos)
        return out

    @staticmethod
    def behind(u: Any, b: tuple[int, int]) -> bool:
        """The doc: a ranged attack (or a feat) selects only ahead of the character or beside it. b is behind
        when it lies strictly on the back arc's side of the line through the two side spaces (the line's
        direction is the right-hand side's; a cross product's sign tells the sides of a line apart)."""
        r, c = rc(u.pos)
        side, back = DIRECTIONS[(u.facing + 2) % 8], DIRECTIONS[(u.facing + 4) % 8]
        where = side[0] * (b[1] - c) - side[1] * (b[0] - r)
        return where * (side[0] * back[1] - side[1] * back[0]) > 0

    def may_hit(self, u: Any, spec: Any, target: Any) -> bool:
        if target.flying and spec.kind == "melee" and not u.flying:
            return False
        if self.ethereal(target) and not ({"Magical Attack", "Magical Fire"} & set(spec.tags)):
            return False
        return not ("Sneak Attack" in spec.tags and self.has(target, "Stealth Reveal"))

    def affordable(self, u: Any, spec: Any) -> bool:
        """The doc's Paying: own reserve of the cost's kind (magic: and crystal magic while a crystal powers
        it, and that crystal's points), then own Transfer characters next to it of that kind."""
        if spec.cost is None:
            return True
        kind, need = spec.cost.reserve, spec.cost.amount
        have = u.reserves.get(kind, 0)
        if kind == "magic":
            crystal = self.powering_crystal(u)
            if crystal is not None:
                have += u.reserves.get("crystal_magic", 0) + crystal.points
        if kind != "ammunition":
            ability = "Magic Transfer" if kind == "magic" else "Energy Transfer"
            r, c = rc(u.pos)
            for o in self.pawns:
                if (o is not u and o.side == u.side and max(abs(rc(o.pos)[0] - r), abs(rc(o.pos)[1] - c)) == 1
                        and not o.imprisoned and not o.powered_down and self.has(o, ability)):
                    have += o.reserves.get(kind, 0)
        return have >= need

    def powering_crystal(self, u: Any) -> Any:
        """The crystal u is equipped with (the first it got), if u can use crystals."""
        idx = self.st.units.index(u)
        borne = [s for s in self.st.sources if not s.token and s.bearer == idx]
        if not borne or not (u.ch.faction in ("order", "legion") or u.ch.magic > 0):
            return None
        return borne[0]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


AREA = ("Explosive", "Linear", "Front Arch")


def spec_for(u: Any, slot: int, factions: tuple[str, str]) -> Any:
    """Attack slot 0/1: the character's own attacks; 2: its weapon card; a Dual Wield character's second
    weapon is its slot 1 (the doc's Attacks)."""
    if slot < len(u.ch.attacks):
        return u.ch.attacks[slot]
    deck = content().decks[factions[u.side]]
    if slot == 2 and u.weapon:
        return deck[u.weapon].attack
    if slot == 1 and u.weapon2:
        return deck[u.weapon2].attack
    return None


def may_attack(ref: Reference, u: Any, spec: Any) -> bool:
    """Not turned, disabled or imprisoned; not after a plain charge; attacks left (one, two with Dual Attack,
    Multi-Shot's extra ranged ones); and not in the middle of passing through another's space."""
    if u.turned or u.stun or u.stasis or u.powered_down or u.imprisoned:
        return False
    if u.charging == 2 or (u.charging and not (Reference.has(u, "Double Movement")
                                               or Reference.has(u, "Charge Attack"))):
        return False
    limit = 2 if Reference.has(u, "Dual Attack") else 1
    if spec.kind == "ranged":
        limit += u.ch.abilities.get("Multi-Shot") or 0
    if u.attacks_made >= limit:
        return False
    here = rc(u.pos)
    inside = ref.taken(u, *here) or (ref.ethereal(u) and ref.map.solid(*here, ref.breached))
    return not ((u.flying or ref.ethereal(u)) and inside)
