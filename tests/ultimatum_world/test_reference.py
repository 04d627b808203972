"""The engine against the independent reference model (reference.py): before every decision the mask
equals the reference's legal set, and after it every field of the state (money, conquests, cards,
pieces, the attack under way) equals the reference's, with the reference rolling the engine's dice.
ULTIMATA_FUZZ_GAMES=N plays N games (default 15, a few seconds)."""

from __future__ import annotations

from .random_play import play, rich, seeds
from .reference import Mismatch, RecordingRng, Reference, compare, reference_from


def _check_against_reference(seed: int) -> int:
    rng = RecordingRng(seed)
    ref, last = None, -1
    for s, _, action in play(seed, rng):
        if ref is None:
            if rich(seed):
                ref = reference_from(s.state_dict()["state"], s.n, s.rules, s.cfg)
            else:
                ref = Reference.new_game(s.n, s.rules, s.cfg, rng.log)
                assert not ref.dice.log, "the reference set up the game with fewer draws than the engine"
            compare(s.state_dict()["state"], ref, f"game {seed} start")
            rng.log = []
        else:
            rng.log, log = [], rng.log
            ref.step(last, log)
            compare(s.state_dict()["state"], ref, f"game {seed} decision {s.decisions} ({s.events[-1]})")
        if action < 0:
            return s.decisions
        legal, expected = set(s.legal_actions()), ref.legal()
        if legal != expected:
            raise Mismatch(
                f"game {seed} decision {s.decisions}, phase {s.phase}, pending {s.pending}: "
                f"only the engine allows {sorted(legal - expected)}, only the reference {sorted(expected - legal)}"
            )
        last = action
    raise AssertionError("unreachable")


def test_the_engine_agrees_with_the_reference_model_decision_by_decision():
    decisions = [_check_against_reference(seed) for seed in seeds(15)]
    assert min(decisions) > 10, "every game was played, not ended at once"
