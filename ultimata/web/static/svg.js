// What every board view needs to draw: an SVG canvas of a given size and `add(tag, attrs, text)`, a
// legend of swatches, a menu of the moves that share one spot on the board, and a line of text.
"use strict";

window.ULTIMATA_SVG = {
  NS: "http://www.w3.org/2000/svg",
  canvas(width, height) {
    const NS = this.NS;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    const add = (tag, attrs, text, parent = svg) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val);
      if (text !== undefined) e.textContent = text;
      parent.append(e);
      return e;
    };
    return { svg, add };
  },

  // A hover text on an SVG element.
  title(shape, text) {
    shape.append(Object.assign(document.createElementNS(this.NS, "title"), { textContent: text }));
    return shape;
  },

  // Makes `shape` play `list` (moves sharing this spot): one move plays at once, several open a menu.
  clickable(shape, list, play, stroke) {
    shape.classList.add("clickable");
    shape.setAttribute("data-action", list[0].action);
    if (stroke) shape.setAttribute("stroke", stroke);
    shape.style.cursor = "pointer";
    this.title(shape, list.map((m) => m.label).join(" / "));
    shape.addEventListener("click", (e) => (list.length === 1 ? play(list[0].action) : this.menu(e, list, play)));
    return shape;
  },

  // A small menu at the pointer listing the moves that share one spot ("attack with Sword / with Bow").
  menu(event, list, play) {
    document.querySelectorAll(".choice-menu").forEach((m) => m.remove());
    const box = document.createElement("div");
    box.className = "choice-menu";
    box.style.left = `${event.pageX + 6}px`;
    box.style.top = `${event.pageY + 6}px`;
    box.append(Object.assign(document.createElement("div"), { className: "menu-title", textContent: "choose:" }));
    for (const m of list) {
      const b = Object.assign(document.createElement("button"), { textContent: m.label });
      b.dataset.action = m.action;
      b.addEventListener("click", () => { box.remove(); play(m.action); });
      box.append(b);
    }
    const cancel = Object.assign(document.createElement("button"), { textContent: "cancel", className: "cancel" });
    cancel.addEventListener("click", () => box.remove());
    box.append(cancel);
    document.body.append(box);
    event.stopPropagation();
  },

  // A legend: each item {fill, stroke, shape: square|circle|triangle|arrow|diamond|text, mark, dash, text}.
  legend(items) {
    const box = document.createElement("div");
    box.className = "legend";
    for (const item of items) {
      const { svg, add } = this.canvas(22, 22);
      const stroke = item.stroke || "#555";
      const common = { fill: item.fill || "none", stroke, "stroke-width": item.width || 1.5 };
      if (item.dash) common["stroke-dasharray"] = "3 2";
      if (item.opacity) common.opacity = item.opacity;
      if (item.shape === "circle") add("circle", { cx: 11, cy: 11, r: 8, ...common });
      else if (item.shape === "triangle") add("polygon", { points: "11,3 3,19 19,19", ...common });
      else if (item.shape === "arrow") add("polygon", { points: "11,2 19,14 3,14", ...common });
      else if (item.shape === "diamond") add("polygon", { points: "11,2 20,11 11,20 2,11", ...common });
      else if (item.shape !== "text") add("rect", { x: 2, y: 4, width: 18, height: 14, rx: 2, ...common });
      if (item.mark) add("text", { x: 11, y: 15, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: item.ink || "#222" }, item.mark);
      const row = document.createElement("div");
      row.className = "legend-item";
      row.append(svg, Object.assign(document.createElement("span"), { textContent: item.text }));
      box.append(row);
    }
    return box;
  },

  // A div of lines of text (the info above a board).
  lines(className, texts) {
    const box = document.createElement("div");
    box.className = className;
    for (const t of texts) box.append(Object.assign(document.createElement("div"), { textContent: t }));
    return box;
  },
};

document.addEventListener("click", (e) => {
  if (!e.target.closest(".choice-menu")) document.querySelectorAll(".choice-menu").forEach((m) => m.remove());
});
