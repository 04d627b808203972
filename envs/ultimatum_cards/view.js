// The Ultimatum card table: seats with chips, your hand as cards, the pending Ultimatum.
// A click on a card, a seat, a proposal or an amount sends the matching legal move.
"use strict";

(window.ULTIMATA_VIEWS = window.ULTIMATA_VIEWS || {}).ultimatum_cards = {
  identity(v) {
    if (v.seat === null || v.seat === undefined) return "You are watching: no hand is shown.";
    return `You are player_${v.seat}: your seat has the blue border, your hand is below.`;
  },
  help: {
    rules: [
      "Everyone starts the round with 10 chips. The most chips at the end of the round wins (quick play); match and point play add up rounds.",
      "On your turn play one card from your hand (click it), then its target (click a player) or amount.",
      "Give: make another player give chips to a third. Take: take chips from a player. Steal: take all of a player's chips. Swap: swap chips or hands with a player.",
      "Ultimatum: pick a responder and a target, then offer the responder a share of all the target's chips (you keep the rest). Others may Counter with their own offer; the responder accepts one or rejects all, then the target may Block.",
      "Block stops a Swap, Steal or Ultimatum aimed at you. Draw makes a player draw 2 cards. Round ends the round at once; so does the first empty hand.",
      "Hover over a card to read its rules.",
    ],
    legend: [
      { fill: "#e8f4e8", text: "green card: Give" },
      { fill: "#fde8e0", text: "red card: Take" },
      { fill: "#fffdf8", text: "white card: Swap, Steal or Draw" },
      { fill: "#efe6fb", text: "purple card: Ultimatum" },
      { fill: "#e4eef8", text: "blue card: Block" },
      { fill: "#fbf3d9", text: "yellow card: Counter" },
      { fill: "#eee", text: "grey card: Round" },
      { fill: "white", stroke: "#1f6f8b", width: 2.5, text: "blue border: your seat" },
      { fill: "#fff3d6", text: "cream seat: the player to move" },
      { stroke: "#e07a1f", width: 3, text: "orange outline: click it (a card, a player, an offer)" },
    ],
  },
  render(el, v, moves, play) {
    const byTarget = (target, value) => moves.find((m) => m.target === target && m.value === value);
    const make = (tag, cls, text) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const clickable = (node, move) => {
      if (!move) return node;
      node.classList.add("clickable");
      node.title = node.title ? `${move.label}: ${node.title}` : move.label;
      node.dataset.action = move.action;
      node.addEventListener("click", () => play(move.action));
      return node;
    };

    // On your decision the phase is the prompt (it quotes the buttons it names); otherwise the header says it.
    const asked = moves.length && !v.over;
    const head = make("p", "", v.over ? `Game over after round ${v.round}` : `Round ${v.round} · ${v.pile} cards to draw${asked ? "" : ` · ${v.phase}`}`);
    const seats = make("div", "seats");
    for (const p of v.players) {
      const box = make("div", "seat" + (p.seat === v.seat ? " me" : "") + (p.seat === v.to_move ? " moving" : ""));
      box.dataset.seat = p.seat;
      box.append(
        make("div", "", `player_${p.seat}${p.seat === v.seat ? " (you)" : ""}${p.dealer ? " · dealer" : ""}`),
        make("div", "chips", `${p.chips} chips`),
        make("div", "", `${p.cards} cards · score ${p.score}`),
      );
      seats.append(clickable(box, byTarget("player", p.seat)));
    }
    el.append(head, ...(asked ? [make("div", "prompt", v.phase)] : []), seats);
    // why the game ended (the result line above the board says only who won)
    if (v.end_reason) el.append(make("p", "end-reason", v.end_reason));

    if (v.pending) {
      const pend = make("div", "pending");
      const p = v.pending;
      let text = `player_${p.by} plays ${p.card}`;
      if (p.card === "Ultimatum" && p.p1 !== null) text += `: responder player_${p.p1}`;
      if (p.card === "Ultimatum" && p.p2 !== null) text += `, target player_${p.p2} (${p.target_chips} chips)`;
      pend.append(make("div", "", text));
      if (p.proposals.length) {
        const list = make("ul");
        p.proposals.forEach((prop, i) => {
          const li = make("li", "", `proposal ${i}: player_${prop.by} offers ${prop.share} to the responder, keeps ${p.target_chips - prop.share}`);
          list.append(clickable(li, byTarget("proposal", i)));
        });
        pend.append(list);
      }
      el.append(pend);
    }

    const amounts = moves.filter((m) => m.target === "amount");
    if (amounts.length) {
      const row = make("div", "amounts");
      row.append(make("span", "", v.phase.includes("Counter card") ? "your counter, the responder's share: " : "share for the responder: "));
      for (const m of amounts) row.append(clickable(make("button", "", String(m.value)), m));
      el.append(row);
    }

    if (v.seat !== null && v.seat !== undefined) {
      const hand = make("div", "hand");
      for (const c of v.hand) {
        const kind = c.name.split(" ")[0].toLowerCase();
        const card = make("div", `card k-${kind}`);
        card.dataset.card = c.name;
        card.title = c.rules;  // the card's text on hover
        card.append(make("div", "name", c.name), make("div", "count", c.count > 1 ? `×${c.count}` : ""));
        hand.append(clickable(card, byTarget("card", c.kind)));
      }
      el.append(make("h3", "", "Your hand"), hand);
    }
    if (v.last_event) el.append(make("p", "", `Last: ${v.last_event}`));
  },
};
