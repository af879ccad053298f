//! `connectk serve` under hostile use, over real sockets on 127.0.0.1: idle and slow
//! connections, floods of rooms, oversized WebSocket messages, searches abandoned by their
//! clients, malformed requests of every kind, and SIGTERM or SIGINT with work under way. Each
//! test starts the release binary with small limits set by its flags; every load is bounded in
//! count and time and talks only to loopback.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// A `connectk serve` process on a free port, killed when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
}

impl Served {
    /// Starts the server with `flags` (besides a free port and no opening books unless given).
    fn start(flags: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_connectk"))
            .args(["serve", "--port", "0", "--log", "off"])
            .args(flags)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().expect("piped stdout"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Served { child, addr }
    }

    /// Sends `signal` and waits for the process to end: its exit status and how long it took.
    fn stop_with(mut self, signal: i32) -> (Option<i32>, Duration) {
        let sent = Instant::now();
        // SAFETY: kill only sends a signal to the child this test started.
        unsafe { libc::kill(self.child.id() as i32, signal) };
        let deadline = sent + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("the child can be waited for") {
                return (status.code(), sent.elapsed());
            }
            assert!(Instant::now() < deadline, "the server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An answer read off the wire: status, lower-case head, body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    /// The body as JSON, failing the test when it is not.
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {} {:?}", self.status, self.body))
    }

    /// Whether the answer is an API error: a JSON body of type application/json with a
    /// non-empty `error` string.
    fn is_json_error(&self) -> bool {
        self.head.contains("content-type: application/json")
            && self.json()["error"].as_str().is_some_and(|e| !e.is_empty())
    }
}

/// Sends `request` (raw bytes, which should ask the server to close) and reads the answer.
async fn raw(addr: SocketAddr, request: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(addr).await.expect("a connection");
    // The server may answer and close before reading all of a request it refuses.
    let _ = stream.write_all(request).await;
    let mut bytes = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut bytes));
    // A reset after the answer (the server closing on unread bytes) still leaves the answer.
    let _ = read.await.expect("an answer within 10 s");
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    Answer {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

/// `method path` with `Connection: close` and no body.
async fn request(addr: SocketAddr, method: &str, path: &str) -> Answer {
    let text = format!("{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    raw(addr, text.as_bytes()).await
}

/// Whether the server closed `stream` within `within` (reads end), sending nothing or an
/// answer first.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buffer = [0u8; 512];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slow_connections_are_closed_and_never_starve_a_request() {
    let server = Served::start(&[
        "--max-connections",
        "20",
        "--header-seconds",
        "1",
        "--idle-seconds",
        "2",
    ]);
    let addr = server.addr;
    // Three times the cap of connections that send nothing, then ten slow heads.
    let mut idle = Vec::new();
    for _ in 0..60 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    let mut slow = Vec::new();
    for _ in 0..10 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream
            .write_all(b"GET /api/state HTTP/1.1\r\nHo")
            .await
            .unwrap();
        slow.push(stream);
    }
    // A real request is answered at once: the longest idle connections make room for it.
    let asked = Instant::now();
    let answer = request(addr, "GET", "/api/state?moves=44").await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    // The slow heads are cut off after the header limit, the silent ones after the idle one.
    for stream in &mut slow {
        assert!(closed_within(stream, Duration::from_secs(4)).await);
    }
    for stream in idle.iter_mut().rev().take(5) {
        assert!(closed_within(stream, Duration::from_secs(4)).await);
    }
    // A keep-alive connection that asks in time is served again and again.
    let mut kept = TcpStream::connect(addr).await.unwrap();
    for _ in 0..3 {
        kept.write_all(b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buffer = vec![0u8; 4096];
        let n = kept.read(&mut buffer).await.unwrap();
        assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 200"));
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Creates a room on the server (as P1) and returns its id.
async fn create_room(addr: SocketAddr) -> Answer {
    request(addr, "POST", "/api/rooms?width=4&height=4&k=3").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_flood_is_refused_with_a_retry_time_and_unjoined_rooms_expire() {
    let server = Served::start(&[
        "--max-rooms",
        "5",
        "--lobby-seconds",
        "1",
        "--rooms-per-minute",
        "600",
    ]);
    for _ in 0..5 {
        let created = create_room(server.addr).await;
        assert_eq!(created.status, 200, "{}", created.body);
    }
    let full = create_room(server.addr).await;
    assert_eq!(full.status, 503);
    assert!(full.is_json_error());
    assert!(full.head.contains("retry-after: 1"), "{}", full.head);
    // Nobody joined: after the lobby time the rooms are gone and new ones can be made.
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let created = create_room(server.addr).await;
    assert_eq!(created.status, 200, "{}", created.body);

    // One address making rooms faster than the rate: five at once, then 429.
    let server = Served::start(&["--rooms-per-minute", "1"]);
    for _ in 0..5 {
        assert_eq!(create_room(server.addr).await.status, 200);
    }
    let flood = create_room(server.addr).await;
    assert_eq!(flood.status, 429);
    assert!(flood.is_json_error());
    assert!(flood.head.contains("retry-after: "), "{}", flood.head);
}

/// Opens a live connection to room `id` (with `token` when given).
async fn live(
    addr: SocketAddr,
    id: &str,
    token: Option<&str>,
) -> Result<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    tokio_tungstenite::tungstenite::Error,
> {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let url = format!("ws://{addr}/api/rooms/{id}/live{query}");
    tokio_tungstenite::connect_async(url).await.map(|(s, _)| s)
}

/// The close frame's code and reason the socket receives next (skipping room notes).
async fn close_of<S>(socket: &mut S) -> Option<(CloseCode, String)>
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, socket.next())
            .await
            .ok()??
        {
            Ok(Message::Close(frame)) => {
                return frame.map(|f| (f.code, f.reason.to_string()));
            }
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_messages_and_sockets_are_bounded() {
    let server = Served::start(&["--max-message-bytes", "256", "--room-sockets", "3"]);
    let created = create_room(server.addr).await.json();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    // The seat's link keeps the token out of what the server sees and the address bar shows.
    assert_eq!(
        created["link"].as_str().unwrap(),
        format!("/?room={id}#token={token}")
    );
    let mut player = live(server.addr, &id, Some(&token)).await.unwrap();
    let _watcher = live(server.addr, &id, None).await.unwrap();
    let _second = live(server.addr, &id, None).await.unwrap();
    // A fourth connection to the room is refused with a JSON 503.
    let refused = request(server.addr, "GET", &format!("/api/rooms/{id}/live")).await;
    assert_eq!(refused.status, 400, "no Upgrade header: {}", refused.body);
    assert!(refused.is_json_error());
    match live(server.addr, &id, None).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 503);
        }
        other => panic!("expected a 503, got {:?}", other.map(|_| ())),
    }
    // A message far past the limit closes the socket with "message too big".
    player
        .send(Message::Text("x".repeat(10_000).into()))
        .await
        .unwrap();
    let (code, reason) = close_of(&mut player).await.expect("a close frame");
    assert_eq!(code, CloseCode::Size, "{reason}");
    // Its place is free again.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(live(server.addr, &id, None).await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_searches_stop_and_book_hits_never_wait() {
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/books/normal-k4-7x6.ckbook");
    let server = Served::start(&[
        "--workers",
        "1",
        "--queue",
        "4",
        "--budget-seconds",
        "60",
        "--book",
        book,
    ]);
    // Expensive analyses (of an 8x7 board, which has no book: each would take its whole
    // minute), whose clients hang up after 100 ms: one runs, four wait, the rest are refused.
    for moves in ["4", "3", "5", "2", "6", "1", "7", "8"] {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        let path = format!("/api/solve?width=8&height=7&moves={moves}&analyze=1");
        let text = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
        stream.write_all(text.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        drop(stream);
    }
    // A book hit is answered at once, whatever the queue holds.
    let asked = Instant::now();
    let hit = request(server.addr, "GET", "/api/solve?moves=4&weak=1").await;
    assert_eq!(hit.status, 200, "{}", hit.body);
    assert_eq!(hit.json()["complete"], true);
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    // The abandoned searches stopped: a small search gets the worker within seconds, not
    // after the minute each of them could have taken.
    let asked = Instant::now();
    let small = request(server.addr, "GET", "/api/solve?width=4&height=4&moves=1").await;
    assert_eq!(small.status, 200, "{}", small.body);
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_has_a_json_body_and_every_answer_the_security_headers() {
    let server = Served::start(&[]);
    let addr = server.addr;
    let page = request(addr, "GET", "/").await;
    assert_eq!(page.status, 200);
    for header in [
        "x-content-type-options: nosniff",
        "content-security-policy: default-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(page.head.contains(header), "{header}: {}", page.head);
    }
    let long = format!("/api/state?moves={}", "1".repeat(5000));
    let cases: Vec<(u16, Answer)> = vec![
        (404, request(addr, "GET", "/nowhere").await),
        (405, request(addr, "POST", "/api/solve").await),
        (405, request(addr, "DELETE", "/").await),
        (405, request(addr, "OPTIONS", "/api/solve").await),
        (414, request(addr, "GET", &long).await),
        (400, request(addr, "GET", "/api/rooms/%ff%fe").await),
        (400, request(addr, "GET", "/api/state?moves=4&moves=5").await),
        (400, request(addr, "GET", "/api/table1?moves=abc").await),
        (400, request(addr, "GET", "/api/players?moves=abc").await),
        (400, request(addr, "GET", "/api/state?moves=%ff").await),
        (
            400,
            raw(
                addr,
                b"GET /api/state HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
            )
            .await,
        ),
        (
            431,
            raw(
                addr,
                format!(
                    "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
                    "a".repeat(9000)
                )
                .as_bytes(),
            )
            .await,
        ),
        // Past hyper's own limits on the head and the address: it answers itself, and those
        // answers too are JSON.
        (
            431,
            raw(
                addr,
                format!(
                    "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
                    "a".repeat(1_000_000)
                )
                .as_bytes(),
            )
            .await,
        ),
        (
            414,
            raw(
                addr,
                format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000)).as_bytes(),
            )
            .await,
        ),
        (400, raw(addr, b"NOT HTTP AT ALL\r\n\r\n").await),
    ];
    for (status, answer) in cases {
        assert_eq!(answer.status, status, "{} {}", answer.head, answer.body);
        assert!(
            answer.is_json_error(),
            "{status}: {} {:?}",
            answer.head,
            answer.body
        );
    }
}

/// A server with a room whose player is connected and a request head half sent, stopped by
/// `signal`: the player hears why, the process exits 0 within the grace period.
async fn stops_cleanly_on(signal: i32) {
    let server = Served::start(&["--grace-seconds", "2"]);
    let created = create_room(server.addr).await.json();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut player = live(server.addr, &id, Some(&token)).await.unwrap();
    let mut partial = TcpStream::connect(server.addr).await.unwrap();
    partial.write_all(b"GET /api/sta").await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let stopping = tokio::task::spawn_blocking(move || server.stop_with(signal));
    let (code, reason) = close_of(&mut player).await.expect("a close frame");
    assert_eq!(code, CloseCode::Away);
    assert!(reason.contains("shutting down"), "{reason}");
    let (status, took) = stopping.await.unwrap();
    assert_eq!(status, Some(0));
    assert!(took < Duration::from_secs(4), "{took:?}");
    assert!(closed_within(&mut partial, Duration::from_secs(1)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_the_rooms_and_exits_0() {
    stops_cleanly_on(libc::SIGTERM).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_closes_the_rooms_and_exits_0() {
    stops_cleanly_on(libc::SIGINT).await;
}

#[test]
fn limits_of_zero_are_refused() {
    for flags in [
        ["--max-rooms", "0"],
        ["--table-mb", "0"],
        ["--afk-seconds", "0"],
        ["--max-connections", "0"],
        ["--idle-seconds", "0"],
        ["--rooms-per-minute", "0"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_connectk"))
            .args(["serve", "--port", "0"])
            .args(flags)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(flags[0]) || stderr.contains("table"),
            "{flags:?}: {stderr}"
        );
    }
}
