// Rooms: a game with a friend on another screen, over a WebSocket. The seat's token stays in
// this browser's storage and the link's fragment, never in the address bar.
"use strict";

import { $, api, mark, other } from "./common.js";

// The page's side of a room: set by `useRooms`.
let app = null;

// `hooks`: { page, shown(view, dropLast), showError, refuse, leaveGame }.
export function useRooms(hooks) {
  app = hooks;
  setInterval(showSeats, 1000);
  $("copy-invite").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("invite").href));
}

export function leaveRoom() {
  const room = app.page.room;
  if (!room) return;
  room.closed = true;
  if (room.socket) room.socket.close();
  app.page.room = null;
  $("room-info").hidden = true;
}

export async function createRoom(settings) {
  app.showError("");
  try {
    const ticket = await api("POST", "/api/rooms", {
      rules: settings.rules,
      k: settings.k,
      width: settings.width,
      height: settings.height,
      topology: settings.topology,
      seat: settings.first === "me" ? "P1" : "P2",
    });
    enterRoom(ticket);
  } catch (error) {
    app.showError(error.message);
  }
}

export async function openRoom(id, token) {
  let ticket;
  token = token || localStorage.getItem(`connectk-room-${id}`);
  try {
    if (token) {
      const view = await api("GET", `/api/rooms/${encodeURIComponent(id)}`);
      ticket = { id, token, seat: null, invite: `/?room=${id}`, room: view };
    } else {
      ticket = await api("POST", `/api/rooms/${encodeURIComponent(id)}/join`);
    }
  } catch (error) {
    return app.showError(error.message);
  }
  enterRoom(ticket);
}

function enterRoom(ticket) {
  leaveRoom();
  app.leaveGame();
  app.page.room = { id: ticket.id, token: ticket.token, seat: ticket.seat, socket: null, view: ticket.room, closed: false };
  if (ticket.token) localStorage.setItem(`connectk-room-${ticket.id}`, ticket.token);
  // The seat's token stays in this browser's storage, never in the address bar: an address
  // copied from there invites a player rather than giving the seat away.
  history.replaceState(null, "", ticket.invite);
  const invite = new URL(ticket.invite, location.href).href;
  $("invite").href = invite;
  $("invite").textContent = invite;
  $("room-info").hidden = false;
  showRoom(ticket.room, ticket.seat);
  connect();
}

function connect() {
  const room = app.page.room;
  if (!room || room.closed) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = room.token ? `?token=${encodeURIComponent(room.token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${encodeURIComponent(room.id)}/live${query}`);
  room.socket = socket;
  socket.addEventListener("message", (event) => {
    const note = JSON.parse(event.data);
    if (note.type === "room") showRoom(note.room, note.you);
    else if (note.type === "error") app.showError(note.error);
  });
  socket.addEventListener("close", () => {
    if (room.closed || app.page.room !== room) return;
    $("seats").textContent = "Connection lost: reconnecting…";
    setTimeout(async () => {
      try {
        await api("GET", `/api/rooms/${encodeURIComponent(room.id)}`);
        connect();
      } catch (error) {
        room.closed = true;
        app.showError(error.message);
      }
    }, 1000);
  });
}

function showRoom(view, seat) {
  const room = app.page.room;
  if (seat !== undefined && seat !== null) room.seat = seat;
  room.view = view;
  room.viewAt = performance.now();
  showSeats();
  app.shown(view);
}

// The seats and the room's clocks, counted down here between the server's notes.
function showSeats() {
  const room = app && app.page.room;
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
  const toMove = view.state.to_move;
  const idle = view.afk_seconds_left != null && toMove ? ` ${toMove} has ${left(view.afk_seconds_left)} s to move.` : "";
  $("seats").textContent =
    `${room.seat ? `You are ${room.seat} (${mark(room.seat)}).` : "You are watching."} ` +
    `${seatText("P1", view.seats[0])}; ${seatText("P2", view.seats[1])}.${idle}`;
}

export function send(message) {
  const socket = app.page.room && app.page.room.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return app.showError("Not connected to the room: reconnecting…");
  socket.send(JSON.stringify(message));
}

// A click on `column` in a room: sent if it is this seat's turn.
export function roomMove(column, { full, turn }) {
  const room = app.page.room;
  if (room.view.ending) return app.refuse(column, "The game is over.");
  if (!room.seat) return app.refuse(column, "You are watching this room.");
  if (turn !== room.seat) return app.refuse(column, `Not your turn: ${other(room.seat)} is to move.`);
  if (full) return app.refuse(column, `column ${column} is full: choose a column that still has room`);
  send({ type: "move", column });
}
