"""The `ultimata` command line. Each command lives in its own module; this file only wires them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup


class _FlagsTakeNoValue:
    """Typer shows a flag's type as if it took a value (`--json <bool>`); a flag is shown bare instead."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_flag", False):
                param.metavar = ""
        return params


class _Command(_FlagsTakeNoValue, TyperCommand):
    pass


class _Group(_FlagsTakeNoValue, TyperGroup):
    pass


class _App(typer.Typer):
    def command(self, *args: Any, cls: type[TyperCommand] = _Command, **kwargs: Any) -> Callable[..., Any]:
        return super().command(*args, cls=cls, **kwargs)


app = _App(cls=_Group, no_args_is_help=True, add_completion=False, help="ultimata: tabletop strategy games for RL.")


def _console() -> Console:
    """Piped output (tee, CI logs, files) has no width; Rich would assume 80 columns and cut tables.
    There, tables take the width their content needs (up to 250 columns)."""
    probe = Console()
    return probe if probe.is_terminal else Console(width=250)


console = _console()


@app.command()
def bench(
    steps: int = typer.Option(None, help="Steps of random play per env (default 20,000); with --train, learner "
                              "samples per training path (default 100,000)."),
    game: list[str] = typer.Option(None, "--game", help="Only these envs (repeatable); default all."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    mcts: bool = typer.Option(False, "--mcts", help="Also time the mcts agent's default budget per decision."),
    rounds: int = typer.Option(10, min=1, help="Interleaved rounds: the envs take turns, each ratio is the median."),
    clock: str = typer.Option("wall", help="wall (what a user waits) or cpu (this process's CPU time: steadier "
                              "on a shared machine)."),
    train: str = typer.Option(None, "--train", help="Time training instead: learner samples per second of each "
                              "sampler on this game's config (batched, and array where the game has an array engine)."),
    config: str = typer.Option(None, "--config", help="With --train: a training YAML instead of the game's own."),
    device: str = typer.Option(None, "--device", help="With --train: where the batched paths update (auto, cpu, "
                               "cuda); default the config's."),
) -> None:
    """Random-play speed of every env, as a ratio to PettingZoo's connect_four_v3 in the same run; with
    --train, the training paths' samples per second."""
    from ultimata.bench import check_options, random_play_summary, random_play_table, run
    from ultimata.envs.core.errors import UltimataError

    try:
        check_options(clock, game or [], train, device, steps)
    except (ValueError, UltimataError) as err:
        _fail(err)
    if train:
        _bench_training(train, steps or 100_000, config, as_json, device)
        return
    steps = steps or 20_000
    with console.status("benchmarking random play..."):
        results = run(steps, game or None, mcts=mcts, rounds=rounds, clock=clock)
    if as_json:
        print(json.dumps(random_play_summary(results, steps, rounds, clock), indent=1))
        return
    console.print(random_play_table(results, steps, rounds, clock, mcts))


def _bench_training(game: str, steps: int, config: str | None, as_json: bool, device: str | None) -> None:
    from ultimata.envs.core.errors import UltimataError
    from ultimata.train_bench import run_train_bench, train_bench_summary, train_bench_table

    def said(row) -> None:
        if not as_json:
            console.print(f"{row.path}: {row.samples:,} samples, {row.per_cpu_second:,.0f} per CPU second",
                          highlight=False)

    try:
        with console.status(f"timing the training paths on {game}, {steps:,} samples each..."):
            rows, connect_four = run_train_bench(game, steps, config=config, on_row=said, device=device)
    except UltimataError as err:
        _fail(err)
    if as_json:
        print(json.dumps(train_bench_summary(game, steps, rows, connect_four), indent=1))
        return
    console.print(train_bench_table(game, steps, rows, connect_four))


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
    game: str = typer.Argument(..., help="Env name, e.g. ultimatum_cards_v3."),
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
    device: str = typer.Option(None, "--device", help="Where the policy update runs: auto (CUDA when present), "
                               "cpu or cuda; default the config's (auto)."),
    seeds: int = typer.Option(None, "--seeds", help="Train K runs with seeds 0 to K-1 (in OUT/seed_k) and show the "
                              "mean ± sd of their final tables; OUT/seeds.json keeps it."),
) -> None:
    """Self-play against a pool of past snapshots, the scripted bot and random (SB3 or RLlib)."""
    from ultimata.envs.core.errors import UltimataError
    from ultimata.train_command import TrainRequest, run_train

    request = TrainRequest(game, config, preset, resume, out, steps, backend, num_env_runners, address, device, seeds)
    try:
        status = run_train(request, console)
    except UltimataError as err:
        _fail(err)
    if status:
        raise typer.Exit(status)


@app.command()
def exploit(
    game: str = typer.Argument(..., help="Env name, e.g. ultimatum_cards_v3."),
    agent: str = typer.Argument(..., help="The agent to exploit, frozen in every other seat: random, heuristic, "
                                "pretrained, mcts, hard, a checkpoint .zip, or your own as package.module:Name or "
                                "file.py:Name."),
    steps: int = typer.Option(None, "--steps", help="Samples each learner trains for."),
    minutes: float = typer.Option(None, "--minutes", help="Wall-clock minutes each learner trains for (its warm "
                                  "start included)."),
    preset: str = typer.Option(None, "--preset", help="The recipe and budget of a preset of the game's config, e.g. "
                               "quick; --steps or --minutes replace its budget."),
    seeds: int = typer.Option(1, "--seeds", help="Training seeds (0 to K-1); with more than one, mean ± sd."),
    games: int = typer.Option(200, "--games", help="Arena games measuring each learner against the agent."),
    config: str = typer.Option(None, "--config", help="Training YAML; default configs/<game>.yaml."),
    out: str = typer.Option(None, "--out", help="Folder of the runs; default runs/exploit/<game>/<agent>/<date-time>."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    warm_start: bool = typer.Option(False, "--warm-start", help="Start each learner as the recipe's imitation "
                                    "teacher (the scripted bot); the teacher's own score is measured and shown."),
    ladder: bool = typer.Option(False, "--ladder", help="Run one budget after another (--rungs) and report the "
                                "figure per rung with its interval."),
    rungs: str = typer.Option(None, "--rungs", help="The ladder's budgets in samples, e.g. 1e5,1e6,1e7 (the default)."),
) -> None:
    """Approximate exploitability: train a best response to AGENT (frozen in every other seat, the learner from
    scratch unless --warm-start), then report its win rate over the fair share with a 95% interval, its recipe
    and budget, and its learning curve against the fair share."""
    import sys

    from ultimata import exploit as exploit_tool
    from ultimata.envs.core.errors import UltimataError

    shown = Console(file=sys.stderr) if as_json else console  # --json keeps standard output for the JSON
    try:
        if rungs is not None and not ladder:
            raise exploit_tool.ConfigError("--rungs sets the budgets of --ladder: add --ladder, or give --steps")
        if ladder:
            found = exploit_tool.run_ladder(game, agent, exploit_tool.parse_rungs(rungs), steps=steps, minutes=minutes,
                                            preset=preset, seeds=seeds, games=games, config=config, out=out,
                                            console=shown, show_progress=not as_json, warm_start=warm_start)
            print(json.dumps(found.to_dict(), indent=1) if as_json else found.to_markdown())
            return
        result = exploit_tool.run(game, agent, steps=steps, minutes=minutes, preset=preset, seeds=seeds, games=games,
                                  config=config, out=out, console=shown, show_progress=not as_json,
                                  warm_start=warm_start)
    except UltimataError as err:
        _fail(err)
    if as_json:
        print(json.dumps(result.to_dict(), indent=1))
        return
    console.print(exploit_tool.result_table(result))


@app.command()
def benchmark(
    game: str = typer.Argument(..., help="Env name, e.g. ultimatum_cards_v3."),
    agent: str = typer.Argument(None, help="The agent measured: pretrained, heuristic, a checkpoint .zip, ...; "
                                "leave it out with --recipe."),
    opponent: list[str] = typer.Option(None, "--opponent", help="An opponent filling every other seat "
                                       "(repeatable); default random and heuristic."),
    games: int = typer.Option(400, "--games", help="Games per pairing (the protocol: at least 400)."),
    recipe: str = typer.Option(None, "--recipe", help="A training YAML to measure instead of an agent: trained "
                               "--seeds times, each seed's checkpoint measured."),
    seeds: int = typer.Option(None, "--seeds", help="Training seeds of --recipe (default and protocol: 5)."),
    steps: int = typer.Option(None, "--steps", help="Samples per seed of --recipe; default the recipe's own."),
    below_protocol: bool = typer.Option(False, "--below-protocol", help="Allow fewer games or seeds than the "
                                        "protocol; the report is marked as below it."),
    out: str = typer.Option(None, "--out", help="Folder of benchmark.json and benchmark.md; default "
                            "runs/benchmark/<game>/<date-time>."),
) -> None:
    """The benchmark protocol: pinned opponents, 400+ games on shared deals with seats rotated, 5+ seeds for a
    recipe, intervals within and across seeds; a JSON and markdown report naming versions and the command."""
    from ultimata import benchmark as protocol
    from ultimata.envs.core.errors import UltimataError

    folder = out or protocol.default_out(game)
    try:
        report = protocol.run(game, agent, opponents=opponent, games=games, recipe=recipe, seeds=seeds, steps=steps,
                              below_protocol=below_protocol, out=folder, console=console)
    except UltimataError as err:
        _fail(err)
    print(protocol.to_markdown(report), end="")
    console.print(f"report in {folder}/benchmark.json and benchmark.md")


@app.command()
def leaderboard(
    results: str = typer.Option("docs/results", "--results", help="Folder of stored results, one folder per game."),
    write: str = typer.Option(None, "--write", help="The page to update (e.g. docs/leaderboard.md): its generated "
                              "part is replaced, the rest kept. Without it the part is printed."),
) -> None:
    """The leaderboard's measured part, regenerated from stored arena, exploit and train --seeds results."""
    from ultimata import leaderboard as board
    from ultimata.envs.core.errors import UltimataError

    try:
        generated = board.render(board.load_results(results))
    except UltimataError as err:
        _fail(err)
    if write is None:
        print(generated, end="")
        return
    console.print(f"wrote {board.write(write, generated)}")


@app.command()
def plot(
    runs: list[str] = typer.Argument(..., help="Training run folders (each with its progress.json)."),
    out: str = typer.Option(None, "--out", help="The picture to write; default curves.png in the first run, or "
                            "curves_compared.png there when several runs are given."),
) -> None:
    """Learning curves: win rate against the evaluation opponents over samples and wall-clock time, 95%
    intervals shaded, one line per run."""
    from pathlib import Path

    from ultimata.envs.core.errors import UltimataError
    from ultimata.training.curves import plot_runs

    target = out or str(Path(runs[0]) / ("curves.png" if len(runs) == 1 else "curves_compared.png"))
    try:
        written = plot_runs(runs, target)
    except UltimataError as err:
        _fail(err)
    console.print(f"wrote {written}")



@app.command()
def arena(
    game: str = typer.Argument(..., help="Env name."),
    specs: list[str] = typer.Argument(..., help="Agents: random, heuristic, mcts, pretrained, hard, a checkpoint "
                                      ".zip, or your own as package.module:Name or file.py:Name. With fewer agents "
                                      "than seats, the last one fills the rest; with more, every table of different "
                                      "agents plays (a round robin)."),
    games: int = typer.Option(400, "--games", min=1, help="Games to play (rounded up to whole seat rotations)."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the deals and of the agents."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    replays: str = typer.Option(None, "--replays", help="Save every game as a replay in this folder."),
    config: str = typer.Option(None, "--config", help="Take the rule variant from this training YAML."),
    stochastic: bool = typer.Option(False, "--stochastic", help="Policies sample moves instead of argmax."),
) -> None:
    """Agents against each other with seats rotated: win rates, 95% intervals, rewards, openskill."""
    from rich.console import Console
    from rich.progress import Progress

    from ultimata.arena import run
    from ultimata.envs.core.errors import UltimataError
    from ultimata.report import arena_table

    try:
        rules = _rules(game, config)
        # with --json the bar goes to stderr, so stdout is the JSON alone and a long run still shows progress
        with Progress(console=Console(stderr=True) if as_json else console, transient=True) as bar:
            task = bar.add_task("playing", total=None)
            result = run(game, specs, games, seed, rules=rules, replays=replays, deterministic=not stochastic,
                         on_game=lambda played, total: bar.update(task, completed=played, total=total))
    except UltimataError as err:
        _fail(err)
    if as_json:
        print(json.dumps(result.to_dict(), indent=1))
        return
    console.print(arena_table(result))
    for note in result.notes:
        console.print(f"note: {note}", markup=False, highlight=False)
    if replays:
        console.print(f"{len(result.replays)} replays saved in {replays}; view one with: ultimata replay FILE")


@app.command()
def differential(
    game: str = typer.Argument(..., help="Env name with an array engine, e.g. ultimade_v2."),
    decisions: int = typer.Option(100_000, "--decisions", min=1, help="Decisions to compare (rows x moves)."),
    option: list[str] = typer.Option(None, "--option", help="A rule option as key=value (YAML value), repeatable."),
    policy: str = typer.Option("random", "--policy", help="Who picks the moves: random, scripted or an agent spec."),
    rows: int = typer.Option(256, "--rows", min=1, help="Games played side by side."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the deals, dice and move choices."),
    roundtrip_every: int = typer.Option(8, "--roundtrip-every", min=0, help="Check the to_states round trip "
                                        "every this many moves (0: never); it costs more than a decision."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a summary."),
) -> None:
    """Play the Python rules engine and the array engine side by side and compare every decision; exit 1 at
    the first mismatch."""
    import torch
    from rich.progress import Progress

    from ultimata.envs.core.array.differential import parse_options, run_differential
    from ultimata.envs.core.errors import UltimataError

    try:
        rules = parse_options(option or [])
        chooser: Any = policy
        if policy not in ("random", "scripted"):
            from ultimata.agents.specs import load_agent

            chooser = load_agent(policy, game, rules, seed=0)
        torch.set_num_threads(1)  # bound by the Python engine; torch's thread pool only spins on a shared machine
        with Progress(console=Console(stderr=True) if as_json else console, transient=True) as bar:
            task = bar.add_task(f"{game}, {policy} play", total=decisions)
            report = run_differential(game, rules, decisions=decisions, rows=rows, chooser=chooser, seed=seed,
                                      roundtrip_every=roundtrip_every,
                                      on_progress=lambda done: bar.update(task, completed=done))
    except UltimataError as err:
        _fail(err)
    if as_json:
        print(json.dumps(report.as_dict(), indent=1))
    else:
        console.print(f"{game} {rules or ''} ({report.chooser} play, {rows} rows): {report.decisions:,} decisions, "
                      f"{report.games_finished:,} games finished, "
                      + ("zero mismatches" if report.ok else "MISMATCH"), highlight=False, markup=False)
        if report.mismatch is not None:
            console.print(report.mismatch.describe(), highlight=False, markup=False)
    if not report.ok:
        raise typer.Exit(1)


RECORD_HELP = "The record of your games, an SQLite file (runs/ultimata.db); --record '' keeps none."


def _record_path(record: str) -> str | None:
    from pathlib import Path

    return str(Path(record).expanduser()) if record else None


@app.command()
def play(
    game: str = typer.Argument(..., help="Env name."),
    vs: str = typer.Option("heuristic", "--vs", help="Agent for the other seats: random, heuristic (easy), "
                           "pretrained (medium), hard (the game's strongest setting, about 5 s a turn), mcts, a "
                           "checkpoint .zip, or your own as package.module:Name."),
    seat: int = typer.Option(0, "--seat", min=0, help="Your seat, 0 to players-1 (who starts is the game's rule)."),
    seed: int = typer.Option(None, "--seed", min=0, help="Seed of the deal; random when omitted."),
    save: str = typer.Option(None, "--save", help="Also save the game as a replay file, to share."),
    config: str = typer.Option(None, "--config", help="Take the rule variant from this training YAML."),
    record: str = typer.Option("runs/ultimata.db", "--record", help=RECORD_HELP),
    explain: bool = typer.Option(False, "--explain", help="After each bot move, say why: its share under the "
                                 "bot's policy or search and what else it weighed (a hidden hand's moves unnamed)."),
    hint: str = typer.Option(None, "--hint", help="The bot the 'hint' command asks (default: the --vs bot)."),
) -> None:
    """Play in the terminal against bots, seeing only your own seat's view; the game is kept in your record."""
    import random

    from ultimata.envs.core.errors import UltimataError
    from ultimata.play import play_session

    try:
        play_session(game, vs, seat, random.randrange(10**6) if seed is None else seed, _rules(game, config),
                     console=console, save=save, record=_record_path(record), explain=explain, hint=hint)
    except UltimataError as err:
        _fail(err)


@app.command()
def replay(
    file: str = typer.Argument(..., help="A replay file (saved by arena --replays, play --save, or exported), or a "
                               "game's name in your record (as the browser's Replays page lists it)."),
    viewer: int = typer.Option(None, "--viewer", min=0, help="Show only this seat's hidden information."),
    pause: bool = typer.Option(None, "--pause/--no-pause", help="Wait for Enter between moves "
                               "(default: when standard input is a terminal)."),
    record: str = typer.Option("runs/ultimata.db", "--record", help="The record to find a game's name in."),
    export: str = typer.Option(None, "--export", help="Write the game to this file (the replay format, to share) "
                               "instead of stepping through it."),
) -> None:
    """Step through a saved game, or export one from your record as a file."""
    import sys

    from ultimata.envs.core.errors import UltimataError
    from ultimata.replay_view import export_replay, find_replay, show_replay

    try:
        found = find_replay(file, _record_path(record))
        if export:
            export_replay(found, export)
            console.print(f"wrote {escape(export)}")
            return
        show_replay(found, viewer, sys.stdin.isatty() if pause is None else pause, console=console)
    except UltimataError as err:
        _fail(err)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Interface to listen on (loopback by default: local play)."),
    port: int = typer.Option(8000, help="Port to listen on."),
    checkpoints: str = typer.Option(None, help="Folder whose checkpoints may be chosen as opponents."),
    agent: list[str] = typer.Option(None, "--agent", help="Your own agent to offer as an opponent (repeatable): "
                                    "package.module:Name or path/file.py:Name, with options as in mcts specs."),
    replays: str = typer.Option("runs/replays", help="Folder of replay files: imported into the record (once each, "
                                "as they appear), and where each game with a result is also written, to share."),
    record: str = typer.Option("runs/ultimata.db", "--record", help="The record of every game played (an SQLite "
                               "file; two servers may share it)."),
    max_games: int = typer.Option(32, min=1, help="Live games at most; a game idle for 10 minutes expires, a "
                                  "finished one frees its slot at once."),
    max_games_per_client: int = typer.Option(4, min=1, help="Live games at most per client address."),
    allow_host: list[str] = typer.Option(None, "--allow-host", help="Another name or address this server answers "
                                         "to (repeatable), besides --host and loopback: the name browsers use to "
                                         "reach it. Requests naming any other host are refused."),
) -> None:
    """Play against bots, watch bot matches and step through replays in the browser."""
    from pathlib import Path

    from ultimata.envs.core.errors import UltimataError
    from ultimata.web import server
    from ultimata.web.app import create_app
    from ultimata.web.opponents import check_own_agent

    folder = Path(checkpoints).expanduser() if checkpoints else None
    if folder is not None and not folder.is_dir():
        _fail(FileNotFoundError(f"checkpoint folder {folder} does not exist"))
    try:
        for spec in agent or []:  # an agent that plays no game is refused now, not silently left out
            check_own_agent(spec)
        app_ = create_app(checkpoints=folder, own_agents=tuple(agent or ()), replays=Path(replays).expanduser(),
                          max_sessions=max_games, max_per_client=max_games_per_client,
                          hosts=(host, *(allow_host or ())), record=Path(record or "runs/ultimata.db").expanduser())
        listening = server.listen(host, port)  # a busy port fails here, before the address is announced
    except UltimataError as err:
        _fail(err)
    imported = app_.state.imported
    if imported.imported or imported.skipped:
        console.print(f"imported {len(imported.imported)} replay files from {replays} into the record", markup=False)
    for name, why in imported.skipped.items():
        console.print(f"skipped {name}: {why}", markup=False)
    shown = f"[{host}]" if ":" in host else host
    console.print(f"ultimata is at [bold]http://{escape(shown)}:{port}/[/bold]  (Ctrl-C stops it)")
    if host in ("0.0.0.0", "::") and not allow_host:
        console.print("note: it answers only to requests addressed to loopback or to this --host; give the name or "
                      "address browsers use with --allow-host NAME (and see docs/web.md before exposing it)",
                      markup=False)
    server.run(app_, listening)


@app.callback()
def main() -> None:
    """ultimata: five tabletop strategy games as PettingZoo environments, with self-play and an arena."""
