"""The `ultimata` command line. Each command lives in its own module; this file only wires them."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(no_args_is_help=True, add_completion=False, help="ultimata: tabletop strategy games for RL.")
console = Console()


@app.command()
def bench(
    steps: int = typer.Option(20_000, help="Steps of random play per env (and per engine run)."),
    game: list[str] = typer.Option(None, "--game", help="Only these envs (repeatable); default all."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
) -> None:
    """Random-play speed of every env, as a ratio to PettingZoo's connect_four_v3 in the same run."""
    from ultimata.bench import run

    with console.status("benchmarking random play..."):
        results = run(steps, game or None)
    if as_json:
        print(json.dumps({"steps": steps, "results": [r.as_dict() for r in results]}, indent=1))
        return
    table = Table(title=f"random masked play, {steps} steps each")
    for column in ("env", "env() steps/s", "x connect_four", "raw_env steps/s", "x raw", "engine decisions/s"):
        table.add_column(column, justify="right" if column != "env" else "left")
    for r in results:
        engine = "" if r.engine_decisions_per_s is None else f"{r.engine_decisions_per_s:,.0f}"
        table.add_row(
            r.env,
            f"{r.aec_steps_per_s:,.0f}",
            f"{r.aec_ratio:.2f}",
            f"{r.raw_steps_per_s:,.0f}",
            f"{r.raw_ratio:.2f}",
            engine,
        )
    console.print(table)


@app.callback()
def main() -> None:
    """ultimata: five tabletop strategy games as PettingZoo environments, with self-play and an arena."""
