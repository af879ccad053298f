//! Driving the pages in a real browser: headless Chromium through chromedriver (Debian's
//! `chromium` and `chromium-driver`), with the flags a closed network needs, and the server on a
//! free port of this machine.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use axum::http::Method;
use connectk::serve::{Config, Server};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// Where Debian puts the browser and its driver; `CHROMIUM` and `CHROMEDRIVER` override.
pub fn tool(variable: &str, default: &str) -> Option<PathBuf> {
    let path = std::env::var_os(variable).map_or_else(|| PathBuf::from(default), PathBuf::from);
    path.exists().then_some(path)
}

/// The browser and its driver, or why the test skips.
pub fn tools() -> Option<(PathBuf, PathBuf)> {
    match (
        tool("CHROMIUM", "/usr/bin/chromium"),
        tool("CHROMEDRIVER", "/usr/bin/chromedriver"),
    ) {
        (Some(chromium), Some(driver)) => Some((chromium, driver)),
        _ => {
            eprintln!(
                "skipped: no /usr/bin/chromium or /usr/bin/chromedriver (apt-get install chromium \
                 chromium-driver, as .ci/run does; or set CHROMIUM and CHROMEDRIVER)"
            );
            None
        }
    }
}

/// A chromedriver of our own, ended when dropped.
pub struct Driver {
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

pub async fn start_driver(driver: &Path) -> Driver {
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

/// A headless Chromium with the flags a closed network needs, a fresh profile, a window of
/// `width` x `height`, and its console kept for [`console_errors`].
pub async fn open_browser(
    driver: &Driver,
    chromium: &Path,
    profile: &Path,
    (width, height): (u32, u32),
) -> Client {
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
        "--hide-scrollbars",
    ]
    .into_iter()
    .map(String::from)
    .chain([
        format!("--window-size={width},{height}"),
        format!("--user-data-dir={}", profile.display()),
    ])
    .collect::<Vec<_>>();
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium, "args": args }),
    );
    capabilities.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session")
}

/// chromedriver's command for the browser's console since it was last read.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &reqwest::Url,
        session_id: Option<&str>,
    ) -> Result<reqwest::Url, url_error::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &reqwest::Url) -> (Method, Option<String>) {
        (Method::POST, Some(r#"{"type":"browser"}"#.to_string()))
    }
}

/// The URL parser's error type, as fantoccini's trait names it.
mod url_error {
    pub type ParseError = <reqwest::Url as std::str::FromStr>::Err;
}

/// The console's errors since the last call: scripts that failed, and anything the page's
/// security policy refused. (A request the server answered with an error status is logged by
/// the browser too; those are left out, since bad input is answered that way on purpose.)
pub async fn console_errors(client: &Client) -> Vec<String> {
    let log = client
        .issue_cmd(BrowserLog)
        .await
        .expect("the browser's log");
    log.as_array()
        .into_iter()
        .flatten()
        .filter(|entry| entry["level"] == "SEVERE")
        .filter_map(|entry| entry["message"].as_str())
        .filter(|message| !message.contains("the server responded with a status of"))
        .map(String::from)
        .collect()
}

/// Runs `script` (a JavaScript function body) in the page.
pub async fn run(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("the script runs: {script}: {e}"))
}

/// Runs `script` until it returns something truthy, for at most `seconds`; returns that value.
pub async fn wait_for(client: &Client, script: &str, seconds: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let value = run(client, script).await;
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

/// Clicks the element `css` as a user would (scrolled into view, at its centre). The pages
/// redraw as answers come in, so an element found may be replaced before the click lands: it
/// is then found again.
pub async fn click(client: &Client, css: &str) {
    for attempt in 1.. {
        let found = client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"));
        match found.click().await {
            Ok(()) => return,
            Err(e) if attempt < 10 && e.to_string().contains("stale element") => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("no click on {css}: {e}"),
        }
    }
}

/// Presses `keys` (WebDriver key codes, such as "\u{E007}" for Enter) as a keyboard would:
/// each goes to whatever has the focus, the page itself when nothing does. (Sending them to
/// the focused element instead fails when that element has just been disabled, as the last
/// button is once the game is at its last move.)
pub async fn press(client: &Client, keys: &str) {
    let mut keyboard = KeyActions::new("keyboard".to_string());
    for key in keys.chars() {
        keyboard = keyboard
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
    }
    client
        .perform_actions(keyboard)
        .await
        .expect("keys pressed");
}

/// Starts a server of `config` on this machine: its base address, and the sender that stops it.
pub async fn serve(config: Config) -> (String, oneshot::Sender<()>) {
    let server = Server::bind(config).await.unwrap();
    let base = format!("http://{}", server.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    (base, stop)
}

/// Where `CONNECTK_SCREENSHOTS` asks for the page's screenshots (for the documentation), if it
/// does.
pub fn screenshot_dir() -> Option<PathBuf> {
    std::env::var_os("CONNECTK_SCREENSHOTS").map(PathBuf::from)
}

/// Saves the window as `name` in the screenshot directory, when one was asked for.
pub async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = screenshot_dir() {
        // The last disc's drop and the first glow of a line are over by then.
        tokio::time::sleep(Duration::from_millis(800)).await;
        std::fs::create_dir_all(&dir).unwrap();
        let png = client.screenshot().await.unwrap();
        std::fs::write(dir.join(name), png).unwrap();
    }
}
