#!/usr/bin/env bash
# The wheel, as a user gets it from `pip install ultimata`: built here, installed into its own venv,
# and used from a folder outside the repository that has an `envs/` folder of its own (RL users
# usually do), so nothing can be picked up from the source tree by accident.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

python -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" .
wheel=$(ls "$work"/dist/ultimata-*.whl)
python - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
assert top == {"ultimata"}, f"the wheel must install only the ultimata package, not {sorted(top)}"
for needed in ("ultimata/web/static/index.html", "ultimata/web/static/app.js", "ultimata/configs/ultimade.yaml", "ultimata/configs/ultimatum_cards.yaml",
               "ultimata/agents/pretrained/ultimade.zip", "ultimata/agents/pretrained/ultimade.json",
               "ultimata/envs/ultra_war/data/maps.yaml",
               "ultimata/envs/conquest_of_the_world/data/board.yaml",
               "ultimata/envs/ultimatum_world/data/map.yaml", "ultimata/envs/ultimatum_world/data/rules.yaml", "ultimata/web/static/svg.js", "ultimata/envs/ultimade/view.js"):
    assert needed in names, f"the wheel lacks {needed}"
print(f"wheel ok: {len(names)} files, top-level package: ultimata")
PY

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --upgrade pip
"$work/venv/bin/pip" install --quiet torch==2.13.0
"$work/venv/bin/pip" install --quiet "$wheel"

mkdir -p "$work/user/envs" && cd "$work/user"
echo "raise ImportError('a user envs/ folder must never be imported by ultimata')" > envs/__init__.py
"$work/venv/bin/python" - <<'PY'
import pathlib, sysconfig
import pettingzoo
import ultimata.envs as envs
site = pathlib.Path(sysconfig.get_paths()["purelib"])
ours = sorted(p.name for p in site.iterdir() if p.name.startswith(("ultimata", "envs", "agents", "training", "configs")))
assert [n for n in ours if not n.endswith(".dist-info")] == ["ultimata"], ours
for name in envs.GAMES:
    env = pettingzoo.make("aec", envs.pettingzoo_id(name))
    env.reset(seed=0)
    envs.make(name).reset(seed=1)
print(f"made every env from the wheel: {', '.join(envs.GAMES)}")
PY
"$work/venv/bin/ultimata" arena ultimade_v2 pretrained heuristic --games 2 --seed 1 --replays "$work/arena" > "$work/arena.txt"
grep -q pretrained "$work/arena.txt"
"$work/venv/bin/ultimata" replay "$work/arena/game_00000.json" --no-pause < /dev/null > "$work/replay.txt"
"$work/venv/bin/ultimata" bench --steps 2000 --game ultimade_v2 --json > "$work/bench.json"
"$work/venv/bin/ultimata" train ultimatum_cards_v3 --preset quick --steps 256 --out "$work/run" > "$work/train.txt"
test -f "$work/run/final.zip"
echo "wheel runs the README's commands: arena, replay, bench, train"
port=$(python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
"$work/venv/bin/ultimata" serve --port "$port" --replays "$work/replays" > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$port/" > "$work/index.html" && break; sleep 0.5; done
grep -qi "<html" "$work/index.html"
grep -q '<script src="/views/ultimade.js">' "$work/index.html"  # the game scripts, written from the registry
curl -fs "http://127.0.0.1:$port/views/ultimade.js" > "$work/view.js"  # the drawing, from the game's package
grep -q 'ULTIMATA_VIEWS' "$work/view.js"
curl -fs "http://127.0.0.1:$port/static/app.js" > /dev/null
echo "wheel serves: front page and a static file from http://127.0.0.1:$port/"
cd "$repo"
