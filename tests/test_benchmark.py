"""`ultimata benchmark`: pinned opponents, shared deals, seats rotated, seeds, and a report that says whether it
meets the protocol (issue 53). The games here are few, so every report is run with --below-protocol."""

from __future__ import annotations

import hashlib
import json
import statistics

import yaml
from typer.testing import CliRunner

from ultimata import arena, benchmark
from ultimata.agents.specs import pretrained_path
from ultimata.cli import app
from ultimata.envs.core.registry import GAMES, game_base_name, game_class
from ultimata.leaderboard import load_results, render

GAME = next(name for name in GAMES if game_base_name(name) == "ultimatum_cards")
VERSION = game_class(GAME).version


def test_an_agent_is_measured_against_pinned_opponents_on_the_protocols_deals(tmp_path):
    report = benchmark.run(GAME, "pretrained", games=8, below_protocol=True, command="ultimata benchmark test",
                           out=tmp_path / "report")
    shipped = hashlib.sha256(pretrained_path(GAME).read_bytes()).hexdigest()
    assert report["subject_pins"] == [{"spec": "pretrained", "kind": "checkpoint", "file": pretrained_path(GAME).name,
                                       "sha256": shipped}]
    assert report["opponents"]["random"] == {"spec": "random", "kind": "named", "package": "ultimata",
                                             "version": benchmark.package_version()}
    for opponent in ("random", "heuristic"):
        pairing = next(p for p in report["pairings"] if p["opponent"] == opponent)
        played = arena.run(GAME, ["pretrained", opponent], games=8, seed=benchmark.BENCHMARK_SEED).agents[0]
        assert pairing["games"] == 8 and pairing["win_rate"] == round(played.win_rate, 4)
    assert report["env_version"] == VERSION and report["below_protocol"] == ["8 games per pairing (the protocol: at "
                                                                       "least 400)"]
    stored = json.loads((tmp_path / "report" / "benchmark.json").read_text())
    assert stored == json.loads(json.dumps(report))
    page = (tmp_path / "report" / "benchmark.md").read_text()
    assert "**below the protocol**" in page and f"sha256 {shipped[:12]}" in page
    assert f"ultimata {benchmark.package_version()}, env version v{VERSION}" in page
    assert "`ultimata benchmark test`" in page


def test_a_recipe_is_trained_per_seed_with_intervals_within_and_across_seeds(tmp_path):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(yaml.safe_dump({
        "sampler": {"kind": "batched", "rollout": 1024, "games": 16, "workers": 0}, "imitation": None,
        "checkpoint_every": 1024, "eval": {"games": 4, "final_games": 4, "opponents": ["random"]},
        "ppo": {"net_arch": [16], "n_epochs": 1, "batch_size": 256}}))
    report = benchmark.run(GAME, recipe=str(recipe), seeds=2, steps=1024, games=4, opponents=["random"],
                           below_protocol=True, out=tmp_path / "bench")
    assert [p["seed"] for p in report["pairings"]] == [0, 1]
    assert [p["arena_seed"] for p in report["pairings"]] == [benchmark.BENCHMARK_SEED, benchmark.BENCHMARK_SEED + 1]
    for k, pinned in enumerate(report["subject_pins"]):
        checkpoint = tmp_path / "bench" / f"seed_{k}" / "final.zip"
        assert pinned["seed"] == k and pinned["sha256"] == hashlib.sha256(checkpoint.read_bytes()).hexdigest()
    rates = [p["win_rate"] for p in report["pairings"]]
    summary = report["summary"]["random"]
    low, high = summary["across_seeds_ci95"]
    assert summary["win_rate"] == round(statistics.fmean(rates), 4) and low <= summary["win_rate"] <= high
    assert len(report["below_protocol"]) == 2 and "2 training seeds" in report["below_protocol"][1]
    assert "Over seeds" in benchmark.to_markdown(report)


def test_the_leaderboard_shows_a_report_and_whether_it_meets_the_protocol(tmp_path):
    report = benchmark.run(GAME, "heuristic", games=4, opponents=["random"], below_protocol=True, command="c")
    folder = tmp_path / "results" / GAME
    folder.mkdir(parents=True)
    (folder / "benchmark_heuristic.json").write_text(json.dumps(report))
    text = render(load_results(tmp_path / "results"))
    row = next(line for line in text.splitlines() if "`benchmark_heuristic.json`" in line)
    assert "heuristic" in row and "**below the protocol**: 4 games per pairing" in row
    under = {**report, "below_protocol": []}
    (folder / "benchmark_heuristic.json").write_text(json.dumps(under))
    assert "| under the protocol |" in render(load_results(tmp_path / "results"))


def test_below_the_protocol_needs_the_flag_and_bad_input_is_one_line():
    runner = CliRunner()
    cases = {
        ("pretrained", "--games", "8"): "below the benchmark protocol",
        ("pretrained", "--games", "0"): "--games must be at least 1",
        ("--recipe", "x.yaml", "--seeds", "3"): "3 training seeds",
        ("pretrained", "--seeds", "5", "--below-protocol", "--games", "4"): "give --recipe CONFIG",
        ("--games", "4", "--below-protocol"): "benchmark one thing",
        ("nobody", "--games", "4", "--below-protocol"): "unknown agent spec 'nobody'",
    }
    for args, said in cases.items():
        out = runner.invoke(app, ["benchmark", GAME, *args])
        assert out.exit_code == 2 and said in out.output and "Traceback" not in out.output, (args, out.output)
