// Saved games: the replays (games with a result, and the replay folder's files), your games (every game
// you sat in, however it ended, with your rating against each bot), and one replay stepped through. Loaded
// before app.js, which defines api(), h() and route(); these run only once the page has routed.
"use strict";

const LISTED = 50;

// A page of a listing: GET path?offset&limit, answered with the games and (for replays) X-Total-Count.
async function listPage(path, params) {
  const res = await fetch(`${path}?${new URLSearchParams(params)}`);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data));
  return { data, total: Number(res.headers.get("X-Total-Count") || 0) };
}

function pager(offset, total, go) {
  const shown = `${total ? offset + 1 : 0}–${Math.min(offset + LISTED, total)} of ${total}`;
  return h("div", { class: "pager" },
    h("button", { disabled: offset === 0 ? "" : null, onclick: () => go(Math.max(0, offset - LISTED)) }, "◀ newer"),
    h("span", {}, shown),
    h("button", { disabled: offset + LISTED >= total ? "" : null, onclick: () => go(offset + LISTED) }, "older ▶"));
}

function replayLink(name, text) {
  return h("a", { href: `#/replay/${encodeURIComponent(name)}` }, text);
}

async function showReplays(offset = 0) {
  const paint = painter();
  const { data: items, total } = await listPage("/api/replays", { offset, limit: LISTED });
  const row = (r) => h("tr", { class: r.result === "unreadable" ? "unreadable" : "" },
    h("td", {}, r.result === "unreadable" ? r.name : replayLink(r.name, r.game || r.name)),
    h("td", {}, r.players.map((p, i) => `${seatName(i)}: ${p}`).join(", ")),
    h("td", {}, r.result, r.error ? h("div", { class: "error" }, r.error) : ""), h("td", {}, r.date || ""));
  paint(
    h("h1", {}, "Replays"),
    items.length ? h("div", { class: "table-box" }, h("table", { class: "replays" },
      h("tr", {}, ...["game", "players", "result", "played"].map((t) => h("th", {}, t))), items.map(row)))
      : h("p", {}, "No saved games yet: games with a result are kept here, and the replay folder's files are imported."),
    total > LISTED ? pager(offset, total, showReplays) : "",
  );
}

// Your games: filters by game and opponent, a page of games, and your rating against each opponent.
const OUTCOME = { win: "you won", loss: "you lost", draw: "shared win" };

async function showRecord(filters = {}, offset = 0) {
  const paint = painter();
  const query = { offset, limit: LISTED };
  if (filters.game) query.game = filters.game;
  if (filters.opponent) query.opponent = filters.opponent;
  const { data } = await listPage("/api/record", query);
  // An opponent by its spec, and its level where a level plays it: "pretrained (medium)".
  const against = (family, spec) => {
    const level = ((data.levels || {})[family] || {})[spec];
    return spec && level && level !== spec ? `${spec} (${level})` : spec || "";
  };
  const choose = (name, label, values) => {
    const sel = h("select", { name }, h("option", { value: "" }, `every ${label}`), values.map((v) => h("option", { value: v }, v)));
    sel.value = filters[name] || "";
    sel.addEventListener("change", () => showRecord({ ...filters, [name]: sel.value }, 0));
    return h("label", {}, h("span", {}, label), sel);
  };
  const row = (g) => h("tr", { "data-outcome": g.outcome || "none" },
    h("td", {}, g.date), h("td", {}, g.family), h("td", {}, against(g.family, g.opponent)),
    h("td", {}, g.outcome ? OUTCOME[g.outcome] : g.ending === "resigned" ? "you resigned" : "unfinished",
      g.rated === false ? h("span", { class: "practice", title: "dealt from a seed you chose: it moves no rating" }, " (practice, unrated)") : ""),
    h("td", {}, g.result), h("td", {}, String(g.moves)), h("td", {}, replayLink(g.name, "replay")));
  const interval = (mu, sigma) => `${mu.toFixed(1)} (likely ${(mu - 2 * sigma).toFixed(1)} to ${(mu + 2 * sigma).toFixed(1)})`;
  const rating = (r) => h("tr", {}, h("td", {}, r.game), h("td", {}, against(r.game, r.opponent)),
    h("td", { class: "rating" }, interval(r.you_mu, r.you_sigma)), h("td", { class: "rating" }, interval(r.bot_mu, r.bot_sigma)),
    h("td", {}, `${r.games}: ${r.wins} won, ${r.draws} shared, ${r.losses} lost`));
  paint(
    h("h1", {}, "Your games"),
    h("div", { class: "panel filters" }, choose("game", "game", data.choices.games), choose("opponent", "opponent", data.choices.opponents)),
    data.games.length ? h("div", { class: "table-box" }, h("table", { class: "record" },
      h("tr", {}, ...["played", "game", "against", "you", "result", "moves", ""].map((t) => h("th", {}, t))), data.games.map(row)))
      : h("p", {}, "No games here yet: every game you play, in the browser or with ultimata play, is kept here."),
    data.total > LISTED ? pager(offset, data.total, (o) => showRecord(filters, o)) : "",
    h("h2", {}, "Your rating against each bot"),
    data.ratings.length ? h("div", { class: "table-box" }, h("table", { class: "ratings" },
      h("tr", {}, ...["game", "against", "you", "the bot", "games"].map((t) => h("th", {}, t))), data.ratings.map(rating)))
      : h("p", {}, "Finish or resign a game against one kind of bot to get a rating."),
    h("p", { class: "note" }, "Practice games (a seed you chose, so a deal you could know) are kept but move no rating."),
    h("p", { class: "note" }, "Ratings are openskill's: everyone starts at 25, a win against a stronger bot moves you more, and the range ",
      "(two standard deviations either side) narrows as you play. Games you leave unfinished are kept but not rated."),
  );
}

// A long game is read a page of frames at a time (GET ...?start=S&count=C answers {total, start, frames,
// moves}); a server without pages answers with the whole game, which is then kept as one page.
const REPLAY_PAGE = 200;

async function showReplay(name, perspective = null) {
  const paint = painter();
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
  const said = first.verdict;
  paint(
    h("h1", {}, `Replay: ${name}`),
    h("p", {}, `players: ${first.players.map((p, k) => `${seatName(k)} ${p}`).join(", ")}`),
    said ? h("div", { class: "result replay-result" }, `Result: ${said.text}`, said.why ? h("div", { class: "why" }, said.why) : "",
      said.scores ? h("div", { class: "scores" }, `final returns: ${said.scores}`) : "") : "",
    h("p", {}, h("a", { href: `/api/replays/${encodeURIComponent(name)}/export`, download: name }, "download the replay file"),
      " (to share: ", h("code", {}, "ultimata replay FILE"), " or another server's replay folder reads it)"),
    h("label", { class: "view-as" }, "view as ", viewAs),
    h("div", { class: "replay-bar" },
      h("button", { onclick: () => show(0) }, "« first"), h("button", { onclick: () => show(i - 1) }, "◀ step"),
      slider, h("button", { onclick: () => show(i + 1) }, "step ▶"), h("button", { onclick: () => show(total - 1) }, "last »")),
    label, board,
  );
  await show(0);
}

