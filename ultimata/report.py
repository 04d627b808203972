"""Rich tables for arena and training results (shared by `arena` and `train`)."""

from __future__ import annotations

from rich.table import Table

from ultimata.training.arena import ArenaResult


def arena_table(result: ArenaResult, title: str | None = None) -> Table:
    n_fair = result.agents[0].fair_share if result.agents else 0
    table = Table(title=title or f"{result.game}: {result.games} games, seats rotated (seed {result.seed})")
    table.add_column("agent", overflow="fold", min_width=12)
    for col in ("seats", "win rate", "95% CI", "×fair", "reward", "openskill μ±σ", "ordinal"):
        table.add_column(col, justify="right", no_wrap=True)
    for a in result.agents:
        table.add_row(
            a.spec, str(a.seats_per_game), f"{a.win_rate:.1%}", f"{a.ci95[0]:.1%}–{a.ci95[1]:.1%}",
            f"{a.x_fair:.2f}", f"{a.mean_reward:+.3f}", f"{a.rating['mu']:.1f}±{a.rating['sigma']:.1f}",
            f"{a.rating['ordinal']:.1f}",
        )
    table.caption = f"fair share per seat {n_fair:.1%}; a shared win counts 1/k for each of k winners"
    return table


def training_table(game: str, results: dict[str, ArenaResult], label: str) -> Table:
    table = Table(title=f"{label} vs fixed opponents ({game})")
    table.add_column("opponent", overflow="fold", min_width=12)
    for col in ("games", "win rate", "95% CI", "×fair", "reward"):
        table.add_column(col, justify="right", no_wrap=True)
    for spec, r in results.items():
        me = r.agents[0]
        table.add_row(spec, str(r.games), f"{me.win_rate:.1%}", f"{me.ci95[0]:.1%}–{me.ci95[1]:.1%}",
                      f"{me.x_fair:.2f}", f"{me.mean_reward:+.3f}")
    return table
