"""Numbers people can cite (issue 44): the package version, the CHANGELOG and CITATION.cff agree and name the
installed env versions; a retired env version says what replaced it and which release still has it."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium
import pytest
import yaml
from gymnasium.utils.env_checker import check_env

import ultimata.envs as envs
from ultimata.envs.core.registry import RETIRED

ROOT = Path(__file__).parents[1]


def _latest_release() -> tuple[str, str]:
    """The newest CHANGELOG section: its version and its text."""
    text = (ROOT / "CHANGELOG.md").read_text()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    return sections[0].split()[0], sections[0]


def test_the_version_is_the_changelogs_and_the_citations():
    version = re.search(r'^version = "(.+)"$', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    latest, _ = _latest_release()
    assert version == latest == str(yaml.safe_load((ROOT / "CITATION.cff").read_text())["version"])


def test_the_latest_release_names_every_installed_env_version():
    """An env version bump without a new release entry fails here: bump the package version with it."""
    _, section = _latest_release()
    table = section.split("\n\n")[1]
    assert all(f"`{name}`" in table for name in envs.GAMES), "CHANGELOG.md's newest table misses an env version"


@pytest.mark.parametrize("name", ["ultimatum_world_v2", "conquest_of_the_world_v2"])
def test_a_retired_version_names_its_replacement_and_the_release_that_has_it(name):
    with pytest.raises(envs.ConfigError) as err:
        envs.make(name)
    replacement, release = RETIRED[name]
    assert replacement in envs.GAMES and release == "0.1.0"
    assert f"replaced by {replacement}" in str(err.value) and "pip install ultimata==0.1.0" in str(err.value)


def test_no_retired_name_is_installed_and_an_unknown_one_is_just_unknown():
    assert not set(RETIRED) & set(envs.GAMES)
    assert all(replacement in envs.GAMES for replacement, _ in RETIRED.values())
    with pytest.raises(envs.ConfigError, match="unknown game 'chess_v1'; registered games"):
        envs.make("chess_v1")
    with pytest.raises(envs.ConfigError, match="in no release"):
        envs.game_class("ultra_war_v2")


@pytest.mark.parametrize("name", list(envs.GAMES))
def test_gymnasium_makes_the_single_agent_view(name):
    env = gymnasium.make(envs.gymnasium_id(name), opponents=["random"])
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=0)
    mask = env.get_wrapper_attr("action_masks")()
    assert env.observation_space.contains(obs) and mask.any() and "seat" in info


def test_gymnasium_ids_read_as_gymnasium_names_them():
    assert envs.gymnasium_id("ultimatum_cards_v3") == "ultimata/UltimatumCards-v3"
    assert envs.gymnasium_id("conquest_of_the_world_v3") == "ultimata/ConquestOfTheWorld-v3"
    env = gymnasium.make("ultimata/UltimatumCards-v3", opponents="heuristic", num_players=3)
    assert env.unwrapped.game.num_players == 3
