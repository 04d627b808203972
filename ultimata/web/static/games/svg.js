// What every board view needs to draw: an SVG canvas of a given size and `add(tag, attrs, text)`.
"use strict";

window.ULTIMATA_SVG = {
  NS: "http://www.w3.org/2000/svg",
  canvas(width, height) {
    const NS = this.NS;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    return { svg, add };
  },
};
