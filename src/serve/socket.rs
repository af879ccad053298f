//! Rooms over HTTP and WebSocket: creating and joining a room, moves and resignation, and the
//! live connection through which every browser in a room hears each change at once (and
//! through which the server knows who is connected).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use tokio::sync::{OwnedSemaphorePermit, watch};

use super::AppState;
use super::error::ApiError;
use super::listen::turned_true;
use super::query::Params;
use super::rooms::{Limits, Room, RoomView, Rooms};
use crate::engine::outcome::Player;

/// The limits on live connections (WebSockets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocketLimits {
    /// Live connections open at once, in all rooms.
    pub max: usize,
    /// Live connections open at once to one room (its two players and its watchers).
    pub per_room: usize,
    /// The largest message (and frame) a browser may send, in bytes; real ones are under 100.
    pub max_message: usize,
    /// How often an idle connection is pinged; one that has not answered for two of these is
    /// closed as dead.
    pub ping: Duration,
}

/// The most a live connection may have waiting to be sent to a browser that does not read.
const SOCKET_WRITE_LIMIT: usize = 256 * 1024;

/// How long a message to a browser may take to send before the connection counts as stuck.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// The rooms, for each the channel that tells its browsers of every change, and the number of
/// live connections to each.
#[derive(Debug, Default)]
pub(crate) struct Hub {
    rooms: Rooms,
    channels: HashMap<String, watch::Sender<RoomView>>,
    sockets: HashMap<String, usize>,
}

impl Hub {
    /// Runs `change` on room `id`, then tells its browsers.
    fn update<T>(
        &mut self,
        id: &str,
        limits: &Limits,
        change: impl FnOnce(&mut Room, Instant) -> Result<T, ApiError>,
    ) -> Result<(T, RoomView), ApiError> {
        let now = Instant::now();
        let room = self.rooms.get(id)?;
        let answer = change(room, now)?;
        let view = room.view(limits, now);
        if let Some(channel) = self.channels.get(id) {
            channel.send_replace(view.clone());
        }
        Ok((answer, view))
    }

    /// Runs the clocks of every room, tells the browsers of the games that just ended and
    /// closes the channels of the rooms removed.
    pub(crate) fn tick(&mut self, limits: &Limits) {
        let now = Instant::now();
        let (ended, removed) = self.rooms.tick(limits, now);
        for id in ended {
            if let (Ok(room), Some(channel)) = (self.rooms.get(&id), self.channels.get(&id)) {
                channel.send_replace(room.view(limits, now));
            }
        }
        for id in removed {
            // Dropping the sender ends every connection to the room.
            self.channels.remove(&id);
        }
    }

    /// Counts one more live connection to room `id`.
    ///
    /// # Errors
    /// [`ApiError::Busy`] when the room already has `limit` of them.
    fn open_socket(&mut self, id: &str, limit: usize) -> Result<(), ApiError> {
        let open = self.sockets.entry(id.to_string()).or_default();
        if *open >= limit {
            return Err(ApiError::Busy {
                message: format!(
                    "room {id:?} has {limit} live connections, its limit: close one and try again"
                ),
                retry_after: Duration::from_secs(10),
            });
        }
        *open += 1;
        Ok(())
    }

    /// Counts one live connection to room `id` fewer.
    fn close_socket(&mut self, id: &str) {
        if let Some(open) = self.sockets.get_mut(id) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                self.sockets.remove(id);
            }
        }
    }
}

/// A fresh unguessable name: 128 random bits in hex.
fn secret() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// A seat in a room, as handed to the player who took it.
#[derive(Clone, Debug, Serialize)]
pub struct Ticket {
    /// The room's name.
    pub id: String,
    /// The seat taken; `null` for a browser that can only watch.
    pub seat: Option<Player>,
    /// The secret that proves the seat (keep it to come back); `null` with no seat.
    pub token: Option<String>,
    /// The page's link for this player (with the token: the link to come back with).
    pub link: String,
    /// The link to send to the other player.
    pub invite: String,
    /// The room now.
    pub room: RoomView,
}

fn ticket(id: &str, seat: Option<Player>, token: Option<String>, room: RoomView) -> Ticket {
    let invite = format!("/?room={id}");
    // The token goes in the fragment, which browsers never send and the page removes from the
    // address bar at once: an address copied from there is the invite, not the seat.
    let link = match &token {
        Some(token) => format!("{invite}#token={token}"),
        None => invite.clone(),
    };
    Ticket {
        id: id.to_string(),
        seat,
        token,
        link,
        invite,
        room,
    }
}

/// `POST /api/rooms`: a new room for the board of `rules`, `k`, `width`, `height` and
/// `topology`, with its creator in `seat` (`P1`, the default, or `P2`). Each client address may
/// make a few rooms at once and a few a minute after that.
pub(crate) async fn create(
    State(app): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    RawQuery(query): RawQuery,
) -> Result<Json<Ticket>, ApiError> {
    let params = Params::parse(
        query.as_deref(),
        &["rules", "k", "width", "height", "topology", "seat"],
    )?;
    let rules = params.rules()?;
    let seat = match params.text("seat") {
        None | Some("P1") => Player::P1,
        Some("P2") => Player::P2,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "seat = {other:?} is not a seat: expected P1 or P2"
            )));
        }
    };
    let limits = app.config.rooms;
    let (id, token, now) = (secret()[..12].to_string(), secret(), Instant::now());
    // A full server says so first: a refused room costs the client none of its allowance.
    app.hub
        .lock()
        .map_err(|_| poisoned())?
        .rooms
        .check_space(&limits, now)?;
    let allowed = app
        .room_rate
        .lock()
        .map_err(|_| poisoned())?
        .take(peer.ip(), now);
    if let Err(retry_after) = allowed {
        return Err(ApiError::TooMany {
            message: format!(
                "too many new rooms from {}: try again in {} s",
                peer.ip(),
                retry_after.as_secs() + 1
            ),
            retry_after,
        });
    }
    let room = Room::new(id.clone(), rules, seat, token.clone(), now);
    let view = room.view(&limits, now);
    let mut hub = app.hub.lock().map_err(|_| poisoned())?;
    hub.rooms.add(room, &limits, now)?;
    hub.channels
        .insert(id.clone(), watch::Sender::new(view.clone()));
    Ok(Json(ticket(&id, Some(seat), Some(token), view)))
}

fn poisoned() -> ApiError {
    ApiError::Internal("the room list is unavailable after an earlier failure".into())
}

/// `POST /api/rooms/{id}/join`: takes the free seat, or (both taken) lets the browser watch.
pub(crate) async fn join(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Ticket>, ApiError> {
    Params::parse(query.as_deref(), &[])?;
    let limits = app.config.rooms;
    let token = secret();
    let mut hub = app.hub.lock().map_err(|_| poisoned())?;
    let (seat, view) = hub.update(&id, &limits, |room, now| Ok(room.join(token.clone(), now)))?;
    Ok(Json(ticket(&id, seat, seat.map(|_| token), view)))
}

/// `GET /api/rooms/{id}`: the room as its browsers see it (also once the game is over).
pub(crate) async fn view(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<RoomView>, ApiError> {
    Params::parse(query.as_deref(), &[])?;
    let limits = app.config.rooms;
    let mut hub = app.hub.lock().map_err(|_| poisoned())?;
    let room = hub.rooms.get(&id)?;
    Ok(Json(room.view(&limits, Instant::now())))
}

/// `POST /api/rooms/{id}/move?token=...&column=N`: a move by the player holding `token`.
pub(crate) async fn play(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<RoomView>, ApiError> {
    let params = Params::parse(query.as_deref(), &["token", "column"])?;
    let token = params.text("token").unwrap_or("").to_string();
    let column = params.number("column", 0u32, "a column number from 1")?;
    act(&app, &id, Action::Move { column }, &token).map(Json)
}

/// `POST /api/rooms/{id}/resign?token=...`: the player holding `token` resigns.
pub(crate) async fn resign(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<RoomView>, ApiError> {
    let params = Params::parse(query.as_deref(), &["token"])?;
    let token = params.text("token").unwrap_or("").to_string();
    act(&app, &id, Action::Resign, &token).map(Json)
}

/// What a player asks of a room, by HTTP or over the live connection.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Action {
    /// Drop a disc in `column` (from 1).
    Move {
        /// The column.
        column: u32,
    },
    /// Give up.
    Resign,
}

fn act(app: &AppState, id: &str, action: Action, token: &str) -> Result<RoomView, ApiError> {
    let limits = app.config.rooms;
    let mut hub = app.hub.lock().map_err(|_| poisoned())?;
    let ((), view) = hub.update(id, &limits, |room, now| match action {
        Action::Move { column } => room.play(token, column, now),
        Action::Resign => room.resign(token, now),
    })?;
    Ok(view)
}

/// What the server sends over the live connection.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Note {
    /// The room after a change (sent first on connecting).
    Room {
        /// This connection's seat, if it has one.
        you: Option<Player>,
        /// The room.
        room: Box<RoomView>,
    },
    /// A request of this connection was refused.
    Error {
        /// Why.
        error: String,
    },
    /// A WebSocket ping (not sent as JSON): is the browser still there?
    #[serde(skip)]
    Ping,
}

/// `GET /api/rooms/{id}/live?token=...`: the live connection (a WebSocket) of a player (with
/// their token) or a watcher (without), within the limits on live connections.
pub(crate) async fn live(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref(), &["token"])?;
    let token = params.text("token").map(str::to_string);
    let limits = app.config.sockets;
    let permit = Arc::clone(&app.sockets)
        .try_acquire_owned()
        .map_err(|_| ApiError::Busy {
            message: format!(
                "the server has {} live connections, its limit: try again later",
                limits.max
            ),
            retry_after: Duration::from_secs(10),
        })?;
    let (seat, updates) = {
        let mut hub = app.hub.lock().map_err(|_| poisoned())?;
        let room = hub.rooms.get(&id)?;
        let seat = token.as_deref().and_then(|t| room.seat_of(t));
        if token.is_some() && seat.is_none() {
            return Err(ApiError::Refused(
                "this token holds no seat in the room: open the room's link without it to watch"
                    .into(),
            ));
        }
        let updates = hub
            .channels
            .get(&id)
            .map(watch::Sender::subscribe)
            .ok_or_else(|| ApiError::NotFound(format!("no room {id:?}")))?;
        hub.open_socket(&id, limits.per_room)?;
        (seat, updates)
    };
    let live = Live {
        app,
        id,
        seat,
        token,
        _permit: permit,
    };
    // Buffers of a few messages each, rather than the library's 128 KiB: a room's messages
    // are small, and the server holds hundreds of sockets.
    let buffer = 2 * limits.max_message;
    Ok(upgrade
        .read_buffer_size(buffer)
        .write_buffer_size(buffer)
        .max_write_buffer_size(SOCKET_WRITE_LIMIT)
        .max_message_size(limits.max_message)
        .max_frame_size(limits.max_message)
        .on_upgrade(move |socket| live.run(updates, socket)))
}

/// One live connection to a room, holding its place under the server's limit until it ends.
struct Live {
    app: Arc<AppState>,
    id: String,
    seat: Option<Player>,
    token: Option<String>,
    _permit: OwnedSemaphorePermit,
}

/// Why a live connection ended, as its close frame tells the browser.
fn close_frame(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

impl Live {
    /// Marks the seat's player connected (`true`) or gone (`false`).
    fn presence(&self, open: bool) {
        let limits = self.app.config.rooms;
        if let (Some(player), Ok(mut hub)) = (self.seat, self.app.hub.lock()) {
            // A room removed meanwhile has nobody left to tell.
            let _ = hub.update(&self.id, &limits, |room, now| {
                room.connection(player, open, now);
                Ok(())
            });
        }
    }

    /// Sends the room at every change, takes moves and resignations, pings the browser while
    /// it is quiet, and keeps the seat's presence up to date, until either side closes, the
    /// room is removed or the server shuts down.
    async fn run(self, mut updates: watch::Receiver<RoomView>, mut socket: WebSocket) {
        self.presence(true);
        let ending = self.exchange(&mut updates, &mut socket).await;
        self.presence(false);
        if let Some(frame) = ending {
            let _ = tokio::time::timeout(SEND_TIMEOUT, socket.send(frame)).await;
        }
        if let Ok(mut hub) = self.app.hub.lock() {
            hub.close_socket(&self.id);
        }
    }

    /// The exchange of [`Live::run`]; returns the close frame to send, if any.
    async fn exchange(
        &self,
        updates: &mut watch::Receiver<RoomView>,
        socket: &mut WebSocket,
    ) -> Option<Message> {
        let mut shutdown = self.app.shutdown.subscribe();
        let ping = self.app.config.sockets.ping;
        let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping, ping);
        let mut heard = Instant::now();
        updates.mark_changed();
        loop {
            let note = tokio::select! {
                changed = updates.changed() => match changed {
                    Ok(()) => {
                        let room = updates.borrow_and_update().clone();
                        Note::Room { you: self.seat, room: Box::new(room) }
                    }
                    Err(_) => {
                        return Some(close_frame(close_code::NORMAL, "the room was removed after its time"));
                    }
                },
                incoming = socket.recv() => {
                    heard = Instant::now();
                    match incoming {
                        Some(Ok(Message::Text(text))) => match self.answer(&text) {
                            // The change reaches this connection through `updates`.
                            Ok(()) => continue,
                            Err(error) => Note::Error { error: error.to_string() },
                        },
                        Some(Ok(Message::Close(_))) | None => return None,
                        Some(Err(_)) => return Some(close_frame(close_code::SIZE, "message too large or malformed: moves are {\"type\": \"move\", \"column\": N}")),
                        Some(Ok(_)) => continue,
                    }
                },
                _ = pings.tick() => {
                    if heard.elapsed() >= 2 * ping {
                        return Some(close_frame(close_code::AWAY, "no answer to pings"));
                    }
                    Note::Ping
                },
                () = turned_true(&mut shutdown) => {
                    return Some(close_frame(close_code::AWAY, "the server is shutting down"));
                },
            };
            let message = match note {
                Note::Ping => Message::Ping(Default::default()),
                note => match serde_json::to_string(&note) {
                    Ok(text) => Message::Text(text.into()),
                    Err(_) => return None,
                },
            };
            match tokio::time::timeout(SEND_TIMEOUT, socket.send(message)).await {
                Ok(Ok(())) => {}
                _ => return None,
            }
        }
    }

    /// Plays the action a browser sent.
    fn answer(&self, text: &str) -> Result<(), ApiError> {
        let action = serde_json::from_str::<Action>(text).map_err(|e| {
            ApiError::BadRequest(format!(
                "bad message: {e}: expected {{\"type\": \"move\", \"column\": N}} or {{\"type\": \"resign\"}}"
            ))
        })?;
        act(
            &self.app,
            &self.id,
            action,
            self.token.as_deref().unwrap_or(""),
        )
        .map(|_| ())
    }
}
