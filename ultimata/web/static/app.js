// ultimata in the browser: game list, new game, the table (play or watch); record.js draws the replays and
// your games. A game lives in the URL (#/game/<id>), so a reload, Back or another page never ends it: only
// "leave" or "resign" do, each asked first (idle games expire on the server, and are kept in your games).
// Each game draws itself through window.ULTIMATA_VIEWS[view.kind].render(el, view, moves, play): the
// server sets view.kind to the game's name without its version, and the game's drawing (envs/<that name>/
// view.js, served at /views/<that name>.js) registers itself under it (the server writes a <script> for it into the page); the list of legal moves under the
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
  if (!res.ok) {
    throw Object.assign(new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || data)),
      { status: res.status });
  }
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
    rememberGame(snap);
    location.hash = `#/game/${snap.id}`;
    return snap;
  } catch (err) {
    note.classList.add("error");
    note.textContent = err.message;
    if (err.status === 429) await showLimitReached(button, err.message);
    return null;
  } finally {
    clearInterval(ticking);
    note.classList.remove("busy");
    if (!note.classList.contains("error")) note.textContent = "";
    button.disabled = false;
  }
}

// -- games in play ---------------------------------------------------------------------------------
// The games this browser started and has not seen end, so the games page can offer to go back to them.
const IN_PLAY = "ultimataInPlay";
function inPlay() {
  try { return JSON.parse(localStorage.getItem(IN_PLAY) || "[]"); } catch { return []; }
}
function keepInPlay(list) { localStorage.setItem(IN_PLAY, JSON.stringify(list.slice(-20))); }
function rememberGame(snap) {
  keepInPlay([...inPlay().filter((g) => g.id !== snap.id), { id: snap.id, game: snap.game, started: Date.now() }]);
}
function forgetGame(id) { keepInPlay(inPlay().filter((g) => g.id !== id)); }

// Leave or resign, asked first. Leaving keeps the game in your games, unfinished; resigning is a loss.
async function leaveGame(id, watching) {
  const question = watching ? "Stop watching this game? The bots stop here; the game so far is kept."
    : "Leave this game? It stops here and is kept, unfinished and unrated, in Your games.";
  if (!confirm(question)) return false;
  await fetch(`/api/sessions/${id}`, { method: "DELETE" }).catch(() => {});
  forgetGame(id);
  return true;
}
const RESIGN_QUESTION = "Resign this game? It ends now as your loss, and counts in your rating.";

// -- routes ---------------------------------------------------------------------------------------
// A page paints only while it is still the one asked for: a slow page (the games list asks the server about
// each game in play) must not paint over the page the person moved on to, nor a game's bots play on there.
let routeToken = 0;
function painter() {
  const token = routeToken;
  const paint = (...children) => {
    if (token !== routeToken) return false;
    main.replaceChildren(...children);
    return true;
  };
  paint.live = () => token === routeToken;
  return paint;
}

async function route() {
  const [, page, arg] = location.hash.split("/");
  routeToken += 1;
  const paint = painter();
  stopTimers();
  try {
    if (page === "game") return await showGame(arg);
    if (page === "record") return await showRecord();
    if (page === "replays") return await showReplays();
    if (page === "replay") return await showReplay(decodeURIComponent(arg));
    return await showGames();
  } catch (err) {
    paint(h("p", { class: "error" }, err.message));
  }
}
let timer = null;
function stopTimers() {
  if (timer) clearTimeout(timer);
  timer = null;
}

// -- the games and a new game ---------------------------------------------------------------------
async function showGames() {
  const paint = painter();
  const games = await api("GET", "/api/games");
  const cards = [];
  for (const g of games) cards.push(await newGameForm(g));
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  paint(await gamesInPlay(titles), h("h1", {}, "Play against the bots"), h("div", { class: "games" }, cards));
}

// Your games still in play on the server, to go back to or leave: the server lists every live game of
// this address (the per-person limit counts those), so another browser there sees them too; this
// browser's own list forgets the games that ended.
let gameTitles = {};
async function liveGameRows() {
  const live = await api("GET", "/api/sessions").catch(() => []);
  const ids = new Set(live.map((g) => g.id));
  for (const g of inPlay()) if (!ids.has(g.id)) forgetGame(g.id);
  return live.map((g) => {
    const watching = g.human === null;
    // type=button: in the Start form's limit box a plain button would submit the form (a new game)
    const leave = h("button", { type: "button" }, watching ? "stop watching" : "leave");
    leave.addEventListener("click", async () => { if (await leaveGame(g.id, watching)) route(); });
    return h("li", { "data-game": g.id }, h("b", {}, gameTitles[g.game] || g.game), ` (${g.events_total} moves so far) `,
      h("a", { href: `#/game/${g.id}`, class: "button" }, "go back to it"), " ", leave);
  });
}

async function gamesInPlay(titles) {
  gameTitles = titles;
  const rows = await liveGameRows();
  return rows.length ? h("div", { class: "panel in-play" }, h("h2", {}, "Your games in play"), h("ul", {}, rows)) : h("div", {});
}

// The per-person limit, said next to Start, with the games that hold it to go back to or leave.
async function showLimitReached(button, message) {
  document.querySelectorAll(".limit-reached").forEach((box) => box.remove());
  const rows = await liveGameRows();
  button.after(h("div", { class: "panel limit-reached" }, h("p", { class: "error" }, message),
    rows.length ? h("ul", {}, rows) : h("p", {}, "Those games have ended or expired: try Start again.")));
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
  // Each level says what to expect in a player's words; the measured figures are in its tooltip and behind
  // a "how we measured" button (not a <details>: the rule variant is the form's one fold).
  const figures = (list) => {
    const shown = h("ul", { class: "measured", hidden: "" }, list.map((d) => h("li", {}, h("b", {}, `${d.level} (${d.agent})`), `: ${d.measured}`)));
    const toggle = h("button", { type: "button", class: "figures" }, "how we measured");
    toggle.addEventListener("click", () => { shown.hidden = !shown.hidden; });
    return h("div", {}, toggle, shown);
  };
  const levels = game.difficulty || [];
  const difficulty = h("select", { name: "difficulty" }, h("option", { value: "" }, "choose each bot below"),
    levels.map((d) => h("option", { value: d.agent, title: d.strength }, d.level)));
  const measured = levels.filter((d) => d.measured);
  const difficultyRow = h("div", { class: "difficulty" },
    h("label", { title: "sets every bot seat to this level's bot" }, h("span", {}, "difficulty"), difficulty),
    h("ul", { class: "levels" }, levels.map((d) => h("li", { title: d.measured || "" }, h("b", {}, d.level), `: ${d.strength}`))),
    measured.length ? figures(measured) : "");
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
      h("label", { title: "the same seed, moves and bots replay the same game; a seed you choose makes the game practice (unrated)" }, h("span", {}, "seed"),
        h("input", { type: "number", name: "seed", placeholder: "random" }))),
    difficultyRow, seatsBox, note,
    h("button", { class: "primary", type: "submit" }, "Start"),
  );
  drawSeats();
  return form;
}

// -- the table ------------------------------------------------------------------------------------
// Each game's module may carry `help` ({rules: [...] or sections: [{title, text}], legend(view) -> items},
// `identity(view)` and `pace` (its own default bot speed, ms per move, for games whose turns are many moves).
function helpPanel(kind, view) {
  const module = VIEWS[kind] || {};
  const help = module.help;
  if (!help) return h("div", {});
  const seen = localStorage.getItem(`ultimataHelpSeen:${kind}`);
  localStorage.setItem(`ultimataHelpSeen:${kind}`, "1");
  const legend = window.ULTIMATA_SVG.legend(typeof help.legend === "function" ? help.legend(view) : help.legend);
  return h("div", { class: "help-box" },
    h("details", { class: "help", open: seen ? null : "" }, h("summary", {}, "How to play"),
      help.sections ? helpSections(help.sections) : h("ul", {}, help.rules.map((r) => h("li", {}, r)))),
    h("details", { class: "legend-box", open: "" }, h("summary", {}, "Legend"), legend));
}

// Short rule sections, one open at a time (opening one closes the others), the first open.
function helpSections(sections) {
  const items = sections.map((s, i) => h("details", { class: "help-section", open: i ? null : "" },
    h("summary", {}, s.title), h("p", {}, s.text)));
  for (const item of items) {
    item.addEventListener("toggle", () => {
      if (item.open) for (const other of items) if (other !== item) other.open = false;
    });
  }
  return h("div", { class: "help-sections" }, ...items);
}

async function showGame(id) {
  const paint = painter();
  const res = await fetch(`/api/sessions/${id}`);
  if (res.status === 404) {
    forgetGame(id);
    paint(h("h1", {}, "This game is no longer in play"),
      h("p", {}, "It ended, or it was left idle for 10 minutes (or the server restarted). Every game is kept: ",
        h("a", { href: "#/record" }, "see your games"), ", or ", h("a", { href: "#/" }, "start a new one"), "."));
    return;
  }
  const first = await res.json();
  if (!res.ok) throw new Error(typeof first.detail === "string" ? first.detail : JSON.stringify(first));
  // A game with its own pace (many moves a turn) keeps its own speed setting; the others share one.
  const pace = (VIEWS[first.view && first.view.kind] || {}).pace;
  const speedKey = pace ? `ultimataSpeed:${first.view.kind}` : "ultimataSpeed";
  let speed = Number(localStorage.getItem(speedKey) || pace || 700);
  const board = h("div", { class: "board" });
  const status = h("div", { class: "status" });
  const you = h("div", { class: "you" });
  const movesBox = h("div", { class: "moves" });
  const events = h("ol", { class: "events" });
  // "Why?": each bot move's reason (its share under the bot's policy or search) shows under it in the log.
  const whyToggle = h("input", { type: "checkbox", name: "why" });
  whyToggle.checked = localStorage.getItem("ultimataWhy") === "1";
  const showWhy = () => events.classList.toggle("show-why", whyToggle.checked);
  whyToggle.addEventListener("change", () => { localStorage.setItem("ultimataWhy", whyToggle.checked ? "1" : "0"); showWhy(); });
  showWhy();
  // A hint for your own turn, from the bot you choose, computed from your seat's view only.
  const hintBot = h("select", { name: "hint-bot" }, h("option", { value: "heuristic" }, "heuristic"));
  api("GET", `/api/games/${first.game}/opponents`).then((offered) => {
    hintBot.replaceChildren(...offered.map((o) => h("option", { value: o.spec }, o.label)));
  }).catch(() => {});
  const hintSaid = h("div", { class: "hint-said" });
  const hintButton = h("button", { type: "button", class: "hint" }, "hint");
  hintButton.addEventListener("click", async () => {
    hintButton.disabled = true;
    hintSaid.textContent = "thinking…";
    try {
      const said = await api("POST", `/api/sessions/${id}/hint`, { bot: hintBot.value });
      hintSaid.textContent = `${said.bot} would ${said.hint}`;
    } catch (err) {
      hintSaid.textContent = err.message;
    } finally {
      hintButton.disabled = false;
    }
  });
  const hintBox = h("div", { class: "hint-box" }, hintButton, " from ", hintBot, hintSaid);
  const helpSlot = h("div", {});
  const result = h("div", {});
  const watching = first.human === null;
  // Ending a game is always a choice, asked first: a reload, Back or another page keep it going.
  const leave = h("button", { class: "leave" }, watching ? "stop watching" : "leave the game");
  const resign = h("button", { class: "resign" }, "resign");
  const actions = h("div", { class: "game-actions" }, watching ? "" : resign, leave);
  leave.addEventListener("click", async () => { if (await leaveGame(id, watching)) location.hash = "#/"; });
  resign.addEventListener("click", async () => {
    if (!confirm(RESIGN_QUESTION)) return;
    clearTimeout(timer);
    try { draw(await api("POST", `/api/sessions/${id}/resign`)); } catch (err) { status.textContent = err.message; }
  });
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
    localStorage.setItem(speedKey, String(speed));
  });
  if (!paint(
    h("div", { class: "layout" },
      h("div", {}, status, you, result, board, movesBox),
      h("div", { class: "panel side" }, actions, h("label", {}, "bot speed (ms per move) ", speedInput),
        h("label", { class: "why-toggle" }, whyToggle, " why? (each bot move's reason in the log)"),
        h("label", { class: "view-as" }, "view as ", viewAs), helpSlot, h("h3", {}, "What happened"), events)),
  )) return;

  async function play(action) {
    hintSaid.textContent = "";  // a hint answers one position only
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
        (e.who === "human" ? `you: ${e.move}` : `(${e.who}) ${e.move}`), e.outcome ? h("div", { class: "outcome" }, `→ ${e.outcome}`) : "",
        e.why ? h("div", { class: "bot-why" }, `why: ${e.why}`) : ""));
    }
    if (atBottom) events.scrollTop = events.scrollHeight;
  }

  function draw(snap) {
    if (!paint.live()) return;  // an answer that came after the person moved on
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
      ...(moves.length ? [hintBox] : []),
    );
    if (!moves.length) hintSaid.textContent = "";
    logEvents(snap.events);
    if (snap.over) {
      forgetGame(id);
      actions.style.display = "none";
      const said = snap.result || { winners: [], text: "" };
      const again = h("button", { class: "primary" }, "play again");
      const note = h("p", { class: "note" });
      again.addEventListener("click", () => playAgain(again, note));
      const won = snap.human !== null && said.winners.includes(snap.human) && snap.ended !== "resigned";
      result.replaceChildren(h("div", { class: "result", "data-result": won ? "win" : "loss" }, `Game over: ${said.text}`,
        said.why ? h("div", { class: "why" }, said.why) : "",
        said.scores ? h("div", { class: "scores" }, `final returns: ${said.scores}`) : "",
        snap.replay ? h("div", {}, h("a", { href: `#/replay/${encodeURIComponent(snap.replay)}` }, "watch the replay"),
          " · ", h("a", { href: "#/record" }, "your games")) : "",
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
  draw(first);
}

// The same game, seats and bots again, with a new deal.
async function playAgain(button, note) {
  const last = JSON.parse(sessionStorage.getItem("ultimataLastGame") || "null");
  if (!last) { location.hash = "#/"; return; }
  await createGame(last, button, note);
}

window.addEventListener("hashchange", route);
route();
