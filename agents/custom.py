"""Agents from the user's own code: `package.module:Name` and `path/to/file.py:Name`, with options.

Researchers benchmark policies written in their own library; a spec that names their class lets such
a policy sit anywhere a spec is accepted (arena, play, the training pool) without wrapping it in an
SB3 checkpoint. The named object is a class or factory; it is called with the spec's options as
keyword arguments, plus whichever of `game` (the env name), `config` (the rule config) and `seed` it
declares as parameters. What it returns must keep the agent protocol (`agents/base.py`).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from ultimata.agents.base import Agent
from ultimata.agents.options import split_options
from ultimata.envs.core.errors import ConfigError

_SPEC = re.compile(
    r"^(?P<source>(?:[A-Za-z]:[\\/])?[^:]+):(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::(?P<options>.*))?$"
)
_MODULE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
CONTEXT = ("game", "config", "seed")
"""Arguments ultimata passes by name to a class or factory that declares them; never spec options."""
PROTOCOL = "reset(seat, seed=None) and act(observation, action_mask, state=None) -> int"
_loaded_files: dict[tuple[str, int], ModuleType] = {}


def is_custom_spec(spec: str) -> bool:
    """True for `module:Name[:options]` and `file.py:Name[:options]` (the mcts spec is matched first)."""
    return _SPEC.match(spec) is not None


def load_custom_agent(spec: str, game_name: str, config: dict[str, Any] | None, seed: int | None) -> Agent:
    """Import the named object, build it with the spec's options, and check that the result is an agent."""
    match = _SPEC.match(spec)
    if match is None:
        raise ConfigError(f"{spec!r} is not a custom agent spec; use package.module:Name or path/to/file.py:Name")
    source, name = match["source"].strip(), match["name"]
    options = split_options(match["options"] or "", spec, "options are key=value pairs passed to the constructor")
    module = _file_module(source, spec) if source.endswith(".py") else _import_module(source, spec)
    target: Any = module
    for part in name.split("."):
        if not hasattr(target, part):
            offered = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                             and getattr(v, "__module__", "") == module.__name__)
            raise ConfigError(f"agent spec {spec!r}: {source} has no {name!r}; it defines "
                              f"{', '.join(offered) or 'no class or function'}")
        target = getattr(target, part)
    if not callable(target):
        raise ConfigError(f"agent spec {spec!r}: {name} is {target!r}, not a class or factory to call")
    agent = target(**_arguments(target, spec, options, {"game": game_name, "config": config, "seed": seed}))
    return check_agent(agent, f"agent spec {spec!r}")


def check_agent(agent: Any, where: str) -> Agent:
    """`agent` if it keeps the protocol; else a ConfigError saying what `where` made and what it lacks."""
    if not isinstance(agent, Agent) or not (callable(agent.reset) and callable(agent.act)):
        raise ConfigError(f"{where} made a {type(agent).__name__}, which is not an agent: it needs {PROTOCOL} "
                          "(see docs/api.md#agents)")
    return agent


def _arguments(target: Any, spec: str, options: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """The options, plus the context the target declares; a clear error when they do not fit its signature."""
    reserved = sorted(set(options) & set(CONTEXT))
    if reserved:
        raise ConfigError(f"agent spec {spec!r}: {', '.join(reserved)} is passed by ultimata, not as an option")
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):  # a builtin without a signature: pass the options as given
        return dict(options)
    declared = {k: v for k, v in context.items() if k in params}
    kwargs = {**declared, **options}
    try:
        inspect.signature(target).bind(**kwargs)
    except TypeError as err:
        accepted = [p for p in params if p not in CONTEXT and params[p].kind not in (params[p].VAR_POSITIONAL,
                                                                                         params[p].VAR_KEYWORD)]
        raise ConfigError(f"agent spec {spec!r}: {err}; its options: {', '.join(accepted) or 'none'}") from None
    return kwargs


def _import_module(name: str, spec: str) -> ModuleType:
    """Import `name` as Python would; like `python -m`, the current directory is searched as well."""
    if not _MODULE.match(name):
        raise ConfigError(f"agent spec {spec!r}: {name!r} is neither a module name (package.module) nor a .py file")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        own = err.name is not None and (name == err.name or name.startswith(f"{err.name}."))
        if not own or "" in sys.path or os.getcwd() in sys.path:
            raise _import_error(name, spec, err) from err
    except Exception as err:
        raise _import_error(name, spec, err) from err
    sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(name)
    except Exception as err:
        raise _import_error(name, spec, err) from err


def _file_module(source: str, spec: str) -> ModuleType:
    """Load a .py file as a module once per version of the file (every seat shares its classes)."""
    path = Path(source).expanduser().resolve()
    if not path.is_file():
        raise ConfigError(f"agent spec {spec!r}: no file {source} (looked for {path})")
    key = (str(path), path.stat().st_mtime_ns)
    if key in _loaded_files:
        return _loaded_files[key]
    name = f"ultimata_user_agent_{path.stem}_{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"
    loader_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up here
    try:
        loader_spec.loader.exec_module(module)
    except Exception as err:
        del sys.modules[name]
        raise _import_error(source, spec, err) from err
    _loaded_files[key] = module
    return module


def _import_error(source: str, spec: str, err: Exception) -> ConfigError:
    return ConfigError(f"agent spec {spec!r}: {source} does not import ({type(err).__name__}: {err})")
