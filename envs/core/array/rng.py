"""Counter-based randomness for array engines: every draw is a hash of (a game's key, a draw counter).

Why a hash, not a generator object: a row's course then depends on its own key alone, not on how many
games run beside it or on which device, and a batch draws for all its rows in a few int64 ops. The mixer
is SplitMix64's finaliser, written with masks so that torch's arithmetic right shift acts as a logical one.
"""

from __future__ import annotations

import torch

_M1 = -4658895280553007687   # 0xBF58476D1CE4E5B9 as int64
_M2 = -7723592293110705685   # 0x94D049BB133111EB
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15


def _shr(x: torch.Tensor, k: int) -> torch.Tensor:
    """Logical right shift of int64 bit patterns."""
    return (x >> k) & ((1 << (64 - k)) - 1)


def mix(x: torch.Tensor) -> torch.Tensor:
    """SplitMix64's finaliser on int64 tensors (wrapping arithmetic): a bijection that scrambles every bit."""
    x = x.to(torch.int64)
    x = (x ^ _shr(x, 30)) * _M1
    x = (x ^ _shr(x, 27)) * _M2
    return x ^ _shr(x, 31)


def game_keys(seed: int, ids: torch.Tensor, episodes: torch.Tensor) -> torch.Tensor:
    """The key game `episodes[i]` of row id `ids[i]` under run seed `seed` is dealt from."""
    k = mix(torch.full_like(ids, int(seed) % 2**63, dtype=torch.int64) + _GOLDEN)
    k = mix(k ^ (ids.to(torch.int64) * _GOLDEN))
    return mix(k ^ (episodes.to(torch.int64) * _M1))


def bits(key: torch.Tensor, counter: torch.Tensor) -> torch.Tensor:
    """63 random bits (a non-negative int64) for draw number `counter` of each row's `key`."""
    return mix(key ^ mix(counter.to(torch.int64) + _GOLDEN)) & ((1 << 63) - 1)


def below(key: torch.Tensor, counter: torch.Tensor, n: torch.Tensor | int) -> torch.Tensor:
    """A uniform integer in 0..n-1 per row (modulo bias below 2**-40 for n < 2**23)."""
    return bits(key, counter) % n


def roll(key: torch.Tensor, counter: torch.Tensor, sides: int) -> torch.Tensor:
    """A fair die, 1..sides, per row."""
    return below(key, counter, sides) + 1


def permutation(key: torch.Tensor, counter: torch.Tensor, size: int) -> torch.Tensor:
    """A uniform random permutation of 0..size-1 per row ([B, size]): argsort of `size` random keys
    (draws `counter`, ..., `counter + size - 1`); ties are broken by position, with odds below 2**-50."""
    offsets = torch.arange(size, device=key.device)
    scores = bits(key[:, None], counter.to(torch.int64)[:, None] + offsets)
    return torch.argsort(scores, dim=1, stable=True)
