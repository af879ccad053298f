//! The web server: the game page, the JSON API and shared game rooms, on axum and tokio.
//!
//! Solving never runs on the server's own threads: it goes to a pool of a fixed number of
//! workers behind a bounded queue, each search within the configured [`Budget`] and stopped
//! when its client hangs up, so a busy server answers 503 at once rather than piling up work
//! or memory; what needs no search (a finished game, a position of the opening book) never
//! waits for a worker. Everything a client can hold is bounded: connections (idle and slow
//! ones are closed), live connections and their messages, rooms (and how fast one address
//! makes them), the size of requests.

mod api;
mod connection;
mod error;
mod guard;
mod listen;
mod page;
mod pool;
mod quarto;
mod query;
mod rate;
mod rooms;
mod socket;

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::engine::position::Position;
use crate::solver::{Book, Budget, Mib};

pub use listen::ConnLimits;
pub(crate) use pool::Pool;
pub use rooms::{EndReason, Ending, Limits, RoomView, SeatView};
pub use socket::{SocketLimits, Ticket};

/// Everything the server can be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The address to listen on (default 127.0.0.1: this machine only).
    pub bind: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// Solver workers, each with its own table. One by default: the requests of a game then
    /// all meet the table the earlier ones filled (idle workers take turns, so with two, each
    /// request of one page would meet the other's table).
    pub workers: usize,
    /// Threads each worker's search uses, sharing its table (see
    /// [`crate::Solver::with_threads`]): with one per core, a lone request has the whole
    /// machine, and requests that run at once share the cores.
    pub search_threads: usize,
    /// Requests that may wait for a worker; past that the server answers 503.
    pub queue: usize,
    /// Each worker's table (and one-row solver) memory.
    pub table: Mib,
    /// What one request's search may spend.
    pub budget: Budget,
    /// The rooms' time limits and number.
    pub rooms: Limits,
    /// New rooms one client address may make a minute (after a first few at once).
    pub rooms_per_minute: u32,
    /// The limits on HTTP connections.
    pub connections: ConnLimits,
    /// The limits on live connections (WebSockets).
    pub sockets: SocketLimits,
    /// How long a shutdown waits for the requests under way before cutting them off.
    pub grace: Duration,
    /// Opening books (at most one per set of rules) that every worker's solver consults, so
    /// that the positions they hold are answered at once, whatever the budget.
    pub books: Vec<Arc<Book>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            workers: 1,
            search_threads: cores(),
            queue: 16,
            table: Mib(64),
            budget: Budget::time(Duration::from_secs(2)),
            rooms: Limits {
                reconnect: Duration::from_secs(60),
                afk: None,
                keep: Duration::from_secs(3600),
                lobby: Duration::from_secs(600),
                max_rooms: 1000,
            },
            rooms_per_minute: 10,
            connections: ConnLimits {
                max: 256,
                header: Duration::from_secs(10),
                idle: Duration::from_secs(30),
            },
            sockets: SocketLimits {
                max: 512,
                per_room: 16,
                max_message: 4096,
                ping: Duration::from_secs(20),
            },
            grace: Duration::from_secs(5),
            books: Vec::new(),
        }
    }
}

/// The machine's cores (2 when the system does not say).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

impl Config {
    /// How often the rooms' clocks are read: a twentieth of the shortest limit, between 10 ms
    /// and 1 s, so a window ends within 5% of its length.
    fn tick(&self) -> Duration {
        let limits = &self.rooms;
        let shortest = [
            Some(limits.reconnect),
            limits.afk,
            Some(limits.keep),
            Some(limits.lobby),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(limits.reconnect);
        (shortest / 20).clamp(Duration::from_millis(10), Duration::from_secs(1))
    }
}

/// What every request handler shares.
pub(crate) struct AppState {
    config: Config,
    pool: Pool,
    hub: Mutex<socket::Hub>,
    /// One permit per live connection the server may still open.
    sockets: Arc<Semaphore>,
    /// How fast each client address may make rooms.
    room_rate: Mutex<rate::RateLimit>,
    /// Turns `true` when the server stops, which closes the live connections.
    shutdown: watch::Sender<bool>,
}

impl AppState {
    /// The opening book of `pos`'s rules, if the server has one.
    fn book(&self, pos: &Position) -> Option<&Book> {
        let rules = pos.rules();
        self.config
            .books
            .iter()
            .find(|b| b.rules() == rules)
            .map(|b| &**b)
    }
}

/// Rooms one client address may make at once before the rate per minute applies.
const ROOM_BURST: u32 = 5;

/// A server bound to its address, ready to run.
pub struct Server {
    listener: TcpListener,
    state: Arc<AppState>,
}

impl Server {
    /// Binds the address of `config` and starts the solver workers.
    ///
    /// # Errors
    /// The system's error when the address cannot be bound (in use, not this machine's).
    pub async fn bind(config: Config) -> io::Result<Server> {
        let listener = TcpListener::bind(SocketAddr::new(config.bind, config.port)).await?;
        let pool = Pool::new(
            config.workers,
            config.search_threads,
            config.queue,
            config.table,
            &config.books,
        );
        let state = Arc::new(AppState {
            sockets: Arc::new(Semaphore::new(config.sockets.max)),
            room_rate: Mutex::new(rate::RateLimit::new(config.rooms_per_minute, ROOM_BURST)),
            config,
            pool,
            hub: Mutex::new(socket::Hub::default()),
            shutdown: watch::Sender::new(false),
        });
        Ok(Server { listener, state })
    }

    /// The address the server listens on (with the port chosen when `port` was 0).
    ///
    /// # Errors
    /// The system's error if the socket has no address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `stop` completes; then stops accepting connections, closes every live
    /// connection with a close frame that says why, lets the requests under way finish, and
    /// returns within the configured grace period, cutting off whatever is left.
    pub async fn run(self, stop: impl Future<Output = ()> + Send + 'static) {
        let state = self.state;
        let clocks = tokio::spawn(run_clocks(Arc::clone(&state)));
        let serving = listen::serve(
            self.listener,
            router(Arc::clone(&state)),
            state.config.connections,
            state.shutdown.subscribe(),
            state.config.grace,
        );
        let shutdown = state.shutdown.clone();
        let signal = async move {
            stop.await;
            shutdown.send_replace(true);
        };
        let sockets = async {
            // Every live connection gives its permit back once its close frame is sent.
            let all = u32::try_from(state.config.sockets.max).unwrap_or(u32::MAX);
            let closed = state.sockets.acquire_many(all);
            let _ = tokio::time::timeout(state.config.grace, closed).await;
        };
        tokio::join!(serving, async {
            signal.await;
            sockets.await;
        });
        clocks.abort();
    }
}

/// Reads the rooms' clocks every tick.
async fn run_clocks(state: Arc<AppState>) {
    let mut every = tokio::time::interval(state.config.tick());
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Ok(mut hub) = state.hub.lock() {
            hub.tick(&state.config.rooms);
        }
    }
}

/// Every route of the page and the API.
fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/quarto", get(page::quarto))
        .route("/{file}", get(page::file))
        .route("/api/state", get(api::state))
        .route("/api/solve", get(api::solve))
        .route("/api/move", get(api::bot_move))
        .route("/api/table1", get(api::table1))
        .route("/api/players", get(api::players))
        .route("/api/plan", get(api::plan))
        .route("/api/quarto/state", get(quarto::state))
        .route("/api/quarto/solve", get(quarto::solve))
        .route("/api/quarto/move", get(quarto::bot_move))
        .route("/api/rooms", post(socket::create))
        .route("/api/rooms/{id}", get(socket::view))
        .route("/api/rooms/{id}/join", post(socket::join))
        .route("/api/rooms/{id}/move", post(socket::play))
        .route("/api/rooms/{id}/resign", post(socket::resign))
        .route("/api/rooms/{id}/live", get(socket::live))
        .fallback(page::not_found)
        .layer(axum::middleware::from_fn(guard::guard))
        .with_state(state)
}
