"""`ultimata benchmark`: the fixed protocol a paper can cite, one command, one JSON and one markdown report.

The protocol (PROTOCOL): every opponent pinned (a checkpoint by the sha256 of its file; a scripted, random or
search agent by its name and the package version that defines it), at least 400 games per pairing in the
arena's duplicate format (seats rotated, every rotation of a block on one shared deal, training/arena.py),
and, where a training recipe is measured rather than one agent, at least 5 training seeds, reported with
each seed's Wilson interval and the mean, sd and 95% t-interval over seeds. The report names the package
version, the env version and the command that made it. Fewer games or seeds are allowed only with
`below_protocol=True`, and the report then says so (the leaderboard marks the row).
"""

from __future__ import annotations

import hashlib
import math
import statistics
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from rich.console import Console

from ultimata.envs.core.errors import ConfigError

PROTOCOL = {"games": 400, "seeds": 5}
"""The minimum games per pairing and training seeds per recipe that a report under the protocol has."""
DEFAULT_OPPONENTS = ("random", "heuristic")
BENCHMARK_SEED = 53_000_000
"""The arena seed of every benchmark (seed k of a recipe plays BENCHMARK_SEED + k): one fixed set of deals,
apart from the seeds training draws from (0 to K-1), so two reports of one game meet the same deals."""
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093}
"""Student's t 97.5% quantiles by degrees of freedom (MAX_SEEDS - 1 at most)."""
MAX_SEEDS = 20


def package_version() -> str:
    """The installed ultimata's version (the one whose agents and rules the report measured)."""
    try:
        return metadata.version("ultimata")
    except metadata.PackageNotFoundError:  # a source tree without an install
        return "unknown"


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pin(spec: str, game: str) -> dict[str, Any]:
    """What makes `spec` the same opponent next time: a checkpoint's sha256 (the shipped bot's file too), a
    user's agent file's sha256, else (random, heuristic, mcts...) its name and the package version."""
    from ultimata.agents.specs import pretrained_path

    if spec == "pretrained":
        path = pretrained_path(game)
        return {"spec": spec, "kind": "checkpoint", "file": path.name, "sha256": sha256_file(path)}
    if spec.endswith(".zip") and Path(spec).is_file():
        return {"spec": spec, "kind": "checkpoint", "file": Path(spec).name, "sha256": sha256_file(spec)}
    file_part = spec.split(":", 1)[0]
    if file_part.endswith(".py") and Path(file_part).is_file():
        return {"spec": spec, "kind": "agent file", "file": Path(file_part).name, "sha256": sha256_file(file_part)}
    return {"spec": spec, "kind": "named", "package": "ultimata", "version": package_version()}


def pin_words(pinned: dict[str, Any]) -> str:
    if "sha256" in pinned:
        return f"sha256 {pinned['sha256'][:12]}"
    return f"ultimata {pinned['version']}"


def t_interval(values: list[float]) -> tuple[float, float]:
    """95% Student-t interval of the mean over seeds (the mean itself for one seed)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean
    half = _T95[len(values) - 1] * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def check(games: int, seeds: int | None, below_protocol: bool) -> list[str]:
    """Refuse out-of-range counts; return why the report is below the protocol (empty: it is not). Counts
    below the protocol need `below_protocol`, so no report falls short of it by accident."""
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    if seeds is not None and not 1 <= seeds <= MAX_SEEDS:
        raise ConfigError(f"--seeds must be 1 to {MAX_SEEDS}, got {seeds}")
    short = []
    if games < PROTOCOL["games"]:
        short.append(f"{games} games per pairing (the protocol: at least {PROTOCOL['games']})")
    if seeds is not None and seeds < PROTOCOL["seeds"]:
        short.append(f"{seeds} training seeds (the protocol: at least {PROTOCOL['seeds']})")
    if short and not below_protocol:
        raise ConfigError(f"{' and '.join(short)} is below the benchmark protocol; raise it, or pass "
                          "--below-protocol to run anyway with the report marked as below the protocol")
    return short


@dataclass
class Pairing:
    """One subject (an agent, or a recipe's seed-k checkpoint) against one opponent filling every other seat."""

    opponent: str
    seed: int | None
    arena_seed: int
    games: int
    win_rate: float
    ci95: tuple[float, float]
    x_fair: float
    mean_reward: float


def _play(game: str, subject: str, opponent: str, games: int, arena_seed: int, rules: dict[str, Any],
          seed: int | None) -> Pairing:
    from ultimata import arena

    result = arena.run(game, [subject, opponent], games, arena_seed, rules=rules)
    me = result.agents[0]
    return Pairing(opponent=opponent, seed=seed, arena_seed=arena_seed, games=result.games, win_rate=me.win_rate,
                   ci95=tuple(me.ci95), x_fair=me.x_fair, mean_reward=me.mean_reward)


def _summaries(pairings: list[Pairing], opponents: list[str]) -> dict[str, dict[str, Any]]:
    """Per opponent: within a seed the Wilson interval; over seeds mean, sd and the 95% t-interval."""
    out = {}
    for opponent in opponents:
        rows = [p for p in pairings if p.opponent == opponent]
        rates = [p.win_rate for p in rows]
        fair = rows[0].win_rate / rows[0].x_fair if rows[0].x_fair else 0.0
        low, high = t_interval(rates)
        out[opponent] = {"seeds": len(rows), "games_per_seed": rows[0].games,
                         "win_rate": round(statistics.fmean(rates), 4),
                         "win_rate_sd": round(statistics.stdev(rates), 4) if len(rates) > 1 else 0.0,
                         "across_seeds_ci95": [round(max(0.0, low), 4), round(min(1.0, high), 4)],
                         "x_fair": round(statistics.fmean(p.x_fair for p in rows), 3),
                         "fair_share": round(fair, 4)}
    return out


def default_out(game: str) -> str:
    """runs/benchmark/<game>/<date-time>: where `ultimata benchmark` writes its report unless told."""
    return f"runs/benchmark/{game}/{datetime.now().strftime('%Y%m%d-%H%M%S')}"


def run(game: str, subject: str | None = None, *, opponents: list[str] | None = None, games: int = 400,
        recipe: str | None = None, seeds: int | None = None, steps: int | None = None,
        below_protocol: bool = False, command: str | None = None, out: str | Path | None = None,
        console: Console | None = None) -> dict[str, Any]:
    """Measure `subject` (an agent spec) or a training `recipe` (a YAML, trained `seeds` times for `steps`
    samples or its own budget) against each opponent under the protocol; write `out`/benchmark.json and
    benchmark.md when `out` is given and return the report."""
    from ultimata.arena import spec_entries
    from ultimata.envs.core.registry import game_class

    if (subject is None) == (recipe is None):
        raise ConfigError("benchmark one thing: an AGENT (a spec or checkpoint) or --recipe CONFIG, not both "
                          "and not neither")
    if recipe is None and (seeds is not None or steps is not None):
        raise ConfigError("--seeds and --steps train a recipe: give --recipe CONFIG with them")
    if recipe is not None and seeds is None:
        seeds = PROTOCOL["seeds"]
    short = check(games, seeds, below_protocol)
    opponents = list(opponents or DEFAULT_OPPONENTS)
    game_cls = game_class(game)
    rules: dict[str, Any] = {}
    if recipe is not None:
        from ultimata.training.config import load_train_config

        rules = load_train_config(game, recipe).rules
    spec_entries([*(([subject]) if subject else []), *opponents], game, rules)  # bad specs fail before any game
    console = console or Console()
    pairings: list[Pairing] = []
    subjects: list[dict[str, Any]] = []
    if subject is not None:
        subjects.append(pin(subject, game))
        for opponent in opponents:
            console.print(f"{subject} against {opponent}: {games} games", highlight=False)
            pairings.append(_play(game, subject, opponent, games, BENCHMARK_SEED, rules, None))
    else:
        assert seeds is not None and recipe is not None
        root = Path(out) if out is not None else Path("runs") / "benchmark" / game
        for k in range(seeds):
            checkpoint = _train_seed(game, recipe, k, steps, root / f"seed_{k}", console)
            subjects.append({**pin(checkpoint, game), "seed": k})
            for opponent in opponents:
                console.print(f"seed {k}'s checkpoint against {opponent}: {games} games", highlight=False)
                pairings.append(_play(game, checkpoint, opponent, games, BENCHMARK_SEED + k, rules, k))
    report = {
        "kind": "benchmark", "game": game, "env_version": game_cls.version, "package_version": package_version(),
        "command": command or "ultimata " + " ".join(sys.argv[1:]),
        "made": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "protocol": dict(PROTOCOL), "below_protocol": short,
        "subject": subject if subject is not None else {"recipe": recipe, "steps": steps, "seeds": seeds},
        "subject_pins": subjects, "opponents": {o: pin(o, game) for o in opponents},
        "pairings": [_pairing_dict(p) for p in pairings], "summary": _summaries(pairings, opponents),
    }
    if out is not None:
        write(report, out)
    return report


def _pairing_dict(p: Pairing) -> dict[str, Any]:
    return {"opponent": p.opponent, "seed": p.seed, "arena_seed": p.arena_seed, "games": p.games,
            "win_rate": round(p.win_rate, 4), "ci95": [round(x, 4) for x in p.ci95], "x_fair": round(p.x_fair, 3),
            "mean_reward": round(p.mean_reward, 4)}


def _train_seed(game: str, recipe: str, seed: int, steps: int | None, run_dir: Path, console: Console) -> str:
    """Train seed `seed` of the recipe with the ordinary trainer; its final checkpoint's path."""
    from ultimata.training.trainer import prepare_run, train

    overrides: dict[str, Any] = {"seed": seed}
    if steps is not None:
        overrides["total_timesteps"] = steps
    cfg, progress = prepare_run(game, run_dir, config_path=recipe, overrides=overrides)
    console.print(f"training seed {seed} of {recipe}: {cfg.total_timesteps:,} samples in {run_dir}", highlight=False)
    outcome = train(cfg, run_dir, progress, console=console, show_bar=False)
    if outcome.interrupted:
        raise ConfigError(f"training seed {seed} was interrupted at {outcome.steps:,} samples; nothing was reported")
    return str(outcome.final)


def subject_words(report: dict[str, Any]) -> str:
    subject = report["subject"]
    if isinstance(subject, str):
        return f"`{subject}` ({pin_words(report['subject_pins'][0])})"
    steps = f"{subject['steps']:,} samples" if subject.get("steps") else "its own budget"
    return f"recipe `{subject['recipe']}` ({subject['seeds']} seeds, {steps})"


def to_markdown(report: dict[str, Any]) -> str:
    lines = [f"# Benchmark: {report['game']}, {subject_words(report)}", "",
             f"- ultimata {report['package_version']}, env version v{report['env_version']}, made {report['made']}",
             f"- command: `{report['command']}`",
             f"- protocol: at least {report['protocol']['games']} games per pairing on shared deals, seats rotated; "
             f"at least {report['protocol']['seeds']} training seeds for a recipe",
             "- " + ("**below the protocol**: " + "; ".join(report["below_protocol"]) if report["below_protocol"]
                     else "under the protocol"), ""]
    lines += ["| opponent | pinned by | seed | games | win rate | 95% CI | ×fair |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for p in report["pairings"]:
        seed = "—" if p["seed"] is None else str(p["seed"])
        lines.append(f"| `{p['opponent']}` | {pin_words(report['opponents'][p['opponent']])} | {seed} | {p['games']} "
                     f"| {p['win_rate']:.1%} | {p['ci95'][0]:.1%}–{p['ci95'][1]:.1%} | {p['x_fair']:.2f} |")
    if not isinstance(report["subject"], str):
        lines += ["", "Over seeds (mean ± sd, 95% t-interval of the mean):", "",
                  "| opponent | seeds | win rate | 95% CI over seeds | ×fair |", "|---|---:|---:|---:|---:|"]
        for opponent, s in report["summary"].items():
            low, high = s["across_seeds_ci95"]
            lines.append(f"| `{opponent}` | {s['seeds']} | {s['win_rate']:.1%} ± {s['win_rate_sd']:.1%} | "
                         f"{low:.1%}–{high:.1%} | {s['x_fair']:.2f} |")
        lines += ["", "Checkpoints: " + ", ".join(f"seed {s['seed']} sha256 {s['sha256'][:12]}"
                                                  for s in report["subject_pins"])]
    return "\n".join(lines) + "\n"


def write(report: dict[str, Any], out: str | Path) -> tuple[Path, Path]:
    """`out`/benchmark.json and `out`/benchmark.md."""
    from ultimata.envs.core.io import atomic_write_json

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_json(folder / "benchmark.json", report)
    (folder / "benchmark.md").write_text(to_markdown(report))
    return folder / "benchmark.json", folder / "benchmark.md"
