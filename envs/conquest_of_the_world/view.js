// Conquest of the World as SVG: the 11 zones as boxes placed roughly as on a world map, each country a
// row with its PBU, filled in its holder's colour (solid = homeland or conquest, pale = ally; the letter
// H, C or A says which; a homeland is also bold with a thick border), the POWER BASE RECORD and chips per
// player, and the battle under way as a dialog of weapon choices (never showing the other side's pick).
// Clicking anywhere on a country's row plays it, or lists the choices (pick / buy / attack).
"use strict";

(function () {
  const COLOURS = ["#cd3434", "#285ccd", "#289646", "#dc9614", "#8c3caa", "#1ea0aa"];
  const PALE = ["#f0c2c2", "#bfd0f0", "#bfe0c8", "#f4dcae", "#dcc4e6", "#bce4e6"];
  const NAMES = ["red", "blue", "green", "orange", "purple", "teal"];
  // Zone boxes, west to east: 1 N. America, 9 S. America, 4 W. Europe, 10 Africa, 2 E. Europe,
  // 5 Middle East, 3 and 6 Asia, 8 E. Asia, 7 S.E. Asia, 11 Australia (index = zone number - 1).
  const AT = [[10, 10], [370, 10], [550, 10], [190, 10], [370, 190], [550, 190], [730, 190], [730, 10], [10, 250], [190, 300], [730, 320]];
  const W = 170, H = 19;
  const make = (tag, cls, text) => Object.assign(document.createElement(tag), cls ? { className: cls } : {}, text !== undefined ? { textContent: text } : {});
  const who = (q, seat) => `player_${q}${q === seat ? " (you)" : ""}`;

  function prompt(v, moves) {
    if (!moves.length) return "";
    const kinds = new Set(moves.map((m) => m.kind || m.target));
    if (v.phase === "homeland") return "Choose your homeland: click any unoccupied country (outlined).";
    if (v.phase === "zone alliances") return "Ally with unoccupied countries of your home zone (free, up to your homeland's value): click them, then 'stop allying in your home zone'.";
    if (v.phase === "weapon choice") return "Choose your weapon and spend level for the next battle (below).";
    if (v.phase === "diplomacy") {
      return v.stage === "play" ? "Diplomacy: propose a player alliance, break yours, or 'end your diplomacy for now'."
        : "Diplomacy: the board has been filled, so no new player alliances; break yours, or 'end your diplomacy for now'.";
    }
    if (v.phase === "alliance answer") return "A player alliance is proposed: accept or decline.";
    const what = [];
    if (kinds.has("buy")) what.push("buy an alliance (click a country: pays half its value × 1000)");
    if (kinds.has("attack")) what.push("attack a country (click it)");
    return `Your attack option: ${what.join(", or ") || "choose"}; or 'pass the attack option' to the left.`;
  }

  function weaponDialog(v, moves, play) {
    const b = v.battle;
    const m = v.battle_model;
    const box = make("div", "weapon-dialog");
    const side = (s) => `${who(b.directors[s], v.seat)}${b.directors[s] !== b.fighters[s] ? ` for ${who(b.fighters[s], v.seat)}` : ""}`;
    box.append(make("h3", "", `Battle ${b.battle} for ${b.target_name || "the end game"}`),
      make("div", "", `attacker ${side(0)}: energy ${b.energy[0]}, battles won ${b.wins[0]}${b.barred[0].length ? `, barred: ${b.barred[0].join(", ")}` : ""}`),
      make("div", "", `defender ${side(1)}: energy ${b.energy[1]}, battles won ${b.wins[1]}${b.barred[1].length ? `, barred: ${b.barred[1].join(", ")}` : ""}`));
    if (b.your_pick) box.append(make("div", "", `Your choice, hidden from the others until the battle: ${b.your_pick.weapon}, ${b.your_pick.spend}.`));
    else if (b.first_chosen) box.append(make("div", "hidden-pick", "The other side has chosen; its choice stays hidden until the battle is fought."));
    const choices = moves.filter((x) => x.target === "weapon");
    if (choices.length) {
      const table = make("table");
      const head = make("tr");
      head.append(make("th", "", "weapon"), ...m.spends.map((s, k) => make("th", "", `${s} (${m.bonus[k] >= 0 ? "+" : ""}${m.bonus[k]}%)`)), make("th", "", "hits a tank / sub / plane"));
      table.append(head);
      m.weapons.forEach((w, i) => {
        const tr = make("tr");
        tr.append(make("th", "", w));
        m.spends.forEach((s, k) => {
          const td = make("td");
          const move = choices.find((x) => x.weapon === w && x.spend === s);
          if (move) {
            const btn = make("button", "clickable", `${w}, ${s}: ${m.cost[i][k]} energy`);
            btn.dataset.action = move.action;
            btn.title = move.label;
            btn.addEventListener("click", () => play(move.action));
            td.append(btn);
          } else td.append(make("span", "barred", "barred"));
          tr.append(td);
        });
        tr.append(make("td", "", m.hit[i].map((p) => `${p}%`).join(" / ")));
        table.append(tr);
      });
      box.append(table, make("div", "", `Energy per exchange as shown; a hit destroys the enemy weapon and wins the battle; two battles win the war. ` +
        `The field is wooded ${m.wooded_chance}% of the time (a tank then hits ${m.tree_penalty}% less).`));
    }
    return box;
  }

  window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {};
  window.ULTIMATA_VIEWS.conquest_of_the_world = {
    identity(v) {
      if (v.seat === null || v.seat === undefined) return "You are watching.";
      const home = v.players[v.seat].homeland;
      const name = home >= 0 ? v.zones.flat().find((c) => c.country === home).name : null;
      return `You are player_${v.seat} (${NAMES[v.seat]})${name ? `, homeland ${name}` : ""}.`;
    },
    help: {
      rules: [
        "Build the biggest POWER BASE RECORD: conquests count their full value (PBU), alliances half. Your own homeland is not on the record (the book's U.S. allied with Canada, 7, and Mexico, 5, records 6); an enemy homeland you conquer counts in full.",
        "Start: each player picks a homeland, then allies for free with countries of its home zone up to the homeland's value.",
        "The attack option goes round the table. With it you may buy one alliance (half its value × 1000 chips) and attack: unoccupied countries for free, occupied ones by paying their value × 1000.",
        "A war is best of three battles. Both sides secretly choose a weapon (tank, submarine, plane: each beats one and loses to another) and a spend level; the other side's choice is never shown before the battle.",
        "Winning takes the country and the loser's leftover energy as chips; losing passes the option to your left. Holding a whole zone pays 1000 chips per country.",
        "A homeland can be attacked once every neighbour is conquered by someone other than its owner (a neighbouring homeland counts); taking it eliminates its player.",
        "From the moment the board is full, no new player alliances: each player has one more turn of attacks, then chips go on the record and an end-game ladder of battles decides the final order.",
      ],
      legend(v) {
        const players = v.players.map((_, q) => ({ fill: COLOURS[q], text: `${who(q, v.seat)}: homeland or conquest` }));
        return [
          ...players,
          { fill: PALE[0], text: "pale colour: that player's ally (alliance)" },
          { fill: "#fafafa", text: "white: unoccupied" },
          { fill: COLOURS[0], mark: "H", ink: "white", width: 3, stroke: "#111", text: "H: homeland (bold, thick border; not on its owner's record)" },
          { fill: COLOURS[0], mark: "C", ink: "white", text: "C: conquest (full value on the record)" },
          { fill: PALE[0], mark: "A", text: "A: ally (half value on the record)" },
          { shape: "text", mark: "30", text: "number: the country's power base (PBU, thousands)" },
          { stroke: "#ffb000", width: 3, text: "orange outline: you can pick, buy or attack it now" },
        ];
      },
    },

    render(el, v, moves, play) {
      const S = window.ULTIMATA_SVG;
      const { svg, add } = S.canvas(910, 420);
      const byCountry = {};
      for (const m of moves.filter((m) => m.target === "country")) (byCountry[m.country] = byCountry[m.country] || []).push(m);
      v.zones.forEach((zone, z) => {
        const [x, y] = AT[z];
        const total = zone.reduce((a, c) => a + c.value, 0);
        add("rect", { x, y, width: W, height: 24 + H * zone.length, fill: "#fafafa", stroke: "#5a5a6e", rx: 4 });
        add("text", { x: x + 5, y: y + 16, "font-size": 13, "font-weight": 700 }, `Zone ${z + 1}`);
        add("text", { x: x + W - 6, y: y + 16, "font-size": 11, "text-anchor": "end", fill: "#666" }, `${total} PBU`);
        zone.forEach((c, i) => {
          const top = y + 22 + i * H;
          const held = c.holder >= 0;
          const home = c.held_as === "homeland";
          const fill = !held ? "#ffffff" : c.held_as === "ally" ? PALE[c.holder] : COLOURS[c.holder];
          const ink = held && c.held_as !== "ally" ? "white" : "#1c1c1c";
          const mark = { homeland: "H", conquest: "C", ally: "A" }[c.held_as] || "";
          const row = add("g", { "data-country": c.name });
          add("rect", { x: x + 2, y: top, width: W - 4, height: H - 2, rx: 2, fill, stroke: home ? "#111" : "#ddd", "stroke-width": home ? 2.5 : 1 }, undefined, row);
          add("text", { x: x + 6, y: top + 13, "font-size": 12, fill: ink, "font-weight": home ? 800 : 400 }, c.name, row);
          if (mark) add("text", { x: x + W - 34, y: top + 13, "font-size": 11, fill: ink, "font-weight": 700 }, mark, row);
          add("text", { x: x + W - 8, y: top + 13, "font-size": 12, fill: ink, "text-anchor": "end" }, c.value, row);
          const holder = held ? `${c.held_as} of ${who(c.holder, v.seat)}` : "unoccupied";
          S.title(row, `${c.name}: ${c.value} PBU, ${holder}`);
          const list = byCountry[c.country];
          if (list) {
            const outline = add("rect", { x: x + 1, y: top - 1, width: W - 2, height: H, rx: 3, fill: "none", stroke: "#ffb000", "stroke-width": 3 }, undefined, row);
            outline.setAttribute("pointer-events", "none");
            S.clickable(row, list, play);
          }
        });
      });
      const lines = [`turn ${v.turn} · ${v.stage} · ${v.phase}`];
      const nameOf = (country) => v.zones.flat().find((c) => c.country === country).name;
      v.players.forEach((p, i) => lines.push(`${who(i, v.seat)} (${NAMES[i]})${p.homeland >= 0 ? `, homeland ${nameOf(p.homeland)}` : ""}: record ${p.record}, chips ${p.chips}${p.allies.length ? ", allied with " + p.allies.map((a) => "player_" + a).join(", ") : ""}${p.broken_with.length ? ", broke with " + p.broken_with.map((a) => "player_" + a).join(", ") : ""}${p.alive ? "" : " (out)"}`));
      lines.push("(record: alliances at half value, conquests at full, a conquered enemy homeland too; a player's own homeland is not counted)");
      if (v.option >= 0 && !v.over) lines.push(`attack option: ${who(v.option, v.seat)}, alliances it may buy: ${v.buys}`);
      if (v.proposal) lines.push(`player alliance proposed by player_${v.proposal.from} to player_${v.proposal.to}; to answer: ${v.proposal.waiting.map((a) => "player_" + a).join(", ")}`);
      const lb = v.last_battle;
      if (lb) lines.push(`last battle: player_${lb.directors[0]} ${lb.choices[0].weapon} (${lb.choices[0].spend}) vs player_${lb.directors[1]} ${lb.choices[1].weapon} (${lb.choices[1].spend})${lb.wooded ? ", wooded" : ""}`);
      for (const e of v.events) lines.push(`· ${e}`);
      el.append(S.lines("pitch-info", lines));
      const ask = prompt(v, moves);
      if (ask) el.append(make("div", "prompt", ask));
      if (v.battle) el.append(weaponDialog(v, moves, play));
      el.append(svg);
    },
  };
})();
