"""docs/leaderboard.md's measured part is regenerated from docs/results/ by one command (issue 44)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ultimata import arena
from ultimata.envs.core.errors import ConfigError
from ultimata.exploit import ExploitResult, ExploitRun
from ultimata.leaderboard import BEGIN, END, load_results, render, write
from ultimata.train_seeds import SeedRun, summary

GAME = "ultimatum_cards_v3"
DOCS = Path(__file__).parents[1] / "docs"


def test_the_page_is_what_the_stored_results_give():
    """Edit docs/results/, then run `ultimata leaderboard --write docs/leaderboard.md`: never the page by hand."""
    page = (DOCS / "leaderboard.md").read_text()
    assert render(load_results(DOCS / "results")) in page
    assert page.index(END) < page.index("## History"), "the history stays below the generated part"


def _results(tmp_path):
    folder = tmp_path / "results" / GAME
    folder.mkdir(parents=True)
    played = arena.run(GAME, ["heuristic", "random"], games=8, seed=1).to_dict()
    (folder / "arena.json").write_text(json.dumps(played))
    run = ExploitRun(0, 4096, 12.0, 0.5, (0.4, 0.6), 2.0, 100, 44_000_000, "r", "r/final.zip", None,
                     [(2048, 0.3), (4096, 0.5)])
    result = ExploitResult(GAME, "random", {"steps": 4096, "minutes": None, "preset": "quick", "config": None}, 0.25,
                           [run])
    (folder / "exploit_random.json").write_text(json.dumps(result.to_dict()))
    seeds = [SeedRun(k, f"s{k}", 4096, 1.0, {"random": {"games": 8, "win_rate": w, "ci95": [0, 1],
                                                         "x_fair_share": 4 * w, "mean_reward": 0}})
             for k, w in enumerate((0.5, 0.7))]
    (folder / "seeds.json").write_text(json.dumps(summary(GAME, {"preset": "quick", "steps": 4096}, seeds)))
    return tmp_path / "results"


def test_each_kind_renders_its_figures(tmp_path):
    text = render(load_results(_results(tmp_path)))
    assert "| heuristic (scripted) |" in text and "openskill" in text
    assert "Match (`arena.json`): 8 games, seed 1, heuristic (scripted) (1 seat) against `random` (3 seats)" in text
    assert "**2.00×** (1.60–2.40)" in text and "30% → 50%" in text
    assert "4,096 samples, the quick preset's recipe" in text
    assert "| `mcts` |" in text and "not measured" in text  # search agents without a result say why
    assert "60.0% ± 14.1%" in text and "2.40 ± 0.57" in text and "2.00, 2.80" in text


def test_writing_replaces_the_generated_part_and_keeps_the_rest(tmp_path):
    page = tmp_path / "leaderboard.md"
    page.write_text("# Leaderboard\n\n## History\n\nold figures\n")
    first = render(load_results(_results(tmp_path)))
    write(page, first)
    write(page, first)  # twice: the same page, the history once
    text = page.read_text()
    assert text.count(BEGIN) == 1 and text.count("old figures") == 1 and text.index(END) < text.index("## History")
    write(page, first.replace("30% → 50%", "changed"))
    assert "changed" in page.read_text() and "30% → 50%" not in page.read_text()


def test_a_file_that_is_no_result_is_refused_by_name(tmp_path):
    folder = tmp_path / GAME
    folder.mkdir()
    (folder / "notes.json").write_text('{"game": "ultimatum_cards_v3"}')
    with pytest.raises(ConfigError, match="notes.json is not an arena, exploit, train --seeds or benchmark result"):
        load_results(tmp_path)
    with pytest.raises(ConfigError, match="no results folder"):
        load_results(tmp_path / "missing")
