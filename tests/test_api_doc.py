"""docs/api.md's `python` blocks run, in order, in one namespace: the page shows what the code does."""

from __future__ import annotations

import re
from pathlib import Path

API = Path(__file__).parents[1] / "docs" / "api.md"


def test_every_python_block_of_the_api_page_runs():
    blocks = re.findall(r"^```python\n(.*?)^```", API.read_text(), flags=re.S | re.M)
    assert len(blocks) >= 5
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(API), "exec"), namespace)  # noqa: S102 (our own documentation)
    assert namespace["result"].games >= 40 and namespace["hard"].options.guide == "pretrained"
    assert namespace["model"].num_timesteps >= 512


def test_the_api_page_is_linked_from_the_readme():
    assert "(docs/api.md)" in (API.parents[1] / "README.md").read_text()
