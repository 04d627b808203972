"""The pitch as three int64 words per board, and its tables as tensors, for the array engine.

Why three words: 162 fields do not fit one int64, and a bool per field makes every run step a pass over
162 bytes per player. Six rows of nine fields (54 bits) fill one word, so rows never straddle two words,
a king step sideways is a shift by one bit within a word and a step forward or back a shift by nine bits
with a carry between words. Field f lives in word f // 54, bit f % 54 (board.py's field numbering).
Index 162 of every table is "no field" (a player off the pitch, no runner): its entries are empty.
"""

from __future__ import annotations

import torch

from ultimata.envs.ultimade.board import (
    BALL,
    BETWEEN,
    BIT,
    COL,
    DIRECTIONS,
    FIELDS,
    FLIP,
    LENGTH,
    NEIGHBOURS,
    ROW,
    WIDTH,
    chebyshev,
)

WORD = 54
WORDS = 3
NONE = FIELDS
"""The table index of 'no field'."""
_WORD_MASK = (1 << WORD) - 1
_COL_A = sum(1 << (r * WIDTH) for r in range(WORD // WIDTH))
_COL_I = sum(1 << (r * WIDTH + WIDTH - 1) for r in range(WORD // WIDTH))


def words(b: int) -> list[int]:
    """A Python bitboard of board.py as three words."""
    return [(b >> (WORD * w)) & _WORD_MASK for w in range(WORDS)]


def _table(boards: list[int]) -> list[list[int]]:
    return [words(b) for b in boards] + [[0] * WORDS]


class Tables:
    """Every table the rules read, on one device."""

    def __init__(self, device: torch.device) -> None:
        def t(x: object, dtype: torch.dtype = torch.int64) -> torch.Tensor:
            return torch.tensor(x, dtype=dtype, device=device)

        self.device = device
        self.bit = t(_table(BIT))
        self.neighbours = t(_table(NEIGHBOURS))
        self.ball = t([[words(b) for b in rings] for rings in BALL] + [[[0] * WORDS] * (LENGTH + 1)])
        between = [[words(BETWEEN[a][b]) if a < FIELDS and b < FIELDS else [0] * WORDS
                    for b in range(FIELDS + 1)] for a in range(FIELDS + 1)]
        self.between = t(between).view((FIELDS + 1) * (FIELDS + 1), WORDS)
        self.row = t(ROW + [-100])
        self.col = t(COL + [-100])
        self.flip = t(FLIP)
        self.distance = t([[chebyshev(a, b) for b in range(FIELDS)] for a in range(FIELDS)] + [[99] * FIELDS])
        self.full = t(words((1 << FIELDS) - 1))
        self.not_a = t([_WORD_MASK & ~_COL_A] * WORDS)
        self.not_i = t([_WORD_MASK & ~_COL_I] * WORDS)
        self.shifts = torch.arange(WORD, device=device)

    def pull_shadows(self, endzones: tuple[int, int]) -> torch.Tensor:
        """[162 t, 162 o] float: 1 where field t of an endzone is the first field of that endzone on some
        straight line from o. Why: while the pulling team sets up, the only players on the pitch are the
        four receivers, all in their endzone, so a pull from o can land somewhere exactly when the first
        endzone field on one of o's lines is empty (every field before it lies outside both endzones, so
        it is free; a receiver there blocks the rest of the line)."""
        shadows = [[0.0] * FIELDS for _ in range(FIELDS)]
        for zone in endzones:
            for o in range(FIELDS):
                if zone >> o & 1:
                    continue
                for dr, dc in DIRECTIONS:
                    r, c = ROW[o] + dr, COL[o] + dc
                    while 0 <= r < LENGTH and 0 <= c < WIDTH:
                        f = r * WIDTH + c
                        if zone >> f & 1:
                            if chebyshev(o, f) >= 2:
                                shadows[f][o] = 1.0
                            break
                        r, c = r + dr, c + dc
        return torch.tensor(shadows, dtype=torch.float32, device=self.device)

    # -- board operations on [..., 3] int64 --------------------------------------------------
    def grow(self, b: torch.Tensor) -> torch.Tensor:
        """Every field one king step from a field of `b`, `b` included."""
        h = b | ((b << 1) & self.not_a) | ((b >> 1) & self.not_i)
        up = ((h << WIDTH) & _WORD_MASK) | torch.nn.functional.pad(h[..., :-1] >> (WORD - WIDTH), (1, 0))
        down = (h >> WIDTH) | (torch.nn.functional.pad(h[..., 1:] & ((1 << WIDTH) - 1), (0, 1)) << (WORD - WIDTH))
        return h | up | down

    def fields(self, b: torch.Tensor) -> torch.Tensor:
        """[..., 3] boards as [..., 162] bools."""
        return ((b[..., None] >> self.shifts) & 1).bool().flatten(-2)


def nonzero(b: torch.Tensor) -> torch.Tensor:
    """Whether each board has a field set."""
    return (b != 0).any(-1)


def index(f: torch.Tensor) -> torch.Tensor:
    """A field (or -1) as a table index (NONE for -1)."""
    return torch.where(f < 0, NONE, f)
