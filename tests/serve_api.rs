//! `connectk serve` over real HTTP and WebSocket: a server on a free port of 127.0.0.1, talked
//! to as a browser would. Answers are checked against the library and against plain minimax.

use crate::support;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use connectk::analysis::{GameState, SolveRecord};
use connectk::serve::{Config, Limits, Server};
use connectk::strategy::table1::{deciders, predict};
use connectk::{Book, Budget, Depth, Mib, Rules, Solver, UnknownRemoteness, Variant, notation};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use support::brute::Grid;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A server running on a free port until the value is dropped.
struct Running {
    base: String,
    _stop: oneshot::Sender<()>,
}

/// The test servers' defaults: a generous budget (answers must be complete), short room
/// clocks.
fn config() -> Config {
    Config {
        port: 0,
        workers: 2,
        queue: 8,
        table: Mib(16),
        budget: Budget::time(Duration::from_secs(60)),
        rooms: Limits {
            reconnect: Duration::from_millis(1500),
            afk: None,
            keep: Duration::from_secs(600),
            lobby: Duration::from_secs(600),
            max_rooms: 100,
        },
        // Every test's rooms come from 127.0.0.1.
        rooms_per_minute: 10_000,
        ..Config::default()
    }
}

async fn start(config: Config) -> Running {
    let server = Server::bind(config)
        .await
        .expect("a free port on 127.0.0.1");
    let base = format!("http://{}", server.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    Running { base, _stop: stop }
}

/// GET or POST `path` with `query`; the status and the JSON body.
async fn call(method: &str, base: &str, path: &str, query: &[(&str, &str)]) -> (u16, Value) {
    let client = reqwest::Client::new();
    let url = format!("{base}{path}");
    let request = match method {
        "GET" => client.get(&url),
        _ => client.post(&url),
    };
    let response = request
        .query(query)
        .send()
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    let body = response.json::<Value>().await.expect("a JSON body");
    (status, body)
}

async fn get(base: &str, path: &str, query: &[(&str, &str)]) -> Value {
    let (status, body) = call("GET", base, path, query).await;
    assert_eq!(status, 200, "{path} {query:?}: {body}");
    body
}

/// The record with the fields that vary from run to run (nodes, seconds) and the budget's
/// `complete` taken out.
fn comparable(mut record: Value) -> Value {
    for field in ["nodes", "seconds", "complete"] {
        record.as_object_mut().unwrap().remove(field);
    }
    record
}

fn library_record(rules: Rules, moves: &str, depth: Depth, analyze: bool) -> Value {
    let (pos, _) = notation::parse(rules, moves).unwrap();
    let mut solver = Solver::new(Mib(16));
    let solution = if analyze {
        solver.analyze(&pos, depth)
    } else {
        solver.solve_with_best_moves(&pos, depth)
    };
    let record = SolveRecord::new(GameState::of(&pos, moves), &solution, true, None);
    comparable(serde_json::to_value(record).unwrap())
}

/// Plain minimax's value of each legal move of the position after `moves`, as the API writes
/// it: `(column, outcome, remoteness)`, remoteness counted from the position.
fn brute_move_values(rules: Rules, moves: &str) -> Vec<(u32, String, u32)> {
    let mut grid = Grid::new(rules);
    for column in notation::parse(rules, moves).unwrap().1 {
        grid.drop_disc(column.index() as usize);
    }
    let cells = (grid.width * grid.height) as i32;
    let ply = grid.plies as i32;
    let (me, them) = if ply % 2 == 0 {
        ("P1", "P2")
    } else {
        ("P2", "P1")
    };
    let mover = 1 + (ply % 2) as u8;
    let mut values = Vec::new();
    for c in 0..grid.width {
        if grid.column_height(c) == grid.height {
            continue;
        }
        grid.drop_disc(c);
        // The score of the game for the mover: a game ending at ply q scores cells + 1 - q.
        let score = if grid.has_line(mover) {
            let magnitude = cells - ply;
            if grid.misere { -magnitude } else { magnitude }
        } else if grid.plies == grid.width * grid.height {
            0
        } else {
            -grid.minimax(&mut Some(HashMap::new()))
        };
        grid.lift_disc(c);
        let value = match score.signum() {
            1 => (me, cells + 1 - score - ply),
            -1 => (them, cells + 1 + score - ply),
            _ => ("Draw", cells - ply),
        };
        values.push((c as u32 + 1, value.0.to_string(), value.1 as u32));
    }
    values
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_and_analysis_answer_the_librarys_record() {
    let server = start(config()).await;
    let cases = [
        (Variant::Misere, 4, 5, 4, "3"),
        (Variant::Normal, 4, 5, 4, "4453"),
        (Variant::Misere, 3, 4, 3, ""),
        (Variant::Normal, 3, 3, 3, "1212"),
        (Variant::Misere, 3, 3, 3, "21212"), // over: P1 completed a line
    ];
    for (variant, k, width, height, moves) in cases {
        let rules = Rules::new(k, width, height, variant).unwrap();
        let (k, w, h) = (k.to_string(), width.to_string(), height.to_string());
        let query = [
            ("rules", variant.name()),
            ("k", &k),
            ("width", &w),
            ("height", &h),
            ("moves", moves),
        ];
        for (weak, depth) in [("0", Depth::Strong), ("1", Depth::Weak)] {
            for analyze in [false, true] {
                let mut q = query.to_vec();
                q.extend([("weak", weak), ("analyze", if analyze { "1" } else { "0" })]);
                let answer = get(&server.base, "/api/solve", &q).await;
                assert_eq!(answer["complete"], json!(true), "{q:?}: {answer}");
                let expected = library_record(rules, moves, depth, analyze);
                assert_eq!(comparable(answer.clone()), expected, "{q:?}");
                let over = notation::parse(rules, moves).unwrap().0.is_over();
                if analyze && depth == Depth::Strong && !over {
                    // And against plain minimax, which shares no code with the solver.
                    let got: Vec<(u32, String, u32)> = answer["move_values"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| {
                            (
                                m["column"].as_u64().unwrap() as u32,
                                m["outcome"].as_str().unwrap().to_string(),
                                m["remoteness"].as_u64().unwrap() as u32,
                            )
                        })
                        .collect();
                    assert_eq!(got, brute_move_values(rules, moves), "{q:?}");
                }
            }
        }
        // The state is `show --json`'s object, and the line's cells come both ways.
        let state = get(&server.base, "/api/state", &query).await;
        let (pos, _) = notation::parse(rules, moves).unwrap();
        assert_eq!(
            state,
            serde_json::to_value(GameState::of(&pos, moves)).unwrap()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_reports_its_line_both_ways() {
    let server = start(config()).await;
    // P1 stacks four in column 1 of a 7x6 board: cells (0, 0) to (0, 3) from the bottom left,
    // flat indices 35, 28, 21, 14 with row 0 at the top.
    let state = get(&server.base, "/api/state", &[("moves", "1212121")]).await;
    assert_eq!(state["winner"], "P1");
    assert_eq!(state["reason"], "line");
    let mut cells: Vec<Value> = state["winning_cells"].as_array().unwrap().clone();
    cells.sort_by_key(|c| c[1].as_u64());
    assert_eq!(
        cells,
        vec![json!([0, 0]), json!([0, 1]), json!([0, 2]), json!([0, 3])]
    );
    let mut flat: Vec<u64> = state["winning_indices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    flat.sort_unstable();
    assert_eq!(flat, vec![14, 21, 28, 35]);
}

/// A request's query parameters.
type Query<'a> = Vec<(&'a str, &'a str)>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_input_gets_a_400_with_the_librarys_message() {
    let server = start(config()).await;
    for (path, query, expected) in library_refusals() {
        let (status, body) = call("GET", &server.base, path, &query).await;
        assert_eq!(status, 400, "{path} {query:?}: {body}");
        assert_eq!(body["error"], json!(expected), "{path} {query:?}");
    }
    // Input the library never sees: its own one-line messages.
    let own = vec![
        (
            "/api/solve",
            vec![("k", "four")],
            "k = \"four\" is not a number",
        ),
        (
            "/api/solve",
            vec![("weak", "maybe")],
            "weak = \"maybe\" is not a flag",
        ),
        (
            "/api/solve",
            vec![("colour", "red")],
            "unknown parameter \"colour\"",
        ),
        ("/api/move", vec![], "player is missing"),
        (
            "/api/move",
            vec![("player", "hard"), ("moves", "1212121")],
            "the game is already over",
        ),
        (
            "/api/move",
            vec![("player", "hard"), ("seed", "-1")],
            "seed = \"-1\" is not a number",
        ),
    ];
    assert_refused(&server.base, own).await;
    let (status, body) = call("GET", &server.base, "/api/nothing", &[]).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = call("POST", &server.base, "/api/rooms/nope/join", &[]).await;
    assert_eq!(status, 404, "{body}");
}

/// Requests the library refuses, with the message it gives for each.
fn library_refusals() -> Vec<(&'static str, Query<'static>, String)> {
    let standard = Rules::standard();
    vec![
        (
            "/api/solve",
            vec![("rules", "bogus")],
            "bogus".parse::<Variant>().unwrap_err().to_string(),
        ),
        (
            "/api/solve",
            vec![("width", "0")],
            Rules::new(4, 0, 6, Variant::Normal)
                .unwrap_err()
                .to_string(),
        ),
        (
            "/api/state",
            vec![("k", "0")],
            Rules::new(0, 7, 6, Variant::Normal)
                .unwrap_err()
                .to_string(),
        ),
        (
            "/api/solve",
            vec![("width", "100"), ("height", "100")],
            Rules::new(4, 100, 100, Variant::Normal)
                .unwrap_err()
                .to_string(),
        ),
        (
            "/api/solve",
            vec![("moves", "4444444")],
            notation::parse(standard, "4444444")
                .unwrap_err()
                .to_string(),
        ),
        (
            "/api/state",
            vec![("moves", "48")],
            notation::parse(standard, "48").unwrap_err().to_string(),
        ),
        (
            "/api/move",
            vec![("moves", "4a"), ("player", "hard")],
            notation::parse(standard, "4a").unwrap_err().to_string(),
        ),
        (
            "/api/move",
            vec![("player", "bob")],
            "bob"
                .parse::<connectk::arena::PlayerName>()
                .unwrap_err()
                .to_string(),
        ),
        (
            "/api/move",
            vec![("player", "take-even")],
            connectk::strategy::StrategyName::TakeEven
                .build(standard, connectk::Player::P1)
                .err()
                .unwrap()
                .to_string(),
        ),
    ]
}

/// Each of `cases` (path, query, the start of the message) is answered 400 with a one-line
/// message that starts as given.
async fn assert_refused(base: &str, cases: Vec<(&str, Query<'_>, &str)>) {
    for (path, query, start) in cases {
        let (status, body) = call("GET", base, path, &query).await;
        assert_eq!(status, 400, "{path} {query:?}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(message.starts_with(start), "{path} {query:?}: {message}");
        assert!(!message.contains('\n'), "one line: {message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_answer_with_a_legal_move_and_perfect_with_a_best_one() {
    let server = start(config()).await;
    // Misère 5x4, k = 4, after "3": the solver knows every value within the budget.
    let rules = Rules::new(4, 5, 4, Variant::Misere).unwrap();
    let query = [
        ("rules", "misere"),
        ("k", "4"),
        ("width", "5"),
        ("height", "4"),
        ("moves", "3"),
    ];
    let (pos, _) = notation::parse(rules, "3").unwrap();
    let best = Solver::new(Mib(16)).analyze(&pos, Depth::Strong).best_moves;
    for seed in ["1", "2", "3"] {
        let mut q = query.to_vec();
        q.extend([("player", "perfect"), ("seed", seed)]);
        let answer = get(&server.base, "/api/move", &q).await;
        assert_eq!(answer["complete"], json!(true));
        let column = answer["column"].as_u64().unwrap() as u32;
        assert!(
            best.iter().any(|c| c.number() == column),
            "{column} not in {best:?}"
        );
        assert_eq!(answer["state"]["moves"], json!(format!("3{column}")));
    }
    // Take-even answers on top of P1's disc (Theorem 1).
    let mut q = query.to_vec();
    q.push(("player", "take-even"));
    assert_eq!(get(&server.base, "/api/move", &q).await["column"], json!(3));
    // The same seed gives the same move; every bot plays a legal one.
    for player in ["random", "easy", "medium", "hard"] {
        let q = [("moves", "4453"), ("player", player), ("seed", "9")];
        let first = get(&server.base, "/api/move", &q).await;
        assert_eq!(
            get(&server.base, "/api/move", &q).await["column"],
            first["column"]
        );
        assert_eq!(first["state"]["plies"], json!(5));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table1_names_the_prediction_and_its_strategy() {
    let server = start(config()).await;
    for (k, w, h) in [(4, 7, 6), (3, 5, 3), (3, 8, 1), (2, 7, 1), (2, 4, 1)] {
        let (ks, ws, hs) = (k.to_string(), w.to_string(), h.to_string());
        let q = [
            ("rules", "misere"),
            ("k", &ks[..]),
            ("width", &ws),
            ("height", &hs),
        ];
        let answer = get(&server.base, "/api/table1", &q).await;
        assert_eq!(
            answer["prediction"],
            json!(predict(k, w, h).unwrap().label())
        );
        assert_eq!(
            answer["deciders"],
            serde_json::to_value(deciders(k, w, h)).unwrap()
        );
    }
    let normal = get(&server.base, "/api/table1", &[]).await;
    assert_eq!(normal["prediction"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_out_of_budget_says_so() {
    let server = start(Config {
        budget: Budget::nodes(2_000),
        ..config()
    })
    .await;
    // Normal 7x6 after one move: millions of nodes.
    for analyze in ["0", "1"] {
        let q = [("moves", "4"), ("analyze", analyze)];
        let answer = get(&server.base, "/api/solve", &q).await;
        assert_eq!(answer["complete"], json!(false), "{answer}");
        assert_eq!(answer["outcome"], Value::Null);
    }
    let answer = get(&server.base, "/api/move", &[("player", "perfect")]).await;
    assert_eq!(answer["complete"], json!(false));
    assert_eq!(answer["column"], json!(4), "unknown values: the centre");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_workers_answer_from_their_opening_books_whatever_the_budget() {
    // A made-up entry (the book is taken as it is): after "44", column 3 draws. Without it the
    // budget settles nothing and `perfect` plays the centre (see the test above).
    let rules = Rules::standard();
    let (child, _) = notation::parse(rules, "443").unwrap();
    let draw = connectk::Value {
        result: connectk::GameResult::Draw,
        remoteness: None,
    };
    let book = Arc::new(Book::from_values(rules, [(child, draw)]));
    let server = start(Config {
        budget: Budget::nodes(2_000),
        books: vec![book],
        ..config()
    })
    .await;
    let answer = get(
        &server.base,
        "/api/move",
        &[("player", "perfect"), ("moves", "44")],
    )
    .await;
    assert_eq!(answer["complete"], json!(false), "{answer}");
    // Column 5 is column 3's mirror image: the book stores the two as one.
    let column = answer["column"].as_u64().unwrap();
    assert!(column == 3 || column == 5, "a known draw: {answer}");
    for known in [2, 4] {
        let value = &answer["move_values"][known];
        assert_eq!(value["outcome"], json!("Draw"), "{answer}");
        // A drawn game fills the board: 40 plies counted from before the move.
        assert_eq!(value["remoteness"], json!(40), "{answer}");
    }
    // Other rules do not see the book.
    let misere = get(
        &server.base,
        "/api/move",
        &[("player", "perfect"), ("moves", "44"), ("rules", "misere")],
    )
    .await;
    assert_eq!(misere["column"], json!(4), "{misere}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_full_queue_answers_503_with_a_message() {
    // One worker, one place in the queue, a second per search: of six hard searches at once,
    // at most two are taken and the rest are turned away at once.
    let server = start(Config {
        workers: 1,
        queue: 1,
        budget: Budget::time(Duration::from_secs(1)),
        ..config()
    })
    .await;
    let requests: Vec<_> = (0..6)
        .map(|_| {
            let base = server.base.clone();
            tokio::spawn(async move { call("GET", &base, "/api/solve", &[("moves", "4")]).await })
        })
        .collect();
    let mut statuses = Vec::new();
    for request in requests {
        let (status, body) = request.await.unwrap();
        if status == 503 {
            assert!(
                body["error"]
                    .as_str()
                    .unwrap()
                    .starts_with("the server is busy")
            );
        }
        statuses.push(status);
    }
    // The second may find the queue's place still taken by the first if the worker has not
    // picked it up yet: one or two answers, never more than worker and queue hold.
    let answered = statuses.iter().filter(|&&s| s == 200).count();
    let busy = statuses.iter().filter(|&&s| s == 503).count();
    assert!((1..=2).contains(&answered), "{statuses:?}");
    assert_eq!(answered + busy, 6, "{statuses:?}");
}

// ---------------------------------------------------------------- rooms

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn connect(base: &str, room: &str, token: Option<&str>) -> Socket {
    let host = base.trim_start_matches("http://");
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let url = format!("ws://{host}/api/rooms/{room}/live{query}");
    tokio_tungstenite::connect_async(url)
        .await
        .expect("the room's live connection")
        .0
}

/// The next note of `kind` (`room` or `error`), skipping others; fails after 5 s.
async fn next(socket: &mut Socket, kind: &str) -> Value {
    let read = async {
        loop {
            let message = socket.next().await.expect("open").expect("a message");
            if let Message::Text(text) = message {
                let note: Value = serde_json::from_str(&text).unwrap();
                if note["type"] == kind {
                    return note;
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .expect("a note within 5 s")
}

/// Reads room notes until one satisfies `done`.
async fn until(socket: &mut Socket, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let note = next(socket, "room").await;
        if done(&note["room"]) {
            return note["room"].clone();
        }
    }
}

async fn send_move(socket: &mut Socket, column: u32) {
    let text = json!({ "type": "move", "column": column }).to_string();
    socket.send(Message::Text(text.into())).await.unwrap();
}

/// A room on `query`'s board with both players seated and connected: (id, P1's token, P2's
/// token, P1's socket, P2's socket).
async fn seated(base: &str, query: &[(&str, &str)]) -> (String, String, String, Socket, Socket) {
    let (status, created) = call("POST", base, "/api/rooms", query).await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["seat"], "P1");
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["invite"], json!(format!("/?room={id}")));
    let (status, joined) = call("POST", base, &format!("/api/rooms/{id}/join"), &[]).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], "P2");
    let t1 = created["token"].as_str().unwrap().to_string();
    let t2 = joined["token"].as_str().unwrap().to_string();
    let mut p1 = connect(base, &id, Some(&t1)).await;
    let p2 = connect(base, &id, Some(&t2)).await;
    until(&mut p1, |r| {
        r["seats"][0]["connected"] == true && r["seats"][1]["connected"] == true
    })
    .await;
    (id, t1, t2, p1, p2)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_a_room_game_to_the_end() {
    let server = start(config()).await;
    let base = &server.base;
    let (id, _, t2, mut p1, mut p2) = seated(base, &[("rules", "misere")]).await;
    // A third browser can only watch.
    let (_, watcher) = call("POST", base, &format!("/api/rooms/{id}/join"), &[]).await;
    assert_eq!(watcher["seat"], Value::Null);
    let mut watch = connect(base, &id, None).await;
    // Out of turn, refused.
    send_move(&mut p2, 1).await;
    assert!(
        next(&mut p2, "error").await["error"]
            .as_str()
            .unwrap()
            .starts_with("not your turn")
    );
    send_move(&mut watch, 1).await;
    assert!(
        next(&mut watch, "error").await["error"]
            .as_str()
            .unwrap()
            .starts_with("you are not a player")
    );
    // P1 stacks column 1, P2 column 2; P1's fourth disc completes the line and, misère,
    // loses. Each move reaches the other browser at once.
    for (ply, column) in [1, 2, 1, 2, 1, 2, 1].into_iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut p1, &mut p2)
        } else {
            (&mut p2, &mut p1)
        };
        send_move(mover, column).await;
        let plies = json!(ply + 1);
        let seen = until(other, |r| r["state"]["plies"] == plies).await;
        assert_eq!(seen["state"]["moves"].as_str().unwrap().len(), ply + 1);
    }
    let room = until(&mut watch, |r| !r["ending"].is_null()).await;
    assert_eq!(room["ending"]["winner"], "P2");
    assert_eq!(room["ending"]["reason"], "line");
    assert_eq!(room["state"]["completed_by"], "P1");
    assert_eq!(
        room["state"]["winning_indices"].as_array().unwrap().len(),
        4
    );
    // A finished room can still be viewed, and takes no more moves.
    let view = get(base, &format!("/api/rooms/{id}"), &[]).await;
    assert_eq!(view["ending"]["reason"], "line");
    let path = format!("/api/rooms/{id}/move");
    let (status, body) = call("POST", base, &path, &[("token", &t2), ("column", "3")]).await;
    assert_eq!(status, 409, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_continues_within_the_window_and_loses_after_it() {
    let server = start(config()).await; // a 1.5 s window
    let base = &server.base;
    let (id, _, t2, mut p1, p2) = seated(base, &[]).await;
    send_move(&mut p1, 4).await;
    until(&mut p1, |r| r["state"]["plies"] == 1).await;
    // P2's connection drops; P1 sees the clock start.
    drop(p2);
    let seen = until(&mut p1, |r| r["seats"][1]["connected"] == false).await;
    assert!(seen["seats"][1]["reconnect_seconds_left"].as_f64().unwrap() > 0.5);
    // P2 comes back with the same link in time and plays on.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut p2 = connect(base, &id, Some(&t2)).await;
    send_move(&mut p2, 4).await;
    let room = until(&mut p1, |r| r["state"]["plies"] == 2).await;
    assert!(room["ending"].is_null());
    assert_eq!(room["seats"][1]["connected"], true);
    // It drops again and stays away: P1 wins by "disconnect".
    drop(p2);
    let room = until(&mut p1, |r| !r["ending"].is_null()).await;
    assert_eq!(room["ending"]["winner"], "P1");
    assert_eq!(room["ending"]["reason"], "disconnect");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_idle_limit_and_resignation_end_a_room_game() {
    let server = start(Config {
        rooms: Limits {
            afk: Some(Duration::from_millis(600)),
            ..config().rooms
        },
        ..config()
    })
    .await;
    let base = &server.base;
    let (_, _, _, mut p1, _p2) = seated(base, &[]).await;
    let room = until(&mut p1, |r| !r["ending"].is_null()).await;
    assert_eq!(room["ending"]["reason"], "afk_timeout");
    assert_eq!(room["ending"]["winner"], "P2");

    let (id, t1, _, mut p1, _p2) = seated(base, &[]).await;
    let path = format!("/api/rooms/{id}/resign");
    let (status, body) = call("POST", base, &path, &[("token", &t1)]).await;
    assert_eq!(status, 200, "{body}");
    let room = until(&mut p1, |r| !r["ending"].is_null()).await;
    assert_eq!(room["ending"]["reason"], "resignation");
    assert_eq!(room["ending"]["winner"], "P2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_from_the_binary() {
    let server = start(config()).await;
    for (path, kind, needle) in [
        ("/", "text/html", "<div id=\"board\""),
        ("/app.js", "text/javascript", "/api/move"),
        ("/board.js", "text/javascript", "export function drawBoard"),
        ("/style.css", "text/css", ".cell.win"),
        ("/quarto", "text/html", "<div id=\"q-board\""),
        ("/quarto.js", "text/javascript", "/api/quarto/move"),
        ("/favicon.ico", "image/svg+xml", "<svg"),
    ] {
        let response = reqwest::get(format!("{}{path}", server.base))
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(response.text().await.unwrap().contains(needle), "{path}");
    }
}

/// The plan of a paper strategy is the move it makes: for each move P1 can make after "43" on
/// misère 7x6, take-even's reply in the plan is `/api/move`'s answer, on top of P1's disc.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plan_of_a_strategy_is_the_move_it_makes() {
    let server = start(config()).await;
    let base = &server.base;
    let board = [
        ("rules", "misere"),
        ("strategy", "take-even"),
        ("side", "P2"),
    ];
    let plan = get(
        base,
        "/api/plan",
        &[&board[..], &[("moves", "43")]].concat(),
    )
    .await;
    assert_eq!(plan["proof"], "Theorem 1, Corollary 1");
    let replies = plan["replies"].as_array().unwrap();
    assert_eq!(replies.len(), 7);
    for reply in replies {
        let column = reply["column"].as_u64().unwrap();
        let answer = &reply["answer"];
        assert_eq!(answer["column"], column, "{reply}");
        assert_eq!(answer["row"], reply["row"].as_u64().unwrap() + 1, "{reply}");
        assert!(answer["why"].as_str().unwrap().contains("even"), "{reply}");
        let moves = format!("43{column}");
        let played = get(
            base,
            "/api/move",
            &[
                ("rules", "misere"),
                ("moves", &moves),
                ("player", "take-even"),
            ],
        )
        .await;
        assert_eq!(played["column"], answer["column"]);
    }
    // Its move now, when it is to move.
    let now = get(
        base,
        "/api/plan",
        &[&board[..], &[("moves", "435")]].concat(),
    )
    .await;
    assert_eq!(now["now"]["column"], 5);
    for (query, start) in [
        (
            vec![("strategy", "take-odd")],
            "unknown strategy \"take-odd\"",
        ),
        (
            vec![("strategy", "take-even"), ("side", "P3")],
            "side = \"P3\"",
        ),
        (vec![("strategy", "take-even")], "take-even does not apply"),
        (vec![], "strategy is missing"),
    ] {
        let (status, body) = call("GET", base, "/api/plan", &query).await;
        assert_eq!(status, 400, "{query:?}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(message.starts_with(start), "{query:?}: {message}");
    }
}

/// The values of a Quarto turn's choices are the library's: each cell's is the best turn
/// through it, each piece's the turn that hands it over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quarto_values_are_the_librarys() {
    use connectk::quarto;
    let server = start(config()).await;
    let rules = quarto::Rules::new(3, 3, None, Variant::Misere, false).unwrap();
    let board = [("size", "3"), ("attributes", "3"), ("rules", "misere")];
    let record = "LSR a1:DTQ";
    let (pos, _) = quarto::notation::parse(rules, record).unwrap();
    let analysis = quarto::Solver::new(rules, 1 << 22)
        .analyze(&pos, Depth::Strong)
        .unwrap();
    let me = pos.to_move();
    // The library's value of a turn, from the position before it, as the API writes it.
    let label = |v: connectk::Value| (v.result.label(), v.remoteness.map(|r| r + 1));
    let best_through = |cell: &str| {
        analysis
            .turns
            .iter()
            .filter(|t| t.turn.place.map(|c| c.name(&rules)).as_deref() == Some(cell))
            .map(|t| t.value)
            .max_by_key(|v| {
                let after = connectk::Value {
                    remoteness: v.remoteness.map(|r| r + 1),
                    ..*v
                };
                after.rank_for(me, UnknownRemoteness::Slowest)
            })
            .map(label)
            .unwrap()
    };
    let answer = get(
        base_of(&server),
        "/api/quarto/solve",
        &[&board[..], &[("moves", record)]].concat(),
    )
    .await;
    assert_eq!(answer["complete"], true);
    let cells = answer["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 8);
    for cell in cells {
        let name = cell["choice"].as_str().unwrap();
        let (outcome, remoteness) = best_through(name);
        assert_eq!(cell["outcome"], outcome, "{cell}");
        assert_eq!(
            cell["remoteness"].as_u64().map(|r| r as u32),
            remoteness,
            "{cell}"
        );
    }
    let placed = get(
        base_of(&server),
        "/api/quarto/solve",
        &[&board[..], &[("moves", record), ("place", "b2")]].concat(),
    )
    .await;
    for piece in placed["pieces"].as_array().unwrap() {
        let turn = format!("b2:{}", piece["choice"].as_str().unwrap());
        let value = analysis
            .turns
            .iter()
            .find(|t| quarto::notation::format_turn(&rules, t.turn) == turn)
            .unwrap()
            .value;
        let (outcome, remoteness) = label(value);
        assert_eq!(piece["outcome"], outcome, "{turn}");
        assert_eq!(
            piece["remoteness"].as_u64().map(|r| r as u32),
            remoteness,
            "{turn}"
        );
    }
}

fn base_of(server: &Running) -> &str {
    &server.base
}

/// Quarto's players answer legal turns (perfect a best one when it knows them), and a finished
/// game names its line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quarto_players_answer_legal_turns() {
    let server = start(config()).await;
    let base = &server.base;
    let small = [("size", "3"), ("attributes", "3")];
    for player in ["random", "careful", "perfect"] {
        let answer = get(
            base,
            "/api/quarto/move",
            &[
                &small[..],
                &[("moves", "LSR a1:DTQ"), ("player", player), ("seed", "4")],
            ]
            .concat(),
        )
        .await;
        assert_eq!(answer["complete"], true, "{answer}");
        assert_eq!(answer["state"]["plies"], 3, "{answer}");
    }
    // Perfect's turn is one of the best the library finds.
    let rules = connectk::quarto::Rules::new(3, 3, None, Variant::Normal, false).unwrap();
    let (pos, _) = connectk::quarto::notation::parse(rules, "LSR a1:DTQ").unwrap();
    let analysis = connectk::quarto::Solver::new(rules, 1 << 22)
        .analyze(&pos, Depth::Strong)
        .unwrap();
    let rank = |v: connectk::Value| v.rank_for(pos.to_move(), UnknownRemoteness::Slowest);
    let best = analysis.turns.iter().map(|t| rank(t.value)).max().unwrap();
    for seed in ["1", "2", "3"] {
        let query = [
            &small[..],
            &[
                ("moves", "LSR a1:DTQ"),
                ("player", "perfect"),
                ("seed", seed),
            ],
        ]
        .concat();
        let answer = get(base, "/api/quarto/move", &query).await;
        let chosen = analysis
            .turns
            .iter()
            .find(|t| connectk::quarto::notation::format_turn(&rules, t.turn) == answer["turn"])
            .unwrap();
        assert_eq!(rank(chosen.value), best, "{answer}");
    }
    // P2 holds LTRF, light like a1, b1 and c1: perfect completes the row at d1.
    let answer = get(
        base,
        "/api/quarto/move",
        &[("moves", QUARTO_WIN), ("player", "perfect")],
    )
    .await;
    assert_eq!(answer["turn"], "d1");
    assert_eq!(answer["state"]["winner"], "P2");
    assert_eq!(answer["state"]["line"], json!(["a1", "b1", "c1", "d1"]));
    assert_eq!(answer["state"]["reason"], "line");
}

/// P2 holds LTRF, light like a1, b1 and c1: placing it at d1 completes the row.
const QUARTO_WIN: &str = "LSRF a1:LSRH b1:LSQF c1:DTQH a2:LTRF";

/// Every bad input to the Quarto API is a 400 with one line saying what is wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quarto_bad_input_is_refused() {
    let server = start(config()).await;
    let over = format!("{QUARTO_WIN} d1");
    let cases = vec![
        (
            "/api/quarto/state",
            vec![("size", "5")],
            "board size 5 is out of range",
        ),
        (
            "/api/quarto/state",
            vec![("attributes", "0"), ("criteria", "x")],
            "0 attributes",
        ),
        (
            "/api/quarto/state",
            vec![("criteria", "fill,taste")],
            "criterion \"taste\"",
        ),
        (
            "/api/quarto/state",
            vec![("moves", "LSRF a1:LSRF")],
            "turn 2",
        ),
        (
            "/api/quarto/state",
            vec![("colour", "red")],
            "unknown parameter \"colour\"",
        ),
        (
            "/api/quarto/solve",
            vec![("moves", "LSRF"), ("place", "e9")],
            "no cell \"e9\"",
        ),
        (
            "/api/quarto/solve",
            vec![("moves", "LSRF a1:DTQH"), ("place", "a1")],
            "place = \"a1\": cell a1 is taken",
        ),
        (
            "/api/quarto/solve",
            vec![("place", "a1")],
            "place = \"a1\": no piece is in hand",
        ),
        ("/api/quarto/move", vec![], "player is missing"),
        (
            "/api/quarto/move",
            vec![("player", "easy")],
            "unknown player \"easy\"",
        ),
        (
            "/api/quarto/move",
            vec![("moves", &over), ("player", "random")],
            "the game is over",
        ),
    ];
    assert_refused(&server.base, cases).await;
}

/// A Quarto search within a budget too small for it says so, and leaves the values unknown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quarto_search_out_of_budget_says_so() {
    let server = start(Config {
        budget: Budget::nodes(200),
        ..config()
    })
    .await;
    let answer = get(&server.base, "/api/quarto/solve", &[("moves", "LSRF")]).await;
    assert_eq!(answer["complete"], false);
    assert!(answer["outcome"].is_null());
    let cells = answer["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 16);
    assert!(cells.iter().all(|c| c["outcome"].is_null()), "{answer}");
    let bot = get(
        &server.base,
        "/api/quarto/move",
        &[("moves", "LSRF"), ("player", "perfect")],
    )
    .await;
    assert_eq!(bot["complete"], false);
    assert_eq!(bot["state"]["plies"], 2);
}
