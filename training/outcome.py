"""Who won, from a finished game's returns, in a way that works for any number of seats."""

from __future__ import annotations

from collections.abc import Sequence


def win_credit(returns: Sequence[float]) -> list[float]:
    """1/k to each of the k seats with the best return (a draw among all gives 1/n each).

    Credits sum to 1 per game, so the fair share of a seat is exactly 1/n and win rates of
    2-player and N-player games read the same way.
    """
    best = max(returns)
    top = [r == best for r in returns]
    k = sum(top)
    return [1.0 / k if t else 0.0 for t in top]


def forfeit_returns(players: int, offender: int) -> list[float]:
    """The returns of a game lost by `offender` alone (an illegal move): -1 to it, and the others share
    +1 as the games' own returns share a win, so `win_credit` gives each of them 1/(n-1)."""
    return [-1.0 if seat == offender else 1.0 / (players - 1) for seat in range(players)]
