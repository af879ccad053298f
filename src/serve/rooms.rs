//! Shared game rooms: two seats, moves checked against the seat
//! and the turn, a reconnect window for a dropped player, an optional idle limit, and the
//! reasons a game can end.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::error::ApiError;
use crate::analysis::GameState;
use crate::engine::notation;
use crate::engine::outcome::{GameResult, Player, Reason};
use crate::engine::position::{Column, Position};
use crate::engine::rules::{Rules, Variant};

/// The time limits of rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How long a player whose connection dropped may take to come back.
    pub reconnect: Duration,
    /// How long the player to move may stay idle (`None`: no limit).
    pub afk: Option<Duration>,
    /// How long a room is kept once finished, or once nothing has happened in it.
    pub keep: Duration,
    /// How long a room waits for its second player: past it, a room nobody joined is removed
    /// (so that rooms made and abandoned cannot fill the list for long).
    pub lobby: Duration,
    /// The most rooms at once.
    pub max_rooms: usize,
}

/// Why a room's game ended, beyond the board's own reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Someone completed a line of k (under misère rules, and so lost).
    Line,
    /// The board filled up without a line: a draw.
    #[serde(rename = "board-full")]
    BoardFull,
    /// A player resigned.
    Resignation,
    /// The player to move stayed idle past the limit.
    AfkTimeout,
    /// A player did not come back within the reconnect window.
    Disconnect,
}

/// How a room's game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// `P1`, `P2`, or `null` for a draw.
    pub winner: Option<Player>,
    /// Why.
    pub reason: EndReason,
    /// The ending in words.
    pub message: String,
}

/// One seat of a room.
#[derive(Clone, Debug, Default)]
struct Seat {
    /// The secret that identifies the seat's player; `None` while the seat is free.
    token: Option<String>,
    /// Open connections of its player.
    connections: usize,
    /// Since when the seated player has had no connection.
    away_since: Option<Instant>,
}

/// A seat as every browser in the room sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    /// Whether a player holds the seat.
    pub taken: bool,
    /// Whether that player is connected now.
    pub connected: bool,
    /// Seconds left for a dropped player to come back, while the game is on.
    pub reconnect_seconds_left: Option<f64>,
}

/// A room as every browser in it sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoomView {
    /// The room's name.
    pub id: String,
    /// The board and the moves.
    pub state: GameState,
    /// P1's seat, then P2's.
    pub seats: [SeatView; 2],
    /// Whether both players have arrived.
    pub started: bool,
    /// How the game ended; `null` while it is on.
    pub ending: Option<Ending>,
    /// The reconnect window in seconds.
    pub reconnect_seconds: f64,
    /// The idle limit in seconds, if any.
    pub afk_seconds: Option<f64>,
    /// Seconds left for the player to move before the idle limit, while the game is on.
    pub afk_seconds_left: Option<f64>,
}

/// A game between two seats.
#[derive(Clone, Debug)]
pub(crate) struct Room {
    id: String,
    position: Position,
    moves: Vec<Column>,
    seats: [Seat; 2],
    ending: Option<Ending>,
    /// When the room was made.
    created: Instant,
    /// When the player to move got the move (the start, or the last move).
    turn_since: Instant,
    /// The last thing that happened (for removing idle rooms).
    touched: Instant,
}

fn seat_index(player: Player) -> usize {
    match player {
        Player::P1 => 0,
        Player::P2 => 1,
    }
}

impl Room {
    /// A room named `id` for `rules`, with `creator` (holding `token`) in its seat.
    pub(crate) fn new(
        id: String,
        rules: Rules,
        creator: Player,
        token: String,
        now: Instant,
    ) -> Room {
        let mut seats: [Seat; 2] = Default::default();
        seats[seat_index(creator)].token = Some(token);
        Room {
            id,
            position: Position::new(rules),
            moves: Vec::new(),
            seats,
            ending: None,
            created: now,
            turn_since: now,
            touched: now,
        }
    }

    /// Whether both seats are taken.
    pub(crate) fn started(&self) -> bool {
        self.seats.iter().all(|s| s.token.is_some())
    }

    /// The seat whose player holds `token`.
    pub(crate) fn seat_of(&self, token: &str) -> Option<Player> {
        [Player::P1, Player::P2]
            .into_iter()
            .find(|&p| self.seats[seat_index(p)].token.as_deref() == Some(token))
    }

    /// Seats the second player with `token`, and returns their seat; `None` when both seats
    /// are already taken (the newcomer can watch).
    pub(crate) fn join(&mut self, token: String, now: Instant) -> Option<Player> {
        let free = [Player::P1, Player::P2]
            .into_iter()
            .find(|&p| self.seats[seat_index(p)].token.is_none())?;
        let seat = &mut self.seats[seat_index(free)];
        seat.token = Some(token);
        self.turn_since = now;
        self.touched = now;
        self.mark_absent(now);
        Some(free)
    }

    /// A connection of `player` opened (`true`) or closed (`false`).
    pub(crate) fn connection(&mut self, player: Player, open: bool, now: Instant) {
        let seat = &mut self.seats[seat_index(player)];
        if open {
            seat.connections += 1;
            seat.away_since = None;
        } else {
            seat.connections = seat.connections.saturating_sub(1);
        }
        self.touched = now;
        self.mark_absent(now);
    }

    /// Starts the reconnect clock of every seated player with no connection, once the game is
    /// on.
    fn mark_absent(&mut self, now: Instant) {
        if !self.started() || self.ending.is_some() {
            return;
        }
        for seat in &mut self.seats {
            if seat.connections == 0 && seat.away_since.is_none() {
                seat.away_since = Some(now);
            }
        }
    }

    /// Plays `column` for the player holding `token`.
    ///
    /// # Errors
    /// [`ApiError::Refused`] when the token holds no seat, the game has not started or is
    /// over, or it is the other player's turn; [`ApiError::BadRequest`] with the library's
    /// message for a column that does not exist or is full.
    pub(crate) fn play(&mut self, token: &str, column: u32, now: Instant) -> Result<(), ApiError> {
        let player = self.acting(token)?;
        if player != self.position.to_move() {
            return Err(ApiError::Refused(format!(
                "not your turn: {} is to move",
                self.position.to_move()
            )));
        }
        let column = Column::from_number(column).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "no column {column}: columns are numbered 1 to {}",
                self.position.rules().width()
            ))
        })?;
        self.position.play(column).map_err(ApiError::bad)?;
        self.moves.push(column);
        self.turn_since = now;
        self.touched = now;
        if let Some(outcome) = self.position.outcome() {
            let (reason, message) = match outcome.reason {
                Reason::Line { by, .. } => {
                    let k = self.position.rules().k();
                    let message = match self.position.rules().variant() {
                        Variant::Normal => format!("{by} made a line of {k} and wins"),
                        Variant::Misere => {
                            format!("{by} completed a line of {k} and so loses (misère rules)")
                        }
                    };
                    (EndReason::Line, message)
                }
                Reason::BoardFull => (EndReason::BoardFull, "Board full - Draw".to_string()),
            };
            let winner = match outcome.result {
                GameResult::Win(p) => Some(p),
                GameResult::Draw => None,
            };
            self.end(winner, reason, message, now);
        }
        Ok(())
    }

    /// The player holding `token` resigns; the other wins.
    ///
    /// # Errors
    /// As for [`Room::play`], without the turn: either player may resign at any time.
    pub(crate) fn resign(&mut self, token: &str, now: Instant) -> Result<(), ApiError> {
        let player = self.acting(token)?;
        self.end(
            Some(player.other()),
            EndReason::Resignation,
            format!("{player} resigned"),
            now,
        );
        Ok(())
    }

    /// The seat of `token`, when it may act now.
    fn acting(&self, token: &str) -> Result<Player, ApiError> {
        let player = self.seat_of(token).ok_or_else(|| {
            ApiError::Refused(
                "you are not a player in this room: only its two players can move".into(),
            )
        })?;
        if let Some(ending) = &self.ending {
            return Err(ApiError::Refused(format!(
                "the game is over ({}): start a new room to play again",
                ending.message
            )));
        }
        if !self.started() {
            return Err(ApiError::Refused(
                "the game has not started: waiting for the second player to open the link".into(),
            ));
        }
        Ok(player)
    }

    fn end(&mut self, winner: Option<Player>, reason: EndReason, message: String, now: Instant) {
        self.ending = Some(Ending {
            winner,
            reason,
            message,
        });
        self.touched = now;
        for seat in &mut self.seats {
            seat.away_since = None;
        }
    }

    /// Ends the game of a player who stayed away past the reconnect window, or idle past the
    /// idle limit; returns whether anything changed.
    pub(crate) fn check_clocks(&mut self, limits: &Limits, now: Instant) -> bool {
        if self.ending.is_some() || !self.started() {
            return false;
        }
        for player in [Player::P1, Player::P2] {
            let away = self.seats[seat_index(player)].away_since;
            if away.is_some_and(|t| now.duration_since(t) >= limits.reconnect) {
                let message = format!("{player} did not come back in time");
                self.end(Some(player.other()), EndReason::Disconnect, message, now);
                return true;
            }
        }
        if let Some(afk) = limits.afk
            && now.duration_since(self.turn_since) >= afk
        {
            let player = self.position.to_move();
            let message = format!("{player} stayed idle too long");
            self.end(Some(player.other()), EndReason::AfkTimeout, message, now);
            return true;
        }
        false
    }

    /// Whether the room is old enough to remove: nobody joined it within `limits.lobby`, or
    /// nothing has happened in it (a move, a connection, its end) for `limits.keep`.
    pub(crate) fn expired(&self, limits: &Limits, now: Instant) -> bool {
        self.expires_in(limits, now).is_zero()
    }

    /// How long until the room is removed if nothing more happens in it.
    pub(crate) fn expires_in(&self, limits: &Limits, now: Instant) -> Duration {
        let kept = limits.keep.saturating_sub(now.duration_since(self.touched));
        if self.started() {
            return kept;
        }
        let waiting = limits
            .lobby
            .saturating_sub(now.duration_since(self.created));
        kept.min(waiting)
    }

    /// The room as its browsers see it.
    pub(crate) fn view(&self, limits: &Limits, now: Instant) -> RoomView {
        let on = self.started() && self.ending.is_none();
        let left = |since: Instant, limit: Duration| {
            limit
                .saturating_sub(now.duration_since(since))
                .as_secs_f64()
        };
        let seat = |s: &Seat| SeatView {
            taken: s.token.is_some(),
            connected: s.connections > 0,
            reconnect_seconds_left: s
                .away_since
                .filter(|_| on)
                .map(|t| left(t, limits.reconnect)),
        };
        RoomView {
            id: self.id.clone(),
            state: GameState::of(
                &self.position,
                &notation::format(self.position.rules(), &self.moves),
            ),
            seats: [seat(&self.seats[0]), seat(&self.seats[1])],
            started: self.started(),
            ending: self.ending.clone(),
            reconnect_seconds: limits.reconnect.as_secs_f64(),
            afk_seconds: limits.afk.map(|d| d.as_secs_f64()),
            afk_seconds_left: limits.afk.filter(|_| on).map(|d| left(self.turn_since, d)),
        }
    }
}

/// Every room, by name.
#[derive(Debug, Default)]
pub(crate) struct Rooms {
    rooms: HashMap<String, Room>,
}

impl Rooms {
    /// Adds `room`.
    ///
    /// # Errors
    /// [`ApiError::Busy`] when `limits.max_rooms` rooms are open, saying when the first of
    /// them will be removed.
    pub(crate) fn add(
        &mut self,
        room: Room,
        limits: &Limits,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.check_space(limits, now)?;
        self.rooms.insert(room.id.clone(), room);
        Ok(())
    }

    /// Whether one more room fits.
    ///
    /// # Errors
    /// As [`Rooms::add`].
    pub(crate) fn check_space(&self, limits: &Limits, now: Instant) -> Result<(), ApiError> {
        if self.rooms.len() >= limits.max_rooms {
            let retry_after = self
                .rooms
                .values()
                .map(|r| r.expires_in(limits, now))
                .min()
                .unwrap_or(limits.lobby);
            return Err(ApiError::Busy {
                message: format!(
                    "the server holds {} rooms, its limit: try again in {} s",
                    limits.max_rooms,
                    retry_after.as_secs().max(1)
                ),
                retry_after,
            });
        }
        Ok(())
    }

    /// The room named `id`.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] when there is none (never made, or removed after its time).
    pub(crate) fn get(&mut self, id: &str) -> Result<&mut Room, ApiError> {
        self.rooms.get_mut(id).ok_or_else(|| {
            ApiError::NotFound(format!(
                "no room {id:?}: it never existed or was removed after its time"
            ))
        })
    }

    /// Runs every room's clocks and removes the expired rooms; returns the names of the rooms
    /// whose game just ended and of those removed.
    pub(crate) fn tick(&mut self, limits: &Limits, now: Instant) -> (Vec<String>, Vec<String>) {
        let ended = self
            .rooms
            .values_mut()
            .filter_map(|room| room.check_clocks(limits, now).then(|| room.id.clone()))
            .collect();
        let removed: Vec<String> = self
            .rooms
            .values()
            .filter(|room| room.expired(limits, now))
            .map(|room| room.id.clone())
            .collect();
        for id in &removed {
            self.rooms.remove(id);
        }
        (ended, removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        reconnect: Duration::from_secs(60),
        afk: Some(Duration::from_secs(300)),
        keep: Duration::from_secs(3600),
        lobby: Duration::from_secs(600),
        max_rooms: 2,
    };

    fn started(rules: Rules) -> (Room, Instant) {
        let t0 = Instant::now();
        let mut room = Room::new("r".into(), rules, Player::P1, "a".into(), t0);
        assert_eq!(room.join("b".into(), t0), Some(Player::P2));
        room.connection(Player::P1, true, t0);
        room.connection(Player::P2, true, t0);
        (room, t0)
    }

    fn refused(result: Result<(), ApiError>) -> String {
        match result {
            Err(ApiError::Refused(text)) => text,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_game_is_played_in_turn_by_its_two_seats_to_the_line() {
        let (mut room, t) = started(Rules::standard());
        assert!(refused(room.play("b", 4, t)).starts_with("not your turn: P1"));
        assert!(refused(room.play("c", 4, t)).starts_with("you are not a player"));
        for (token, column) in [("a", 1), ("b", 2), ("a", 1), ("b", 2), ("a", 1), ("b", 2)] {
            room.play(token, column, t).unwrap();
        }
        room.play("a", 1, t).unwrap();
        let view = room.view(&LIMITS, t);
        let ending = view.ending.unwrap();
        assert_eq!(
            (ending.winner, ending.reason),
            (Some(Player::P1), EndReason::Line)
        );
        assert_eq!(
            view.state.winning_cells,
            vec![[0, 0], [0, 1], [0, 2], [0, 3]]
        );
        assert!(refused(room.play("b", 2, t)).starts_with("the game is over"));
    }

    #[test]
    fn under_misere_rules_the_maker_of_the_line_loses() {
        let (mut room, t) = started(Rules::standard().with_variant(Variant::Misere));
        for column in [1, 2, 1, 2, 1, 2, 1] {
            let token = if room.position.to_move() == Player::P1 {
                "a"
            } else {
                "b"
            };
            room.play(token, column, t).unwrap();
        }
        let ending = room.view(&LIMITS, t).ending.unwrap();
        assert_eq!(ending.winner, Some(Player::P2));
        assert!(
            ending
                .message
                .contains("P1 completed a line of 4 and so loses")
        );
    }

    #[test]
    fn a_full_column_gets_the_librarys_message() {
        let rules = Rules::new(4, 7, 2, Variant::Normal).unwrap();
        let (mut room, t) = started(rules);
        room.play("a", 3, t).unwrap();
        room.play("b", 3, t).unwrap();
        let expected = Position::new(rules)
            .played(Column::from_number(3).unwrap())
            .unwrap()
            .played(Column::from_number(3).unwrap())
            .unwrap()
            .check_move(Column::from_number(3).unwrap())
            .unwrap_err()
            .to_string();
        assert_eq!(room.play("a", 3, t), Err(ApiError::BadRequest(expected)));
        assert!(matches!(room.play("a", 9, t), Err(ApiError::BadRequest(_))));
    }

    #[test]
    fn no_move_before_the_second_player_arrives() {
        let t = Instant::now();
        let mut room = Room::new("r".into(), Rules::standard(), Player::P2, "a".into(), t);
        assert!(refused(room.play("a", 4, t)).starts_with("the game has not started"));
        assert_eq!(room.join("b".into(), t), Some(Player::P1));
        assert_eq!(room.join("c".into(), t), None);
        room.play("b", 4, t).unwrap();
    }

    #[test]
    fn a_dropped_player_has_the_window_to_come_back() {
        let (mut room, t) = started(Rules::standard());
        room.connection(Player::P2, false, t);
        let almost = t + Duration::from_secs(59);
        assert!(!room.check_clocks(&LIMITS, almost));
        assert_eq!(
            room.view(&LIMITS, almost).seats[1].reconnect_seconds_left,
            Some(1.0)
        );
        room.connection(Player::P2, true, almost);
        assert!(!room.check_clocks(&LIMITS, t + Duration::from_secs(200)));
        room.connection(Player::P2, false, t + Duration::from_secs(200));
        assert!(room.check_clocks(&LIMITS, t + Duration::from_secs(260)));
        let ending = room.view(&LIMITS, t).ending.unwrap();
        assert_eq!(
            (ending.winner, ending.reason),
            (Some(Player::P1), EndReason::Disconnect)
        );
    }

    #[test]
    fn the_idle_limit_and_resignation_end_the_game() {
        let (mut room, t) = started(Rules::standard());
        room.play("a", 4, t + Duration::from_secs(100)).unwrap();
        assert!(!room.check_clocks(&LIMITS, t + Duration::from_secs(399)));
        assert!(room.check_clocks(&LIMITS, t + Duration::from_secs(400)));
        let ending = room.view(&LIMITS, t).ending.unwrap();
        assert_eq!(
            (ending.winner, ending.reason),
            (Some(Player::P1), EndReason::AfkTimeout)
        );

        let (mut room, t) = started(Rules::standard());
        room.resign("a", t).unwrap();
        let ending = room.view(&LIMITS, t).ending.unwrap();
        assert_eq!(
            (ending.winner, ending.reason),
            (Some(Player::P2), EndReason::Resignation)
        );
    }

    #[test]
    fn rooms_are_bounded_and_removed_after_their_time() {
        let t = Instant::now();
        let mut rooms = Rooms::default();
        for id in ["x", "y"] {
            rooms
                .add(
                    Room::new(id.into(), Rules::standard(), Player::P1, id.into(), t),
                    &LIMITS,
                    t,
                )
                .unwrap();
        }
        let third = Room::new("z".into(), Rules::standard(), Player::P1, "z".into(), t);
        let later = t + Duration::from_secs(100);
        match rooms.add(third, &LIMITS, later) {
            // The first room nobody joins goes at the end of the lobby time.
            Err(ApiError::Busy { retry_after, .. }) => {
                assert_eq!(retry_after, Duration::from_secs(500))
            }
            other => panic!("expected busy, got {other:?}"),
        }
        rooms
            .get("x")
            .unwrap()
            .join("w".into(), t + Duration::from_secs(300));
        // "y" waited the whole lobby time for a second player; "x" has both and stays.
        let (_, removed) = rooms.tick(&LIMITS, t + Duration::from_secs(600));
        assert_eq!(removed, vec!["y".to_string()]);
        assert!(rooms.get("x").is_ok());
        assert!(matches!(rooms.get("y"), Err(ApiError::NotFound(_))));
        // Nobody connected to "x", so its game ended by disconnect at that tick, and the room
        // is kept for `keep` after its end.
        let (_, removed) = rooms.tick(&LIMITS, t + Duration::from_secs(4199));
        assert!(removed.is_empty());
        let (_, removed) = rooms.tick(&LIMITS, t + Duration::from_secs(4200));
        assert_eq!(removed, vec!["x".to_string()]);
    }
}
