//! The game page in a real browser: headless Chromium, driven over WebDriver by chromedriver
//! (Debian's `chromium` and `chromium-driver`), plays by clicks against the server. Without
//! the browser the test says why and skips.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use connectk::serve::{Config, Server};
use connectk::{Budget, Mib};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// Where Debian puts the browser and its driver; `CHROMIUM` and `CHROMEDRIVER` override.
fn tool(variable: &str, default: &str) -> Option<PathBuf> {
    let path = std::env::var_os(variable).map_or_else(|| PathBuf::from(default), PathBuf::from);
    path.exists().then_some(path)
}

/// A chromedriver of our own, ended when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start_driver(driver: &Path) -> Driver {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen within 20 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    driver
}

/// A headless Chromium with the flags a closed network needs, and a fresh profile.
async fn open_browser(driver: &Driver, chromium: &Path, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1000,1050",
    ]
    .into_iter()
    .map(String::from)
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium, "args": args }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session")
}

/// Runs `script` (a JavaScript function body) in the page until it returns something truthy,
/// for at most `seconds`; returns that value.
async fn wait_for(client: &Client, script: &str, seconds: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let value = client
            .execute(script, vec![])
            .await
            .expect("the script runs");
        if !(value.is_null() || value == json!(false) || value == json!("")) {
            return value;
        }
        assert!(
            Instant::now() < deadline,
            "waited {seconds} s for: {script}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

const NOTATION: &str = "return document.getElementById('notation').textContent;";

/// The game's moves as the page shows them (`(none)` before the first).
async fn notation(client: &Client) -> String {
    let text = client.execute(NOTATION, vec![]).await.unwrap();
    let text = text.as_str().unwrap();
    if text == "(none)" {
        String::new()
    } else {
        text.to_string()
    }
}

async fn click_column(client: &Client, column: u32) {
    let css = format!(".col[data-col=\"{column}\"]");
    client
        .find(Locator::Css(&css))
        .await
        .expect("the column's button")
        .click()
        .await
        .expect("a click");
}

/// Starts a server of `config` on this machine: its base address, and the sender that stops it.
async fn serve(config: Config) -> (String, oneshot::Sender<()>) {
    let server = Server::bind(config).await.unwrap();
    let base = format!("http://{}", server.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    (base, stop)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_a_game_by_clicks_and_refuses_a_full_column() {
    let (Some(chromium), Some(chromedriver)) = (
        tool("CHROMIUM", "/usr/bin/chromium"),
        tool("CHROMEDRIVER", "/usr/bin/chromedriver"),
    ) else {
        eprintln!(
            "skipped: no /usr/bin/chromium or /usr/bin/chromedriver (apt-get install chromium \
             chromium-driver, as .ci/run does; or set CHROMIUM and CHROMEDRIVER)"
        );
        return;
    };
    let (base, stop) = serve(Config {
        port: 0,
        workers: 2,
        table: Mib(16),
        budget: Budget::time(Duration::from_secs(5)),
        ..Config::default()
    })
    .await;
    // A server whose searches stop after 20,000 nodes (one thread, so the same every run),
    // with its one worker's table carried from request to request.
    let (frugal_base, stop_frugal) = serve(Config {
        port: 0,
        workers: 1,
        table: Mib(16),
        budget: Budget {
            time: Some(Duration::from_secs(60)),
            nodes: Some(20_000),
        },
        ..Config::default()
    })
    .await;
    let profile = std::env::temp_dir().join(format!("connectk-chromium-{}", std::process::id()));
    let driver = start_driver(&chromedriver).await;
    let client = open_browser(&driver, &chromium, &profile).await;

    let (session, at) = (client.clone(), base.clone());
    let cases = tokio::spawn(async move {
        whole_game_against_a_seeded_bot(&session, &at).await;
        full_column_is_refused(&session, &at).await;
        analysis_asks_again_for_what_it_does_not_know(&session, &frugal_base).await;
        a_seat_link_keeps_its_token_out_of_the_address_bar(&session, &at).await;
    })
    .await;
    // Close the browser and the driver whatever happened, then report.
    let _ = client.close().await;
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);
    let _ = stop.send(());
    let _ = stop_frugal.send(());
    if let Err(failure) = cases {
        std::panic::resume_unwind(failure.into_panic());
    }
}

/// Normal 6x5 after "3434" on a server that stops each search after 20,000 nodes: the first
/// request for outcomes leaves column 4 unknown, and so does the one for exact values after it;
/// the page asks again for outcomes until every column's is shown.
async fn analysis_asks_again_for_what_it_does_not_know(client: &Client, base: &str) {
    client
        .goto(&format!(
            "{base}/?rules=normal&k=4&width=6&height=5&moves=3434&analysis=1"
        ))
        .await
        .unwrap();
    let every_value_shown = "const v = [...document.querySelectorAll('#values span')]; \
         return v.length === 6 && v.every(s => s.className !== 'unknown') && v.map(s => s.textContent);";
    let shown = wait_for(client, every_value_shown, 30).await;
    assert_eq!(
        shown,
        json!(["loss", "loss", "draw", "draw", "loss", "loss"]),
        "P1 to move: the values of columns 1 to 6"
    );
}

/// The link of a room's seat carries its token in the fragment; the page seats the player and
/// shows the invite in the address bar, so that the address copied from there gives the seat
/// to nobody.
async fn a_seat_link_keeps_its_token_out_of_the_address_bar(client: &Client, base: &str) {
    let ticket: Value = reqwest::Client::new()
        .post(format!("{base}/api/rooms?width=5&height=4"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let (id, token) = (
        ticket["id"].as_str().unwrap(),
        ticket["token"].as_str().unwrap(),
    );
    client
        .goto(&format!("{base}{}", ticket["link"].as_str().unwrap()))
        .await
        .unwrap();
    let seated = "const t = document.getElementById('seats'); \
         return t && t.textContent.includes('You are P1') && t.textContent;";
    wait_for(client, seated, 10).await;
    let address = client.current_url().await.unwrap().to_string();
    assert_eq!(address, format!("{base}/?room={id}"));
    assert!(!address.contains(token));
    let kept = client
        .execute(
            &format!("return localStorage.getItem('connectk-room-{id}');"),
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(kept, json!(token));
}

/// The human (P1) clicks the leftmost column with room, every turn, against the `easy` bot
/// with seed 7, on normal 7x6, until the game ends; then the page must show the reason and
/// highlight exactly the cells the API gives for the line.
async fn whole_game_against_a_seeded_bot(client: &Client, base: &str) {
    client
        .goto(&format!(
            "{base}/?rules=normal&k=4&width=7&height=6&opponent=easy&first=me&seed=7"
        ))
        .await
        .unwrap();
    let turn_or_end = "const r = document.getElementById('result'); \
         if (!r.hidden) return 'over'; \
         return document.getElementById('status').textContent.includes('your move') ? 'turn' : '';";
    for _ in 0..42 {
        if wait_for(client, turn_or_end, 20).await == json!("over") {
            break;
        }
        let before = notation(client).await;
        let column = wait_for(
            client,
            "const c = document.querySelector('.col:not(.full)'); return c ? Number(c.dataset.col) : 0;",
            5,
        )
        .await;
        click_column(client, column.as_u64().unwrap() as u32).await;
        let changed = format!(
            "return document.getElementById('notation').textContent !== {before:?} && document.getElementById('notation').textContent !== '(none)';"
        );
        wait_for(client, &changed, 10).await;
    }
    let reason = wait_for(
        client,
        "const r = document.getElementById('result'); return !r.hidden && r.dataset.reason;",
        20,
    )
    .await;
    let moves = notation(client).await;
    // The API's word on the final position.
    let state: Value = reqwest::get(format!("{base}/api/state?moves={moves}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        reason,
        json!("line"),
        "the game {moves} should end with a line"
    );
    assert_eq!(state["reason"], "line");
    let text = client
        .find(Locator::Id("result"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let winner = state["winner"].as_str().unwrap();
    assert!(text.starts_with(&format!("{winner} (")), "{text}");
    assert!(text.contains("made a line of 4 and wins"), "{text}");
    // Highlighted cells, as [column, row] from the bottom left, against the API's.
    let shown = client
        .execute(
            "return [...document.querySelectorAll('.cell.win')].map(c => \
             [Number(c.parentElement.dataset.col) - 1, Number(c.dataset.row)]);",
            vec![],
        )
        .await
        .unwrap();
    let mut shown: Vec<Value> = shown.as_array().unwrap().clone();
    let mut expected: Vec<Value> = state["winning_cells"].as_array().unwrap().clone();
    shown.sort_by_key(|c| c.to_string());
    expected.sort_by_key(|c| c.to_string());
    assert_eq!(shown, expected);
    assert!(expected.len() >= 4);
    // The finished game, for the README (CONNECTK_SCREENSHOT names the file).
    let png = client.screenshot().await.unwrap();
    let path = std::env::var_os("CONNECTK_SCREENSHOT").map_or_else(
        || std::env::temp_dir().join("connectk-game-over.png"),
        PathBuf::from,
    );
    std::fs::write(&path, png).unwrap();
    // Play has stopped: a click changes nothing.
    click_column(client, 7).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(notation(client).await, moves);
    eprintln!("game {moves}: {text} (screenshot {})", path.display());
}

/// Two people at one screen fill column 1 of a 4x3 board; a fourth click there is refused
/// visibly, with the library's message, and the game does not change.
async fn full_column_is_refused(client: &Client, base: &str) {
    client
        .goto(&format!("{base}/?rules=misere&k=4&width=4&height=3"))
        .await
        .unwrap();
    wait_for(
        client,
        "return document.getElementById('status').textContent.includes('P1 (X) to move');",
        10,
    )
    .await;
    for n in 1..=3 {
        click_column(client, 1).await;
        let filled = format!(
            "return document.getElementById('notation').textContent === {:?};",
            "1".repeat(n)
        );
        wait_for(client, &filled, 10).await;
    }
    click_column(client, 1).await;
    let refused = wait_for(
        client,
        "const e = document.getElementById('error'); \
         return document.querySelector('.col[data-col=\"1\"]').classList.contains('refused') && !e.hidden && e.textContent;",
        10,
    )
    .await;
    assert_eq!(
        refused,
        json!("move 4: column 1 is full: choose a column that still has room")
    );
    assert_eq!(notation(client).await, "111");
}
