//! `connectk serve`: the game page, the JSON API and shared game rooms over HTTP.

use std::net::IpAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use connectk::serve::{Config, Limits, Server};
use connectk::{Budget, Mib};

use super::options::BooksArgs;
use super::solve::parse_seconds;

/// Serve the game page and the JSON API: play any board under either rules against a friend
/// at the same screen, any bot, a paper strategy or the solver; analyse positions; or open a
/// room and send its link to a friend. Ctrl-C stops the server.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on (the default serves this machine only).
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
    /// Table memory of each worker in MiB (the total is about workers times this).
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
    #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = parse_seconds)]
    reconnect_seconds: Duration,
    /// Seconds the player to move in a room may stay idle before losing by "afk_timeout"
    /// (default: no limit).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    afk_seconds: Option<Duration>,
    /// Seconds a room is kept after its game ends or after its last activity.
    #[arg(long, default_value = "3600", value_name = "SECONDS", value_parser = parse_seconds)]
    room_seconds: Duration,
    /// The most rooms at once; past that, new rooms are refused with 503.
    #[arg(long, default_value_t = 1000)]
    max_rooms: usize,
    #[command(flatten)]
    books: BooksArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let defaults = Config::default();
    let workers = args.workers.map_or(defaults.workers, usize::from);
    super::check_memory("--table-mb", args.table_mb, workers)?;
    let config = Config {
        bind: args.bind,
        port: args.port,
        workers,
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
            max_rooms: args.max_rooms,
        },
        books: args.books.load()?,
    };
    let books: Vec<String> = config
        .books
        .iter()
        .map(|b| format!("{} to ply {}", b.rules(), b.plies()))
        .collect();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    let (workers, threads, table) = (config.workers, config.search_threads, config.table);
    runtime.block_on(async {
        let server = Server::bind(config)
            .await
            .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
        let address = server.local_addr()?;
        outln!(
            "connectk serves http://{address}/ (solver workers: {workers}, each with {threads} search threads and a {} MiB table; {} s per search; opening books: {}); Ctrl-C stops it",
            table.0,
            args.budget_seconds.as_secs_f64(),
            if books.is_empty() { "none".to_string() } else { books.join(", ") }
        );
        server
            .run(async {
                // If the signal cannot be watched, the server runs until it is killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await
            .context("the server stopped with an error")?;
        outln!("connectk serve stopped");
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
