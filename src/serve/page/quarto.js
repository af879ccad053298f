// The Quarto page. The server plays the rules (`/api/quarto/*`): whether a placement ends the
// game, the line, every value; this script draws, asks and sends. A turn is a placement of the
// piece in hand, then the choice of the piece the opponent must place.
"use strict";

import { $, aborted, announce, api, copyText, h, other, readableQuery, valueFor } from "./common.js";
import { drawPiece, pieceName } from "./pieces.js";

const DEFAULTS = { rules: "normal", size: 4, attributes: 4, criteria: [0, 1, 2, 3], square: false, opponent: "human", first: "me" };

const game = {
  settings: { ...DEFAULTS, seed: 0 },
  turns: [], // the record's turns, as text
  state: null, // the server's QuartoState
  placing: null, // the cell chosen for the piece in hand, before the hand-over that confirms it
  clicked: null, // when this screen's last turn was clicked (performance.now())
  thinking: false,
  generation: 0,
  abort: new AbortController(),
  values: { cells: new Map(), pieces: new Map(), searching: false },
};

const record = (turns = game.turns) => turns.join(" ");

function rulesParams(settings = game.settings) {
  const params = { rules: settings.rules, size: settings.size, attributes: settings.attributes };
  if (settings.criteria.length < settings.attributes) params.criteria = settings.criteria.join(",");
  if (settings.square) params.square = 1;
  return params;
}

const gameParams = (turns = game.turns) => ({ ...rulesParams(), moves: record(turns) });

function fresh() {
  game.abort.abort();
  game.abort = new AbortController();
  return ++game.generation;
}

function botSide() {
  if (game.settings.opponent === "human") return null;
  return game.settings.first === "me" ? "P2" : "P1";
}

function humanTurn() {
  const st = game.state;
  return Boolean(st && st.to_move) && st.to_move !== botSide() && !game.thinking;
}

// ---------------------------------------------------------------- playing

// Shows the game after `turns` (the server's word on them first) and asks for what comes
// next: the bot's turn, or the values; false when the server refused the turns.
async function load(turns) {
  const generation = fresh();
  try {
    const state = await api("GET", "/api/quarto/state", gameParams(turns), game.abort.signal);
    if (generation !== game.generation) return false;
    game.turns = turns;
    game.state = state;
    game.placing = null;
  } catch (error) {
    if (!aborted(error)) showError(error.message);
    return false;
  }
  render();
  saveUrl();
  if (game.state.to_move && game.state.to_move === botSide()) botTurn();
  else analyse();
  return true;
}

async function clickCell(name) {
  showError("");
  const st = game.state;
  if (!humanTurn()) return showError(st.to_move ? "Wait for the opponent's turn." : "The game is over: start a new game.");
  if (!st.hand) return showError("First choose the piece your opponent must place: click one of the pieces left.");
  if (game.placing === name) return unplace();
  if (st.board[cellIndex(name)]) return showError(`cell ${name} is taken: choose an empty cell`);
  // A placement that ends the game is a whole turn; otherwise a piece must be handed over.
  if (st.ending_cells.includes(name)) return play(name);
  fresh();
  game.placing = name;
  render();
  announce(`${st.hand} placed on ${name}: now choose the piece to hand over`);
  analyse();
}

function unplace() {
  if (!game.placing) return;
  fresh();
  game.placing = null;
  render();
  analyse();
}

async function clickPiece(code) {
  showError("");
  const st = game.state;
  if (!humanTurn()) return showError(st.to_move ? "Wait for the opponent's turn." : "The game is over: start a new game.");
  if (st.hand && !game.placing) return showError(`First place ${st.hand} (${pieceName(st.hand)}) on an empty cell.`);
  await play(game.placing ? `${game.placing}:${code}` : code);
}

async function play(turn) {
  game.clicked = performance.now();
  // Said before the game is drawn again, so that a game over is read out last.
  announce(`${game.state.to_move} played ${turn}`);
  await load([...game.turns, turn]);
}

async function botTurn() {
  const generation = game.generation;
  game.thinking = true;
  render();
  const started = performance.now();
  try {
    const answer = await api("GET", "/api/quarto/move", {
      ...gameParams(),
      player: game.settings.opponent,
      seed: game.settings.seed,
    }, game.abort.signal);
    if (generation !== game.generation) return;
    performance.measure("quarto-bot-answer", { start: game.clicked ?? started, end: performance.now(), detail: { plies: game.state.plies, complete: answer.complete } });
    game.thinking = false;
    $("bot-note").textContent = answer.complete
      ? ""
      : `${answer.player} did not know every value within the server's time budget: it chose ${answer.turn} from what it knew, and as careful would among the rest.`;
    announce(`${answer.player} played ${answer.turn}`);
    await load([...game.turns, answer.turn]);
  } catch (error) {
    if (generation !== game.generation || aborted(error)) return;
    game.thinking = false;
    render();
    showError(`${game.settings.opponent} could not move: ${error.message}`);
  }
}

function takeBack() {
  const turns = game.turns.slice(0, -1);
  // Against a bot, back to one of this screen's turns (a turn of P1 when the count is even).
  while (botSide() && turns.length > 0 && (turns.length % 2 === 0 ? "P1" : "P2") === botSide()) turns.pop();
  showError("");
  load(turns);
}

// ---------------------------------------------------------------- drawing

const cellName = (index, size) => `${String.fromCharCode(97 + (index % size))}${Math.floor(index / size) + 1}`;
const cellIndex = (name) => (Number(name.slice(1)) - 1) * game.state.size + (name.charCodeAt(0) - 97);

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

function render() {
  const st = game.state;
  document.documentElement.style.setProperty("--q-size", st.size);
  renderStatus();
  renderHand();
  renderBoard();
  renderTray();
  $("notation").textContent = st.moves || "(no turns yet)";
  $("share").href = gameUrl();
  $("back").disabled = game.turns.length === 0 || game.thinking;
  const s = game.settings;
  $("settings-summary").textContent = `Settings: ${s.rules === "misere" ? "misère" : "normal"} ${s.size}x${s.size}, ${s.attributes} traits${s.square ? ", squares" : ""}; against ${s.opponent === "human" ? "a human at this screen" : s.opponent}`;
}

function renderStatus() {
  const st = game.state;
  const result = $("result");
  result.hidden = !st.winner;
  if (st.winner) {
    result.dataset.reason = st.reason;
    result.textContent = `${st.winner === "Draw" ? "Draw" : `${st.winner} wins`}: ${reasonText(st)}`;
    $("status").textContent = "";
    $("status").classList.remove("busy");
    if (game.announced !== st.moves) {
      game.announced = st.moves;
      announce(`Game over. ${result.textContent}`);
    }
    return;
  }
  const who = st.to_move;
  const yours = st.to_move !== botSide();
  const name = yours ? (botSide() ? "you" : who) : game.settings.opponent;
  let text;
  if (game.thinking) text = `${who}: ${game.settings.opponent} is thinking…`;
  else if (!st.hand) text = `${who} to move: ${yours ? "choose" : `${name} chooses`} the piece ${other(who)} must place.`;
  else if (game.placing) text = `${who}: ${st.hand} goes on ${game.placing}; now choose the piece to hand over (Esc to move it).`;
  else text = `${who} to move: place ${st.hand} (${pieceName(st.hand)}) on an empty cell.`;
  $("status").textContent = text;
  $("status").classList.toggle("busy", game.thinking);
}

function reasonText(st) {
  if (st.reason === "line") {
    const loses = st.rules === "misere";
    return `${st.completed_by} completed a line at ${st.line.join(" ")} (${sharedTraits(st)})${loses ? ", and so loses (misère rules)" : ""}.`;
  }
  return st.reason === "board-full" ? "the board is full with no line." : "every piece is placed with no line.";
}

// What the pieces of the completed line have in common, in words: "all light, all solid".
function sharedTraits(st) {
  const codes = st.line.map((name) => st.board[cellIndex(name)]);
  const shared = [];
  for (let i = 0; i < st.attributes; i++) {
    if (st.criteria.includes(i) && codes.every((c) => c[i] === codes[0][i])) {
      shared.push(`all ${pieceName(codes[0]).split(" ")[i]}`);
    }
  }
  return shared.join(", ");
}

function renderHand() {
  const st = game.state;
  $("hand").closest(".hand").hidden = Boolean(st.winner);
  $("hand-title").textContent = st.hand ? `${st.to_move} holds` : st.winner ? "Game over" : `${st.to_move} hands over`;
  $("hand").replaceChildren(st.hand && !game.placing ? h("div", { class: "piece-box", title: pieceName(st.hand) }, drawPiece(st.hand), h("span", { class: "code" }, st.hand)) : h("span", { class: "note" }, st.hand ? `on ${game.placing}` : "—"));
}

function renderBoard() {
  const st = game.state;
  const board = $("q-board");
  const line = new Set(st.line);
  const cells = [];
  // Rows from the top, as the board is seen; cell a1 is at the bottom left.
  for (let row = st.size - 1; row >= 0; row--) {
    for (let col = 0; col < st.size; col++) {
      const index = row * st.size + col;
      cells.push(boardCell(cellName(index, st.size), st.board[index], line));
    }
  }
  board.replaceChildren(...cells);
}

function boardCell(name, piece, line) {
  const placed = game.placing === name ? game.state.hand : null;
  const shown = piece || placed;
  const value = !shown && game.state.hand && !game.placing ? valueBadge(game.values.cells.get(name)) : null;
  const label = `${name}: ${shown ? `${pieceName(shown)} (${shown})${placed ? ", placed, not yet confirmed" : ""}` : "empty"}${value ? `, ${value.title}` : ""}`;
  return h("button", {
    type: "button",
    class: `q-cell${line.has(name) ? " win" : ""}${placed ? " placing" : ""}`,
    "data-cell": name,
    role: "gridcell",
    "aria-label": label,
    onclick: () => clickCell(name),
    onkeydown: (event) => gridKeys(event, name),
  }, shown ? drawPiece(shown) : h("span", { class: "cell-name" }, name), value);
}

function renderTray() {
  const st = game.state;
  const choosing = !st.winner && (!st.hand || game.placing);
  $("tray").replaceChildren(...st.remaining.map((code) => {
    const value = choosing ? valueBadge(game.values.pieces.get(code)) : null;
    return h("button", {
      type: "button",
      class: `q-piece${choosing ? " choosable" : ""}`,
      "data-testid": "quarto-piece",
      "data-piece": code,
      "aria-label": `${pieceName(code)} (${code})${value ? `, ${value.title}` : ""}`,
      onclick: () => clickPiece(code),
      onkeydown: (event) => trayKeys(event),
    }, drawPiece(code), h("span", { class: "code" }, code), value);
  }));
}

// A value's badge for the player choosing, or null when analysis is off.
function valueBadge(value) {
  if (!$("analysis").checked) return null;
  const side = game.state.to_move;
  const v = valueFor(value, side, "turns");
  const searching = game.values.searching && (v.kind === "unknown" || v.n == null);
  const kind = v.kind === "unknown" && searching ? "thinking" : v.kind;
  const text = kind === "thinking" ? "…" : v.n == null ? v.word : `${v.word} ${v.n}`;
  const span = h("span", { class: `badge q-value ${kind}`, "data-kind": kind, "aria-hidden": "true" }, text);
  span.title = kind === "thinking" ? "still searching" : v.kind === "unknown" ? "not found within the time budget" : `${v.text} for ${side}`;
  return span;
}

// ---------------------------------------------------------------- keys

function gridKeys(event, name) {
  const size = game.state.size;
  const col = name.charCodeAt(0) - 97;
  const row = Number(name.slice(1)) - 1;
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
  if (!step) return;
  event.preventDefault();
  const c = (col + step[0] + size) % size;
  const r = (row + step[1] + size) % size;
  $("q-board").querySelector(`[data-cell="${cellName(r * size + c, size)}"]`).focus();
}

function trayKeys(event) {
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
  if (!step) return;
  event.preventDefault();
  const pieces = [...$("tray").querySelectorAll(".q-piece")];
  const at = pieces.indexOf(event.target.closest(".q-piece"));
  pieces[(at + step + pieces.length) % pieces.length].focus();
}

// ---------------------------------------------------------------- analysis

// The values of the choices of this turn: each cell for the piece in hand, or each piece to
// hand over (after the placement chosen); outcomes first, then the turns to the end.
async function analyse() {
  game.values = { cells: new Map(), pieces: new Map(), searching: false };
  const st = game.state;
  if (!$("analysis").checked || st.winner || st.to_move === botSide()) {
    $("thinking").hidden = true;
    return renderBoardAndTray();
  }
  const generation = game.generation;
  const params = { ...gameParams(), ...(game.placing ? { place: game.placing } : {}) };
  const started = performance.now();
  game.values.searching = true;
  renderBoardAndTray();
  for (const weak of [1, 0]) {
    let answer;
    try {
      answer = await api("GET", "/api/quarto/solve", { ...params, weak }, game.abort.signal);
    } catch (error) {
      if (!aborted(error) && generation === game.generation) $("thinking").textContent = error.message;
      return;
    }
    if (generation !== game.generation) return;
    learn(answer);
    progress(started, weak === 0);
    renderBoardAndTray();
  }
  game.values.searching = false;
  const settled = [...game.values.cells.values(), ...game.values.pieces.values()].every((v) => v.outcome && v.remoteness != null);
  performance.measure("quarto-values-settled", { start: started, end: performance.now(), detail: { plies: st.plies, placing: Boolean(game.placing), settled } });
  renderBoardAndTray();
}

function learn(answer) {
  const keep = (map, list) => {
    for (const v of list) {
      const had = map.get(v.choice);
      if (!had || (v.outcome && (!had.outcome || v.remoteness != null))) map.set(v.choice, v);
    }
  };
  keep(game.values.cells, answer.cells);
  keep(game.values.pieces, answer.pieces);
}

function progress(started, done) {
  const values = [...game.values.cells.values(), ...game.values.pieces.values()];
  const unknown = values.filter((v) => !v.outcome).length;
  const line = $("thinking");
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  line.hidden = done && unknown === 0;
  line.classList.toggle("busy", !done);
  line.textContent = done
    ? `The solver did not settle ${unknown} of ${values.length} choices within the server's time budget (${seconds} s): they show "?".`
    : `Searching: ${values.length - unknown} of ${values.length} outcomes known, ${seconds} s`;
}

function renderBoardAndTray() {
  renderBoard();
  renderTray();
}

// ---------------------------------------------------------------- settings and the address

function readSettings() {
  const attributes = Number($("attributes").value);
  const criteria = [0, 1, 2, 3].filter((i) => i < attributes && $(`criterion-${i}`).checked);
  return {
    rules: $("rules").value,
    size: Number($("size").value),
    attributes,
    criteria,
    square: $("square").checked,
    opponent: $("opponent").value,
    first: $("first-player").value,
    seed: Math.floor(Math.random() * 1e9),
  };
}

function writeSettings(s) {
  $("rules").value = s.rules;
  $("size").value = String(s.size);
  $("attributes").value = String(s.attributes);
  $("square").checked = s.square;
  for (let i = 0; i < 4; i++) {
    $(`criterion-${i}`).checked = s.criteria.includes(i);
    $(`criterion-${i}`).disabled = i >= s.attributes;
  }
  $("opponent").value = s.opponent;
  $("first-player").value = s.first;
}

async function newGame(settings, turns = []) {
  showError("");
  try {
    await api("GET", "/api/quarto/state", rulesParams(settings));
  } catch (error) {
    return showError(error.message);
  }
  game.settings = settings;
  writeSettings(settings);
  $("bot-note").textContent = "";
  await load(turns);
}

function gameUrl() {
  const s = game.settings;
  const params = { ...rulesParams(s), moves: game.turns.join(",") };
  if (s.opponent !== "human") Object.assign(params, { opponent: s.opponent, first: s.first, seed: s.seed });
  if ($("analysis").checked) params.analysis = 1;
  return `/quarto?${readableQuery(params)}`;
}

function saveUrl() {
  history.replaceState(null, "", gameUrl());
}

// The settings an address asks for; the server checks them, and a bad one is reported and the
// standard game played instead.
async function startFromUrl() {
  const q = new URLSearchParams(location.search);
  $("analysis").checked = q.get("analysis") === "1";
  const attributes = q.has("attributes") ? Number(q.get("attributes")) : DEFAULTS.attributes;
  const opponents = ["human", "random", "careful", "perfect"];
  const problems = [];
  const opponent = q.get("opponent") || "human";
  if (!opponents.includes(opponent)) problems.push(`unknown opponent "${opponent}": choose one of ${opponents.join(", ")}; you are playing a human at this screen`);
  let settings = {
    rules: q.get("rules") || DEFAULTS.rules,
    size: q.has("size") ? Number(q.get("size")) : DEFAULTS.size,
    attributes,
    criteria: q.has("criteria") ? q.get("criteria").split(",").map(Number) : [0, 1, 2, 3].filter((i) => i < attributes),
    square: q.get("square") === "1",
    opponent: opponents.includes(opponent) ? opponent : "human",
    first: q.get("first") === "bot" ? "bot" : "me",
    seed: q.has("seed") && /^\d+$/.test(q.get("seed")) ? Number(q.get("seed")) : Math.floor(Math.random() * 1e9),
  };
  const query = { ...rulesParams(settings), ...(q.has("criteria") ? { criteria: q.get("criteria") } : {}) };
  try {
    await api("GET", "/api/quarto/state", query);
  } catch (error) {
    problems.push(`${error.message}; playing standard Quarto instead`);
    settings = { ...DEFAULTS, opponent: settings.opponent, first: settings.first, seed: settings.seed };
  }
  let turns = [];
  try {
    const state = await api("GET", "/api/quarto/state", { ...rulesParams(settings), moves: q.get("moves") || "" });
    turns = state.moves ? state.moves.split(" ") : [];
  } catch (error) {
    problems.push(`moves=${q.get("moves")}: ${error.message}; starting from the empty board`);
  }
  await newGame(settings, turns);
  if (problems.length) showError(`${problems.join(". ")}.`);
}

for (const id of ["rules", "size", "attributes", "square", "opponent", "first-player", "criterion-0", "criterion-1", "criterion-2", "criterion-3"]) {
  $(id).addEventListener("change", () => newGame(readSettings()));
}
$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  newGame(readSettings());
});
$("analysis").addEventListener("change", () => {
  saveUrl();
  fresh();
  analyse();
});
$("back").addEventListener("click", takeBack);
$("copy-link").addEventListener("click", () => copyText(new URL(gameUrl(), location.href).href, "link", null));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") unplace();
});
if (window.matchMedia("(max-width: 47.99rem)").matches) $("settings-box").open = false;
startFromUrl();
