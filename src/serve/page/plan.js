// The paper's strategies on the board: what the chosen strategy will do from here and why,
// as the server's library computes it (`/api/plan`): its move now, or its reply to each move
// of the opponent, with the rule that picks it; the bottom row's pairs, the tally or the
// canonical boards it reads. A student can watch the strategy win and see the rule that wins.
"use strict";

import { $, h, mark, other } from "./common.js";

const PAPER = "https://arxiv.org/abs/2410.05551";

// Where each strategy is proved, and the rule in one sentence.
const ABOUT = {
  "take-even": {
    section: "Theorem 1 and Corollary 1 (§III.A–B)",
    rule: "P2 answers every move on top of it. The height is even, so P1 only ever finds odd rows and P2 the even row above; when the columns fill, P1 must complete a line.",
  },
  "delayed-take-even": {
    section: "Theorem 2 and Corollary 2 (§III.C)",
    rule: "Row 0, the bottom row, is played as a row of its own (Theorem 3's pairing, or the tally play for k = 2); above it the even board space is played by take-even. Whoever must first leave row 0 for the even board space loses.",
  },
  pairing: {
    section: "Theorem 3 (§III.D)",
    rule: "Cells are paired from the left, (1,2), (3,4), …. Take-other: when the opponent takes half of a pair, take the other half. Rightmost: otherwise take the rightmost empty cell. No three in a row can appear.",
  },
  tally: {
    section: "Lemmas 1 and 2, Theorem 4 (§III.E)",
    rule: "With k = 2 every disc sets a template of alternating cells; the tally counts the in-template moves each player has left. P2 steers it with in-template, offensive and double-contradiction plays until P1 runs out first.",
  },
  canonical: {
    section: "Lemmas 3 and 4, Theorem 5 (Appendix A)",
    rule: "The row is cut into canonical boards A to E (stretches of empty cells and the player's discs at their ends); the player plays them in an order of priority and never makes three in a row.",
  },
};

// Draws the plan: the panel's explanation, the reply under each column, the pairs or boards
// under the row; `hover` is the column the pointer or focus is on (its reply is explained).
export function drawPlan(plan, { hover, humanSide, botSide }) {
  const panel = $("plan-panel");
  const row = $("plan-row");
  if (!plan) {
    panel.hidden = true;
    row.hidden = true;
    return [];
  }
  const about = ABOUT[plan.strategy];
  const whose = plan.player === botSide ? "The opponent plays" : plan.player === humanSide ? "Coach for you" : "Coach";
  panel.hidden = false;
  panel.replaceChildren(...[
    h("h2", {}, `${whose}: ${plan.strategy} (${plan.player}, ${mark(plan.player)})`),
    h("p", { class: "rule" }, about.rule),
    h("p", { class: "note" }, "Proved in ", h("a", { href: PAPER, rel: "noopener" }, `Steele & Larremore, ${about.section}`),
      plan.proof ? `; Table I names it for this board (${plan.proof}).` : "; Table I names another strategy (or none) for this board."),
    explanation(plan, hover),
    extras(plan),
  ].filter(Boolean));
  drawRow(plan, row);
  return marks(plan, hover);
}

// The sentence for the move in question: the strategy's move now, or its reply to the hovered
// column (or, with none hovered, a hint to hover one).
function explanation(plan, hover) {
  if (plan.outside) return h("p", { class: "why" }, `Outside the strategy's proof here: ${plan.outside}.`);
  if (plan.now) {
    const { column, row, why } = plan.now;
    return h("p", { class: "why", "data-testid": "plan-now", "data-col": column },
      h("strong", {}, `Now: column ${column}, row ${row + 1}. `), `${capital(why)}.`);
  }
  const reply = plan.replies.find((r) => r.column === hover);
  if (!reply) {
    return plan.replies.length
      ? h("p", { class: "why" }, "Point at a column (or move to it with the arrow keys): the strategy's reply is shown on the board and explained here. The number under each column is its reply.")
      : null;
  }
  if (!reply.answer) return h("p", { class: "why" }, `If you play column ${reply.column}: ${reply.note}.`);
  const a = reply.answer;
  return h("p", { class: "why", "data-testid": "plan-why", "data-col": reply.column },
    h("strong", {}, `If you play column ${reply.column} (row ${reply.row + 1}), ${plan.strategy} answers column ${a.column}, row ${a.row + 1}. `),
    `${capital(a.why)}.`);
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// What the strategy reads on the bottom row, in words.
function extras(plan) {
  if (plan.tally) {
    return h("p", { class: "note" }, `Tally (moves left in template): X ${plan.tally[0]}, O ${plan.tally[1]}.`);
  }
  if (plan.pairs.length) {
    return h("p", { class: "note" }, `Row 0's pairs, bracketed under the board: ${plan.pairs.map((p) => `(${p.join(", ")})`).join(" ")}.`);
  }
  if (plan.boards.length) {
    return h("p", { class: "note" }, `Canonical boards of row 0 for ${plan.player}: ${plan.boards.map((b) => `${b.name} (columns ${b.columns[0]}–${b.columns[1]})`).join(", ")}.`);
  }
  if (plan.strategy === "take-even") {
    return h("p", { class: "note" }, "The even rows (2, 4, …, counted from 1 at the bottom) are shaded: take-even claims them.");
  }
  return null;
}

// Under the board: each column's reply (a number), and the pairs or canonical boards of the
// bottom row as brackets.
function drawRow(plan, row) {
  const width = Number($("board").querySelectorAll(".col").length);
  const cells = [];
  for (let c = 1; c <= width; c++) {
    const reply = plan.replies.find((r) => r.column === c);
    const text = reply ? (reply.answer ? `→${reply.answer.column}` : "·") : "";
    cells.push(h("span", {
      class: "reply",
      "data-testid": "plan-reply",
      "data-col": c,
      "data-answer": reply && reply.answer ? reply.answer.column : "",
      title: reply ? (reply.answer ? `${plan.strategy} answers column ${reply.answer.column}` : reply.note) : "",
    }, text));
  }
  const groups = plan.pairs.map((pair) => bracket(pair[0], pair[pair.length - 1], pair.length === 2 ? "pair" : "single"));
  const boards = plan.boards.map((b) => bracket(b.columns[0], b.columns[1], b.name));
  row.replaceChildren(h("div", { class: "replies" }, cells));
  if (groups.length || boards.length) row.append(h("div", { class: "brackets" }, groups, boards));
  row.hidden = false;
  $("board").classList.toggle("claims-even", plan.strategy === "take-even");
}

function bracket(first, last, label) {
  const span = h("span", { class: "bracket", title: label }, label === "pair" ? "" : label);
  span.style.setProperty("--from", first);
  span.style.setProperty("--to", last + 1);
  return span;
}

// The board cells to mark: the strategy's move now, or the reply to the hovered column.
function marks(plan, hover) {
  if (plan.now) {
    return [{ col: plan.now.column, row: plan.now.row, kind: `plan-${plan.player.toLowerCase()}`, label: `${plan.strategy}: ${plan.now.rule}` }];
  }
  const reply = plan.replies.find((r) => r.column === hover && r.answer);
  if (!reply) return [];
  return [
    { col: reply.column, row: reply.row, kind: `plan-${other(plan.player).toLowerCase()}`, label: "your move" },
    { col: reply.answer.column, row: reply.answer.row, kind: `plan-${plan.player.toLowerCase()}`, label: `${plan.strategy}'s reply: ${reply.answer.rule}` },
  ];
}

// Clears what the plan drew on and under the board.
export function clearPlan() {
  $("plan-panel").hidden = true;
  $("plan-row").hidden = true;
  $("board").classList.remove("claims-even");
}
