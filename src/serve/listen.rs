//! Accepting connections: at most a set number open at once, each closed when it sits idle or
//! sends its request head too slowly, the longest idle one closed to make room for a newcomer,
//! and every one wound down on shutdown within a grace period.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tower::ServiceExt;

use super::connection::{ConnIo, ConnState};

/// The limits on HTTP connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnLimits {
    /// Connections open at once (WebSockets, once upgraded, count under their own limit).
    pub max: usize,
    /// How long a request head may take to arrive, from its first byte.
    pub header: Duration,
    /// How long a connection may stay open with no request under way.
    pub idle: Duration,
}

/// The largest request head hyper reads (it answers 431 past it); the API's own limits on the
/// address and the headers (see [`super::guard`]) are well below.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// The answer to a newcomer when every open connection is answering a request.
const FULL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
retry-after: 2\r\ncontent-length: 79\r\nconnection: close\r\n\r\n\
{\"error\":\"the server is at its limit of open connections: try again in a moment\"}";

/// The open connections, by number.
#[derive(Default)]
struct Registry {
    next: u64,
    open: HashMap<u64, Arc<ConnState>>,
}

impl Registry {
    /// Makes room for one more connection under `max`: when full, tells the connection idle
    /// the longest to close. False when every connection is answering a request.
    fn make_room(&mut self, max: usize) -> bool {
        if self.open.len() < max {
            return true;
        }
        let idlest = self
            .open
            .values()
            .filter(|c| c.is_idle())
            .min_by_key(|c| (c.idle_key(), c.opened));
        match idlest {
            Some(conn) => {
                conn.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// What the accept loop and every connection's task share.
struct Shared {
    limits: ConnLimits,
    epoch: Instant,
    registry: Mutex<Registry>,
    router: Router,
    shutdown: watch::Receiver<bool>,
}

/// Accepts connections on `listener` and serves `router` on them until `shutdown` turns true;
/// then closes the idle connections at once, lets the requests under way finish, and returns
/// within `grace` (cutting off whatever is left).
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    shutdown: watch::Receiver<bool>,
    grace: Duration,
) {
    let shared = Arc::new(Shared {
        limits,
        epoch: Instant::now(),
        registry: Mutex::default(),
        router,
        shutdown: shutdown.clone(),
    });
    let mut tasks = JoinSet::new();
    let mut stop = shutdown;
    loop {
        tokio::select! {
            () = turned_true(&mut stop) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => admit(&shared, &mut tasks, stream, peer),
                // Out of file descriptors, or a connection reset before it was taken: the
                // listener itself is fine, so wait a moment and go on.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            },
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
        }
    }
    drop(listener);
    let drained = tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} });
    if drained.await.is_err() {
        tasks.abort_all();
    }
}

/// Starts serving a newly accepted connection, or turns it away when the server is full of
/// connections that are all answering requests.
fn admit(shared: &Arc<Shared>, tasks: &mut JoinSet<()>, stream: TcpStream, peer: SocketAddr) {
    let state = Arc::new(ConnState::new(shared.epoch));
    let id = {
        let Ok(mut registry) = shared.registry.lock() else {
            return;
        };
        if !registry.make_room(shared.limits.max) {
            tasks.spawn(turn_away(stream));
            return;
        }
        registry.next += 1;
        let id = registry.next;
        registry.open.insert(id, Arc::clone(&state));
        id
    };
    let shared = Arc::clone(shared);
    tasks.spawn(async move {
        run_connection(&shared, stream, peer, Arc::clone(&state)).await;
        if let Ok(mut registry) = shared.registry.lock() {
            registry.open.remove(&id);
        }
    });
}

/// Answers 503 to a connection the server has no room for, without reading its request.
async fn turn_away(mut stream: TcpStream) {
    let write = async {
        stream.write_all(FULL).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// Serves one connection until it ends, overstays its limits, is told to close, or the server
/// shuts down.
async fn run_connection(
    shared: &Shared,
    stream: TcpStream,
    peer: SocketAddr,
    state: Arc<ConnState>,
) {
    let _ = stream.set_nodelay(true);
    let service = {
        let (router, state) = (shared.router.clone(), Arc::clone(&state));
        hyper::service::service_fn(move |mut request: Request<Incoming>| {
            let answering = state.begin();
            request.extensions_mut().insert(ConnectInfo(peer));
            let answer = router.clone().oneshot(request.map(Body::new));
            async move {
                let answer = answer.await;
                drop(answering);
                Ok::<_, Infallible>(answer.unwrap_or_else(|never| match never {}))
            }
        })
    };
    let io = TokioIo::new(ConnIo::new(stream, Arc::clone(&state)));
    let connection = hyper::server::conn::http1::Builder::new()
        .max_buf_size(MAX_HEAD_BYTES)
        .header_read_timeout(None)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(connection);
    let limits = shared.limits;
    let mut check = tokio::time::interval(check_period(limits));
    let mut shutdown = shared.shutdown.clone();
    let mut winding_down = false;
    loop {
        tokio::select! {
            _ = &mut connection => return,
            _ = state.close.notified(), if state.is_idle() => return,
            _ = check.tick() => {
                if winding_down && state.is_idle() {
                    return;
                }
                if let Some(overdue) = state.overdue(limits.header, limits.idle) {
                    tracing::debug!(%peer, ?overdue, "closing the connection");
                    return;
                }
            }
            () = turned_true(&mut shutdown), if !winding_down => {
                // Idle connections close now; one answering a request closes after it.
                if state.is_idle() {
                    return;
                }
                winding_down = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Waits until `flag` is true (at once if it is already, or if its sender is gone).
pub(crate) async fn turned_true(flag: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is dropped here, before any other await.
    let _ = flag.wait_for(|&s| s).await;
}

/// How often a connection looks at its clocks: a tenth of the shorter limit, between 20 ms and
/// 1 s, so that it closes within 10% of its limit.
fn check_period(limits: ConnLimits) -> Duration {
    (limits.header.min(limits.idle) / 10).clamp(Duration::from_millis(20), Duration::from_secs(1))
}
