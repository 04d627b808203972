"""The observation kept incrementally (observation.py's `_Table`) equals a plain encoding of the state,
built block by block from the layout, whatever happened to the state since its last look: play,
a state dict loaded into the same object, hand edits, clones, many states at once."""

import random

import numpy as np
import pytest

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards import observation
from ultimata.envs.ultimatum_cards.deck import DECK, NUM_KINDS
from ultimata.envs.ultimatum_cards.phases import HISTORY, OUTCOMES, PHASES, SWAP_MODE
from ultimata.envs.ultimatum_cards.scripted import choose_action

from .positions import do, position


def plain_encoding(state, viewer: int) -> np.ndarray:
    """Every block of docs/games/ultimatum_cards.md's table, named, seat-relative, then joined."""
    n, cfg = state.n, state.game.config
    unit = cfg.starting_chips

    def turned(per_seat):  # index 0 is the viewer
        return [per_seat[(r + viewer) % n] for r in range(n)]

    def hot(size, *indices):
        out = [0.0] * size
        for i in indices:
            out[i] = 1.0
        return out

    def seat_hot(seat):
        return hot(n, (seat - viewer) % n) if seat >= 0 else [0.0] * n

    proposals = []
    for proposer, share in state.proposals:
        proposals += [1.0, *seat_hot(proposer), share / unit]
    plays = []
    for card, actor, p1, p2, outcome, moved in reversed(state.history):
        card_hot = hot(NUM_KINDS, card) if card >= 0 else [0.0] * NUM_KINDS
        plays += [1.0, *card_hot, *seat_hot(actor), *seat_hot(p1), *seat_hot(p2), *hot(len(OUTCOMES), outcome),
                  moved / unit]
    play_size = 1 + NUM_KINDS + 3 * n + len(OUTCOMES) + 1
    known = [[0] * NUM_KINDS if q == viewer else state.known[viewer][q] for q in range(n)]
    rounds = {"quick": 1, "match": cfg.match_rounds, "point": cfg.max_rounds}[cfg.mode]
    pending = state.card >= 0
    blocks = {
        "hand": state.hands[viewer],
        "chips": [c / unit for c in turned(state.chips)],
        "hand_sizes": [sum(h) for h in turned(state.hands)],
        "scores": [s / unit for s in turned(state.scores)],
        "dealer": seat_hot(state.dealer),
        "actor": seat_hot(state.actor),
        "to_move": seat_hot(state.current_player),
        "pile": [len(state.pile) / len(DECK)],
        "discards": state.discards,
        "rounds_played": [state.rounds_played],
        "phase": hot(len(PHASES), state.phase),
        "card": hot(NUM_KINDS, state.card) if pending else [0.0] * NUM_KINDS,
        "p1": seat_hot(state.p1) if pending else [0.0] * n,
        "p2": seat_hot(state.p2) if pending else [0.0] * n,
        "swap_hands": [float(state.swap_hands) if pending else 0.0],
        "proposals": (proposals if pending else []) + [0.0] * (n * (n + 2) - (len(proposals) if pending else 0)),
        "accepted": hot(n, state.accepted) if pending and state.accepted >= 0 else [0.0] * n,
        "history": plays + [0.0] * (HISTORY * play_size - len(plays)),
        "played": [k for row in turned(state.played) for k in row],
        "showed": [f for row in turned(state.showed) for f in row],
        "known": [k for row in turned(known) for k in row],
        "settings": [*hot(3, ("quick", "match", "point").index(cfg.mode)), (rounds - state.rounds_played) / rounds,
                     cfg.target_score / (unit * n) if cfg.mode == "point" else 0.0],
    }
    assert list(blocks) == list(state.game.obs_layout.slices), "the reference names every block in order"
    return np.concatenate([np.asarray(b, dtype=np.float32) for b in blocks.values()])


def assert_sees_plainly(state, viewers) -> None:
    for viewer in viewers:
        got, want = state.observation(viewer), plain_encoding(state, viewer)
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(got, want), [
            name for name, s in state.game.obs_layout.slices.items() if not np.array_equal(got[s], want[s])
        ]


@pytest.mark.parametrize(
    "config", [{}, {"num_players": 3}, {"num_players": 6, "give_to_self": True}, {"mode": "match"},
               {"mode": "point", "target_score": 30, "chips_carry_over": True}],
    ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default",
)
def test_observations_equal_the_plain_encoding_through_random_and_scripted_games(config) -> None:
    game = game_class("ultimatum_cards_v2").from_config(config)
    pick = random.Random(3)
    swaps = 0
    for seed in range(24):
        state = game.new_initial_state(Rng(seed))
        while not state.is_terminal():
            # the seat to move every time (as the AEC loop looks), sometimes every seat in a random order
            viewers = pick.sample(range(state.n), state.n) if pick.random() < 0.3 else [state.current_player]
            assert_sees_plainly(state, viewers)
            legal = state.legal_actions()
            action = choose_action(state, Rng(seed)) if seed % 2 else legal[pick.randrange(len(legal))]
            swaps += state.phase == SWAP_MODE and action == state.layout.swap_hands
            state.apply(action)
        assert_sees_plainly(state, range(state.n))
    assert swaps, "some games swap hands (what a seat knows)"


def test_a_state_dict_loaded_into_a_state_already_looked_at_is_seen_afresh() -> None:
    game = game_class("ultimatum_cards_v2").from_config({"mode": "match"})
    state = game.new_initial_state(Rng(5))
    pick = random.Random(5)
    saved = []
    while len(saved) < 150 and not state.is_terminal():
        saved.append(state.state_dict())
        assert_sees_plainly(state, range(4))
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
    assert len(saved) > 100, "a match lasts long enough to go back and forth in"
    for earlier in (saved[60], saved[3], saved[-1], saved[0], saved[100]):  # the history shrinks and grows
        state.load_state_dict(earlier)
        assert_sees_plainly(state, range(4))


def test_lists_edited_in_place_and_clones_are_seen_as_they_are() -> None:
    state = position({0: ["Swap", "Draw"], 1: ["Block", "Counter", "Draw"]})
    assert_sees_plainly(state, range(4))
    do(state, "play Swap", "choose player_1", "swap hands", "pass")
    assert_sees_plainly(state, range(4))
    twin = state.clone()
    state.hands[2][3] += 1  # edits no rule makes, in place
    state.history[-1][5] = 7
    state.played[1][0] = 2
    state.known[0][1][0] = 1
    assert_sees_plainly(state, range(4))
    assert_sees_plainly(twin, range(4))


def test_the_cache_of_tables_stays_bounded(monkeypatch) -> None:
    monkeypatch.setattr(observation, "MAX_STATES", 5)
    game = game_class("ultimatum_cards_v2").from_config({})
    states = [game.new_initial_state(Rng(seed)) for seed in range(12)]
    for state in states:
        assert_sees_plainly(state, range(4))
        assert len(observation._TABLES) <= 5
    for state in states:  # their tables were dropped along the way: seen afresh, still right
        assert_sees_plainly(state, range(4))
