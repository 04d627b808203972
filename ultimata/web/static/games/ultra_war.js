// The Ultra War map as SVG: terrain (walls, doors, obstructions, stairs, upper level shaded, objectives,
// escape), power tokens, pawns with a facing tick and a life bar. Legal field moves are outlined; a click
// sends the move, or lists the choices when several moves share the field (attack slots, step vs target).
// The human's own army always plays up the screen (player_1 sees the map turned round).
"use strict";

(window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {}).skirmish = {
  render(el, v, moves, play) {
    const NS = window.ULTIMATA_SVG.NS;
    const cell = 40;
    const margin = 24;
    const n = v.size;
    const flip = v.seat === 1;
    const x = (col) => margin + (flip ? n - 1 - col : col) * cell;
    const y = (row) => margin + (flip ? n - 1 - row : row) * cell;
    const size = margin * 2 + n * cell;
    const { svg, add } = window.ULTIMATA_SVG.canvas(size, size);
    const fills = { wall: "#3c3c3c", door: "#8c5a28", obstruction: "#5aa05a", stairs: "#b4966e", floor: "#cdc8b9" };
    v.cells.forEach((c, f) => {
      const row = Math.floor(f / n), col = f % n;
      let fill = fills[c.kind];
      if (c.kind === "floor" && c.level) fill = "#96968c";
      if (c.objective) fill = "#ebd250";
      if (c.escape) fill = "#78c8e6";
      add("rect", { x: x(col), y: y(row), width: cell, height: cell, fill, stroke: "#787870" });
    });
    const letters = "abcdefghijkl";
    for (let c = 0; c < n; c++) add("text", { x: x(c) + cell / 2, y: margin - 8, "text-anchor": "middle", "font-size": 12 }, letters[c]);
    for (let r = 0; r < n; r++) add("text", { x: margin - 6, y: y(r) + cell / 2 + 4, "text-anchor": "end", "font-size": 11 }, n - r);
    const colours = ["#2457c5", "#c8322c"];
    for (const t of v.tokens) {
      const cx = x(t.col) + cell / 2, cy = y(t.row) + cell / 2;
      add("polygon", { points: `${cx},${cy - 12} ${cx - 11},${cy + 9} ${cx + 11},${cy + 9}`, fill: colours[t.side] }).append(
        Object.assign(document.createElementNS(NS, "title"), { textContent: t.kind }));
    }
    const dirs = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };
    for (const p of v.pawns) {
      const cx = x(p.col) + cell / 2, cy = y(p.row) + cell / 2;
      const c = add("circle", { cx, cy, r: 15, fill: colours[p.side], stroke: p.general ? "#ffd700" : p.flying ? "white" : "#222", "stroke-width": p.general || p.flying ? 3 : 1, opacity: p.turned ? 0.6 : 1 });
      const title = document.createElementNS(NS, "title");
      title.textContent = `${p.name} ${p.life}/${p.max_life}${p.turned ? " (turned)" : ""}${p.flying ? " (flying)" : ""}${p.crystals ? ` (${p.crystals} crystal)` : ""}${p.gear.length ? " - " + p.gear.join(", ") : ""}`;
      c.append(title);
      const [dx, dy] = dirs[p.facing].map((d) => (flip ? -d : d));
      add("line", { x1: cx, y1: cy, x2: cx + dx * 15, y2: cy + dy * 15, stroke: "white", "stroke-width": 3 });
      add("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, fill: "white", "font-weight": 700 }, p.name.slice(0, 2));
      add("rect", { x: cx - 15, y: cy + 16, width: (30 * p.life) / p.max_life, height: 3, fill: "#28aa3c" });
    }
    const info = document.createElement("div");
    info.className = "pitch-info";
    const choices = document.createElement("div");
    const byField = {};
    for (const m of moves.filter((m) => m.target === "field")) (byField[m.field] = byField[m.field] || []).push(m);
    for (const list of Object.values(byField)) {
      const m = list[0];
      const colours = { attack: "#ff5040", target: "#40c0ff", use: "#b070ff", transfer: "#40e0a0" };
      const colour = colours[m.kind] || "#ffe45c";
      const r = add("rect", { x: x(m.col) + 2, y: y(m.row) + 2, width: cell - 4, height: cell - 4, rx: 5, fill: "#ffffff30", stroke: colour, "stroke-width": 2, class: "clickable", "data-action": m.action, "data-field": m.field });
      r.style.cursor = "pointer";
      const title = document.createElementNS(NS, "title");
      title.textContent = list.map((k) => k.label).join(" / ");
      r.append(title);
      r.addEventListener("click", () => {
        if (list.length === 1) return play(m.action);
        choices.replaceChildren(...list.map((k) => Object.assign(document.createElement("button"), { textContent: k.label, onclick: () => play(k.action) })));
      });
    }
    const lines = [`round ${v.round} · ${v.phase} · power ${v.power[0]} / ${v.power[1]} · ${v.factions.join(" vs ")}`];
    if (v.hand.length) lines.push(`your hand: ${v.hand.map((c, i) => `${i}: ${c}`).join(", ")}`);
    for (const e of v.events) lines.push(`· ${e}`);
    for (const t of lines) info.append(Object.assign(document.createElement("div"), { textContent: t }));
    el.append(info, choices, svg);
  },
};
