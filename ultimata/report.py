"""Rich tables for arena and training results (shared by `arena` and `train`)."""

from __future__ import annotations

from rich.table import Table

from ultimata.training.arena import ArenaResult


def arena_table(result: ArenaResult, title: str | None = None) -> Table:
    table = Table(title=title or result.title)
    for col in result.columns():
        if col == "agent":
            table.add_column(col, overflow="fold", min_width=12)
        else:
            table.add_column(col, justify="right", no_wrap=True)
    for row in result.rows():
        table.add_row(*row)
    table.caption = result.caption
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
