"""Unknown or invalid config keys are refused with a message naming the key and what is allowed."""

import pytest

import ultimata.envs as envs
from ultimata.envs import GAMES, ConfigError


@pytest.mark.parametrize("name", list(GAMES))
def test_unknown_key_names_the_key_and_the_allowed_ones(name: str) -> None:
    with pytest.raises(ConfigError) as err:
        envs.make(name, no_such_rule=3)
    assert "no_such_rule" in str(err.value)
    assert "max_decisions" in str(err.value)


@pytest.mark.parametrize("name", list(GAMES))
def test_invalid_value_names_the_key(name: str) -> None:
    with pytest.raises(ConfigError, match="max_decisions"):
        envs.make(name, max_decisions="many")


def test_unknown_game_lists_the_registered_ones() -> None:
    with pytest.raises(ConfigError, match="ultimatum_cards_v3"):
        envs.make("chess_v9")


def test_unsupported_render_mode_is_refused() -> None:
    with pytest.raises(ConfigError, match="allowed"):
        envs.make_raw("ultimatum_cards_v3", render_mode="vr")


def test_card_game_limits() -> None:
    with pytest.raises(ConfigError, match="num_players"):
        envs.make("ultimatum_cards_v3", num_players=7)
    with pytest.raises(ConfigError, match="48 cards"):
        envs.make("ultimatum_cards_v3", num_players=6, hand_size=10)
    with pytest.raises(ConfigError, match="mode"):
        envs.make("ultimatum_cards_v3", mode="forever")
