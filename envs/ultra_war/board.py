"""One map as lookup tables: what each field is (wall, door, obstruction, stairs, level, marks), who may
step between two fields, and whether a sight line is clear. Breached walls are passed in by the state."""

from __future__ import annotations

from ultimata.envs.ultra_war.content import MapSpec
from ultimata.envs.ultra_war.geometry import BETWEEN, COL, FIELDS, ROW, STEP, chebyshev


class Board:
    def __init__(self, spec: MapSpec) -> None:
        cells = [(spec.terrain[ROW[f]][COL[f]], spec.levels[ROW[f]][COL[f]], spec.marks[ROW[f]][COL[f]])
                 for f in range(FIELDS)]
        self.spec = spec
        self.layout = "\n".join(spec.terrain + spec.levels + spec.marks)
        """The map as one string: the key of caches shared by every board of this map, copies included
        (an object's id is no key: a copy has another, and a freed board's id is reused)."""
        self.wall = [t == "#" for t, _, _ in cells]
        self.door = [t == "D" for t, _, _ in cells]
        self.breachable = [t == "B" for t, _, _ in cells]
        self.obstruction = [t == "o" for t, _, _ in cells]
        self.stairs = [t == "s" for t, _, _ in cells]
        self.level = [int(lv) for _, lv, _ in cells]
        self.objective = [m == "*" for _, _, m in cells]
        self.escape = [m == "e" for _, _, m in cells]
        self.start = ([m == "A" for _, _, m in cells], [m == "a" for _, _, m in cells])
        self.prison = next((f for f in range(FIELDS) if cells[f][2] == "p"), -1)
        self.exits = [tuple((b, d, self.wall[b], self.level_line(f, b)) for d, b in enumerate(STEP[f]) if b >= 0)
                      for f in range(FIELDS)]
        """exits[f]: (neighbour, direction, is a wall, crosses a level line) for each step off f: what a
        step's legality reads from the map, looked up once."""
        centre = FIELDS // 2 + 6
        self.start_spaces = tuple(sorted((f for f in range(FIELDS) if self.start[side][f]),
                                         key=lambda f: (chebyshev(f, centre), f)) for side in (0, 1))
        """Each side's start spaces, nearest the map centre first: pawns go on the first, tokens on the last
        (gap, ours)."""

    def solid(self, f: int, breached: set[int]) -> bool:
        """A wall no one walks into: walls, and breachable walls not yet breached."""
        return self.wall[f] or (self.breachable[f] and f not in breached)

    def level_line(self, a: int, b: int) -> bool:
        """Stepping a -> b crosses a level-change line (different levels, neither field is stairs)."""
        return self.level[a] != self.level[b] and not (self.stairs[a] or self.stairs[b])

    def sight_clear(
        self, a: int, b: int, occupied: dict[int, bool], breached: set[int], shooter_flies: bool, target_flies: bool
    ) -> bool:
        """Line of sight from the centre of a to the centre of b (book: Ranged Attacks, Level Changes).

        Walls, closed doors and unbreached walls always block; obstructions and characters block unless
        the shooter or the target flies; a Gigantic character (occupied[f] True) blocks even then.
        Levels, unless one of the two flies: a line with an end on the ground level may not cross an upper-
        level space - a viewer on a roof sees the ground only over the ledge the line leaves by (the book's
        Fogg, at the ledge below her but one space from the ledge on her right, cannot see Rayna against the
        right-hand wall), is seen from the ground only there, and a building hides what is behind it."""
        flies = shooter_flies or target_flies
        ground = (self.level[a] == 0 or self.level[b] == 0) and not flies
        level = self.level
        for f in BETWEEN[a][b]:
            if self.wall[f] or self.door[f] or (self.breachable[f] and f not in breached):
                return False
            if f in occupied and (occupied[f] or not flies):
                return False
            if self.obstruction[f] and not flies:
                return False
            if ground and level[f] == 1:
                return False
        return True
