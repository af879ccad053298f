//! Rooms over HTTP and WebSocket: creating and joining a room, moves and resignation, and the
//! live connection through which every browser in a room hears each change at once (and
//! through which the server knows who is connected).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::AppState;
use super::error::ApiError;
use super::query::Params;
use super::rooms::{Limits, Room, RoomView, Rooms};
use crate::engine::outcome::Player;

/// The rooms and, for each, the channel that tells its browsers of every change.
#[derive(Debug, Default)]
pub struct Hub {
    rooms: Rooms,
    channels: HashMap<String, watch::Sender<RoomView>>,
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
    pub fn tick(&mut self, limits: &Limits) {
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
    let link = match &token {
        Some(token) => format!("{invite}&token={token}"),
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

/// `POST /api/rooms`: a new room for the board of `rules`, `k`, `width`, `height`, with its
/// creator in `seat` (`P1`, the default, or `P2`).
pub async fn create(
    State(app): State<Arc<AppState>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Ticket>, ApiError> {
    let params = Params::new(query, &["rules", "k", "width", "height", "seat"])?;
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
    let room = Room::new(id.clone(), rules, seat, token.clone(), now);
    let view = room.view(&limits, now);
    let mut hub = app.hub.lock().map_err(|_| poisoned())?;
    hub.rooms.add(room, &limits)?;
    hub.channels
        .insert(id.clone(), watch::Sender::new(view.clone()));
    Ok(Json(ticket(&id, Some(seat), Some(token), view)))
}

fn poisoned() -> ApiError {
    ApiError::Internal("the room list is unavailable after an earlier failure".into())
}

/// `POST /api/rooms/{id}/join`: takes the free seat, or (both taken) lets the browser watch.
pub async fn join(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Ticket>, ApiError> {
    let limits = app.config.rooms;
    let token = secret();
    let mut hub = app.hub.lock().map_err(|_| poisoned())?;
    let (seat, view) = hub.update(&id, &limits, |room, now| Ok(room.join(token.clone(), now)))?;
    Ok(Json(ticket(&id, seat, seat.map(|_| token), view)))
}

/// `GET /api/rooms/{id}`: the room as its browsers see it (also once the game is over).
pub async fn view(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<RoomView>, ApiError> {
    let limits = app.config.rooms;
    let mut hub = app.hub.lock().map_err(|_| poisoned())?;
    let room = hub.rooms.get(&id)?;
    Ok(Json(room.view(&limits, Instant::now())))
}

/// `POST /api/rooms/{id}/move?token=...&column=N`: a move by the player holding `token`.
pub async fn play(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<RoomView>, ApiError> {
    let params = Params::new(query, &["token", "column"])?;
    let token = params.text("token").unwrap_or("").to_string();
    let column = params.number("column", 0u32, "a column number from 1")?;
    act(&app, &id, Action::Move { column }, &token).map(Json)
}

/// `POST /api/rooms/{id}/resign?token=...`: the player holding `token` resigns.
pub async fn resign(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<RoomView>, ApiError> {
    let params = Params::new(query, &["token"])?;
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
enum Note<'a> {
    /// The room after a change (sent first on connecting).
    Room {
        /// This connection's seat, if it has one.
        you: Option<Player>,
        /// The room.
        room: &'a RoomView,
    },
    /// A request of this connection was refused.
    Error {
        /// Why.
        error: String,
    },
}

/// `GET /api/rooms/{id}/live?token=...`: the live connection (a WebSocket) of a player (with
/// their token) or a watcher (without).
pub async fn live(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let params = Params::new(query, &["token"])?;
    let token = params.text("token").map(str::to_string);
    let (seat, updates) = {
        let mut hub = app.hub.lock().map_err(|_| poisoned())?;
        let seat = token
            .as_deref()
            .and_then(|t| hub.rooms.get(&id).ok()?.seat_of(t));
        hub.rooms.get(&id)?;
        if token.is_some() && seat.is_none() {
            return Err(ApiError::Refused(
                "this token holds no seat in the room: open the room's link without it to watch"
                    .into(),
            ));
        }
        let updates = hub.channels.get(&id).map(watch::Sender::subscribe);
        (
            seat,
            updates.ok_or_else(|| ApiError::NotFound(format!("no room {id:?}")))?,
        )
    };
    Ok(upgrade.on_upgrade(move |socket| connection(app, id, seat, token, updates, socket)))
}

/// One live connection: sends the room at every change, takes moves and resignations, and
/// keeps the seat's presence up to date.
async fn connection(
    app: Arc<AppState>,
    id: String,
    seat: Option<Player>,
    token: Option<String>,
    mut updates: watch::Receiver<RoomView>,
    mut socket: WebSocket,
) {
    let limits = app.config.rooms;
    let presence = |open: bool| {
        if let (Some(player), Ok(mut hub)) = (seat, app.hub.lock()) {
            // A room removed meanwhile has nobody left to tell.
            let _ = hub.update(&id, &limits, |room, now| {
                room.connection(player, open, now);
                Ok(())
            });
        }
    };
    presence(true);
    let mut shutdown = app.shutdown.subscribe();
    updates.mark_changed();
    loop {
        let note = tokio::select! {
            changed = updates.changed() => match changed {
                Ok(()) => {
                    let room = updates.borrow_and_update().clone();
                    serde_json::to_string(&Note::Room { you: seat, room: &room })
                }
                Err(_) => break,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    let answer = serde_json::from_str::<Action>(&text)
                        .map_err(|e| ApiError::BadRequest(format!(
                            "bad message: {e}: expected {{\"type\": \"move\", \"column\": N}} or {{\"type\": \"resign\"}}"
                        )))
                        .and_then(|action| act(&app, &id, action, token.as_deref().unwrap_or("")));
                    match answer {
                        // The change reaches this connection through `updates` like any other.
                        Ok(_) => continue,
                        Err(error) => serde_json::to_string(&Note::Error { error: error.to_string() }),
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => continue,
            },
            _ = shutdown.changed() => break,
        };
        let Ok(note) = note else { break };
        if socket.send(Message::Text(note.into())).await.is_err() {
            break;
        }
    }
    presence(false);
    let _ = socket.send(Message::Close(None)).await;
}
