//! `connectk serve`: the game page, the JSON API and shared game rooms over HTTP.

use std::net::IpAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use connectk::serve::{Config, ConnLimits, Limits, Server, SocketLimits};
use connectk::{Budget, Mib};

use super::options::BooksArgs;
use super::solve::parse_seconds;

/// Serve the game page, the JSON API and game rooms.
///
/// Serve the game page and the JSON API: play any board under either rules against a friend
/// at the same screen, any bot, a paper strategy or the solver; analyse positions; or open a
/// room and send its link to a friend. Every resource a client can hold is bounded (the limits
/// below); idle and slow connections are closed. Ctrl-C or SIGTERM stops the server: live
/// connections are told, requests under way get --grace-seconds to finish, and it exits 0.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on (the default serves this machine only; 0.0.0.0 serves every
    /// machine that can reach this one).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port (0: any free port, printed at the start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Solver workers, each with its own table and searches (default 1: a game's requests
    /// then meet the table its earlier requests filled; more serve more requests at once).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    workers: Option<u16>,
    /// Threads each worker's search uses (default: one per core, so a lone request has the
    /// whole machine; requests that run at once share the cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    search_threads: Option<u16>,
    /// Solving requests that may wait for a worker, 1 to 4096; past that the server answers
    /// 503 (the bound keeps a crowd of clients from filling the memory).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    queue: u16,
    /// Table memory of each worker in MiB, at least 1; a worker that has served Quarto holds a
    /// second table of this size for it (the total is at most twice workers times this).
    #[arg(long, default_value_t = Mib(64), value_name = "MIB")]
    table_mb: Mib,
    /// Seconds one request's search may take; values not found by then are reported unknown.
    #[arg(long, default_value = "2", value_name = "SECONDS", value_parser = parse_seconds)]
    budget_seconds: Duration,
    /// Search nodes one request may spend, on top of the time (default: no node limit); each
    /// search then runs on one thread, so that a request gets the same answer every time.
    #[arg(long, value_name = "NODES")]
    budget_nodes: Option<u64>,
    /// Seconds a room player whose connection dropped has to come back before losing by
    /// "disconnect".
    #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = positive_seconds)]
    reconnect_seconds: Duration,
    /// Seconds the player to move in a room may stay idle before losing by "afk_timeout"
    /// (default: no limit).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    afk_seconds: Option<Duration>,
    /// Seconds a room is kept after its game ends or after its last activity.
    #[arg(long, default_value = "3600", value_name = "SECONDS", value_parser = positive_seconds)]
    room_seconds: Duration,
    /// Seconds a room waits for its second player before it is removed.
    #[arg(long, default_value = "600", value_name = "SECONDS", value_parser = positive_seconds)]
    lobby_seconds: Duration,
    /// The most rooms at once, 1 to 1000000; past that, new rooms are refused with 503 and a
    /// Retry-After.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_rooms: u32,
    /// New rooms one client address may make a minute, 1 to 10000 (after a first five at
    /// once); past that the server answers 429 with a Retry-After.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    rooms_per_minute: u32,
    /// HTTP connections open at once, 1 to 65536; when all are taken, the one idle the longest
    /// is closed to make room.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_connections: u32,
    /// Seconds a request's headers may take to arrive, from their first byte.
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = positive_seconds)]
    header_seconds: Duration,
    /// Seconds a connection may stay open with no request under way.
    #[arg(long, default_value = "30", value_name = "SECONDS", value_parser = positive_seconds)]
    idle_seconds: Duration,
    /// Live room connections (WebSockets) open at once, 1 to 65536.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_sockets: u32,
    /// Live connections open at once to one room, 2 to 1024 (its players and watchers).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(2..=1024))]
    room_sockets: u32,
    /// The largest message a browser may send over a live connection, in bytes, 256 to 65536
    /// (moves are under 100).
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(256..=65_536))]
    max_message_bytes: u32,
    /// Seconds between pings of a quiet live connection; one silent for two of them is closed.
    #[arg(long, default_value = "20", value_name = "SECONDS", value_parser = positive_seconds)]
    ping_seconds: Duration,
    /// Seconds a shutdown waits for the requests under way before cutting them off.
    #[arg(long, default_value = "5", value_name = "SECONDS", value_parser = parse_seconds)]
    grace_seconds: Duration,
    /// What the server logs on stderr: `off`, `errors`, `access` (one line per request, with
    /// seat tokens hidden) or `debug`.
    #[arg(long, default_value = "access", value_enum)]
    log: Log,
    #[command(flatten)]
    books: BooksArgs,
}

/// The levels of `--log`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Log {
    /// Nothing.
    Off,
    /// Warnings and errors.
    Errors,
    /// Also one line per request.
    Access,
    /// Also why connections are closed.
    Debug,
}

/// A number of seconds above zero (for limits, where zero would end everything at once).
fn positive_seconds(text: &str) -> Result<Duration, String> {
    parse_seconds(text)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            format!("{text:?} is not a time above zero: expected seconds from 0.001 to 32000000")
        })
}

/// File descriptors the server needs besides its connections (books, the listener, the
/// solver's threads, the standard streams).
const SPARE_FILES: u64 = 64;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = config(&args)?;
    if args.table_mb.0 == 0 {
        anyhow::bail!("--table-mb 0: give each worker a table of at least 1 MiB");
    }
    // A Connect-k table and a Quarto table per worker.
    super::check_memory("--table-mb", args.table_mb, 2 * config.workers)?;
    let files = (config.connections.max + config.sockets.max) as u64 + SPARE_FILES;
    ensure_open_files(files).with_context(|| {
        format!(
            "--max-connections {} and --max-sockets {} need {files} open files",
            config.connections.max, config.sockets.max
        )
    })?;
    start_log(args.log);
    if !args.bind.is_loopback() {
        errln!(
            "warning: --bind {} serves every machine that can reach this one, not only this \
             machine: the page, the API and the rooms are open to them",
            args.bind
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    runtime.block_on(serve(config, &args))?;
    Ok(ExitCode::SUCCESS)
}

/// The server's configuration from the command line.
fn config(args: &Args) -> anyhow::Result<Config> {
    let defaults = Config::default();
    Ok(Config {
        bind: args.bind,
        port: args.port,
        workers: args.workers.map_or(defaults.workers, usize::from),
        search_threads: args
            .search_threads
            .map_or(defaults.search_threads, usize::from),
        queue: args.queue.into(),
        table: args.table_mb,
        budget: Budget {
            time: Some(args.budget_seconds),
            nodes: args.budget_nodes,
        },
        rooms: Limits {
            reconnect: args.reconnect_seconds,
            afk: args.afk_seconds,
            keep: args.room_seconds,
            lobby: args.lobby_seconds,
            max_rooms: args.max_rooms as usize,
        },
        rooms_per_minute: args.rooms_per_minute,
        connections: ConnLimits {
            max: args.max_connections as usize,
            header: args.header_seconds,
            idle: args.idle_seconds,
        },
        sockets: SocketLimits {
            max: args.max_sockets as usize,
            per_room: args.room_sockets as usize,
            max_message: args.max_message_bytes as usize,
            ping: args.ping_seconds,
        },
        grace: args.grace_seconds,
        books: args.books.load()?,
    })
}

/// Binds, prints the address, serves until SIGINT or SIGTERM, and winds down.
async fn serve(config: Config, args: &Args) -> anyhow::Result<()> {
    let books: Vec<String> = config
        .books
        .iter()
        .map(|b| format!("{} to ply {}", b.rules(), b.plies()))
        .collect();
    let (workers, threads, table) = (config.workers, config.search_threads, config.table);
    let grace = config.grace;
    let server = Server::bind(config)
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
    let address = server.local_addr()?;
    outln!(
        "connectk serves http://{address}/ (solver workers: {workers}, each with {threads} search threads and a {} MiB table; {} s per search; opening books: {}); Ctrl-C stops it",
        table.0,
        args.budget_seconds.as_secs_f64(),
        if books.is_empty() {
            "none".to_string()
        } else {
            books.join(", ")
        }
    );
    server
        .run(async move {
            let name = stop_signal().await;
            errln!(
                "connectk serve: {name}: closing the live connections and waiting up to {} s for the requests under way",
                grace.as_secs_f64()
            );
        })
        .await;
    outln!("connectk serve stopped");
    Ok(())
}

/// Waits for SIGINT (Ctrl-C) or SIGTERM and returns its name. A signal that cannot be watched
/// is left out (the other still stops the server).
async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let interrupt = async {
        match signal(SignalKind::interrupt()) {
            Ok(mut s) => s.recv().await,
            Err(_) => std::future::pending().await,
        }
    };
    let terminate = async {
        match signal(SignalKind::terminate()) {
            Ok(mut s) => s.recv().await,
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = interrupt => "SIGINT",
        _ = terminate => "SIGTERM",
    }
}

/// Raises the process's limit on open files to `needed` when it is lower (up to the hard
/// limit the system allows).
///
/// # Errors
/// When the hard limit is below `needed`: lower the limits, or raise `ulimit -n`.
fn ensure_open_files(needed: u64) -> anyhow::Result<()> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given, which lives for the call.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Ok(());
    }
    if limit.rlim_cur >= needed {
        return Ok(());
    }
    if limit.rlim_max < needed {
        anyhow::bail!(
            "the system allows at most {} (ulimit -n): lower the limits or raise it",
            limit.rlim_max
        );
    }
    let raised = libc::rlimit {
        rlim_cur: needed,
        rlim_max: limit.rlim_max,
    };
    // SAFETY: setrlimit reads the struct it is given, which lives for the call.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } != 0 {
        anyhow::bail!(
            "the limit is {} (ulimit -n) and could not be raised: lower the limits or raise it",
            limit.rlim_cur
        );
    }
    Ok(())
}

/// Starts the log on stderr at `level`.
fn start_log(level: Log) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::prelude::*;
    let (everything, access) = match level {
        Log::Off => (LevelFilter::OFF, LevelFilter::OFF),
        Log::Errors => (LevelFilter::WARN, LevelFilter::OFF),
        Log::Access => (LevelFilter::WARN, LevelFilter::INFO),
        Log::Debug => (LevelFilter::DEBUG, LevelFilter::INFO),
    };
    let filter = Targets::new()
        .with_default(LevelFilter::WARN.min(everything))
        .with_target("connectk", everything)
        .with_target("connectk::access", access);
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_target(false);
    // A second subscriber (a spec running serve twice) keeps the first.
    let _ = tracing_subscriber::registry()
        .with(layer.with_filter(filter))
        .try_init();
}
