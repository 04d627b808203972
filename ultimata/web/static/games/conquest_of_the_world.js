// Conquest of the World as SVG: the 11 zones as boxes placed roughly as on a world map, each country a
// row with its PBU, filled in its holder's colour (solid = conquest, pale = ally, H = homeland), the
// POWER BASE RECORD and chips per player, and the battle under way (never a hidden weapon choice).
// Clicking a country with legal moves plays it, or lists the choices (pick / buy / attack).
"use strict";

(window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {}).conquest = {
  render(el, v, moves, play) {
    const NS = window.ULTIMATA_SVG.NS;
    const at = [[20, 20], [480, 20], [640, 230], [250, 20], [330, 230], [480, 340], [640, 450], [800, 230], [20, 280], [250, 430], [800, 450]];
    const colours = ["#cd3434", "#285ccd", "#289646", "#dc9614", "#8c3caa", "#1ea0aa"];
    const pale = ["#f0c2c2", "#bfd0f0", "#bfe0c8", "#f4dcae", "#dcc4e6", "#bce4e6"];
    const W = 150, H = 17;
    const { svg, add } = window.ULTIMATA_SVG.canvas(960, 560);
    const byCountry = {};
    for (const m of moves.filter((m) => m.target === "country")) (byCountry[m.country] = byCountry[m.country] || []).push(m);
    const choices = document.createElement("div");
    v.zones.forEach((zone, z) => {
      const [x, y] = at[z];
      add("rect", { x, y, width: W, height: 22 + H * zone.length, fill: "#fafafa", stroke: "#5a5a6e" });
      add("text", { x: x + 4, y: y + 15, "font-size": 13, "font-weight": 700 }, `Zone ${z + 1}`);
      zone.forEach((c, i) => {
        const top = y + 21 + i * H;
        const held = c.holder >= 0;
        const fill = !held ? "#fafafa" : c.held_as === "ally" ? pale[c.holder] : colours[c.holder];
        const ink = held && c.held_as !== "ally" ? "white" : "#1c1c1c";
        const mark = { homeland: " H", conquest: " C", ally: " A" }[c.held_as] || "";
        const r = add("rect", { x: x + 1, y: top, width: W - 2, height: H - 1, fill });
        add("text", { x: x + 4, y: top + 12, "font-size": 11, fill: ink }, `${c.name}${mark}`);
        add("text", { x: x + W - 6, y: top + 12, "font-size": 11, fill: ink, "text-anchor": "end" }, c.value);
        const list = byCountry[c.country];
        if (list) {
          r.setAttribute("stroke", "#ffb000");
          r.setAttribute("stroke-width", 2);
          r.setAttribute("class", "clickable");
          r.setAttribute("data-action", list[0].action);
          r.style.cursor = "pointer";
          r.append(Object.assign(document.createElementNS(NS, "title"), { textContent: list.map((m) => m.label).join(" / ") }));
          r.addEventListener("click", () => {
            if (list.length === 1) return play(list[0].action);
            choices.replaceChildren(...list.map((m) => Object.assign(document.createElement("button"), { textContent: m.label, onclick: () => play(m.action) })));
          });
        }
      });
    });
    const info = document.createElement("div");
    info.className = "pitch-info";
    const lines = [`turn ${v.turn} · ${v.stage} · ${v.phase}`];
    v.players.forEach((p, i) => lines.push(`player_${i}${i === v.seat ? " (you)" : ""}: record ${p.record}, chips ${p.chips}${p.allies.length ? ", allied with " + p.allies.map((a) => "player_" + a).join(", ") : ""}${p.broken_with.length ? ", broke with " + p.broken_with.map((a) => "player_" + a).join(", ") : ""}${p.alive ? "" : " (out)"}`));
    if (v.option >= 0 && !v.over) lines.push(`attack option: player_${v.option}, alliances it may buy: ${v.buys}`);
    if (v.proposal) lines.push(`player alliance proposed by player_${v.proposal.from} to player_${v.proposal.to}; to answer: ${v.proposal.waiting.map((a) => "player_" + a).join(", ")}`);
    if (v.battle) {
      const b = v.battle;
      const led = b.directors[0] !== b.fighters[0] ? ` (directed by player_${b.directors[0]})` : "";
      lines.push(`battle ${b.battle}: player_${b.fighters[0]}${led} energy ${b.energy[0]} (won ${b.wins[0]}) vs player_${b.fighters[1]} energy ${b.energy[1]} (won ${b.wins[1]})${b.first_chosen ? " · a weapon is chosen" : ""}`);
    }
    for (const e of v.events) lines.push(`· ${e}`);
    for (const t of lines) info.append(Object.assign(document.createElement("div"), { textContent: t }));
    el.append(info, choices, svg);
  },
};
