// The game's value over time (after GamesmanUni's visual value history): one point per
// position from the empty board on, from P1's side. P1's wins above the axis, P2's below,
// draws on it; the sooner the game ends, the farther from the axis. Moves that threw away a
// win or a draw are ringed in red. A click (or Enter) on a point goes to that position.
"use strict";

import { svg } from "./common.js";

const HEIGHT = 190;
const MARGIN = { left: 70, right: 12, top: 14, bottom: 26 };
// Room between the labels and the first point.
const INSET = 12;

// Where the point of `value` goes between the axis (0) and an edge (1 above, -1 below), and
// whether its height is known (an outcome without its count sits halfway, drawn hollow).
function level(value, longest) {
  if (!value || !value.outcome) return { y: 0, exact: false, known: false };
  if (value.outcome === "Draw") return { y: 0, exact: value.remoteness != null, known: true };
  const sign = value.outcome === "P1" ? 1 : -1;
  if (value.remoteness == null) return { y: sign * 0.5, exact: false, known: true };
  // Even the longest win stays clear of the axis, where the draws are.
  return { y: sign * (0.15 + 0.85 * (1 - value.remoteness / (longest + 1))), exact: true, known: true };
}

// The positions where the player to move threw away a win or a draw: for each ply p >= 1,
// whether the move into it lost value for the mover, as a sentence.
export function mistakes(values) {
  const found = [];
  for (let p = 1; p < values.length; p++) {
    const before = values[p - 1];
    const after = values[p];
    if (!before || !after || !before.outcome || !after.outcome) continue;
    const mover = p % 2 === 1 ? "P1" : "P2";
    if (before.outcome === mover && after.outcome !== mover) {
      found[p] = `${mover}'s move ${p} threw away a win (${after.outcome === "Draw" ? "now a draw" : "now a loss"})`;
    } else if (before.outcome === "Draw" && after.outcome !== "Draw" && after.outcome !== mover) {
      found[p] = `${mover}'s move ${p} threw away a draw (now a loss)`;
    }
  }
  return found;
}

function describe(ply, value) {
  const at = ply === 0 ? "Start" : `After move ${ply}`;
  if (!value || !value.outcome) return `${at}: value not known`;
  const n = value.remoteness;
  if (value.outcome === "Draw") return `${at}: a draw${n != null ? `, ${n} plies to the end` : ""}`;
  return `${at}: ${value.outcome} wins${n != null ? ` in ${n} plies` : " (plies not known)"}`;
}

// Draws the chart into `element` for `values` (one per position, null when unknown), the
// position shown `current`, the end under perfect play `endPly` (or null), `pick(ply)` on click.
export function drawChart(element, { values, current, endPly, pick }) {
  const width = Math.max(280, element.clientWidth || element.parentElement.clientWidth || 600);
  const plies = values.length - 1;
  const span = Math.max(8, plies, endPly ?? 0);
  const longest = Math.max(8, ...values.map((v) => (v && v.remoteness) || 0));
  const inner = { w: width - MARGIN.left - MARGIN.right, h: HEIGHT - MARGIN.top - MARGIN.bottom };
  const x = (ply) => MARGIN.left + INSET + (ply / span) * (inner.w - INSET);
  const mid = MARGIN.top + inner.h / 2;
  const y = (l) => mid - (l * inner.h) / 2;
  element.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
  element.setAttribute("height", HEIGHT);
  const levels = values.map((v) => level(v, longest));
  const bad = mistakes(values);
  element.replaceChildren(
    frame(width, x, y, span, mid),
    endPly != null ? svg("line", { class: "end", x1: x(endPly), x2: x(endPly), y1: MARGIN.top, y2: HEIGHT - MARGIN.bottom }) : null,
    svg("line", { class: "now", x1: x(current), x2: x(current), y1: MARGIN.top, y2: HEIGHT - MARGIN.bottom }),
    trace(levels, x, y),
    ...values.map((value, ply) => point({ ply, value, at: [x(ply), y(levels[ply].y)], lv: levels[ply], mistake: bad[ply], current, pick })),
  );
}

// The axis, the edges and their labels, and the ply numbers.
function frame(width, x, y, span, mid) {
  const group = svg("g", { class: "frame", "aria-hidden": "true" });
  const right = width - MARGIN.right;
  group.append(
    svg("rect", { class: "p1-zone", x: MARGIN.left, y: y(1), width: right - MARGIN.left, height: mid - y(1) }),
    svg("rect", { class: "p2-zone", x: MARGIN.left, y: mid, width: right - MARGIN.left, height: y(-1) - mid }),
    svg("line", { class: "axis", x1: MARGIN.left, x2: right, y1: mid, y2: mid }),
    svg("text", { x: MARGIN.left - 6, y: y(0.85), class: "label p1" }, "P1 wins"),
    svg("text", { x: MARGIN.left - 6, y: mid + 4, class: "label" }, "draw"),
    svg("text", { x: MARGIN.left - 6, y: y(-0.85) + 8, class: "label p2" }, "P2 wins"),
  );
  const step = span > 40 ? 10 : 5;
  for (let p = 0; p <= span; p += step) {
    group.append(svg("text", { x: x(p), y: HEIGHT - 8, class: "tick" }, String(p)));
  }
  return group;
}

// The line through the known points, broken where a value is unknown.
function trace(levels, x, y) {
  const parts = [];
  let run = [];
  levels.forEach((lv, ply) => {
    if (lv.known) {
      run.push(`${x(ply).toFixed(1)},${y(lv.y).toFixed(1)}`);
    } else if (run.length) {
      parts.push(run);
      run = [];
    }
  });
  if (run.length) parts.push(run);
  return svg("g", { class: "trace", "aria-hidden": "true" },
    parts.map((p) => svg("polyline", { points: p.join(" ") })));
}

function point({ ply, value, at: [cx, cy], lv, mistake, current, pick }) {
  const kind = !lv.known ? "unknown" : value.outcome === "Draw" ? "draw" : value.outcome.toLowerCase();
  const label = describe(ply, value) + (mistake ? `. ${mistake}` : "");
  const go = () => pick(ply);
  return svg("g", {
    class: `point ${kind}${lv.exact ? "" : " inexact"}${ply === current ? " current" : ""}${mistake ? " mistake" : ""}`,
    "data-ply": ply,
    tabindex: 0,
    role: "button",
    "aria-label": label,
    onclick: go,
    onkeydown: (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        go();
      }
    },
  },
  svg("title", {}, label),
  // A wide target, easier to hit on a phone than the dot itself.
  svg("rect", { class: "hit", x: cx - 7, y: MARGIN.top, width: 14, height: HEIGHT - MARGIN.top - MARGIN.bottom }),
  mistake ? svg("circle", { class: "ring", cx, cy, r: 9 }) : null,
  kind === "draw"
    ? svg("rect", { class: "dot", x: cx - 4.5, y: cy - 4.5, width: 9, height: 9, transform: `rotate(45 ${cx} ${cy})` })
    : svg("circle", { class: "dot", cx, cy, r: kind === "unknown" ? 3.5 : 5 }));
}
