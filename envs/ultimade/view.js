// The ULTIMADE pitch as SVG: grass, endzones, both teams, the disc, the last throw.
// Every field that is a legal move now is outlined; a click on it sends that move.
// The human's own team always attacks up the screen (player_1 sees the pitch turned round).
"use strict";

(window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {}).ultimade = {
  identity(v) {
    if (v.seat === null || v.seat === undefined) return "You are watching team A (blue, player_0) against team B (red, player_1).";
    const team = v.teams[v.seat];
    const role = v.over ? "" : v.offense === v.seat ? ", on offense (you have the disc)" : ", on defense";
    return `You are team ${team} (${v.seat ? "red" : "blue"}, player_${v.seat})${role}; you attack up the screen.`;
  },
  help: {
    rules: [
      "Ultimate frisbee on a 9×18 grid, four players a side. Score by catching a pass in the endzone you attack (the far one, up the screen). First to the points target wins.",
      "Offense: the team with the disc. Defense: the other team. A turnover swaps them.",
      "A cycle is one round of play: first the offense's step (its three players without the disc may each run), then the defense's step (its four players may each run), then the disc holder throws. The cycle count is the game clock.",
      "A step: click one of your players to pick him, then the field he runs to (up to 4 fields, any direction, through empty fields); 'done' ends the step and whoever has not run stays.",
      "Throws go in a straight line (row, column or diagonal), over at least one empty field and never over an opponent; the holder must throw if any team-mate is free. No free team-mate: a turn, the nearest defender gets the disc.",
      "Marking: a defender next to an offense player marks him; only one marker per offense player. Monster-Defense: after a catch next to a marker (in the endzone too), the defense may roll a die: 1 or 6 is a turn; 2-5 is no turn, the catcher keeps the disc and in the defense's next step only the marker who rolled may run.",
      "A field that is not highlighted is no move now: hover over it or click it and the page says which rule keeps it out.",
    ],
    legend(v) {
      return [
        { fill: "#2457c5", shape: "circle", stroke: "white", text: "team A (player_0): A1-A4" },
        { fill: "#c8322c", shape: "circle", stroke: "white", text: "team B (player_1): B1-B4" },
        { fill: "#ffe45c", shape: "circle", stroke: "#333", text: "the disc (small: held; large: on the ground)" },
        { fill: "#888", shape: "circle", stroke: "#ffe45c", width: 3, text: "yellow ring: the runner picked now" },
        { fill: "#888", shape: "circle", stroke: "#ffb347", width: 3, text: "orange ring: an offense player who is marked" },
        { fill: "#888", shape: "circle", opacity: 0.6, text: "faded: has run this step" },
        { fill: "#3f8f3f", text: "the field of play" },
        { fill: "#2e6e30", text: `endzones (${v.endzone_depth} rows each, behind the thick white lines)` },
        { stroke: "#ffe45c", width: 2, fill: "#ffffff30", text: "yellow square: click it (pick, run, throw, place...)" },
        { stroke: "#ff8c1a", width: 2, fill: "#ffffff30", text: "dashed orange square: a run that leaves the disc holder with no free team-mate" },
        { stroke: "#ffe45c", shape: "text", mark: "→", ink: "#b09000", text: "dashed arrow: the last throw" },
      ];
    },
  },
  render(el, v, moves, play) {
    const NS = window.ULTIMATA_SVG.NS;
    const cell = 34;
    const margin = 26;
    const flip = v.seat === 1;
    const x = (col) => margin + (flip ? v.width - 1 - col : col) * cell;
    const y = (row) => margin + (flip ? row : v.length - 1 - row) * cell;
    const width = margin * 2 + v.width * cell;
    const height = margin * 2 + v.length * cell;
    const { svg, add } = window.ULTIMATA_SVG.canvas(width, height);

    add("rect", { x: margin, y: margin, width: v.width * cell, height: v.length * cell, fill: "#3f8f3f" });
    for (const [from, to] of [[0, v.endzone_depth - 1], [v.length - v.endzone_depth, v.length - 1]]) {
      const top = Math.min(y(from), y(to));
      add("rect", { x: margin, y: top, width: v.width * cell, height: v.endzone_depth * cell, fill: "#2e6e30" });
    }
    for (let c = 0; c <= v.width; c++) add("line", { x1: margin + c * cell, y1: margin, x2: margin + c * cell, y2: margin + v.length * cell, stroke: "#ffffff22" });
    for (let r = 0; r <= v.length; r++) add("line", { x1: margin, y1: margin + r * cell, x2: margin + v.width * cell, y2: margin + r * cell, stroke: "#ffffff22" });
    for (const line of [v.endzone_depth, v.length - v.endzone_depth]) {
      const yy = flip ? margin + line * cell : margin + (v.length - line) * cell;
      add("line", { x1: margin, y1: yy, x2: margin + v.width * cell, y2: yy, stroke: "white", "stroke-width": 3 });
    }
    const letters = "abcdefghi";
    for (let c = 0; c < v.width; c++) add("text", { x: x(c) + cell / 2, y: margin - 8, "text-anchor": "middle", "font-size": 12 }, letters[c]);
    for (let r = 0; r < v.length; r++) add("text", { x: margin - 6, y: y(r) + cell / 2 + 4, "text-anchor": "end", "font-size": 11 }, r + 1);

    if (v.last_throw) {
      const defs = add("defs", {});
      const marker = document.createElementNS(NS, "marker");
      for (const [k, val] of Object.entries({ id: "head", markerWidth: 8, markerHeight: 8, refX: 7, refY: 4, orient: "auto" })) marker.setAttribute(k, val);
      const tip = document.createElementNS(NS, "path");
      tip.setAttribute("d", "M0,0 L8,4 L0,8 z");
      tip.setAttribute("fill", "#ffe45c");
      marker.append(tip);
      defs.append(marker);
      const f = v.last_throw.from;
      const t = v.last_throw.to;
      add("line", { x1: x(f.col) + cell / 2, y1: y(f.row) + cell / 2, x2: x(t.col) + cell / 2, y2: y(t.row) + cell / 2, stroke: "#ffe45c", "stroke-width": 3, "stroke-dasharray": "6 4", "marker-end": "url(#head)" });
    }
    const colours = ["#2457c5", "#c8322c"];
    for (const p of v.players) {
      const cx = x(p.col) + cell / 2;
      const cy = y(p.row) + cell / 2;
      const ring = p.runner ? "#ffe45c" : p.marked ? "#ffb347" : "white";
      add("circle", { cx, cy, r: cell * 0.38, fill: colours[p.team], stroke: ring, "stroke-width": p.runner || p.marked ? 3 : 2, opacity: p.ran ? 0.75 : 1, "data-player": p.id });
      add("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 12, fill: "white", "font-weight": 700 }, p.id);
      if (p.has_disc) add("circle", { cx: cx + 9, cy: cy - 9, r: 6, fill: "#ffe45c", stroke: "#333" });
    }
    if (v.disc && v.disc.on_ground) {
      add("circle", { cx: x(v.disc.col) + cell / 2, cy: y(v.disc.row) + cell / 2, r: 8, fill: "#ffe45c", stroke: "#333", "data-disc": v.disc.field });
    }
    const why = Object.assign(document.createElement("div"), { className: "why-not-message" });
    for (const [field, reason] of Object.entries(v.why_not || {})) {
      const col = letters.indexOf(field[0]);
      const row = Number(field.slice(1)) - 1;
      const r = add("rect", { x: x(col), y: y(row), width: cell, height: cell, fill: "transparent", class: "why-not", "data-why-field": field });
      const title = document.createElementNS(NS, "title");
      title.textContent = `${field}: ${reason}`;
      r.append(title);
      r.addEventListener("click", () => { why.textContent = `Not ${field}: ${reason}.`; });
    }
    for (const m of moves.filter((m) => m.target === "field")) {
      const warn = m.leaves_no_free_team_mate ? { stroke: "#ff8c1a", "stroke-dasharray": "4 3", "data-warning": "no-free-team-mate" } : { stroke: "#ffe45c" };
      const r = add("rect", { x: x(m.col) + 2, y: y(m.row) + 2, width: cell - 4, height: cell - 4, rx: 5, fill: "#ffffff30", "stroke-width": 2, class: "clickable", "data-action": m.action, "data-field": m.field, ...warn });
      r.style.cursor = "pointer";
      const title = document.createElementNS(NS, "title");
      title.textContent = m.label;
      r.append(title);
      r.addEventListener("click", () => play(m.action));
    }

    const info = document.createElement("div");
    info.className = "pitch-info";
    const lines = [
      `A ${v.score[0]} : ${v.score[1]} B — first to ${v.points_to_win}, cycle ${v.cycle}/${v.max_cycles} (runs of both teams, then a throw)`,
      `team ${v.teams[v.offense]} on offense (has the disc) · team ${v.teams[1 - v.offense]} on defense · now: ${v.phase}`,
    ];
    if (v.throw_options && v.phase_key !== "throw") {
      lines.push(v.throw_options.length
        ? `${v.holder} (disc) could throw now to: ${v.throw_options.map((t) => `${t.id} on ${t.field}`).join(", ")}`
        : `${v.holder} (disc) has no free team-mate now: if none is free when the defense has run, the disc turns over to the nearest defender`);
    }
    if (v.only_runner) lines.push(`Monster-Defense: only ${v.only_runner} may run`);
    if (v.last_roll) lines.push(`last Monster-Defense roll: ${v.last_roll}. ${v.roll_rule}.`);
    if (v.last_event) lines.push(`last: ${v.last_event}`);
    for (const t of lines) {
      const p = document.createElement("div");
      p.textContent = t;
      info.append(p);
    }
    el.append(info);
    const canStop = moves.some((m) => m.kind === "done");
    const selectAsk = () => {
      if (v.must_run_to_disc) return "The disc lies on the ground: first one of your players must run toward it (the highlighted ones get closest); the step can end only after that run.";
      const step = v.offense === v.seat ? "Your offense step: click one of your players to run" : "Your defense step: click one of your players to run (mark the receivers!)";
      if (canStop) return `${step}, or 'done'.`;
      return `${step}. The step cannot end yet: two of your players mark the new disc holder, and one of them must run away first.`;
    };
    const ask = {
      place: "Set-up: click a yellow field of your endzone to place your next player.",
      pull: "Pull: click a yellow field of the other endzone where the disc lands.",
      select: selectAsk(),
      run: v.must_run_to_disc ? "Click the field he runs to: as close to the disc as any run can get."
        : `Click the field he runs to (up to the yellow squares).${moves.some((m) => m.leaves_no_free_team_mate) ? ` A dashed orange square leaves ${v.holder} (disc) with no free team-mate: a turn follows unless a lane opens before the throw.` : ""}`,
      throw: "Throw: click the team-mate who catches the disc.",
      monster: `Monster-Defense: click the marker who rolls the die, or 'no Monster-Defense roll'. ${v.roll_rule}.`,
    }[v.phase_key];
    if (moves.length && ask) el.append(Object.assign(document.createElement("div"), { className: "prompt", textContent: ask }));
    if (Object.keys(v.why_not || {}).length) {
      why.textContent = "Hover over or click a field that is not highlighted to see why it is no move now.";
      el.append(why);
    }
    el.append(svg);
  },
};
