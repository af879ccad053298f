// Quarto's pieces drawn as shapes: light or dark wood, tall or short, round or square, solid or
// hollow (a hole in the top), each with its name for screen readers. A piece's code has one
// letter per trait in this order (as `connectk quarto` writes it): L/D, S/T, R/Q, F/H; with
// fewer traits, the missing ones take their first value.
"use strict";

import { svg } from "./common.js";

const TRAITS = [
  { letters: "LD", names: ["light", "dark"] },
  { letters: "ST", names: ["short", "tall"] },
  { letters: "RQ", names: ["round", "square"] },
  { letters: "FH", names: ["solid", "hollow"] },
];

// The value (0 or 1) of each of the four traits in `code`.
export function traits(code) {
  return TRAITS.map((t, i) => (i < code.length && code[i].toUpperCase() === t.letters[1] ? 1 : 0));
}

// "light tall square hollow", the traits the game has.
export function pieceName(code) {
  return traits(code).slice(0, code.length).map((v, i) => TRAITS[i].names[v]).join(" ");
}

const WOOD = [
  { body: "#f2d7a0", top: "#f9e7c2", edge: "#7a5a2a", hole: "#8d6a36" },
  { body: "#6b4127", top: "#845236", edge: "#2a170b", hole: "#1e1008" },
];

// The piece `code` as an SVG of 40 x 48 units, standing on its base.
export function drawPiece(code) {
  const [dark, tall, square, hollow] = traits(code);
  const wood = WOOD[dark];
  const height = tall ? 30 : 16;
  const base = 44;
  const top = base - height;
  const body = square ? squareBody(top, base, wood) : roundBody(top, base, wood);
  const hole = hollow
    ? square
      ? svg("polygon", { points: `14,${top - 1} 22,${top - 4} 28,${top - 1} 20,${top + 2}`, fill: wood.hole })
      : svg("ellipse", { cx: 20, cy: top, rx: 6, ry: 2.2, fill: wood.hole })
    : null;
  return svg("svg", { viewBox: "0 0 40 48", class: "piece", "aria-hidden": "true", focusable: "false" }, body, hole);
}

function roundBody(top, base, wood) {
  return [
    svg("path", { d: `M8 ${top} V${base} A12 4 0 0 0 32 ${base} V${top}`, fill: wood.body, stroke: wood.edge, "stroke-width": 1.4 }),
    svg("ellipse", { cx: 20, cy: top, rx: 12, ry: 4, fill: wood.top, stroke: wood.edge, "stroke-width": 1.4 }),
  ];
}

function squareBody(top, base, wood) {
  // A box seen from the front and a little above: a front face and a top face.
  return [
    svg("polygon", { points: `8,${top} 20,${top + 4} 20,${base + 3} 8,${base - 1}`, fill: wood.body, stroke: wood.edge, "stroke-width": 1.4, "stroke-linejoin": "round" }),
    svg("polygon", { points: `20,${top + 4} 32,${top} 32,${base - 1} 20,${base + 3}`, fill: wood.body, stroke: wood.edge, "stroke-width": 1.4, "stroke-linejoin": "round", class: "shade" }),
    svg("polygon", { points: `8,${top} 20,${top - 4} 32,${top} 20,${top + 4}`, fill: wood.top, stroke: wood.edge, "stroke-width": 1.4, "stroke-linejoin": "round" }),
  ];
}
