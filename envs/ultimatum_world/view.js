// Ultimatum (1985) as SVG: the world map with each nation a disc ringed in its alliance's colour
// (Western green, Communist red, Peace yellow, Oil black) and filled in its holder's, with its troops;
// blockades as numbered dark-blue squares, anchors as white boxes with their numbers, vessels as
// "battleships/submarines" under them, the six laser stations, and a panel with money, lasers, cards,
// your hand, what your intelligence showed and the attack under way. A place with legal moves is
// outlined; clicking it plays the move. Buttons below the map hold the other moves.
"use strict";

(window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {}).ultimatum_world = {
  identity(v) {
    const names = ["red", "blue", "green", "orange", "purple", "teal"];
    if (v.seat === null || v.seat === undefined) return "You are watching.";
    return `You are player_${v.seat} (${names[v.seat]} discs).`;
  },
  help: {
    rules: [
      "Win by holding the whole Oil Alliance (black rings) plus one of the Western, Communist or Peace alliances (two of them with two players). After the round cap the most whole alliances, then nations, then blockades, then money wins.",
      "A turn: spend the bank on troops ($1bn), battleships ($2bn), submarines ($5bn) or a laser ($10bn, only with all of the Western or Communist Alliance); place what you bought; then attack, move ships and play cards; 'done' ends it. Income: $1bn a nation, $2bn a blockade.",
      "Every action is a chain of clicks, shown as steps above the map: e.g. troop attack → your nation with 3+ troops → a bordering enemy nation (or one across a blockade with the same number) → roll, blitz or stop → how many troops move in.",
      "Troop battles: both roll the black die, the lower roll loses a troop (a tie: both lose one). Naval battles: announce which vessel attacks which and roll the green die (win, lose, draw).",
      "Cards: one for each nation and two for each blockade you conquer in a turn (three at most). 'Attacker' cards on your turn; 'defender' cards (minefield, ocean mine, anti-aircraft) when you are attacked.",
    ],
    legend(v) {
      const colours = ["#cd3434", "#285ccd", "#289646", "#dc9614", "#8c3caa", "#1ea0aa"];
      return [
        ...v.players.map((_, q) => ({ fill: colours[q], shape: "circle", text: `player_${q}${q === v.seat ? " (you)" : ""}: nation discs, fleet labels` })),
        { fill: "#f0f0f0", shape: "circle", text: "grey disc: nobody's nation; the number: its troops" },
        { fill: "none", stroke: "#28a03c", width: 4, shape: "circle", text: "green ring: Western Alliance" },
        { fill: "none", stroke: "#c82828", width: 4, shape: "circle", text: "red ring: Communist Alliance" },
        { fill: "none", stroke: "#e6c828", width: 4, shape: "circle", text: "yellow ring: Peace Alliance" },
        { fill: "none", stroke: "#141414", width: 4, shape: "circle", text: "black ring: Oil Alliance" },
        { fill: "none", stroke: "#888", width: 2, shape: "circle", dash: true, text: "outer white ring: a Worldpower" },
        { fill: "#14286e", mark: "3", ink: "white", text: "dark square: naval blockade (its number links it to nations and anchors)" },
        { fill: "#fafafa", mark: "3,4", text: "white box: anchor (the numbers of the blockades it links)" },
        { fill: "#cd3434", mark: "2/1", ink: "white", text: "under a sea place: owner's battleships/submarines" },
        { fill: "#5a5a6e", shape: "diamond", text: "diamond: laser space station" },
        { shape: "text", mark: "—", ink: "#786e5a", text: "brown line: land border; white line: sea lane" },
        { stroke: "#ffb000", width: 3, text: "orange outline: click it for the step asked now" },
      ];
    },
  },
  render(el, v, moves, play) {
    const NS = window.ULTIMATA_SVG.NS;
    const colours = ["#cd3434", "#285ccd", "#289646", "#dc9614", "#8c3caa", "#1ea0aa"];
    const ring = { Western: "#28a03c", Communist: "#c82828", Peace: "#e6c828", Oil: "#141414" };
    // The picture is 1000 x 620; every name and mark has its own spot (data/map.yaml's `label`), so none
    // overlaps another (tests/web/test_browser_ultimatum_world.py measures them).
    const [WIDTH, HEIGHT] = [1000, 620];
    const { svg, add } = window.ULTIMATA_SVG.canvas(WIDTH, HEIGHT);
    add("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "#c4daf0" });
    const byPlace = {};
    for (const m of moves.filter((m) => m.target === "place")) byPlace[m.place] = m;
    const pos = {};
    for (const n of v.nations) pos[n.place] = n.at;
    for (const s of v.seas) pos[s.place] = s.at;
    for (const n of v.nations) for (const b of n.borders) if (n.place < b) {
      add("line", { x1: n.at[0], y1: n.at[1], x2: pos[b][0], y2: pos[b][1], stroke: "#786e5a", "stroke-width": 2 });
    }
    for (const s of v.seas) for (const t of s.links) if (s.place < t) {
      add("line", { x1: s.at[0], y1: s.at[1], x2: pos[t][0], y2: pos[t][1], stroke: "#fafafa" });
    }
    // a name stays readable over the lines under it: a halo in the sea's colour
    const halo = { stroke: "#c4daf0", "stroke-width": 3, "paint-order": "stroke", "stroke-linejoin": "round" };
    v.stations.forEach(([x, y], i) => {
      add("polygon", { points: `${x},${y - 9} ${x + 9},${y} ${x},${y + 9} ${x - 9},${y}`, fill: "#5a5a6e", class: "station" });
      const anchor = x < 100 ? "start" : x > WIDTH - 100 ? "end" : "middle";
      const lx = anchor === "start" ? 4 : anchor === "end" ? WIDTH - 4 : x;
      add("text", { x: lx, y: y < HEIGHT / 2 ? y + 22 : y - 14, "font-size": 10, "text-anchor": anchor, class: "station-label", ...halo }, `laser station ${i + 1}`);
    });
    const clickable = (shape, place) => {
      const m = byPlace[place];
      if (!m) return;
      shape.setAttribute("stroke", "#ffb000");
      shape.setAttribute("stroke-width", 3);
      shape.setAttribute("class", `${shape.getAttribute("class") || ""} clickable`.trim());
      shape.setAttribute("data-action", m.action);
      shape.style.cursor = "pointer";
      shape.append(Object.assign(document.createElementNS(NS, "title"), { textContent: m.label }));
      shape.addEventListener("click", () => play(m.action));
    };
    const measure = document.createElement("canvas").getContext("2d");
    measure.font = "10px system-ui, sans-serif";
    for (const s of v.seas) {
      const [x, y] = s.at;
      const label = s.name.split(" ")[1];  // "blockade 3 (...)" -> "3", "anchor 3,4,6,7 (...)" -> "3,4,6,7"
      const width = s.blockade ? 30 : Math.ceil(measure.measureText(label).width) + 10;
      const shape = s.blockade
        ? add("rect", { x: x - 15, y: y - 11, width: 30, height: 22, fill: "#14286e", class: "sea-mark", "data-place": s.place })
        : add("rect", { x: x - width / 2, y: y - 8, width, height: 16, rx: 8, fill: "#fafafa", class: "sea-mark", "data-place": s.place });
      add("text", { x, y: s.blockade ? y + 5 : y + 3.5, "font-size": s.blockade ? 13 : 10, "font-weight": s.blockade ? "bold" : "normal", "text-anchor": "middle", fill: s.blockade ? "white" : "#1c1c1c" }, label);
      if (s.owner >= 0) {
        const top = s.blockade ? y + 11 : y + 8;
        add("rect", { x: x - 18, y: top, width: 36, height: 14, fill: colours[s.owner], class: "fleet", "data-place": s.place });
        add("text", { x, y: top + 11, "font-size": 11, "text-anchor": "middle", fill: "white" }, `${s.battleships}/${s.submarines}`);
      }
      shape.append(Object.assign(document.createElementNS(NS, "title"), { textContent: s.name }));
      clickable(shape, s.place);
    }
    for (const n of v.nations) {
      const [x, y] = n.at;
      add("circle", { cx: x, cy: y, r: 13, fill: ring[n.alliance], class: "nation-mark", "data-place": n.place });
      const disc = add("circle", { cx: x, cy: y, r: 10, fill: n.owner >= 0 ? colours[n.owner] : "#f0f0f0" });
      if (n.worldpower) add("circle", { cx: x, cy: y, r: 15, fill: "none", stroke: "white", "stroke-width": 2, class: "ring", "data-place": n.place });
      add("text", { x, y: y + 4, "font-size": 11, "font-weight": "bold", "text-anchor": "middle", fill: n.owner >= 0 ? "white" : "#1c1c1c" }, n.troops);
      const [dx, dy] = n.label || [0, 24];
      add("text", { x: x + dx, y: y + dy, "font-size": 13, "text-anchor": "middle", "dominant-baseline": "central", class: "nation-label", "data-place": n.place, ...halo }, n.name);
      disc.append(Object.assign(document.createElementNS(NS, "title"), { textContent: `${n.name} (${n.alliance}${n.worldpower ? ", Worldpower" : ""}; seas ${n.seas.join(", ") || "none"})` }));
      clickable(disc, n.place);
    }
    // labels and rings sit on top of the discs: clicks must go through them to the place below
    for (const e of svg.querySelectorAll("text, .ring")) e.setAttribute("pointer-events", "none");
    const info = document.createElement("div");
    info.className = "pitch-info";
    const lines = [`round ${v.round}/${v.max_rounds} · ${v.phase}${v.money_now ? ` · $${v.money_now}bn to spend` : ""}`];
    v.players.forEach((p, i) => lines.push(`player_${i}${i === v.seat ? " (you)" : ""}: $${p.bank}bn, ${p.lasers} laser(s), ${p.cards} card(s)${p.alliances.length ? ", holds " + p.alliances.join(", ") : ""}${p.out ? " (out)" : ""}`));
    const hand = Object.entries(v.hand).map(([k, c]) => `${c}x ${k.replaceAll("_", " ")}`);
    if (hand.length) lines.push(`your cards: ${hand.join(", ")}`);
    for (const [who, cards] of Object.entries(v.intel)) {
      const seen = Object.entries(cards).map(([k, c]) => `${c}x ${k.replaceAll("_", " ")}`);
      if (seen.length) lines.push(`intelligence on ${who}: ${seen.join(", ")}`);
    }
    for (const [i, p] of v.players.entries()) {
      const known = Object.entries(p.known_cards).map(([k, c]) => `${c}x ${k.replaceAll("_", " ")}`);
      if (known.length && i !== v.seat) lines.push(`player_${i} drew back (everyone saw): ${known.join(", ")}`);
    }
    if (v.attack) {
      const fleet = v.attack.battleships + v.attack.submarines ? ` with ${v.attack.battleships} battleship(s), ${v.attack.submarines} submarine(s)` : "";
      lines.push(`${v.attack.kind}: player_${v.attack.attacker} against player_${v.attack.defender}${fleet}`);
    }
    const [troops, ships, subs] = v.placing;
    if (troops + ships + subs) lines.push(`to place: ${troops} troop(s), ${ships} battleship(s), ${subs} submarine(s)`);
    for (const e of v.events) lines.push(`· ${e}`);
    for (const t of lines) info.append(Object.assign(document.createElement("div"), { textContent: t }));
    el.append(info);
    // The chain of clicks under way: its steps, the ones done (with what was chosen) and the one asked now.
    if (v.chain) {
      const steps = document.createElement("div");
      steps.className = "steps";
      v.chain.steps.forEach((name, k) => {
        const done = k < v.chain.at;
        const chosen = k > 0 && done ? `: ${v.chain.chosen[k - 1] || ""}` : "";
        steps.append(Object.assign(document.createElement("span"), { className: k === v.chain.at ? "now" : done ? "done" : "", textContent: `${k + 1}. ${name.split(":")[0]}${chosen}` }));
      });
      el.append(steps);
    }
    if (v.prompt && moves.length) el.append(Object.assign(document.createElement("div"), { className: "prompt", textContent: v.prompt }));
    el.append(svg);
  },
};
