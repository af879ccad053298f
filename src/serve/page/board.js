// The Connect-k board: one button per column, discs that drop, a preview of where a disc lands,
// the line ringed at the end, and on a cylinder a ghost of the opposite edge column on each
// side, so that a line through the wall can be seen whole.
"use strict";

import { $, h } from "./common.js";

// What the board was built for, so that it is rebuilt only when that changes.
let built = null;
// Called with a column number when a column is clicked (or Enter is pressed on it), and with a
// column number or null when the pointer or focus moves over the columns.
let handlers = { play: () => {}, hover: () => {} };

export function onBoard(play, hover) {
  handlers = { play, hover };
}

// Builds the board for `width` x `height` (with ghost columns on a cylinder) if it is not built
// for them already.
export function buildBoard({ width, height, cylinder }) {
  const key = `${width}x${height}${cylinder ? "c" : ""}`;
  if (built === key) return;
  built = key;
  const board = $("board");
  document.documentElement.style.setProperty("--w", width + (cylinder ? 1 : 0));
  document.documentElement.style.setProperty("--h", height);
  document.documentElement.style.setProperty("--cols", width);
  $("plan-row").classList.toggle("cylinder", cylinder);
  const columns = [];
  for (let c = 1; c <= width; c++) columns.push(column(c, height, width));
  const ghost = (c, side) =>
    h("div", { class: `ghost ${side}`, "aria-hidden": "true", "data-of": c }, cells(height),
      h("span", { class: "wrap" }, side === "left" ? "↻" : "↺"));
  board.replaceChildren(...(cylinder ? [ghost(width, "left")] : []), ...columns, ...(cylinder ? [ghost(1, "right")] : []));
  board.classList.toggle("cylinder", cylinder);
  board.setAttribute("aria-label", cylinder
    ? `Board, a cylinder: column ${width} joins column 1. Click a column, or press its number`
    : "Board: click a column, or press its number");
}

function cells(height) {
  const list = [];
  // Rows counted from 1 at the bottom, as take-even counts them: it claims the even ones.
  for (let r = 0; r < height; r++) {
    list.push(h("div", { class: "cell", "data-row": r, "data-parity": r % 2 === 1 ? "even" : "odd" }));
  }
  return list;
}

function column(c, height, width) {
  const button = h("button", {
    type: "button",
    class: "col",
    "data-col": c,
    onclick: () => handlers.play(c),
    onmouseenter: () => handlers.hover(c),
    onmouseleave: () => handlers.hover(null),
    onfocus: () => handlers.hover(c),
    onblur: () => handlers.hover(null),
    onkeydown: (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      // Arrows wrap around, as the cylinder does (and a flat board's ends are one key apart).
      const next = ((c - 1 + step + width) % width) + 1;
      $("board").querySelector(`.col[data-col="${next}"]`).focus();
    },
  }, cells(height));
  return button;
}

// Draws the game: `moves` (column numbers), the cells of a finished line `[col0, row0]`, whose
// turn it is and whether this screen may play it, and whether the last disc drops in.
export function drawBoard({ width, height, moves, line, turn, playable, dropLast, over }) {
  const owner = new Map();
  const heights = new Array(width + 1).fill(0);
  moves.forEach((c, i) => {
    owner.set(`${c},${heights[c]}`, i % 2 === 0 ? "p1" : "p2");
    heights[c] += 1;
  });
  const last = moves.length ? moves[moves.length - 1] : null;
  const ringed = new Set(line.map(([c, r]) => `${c + 1},${r}`));
  const board = $("board");
  board.classList.toggle("turn-p1", turn === "P1" && playable);
  board.classList.toggle("turn-p2", turn === "P2" && playable);
  board.classList.toggle("over", over);
  for (const col of board.querySelectorAll(".col")) {
    const c = Number(col.dataset.col);
    const full = heights[c] >= height;
    col.classList.toggle("full", full);
    col.setAttribute("aria-label", columnLabel(c, height - heights[c], c === last));
    paint(col, c, { owner, heights, ringed, last, dropLast, height });
  }
  for (const ghost of board.querySelectorAll(".ghost")) {
    paint(ghost, Number(ghost.dataset.of), { owner, heights, ringed, last: null, dropLast: false, height });
  }
}

function columnLabel(c, free, last) {
  return `Column ${c}: ${free === 0 ? "full" : `${free} free`}${last ? ", last move" : ""}`;
}

// The discs, rings and landing cell of column `c`, drawn into the cells of `col`.
function paint(col, c, { owner, heights, ringed, last, dropLast, height }) {
  for (const cell of col.querySelectorAll(".cell")) {
    const r = Number(cell.dataset.row);
    const who = owner.get(`${c},${r}`);
    cell.className = "cell" + (who ? ` ${who}` : "");
    if (ringed.has(`${c},${r}`)) cell.classList.add("win");
    if (r === heights[c] && r < height) cell.classList.add("next");
    if (c === last && r === heights[c] - 1) {
      cell.classList.add("last");
      if (dropLast) {
        cell.style.setProperty("--fall", height - r);
        cell.classList.add("drop");
      }
    }
  }
}

// Puts `marks` ({ col, row, kind, label }) on the board's cells: a strategy's reply, a coach's
// move; removes the previous ones.
export function markCells(marks) {
  const board = $("board");
  for (const cell of board.querySelectorAll(".cell[data-mark]")) {
    delete cell.dataset.mark;
    cell.removeAttribute("title");
  }
  for (const { col, row, kind, label } of marks) {
    const cell = board.querySelector(`.col[data-col="${col}"] .cell[data-row="${row}"]`);
    if (!cell) continue;
    cell.dataset.mark = kind;
    if (label) cell.title = label;
  }
}

// Shakes a refused column.
export function refuseColumn(column) {
  const col = $("board").querySelector(`.col[data-col="${column}"]`);
  if (!col) return;
  col.classList.remove("refused");
  void col.offsetWidth; // restart the animation
  col.classList.add("refused");
}

export function columnIsFull(column) {
  const col = $("board").querySelector(`.col[data-col="${column}"]`);
  return Boolean(col && col.classList.contains("full"));
}
