"""Ray is optional: the base install never imports it, and asking for the backend without it says how to
install it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ultimata.envs.core.errors import ConfigError
from ultimata.training.rllib import require_ray


def test_the_base_package_never_imports_ray():
    code = (
        "import sys\n"
        "import ultimata.cli, ultimata.envs, ultimata.training.trainer, ultimata.training.arena\n"
        "import ultimata.agents.specs, ultimata.web.app, ultimata.arena\n"
        "from ultimata.cli import app\n"
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_backend_without_ray_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray.rllib", None)  # as if Ray were not installed
    with pytest.raises(ConfigError, match=r'pip install "ultimata\[rllib\]"'):
        require_ray()


def test_the_cli_names_the_extra_when_ray_is_missing(monkeypatch):
    from typer.testing import CliRunner

    from ultimata.cli import app

    monkeypatch.setitem(sys.modules, "ray.rllib", None)
    result = CliRunner().invoke(app, ["train", "ultimatum_cards_v3", "--backend", "rllib"])
    assert result.exit_code == 2 and 'pip install "ultimata[rllib]"' in result.output
