"""The square grid: fields, the eight directions, arcs, distances and the cells a sight line crosses.

Everything here is a table computed once at import (the engine only looks things up)."""

from __future__ import annotations

from fractions import Fraction

from ultimata.envs.ultra_war.content import SIZE

FIELDS = SIZE * SIZE
ROW = [f // SIZE for f in range(FIELDS)]
COL = [f % SIZE for f in range(FIELDS)]
DIRS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
"""Direction d = 0..7 as (drow, dcol): N, NE, E, SE, S, SW, W, NW (row 0 is the top of the map)."""
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def field(row: int, col: int) -> int:
    return row * SIZE + col


def name(f: int) -> str:
    return f"{'abcdefghijkl'[COL[f]]}{SIZE - ROW[f]}"


def _step(f: int, d: int) -> int:
    r, c = ROW[f] + DIRS[d][0], COL[f] + DIRS[d][1]
    return field(r, c) if 0 <= r < SIZE and 0 <= c < SIZE else -1


STEP = [[_step(f, d) for d in range(8)] for f in range(FIELDS)]
"""STEP[f][d]: the neighbour of f in direction d, or -1 off the map."""
NEIGHBOURS = [[g for g in STEP[f] if g >= 0] for f in range(FIELDS)]


def direction(a: int, b: int) -> int:
    """The direction (0..7) from a towards b, by the sign of the offset (b != a)."""
    dr, dc = ROW[b] - ROW[a], COL[b] - COL[a]
    return DIRS.index(((dr > 0) - (dr < 0), (dc > 0) - (dc < 0)))


CHEBYSHEV = [[max(abs(ROW[a] - ROW[b]), abs(COL[a] - COL[b])) for b in range(FIELDS)] for a in range(FIELDS)]
MANHATTAN = [[abs(ROW[a] - ROW[b]) + abs(COL[a] - COL[b]) for b in range(FIELDS)] for a in range(FIELDS)]
"""The two distances as tables (hot loops index a row; -1 indexes like field 143, as ROW[-1] does)."""


def chebyshev(a: int, b: int) -> int:
    """Spaces apart counting diagonal steps: melee range, engagement, control ranges, explosion rings."""
    return CHEBYSHEV[a][b]


def manhattan(a: int, b: int) -> int:
    """Range of ranged attacks and feats: counted through the sides of squares (book, Ranged Attacks)."""
    return MANHATTAN[a][b]


def front(f: int, facing: int) -> set[int]:
    """The front arc: the three spaces ahead."""
    return {g for d in (facing - 1, facing, facing + 1) if (g := STEP[f][d % 8]) >= 0}


def front_and_sides(f: int, facing: int) -> set[int]:
    """Front arc plus the side spaces: where an engaged enemy may stand without a free strike."""
    return {g for k in range(-2, 3) if (g := STEP[f][(facing + k) % 8]) >= 0}


def back(f: int, facing: int) -> set[int]:
    """The back arc: the three spaces behind (back stab)."""
    return {g for k in (3, 4, 5) if (g := STEP[f][(facing + k) % 8]) >= 0}


def is_backward(facing: int, d: int) -> bool:
    """A step into the back arc's directions is moving backwards (movement halved)."""
    return (d - facing) % 8 in (3, 4, 5)


def ahead(a: int, facing: int, b: int) -> bool:
    """Whether b lies before a character at a facing `facing` or level with it: not behind the line through
    its side spaces. Its front arc and sides (the 5 forward spaces) extended to every range: where its
    sight reaches (glossary, Line of Sight: "between the forward facing base piece" and the selection)."""
    dr, dc = DIRS[facing]
    return (ROW[b] - ROW[a]) * dr + (COL[b] - COL[a]) * dc >= 0


AHEAD = [[bytes(ahead(a, d, b) for b in range(FIELDS)) for a in range(FIELDS)] for d in range(8)]
"""AHEAD[facing][a][b]: ahead as a table."""

ORIENT = (tuple(range(FIELDS)), tuple(FIELDS - 1 - f for f in range(FIELDS)))
"""ORIENT[seat][f]: field f as the seat sees it (player_1's map is turned 180 degrees; an involution,
so it also maps a seat-relative field back)."""

BACKWARD = [[is_backward(facing, d) for d in range(8)] for facing in range(8)]
"""BACKWARD[facing][d]: is_backward as a table."""


def _crossed(dr: int, dc: int) -> tuple[tuple[int, int], ...]:
    """Cells whose open interior the segment between the centres of (0,0) and (dr,dc) passes through,
    ends excluded. A line that only grazes a corner does not cross that cell."""
    out = []
    for r in range(min(0, dr), max(0, dr) + 1):
        for c in range(min(0, dc), max(0, dc) + 1):
            if (r, c) in ((0, 0), (dr, dc)):
                continue
            lo, hi = Fraction(0), Fraction(1)
            for cell, delta in ((r, dr), (c, dc)):
                if delta == 0:
                    if cell != 0:
                        lo, hi = Fraction(1), Fraction(0)
                    continue
                a, b = Fraction(2 * cell - 1, 2 * delta), Fraction(2 * cell + 1, 2 * delta)
                lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
            if lo < hi:
                out.append((r, c))
    return tuple(out)


_CROSSED = {(dr, dc): _crossed(dr, dc) for dr in range(-SIZE + 1, SIZE) for dc in range(-SIZE + 1, SIZE)}


def between(a: int, b: int) -> list[int]:
    """Fields a sight line from the centre of a to the centre of b passes through (ends excluded)."""
    return [field(ROW[a] + r, COL[a] + c) for r, c in _CROSSED[(ROW[b] - ROW[a], COL[b] - COL[a])]]


BETWEEN = [[between(a, b) for b in range(FIELDS)] for a in range(FIELDS)]
