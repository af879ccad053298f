// The analysis: each column's value as a coloured badge above it, the best moves starred, a
// visible search in progress, the move on which the game ends, and the values of the game's
// earlier positions for the chart. Values come from the server's solver within its budget;
// what it has not found is shown as unknown, never guessed.
"use strict";

import { $, api, h, valueFor } from "./common.js";

// Values already found, by position: `${board}|${moves}` -> { outcome, remoteness }, each from
// its own position (remoteness: plies from there to the end).
const found = new Map();
// Positions the history has asked about, so that each is asked once.
const asked = new Set();

export const positionKey = (board, moves) => `${board}|${moves}`;

export function knownValue(key) {
  return found.get(key) || null;
}

// A finished game's value: its winner, no plies left.
export function learnEnd(key, state) {
  if (state && state.winner) remember(key, { outcome: state.winner, remoteness: 0 });
}

// Keeps a value, never replacing a better-known one with a weaker one.
function remember(key, value) {
  if (!value || !value.outcome) return;
  const had = found.get(key);
  if (!had || (had.remoteness == null && value.remoteness != null)) found.set(key, value);
}

// Learns from a `/api/solve` answer about the position `key` and its children (`childKey(c)`).
function learn(answer, key, childKey) {
  remember(key, { outcome: answer.outcome, remoteness: answer.remoteness });
  for (const record of answer.move_values || []) {
    if (!record.outcome) continue;
    const remoteness = record.remoteness == null ? null : record.remoteness - 1;
    remember(childKey(record.column), { outcome: record.outcome, remoteness });
  }
}

// How good a column's record is for the side to move: a win sooner, then a draw, then a loss
// later; an unknown count counts as the longest game.
function rank(record, side) {
  const value = valueFor(record, side);
  const n = value.n ?? 999;
  return { win: 2000 - n, draw: 0, loss: n - 2000, unknown: null }[value.kind];
}

// The columns to star: the best ones, once every column's outcome is known and when they are
// not all equal (then there is nothing to choose).
export function bestColumns(known, columns, side) {
  const ranks = columns.map((c) => rank(known.get(c), side));
  if (ranks.some((r) => r === null)) return [];
  const top = Math.max(...ranks);
  const best = columns.filter((_, i) => ranks[i] === top);
  return best.length < columns.length ? best : [];
}

// The badges: one per column (empty over a full one), the best ones starred, "…" while
// the search goes on.
export function drawBadges({ width, side, known, open, searching, cylinder }) {
  const values = $("values");
  values.classList.toggle("cylinder", cylinder);
  const best = new Set(bestColumns(known, open, side));
  // On narrow columns the word is its first letter; the full text is in the label.
  const column = $("board").querySelector(".col");
  const narrow = Boolean(column) && column.getBoundingClientRect().width < 40;
  const badges = [];
  for (let c = 1; c <= width; c++) {
    badges.push(badge(c, open.includes(c) ? known.get(c) : undefined, side, best.has(c), searching, narrow));
  }
  values.replaceChildren(...badges);
}

function badge(column, record, side, best, searching, narrow) {
  if (record === undefined && !searching) {
    return h("span", { class: "badge none", "data-testid": "column-value", "data-col": column });
  }
  const value = valueFor(record, side);
  const pending = searching && (value.kind === "unknown" || value.n == null);
  const kind = value.kind === "unknown" && pending ? "thinking" : value.kind;
  const word = kind === "thinking" ? "…" : narrow ? value.word.charAt(0).toUpperCase() : value.word;
  const label = kind === "thinking"
    ? `column ${column}: still searching`
    : `column ${column}: ${value.kind === "unknown" ? "not found within the time budget" : `${value.text} for ${side}`}${value.kind !== "unknown" && value.n == null && !pending ? " (plies not found within the time budget)" : ""}${best ? ", best move" : ""}`;
  return h("span", {
    class: `badge ${kind}${pending ? " pending" : ""}${best ? " best" : ""}`,
    "data-testid": "column-value",
    "data-col": column,
    "data-kind": kind,
    title: label,
    "aria-label": label,
  },
  best ? h("span", { class: "star", "data-testid": "best-move", "data-col": column, "aria-hidden": "true" }, "★") : null,
  h("span", { class: "word" }, word),
  h("span", { class: "n" }, countText(value, pending)));
}

// The plies under the word: the count, "…" while it is searched, "?" once given up on.
function countText(value, pending) {
  if (value.n != null) return String(value.n);
  if (value.kind === "unknown") return "";
  return pending ? "…" : "?";
}

// Asks for the values of the position `params` in passes: outcomes first, then exact values;
// while an outcome or a count is still unknown, up to two more passes of each, every pass going
// on from the table the earlier ones filled. `update(known, answer, done)` is called after each;
// `current()` says whether the answer is still wanted.
export async function analyse({ params, key, childKey, current, update, signal }) {
  const known = new Map();
  let answer = null;
  const passes = [1, 0, 1, 1, 0, 0];
  for (const [pass, weak] of passes.entries()) {
    const records = [...known.values()];
    const outcomesKnown = records.every((r) => r.outcome);
    const countsKnown = records.every((r) => r.outcome && r.remoteness != null);
    if (pass > 0 && countsKnown) break;
    // The extra passes: for outcomes while one is unknown, then for counts once all are known.
    if (pass >= 2 && (weak ? outcomesKnown : !outcomesKnown)) continue;
    answer = await api("GET", "/api/solve", { ...params, analyze: 1, weak }, signal);
    if (!current()) return null;
    merge(known, answer);
    learn(answer, key, childKey);
    update(known, answer, false);
  }
  update(known, answer, true);
  return known;
}

function merge(known, answer) {
  for (const record of answer.move_values || []) {
    const had = known.get(record.column);
    const better = !had || (record.outcome && (!had.outcome || (had.remoteness == null && record.remoteness != null)));
    if (better) known.set(record.column, record);
  }
}

// The line under the board while the search goes on: how many columns are settled and for
// how long it has searched; afterwards what is still unknown, if anything.
export function drawProgress({ known, open, started, done }) {
  const line = $("thinking");
  const settled = open.filter((c) => {
    const r = known.get(c);
    return r && r.outcome && r.remoteness != null;
  }).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!done) {
    line.hidden = false;
    line.classList.add("busy");
    line.textContent = `Searching: ${settled} of ${open.length} columns settled, ${seconds} s`;
    return;
  }
  line.classList.remove("busy");
  const outcomes = open.filter((c) => known.get(c) && known.get(c).outcome).length;
  line.hidden = settled === open.length;
  line.textContent = outcomes < open.length
    ? `Not found within the server's time budget (${seconds} s): ${open.length - outcomes} of ${open.length} columns' outcomes (shown "?").`
    : `${open.length - settled} of ${open.length} columns' ply counts were not found within the server's time budget (${seconds} s).`;
}

// "Show the game's end": the move on which the game ends under perfect play from the position
// after `plies` moves, from its value `{outcome, remoteness}`.
export function endText(value, plies, rules) {
  if (!value || !value.outcome) return "The game's end under perfect play: not known yet.";
  if (value.remoteness == null) {
    const who = value.outcome === "Draw" ? "a draw" : `${value.outcome} wins`;
    return `Under perfect play from here: ${who}; the move it ends on is not known yet.`;
  }
  const end = plies + value.remoteness;
  if (value.outcome === "Draw") return `Under perfect play from here the board fills on move ${end}: a draw.`;
  const loser = value.outcome === "P1" ? "P2" : "P1";
  const how = rules === "misere" ? `${loser} is forced to complete a line` : `${value.outcome} completes a line`;
  return `Under perfect play from here the game ends on move ${end}: ${how}, and ${value.outcome} wins.`;
}

// Asks, one position at a time and latest first, for the values of the game's positions the
// chart does not know yet (each asked once); `redraw()` after each answer.
export async function fillHistory({ keys, paramsOf, current, redraw, signal }) {
  for (let ply = keys.length - 1; ply >= 0; ply--) {
    const key = keys[ply];
    if (found.has(key) && found.get(key).remoteness != null) continue;
    if (asked.has(key)) continue;
    asked.add(key);
    for (const weak of [0, 1]) {
      const had = found.get(key);
      if (had && (weak || had.remoteness != null)) break;
      try {
        const answer = await api("GET", "/api/solve", { ...paramsOf(ply), weak }, signal);
        remember(key, { outcome: answer.outcome, remoteness: answer.remoteness });
      } catch (_) {
        asked.delete(key); // aborted, or a busy server: the next change asks again
        return;
      }
      if (!current()) return;
    }
    redraw();
  }
}
