"""OpenSkill (Plackett-Luce) ratings from finished games, for agents that may hold several seats."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce


class Ratings:
    """One rating per arena entry. An entry holding several seats in a game (e.g. three `random`
    seats) is rated as each seat separately and then moved by the average of those updates."""

    def __init__(self, entries: int) -> None:
        self.model = PlackettLuce()
        self.ratings = [self.model.rating() for _ in range(entries)]

    def update(self, seat_entry: Sequence[int], returns: Sequence[float]) -> None:
        teams = [[self.model.rating(mu=self.ratings[e].mu, sigma=self.ratings[e].sigma)] for e in seat_entry]
        ranks = [-r for r in returns]  # lower rank is better; equal returns tie
        new = self.model.rate(teams, ranks=ranks)
        for e in set(seat_entry):
            seats = [s for s, x in enumerate(seat_entry) if x == e]
            self.ratings[e].mu = sum(new[s][0].mu for s in seats) / len(seats)
            self.ratings[e].sigma = sum(new[s][0].sigma for s in seats) / len(seats)

    def as_dicts(self) -> list[dict[str, float]]:
        return [
            {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)} for r in self.ratings
        ]
