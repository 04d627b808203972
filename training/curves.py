"""Learning curves as pictures: win rate against each evaluation opponent, over samples and over
wall-clock time, with the 95% intervals the arena reports. A run writes its own `curves.png` at every
evaluation; `ultimata plot RUN [RUN ...]` overlays runs to compare recipes or trainers.

matplotlib is imported here only, with the file-only Agg backend, so training never needs a display.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ultimata.envs.core.errors import CheckpointError
from ultimata.training.run_dir import Progress, RunDir


def eval_series(evals: list[dict[str, Any]]) -> dict[str, dict[str, list[float]]]:
    """Per opponent: samples, minutes, win rate and its interval, from a progress record's evaluations.
    Entries from before intervals were recorded plot as points without a band."""
    series: dict[str, dict[str, list[float]]] = {}
    for entry in evals:
        for key, value in entry.items():
            if key in ("steps", "seconds") or key.endswith("_ci95"):
                continue
            low, high = entry.get(f"{key}_ci95", [value, value])
            line = series.setdefault(key, {"steps": [], "minutes": [], "rate": [], "low": [], "high": []})
            line["steps"].append(entry["steps"])
            line["minutes"].append(entry.get("seconds", float("nan")) / 60)
            line["rate"].append(value)
            line["low"].append(low)
            line["high"].append(high)
    return series


def plot_runs(runs: list[str | Path], out: str | Path, labels: list[str] | None = None) -> Path:
    """Overlay the runs in these folders (their progress.json) in one picture."""
    records = []
    for k, root in enumerate(runs):
        progress = RunDir(root).load_progress()
        if not progress.evals:
            raise CheckpointError(f"{root} has no evaluations yet: nothing to plot")
        records.append((labels[k] if labels else Path(root).name, progress))
    return plot_progress(records, out)


def plot_progress(records: list[tuple[str, Progress]], out: str | Path) -> Path:
    """One figure: a row per evaluation opponent, win rate over samples (left) and minutes (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    loaded = [(label, progress.game, eval_series(progress.evals)) for label, progress in records]
    opponents = sorted({o for _, _, series in loaded for o in series})
    fig, axes = plt.subplots(len(opponents), 2, figsize=(11, 3.4 * len(opponents)), squeeze=False)
    for row, opponent in enumerate(opponents):
        for col, (x, xlabel) in enumerate((("steps", "samples"), ("minutes", "wall-clock minutes"))):
            ax = axes[row][col]
            for label, _, series in loaded:
                if opponent not in series:
                    continue
                line = series[opponent]
                drawn = ax.plot(line[x], line["rate"], marker="o", markersize=3, label=label)[0]
                ax.fill_between(line[x], line["low"], line["high"], color=drawn.get_color(), alpha=0.15)
            ax.set_ylim(0, 1)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(f"win rate vs {opponent}")
            ax.grid(alpha=0.3)
    games = sorted({game for _, game, _ in loaded})
    fig.suptitle(f"{', '.join(games)}: evaluation win rate (95% intervals shaded)")
    axes[0][0].legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{target.name}.tmp.png")
    fig.savefig(temp, dpi=80)
    plt.close(fig)
    temp.replace(target)
    return target
