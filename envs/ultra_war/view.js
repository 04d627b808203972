// The Ultra War map as SVG: terrain (walls, doors, obstructions, stairs, upper level shaded, objectives,
// escape), power tokens, pawns with a facing tick and a life bar. A click on one of your characters
// activates it; its steps, attacks and targets are outlined squares, and arrows round it face and end the
// activation. Several moves on one square open a menu (attack with the sword or the bow). Hovering a
// character shows its card (stats, attacks, abilities, gear, crystal, status) in the panel beside the map;
// your hand shows each card's text, and clicking a card plays (or discards) it.
// The human's own army always plays up the screen (player_1 sees the map turned round).
"use strict";

(function () {
  const SIDES = ["#2457c5", "#c8322c"];
  const TERRAIN = { wall: "#3c3c3c", door: "#8c5a28", obstruction: "#5aa05a", stairs: "#b4966e", floor: "#cdc8b9", upper: "#96968c", objective: "#ebd250", escape: "#78c8e6" };
  const MOVE_COLOURS = { step: "#ffe45c", attack: "#ff5040", target: "#40c0ff", use: "#b070ff", transfer: "#40e0a0" };
  const DIRS = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };
  const make = (tag, cls, text) => Object.assign(document.createElement(tag), cls ? { className: cls } : {}, text !== undefined ? { textContent: text } : {});

  // What to click now, in words: the phase and the moves say it.
  function prompt(v, moves) {
    if (!moves.length) return "";
    const has = (t, k) => moves.some((m) => m.target === t && (!k || m.kind === k));
    const card = v.cards.find((c) => c.name === v.playing);
    switch (v.phase) {
      case "draft": return "Draft your army: pick characters with the buttons above the map, then 'finish drafting'.";
      case "setup": if (moves.some((m) => m.label === "go second")) return "You won the roll: choose 'go first' or 'go second' with the buttons above the map.";
        return "Set-up: you may pay for equipment and enhancements by clicking cards in your hand, then 'finish paying and draw up to a full hand' (5 cards).";
      case "main": return "Your turn: click a character with a dashed yellow ring to activate it (move, attack, face), play a card from your hand, or 'end the turn'.";
      case "activation": {
        const parts = [];
        if (has("field", "step")) parts.push("a yellow square to step there");
        if (has("field", "attack")) parts.push("a red square to attack");
        if (has("field", "target")) parts.push("a blue square to breach or hand over the crystal");
        if (has("face")) parts.push("an arrow round it to face that way and end its activation");
        return `${v.active} is active: click ${parts.join(", ") || "a button"}. Charge, fly, pause (to play cards) and end are the buttons above the map.`;
      }
      case "card target": return card && card.kind === "feat" ? `Who performs ${v.playing}? Click one of your characters.` : `Who gets ${v.playing || "the card"}? Click a highlighted character.`;
      case "feat target": return "Choose the feat's target: click a highlighted enemy.";
      case "quick window": return "Quick window (an attack or feat is being resolved): click a quick card in your hand or a power source to answer, or 'pass'.";
      case "deviate": return "The attack may deviate: click the square where it lands, or 'let the attack go where it was aimed'.";
      case "discard": return "Discard down to 5: click a card in your hand to discard it.";
      case "pause": return `Activation paused: click a card to play, use a power source or transfer; '${(moves.find((m) => m.label.startsWith("resume ")) || { label: "resume" }).label}' goes on with it.`;
      default: return "";
    }
  }

  function unitPanel(u) {
    const box = make("div", "unit-panel");
    if (!u) {
      box.append(make("p", "", "Hover over a character (or click one) to see its card."));
      return box;
    }
    const head = make("h4", `side-${u.side}`, u.name);
    const stats = make("div", "stats");
    const row = (k, val) => { if (val !== "" && val !== undefined) stats.append(make("b", "", k), make("span", "", val)); };
    row("faction", `${u.faction} (player_${u.side})`);
    row("rank", `${u.rank}${u.general ? ", the active general" : ""} · ${u.race} · value ${u.value}`);
    row("where", u.field ? `${u.field}, facing ${u.facing}` : (u.status.find((s) => s.startsWith("in the Void")) ? "in the Void" : "defeated"));
    row("life", `${u.life} / ${u.max_life}`);
    row("movement", u.movement);
    row("offense", u.offense);
    row("defence", u.defense);
    row("attacks", u.attacks.join("; "));
    row("abilities", u.abilities.join(", ") || "none");
    if (u.general_ability.length) row("as general", u.general_ability.join(", "));
    row("equipment", u.gear.join(", ") || "none");
    const reserves = Object.entries(u.reserves).map(([k, val]) => `${k} ${val}`).join(", ");
    if (reserves) row("reserves", reserves);
    row("crystal", u.crystal ? `${u.crystal.name}, ${u.crystal.points} points${u.crystals > 1 ? ` (+${u.crystals - 1} carried)` : ""}` : "none");
    if (u.crystal && u.crystal.ability) row("its ability", u.crystal.ability);
    row("status", u.status.join(", ") || "ready");
    box.append(head, stats);
    return box;
  }

  window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {};
  window.ULTIMATA_VIEWS.ultra_war = {
    identity(v) {
      if (v.seat === null || v.seat === undefined) return `You are watching: ${v.factions[0]} (player_0, blue) against ${v.factions[1]} (player_1, red).`;
      return `You are player_${v.seat}: ${v.factions[v.seat]} (${v.seat ? "red" : "blue"}), playing up the map.`;
    },
    pace: 50,  // ms per bot move: a bot turn is 8-11 moves (up to 30), so a turn shows in about a second
    help: {
      sections: [
        { title: "Winning", text: "Two armies fight on a 12×12 map. Each side wins by its scenario's objective: defeat the enemy Generals, hold the yellow objective squares, or free the prisoner and reach an escape square; or on points after the round cap." },
        { title: "Set-up", text: "A die roll decides who goes first: its winner chooses to go first or second. Power sources start empty and gain a point at the start of each of your turns." },
        { title: "Your turn", text: "Your sources gain a point and you draw a card. Then activate your characters one at a time: click one and step it square by square (up to its movement); then click an arrow to face that way and end, or attack. An attack turns the character to face its target and ends its activation (unless it can attack again), so choose the facing by where you attack from." },
        { title: "Attacking", text: "An attack rolls two dice + the attack number (the character's offense, or its weapon's) against the defender's two dice + its defence; the difference is the damage: '5+5 + attack 6 = 16 against 5+2 + defence 5 = 12' deals 4. Back stabs, sneak attacks and free strikes get +2." },
        { title: "Double six, double one", text: "An attacker's double six is a critical strike: +1d6 damage. A defender's double six makes the attack fail (and hits back with a die if it can reach). Both: each takes a die, at once. The attacker's double one is a miss." },
        { title: "Reach and flying", text: "Melee needs an adjacent enemy; ranged needs range (counted square by square through the sides) and line of sight, ahead or beside. A flying character can be hit only by ranged attacks or by other flyers: an enemy flying next to you shows no red square, and the prompt says why." },
        { title: "Free strikes and charging", text: "Stepping from next to an enemy to a square outside its front and sides draws a free strike (+2, with its weapon) from it, once per engagement: survive it and you may go on. Charging doubles movement but the character turns (no attack) at the end; a Charge Attack character may instead move 2 more and still attack." },
        { title: "Cards", text: "Cards cost power points: equipment and enhancements go on your characters, feats are performed by one of them, quick cards answer attacks in a quick window." },
        { title: "Turned, stunned, powered down", text: "Turned characters are spent until their side's next turn (they still strike free strikes); stunned ones cannot act for one full round, until the turn of the side that stunned them; powered-down droids (out of their General's or a tripod's range) cannot act." },
      ],
      legend(v) {
        return [
          { fill: SIDES[0], shape: "circle", stroke: "#222", text: `${v.factions[0]} (player_0)` },
          { fill: SIDES[1], shape: "circle", stroke: "#222", text: `${v.factions[1]} (player_1)` },
          { fill: "#888", shape: "circle", stroke: "#ffd700", width: 3, text: "gold ring: the active general" },
          { fill: "#888", shape: "circle", stroke: "white", width: 3, text: "white ring: flying" },
          { fill: "#888", shape: "circle", opacity: 0.45, text: "faded: turned (spent this turn)" },
          { fill: "#b070ff", shape: "text", mark: "◆", ink: "#b070ff", text: "purple diamond: a crystal (by a pawn: it bears one; alone: dropped, step on it to pick it up)" },
          { fill: "#888", shape: "text", mark: "✕", ink: "#c00", text: "red cross: stunned, in stasis or powered down" },
          { fill: SIDES[0], shape: "triangle", text: "triangle: a power token (can be attacked)" },
          { fill: "#28aa3c", stroke: "#28aa3c", text: "green bar: life left; white tick: facing" },
          { fill: TERRAIN.floor, text: "floor (ground level)" },
          { fill: TERRAIN.upper, text: "upper level (a roof: level lines need stairs or flight)" },
          { fill: TERRAIN.stairs, text: "stairs (change level)" },
          { fill: TERRAIN.wall, text: "wall" },
          { fill: TERRAIN.door, text: "door (passable, blocks sight)" },
          { fill: TERRAIN.obstruction, text: "obstruction (walk through, blocks sight)" },
          { fill: TERRAIN.objective, text: "objective square" },
          { fill: TERRAIN.escape, text: "escape square" },
          { stroke: "#ffe45c", width: 2.5, dash: true, shape: "circle", text: "dashed yellow ring: click to activate" },
          { stroke: MOVE_COLOURS.step, width: 2.5, text: "yellow square: step there / choose it" },
          { stroke: MOVE_COLOURS.attack, width: 2.5, text: "red square: attack it" },
          { stroke: MOVE_COLOURS.target, width: 2.5, text: "blue square: a card's or feat's target" },
          { stroke: MOVE_COLOURS.use, width: 2.5, text: "purple square: use a power source" },
          { stroke: MOVE_COLOURS.transfer, width: 2.5, text: "green square: transfer a reserve point" },
          { fill: "#ffe45c", shape: "arrow", text: "arrow: face that way and end the activation" },
        ];
      },
    },

    render(el, v, moves, play) {
      const S = window.ULTIMATA_SVG;
      const cell = 40, margin = 24, n = v.size;
      const flip = v.seat === 1;
      const x = (col) => margin + (flip ? n - 1 - col : col) * cell;
      const y = (row) => margin + (flip ? n - 1 - row : row) * cell;
      const size = margin * 2 + n * cell;
      const { svg, add } = S.canvas(size, size);
      let pinned = v.pawns.find((p) => p.status.includes("active")) || null;  // shown when nothing is hovered
      const panelSlot = make("div");
      const showUnit = (u) => panelSlot.replaceChildren(unitPanel(u));

      v.cells.forEach((c, f) => {
        const row = Math.floor(f / n), col = f % n;
        let fill = TERRAIN[c.kind];
        if (c.kind === "floor" && c.level) fill = TERRAIN.upper;
        if (c.objective) fill = TERRAIN.objective;
        if (c.escape) fill = TERRAIN.escape;
        add("rect", { x: x(col), y: y(row), width: cell, height: cell, fill, stroke: "#787870" });
      });
      const letters = "abcdefghijkl";
      for (let c = 0; c < n; c++) add("text", { x: x(c) + cell / 2, y: margin - 8, "text-anchor": "middle", "font-size": 12 }, letters[c]);
      for (let r = 0; r < n; r++) add("text", { x: margin - 6, y: y(r) + cell / 2 + 4, "text-anchor": "end", "font-size": 11 }, n - r);
      for (const t of v.tokens) {
        const cx = x(t.col) + cell / 2, cy = y(t.row) + cell / 2;
        const what = (t.kind === "crystal" ? `${t.name} (dropped crystal, ${t.points} points)` : `${t.name}: power token of player_${t.side}, ${t.points} points, life ${t.life}, defence ${t.defense}`) + (t.ability ? `. ${t.ability}` : "");
        if (t.kind === "crystal") S.title(add("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 18, fill: "#b070ff" }, "◆"), what);
        else S.title(add("polygon", { points: `${cx},${cy - 12} ${cx - 11},${cy + 9} ${cx + 11},${cy + 9}`, fill: SIDES[t.side], stroke: "#222" }), what);
      }

      const byField = {}, byUnit = {};
      for (const m of moves) {
        if (m.target === "field") (byField[m.field] = byField[m.field] || []).push(m);
        if (m.target === "unit") byUnit[m.field] = m;
      }
      for (const p of v.pawns) {
        const cx = x(p.col) + cell / 2, cy = y(p.row) + cell / 2;
        const g = add("g", { "data-unit": p.name });
        add("circle", { cx, cy, r: 15, fill: SIDES[p.side], stroke: p.general ? "#ffd700" : p.flying ? "white" : "#222", "stroke-width": p.general || p.flying ? 3 : 1, opacity: p.turned ? 0.45 : 1 }, undefined, g);
        const [dx, dy] = DIRS[p.facing].map((d) => (flip ? -d : d));
        add("line", { x1: cx, y1: cy, x2: cx + dx * 15, y2: cy + dy * 15, stroke: "white", "stroke-width": 3 }, undefined, g);
        add("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, fill: "white", "font-weight": 700 }, p.short, g);
        add("rect", { x: cx - 15, y: cy + 16, width: (30 * p.life) / p.max_life, height: 3, fill: "#28aa3c" }, undefined, g);
        if (p.crystals) add("text", { x: cx + 12, y: cy - 8, "font-size": 11, fill: "#b070ff" }, "◆", g);
        if (p.disabled) add("text", { x: cx - 17, y: cy - 7, "font-size": 12, fill: "#c00", "font-weight": 700 }, "✕", g);
        S.title(g, `${p.name} (player_${p.side}) life ${p.life}/${p.max_life}${p.status.length ? " - " + p.status.join(", ") : ""}`);
        g.addEventListener("mouseenter", () => showUnit(p));
        g.addEventListener("mouseleave", () => showUnit(pinned));
        g.addEventListener("click", () => { pinned = p; showUnit(p); });
        const select = byUnit[p.field];
        if (select) {
          const ring = add("circle", { cx, cy, r: 18, fill: "#ffffff01", stroke: MOVE_COLOURS.step, "stroke-width": 3, "stroke-dasharray": "5 3" });
          S.clickable(ring, [select], play);
          ring.addEventListener("mouseenter", () => showUnit(p));
        }
      }
      for (const list of Object.values(byField)) {
        const m = list[0];
        const colour = MOVE_COLOURS[list.find((k) => k.kind === "attack") ? "attack" : m.kind] || MOVE_COLOURS.step;
        const r = add("rect", { x: x(m.col) + 2, y: y(m.row) + 2, width: cell - 4, height: cell - 4, rx: 5, fill: "#ffffff30", "stroke-width": 2.5, "data-field": m.field });
        S.clickable(r, list, play, colour);
        const there = v.pawns.find((p) => p.field === m.field);
        if (there) r.addEventListener("mouseenter", () => showUnit(there));
      }
      // Facing arrows round the active character: a click faces that way and ends the activation.
      const active = v.pawns.find((p) => p.status.includes("active"));
      const faces = moves.filter((m) => m.target === "face");
      if (active && faces.length) {
        const cx = x(active.col) + cell / 2, cy = y(active.row) + cell / 2;
        for (const m of faces) {
          const [dx, dy] = DIRS[m.facing].map((d) => (flip ? -d : d));
          const len = Math.hypot(dx, dy);
          const ux = dx / len, uy = dy / len;
          const tipX = cx + ux * 27, tipY = cy + uy * 27, baseX = cx + ux * 18, baseY = cy + uy * 18;
          const arrow = add("polygon", { points: `${tipX},${tipY} ${baseX - uy * 6},${baseY + ux * 6} ${baseX + uy * 6},${baseY - ux * 6}`, fill: "#ffe45c", stroke: "#6b5500", "stroke-width": 1 });
          S.clickable(arrow, [m], play);
        }
      }

      // The info above the map, the prompt, the map and the unit panel, the hand, the armies.
      const holds = v.objective === "hold" ? ` · hold points ${v.hold[0]} : ${v.hold[1]}` : "";
      const info = S.lines("pitch-info", [
        `${v.scenario} · round ${v.round}/${v.rounds} · player_${v.turn}'s turn · ${v.phase}${holds}`,
        `power: ${v.factions[0]} ${v.power[0]} · ${v.factions[1]} ${v.power[1]} · cards in hand ${v.hand_sizes.join(" / ")}`,
        ...(v.stack.length ? [`on the stack: ${v.stack.join(", ")}`] : []),
        ...v.events.map((e) => `· ${e}`),
      ]);
      el.append(info);
      const ask = prompt(v, moves);
      if (ask) el.append(make("div", "prompt", ask));
      for (const note of v.notes || []) el.append(make("div", "prompt uw-note", note));
      // The turn's and the activation's other choices (end, charge, fly, pause, pass...), next to the map.
      const actions = moves.filter((m) => m.target === "action");
      if (actions.length) {
        const bar = make("div", "uw-actions");
        for (const m of actions) {
          const b = make("button", "clickable", m.label);
          b.dataset.action = m.action;
          b.addEventListener("click", () => play(m.action));
          bar.append(b);
        }
        el.append(bar);
      }
      const row = make("div", "skirmish-row");
      row.append(svg, panelSlot);
      el.append(row);
      showUnit(pinned);

      if (v.seat !== null && v.seat !== undefined) {
        const hand = make("div", "hand uw-hand");
        for (const c of v.cards) {
          const card = make("div", `card k-${c.kind}`);
          card.dataset.card = c.name;
          card.title = c.text;
          card.append(make("div", "name", c.name), make("div", "text", c.text));
          const move = moves.find((m) => m.target === "card" && m.slot === c.slot);
          if (move) {
            card.classList.add("clickable");
            card.dataset.action = move.action;
            card.title = `${move.label}: ${c.text}`;
            card.addEventListener("click", () => play(move.action));
          }
          hand.append(card);
        }
        el.append(make("h3", "", `Your hand (${v.cards.length}; ${v.pile} left to draw)`), hand);
      }
      const armies = make("div", "armies");
      for (const side of [0, 1]) {
        const box = make("div");
        box.append(make("b", "", `${v.factions[side]} (player_${side})`));
        const table = make("table");
        for (const u of [...v.pawns, ...v.off_board].filter((u) => u.side === side).sort((a, b) => a.slot - b.slot)) {
          const tr = make("tr");
          tr.append(make("td", "", u.short), make("td", "", u.name), make("td", "", `${u.life}/${u.max_life}`),
            make("td", "", u.field || (u.life ? "Void" : "defeated")), make("td", "", u.status.join(", ")));
          tr.addEventListener("mouseenter", () => showUnit(u));
          tr.addEventListener("click", () => { pinned = u; showUnit(u); });
          table.append(tr);
        }
        box.append(table);
        armies.append(box);
      }
      el.append(armies);
    },
  };
})();
