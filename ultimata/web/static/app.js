// ultimata in the browser: game list, new game, the table (play or watch), replays.
// Each game draws itself through window.ULTIMATA_VIEWS[view.kind].render(el, view, moves, play): the
// server sets view.kind to the game's name without its version, and static/games/<that name>.js registers
// itself under it (the server writes a <script> for it into the page); the list of legal moves under the
// board works for every game, drawn or not.
"use strict";

const main = document.getElementById("main");
const VIEWS = (window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {});

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || data));
  return data;
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") el.addEventListener("click", v);
    else if (k === "class") el.className = v;
    else if (v !== undefined && v !== null) el.setAttribute(k, v);
  }
  for (const c of children.flat()) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

const seatName = (i) => `player_${i}`;

// A random id per "start" click: the server answers a repeated request with the same game, never two.
function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Whether POST /api/sessions takes `request_id` (older servers refuse unknown fields): read once from the
// API's own schema.
let acceptsRequestId = null;
async function withRequestId(body) {
  if (acceptsRequestId === null) {
    const schema = await api("GET", "/api/openapi.json").catch(() => ({}));
    const props = (((schema.components || {}).schemas || {}).NewGame || {}).properties || {};
    acceptsRequestId = "request_id" in props;
  }
  return acceptsRequestId ? { ...body, request_id: requestId() } : body;
}

// Creating a game loads its bots, which can take half a minute the first time: the button stays disabled
// (a double click makes one game) and `note` counts the seconds.
async function createGame(body, button, note) {
  if (button.disabled) return null;
  button.disabled = true;
  const started = Date.now();
  const tick = () => { note.textContent = `Setting up the game… ${Math.round((Date.now() - started) / 1000)} s (loading the bots can take a while the first time)`; };
  note.classList.remove("error");
  note.classList.add("busy");
  tick();
  const ticking = setInterval(tick, 1000);
  try {
    const snap = await api("POST", "/api/sessions", await withRequestId(body));
    sessionStorage.setItem("ultimataLastGame", JSON.stringify({ ...body, seed: undefined }));
    location.hash = `#/game/${snap.id}`;
    return snap;
  } catch (err) {
    note.classList.add("error");
    note.textContent = err.message;
    return null;
  } finally {
    clearInterval(ticking);
    note.classList.remove("busy");
    if (!note.classList.contains("error")) note.textContent = "";
    button.disabled = false;
  }
}

// -- routes ---------------------------------------------------------------------------------------
// The game this page shows. When the page moves on from a game still in play (a new game, replays,
// closing the tab) it leaves that game, so the server frees its slot at once instead of keeping it until
// it idles out. A finished game has freed its slot already and stays readable, so it is not left.
let shownGame = null;
let shownGameOver = false;
function leaveGame(next) {
  if (shownGame && shownGame !== next && !shownGameOver) {
    fetch(`/api/sessions/${shownGame}`, { method: "DELETE", keepalive: true }).catch(() => {});
  }
  if (shownGame !== next) shownGameOver = false;
  shownGame = next;
}
window.addEventListener("pagehide", () => leaveGame(null));

async function route() {
  const [, page, arg] = location.hash.split("/");
  stopTimers();
  leaveGame(page === "game" ? arg : null);
  try {
    if (page === "game") return await showGame(arg);
    if (page === "replays") return await showReplays();
    if (page === "replay") return await showReplay(decodeURIComponent(arg));
    return await showGames();
  } catch (err) {
    main.replaceChildren(h("p", { class: "error" }, err.message));
  }
}
let timer = null;
function stopTimers() {
  if (timer) clearTimeout(timer);
  timer = null;
}

// -- the games and a new game ---------------------------------------------------------------------
async function showGames() {
  const games = await api("GET", "/api/games");
  const cards = [];
  for (const g of games) cards.push(await newGameForm(g));
  main.replaceChildren(h("h1", {}, "Play against the bots"), h("div", { class: "games" }, cards));
}

function configField(name, schema, value) {
  const prop = schema.properties[name];
  const anyOf = prop.anyOf ? prop.anyOf.find((p) => p.type !== "null") : prop;
  let input;
  if (prop.enum || (anyOf && anyOf.enum)) {
    input = h("select", { name }, (prop.enum || anyOf.enum).map((v) => h("option", { value: v }, v)));
    input.value = value;
  } else if ((anyOf && anyOf.type) === "boolean") {
    input = h("input", { type: "checkbox", name });
    input.checked = !!value;
  } else {
    input = h("input", { type: "number", name, value: value ?? "", placeholder: value === null ? "auto" : "" });
  }
  input.dataset.kind = (anyOf && anyOf.type) || "string";
  return h("label", { title: prop.description || "" }, h("span", {}, name.replaceAll("_", " ")), input);
}

async function newGameForm(game) {
  const schema = game.config_schema;
  const hidden = new Set(["max_decisions", "dense_reward"]);
  const scalar = (prop) => {
    const t = prop.anyOf ? prop.anyOf.find((p) => p.type !== "null") : prop;
    return prop.enum || (t && (t.enum || ["integer", "number", "boolean", "string"].includes(t.type)));
  };
  // Lists and tables keep their defaults here; the API takes them all.
  const fields = Object.keys(schema.properties)
    .filter((k) => !hidden.has(k) && scalar(schema.properties[k]))
    .map((k) => configField(k, schema, game.defaults[k]));
  const seatsBox = h("div", {});
  let opponents = await api("GET", `/api/games/${game.name}/opponents`);
  const form = h("form", { class: "panel", "data-game": game.name });

  function readConfig() {
    const config = {};
    for (const input of form.querySelectorAll("[data-kind]")) {
      const d = game.defaults[input.name];
      let v = input.dataset.kind === "boolean" ? input.checked : input.value;
      if (input.dataset.kind === "integer" || input.dataset.kind === "number") v = v === "" ? null : Number(v);
      if (v !== d) config[input.name] = v;
    }
    return config;
  }
  // Easy / medium / hard, when the server names them: a level sets every bot seat to its agent; the
  // per-seat pickers stay for people who want to mix.
  const levels = game.difficulty || [];
  const difficulty = h("select", { name: "difficulty" }, h("option", { value: "" }, "choose each bot below"),
    levels.map((d) => h("option", { value: d.agent }, `${d.level}: ${d.agent}${d.strength ? ` (${d.strength})` : ""}`)));
  const difficultyRow = h("div", { class: "difficulty" },
    h("label", { title: "sets every bot seat to this level's bot" }, h("span", {}, "difficulty"), difficulty),
    h("ul", { class: "levels" }, levels.map((d) => h("li", {}, h("b", {}, d.level), `: ${d.agent}${d.strength ? `, ${d.strength}` : ""}`))));
  if (!levels.length) difficultyRow.style.display = "none";
  function botOption(spec) {
    const known = opponents.find((o) => o.spec === spec);
    return h("option", { value: spec }, known ? known.label : spec);
  }
  function applyDifficulty() {
    if (!difficulty.value) return;
    seatsBox.querySelectorAll("select[name^=opp_]").forEach((sel) => {
      if (![...sel.options].some((o) => o.value === difficulty.value)) sel.append(botOption(difficulty.value));
      sel.value = difficulty.value;
    });
  }
  difficulty.addEventListener("change", applyDifficulty);
  function drawSeats() {
    const n = Number(readConfig().num_players ?? game.defaults.num_players ?? game.players);
    const before = Object.fromEntries([...seatsBox.querySelectorAll("select")].map((sel) => [sel.name, sel.value]));
    const yours = h("select", { name: "human_seat" }, [...Array(n).keys()].map((i) => h("option", { value: i }, seatName(i))), h("option", { value: "watch" }, "nobody: watch bots"));
    if ([...yours.options].some((o) => o.value === before.human_seat)) yours.value = before.human_seat;
    const rows = [h("label", {}, h("span", {}, "your seat"), yours)];
    for (let i = 0; i < n; i++) {
      const sel = h("select", { name: `opp_${i}` }, opponents.map((o) => h("option", { value: o.spec }, o.label)));
      sel.value = opponents.some((o) => o.spec === "pretrained") ? "pretrained" : "heuristic";
      if (opponents.some((o) => o.spec === before[sel.name])) sel.value = before[sel.name];  // keep a choice still offered
      sel.addEventListener("change", () => { difficulty.value = ""; });
      rows.push(h("label", { class: `opp opp-${i}` }, h("span", {}, `${seatName(i)} bot`), sel));
    }
    seatsBox.replaceChildren(...rows);
    applyDifficulty();
    const sync = () => seatsBox.querySelectorAll(".opp").forEach((el, i) => (el.style.display = String(i) === yours.value ? "none" : ""));
    yours.addEventListener("change", sync);
    sync();
  }
  // Bots depend on the rules (the shipped bot fits one rule variant): re-ask on every rule change.
  const note = h("p", { class: "note" });
  form.addEventListener("change", async (e) => {
    if (!e.target.dataset || !e.target.dataset.kind) return;
    try {
      opponents = await api("GET", `/api/games/${game.name}/opponents?config=${encodeURIComponent(JSON.stringify(readConfig()))}`);
      note.classList.remove("error");
      note.textContent = "";
    } catch (err) {
      note.classList.add("error");
      note.textContent = err.message;
    }
    drawSeats();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const seatValue = form.querySelector("[name=human_seat]").value;
    const human = seatValue === "watch" ? null : Number(seatValue);
    const opponentsBySeat = {};
    // The seats as the rules now say (a player count just changed may not have redrawn them yet).
    const players = Number(readConfig().num_players ?? game.defaults.num_players ?? game.players);
    form.querySelectorAll("select[name^=opp_]").forEach((s) => {
      const seat = Number(s.name.slice(4));
      if (seat !== human && seat < players) opponentsBySeat[seat] = s.value;
    });
    const seed = form.querySelector("[name=seed]").value;
    const body = { game: game.name, config: readConfig(), human_seat: human, opponents: opponentsBySeat };
    if (seed !== "") body.seed = Number(seed);
    await createGame(body, form.querySelector("button[type=submit]"), note);
  });
  form.append(
    h("h2", {}, game.title), h("p", {}, game.summary, " ", h("code", {}, game.name)),
    h("details", {}, h("summary", {}, "rule variant"), fields,
      h("label", { title: "the same seed, moves and bots replay the same game" }, h("span", {}, "seed"),
        h("input", { type: "number", name: "seed", placeholder: "random" }))),
    difficultyRow, seatsBox, note,
    h("button", { class: "primary", type: "submit" }, "Start"),
  );
  drawSeats();
  return form;
}

// -- the table ------------------------------------------------------------------------------------
// Each game's module may carry `help` ({rules: [...], legend(view) -> items}) and `identity(view)`.
function helpPanel(kind, view) {
  const module = VIEWS[kind] || {};
  const help = module.help;
  if (!help) return h("div", {});
  const seen = localStorage.getItem(`ultimataHelpSeen:${kind}`);
  localStorage.setItem(`ultimataHelpSeen:${kind}`, "1");
  const legend = window.ULTIMATA_SVG.legend(typeof help.legend === "function" ? help.legend(view) : help.legend);
  return h("div", { class: "help-box" },
    h("details", { class: "help", open: seen ? null : "" }, h("summary", {}, "How to play"),
      h("ul", {}, help.rules.map((r) => h("li", {}, r)))),
    h("details", { class: "legend-box", open: "" }, h("summary", {}, "Legend"), legend));
}

async function showGame(id) {
  let speed = Number(localStorage.getItem("ultimataSpeed") || 700);
  const board = h("div", { class: "board" });
  const status = h("div", { class: "status" });
  const you = h("div", { class: "you" });
  const movesBox = h("div", { class: "moves" });
  const events = h("ol", { class: "events" });
  const helpSlot = h("div", {});
  const result = h("div", {});
  const speedInput = h("input", { type: "range", min: 50, max: 2000, step: 50, value: speed });
  let perspective = null;  // watching: whose view to show (null: the public table)
  let lastEvent = 0;  // the log keeps every event of the game: new ones are appended
  const viewAs = h("select", {});
  const query = () => (perspective === null ? "" : `?perspective=${perspective}`);
  viewAs.addEventListener("change", async () => {
    perspective = viewAs.value === "" ? null : Number(viewAs.value);
    clearTimeout(timer);
    draw(await api("GET", `/api/sessions/${id}${query()}`));
  });
  speedInput.addEventListener("input", () => {
    speed = Number(speedInput.value);
    localStorage.setItem("ultimataSpeed", String(speed));
  });
  main.replaceChildren(
    h("div", { class: "layout" },
      h("div", {}, status, you, result, board, movesBox),
      h("div", { class: "panel side" }, h("label", {}, "bot speed (ms per move) ", speedInput),
        h("label", { class: "view-as" }, "view as ", viewAs), helpSlot, h("h3", {}, "What happened"), events)),
  );

  async function play(action) {
    try {
      draw(await api("POST", `/api/sessions/${id}/move`, { action }));
    } catch (err) {
      status.replaceChildren(h("span", { class: "error" }, err.message));
    }
  }

  function logEvents(list) {
    const atBottom = events.scrollHeight - events.scrollTop - events.clientHeight < 30;
    for (const e of list) {
      if (e.n <= lastEvent) continue;
      lastEvent = e.n;
      events.append(h("li", { class: e.who === "human" ? "human" : "", value: e.n },
        (e.who === "human" ? `you: ${e.move}` : `(${e.who}) ${e.move}`), e.outcome ? h("div", { class: "outcome" }, `→ ${e.outcome}`) : ""));
    }
    if (atBottom) events.scrollTop = events.scrollHeight;
  }

  function draw(snap) {
    shownGameOver = Boolean(snap.over);
    if (snap.human !== null) viewAs.parentElement.style.display = "none";
    else if (!viewAs.options.length) {
      viewAs.append(h("option", { value: "" }, "the public table"),
        ...snap.seats.map((_, i) => h("option", { value: i }, seatName(i))));
    }
    main.dataset.moves = String(snap.events.length ? snap.events[snap.events.length - 1].n : 0);
    const v = snap.view;
    const renderer = VIEWS[v.kind];
    if (!helpSlot.childElementCount) helpSlot.append(helpPanel(v.kind, v));
    you.textContent = renderer && renderer.identity ? renderer.identity(v) : "";
    const moves = snap.moves;
    board.replaceChildren();
    document.querySelectorAll(".choice-menu").forEach((m) => m.remove());
    if (renderer) renderer.render(board, v, moves, play);
    else board.append(h("pre", {}, JSON.stringify(v, null, 1)));
    // Buttons (done, pass, reject...) always show; moves drawn on the board also fold into a list.
    const button = (m) => h("button", { "data-action": m.action, onclick: () => play(m.action) }, m.label);
    const plain = moves.filter((m) => m.target === "button");
    const onBoard = moves.filter((m) => m.target !== "button");
    movesBox.replaceChildren(
      ...(moves.length ? [h("h3", {}, "Your moves")] : []),
      ...plain.map(button),
      ...(onBoard.length ? [h("details", { open: renderer ? null : "" }, h("summary", {}, `all legal moves as a list (${moves.length})`), onBoard.map(button))] : []),
    );
    logEvents(snap.events);
    if (snap.over) {
      const r = snap.returns;
      const best = Math.max(...r);
      const winners = r.map((x, i) => (x === best ? i : -1)).filter((i) => i >= 0);
      const text = snap.human === null
        ? `Game over: ${winners.map(seatName).join(", ")} won.`
        : winners.includes(snap.human) ? (winners.length > 1 ? "Game over: you share the win!" : "Game over: you win!") : `Game over: you lose. ${winners.map(seatName).join(", ")} won.`;
      const again = h("button", { class: "primary" }, "play again");
      const note = h("p", { class: "note" });
      again.addEventListener("click", () => playAgain(again, note));
      result.replaceChildren(h("div", { class: "result", "data-result": winners.includes(snap.human) ? "win" : "loss" }, text,
        snap.replay ? h("div", {}, h("a", { href: `#/replay/${encodeURIComponent(snap.replay)}` }, "watch the replay")) : "",
        h("div", {}, again, note)));
      status.textContent = "";
      return;
    }
    if (snap.waiting_for === "human") {
      status.className = "status turn";
      status.textContent = `Your turn (${seatName(snap.human)}): ${v.phase || "choose a move"}`;
    } else {
      status.className = "status";
      status.textContent = `${seatName(v.to_move)} (bot) is thinking…`;
      timer = setTimeout(async () => {
        try { draw(await api("POST", `/api/sessions/${id}/advance${query()}`)); } catch (err) { status.textContent = err.message; }
      }, speed);
    }
  }
  draw(await api("GET", `/api/sessions/${id}`));
}

// The same game, seats and bots again, with a new deal.
async function playAgain(button, note) {
  const last = JSON.parse(sessionStorage.getItem("ultimataLastGame") || "null");
  if (!last) { location.hash = "#/"; return; }
  await createGame(last, button, note);
}

// -- replays --------------------------------------------------------------------------------------
async function showReplays() {
  const items = await api("GET", "/api/replays");
  const row = (r) => h("tr", {},
    h("td", {}, h("a", { href: `#/replay/${encodeURIComponent(r.name)}` }, r.game || r.name)),
    h("td", {}, r.players.map((p, i) => `${seatName(i)}: ${p}`).join(", ")), h("td", {}, r.result), h("td", {}, r.date || ""));
  main.replaceChildren(
    h("h1", {}, "Replays"),
    items.length ? h("table", { class: "replays" }, h("tr", {}, ...["game", "players", "result", "saved"].map((t) => h("th", {}, t))), items.map(row))
      : h("p", {}, "No saved games yet: finished games are saved here (serve with --replays DIR)."),
  );
}

// A long game is read a page of frames at a time (GET ...?start=S&count=C answers {total, start, frames,
// moves}); a server without pages answers with the whole game, which is then kept as one page.
const REPLAY_PAGE = 200;

async function showReplay(name, perspective = null) {
  const url = (start) => {
    const q = new URLSearchParams({ start, count: REPLAY_PAGE });
    if (perspective !== null) q.set("perspective", perspective);
    return `/api/replays/${encodeURIComponent(name)}?${q}`;
  };
  const first = await api("GET", url(0));
  const paged = first.total !== undefined;
  const total = paged ? first.total : first.frames.length;
  const frames = new Array(total);
  const labels = new Array(total);
  const keep = (page) => page.frames.forEach((f, k) => {
    frames[(page.start || 0) + k] = f;
    labels[(page.start || 0) + k] = (page.moves || [])[k];
  });
  keep(first);
  async function frame(k) {
    if (frames[k] === undefined) keep(await api("GET", url(Math.floor(k / REPLAY_PAGE) * REPLAY_PAGE)));
    if (frames[k] === undefined) keep(await api("GET", url(k)));  // a server may send shorter pages
    return frames[k];
  }
  const viewAs = h("select", {}, h("option", { value: "" }, "the public table"),
    ...first.players.map((_, i) => h("option", { value: i }, seatName(i))));
  viewAs.value = perspective === null ? "" : String(perspective);
  viewAs.addEventListener("change", () => showReplay(name, viewAs.value === "" ? null : Number(viewAs.value)));
  const board = h("div", { class: "board" });
  const label = h("div", { class: "status" });
  const slider = h("input", { type: "range", min: 0, max: total - 1, value: 0 });
  let i = 0;
  const show = async (k) => {
    i = Math.max(0, Math.min(total - 1, k));
    slider.value = i;
    const wanted = i;
    const v = await frame(i);
    if (wanted !== i) return;  // the slider moved on while the page loaded
    board.replaceChildren();
    (VIEWS[v.kind] || { render: (el) => el.append(h("pre", {}, JSON.stringify(v, null, 1))) }).render(board, v, [], () => {});
    const next = labels[i];
    label.textContent = `move ${i} / ${total - 1}` + (next ? ` — next: ${next}` : " — end");
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  main.replaceChildren(
    h("h1", {}, `Replay: ${name}`), h("p", {}, `players: ${first.players.join(", ")}`),
    h("label", { class: "view-as" }, "view as ", viewAs),
    h("div", { class: "replay-bar" },
      h("button", { onclick: () => show(0) }, "« first"), h("button", { onclick: () => show(i - 1) }, "◀ step"),
      slider, h("button", { onclick: () => show(i + 1) }, "step ▶"), h("button", { onclick: () => show(total - 1) }, "last »")),
    label, board,
  );
  await show(0);
}

window.addEventListener("hashchange", route);
route();
