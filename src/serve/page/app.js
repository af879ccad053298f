// connectk's game page. The server decides everything about the rules (legal moves, the end
// of the game, the cells of the line, every value); this script only draws, asks and sends.
"use strict";

import { $, aborted, announce, api, copyText, h, mark, other, readableQuery, typing, valueFor } from "./common.js";
import { buildBoard, columnIsFull, drawBoard, markCells, onBoard, refuseColumn } from "./board.js";
import { analyse, drawBadges, drawProgress, endText, fillHistory, knownValue, learnEnd, positionKey } from "./analysis.js";
import { drawChart, mistakes } from "./chart.js";
import { clearPlan, drawPlan } from "./plan.js";
import { createRoom, leaveRoom, openRoom, roomMove, send, useRooms } from "./rooms.js";

const DEFAULTS = { rules: "normal", k: 4, width: 7, height: 6, topology: "flat", opponent: "human", first: "me" };
const STRATEGIES = ["take-even", "delayed-take-even", "pairing", "tally", "canonical"];

const page = {
  settings: { ...DEFAULTS, seed: 0 },
  line: [], // the game's moves (columns from 1), past `ply` when stepped back
  ply: 0, // the position shown: after the first `ply` moves of `line`
  state: null, // the server's GameState of that position
  resigned: null, // { winner, reason, message, ply } after a resignation at this screen
  thinking: false, // the bot's answer is on its way
  sending: false, // a move of this screen is on its way to the server
  generation: 0, // bumped by every change, so that answers for an old position are dropped
  abort: new AbortController(), // aborts the requests of an old position
  room: null,
  offers: [],
  table1: null,
  hover: null, // the column under the pointer or focus
  clicked: null, // when this screen's last move was clicked (performance.now())
  plan: null, // the strategy's plan of this position
  endValue: null, // this position's value, for "Show the game's end"
  announced: "", // the last ending read out
};
const states = new Map(); // GameState by position key

// ---------------------------------------------------------------- the game

const current = () => page.line.slice(0, page.ply);
const toMove = (moves = current()) => (moves.length % 2 === 0 ? "P1" : "P2");
const cylinder = () => page.settings.topology === "cylinder";

// A move string: digits on boards up to 9 wide, else comma-separated numbers (`10,` for one).
function moveText(moves, width = page.settings.width) {
  if (width <= 9) return moves.join("");
  const text = moves.join(",");
  return moves.length === 1 ? `${text},` : text;
}

// The columns of a move string the server wrote.
const columnsOf = (text) => (text.includes(",") ? text.split(",") : text.split("")).filter((p) => p !== "").map(Number);

function boardParams(moves = current(), settings = page.settings) {
  const { rules, k, width, height, topology } = settings;
  return { rules, k, width, height, topology, moves: moveText(moves, width) };
}

const boardName = (s = page.settings) => `${s.rules}-${s.k}-${s.width}x${s.height}-${s.topology}`;
const keyOf = (moves) => positionKey(boardName(), moveText(moves));

function botSide() {
  if (page.room || page.settings.opponent === "human") return null;
  return page.settings.first === "me" ? "P2" : "P1";
}

function humanSide() {
  if (page.room) return page.room.seat;
  const bot = botSide();
  return bot ? other(bot) : null; // null: both sides are played at this screen
}

// Starts a new generation: answers for the old one are dropped and its requests aborted.
function fresh() {
  page.abort.abort();
  page.abort = new AbortController();
  return ++page.generation;
}

async function stateOf(moves, settings = page.settings) {
  const key = positionKey(boardName(settings), moveText(moves, settings.width));
  if (!states.has(key)) states.set(key, await api("GET", "/api/state", boardParams(moves, settings)));
  return states.get(key);
}

function ending() {
  if (page.room && page.room.view) return page.room.view.ending;
  if (page.resigned && page.resigned.ply === page.ply) return page.resigned;
  const st = page.state;
  if (!st || !st.winner) return null;
  const winner = st.winner === "Draw" ? null : st.winner;
  if (st.reason === "board-full") return { winner, reason: "board-full", message: "the board is full" };
  const by = st.completed_by;
  const message = st.rules === "misere"
    ? `${by} completed a line of ${st.k} and so loses (misère rules)`
    : `${by} made a line of ${st.k} and wins`;
  return { winner, reason: "line", message };
}

function endingText(end) {
  const who = end.winner ? `${end.winner} (${mark(end.winner)}) wins` : "Draw";
  return `${who}: ${end.message}.`;
}

// Shows the position after `ply` moves of the line, then asks what it needs: its state, the
// analysis, the plan, and the bot's move when it is the bot's turn at the end of the line.
async function show(ply, { dropLast = false } = {}) {
  const generation = fresh();
  page.ply = ply;
  page.thinking = false;
  page.hover = null;
  try {
    const state = await stateOf(current());
    if (generation !== page.generation) return;
    page.state = state;
  } catch (error) {
    return showError(error.message);
  }
  learnEnd(keyOf(current()), page.state);
  render({ dropLast });
  saveUrl();
  if (botTurnAtEnd()) return botMove();
  refreshAnalysis();
  refreshPlan();
}

const botTurnAtEnd = () => !page.room && !ending() && page.ply === page.line.length && toMove() === botSide();

// ---------------------------------------------------------------- playing

function refuse(column, message) {
  refuseColumn(column);
  showError(message);
}

async function play(column) {
  showError("");
  if (page.room) return roomMove(column, { full: columnIsFull(column), turn: toMove() });
  if (ending()) return refuse(column, "The game is over: go back a move, or start a new game.");
  if (page.sending) return;
  if (page.thinking) return refuse(column, `Wait for ${page.settings.opponent}'s move.`);
  const human = humanSide();
  if (human && toMove() !== human) {
    return refuse(column, `It is ${page.settings.opponent}'s turn in this position: press Forward for the move it played, or go back to one of your turns.`);
  }
  const moves = [...current(), column];
  // The moment of the click, from which the answer and the values are timed.
  page.clicked = performance.now();
  page.sending = true;
  try {
    await stateOf(moves);
  } catch (error) {
    return refuse(column, error.message);
  } finally {
    page.sending = false;
  }
  // The same move as the line's next one keeps the rest of the line (a redo).
  if (page.line[page.ply] !== column) page.line = moves;
  page.resigned = null;
  announce(`${human ? "You" : toMove()} played column ${column}`);
  await show(page.ply + 1, { dropLast: true });
}

async function botMove() {
  const generation = page.generation;
  page.thinking = true;
  renderStatus();
  const started = performance.now();
  try {
    const answer = await api("GET", "/api/move", {
      ...boardParams(),
      player: page.settings.opponent,
      seed: page.settings.seed,
    }, page.abort.signal);
    if (generation !== page.generation) return;
    performance.measure("bot-answer", { start: page.clicked ?? started, end: performance.now(), detail: { ply: page.ply } });
    page.thinking = false;
    page.line = [...current(), answer.column];
    states.set(keyOf(page.line), answer.state);
    $("bot-note").textContent = answer.complete
      ? ""
      : `${answer.player} chose column ${answer.column} from what it found within the server's time budget.`;
    announce(`${answer.player} played column ${answer.column}`);
    await show(page.ply + 1, { dropLast: true });
  } catch (error) {
    if (generation !== page.generation || aborted(error)) return;
    page.thinking = false;
    renderStatus();
    showError(`${page.settings.opponent} could not move: ${error.message}`);
  }
}

function go(ply) {
  if (page.room) return;
  const target = Math.max(0, Math.min(page.line.length, ply));
  if (target === page.ply && !page.thinking) return;
  showError("");
  show(target);
}

function resign() {
  if (ending() || current().length === 0) return;
  if (page.room) return send({ type: "resign" });
  const loser = humanSide() || toMove();
  fresh();
  page.thinking = false;
  page.line = current();
  page.resigned = { winner: other(loser), reason: "resignation", message: `${loser} resigned`, ply: page.ply };
  render();
  refreshAnalysis();
}

// ---------------------------------------------------------------- drawing

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function render({ dropLast = false } = {}) {
  const s = page.settings;
  buildBoard({ width: s.width, height: s.height, cylinder: cylinder() });
  const end = ending();
  drawBoard({
    width: s.width,
    height: s.height,
    moves: current(),
    line: (page.state && page.state.winning_cells) || [],
    turn: toMove(),
    playable: canPlay(),
    dropLast,
    over: Boolean(end),
  });
  renderStatus();
  renderMoves();
  renderSummary();
  // A room's game is played without the solver's help.
  for (const id of ["analysis", "show-end", "coach"]) $(id).disabled = Boolean(page.room);
  const caption = $("board-caption");
  caption.hidden = !cylinder();
  caption.textContent = `A cylinder: column ${s.width} joins column 1, so lines run through the wall; each side shows half of the column beyond it.`;
  if (end && page.announced !== `${page.ply}:${endingText(end)}`) {
    page.announced = `${page.ply}:${endingText(end)}`;
    announce(`Game over. ${endingText(end)}`);
    // On a phone the ringed line must be in view, whatever the result's text took.
    $("board").scrollIntoView({ block: "nearest" });
  }
}

function canPlay() {
  if (ending() || page.thinking) return false;
  if (page.room) return page.room.seat === toMove() && page.room.view && page.room.view.started;
  return !humanSide() || humanSide() === toMove();
}

function renderStatus() {
  const end = ending();
  const result = $("result");
  result.hidden = !end;
  if (end) {
    result.textContent = endingText(end);
    result.dataset.reason = end.reason;
  } else {
    delete result.dataset.reason;
  }
  // At the end the result says it all, and leaves the board where it was.
  $("status").textContent = end ? "" : turnText();
  $("status").classList.toggle("busy", page.thinking);
  $("status").dataset.turn = end ? "" : toMove();
  $("resign").disabled = Boolean(end) || page.thinking || current().length === 0 ||
    Boolean(page.room && (!page.room.seat || !page.room.view.started));
  renderNav();
}

function turnText() {
  const side = toMove();
  const text = `${side} (${mark(side)}) to move`;
  if (page.room) {
    const view = page.room.view;
    if (view && !view.started) return "Waiting for the second player to open the link.";
    if (side === page.room.seat) return `${text}: your move.`;
    return page.room.seat ? `${text}: waiting for your friend.` : `${text} (you are watching).`;
  }
  if (page.thinking) return `${text}: ${page.settings.opponent} is thinking…`;
  if (humanSide() === side) return `${text}: your move.`;
  if (botSide() === side) return `${text}: ${page.settings.opponent}'s turn (Forward shows the move it played).`;
  return `${text}.`;
}

function renderNav() {
  const atStart = page.ply === 0;
  const atEnd = page.ply === page.line.length;
  const off = Boolean(page.room);
  $("first").disabled = off || atStart;
  $("back").disabled = off || atStart;
  $("forward").disabled = off || atEnd;
  $("last").disabled = off || atEnd;
  // A button disabled under the focus would drop a keyboard user's place to the top of the
  // page: the focus goes to the button that walks the other way instead.
  const focused = document.activeElement;
  const other = { first: "last", back: "forward", forward: "back", last: "first" }[focused?.id];
  if (other && focused.disabled && !$(other).disabled) $(other).focus();
  $("ply").textContent = `move ${page.ply} of ${page.line.length}`;
}

// The move list: one button per move (a jump there), coloured by its value for the mover
// when known, with the moves that threw away a win or a draw marked.
function renderMoves() {
  const values = historyValues();
  const bad = mistakes(values);
  const list = $("move-list");
  const item = (ply, text, value) => h("li", {},
    h("button", {
      type: "button",
      class: `move ${value ? value.kind : ""}`,
      "data-ply": ply,
      "aria-current": ply === page.ply ? "step" : false,
      title: bad[ply] || (value && value.kind !== "unknown" ? `${value.text} for the mover` : ""),
      onclick: () => go(ply),
    }, text, bad[ply] ? h("span", { class: "blunder", "aria-label": bad[ply] }, " ✗") : null));
  list.replaceChildren(
    item(0, "start", null),
    ...page.line.map((c, i) => {
      const mover = i % 2 === 0 ? "P1" : "P2";
      return item(i + 1, `${i + 1}. ${mover} ${c}`, valueFor(values[i + 1], mover));
    }),
  );
  // Keeps the current move in view inside the list, never scrolling the page itself.
  const shown = list.querySelector('[aria-current="step"]');
  if (shown) {
    const top = shown.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - shown.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
  $("notation").textContent = moveText(current()) || "(none)";
  $("share").href = gameUrl();
}

function renderSummary() {
  const s = page.settings;
  const against = page.room ? "a friend (room)" : s.opponent === "human" ? "a human at this screen" : s.opponent;
  $("settings-summary").textContent =
    `Settings: ${s.rules === "misere" ? "misère" : "normal"} ${s.width}x${s.height}, k = ${s.k}${cylinder() ? ", cylinder" : ""}; against ${against}`;
}

// ---------------------------------------------------------------- analysis

function historyValues() {
  const values = [];
  for (let p = 0; p <= page.line.length; p++) values.push(knownValue(keyOf(page.line.slice(0, p))));
  return values;
}

function openColumns() {
  return [...$("board").querySelectorAll(".col:not(.full)")].map((c) => Number(c.dataset.col));
}

function drawHistory() {
  if ($("analysis").checked && !page.room) {
    const endPly = $("show-end").checked && page.endValue && page.endValue.remoteness != null
      ? page.ply + page.endValue.remoteness
      : null;
    drawChart($("chart"), { values: historyValues(), current: page.ply, endPly, pick: go });
  }
  renderMoves();
}

function drawEnd() {
  const box = $("game-end");
  box.hidden = !$("show-end").checked || page.room;
  if (!box.hidden) {
    box.textContent = ending() ? `The game ended on move ${page.ply}.` : endText(page.endValue, page.ply, page.settings.rules);
  }
}

async function refreshAnalysis() {
  const analysisOn = $("analysis").checked && !page.room;
  const endOn = $("show-end").checked && !page.room;
  $("values").hidden = !analysisOn || Boolean(ending());
  $("analysis-box").hidden = !(analysisOn || endOn);
  $("chart").closest("figure").hidden = !analysisOn;
  $("thinking").hidden = true;
  page.endValue = knownValue(keyOf(current()));
  showTable1();
  if (!analysisOn && !endOn) return;
  const open = ending() ? [] : openColumns();
  drawBadges({ width: page.settings.width, side: toMove(), known: new Map(), open, searching: open.length > 0, cylinder: cylinder() });
  drawEnd();
  drawHistory();
  if (open.length) await searchValues(open);
  if (analysisOn) fillChart();
}

// The analysis of the position shown, drawn as its passes come in.
async function searchValues(open) {
  const generation = page.generation;
  const started = performance.now();
  let known = new Map();
  let done = false;
  const progress = () => drawProgress({ known, open, started, done });
  const timer = setInterval(progress, 200);
  const update = (values, answer, finished) => {
    known = values;
    done = finished;
    page.endValue = knownValue(keyOf(current())) || (answer && { outcome: answer.outcome, remoteness: answer.remoteness });
    drawBadges({ width: page.settings.width, side: toMove(), known, open, searching: !finished, cylinder: cylinder() });
    progress();
    drawEnd();
    drawHistory();
    if (finished) {
      const settled = open.every((c) => known.get(c) && known.get(c).outcome && known.get(c).remoteness != null);
      performance.measure("values-settled", { start: page.clicked ?? started, end: performance.now(), detail: { ply: page.ply, settled } });
    }
  };
  try {
    await analyse({
      params: boardParams(),
      key: keyOf(current()),
      childKey: (c) => keyOf([...current(), c]),
      current: () => generation === page.generation,
      update,
      signal: page.abort.signal,
    });
  } catch (error) {
    if (generation === page.generation && !aborted(error)) $("thinking").textContent = error.message;
  } finally {
    clearInterval(timer);
  }
}

// Fills in the chart's unknown positions, one request at a time, once the position is analysed.
function fillChart() {
  const generation = page.generation;
  const keys = page.line.map((_, p) => keyOf(page.line.slice(0, p))).concat([keyOf(page.line)]);
  fillHistory({
    keys,
    paramsOf: (p) => boardParams(page.line.slice(0, p)),
    current: () => generation === page.generation,
    redraw: drawHistory,
    signal: page.abort.signal,
  });
}

async function showTable1() {
  const line = $("table1");
  const s = page.settings;
  if (s.rules !== "misere" || cylinder()) {
    line.textContent = s.rules !== "misere"
      ? "Table I of Steele & Larremore covers misère rules only."
      : "Table I of Steele & Larremore covers flat boards only.";
    return;
  }
  const name = boardName();
  if (!page.table1 || page.table1.name !== name) {
    try {
      page.table1 = { name, ...(await api("GET", "/api/table1", boardParams([]))) };
    } catch (_) {
      page.table1 = { name, prediction: null, deciders: [] };
    }
  }
  const t = page.table1;
  const predicted = t.prediction ? (t.prediction === "Draw" ? "a draw" : `a ${t.prediction} win`) : "no prediction (k = 1)";
  const how = t.deciders.map((d) => `${d.strategy}${d.player ? ` played by ${d.player}` : " (either player)"}, ${d.proof}`).join("; ");
  line.replaceChildren(`Table I of `, h("a", { href: "https://arxiv.org/abs/2410.05551", rel: "noopener" }, "Steele & Larremore"),
    `: ${predicted} under optimal play.${how ? ` Decided by ${how}.` : ""}`);
}

// ---------------------------------------------------------------- the paper's strategies

async function refreshPlan() {
  const choice = $("coach").value;
  if (!choice || page.room || ending()) {
    page.plan = null;
    clearPlan();
    markCells([]);
    return;
  }
  const [strategy, side] = choice.split(":");
  const generation = page.generation;
  try {
    const plan = await api("GET", "/api/plan", { ...boardParams(), strategy, side }, page.abort.signal);
    if (generation !== page.generation) return;
    page.plan = plan;
    drawPlanNow();
  } catch (error) {
    if (!aborted(error) && generation === page.generation) showError(error.message);
  }
}

function drawPlanNow() {
  markCells(drawPlan(page.plan, { hover: page.hover, humanSide: humanSide(), botSide: botSide() }));
}

function hover(column) {
  page.hover = column;
  if (page.plan) drawPlanNow();
}

// The strategies the coach can show: each of the paper's that plays a side under these rules.
function coachOptions() {
  const select = $("coach");
  const chosen = select.value;
  const options = [new Option("none", "")];
  for (const offer of page.offers.filter((o) => STRATEGIES.includes(o.name))) {
    for (const side of offer.plays) {
      const whose = side === botSide() ? "the opponent's plan" : side === humanSide() ? "coach me" : `coach ${side}`;
      options.push(new Option(`${offer.name} for ${side}: ${whose}`, `${offer.name}:${side}`));
    }
  }
  select.replaceChildren(...options);
  const opponentPlan = STRATEGIES.includes(page.settings.opponent) ? `${page.settings.opponent}:${botSide()}` : "";
  const keep = chosen && [...select.options].some((o) => o.value === chosen) ? chosen : opponentPlan;
  select.value = [...select.options].some((o) => o.value === keep) ? keep : "";
}

// ---------------------------------------------------------------- settings

function readSettings() {
  const number = (id) => Number($(id).value);
  return {
    rules: $("rules").value,
    k: number("k"),
    width: number("width"),
    height: number("height"),
    topology: $("topology").value,
    opponent: $("opponent").value,
    first: $("first-player").value,
    seed: Math.floor(Math.random() * 1e9),
  };
}

function writeSettings(s) {
  for (const key of ["rules", "k", "width", "height", "topology", "opponent"]) $(key).value = s[key];
  $("first-player").value = s.first;
}

// The players offered for `settings`: every name, those that cannot play the opponent's side
// disabled with the reason. Returns the offers, or throws the server's message for a bad board.
async function loadOffers(settings) {
  const { rules, k, width, height, topology } = settings;
  const offers = await api("GET", "/api/players", { rules, k, width, height, topology });
  const side = settings.first === "me" ? "P2" : "P1";
  const options = offers.map((offer) => {
    const ok = offer.plays.includes(side);
    const label = offer.name === "perfect" ? "perfect: the solver" : offer.name;
    const option = new Option(ok ? label : `${label} (not here)`, offer.name);
    option.disabled = !ok;
    if (!ok) option.title = offer.refused.join("; ");
    return option;
  });
  $("opponent").replaceChildren(new Option("a human at this screen", "human"), ...options);
  page.offers = offers;
  return offers;
}

// Why `opponent` cannot play `settings`' opponent side, or null when it can.
function opponentProblem(opponent, settings, offers) {
  if (opponent === "human") return null;
  const offer = offers.find((o) => o.name === opponent);
  if (!offer) return `unknown opponent "${opponent}": choose one of ${offers.map((o) => o.name).join(", ")}`;
  const side = settings.first === "me" ? "P2" : "P1";
  if (offer.plays.includes(side)) return null;
  return offer.refused.find((r) => r.includes(`as ${side}`)) || offer.refused[0];
}

// Starts a game of `settings` at once; a bad board is refused with the server's message and
// the game shown stays. An opponent that cannot play here is replaced by a human at this
// screen, saying why (the sentence is also returned).
async function newGame(settings, moves = []) {
  showError("");
  let offers;
  try {
    await stateOf([], settings);
    offers = await loadOffers(settings);
  } catch (error) {
    return showError(error.message);
  }
  const problem = opponentProblem(settings.opponent, settings, offers);
  const replaced = problem ? `${problem}; you are playing a human at this screen instead` : "";
  $("opponent-note").textContent = replaced;
  if (problem) settings = { ...settings, opponent: "human" };
  if (page.room) {
    leaveRoom();
    history.replaceState(null, "", "/");
  }
  page.settings = settings;
  writeSettings(settings);
  coachOptions();
  page.line = moves;
  page.resigned = null;
  $("bot-note").textContent = "";
  await show(moves.length);
  if (replaced) showError(`${replaced}.`);
  return replaced;
}

// Before a room's game: nothing of the game at this screen stays, its analysis included.
function leaveGame() {
  fresh();
  page.thinking = false;
  page.resigned = null;
  $("coach").value = "";
  $("analysis").checked = false;
  $("show-end").checked = false;
  $("values").hidden = true;
  $("analysis-box").hidden = true;
  clearPlan();
  markCells([]);
}

// A room's view, from its live connection.
function shown(view) {
  const st = view.state;
  page.settings = { ...page.settings, rules: st.rules, k: st.k, width: st.width, height: st.height, topology: st.topology, opponent: "human" };
  writeSettings(page.settings);
  const moves = columnsOf(st.moves);
  const grew = moves.length > page.line.length;
  if (grew && moves.length) announce(`${moves.length % 2 === 1 ? "P1" : "P2"} played column ${moves[moves.length - 1]}`);
  page.line = moves;
  page.ply = moves.length;
  page.state = st;
  render({ dropLast: grew });
}

// ---------------------------------------------------------------- the address

function gameUrl() {
  const s = page.settings;
  const params = { rules: s.rules, k: s.k, width: s.width, height: s.height };
  if (cylinder()) params.topology = "cylinder";
  params.moves = moveText(page.line);
  if (page.ply < page.line.length) params.ply = page.ply;
  if (s.opponent !== "human") Object.assign(params, { opponent: s.opponent, first: s.first, seed: s.seed });
  if ($("analysis").checked) params.analysis = 1;
  if ($("show-end").checked) params.end = 1;
  return `/?${readableQuery(params)}`;
}

function saveUrl() {
  if (!page.room) history.replaceState(null, "", gameUrl());
}

// The settings an address asks for, each checked; a bad one is reported and the default used.
function settingsFrom(q) {
  const problems = [];
  const number = (key) => {
    if (!q.has(key)) return DEFAULTS[key];
    const n = Number(q.get(key));
    if (Number.isInteger(n) && q.get(key).trim() !== "") return n;
    problems.push(`${key}=${q.get(key)} is not a whole number`);
    return DEFAULTS[key];
  };
  const settings = {
    rules: q.get("rules") || DEFAULTS.rules,
    k: number("k"),
    width: number("width"),
    height: number("height"),
    topology: q.get("topology") || DEFAULTS.topology,
    opponent: q.get("opponent") || DEFAULTS.opponent,
    first: q.get("first") === "bot" ? "bot" : "me",
    seed: q.has("seed") && /^\d+$/.test(q.get("seed")) ? Number(q.get("seed")) : Math.floor(Math.random() * 1e9),
  };
  return { settings, problems };
}

async function startFromUrl() {
  const q = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (q.get("room")) return openRoom(q.get("room"), fragment.get("token") || q.get("token"));
  $("analysis").checked = q.get("analysis") === "1";
  $("show-end").checked = q.get("end") === "1";
  let { settings, problems } = settingsFrom(q);
  try {
    if (problems.length) throw new Error(problems.join("; "));
    await stateOf([], settings);
  } catch (error) {
    problems = [`${error.message}. Showing normal Connect Four (7x6) instead`];
    settings = { ...DEFAULTS, opponent: settings.opponent, first: settings.first, seed: settings.seed };
  }
  let moves = [];
  try {
    // The address's move string goes to the server as it is: the page never guesses at it.
    const state = await api("GET", "/api/state", { ...boardParams([], settings), moves: q.get("moves") || "" });
    moves = columnsOf(state.moves);
  } catch (error) {
    // Digits alone are read one column each: wide boards need the comma form.
    const hint = settings.width > 9 && !(q.get("moves") || "").includes(",")
      ? " (on boards wider than 9, separate the columns with commas: 10,3,3, or 10, for one move)"
      : "";
    problems.push(`moves=${q.get("moves")}: ${error.message}${hint}. Starting from the empty board`);
  }
  const replaced = await newGame(settings, moves);
  if (q.has("ply") && /^\d+$/.test(q.get("ply"))) go(Number(q.get("ply")));
  problems.push(replaced);
  if (problems.some(Boolean)) showError(`${problems.filter(Boolean).join(". ")}.`);
}

// ---------------------------------------------------------------- keys and buttons

let typed = ""; // the digits of a column number on boards wider than 9
let typedTimer = null;

function digit(key) {
  const width = page.settings.width;
  if (width <= 9) {
    const column = key === "0" ? 10 : Number(key);
    if (column <= width) play(column);
    return;
  }
  typed += key;
  clearTimeout(typedTimer);
  const column = Number(typed);
  // Commit at once when no more digits could make a column number.
  if (column * 10 > width || typed.length >= 2) return commitTyped();
  $("status").textContent = `Column ${typed}… (another digit, or Enter)`;
  typedTimer = setTimeout(commitTyped, 900);
}

function commitTyped() {
  clearTimeout(typedTimer);
  const column = Number(typed);
  typed = "";
  if (column >= 1 && column <= page.settings.width) play(column);
  else renderStatus();
}

document.addEventListener("keydown", (event) => {
  if (typing(event)) return;
  const keys = { u: () => go(page.ply - 1), r: () => go(page.ply + 1), Home: () => go(0), End: () => go(page.line.length) };
  if (/^[0-9]$/.test(event.key)) {
    event.preventDefault();
    digit(event.key);
  } else if (event.key === "Enter" && typed) {
    event.preventDefault();
    commitTyped();
  } else if (keys[event.key]) {
    event.preventDefault();
    keys[event.key]();
  }
});

function settingsChanged() {
  newGame(readSettings());
}

for (const id of ["rules", "k", "width", "height", "topology", "opponent", "first-player"]) {
  $(id).addEventListener("change", settingsChanged);
}
$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  newGame(readSettings());
});
$("room-button").addEventListener("click", () => createRoom(readSettings()));
$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(page.ply - 1));
$("forward").addEventListener("click", () => go(page.ply + 1));
$("last").addEventListener("click", () => go(page.line.length));
$("resign").addEventListener("click", resign);
for (const id of ["analysis", "show-end"]) {
  $(id).addEventListener("change", () => {
    saveUrl();
    fresh();
    refreshAnalysis();
    refreshPlan();
  });
}
$("coach").addEventListener("change", refreshPlan);
$("copy-moves").addEventListener("click", () => copyText(moveText(page.line), "moves", $("load-moves")));
$("copy-link").addEventListener("click", () => copyText(new URL(gameUrl(), location.href).href, "link", $("load-moves")));
$("load-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("load-moves").value.trim();
  try {
    const state = await api("GET", "/api/state", { ...boardParams([]), moves: text });
    await newGame(page.settings, columnsOf(state.moves));
    $("copied").textContent = `Loaded ${state.plies} moves.`;
  } catch (error) {
    showError(`${text}: ${error.message}`);
  }
});
window.addEventListener("resize", () => drawHistory());
if (window.matchMedia("(max-width: 47.99rem)").matches) $("settings-box").open = false;

onBoard(play, hover);
useRooms({ page, shown, showError, refuse, leaveGame });
startFromUrl();
