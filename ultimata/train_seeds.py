"""`ultimata train GAME --seeds K`: the same recipe trained with K seeds, and the spread of its final tables.

An interval from one run covers the games of that run, not the luck of its seed; K runs of one recipe show
how far the seed alone moves the result (mean ± sd over seeds), so a reader can tell a recipe's effect from
it. Run k goes to <out>/seed_<k> with `seed: k`; <out>/seeds.json keeps the summary docs/results/ stores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.table import Table

from ultimata.exploit import spread
from ultimata.training.run_loop import TrainOutcome, rating_summary


@dataclass
class SeedRun:
    seed: int
    run_dir: str
    steps: int
    cpu_seconds: float
    results: dict[str, dict[str, Any]]
    """Per evaluation opponent, the final table's row (`rating_summary`: win rate, 95% CI, ×fair, games)."""


def seed_run(seed: int, outcome: TrainOutcome) -> SeedRun:
    return SeedRun(seed, str(outcome.run_dir), outcome.steps, round(outcome.cpu_seconds, 1),
                   {spec: rating_summary(r) for spec, r in outcome.results.items()})


def summary(game: str, recipe: dict[str, Any], runs: list[SeedRun]) -> dict[str, Any]:
    """Mean ± sd over seeds of each opponent's win rate and ×fair, and every run's own row."""
    spreads = {}
    for spec in runs[0].results:
        rates = [r.results[spec]["win_rate"] for r in runs]
        fairs = [r.results[spec]["x_fair_share"] for r in runs]
        (rate, rate_sd), (fair, fair_sd) = spread(rates), spread(fairs)
        spreads[spec] = {"win_rate": round(rate, 4), "win_rate_sd": round(rate_sd, 4), "x_fair": round(fair, 3),
                         "x_fair_sd": round(fair_sd, 3), "games": runs[0].results[spec]["games"]}
    return {"kind": "train_seeds", "game": game, "recipe": recipe, "seeds": len(runs), "spread": spreads,
            "runs": [vars(r) for r in runs]}


def spread_table(data: dict[str, Any]) -> Table:
    table = Table(title=f"{data['game']}: the final tables over {data['seeds']} training seeds")
    for column in ("opponent", "games per seed", "win rate, mean ± sd", "×fair, mean ± sd", "each seed (×fair)"):
        table.add_column(column, justify="left" if column == "opponent" else "right")
    for spec, s in data["spread"].items():
        each = ", ".join(f"{r['results'][spec]['x_fair_share']:.2f}" for r in data["runs"])
        table.add_row(spec, str(s["games"]), f"{s['win_rate']:.1%} ± {s['win_rate_sd']:.1%}",
                      f"{s['x_fair']:.2f} ± {s['x_fair_sd']:.2f}", each)
    return table
