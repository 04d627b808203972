"""The `ultimata` command line. Each command lives in its own module; this file only wires them."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

app = typer.Typer(no_args_is_help=True, add_completion=False, help="ultimata: tabletop strategy games for RL.")
def _console() -> Console:
    """Piped output (tee, CI logs, files) has no width; Rich would assume 80 columns and cut tables.
    There, tables take the width their content needs (up to 250 columns)."""
    probe = Console()
    return probe if probe.is_terminal else Console(width=250)


console = _console()


@app.command()
def bench(
    steps: int = typer.Option(20_000, help="Steps of random play per env (and per engine run)."),
    game: list[str] = typer.Option(None, "--game", help="Only these envs (repeatable); default all."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    mcts: bool = typer.Option(False, "--mcts", help="Also time the mcts agent's default budget per decision."),
    rounds: int = typer.Option(10, min=1, help="Interleaved rounds: the envs take turns, each ratio is the median."),
    clock: str = typer.Option("wall", help="wall (what a user waits) or cpu (this process's CPU time: steadier "
                              "on a shared machine)."),
) -> None:
    """Random-play speed of every env, as a ratio to PettingZoo's connect_four_v3 in the same run."""
    from ultimata.bench import clock_named, run

    try:
        clock_named(clock)
    except ValueError as err:
        _fail(err)
    with console.status("benchmarking random play..."):
        results = run(steps, game or None, mcts=mcts, rounds=rounds, clock=clock)
    if as_json:
        summary = {"steps": steps, "rounds": rounds, "clock": clock, "results": [r.as_dict() for r in results]}
        print(json.dumps(summary, indent=1))
        return
    title = f"random masked play, {steps} steps each in {rounds} interleaved rounds (medians, {clock} clock)"
    table = Table(title=title)
    columns = ["env", "env() steps/s", "x connect_four", "x range", "raw_env steps/s", "x raw", "engine decisions/s",
               "random game decisions: median (min-max)"]
    for column in columns + (["mcts s/decision"] if mcts else []):
        table.add_column(column, justify="right" if column != "env" else "left")
    for r in results:
        engine = "" if r.engine_decisions_per_s is None else f"{r.engine_decisions_per_s:,.0f}"
        table.add_row(
            r.env,
            f"{r.aec_steps_per_s:,.0f}",
            f"{r.aec_ratio:.2f}",
            "" if r.ratio_range is None else f"{r.ratio_range[0]:.2f}-{r.ratio_range[1]:.2f}",
            f"{r.raw_steps_per_s:,.0f}",
            f"{r.raw_ratio:.2f}",
            engine,
            r.length_summary(),
            *([f"{r.mcts_seconds:.3f}" if r.mcts_seconds is not None else "n/a"] if mcts else []),
        )
    console.print(table)


def _fail(err: Exception) -> None:
    """Refusals of bad input are one clear line, not a traceback. The message is escaped: text in square
    brackets (`ultimata[rllib]`, a list of values) is the user's to read, not Rich markup."""
    console.print(f"[red]error:[/red] {escape(str(err))}", highlight=False)
    raise typer.Exit(2)


def _rules(game: str, config: str | None) -> dict:
    from ultimata.training.config import load_train_config

    return load_train_config(game, config).rules


@app.command()
def train(
    game: str = typer.Argument(..., help="Env name, e.g. ultimatum_cards_v2."),
    config: str = typer.Option(None, "--config", help="Training YAML; default configs/<game>.yaml."),
    preset: str = typer.Option(None, "--preset", help="A preset from the config, e.g. 'quick'."),
    resume: str = typer.Option(None, "--resume", help="Continue the interrupted run in this folder."),
    out: str = typer.Option(None, "--out", help="Run folder; default runs/<game>/<date-time>."),
    steps: int = typer.Option(None, "--steps", help="Override total_timesteps."),
    backend: str = typer.Option("sb3", "--backend", help="sb3 (MaskablePPO, this machine) or rllib (Ray RLlib "
                                "league self-play; needs the extra: pip install \"ultimata\\[rllib]\")."),
    num_env_runners: int = typer.Option(None, "--num-env-runners", min=0,
                                        help="rllib: sampling processes (default: the config's rllib section, 0)."),
    address: str = typer.Option(None, "--address", help="rllib: a Ray cluster to join, e.g. 10.0.0.5:6379."),
) -> None:
    """Self-play against a pool of past snapshots, the scripted bot and random (SB3 or RLlib)."""
    from datetime import datetime
    from pathlib import Path

    from ultimata.envs.core.errors import UltimataError
    from ultimata.envs.core.registry import game_class
    from ultimata.report import training_table
    from ultimata.training.trainer import prepare_run
    from ultimata.training.trainer import train as run_training

    if resume and (config or preset or out):
        _fail(ValueError("--resume continues a run with its saved config; drop --config/--preset/--out"))
    if backend not in ("sb3", "rllib"):
        _fail(ValueError(f"unknown --backend {backend!r}; use sb3 or rllib"))
    if backend == "sb3" and (num_env_runners is not None or address):
        _fail(ValueError("--num-env-runners and --address are rllib options; add --backend rllib"))
    if backend == "rllib":
        from ultimata.training.rllib import require_ray

        try:
            require_ray()
        except UltimataError as err:
            _fail(err)
    try:
        game_class(game)  # an unknown game is named as such, before any preset or config is read
    except UltimataError as err:
        _fail(err)
    run_dir = Path(resume or out or Path("runs") / game / datetime.now().strftime("%Y%m%d-%H%M%S"))
    try:
        overrides = {"total_timesteps": steps} if steps else None
        cfg, progress = prepare_run(game, run_dir, config_path=config, preset=preset, resume=bool(resume),
                                    overrides=overrides)
        if steps and resume:
            cfg.total_timesteps = steps
        if progress.finished and progress.steps >= cfg.total_timesteps:
            console.print(f"{run_dir} already finished at {progress.steps:,} steps; give --steps to train longer")
            return
        if backend == "rllib":
            from ultimata.training.rllib.trainer import train_rllib

            runners = cfg.rllib.num_env_runners if num_env_runners is None else num_env_runners
            console.print(f"training {game} for {cfg.total_timesteps:,} steps on RLlib: {runners} env runners, "
                          f"league {cfg.pool.weights}; run folder {run_dir}")
            outcome = train_rllib(cfg, run_dir, progress, console=console, num_env_runners=num_env_runners,
                                  address=address)
        else:
            console.print(f"training {game} for {cfg.total_timesteps:,} steps: {cfg.n_envs} {cfg.vec_env} envs, "
                          f"pool {cfg.pool.weights}; run folder {run_dir}")
            outcome = run_training(cfg, run_dir, progress, console=console)
    except UltimataError as err:
        _fail(err)
    if outcome.interrupted:
        again = "" if backend == "sb3" else " --backend rllib"
        console.print(f"interrupted at {outcome.steps:,} steps; checkpoint saved. Continue with:\n"
                      f"  ultimata train {game} --resume {run_dir}{again}")
        raise typer.Exit(130)
    console.print(f"{outcome.steps:,} steps at {outcome.steps_per_s:,.0f} steps/s; checkpoint {outcome.final}")
    console.print(training_table(game, outcome.results, "trained policy"))
    console.print(f"play against it:  ultimata play {game} --vs {outcome.final}")
    console.print(f"rate it:          ultimata arena {game} {outcome.final} heuristic --games 400")


@app.command()
def arena(
    game: str = typer.Argument(..., help="Env name."),
    specs: list[str] = typer.Argument(..., help="Agents: random, heuristic, mcts, pretrained or a checkpoint .zip. "
                                      "With fewer agents than seats, the last one fills the rest; with more, "
                                      "every table of different agents plays (a round robin)."),
    games: int = typer.Option(400, "--games", min=1, help="Games to play (rounded up to whole seat rotations)."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the deals and of the agents."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    replays: str = typer.Option(None, "--replays", help="Save every game as a replay in this folder."),
    config: str = typer.Option(None, "--config", help="Take the rule variant from this training YAML."),
    stochastic: bool = typer.Option(False, "--stochastic", help="Policies sample moves instead of argmax."),
) -> None:
    """Agents against each other with seats rotated: win rates, 95% intervals, rewards, openskill."""
    from ultimata.envs.core.errors import UltimataError
    from ultimata.report import arena_table
    from ultimata.training.arena import balanced_games, run_arena, spec_entries, tables

    try:
        game_obj, entries = spec_entries(specs, game, _rules(game, config), seed, deterministic=not stochastic)
        if as_json:
            result = run_arena(game_obj, entries, games, seed, replays)
        else:
            from rich.progress import Progress

            with Progress(console=console, transient=True) as bar:
                n_tables = len(tables(len(entries), game_obj.num_players))
                task = bar.add_task("playing", total=balanced_games(games, game_obj.num_players, n_tables))
                result = run_arena(game_obj, entries, games, seed, replays,
                                   on_game=lambda g: bar.update(task, completed=g))
    except UltimataError as err:
        _fail(err)
    if as_json:
        print(json.dumps(result.as_dict(), indent=1))
        return
    console.print(arena_table(result))
    if replays:
        console.print(f"{len(result.replays)} replays saved in {replays}; view one with: ultimata replay FILE")


@app.command()
def play(
    game: str = typer.Argument(..., help="Env name."),
    vs: str = typer.Option("heuristic", "--vs", help="Agent for the other seats: random, heuristic, pretrained, "
                           "or a checkpoint .zip."),
    seat: int = typer.Option(0, "--seat", min=0, help="Your seat, 0 to players-1 (who starts is the game's rule)."),
    seed: int = typer.Option(None, "--seed", min=0, help="Seed of the deal; random when omitted."),
    save: str = typer.Option(None, "--save", help="Save the game as a replay file."),
    config: str = typer.Option(None, "--config", help="Take the rule variant from this training YAML."),
) -> None:
    """Play in the terminal against bots, seeing only your own seat's view."""
    import random

    from ultimata.envs.core.errors import UltimataError
    from ultimata.play import play_session

    try:
        play_session(game, vs, seat, random.randrange(10**6) if seed is None else seed, _rules(game, config),
                     console=console, save=save)
    except UltimataError as err:
        _fail(err)


@app.command()
def replay(
    file: str = typer.Argument(..., help="A replay JSON saved by arena --replays or play --save."),
    viewer: int = typer.Option(None, "--viewer", min=0, help="Show only this seat's hidden information."),
    pause: bool = typer.Option(None, "--pause/--no-pause", help="Wait for Enter between moves "
                               "(default: when standard input is a terminal)."),
) -> None:
    """Step through a saved game."""
    import sys

    from ultimata.envs.core.errors import UltimataError
    from ultimata.replay_view import show_replay

    try:
        show_replay(file, viewer, sys.stdin.isatty() if pause is None else pause, console=console)
    except UltimataError as err:
        _fail(err)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Interface to listen on (loopback by default: local play)."),
    port: int = typer.Option(8000, help="Port to listen on."),
    checkpoints: str = typer.Option(None, help="Folder whose checkpoints may be chosen as opponents."),
    replays: str = typer.Option("runs/replays", help="Folder where finished games are saved and read back."),
    max_games: int = typer.Option(32, help="Live games at most; idle games expire after 30 minutes."),
) -> None:
    """Play against bots, watch bot matches and step through replays in the browser."""
    from pathlib import Path

    import uvicorn

    from ultimata.web.app import create_app

    folder = Path(checkpoints).expanduser() if checkpoints else None
    if folder is not None and not folder.is_dir():
        _fail(FileNotFoundError(f"checkpoint folder {folder} does not exist"))
    app_ = create_app(checkpoints=folder, replays=Path(replays).expanduser(), max_sessions=max_games)
    console.print(f"ultimata is at [bold]http://{host}:{port}/[/bold]  (Ctrl-C stops it)")
    uvicorn.run(app_, host=host, port=port, log_level="warning")


@app.callback()
def main() -> None:
    """ultimata: five tabletop strategy games as PettingZoo environments, with self-play and an arena."""
