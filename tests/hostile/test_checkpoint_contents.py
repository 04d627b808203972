"""Checkpoints whose weights load as data but are not weights one can play, and files built to be heavy:
each ends in one CheckpointError line (never a torch traceback, never torch's advice to load the file
unsafely), in the Python API, the CLI and the web, and a heavy file is refused from its headers."""

from __future__ import annotations

import hashlib
import io
import struct
import zipfile
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from tests.agents.checkpoint_files import copy_checkpoint, edit_sidecar, member, replace_members
from tests.web.client import local_client
from ultimata.agents import load_agent
from ultimata.agents.checkpoint import MAX_MEMBER_BYTES, MAX_SIDECAR_BYTES, load_policy
from ultimata.cli import app
from ultimata.envs import game_class
from ultimata.envs.core.errors import CheckpointError
from ultimata.training.pool import OpponentPool
from ultimata.web.app import create_app
from ultimata.web.loaded_bots import LoadedCheckpoints

GAME = "ultimatum_cards_v3"
LAYER = "mlp_extractor.policy_net.0.weight"
pytestmark = pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")


def _weights(path: Path) -> dict[str, torch.Tensor]:
    return torch.load(io.BytesIO(member(path, "policy.pth")), weights_only=True)


def _with_layer(tiny: Path, folder: Path, name: str, change) -> Path:
    """A copy of `tiny` whose first layer is `change(layer)`, the sidecar's sha256 made to fit."""
    path = copy_checkpoint(tiny, folder, name)
    weights = _weights(path)
    weights[LAYER] = change(weights[LAYER])
    buffer = io.BytesIO()
    torch.save(weights, buffer)
    replace_members(path, {"policy.pth": buffer.getvalue()})
    return path


def _nan(t: torch.Tensor) -> torch.Tensor:
    t = t.clone()
    t[0, 0] = float("nan")
    return t


def _inf(t: torch.Tensor) -> torch.Tensor:
    t = t.clone()
    t[-1, -1] = float("-inf")
    return t


KINDS = {
    "sparse": (lambda t: t.to_sparse(), "is sparse_coo; only dense"),
    "sparse_csr": (lambda t: t.to_sparse_csr(), "is sparse_csr; only dense"),
    "meta": (lambda t: torch.empty(t.shape, device="meta"), "meta device and holds no values"),
    "nan": (_nan, "holds NaN or infinite values"),
    "inf": (_inf, "holds NaN or infinite values"),
    "integer": (lambda t: t.to(torch.int32), "int32; weights must be floating-point"),
    "complex": (lambda t: t.to(torch.complex64), "complex64; weights must be floating-point"),
    "shape": (lambda t: t[:, :-1].clone(), "the architecture needs"),
}


@pytest.fixture(scope="module")
def crafted(tmp_path_factory, tiny_checkpoint) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("crafted")
    return {kind: _with_layer(tiny_checkpoint, folder, kind, change) for kind, (change, _) in KINDS.items()}


def _one_clear_line(message: str) -> None:
    assert "\n" not in message.strip() and "weights_only" not in message and "Traceback" not in message


@pytest.mark.parametrize("kind", KINDS)
def test_weights_that_are_not_plain_dense_finite_floats_are_refused(crafted, kind):
    with pytest.raises(CheckpointError, match=KINDS[kind][1]) as refused:
        load_policy(crafted[kind], game_class(GAME).from_config({}))
    _one_clear_line(str(refused.value))
    assert LAYER in str(refused.value) or kind == "shape", "the refusal names the tensor"


@pytest.mark.parametrize("kind", ["sparse", "meta", "nan"])
def test_the_cli_prints_one_line(crafted, kind, tmp_path):
    arena = CliRunner().invoke(app, ["arena", GAME, str(crafted[kind]), "random", "--games", "2", "--stochastic"])
    assert arena.exit_code == 2 and KINDS[kind][1] in arena.output, arena.output
    _one_clear_line(arena.output)
    play = CliRunner().invoke(app, ["play", GAME, "--vs", str(crafted[kind]), "--seed", "1",
                                    "--record", str(tmp_path / "record.db")], input="quit\n")
    assert play.exit_code == 2 and KINDS[kind][1] in play.output, play.output
    # play shows the table's header before its bots load (issue 54); the refusal is then one line, and last
    header, _, refusal = play.output.strip().rpartition("\n")
    assert KINDS[kind][1] in refusal and "weights_only" not in header and "Traceback" not in header, play.output
    _one_clear_line(refusal)


def test_a_nan_snapshot_is_refused_by_the_training_pool(crafted):
    pool = OpponentPool(game_class(GAME).from_config({}), {"snapshots": 1.0})
    pool.add_snapshot(str(crafted["nan"]))
    with pytest.raises(CheckpointError, match="NaN"):
        pool.make_agent(str(crafted["nan"]))


def test_refusals_never_pass_on_torchs_advice(tiny_checkpoint, tmp_path):
    class Payload:
        def __reduce__(self):
            return print, ("never",)

    path = copy_checkpoint(tiny_checkpoint, tmp_path, "pickled")
    buffer = io.BytesIO()
    torch.save({LAYER: Payload()}, buffer)
    replace_members(path, {"policy.pth": buffer.getvalue()})
    with pytest.raises(CheckpointError, match="not plain weights, refused unread") as refused:
        load_agent(str(path), GAME)
    _one_clear_line(str(refused.value))
    assert "trust" not in str(refused.value) and "safe_globals" not in str(refused.value)


@pytest.mark.parametrize("sha", ["", "0" * 63, "not hex" * 9])
def test_a_sidecar_without_a_real_sha256_is_refused(tiny_checkpoint, tmp_path, sha):
    path = copy_checkpoint(tiny_checkpoint, tmp_path)
    edit_sidecar(path, sha256=sha)
    with pytest.raises(CheckpointError, match="has no sha256 of the zip"):
        load_policy(path, game_class(GAME).from_config({}))
    edit_sidecar(path, drop=("sha256",))
    with pytest.raises(CheckpointError, match="has no sha256 of the zip"):
        load_policy(path, game_class(GAME).from_config({}))


def test_a_huge_sidecar_is_refused_after_reading_the_cap(tiny_checkpoint, tmp_path, monkeypatch):
    path = copy_checkpoint(tiny_checkpoint, tmp_path)
    side = path.with_suffix(".json")
    side.write_text(side.read_text()[:-1] + " " * (3 * MAX_SIDECAR_BYTES) + "}")
    read = []
    real_open = Path.open

    def counting_open(self, *args, **kwargs):
        handle = real_open(self, *args, **kwargs)
        if self == side:
            real_read = handle.read
            handle.read = lambda n=-1: read.append(n) or real_read(n)
        return handle

    monkeypatch.setattr(Path, "open", counting_open)
    with pytest.raises(CheckpointError, match="larger than 1,048,576 bytes"):
        load_policy(path, game_class(GAME).from_config({}))
    assert read == [MAX_SIDECAR_BYTES + 1], "the sidecar is read up to the cap, never whole"


def _claiming(path: Path, size: int, name: str = "data") -> None:
    """Make the zip's central directory claim that member `name` is `size` bytes uncompressed (the sha256
    made to fit): what a 4 GiB member looks like before anything is decompressed."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        offset = archive.start_dir
        for info in archive.infolist():
            assert data[offset:offset + 4] == b"PK\x01\x02"
            name_len, extra_len, comment_len = struct.unpack("<HHH", data[offset + 28:offset + 34])
            if info.filename == name:
                struct.pack_into("<I", data, offset + 24, size)
            offset += 46 + name_len + extra_len + comment_len
    path.write_bytes(bytes(data))
    edit_sidecar(path, sha256=hashlib.sha256(bytes(data)).hexdigest())


@pytest.mark.parametrize("name", ["data", "policy.pth"])
def test_a_member_declared_over_the_cap_is_refused_before_decompression(tiny_checkpoint, tmp_path, monkeypatch,
                                                                          name):
    path = copy_checkpoint(tiny_checkpoint, tmp_path)
    _claiming(path, 0xF000_0000, name)  # 3.75 GiB
    opened = []
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda self, *a, **k: opened.append(a) or 1 / 0)
    with pytest.raises(CheckpointError, match=f"'{name}' is 4,026,531,840 bytes uncompressed, over the "
                                              f"{MAX_MEMBER_BYTES:,} allowed"):
        load_policy(path, game_class(GAME).from_config({}))
    assert opened == [], "no member was decompressed"


def test_a_member_that_lies_about_its_size_is_cut_at_it(tiny_checkpoint, tmp_path):
    path = copy_checkpoint(tiny_checkpoint, tmp_path)
    _claiming(path, 100, "policy.pth")  # smaller than it is: never decompressed past 100 bytes
    with pytest.raises(CheckpointError, match="corrupt|not plain weights"):
        load_policy(path, game_class(GAME).from_config({}))


def test_a_zip_of_many_members_is_refused(tiny_checkpoint, tmp_path):
    path = copy_checkpoint(tiny_checkpoint, tmp_path)
    replace_members(path, {f"m{i}": b"" for i in range(100)})
    with pytest.raises(CheckpointError, match=r"lists 10\d members, over the 64 allowed"):
        load_policy(path, game_class(GAME).from_config({}))


# -- the web -------------------------------------------------------------------------------------------

@pytest.fixture
def served(tmp_path, tiny_checkpoint, crafted) -> Path:
    folder = tmp_path / "served"
    folder.mkdir()
    copy_checkpoint(tiny_checkpoint, folder, "good")
    for kind in ("sparse", "meta", "nan"):
        copy_checkpoint(crafted[kind], folder, kind)
    return folder


def test_the_web_lists_the_good_and_refuses_the_bad_with_4xx(served, tmp_path):
    client = local_client(create_app(checkpoints=served, replays=tmp_path / "replays"))
    listed = client.get(f"/api/games/{GAME}/opponents")
    assert listed.status_code == 200
    assert [o["spec"] for o in listed.json() if o["spec"].startswith("checkpoint:")] == ["checkpoint:good.zip"]
    for kind in ("sparse", "meta", "nan"):
        made = client.post("/api/sessions", json={"game": GAME, "opponents": {"1": f"checkpoint:{kind}.zip"}})
        assert made.status_code == 400 and "allowed" in made.json()["detail"]
    good = client.post("/api/sessions", json={"game": GAME, "opponents": {"1": "checkpoint:good.zip"}})
    assert good.status_code == 201, good.text


def test_a_file_that_turns_bad_after_listing_is_a_4xx(served, tmp_path, crafted):
    client = local_client(create_app(checkpoints=served, replays=tmp_path / "replays"))
    assert client.get(f"/api/games/{GAME}/opponents").status_code == 200
    copy_checkpoint(crafted["sparse"], served, "good")  # replaced under the server's feet
    made = client.post("/api/sessions", json={"game": GAME, "opponents": {"1": "checkpoint:good.zip"}})
    assert made.status_code == 400 and str(served) not in made.text  # judged again: no longer offered


def test_refusals_and_loads_are_remembered_by_the_files_identity(served, tmp_path, monkeypatch):
    import ultimata.web.loaded_bots as loaded_bots

    calls = []
    real = loaded_bots.load_policy
    monkeypatch.setattr(loaded_bots, "load_policy",
                        lambda path, game: calls.append(Path(path).name) or real(path, game))
    client = local_client(create_app(checkpoints=served, replays=tmp_path / "replays"))
    for _ in range(3):
        assert client.get(f"/api/games/{GAME}/opponents").status_code == 200
    for _ in range(3):  # three games against the good file, and one with it in two seats
        made = client.post("/api/sessions", json={"game": GAME, "opponents": {"1": "checkpoint:good.zip"}})
        assert made.status_code == 201, made.text
        client.delete(f"/api/sessions/{made.json()['id']}")
    made = client.post("/api/sessions", json={"game": GAME, "opponents": {"1": "checkpoint:good.zip",
                                                                         "2": "checkpoint:good.zip"}})
    assert made.status_code == 201
    assert sorted(calls) == ["good.zip", "meta.zip", "nan.zip", "sparse.zip"], "each file read once"
    nan = served / "nan.zip"
    nan.with_suffix(".json").write_text(nan.with_suffix(".json").read_text())  # touched: judged again
    client.get(f"/api/games/{GAME}/opponents")
    assert sorted(calls).count("nan.zip") == 2


def test_loaded_bots_are_shared_and_bounded(tiny_checkpoint, tmp_path):
    paths = [copy_checkpoint(tiny_checkpoint, tmp_path, f"c{i}") for i in range(3)]
    loaded = LoadedCheckpoints(size=2)
    first, _ = loaded.policy(paths[0], GAME)
    assert loaded.policy(paths[0], GAME, {})[0] is first and loaded.loads == 1
    loaded.policy(paths[1], GAME)
    loaded.policy(paths[2], GAME)  # evicts c0, the least recently used
    assert len(loaded) == 2 and loaded.loads == 3
    assert loaded.policy(paths[0], GAME)[0] is not first and loaded.loads == 4
    with pytest.raises(CheckpointError, match="another rule config"):
        loaded.policy(paths[0], GAME, {"num_players": 3})
