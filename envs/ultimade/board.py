"""The pitch as bitboards: 162 fields, one bit each, so runs, lanes and marking are a few integer ops.

Field index f = row * 9 + col. Row 0 is the end player_0 defends (printed as row 1), col 0 is
column 'a'. Everything here is precomputed at import; the rules only combine these tables.
"""

from __future__ import annotations

WIDTH = 9
LENGTH = 18
FIELDS = WIDTH * LENGTH
COLUMNS = "abcdefghi"

FULL = (1 << FIELDS) - 1
ROW = [f // WIDTH for f in range(FIELDS)]
COL = [f % WIDTH for f in range(FIELDS)]
BIT = [1 << f for f in range(FIELDS)]

_COL_A = sum(BIT[r * WIDTH] for r in range(LENGTH))
_COL_I = sum(BIT[r * WIDTH + WIDTH - 1] for r in range(LENGTH))
_NOT_A = FULL & ~_COL_A
_NOT_I = FULL & ~_COL_I

DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""(d_row, d_col) of the eight straight lines: forward, diagonals, sideways, back."""


def name(f: int) -> str:
    """'e7' style: column letter, then row 1..18 counted from player_0's end."""
    return f"{COLUMNS[COL[f]]}{ROW[f] + 1}"


NAMES = tuple(name(f) for f in range(FIELDS))


def parse(text: str) -> int:
    """Inverse of `name`; raises ValueError for anything off the pitch."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise ValueError(f"{text!r} is not a field name like 'e7' (columns a-i, rows 1-{LENGTH})")
    row = int(text[1:]) - 1
    if not 0 <= row < LENGTH:
        raise ValueError(f"{text!r} is off the pitch: rows run 1-{LENGTH}")
    return row * WIDTH + COLUMNS.index(text[0])


def grow(b: int) -> int:
    """Every field one king step from a field of `b` (including `b` itself)."""
    h = b | ((b << 1) & _NOT_A) | ((b >> 1) & _NOT_I)
    return (h | (h << WIDTH) | (h >> WIDTH)) & FULL


NEIGHBOURS = [grow(BIT[f]) & ~BIT[f] for f in range(FIELDS)]
"""The 8 (or fewer, at the edges) fields around each field: where a marker stands."""


def chebyshev(a: int, b: int) -> int:
    """King-step distance: how many fields a run needs on an empty pitch."""
    return max(abs(ROW[a] - ROW[b]), abs(COL[a] - COL[b]))


def _balls() -> list[list[int]]:
    balls = []
    for f in range(FIELDS):
        rings = [BIT[f]]
        for _ in range(LENGTH):
            rings.append(grow(rings[-1]))
        balls.append(rings)
    return balls


BALL = _balls()
"""BALL[f][k]: every field within k king steps of f (k = 0..18)."""


def _lanes() -> list[list[int]]:
    """BETWEEN[a][b]: the fields a straight throw from a to b passes over; 0 if not a legal line."""
    between = [[0] * FIELDS for _ in range(FIELDS)]
    for a in range(FIELDS):
        for dr, dc in DIRECTIONS:
            r, c, passed = ROW[a] + dr, COL[a] + dc, 0
            while 0 <= r < LENGTH and 0 <= c < WIDTH:
                b = r * WIDTH + c
                if passed:
                    between[a][b] = passed
                passed |= BIT[b]
                r, c = r + dr, c + dc
    return between


BETWEEN = _lanes()
"""Nonzero exactly for pairs on one row, column or diagonal at distance >= 2 (a throw's minimum)."""

FLIP = [(LENGTH - 1 - ROW[f]) * WIDTH + COL[f] for f in range(FIELDS)]
"""Mirror across the half-way line: player_1's view, so both seats attack 'up' the board."""

_BYTES = (FIELDS + 7) // 8


def _byte_tables() -> tuple[list[list[tuple[int, ...]]], list[list[tuple[int, ...]]]]:
    plain, flipped = [], []
    for i in range(_BYTES):
        row_plain, row_flip = [], []
        for byte in range(256):
            fields = [8 * i + j for j in range(8) if byte >> j & 1 and 8 * i + j < FIELDS]
            row_plain.append(tuple(fields))
            row_flip.append(tuple(FLIP[f] for f in fields))
        plain.append(row_plain)
        flipped.append(row_flip)
    return plain, flipped


_TABLES = _byte_tables()


def fields_of(b: int, seat: int = 0) -> list[int]:
    """The set bits of `b` as field indices, mirrored for seat 1 (order is not sorted)."""
    table = _TABLES[seat]
    out: list[int] = []
    for i, byte in enumerate(b.to_bytes(_BYTES, "little")):
        if byte:
            out += table[i][byte]
    return out


def reach(start: int, passable: int, empty: int, steps: int) -> int:
    """End fields of king-step runs of 1..`steps` from `start`, stepping only on `passable` fields
    and ending on an `empty` one. `passable` must contain `empty`."""
    cur = BIT[start]
    if passable == empty:
        for _ in range(steps):
            nxt = cur | (grow(cur) & empty)
            if nxt == cur:
                break
            cur = nxt
        return cur & ~BIT[start]
    ends = 0
    for _ in range(steps):
        nxt = grow(cur)
        ends |= nxt & empty
        cur = nxt & passable | cur
    return ends & ~BIT[start]


def rows_mask(first: int, last: int) -> int:
    """All fields of rows first..last (0-based, inclusive)."""
    return sum(BIT[r * WIDTH + c] for r in range(first, last + 1) for c in range(WIDTH))
