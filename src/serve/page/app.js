// connectk's game page. The server decides everything about the rules (legal moves, the end
// of the game, the cells of the line); this script only draws, asks and sends.
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  settings: { rules: "normal", k: 4, width: 7, height: 6, opponent: "human", first: "me", seed: 0 },
  moves: [], // column numbers, from 1
  state: null, // the server's GameState of `moves`
  resigned: null, // { winner, reason, message } after a resignation at this screen
  thinking: false, // the bot's answer is on its way
  sending: false, // a move of this screen is on its way to the server
  generation: 0, // bumped by every change, so that late answers for an old position are dropped
  room: null, // { id, token, seat, socket, view, closed }
  offers: [],
};

// ---------------------------------------------------------------- talking to the server

async function api(method, path, params) {
  const response = await fetch(`${path}?${new URLSearchParams(params)}`, { method });
  let body;
  try {
    body = await response.json();
  } catch (_) {
    body = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function notation(moves, width) {
  if (width <= 9) return moves.join("");
  const text = moves.join(",");
  return moves.length === 1 && moves[0] >= 10 ? text + "," : text;
}

function parseMoves(text) {
  if (!text) return [];
  const parts = text.includes(",") ? text.split(",") : text.split("");
  return parts.filter((p) => p.trim() !== "").map(Number);
}

function boardParams(moves = page.moves) {
  const s = page.settings;
  return { rules: s.rules, k: s.k, width: s.width, height: s.height, moves: notation(moves, s.width) };
}

// ---------------------------------------------------------------- who is who

const mark = (player) => (player === "P1" ? "X" : "O");
const other = (player) => (player === "P1" ? "P2" : "P1");
const toMove = (moves) => (moves.length % 2 === 0 ? "P1" : "P2");

function botSide() {
  if (page.settings.opponent === "human") return null;
  return page.settings.first === "me" ? "P2" : "P1";
}

function humanSide() {
  if (page.room) return page.room.seat;
  const bot = botSide();
  return bot ? other(bot) : null; // null: both sides are played at this screen
}

function ending() {
  if (page.room && page.room.view) return page.room.view.ending;
  if (page.resigned) return page.resigned;
  const st = page.state;
  if (!st || !st.winner) return null;
  const winner = st.winner === "Draw" ? null : st.winner;
  if (st.reason === "board-full") return { winner, reason: "board-full", message: "Board full - Draw" };
  const by = st.completed_by;
  const message =
    st.rules === "misere"
      ? `${by} completed a line of ${st.k} and so loses (misère rules)`
      : `${by} made a line of ${st.k} and wins`;
  return { winner, reason: "line", message };
}

// ---------------------------------------------------------------- drawing

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function buildBoard() {
  const { width, height } = page.settings;
  const board = $("board");
  document.documentElement.style.setProperty("--w", width);
  board.replaceChildren();
  for (let c = 1; c <= width; c++) {
    const col = document.createElement("button");
    col.type = "button";
    col.className = "col";
    col.dataset.col = c;
    col.addEventListener("click", () => play(c));
    col.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      const next = board.querySelector(`.col[data-col="${c + step}"]`);
      if (next) next.focus();
    });
    for (let r = 0; r < height; r++) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.row = r;
      col.appendChild(cell);
    }
    board.appendChild(col);
  }
  board.dataset.width = width;
  board.dataset.height = height;
}

function render({ dropLast = false } = {}) {
  const { width, height } = page.settings;
  const board = $("board");
  if (Number(board.dataset.width) !== width || Number(board.dataset.height) !== height) buildBoard();
  const heights = new Array(width + 1).fill(0);
  const owner = new Map();
  page.moves.forEach((c, i) => {
    owner.set(`${c},${heights[c]}`, i % 2 === 0 ? "P1" : "P2");
    heights[c] += 1;
  });
  const last = page.moves.length ? page.moves[page.moves.length - 1] : null;
  const wins = new Set(((page.state && page.state.winning_cells) || []).map(([c, r]) => `${c + 1},${r}`));
  for (const col of board.children) {
    const c = Number(col.dataset.col);
    const full = heights[c] >= height;
    col.classList.toggle("full", full);
    col.setAttribute(
      "aria-label",
      `Column ${c}: ${full ? "full" : `${height - heights[c]} free`}` +
        (c === last ? ", last move" : ""),
    );
    for (const cell of col.children) {
      const r = Number(cell.dataset.row);
      const who = owner.get(`${c},${r}`);
      cell.className = "cell" + (who ? ` ${who.toLowerCase()}` : "");
      if (wins.has(`${c},${r}`)) cell.classList.add("win");
      if (c === last && r === heights[c] - 1) {
        cell.classList.add("last");
        if (dropLast) {
          cell.style.setProperty("--fall", height - r);
          cell.classList.add("drop");
        }
      }
    }
  }
  renderStatus();
  renderMoves();
}

function renderStatus() {
  const end = ending();
  const result = $("result");
  if (end) {
    const who = end.winner ? `${end.winner} (${mark(end.winner)}) wins` : "Draw";
    result.textContent = `${who}: ${end.message}.`;
    result.dataset.reason = end.reason;
    result.hidden = false;
    $("status").textContent = "Game over.";
  } else {
    result.hidden = true;
    delete result.dataset.reason;
    const side = toMove(page.moves);
    let text = `${side} (${mark(side)}) to move`;
    if (page.room) {
      const view = page.room.view;
      if (view && !view.started) text = "Waiting for the second player to open the link.";
      else if (side === page.room.seat) text += ": your move.";
      else if (page.room.seat) text += ": waiting for your friend.";
      else text += " (you are watching).";
    } else if (page.thinking) {
      text += `: ${page.settings.opponent} is thinking…`;
    } else if (humanSide() === side) {
      text += ": your move.";
    } else {
      text += ".";
    }
    $("status").textContent = text;
  }
  const on = !end && !page.thinking;
  $("resign").disabled = !on || (page.room && !page.room.seat) || (page.room && !page.room.view.started);
  $("undo").disabled = Boolean(page.room) || page.moves.length === 0 || page.thinking;
}

function renderMoves() {
  const text = notation(page.moves, page.settings.width);
  $("notation").textContent = text || "(none)";
  const list = $("move-list");
  list.replaceChildren(
    ...page.moves.map((c, i) => {
      const item = document.createElement("li");
      item.textContent = `${i % 2 === 0 ? "P1" : "P2"}: column ${c}`;
      return item;
    }),
  );
  $("share").href = gameUrl();
}

function gameUrl() {
  const s = page.settings;
  const params = { ...boardParams() };
  if (s.opponent !== "human") Object.assign(params, { opponent: s.opponent, first: s.first, seed: s.seed });
  if ($("analysis").checked) params.analysis = 1;
  return `/?${new URLSearchParams(params)}`;
}

function refuse(column, message) {
  const col = $("board").querySelector(`.col[data-col="${column}"]`);
  if (col) {
    col.classList.remove("refused");
    void col.offsetWidth; // restart the animation
    col.classList.add("refused");
    setTimeout(() => col.classList.remove("refused"), 1500);
  }
  showError(message);
}

// ---------------------------------------------------------------- a game at this screen

async function setMoves(moves, options) {
  const state = await api("GET", "/api/state", boardParams(moves));
  page.moves = moves;
  page.state = state;
  render(options);
  if (!page.room) history.replaceState(null, "", gameUrl());
  analyse();
}

async function play(column) {
  showError("");
  if (page.room) return roomMove(column);
  if (ending()) return refuse(column, "The game is over: start a new game or undo.");
  if (page.sending) return;
  if (page.thinking || humanSide() === other(toMove(page.moves))) {
    return refuse(column, "Wait for your opponent's move.");
  }
  const generation = ++page.generation;
  page.sending = true;
  try {
    await setMoves([...page.moves, column], { dropLast: true });
  } catch (error) {
    return refuse(column, error.message);
  } finally {
    page.sending = false;
  }
  if (generation === page.generation) botMove();
}

async function botMove() {
  if (ending() || toMove(page.moves) !== botSide()) return;
  const generation = ++page.generation;
  page.thinking = true;
  renderStatus();
  try {
    const answer = await api("GET", "/api/move", {
      ...boardParams(),
      player: page.settings.opponent,
      seed: page.settings.seed,
    });
    if (generation !== page.generation) return;
    page.moves = [...page.moves, answer.column];
    page.state = answer.state;
    page.thinking = false;
    $("analysis-note").textContent = answer.complete
      ? ""
      : `${answer.player} chose column ${answer.column} from what it found within the time budget.`;
    render({ dropLast: true });
    history.replaceState(null, "", gameUrl());
    analyse();
  } catch (error) {
    if (generation !== page.generation) return;
    page.thinking = false;
    renderStatus();
    showError(error.message);
  }
}

async function undo() {
  if (page.room || page.moves.length === 0) return;
  page.generation++;
  page.thinking = false;
  page.resigned = null;
  const moves = page.moves.slice(0, -1);
  // Against a bot, go back to the human's turn (keeping a bot's opening move).
  const human = humanSide();
  while (human && moves.length > 0 && toMove(moves) !== human) moves.pop();
  showError("");
  await setMoves(moves).catch((error) => showError(error.message));
  botMove();
}

function resign() {
  if (ending()) return;
  if (page.room) return send({ type: "resign" });
  const loser = humanSide() || toMove(page.moves);
  page.generation++;
  page.thinking = false;
  page.resigned = { winner: other(loser), reason: "resignation", message: `${loser} resigned` };
  renderStatus();
  analyse();
}

function readSettings() {
  const number = (id) => Number($(id).value);
  return {
    rules: $("rules").value,
    k: number("k"),
    width: number("width"),
    height: number("height"),
    opponent: $("opponent").value,
    first: $("first").value,
    seed: Math.floor(Math.random() * 1e9),
  };
}

function writeSettings(s) {
  for (const key of ["rules", "k", "width", "height", "first"]) $(key).value = s[key];
  $("opponent").value = s.opponent;
}

async function newGame(settings) {
  showError("");
  const previous = page.settings;
  page.settings = settings;
  try {
    await api("GET", "/api/state", boardParams([])); // the library's word on the board
  } catch (error) {
    page.settings = previous;
    return showError(error.message);
  }
  leaveRoom();
  page.generation++;
  page.thinking = false;
  page.resigned = null;
  page.table1 = null;
  $("room-info").hidden = true;
  await setMoves([]).catch((error) => showError(error.message));
  botMove();
}

// ---------------------------------------------------------------- opponents

async function loadOffers() {
  const s = readSettings();
  let offers;
  try {
    offers = await api("GET", "/api/players", { rules: s.rules, k: s.k, width: s.width, height: s.height });
  } catch (_) {
    return; // a bad board is reported when the game starts
  }
  const select = $("opponent");
  const chosen = select.value;
  const side = s.first === "me" ? "P2" : "P1";
  const human = new Option("a human at this screen", "human");
  const options = offers.map((offer) => {
    const label = offer.name === "perfect" ? "perfect (the solver, within its time budget)" : offer.name;
    const option = new Option(label, offer.name);
    const ok = offer.plays.includes(side);
    option.disabled = !ok;
    if (!ok) option.title = offer.refused.join("; ");
    return option;
  });
  select.replaceChildren(human, ...options);
  const keep = [...select.options].find((o) => o.value === chosen && !o.disabled);
  select.value = keep ? chosen : "human";
}

// ---------------------------------------------------------------- analysis

function valueText(record, side) {
  if (!record || !record.outcome) return { text: "?", kind: "unknown", title: "not found within the time budget" };
  const n = record.remoteness;
  if (record.outcome === "Draw") return { text: "draw", kind: "draw", title: "draw" };
  const win = record.outcome === side;
  const word = win ? "win" : "loss";
  return { text: n ? `${word} ${n}` : word, kind: win ? "win" : "loss", title: `${word}${n ? ` in ${n} plies` : ""}` };
}

async function analyse() {
  const on = $("analysis").checked;
  $("analysis-panel").hidden = !on;
  $("values").hidden = !on;
  if (!on) return;
  const generation = page.generation;
  const s = page.settings;
  if (!page.table1) {
    try {
      const t = await api("GET", "/api/table1", boardParams([]));
      page.table1 = t;
    } catch (error) {
      page.table1 = { prediction: null, deciders: [] };
    }
  }
  showTable1();
  const values = $("values");
  values.replaceChildren();
  if (ending()) return;
  const side = toMove(page.moves);
  const known = new Map();
  const draw = (answer) => {
    for (const record of answer.move_values || []) {
      const had = known.get(record.column);
      if (record.outcome || !had) known.set(record.column, record);
    }
    const cells = [];
    for (let c = 1; c <= s.width; c++) {
      const span = document.createElement("span");
      span.dataset.col = c;
      const full = $("board").querySelector(`.col[data-col="${c}"]`).classList.contains("full");
      if (!full) {
        const v = valueText(known.get(c), side);
        span.textContent = v.text;
        span.className = v.kind;
        span.title = `column ${c}: ${v.title}`;
      }
      cells.push(span);
    }
    values.replaceChildren(...cells);
    const whole = answer.outcome
      ? `The position: ${answer.outcome === "Draw" ? "a draw" : `${answer.outcome} wins`}${answer.remoteness != null ? ` in ${answer.remoteness} plies` : ""}.`
      : "";
    $("analysis-note").textContent =
      `Values for ${side} (win/loss in n plies); "?" = not found within the server's time budget. ${whole}`;
  };
  // Outcomes first, then exact values; while an outcome is still unknown, up to two more
  // passes for outcomes, each going on from the table the earlier ones filled.
  for (const [pass, weak] of [1, 0, 1, 1].entries()) {
    if (pass >= 2 && [...known.values()].every((record) => record.outcome)) break;
    try {
      const answer = await api("GET", "/api/solve", { ...boardParams(), analyze: 1, weak });
      if (generation !== page.generation || !$("analysis").checked) return;
      draw(answer);
    } catch (error) {
      if (generation === page.generation) $("analysis-note").textContent = error.message;
      return;
    }
  }
}

function showTable1() {
  const t = page.table1;
  const text = $("table1");
  if (!t || page.settings.rules !== "misere") {
    text.textContent = "Table I of Steele & Larremore covers misère rules only.";
    return;
  }
  const predicted = t.prediction ? (t.prediction === "Draw" ? "a draw" : `a ${t.prediction} win`) : "no prediction (k = 1)";
  const how = t.deciders
    .map((d) => `${d.strategy}${d.player ? ` played by ${d.player}` : " (either player)"}, ${d.proof}`)
    .join("; ");
  text.textContent = `Table I: ${predicted} under optimal play.${how ? ` Decided by ${how}.` : ""}`;
}

// ---------------------------------------------------------------- rooms

function leaveRoom() {
  if (!page.room) return;
  page.room.closed = true;
  if (page.room.socket) page.room.socket.close();
  page.room = null;
}

async function createRoom() {
  const s = readSettings();
  showError("");
  try {
    const ticket = await api("POST", "/api/rooms", {
      rules: s.rules, k: s.k, width: s.width, height: s.height, seat: s.first === "me" ? "P1" : "P2",
    });
    enterRoom(ticket);
  } catch (error) {
    showError(error.message);
  }
}

async function openRoom(id, token) {
  let ticket;
  token = token || localStorage.getItem(`connectk-room-${id}`);
  try {
    if (token) {
      const view = await api("GET", `/api/rooms/${encodeURIComponent(id)}`, {});
      ticket = { id, token, seat: null, invite: `/?room=${id}`, room: view };
    } else {
      ticket = await api("POST", `/api/rooms/${encodeURIComponent(id)}/join`, {});
    }
  } catch (error) {
    return showError(error.message);
  }
  enterRoom(ticket);
}

function enterRoom(ticket) {
  leaveRoom();
  page.generation++;
  page.thinking = false;
  page.resigned = null;
  page.room = { id: ticket.id, token: ticket.token, seat: ticket.seat, socket: null, view: ticket.room, closed: false };
  if (ticket.token) localStorage.setItem(`connectk-room-${ticket.id}`, ticket.token);
  // The seat's token stays in this browser's storage, never in the address bar: an address
  // copied from there invites a player rather than giving the seat away.
  history.replaceState(null, "", ticket.invite);
  const invite = new URL(ticket.invite, location.href).href;
  $("invite").href = invite;
  $("invite").textContent = invite;
  $("room-info").hidden = false;
  $("analysis").checked = false;
  showRoom(ticket.room, { seat: ticket.seat });
  connect();
}

function connect() {
  const room = page.room;
  if (!room || room.closed) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = room.token ? `?token=${encodeURIComponent(room.token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${encodeURIComponent(room.id)}/live${query}`);
  room.socket = socket;
  socket.addEventListener("message", (event) => {
    const note = JSON.parse(event.data);
    if (note.type === "room") showRoom(note.room, { seat: note.you });
    else if (note.type === "error") showError(note.error);
  });
  socket.addEventListener("close", () => {
    if (room.closed || page.room !== room) return;
    $("seats").textContent = "Connection lost: reconnecting…";
    setTimeout(async () => {
      try {
        await api("GET", `/api/rooms/${encodeURIComponent(room.id)}`, {});
        connect();
      } catch (error) {
        room.closed = true;
        showError(error.message);
      }
    }, 1000);
  });
}

function showRoom(view, { seat }) {
  const room = page.room;
  if (seat !== undefined && seat !== null) room.seat = seat;
  const dropLast = view.state.plies > page.moves.length;
  room.view = view;
  page.settings = { ...page.settings, rules: view.state.rules, k: view.state.k, width: view.state.width, height: view.state.height, opponent: "human" };
  writeSettings(page.settings);
  page.moves = parseMoves(view.state.moves);
  page.state = view.state;
  room.viewAt = performance.now();
  showSeats();
  render({ dropLast });
}

// The seats and the room's clocks, counted down here between the server's notes.
function showSeats() {
  const room = page.room;
  if (!room || !room.view) return;
  const view = room.view;
  const gone = (performance.now() - room.viewAt) / 1000;
  const left = (seconds) => Math.max(0, Math.ceil(seconds - gone));
  const seatText = (player, s) => {
    if (!s.taken) return `${player}: waiting to join`;
    if (s.connected) return `${player}: connected`;
    if (s.reconnect_seconds_left != null) return `${player}: disconnected, ${left(s.reconnect_seconds_left)} s left to come back`;
    return `${player}: not connected`;
  };
  const idle = view.afk_seconds_left != null ? ` ${toMove(page.moves)} has ${left(view.afk_seconds_left)} s to move.` : "";
  $("seats").textContent =
    `${room.seat ? `You are ${room.seat} (${mark(room.seat)}).` : "You are watching."} ` +
    `${seatText("P1", view.seats[0])}; ${seatText("P2", view.seats[1])}.${idle}`;
}
setInterval(showSeats, 1000);

function send(message) {
  const socket = page.room && page.room.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return showError("Not connected to the room: reconnecting…");
  socket.send(JSON.stringify(message));
}

function roomMove(column) {
  const view = page.room.view;
  if (view.ending) return refuse(column, "The game is over.");
  if (!page.room.seat) return refuse(column, "You are watching this room.");
  if (toMove(page.moves) !== page.room.seat) return refuse(column, "Not your turn.");
  const col = $("board").querySelector(`.col[data-col="${column}"]`);
  if (col && col.classList.contains("full")) {
    return refuse(column, `column ${column} is full: choose a column that still has room`);
  }
  send({ type: "move", column });
}

// ---------------------------------------------------------------- start

function startFromUrl() {
  const q = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (q.get("room")) return openRoom(q.get("room"), fragment.get("token") || q.get("token"));
  const number = (key, fallback) => (q.has(key) ? Number(q.get(key)) : fallback);
  const settings = {
    rules: q.get("rules") || "normal",
    k: number("k", 4),
    width: number("width", 7),
    height: number("height", 6),
    opponent: q.get("opponent") || "human",
    first: q.get("first") === "bot" ? "bot" : "me",
    seed: number("seed", Math.floor(Math.random() * 1e9)),
  };
  page.settings = settings;
  writeSettings(settings);
  $("analysis").checked = q.get("analysis") === "1";
  return loadOffers()
    .then(() => {
      writeSettings(settings); // the opponent's option exists now
      return setMoves(parseMoves(q.get("moves") || ""));
    })
    .then(() => botMove())
    .catch((error) => showError(error.message));
}

document.addEventListener("keydown", (event) => {
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[0-9]$/.test(event.key)) {
    const column = event.key === "0" ? 10 : Number(event.key);
    if (column <= page.settings.width) {
      event.preventDefault();
      play(column);
    }
  } else if (event.key === "u") {
    undo();
  }
});

$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  if (page.room) history.replaceState(null, "", "/");
  newGame(readSettings());
});
for (const id of ["rules", "k", "width", "height", "first"]) $(id).addEventListener("change", loadOffers);
$("room-button").addEventListener("click", createRoom);
$("undo").addEventListener("click", undo);
$("resign").addEventListener("click", resign);
$("analysis").addEventListener("change", () => {
  if (!page.room) history.replaceState(null, "", gameUrl());
  analyse();
});
$("copy-invite").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("invite").href));

startFromUrl();
