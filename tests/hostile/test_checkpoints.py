"""Checkpoints made by someone else: a crafted file never runs code, whichever way it comes in.

The hostile file is an SB3 zip whose `data` holds a pickle that, unpickled, creates a marker file (SB3's
`MaskablePPO.load` unpickles it), and, in a second file, whose `policy.pth` is such a pickle too (a plain
`torch.load` would run it). The first test shows both payloads are real. Every entry point then loads the
files: the one with genuine weights plays (weights only), the one with hostile weights is refused with a
clear error, and no marker ever appears. A payload that ran would leave its marker, and the test fails.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import pickle
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

import ultimata.agents.specs as specs
from tests.agents.checkpoint_files import copy_checkpoint, edit_sidecar, member, replace_members
from tests.web.client import local_client
from ultimata.agents import load_agent
from ultimata.agents.checkpoint import FORMAT_V1
from ultimata.agents.policy_agent import PolicyAgent
from ultimata.cli import app
from ultimata.envs import game_class
from ultimata.envs.core.errors import CheckpointError, UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.training.pool import OpponentPool
from ultimata.web.app import create_app

GAME = "ultimatum_cards_v3"
REFUSED = "is not plain weights, refused unread"


class Payload:
    """Unpickled, it opens (so creates) its marker file: what a real attack would do instead is anything."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


class Files:
    def __init__(self, folder: Path, tiny: Path) -> None:
        self.markers = folder / "markers"
        self.markers.mkdir()
        self.data_marker, self.weights_marker = self.markers / "from_data", self.markers / "from_weights"
        self.hostile_data = _hostile_data(member(tiny, "data"), self.data_marker)
        self.hostile_weights = _torch_bytes(Payload(self.weights_marker))
        self.evil_data = copy_checkpoint(tiny, folder, "evil_data")  # hostile `data`, genuine weights
        replace_members(self.evil_data, {"data": self.hostile_data})
        self.evil_both = copy_checkpoint(tiny, folder, "evil_both")  # hostile `data` and hostile weights
        replace_members(self.evil_both, {"data": self.hostile_data, "policy.pth": self.hostile_weights})
        self.evil_old = copy_checkpoint(self.evil_data, folder, "evil_old")  # a format /1 sidecar: inferred
        edit_sidecar(self.evil_old, drop=("policy",), format=FORMAT_V1)

    def ran(self) -> list[str]:
        return sorted(p.name for p in self.markers.iterdir())


def _hostile_data(data: bytes, marker: Path) -> bytes:
    """SB3's `data` with the payload as the pickles of its policy class and observation space."""
    entries = json.loads(data)
    payload = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    for key in ("policy_class", "observation_space"):
        entries[key] = {":type:": "<class 'abc.ABCMeta'>", ":serialized:": payload}
    return json.dumps(entries).encode()


def _torch_bytes(obj) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory, tiny_checkpoint):
    return Files(tmp_path_factory.mktemp("hostile"), tiny_checkpoint)


@pytest.fixture(autouse=True)
def nothing_ran(request):
    yield
    if "files" in request.fixturenames:
        assert request.getfixturevalue("files").ran() == [], "a payload ran"


def test_the_payloads_are_real(tmp_path):
    """What a careless loader does with these files: each payload creates its marker."""
    from stable_baselines3.common.save_util import json_to_data

    marker = tmp_path / "unpickled"
    json_to_data(_hostile_data(member_of_any_checkpoint(), marker).decode())  # SB3's own reading of `data`
    assert marker.exists()
    marker.unlink()
    torch.load(io.BytesIO(_torch_bytes(Payload(marker))), weights_only=False)
    assert marker.exists()


def member_of_any_checkpoint() -> bytes:
    return member(specs.pretrained_path(GAME), "data")


def _plays(agent) -> None:
    state = game_class(GAME).from_config({}).new_initial_state(Rng(0))
    mask = state.legal_action_mask()
    assert mask[agent.act(state.observation(state.current_player), mask, state)] == 1


@pytest.mark.parametrize("name", ["evil_data", "evil_old"])
def test_load_agent_and_from_checkpoint_read_weights_only(files, name):
    path = getattr(files, name)
    _plays(load_agent(str(path), GAME))
    _plays(PolicyAgent.from_checkpoint(path, game_class(GAME).from_config({})))


def test_load_agent_and_from_checkpoint_refuse_hostile_weights(files):
    with pytest.raises(CheckpointError, match=REFUSED):
        load_agent(str(files.evil_both), GAME)
    with pytest.raises(CheckpointError, match=REFUSED):
        PolicyAgent.from_checkpoint(files.evil_both, game_class(GAME).from_config({}))


def test_hostile_weights_among_genuine_tensors_are_refused(files, tmp_path, tiny_checkpoint):
    path = copy_checkpoint(tiny_checkpoint, tmp_path, "mixed")
    weights = torch.load(io.BytesIO(member(path, "policy.pth")), weights_only=True)
    replace_members(path, {"policy.pth": _torch_bytes({**weights, "extra": Payload(files.weights_marker)})})
    with pytest.raises(CheckpointError, match=REFUSED):
        load_agent(str(path), GAME)


def test_the_arena_command(files):
    played = CliRunner().invoke(app, ["arena", GAME, str(files.evil_data), "random", "--games", "4"])
    assert played.exit_code == 0, played.output
    refused = CliRunner().invoke(app, ["arena", GAME, str(files.evil_both), "random", "--games", "4"])
    assert refused.exit_code == 2 and REFUSED in refused.output and "Traceback" not in refused.output


def test_the_play_command(files, tmp_path):
    """`--record` in tmp_path: the default is the user's own record (runs/ultimata.db), never a test's."""
    record = ["--record", str(tmp_path / "record.db")]
    refused = CliRunner().invoke(app, ["play", GAME, "--vs", str(files.evil_both), "--seed", "1", *record],
                                 input="quit\n")
    assert refused.exit_code == 2 and REFUSED in refused.output and "Traceback" not in refused.output
    played = CliRunner().invoke(app, ["play", GAME, "--vs", str(files.evil_data), "--seed", "1", *record],
                                input="quit\n")
    assert "Traceback" not in played.output and REFUSED not in played.output
    assert (tmp_path / "record.db").exists(), "the game went to the test's own record"


def test_the_web_offers_and_plays_only_what_loads_as_data(files, tmp_path, caplog):
    folder = tmp_path / "served"
    folder.mkdir()
    for path in (files.evil_data, files.evil_both):
        copy_checkpoint(path, folder, path.stem)
    client = local_client(create_app(checkpoints=folder, replays=tmp_path / "replays"))
    with caplog.at_level(logging.WARNING, logger="ultimata.web"):
        offered = {o["spec"] for o in client.get(f"/api/games/{GAME}/opponents").json()}
    assert "checkpoint:evil_data.zip" in offered and "checkpoint:evil_both.zip" not in offered
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "evil_both.zip is not offered" in warned and REFUSED in warned and str(folder) not in warned
    made = client.post("/api/sessions", json={"game": GAME, "seed": 1, "opponents": {"1": "checkpoint:evil_data.zip"}})
    assert made.status_code == 201, made.text
    refused = client.post("/api/sessions", json={"game": GAME, "opponents": {"1": "checkpoint:evil_both.zip"}})
    assert refused.status_code == 400 and "allowed" in refused.json()["detail"]


def test_the_training_pool(files):
    pool = OpponentPool(game_class(GAME).from_config({}), {"snapshots": 1.0})
    pool.add_snapshot(str(files.evil_data))
    _plays(pool.make_agent(str(files.evil_data)))
    pool.add_snapshot(str(files.evil_both))
    with pytest.raises(CheckpointError, match=REFUSED):
        pool.make_agent(str(files.evil_both))


def test_a_resumed_runs_pool_snapshots(files, tmp_path, capsys):
    from rich.console import Console

    from ultimata.training.model import keep_intact_snapshots
    from ultimata.training.run_dir import Progress, RunDir

    run = RunDir(tmp_path)
    for path in (files.evil_data, files.evil_both):
        copy_checkpoint(path, tmp_path, path.stem)
    progress = Progress(game=GAME, snapshots=["evil_both.zip", "evil_data.zip"])
    keep_intact_snapshots(run, progress, game_class(GAME).from_config({}), Console())
    assert progress.snapshots == ["evil_data.zip"]
    assert "pool snapshot evil_both.zip is left out" in capsys.readouterr().out


@pytest.mark.parametrize("spec", ["mcts:guide=pretrained,sims=4", "mcts:rollout=pretrained,sims=4", "hard"])
def test_the_search_guides(files, monkeypatch, spec):
    """The shipped bot's file is where `hard` and the guided search read it: a crafted one in its place."""
    monkeypatch.setattr(specs, "pretrained_path", lambda name: files.evil_data)
    _plays(load_agent(spec, GAME))
    monkeypatch.setattr(specs, "pretrained_path", lambda name: files.evil_both)
    with pytest.raises(UltimataError, match=REFUSED):
        load_agent(spec, GAME)


def test_export(files, tmp_path):
    from ultimata.training.export import export_checkpoint

    _plays(load_agent(str(export_checkpoint(files.evil_data, tmp_path / "out.zip")), GAME))
    with pytest.raises(CheckpointError, match=REFUSED):
        export_checkpoint(files.evil_both, tmp_path / "out2.zip")


def test_corrupt_checkpoints_are_not_offered_and_each_is_named(tiny_checkpoint, tmp_path, caplog):
    folder = tmp_path / "served"
    folder.mkdir()
    good = copy_checkpoint(tiny_checkpoint, folder, "good")
    cut = copy_checkpoint(tiny_checkpoint, folder, "cut")
    cut.write_bytes(cut.read_bytes()[:300])
    copy_checkpoint(tiny_checkpoint, folder, "no_sidecar").with_suffix(".json").unlink()
    copy_checkpoint(tiny_checkpoint, folder, "bad_sidecar").with_suffix(".json").write_text("[" * 5000)
    other = copy_checkpoint(tiny_checkpoint, folder, "other_game")
    edit_sidecar(other, game="ultimade_v2")
    client = local_client(create_app(checkpoints=folder, replays=tmp_path / "replays"))
    with caplog.at_level(logging.WARNING, logger="ultimata.web"):
        listed = client.get(f"/api/games/{GAME}/opponents")
    assert listed.status_code == 200
    assert [o["spec"] for o in listed.json() if o["spec"].startswith("checkpoint:")] == [f"checkpoint:{good.name}"]
    warned = {r.getMessage().split(" is not offered")[0] for r in caplog.records}
    assert warned == {"checkpoint cut.zip", "checkpoint no_sidecar.zip", "checkpoint bad_sidecar.zip"}
    assert not any(str(folder) in r.getMessage() for r in caplog.records), "no server path in what is logged"
