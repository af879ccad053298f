//! The pages in a real browser: headless Chromium, driven over WebDriver by chromedriver, plays
//! by clicks and keys against the server, on a desktop window and on phone widths. Without the
//! browser the test says why and skips.
//!
//! `CONNECTK_SCREENSHOTS=docs/screenshots cargo test --release --test serve serve_browser` also
//! writes the documentation's screenshots.

mod browser;

use std::time::Duration;

use browser::{
    click, console_errors, open_browser, press, run, screenshot, serve, start_driver, tools,
    wait_for,
};
use connectk::serve::Config;
use connectk::{Budget, Mib};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};

const ENTER: &str = "\u{E007}";

/// The game's moves as the page shows them (`(none)` before the first).
async fn notation(client: &Client) -> String {
    let text = run(
        client,
        "return document.getElementById('notation').textContent;",
    )
    .await;
    let text = text.as_str().unwrap();
    if text == "(none)" {
        String::new()
    } else {
        text.to_string()
    }
}

async fn click_column(client: &Client, column: u32) {
    click(client, &format!(".col[data-col=\"{column}\"]")).await;
}

/// Waits until the page shows the moves `moves`.
async fn wait_moves(client: &Client, moves: &str) {
    let script = format!(
        "return document.getElementById('notation').textContent === {:?};",
        if moves.is_empty() { "(none)" } else { moves }
    );
    wait_for(client, &script, 20).await;
}

/// Opens `path` of `base` and waits until the page has drawn its game.
async fn open(client: &Client, base: &str, path: &str) {
    client.goto(&format!("{base}{path}")).await.unwrap();
    wait_for(
        client,
        "const s = document.getElementById('status'), r = document.getElementById('result'); \
         return document.querySelector('.col, .q-cell') && (s.textContent !== '' || !r.hidden);",
        20,
    )
    .await;
}

async fn api(base: &str, path: &str) -> Value {
    reqwest::get(format!("{base}{path}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The 7x6 opening books of `books/`, as `connectk serve` loads them by default.
fn committed_books() -> Vec<std::sync::Arc<connectk::Book>> {
    ["normal-k4-7x6.ckbook", "misere-k4-7x6.ckbook"]
        .iter()
        .map(|name| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("books")
                .join(name);
            std::sync::Arc::new(connectk::Book::read(&path).expect("the committed book"))
        })
        .collect()
}

/// Fails on any script error or refused resource the console holds.
async fn no_console_errors(client: &Client, case: &str) {
    let errors = console_errors(client).await;
    assert!(errors.is_empty(), "{case}: console errors {errors:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_in_a_browser() {
    let Some((chromium, chromedriver)) = tools() else {
        return;
    };
    let (base, stop) = serve(Config {
        port: 0,
        workers: 2,
        table: Mib(16),
        budget: Budget::time(Duration::from_secs(5)),
        books: committed_books(),
        ..Config::default()
    })
    .await;
    let (frugal, stop_frugal) = serve(frugal_config()).await;
    let profile = std::env::temp_dir().join(format!("connectk-chromium-{}", std::process::id()));
    let driver = start_driver(&chromedriver).await;
    let client = open_browser(&driver, &chromium, &profile, (1280, 1000)).await;

    let session = client.clone();
    let cases = tokio::spawn(async move {
        for (name, case) in page_cases(&session, &base, &frugal) {
            case.await;
            no_console_errors(&session, name).await;
            eprintln!("ok: {name}");
        }
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

/// A server whose searches stop after 20,000 nodes (one thread, so the same every run), with
/// its one worker's table carried from request to request.
fn frugal_config() -> Config {
    Config {
        port: 0,
        workers: 1,
        table: Mib(16),
        budget: Budget {
            time: Some(Duration::from_secs(60)),
            nodes: Some(20_000),
        },
        ..Config::default()
    }
}

/// One case of the browser test: a future that drives the page and checks what it shows.
type Case<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>>;

/// The browser test's cases, each named, in the order they run on `c`: against the server at
/// `at`, and the frugal one at `frugal` (see [`frugal_config`]).
fn page_cases<'a>(c: &'a Client, at: &'a str, frugal: &'a str) -> Vec<(&'static str, Case<'a>)> {
    vec![
        (
            "whole game",
            Box::pin(whole_game_against_a_seeded_bot(c, at)),
        ),
        ("full column", Box::pin(full_column_is_refused(c, at))),
        ("asks again", Box::pin(analysis_asks_again(c, frugal))),
        (
            "seat link",
            Box::pin(a_seat_link_keeps_its_token_out_of_the_address_bar(c, at)),
        ),
        (
            "settings",
            Box::pin(a_change_of_opponent_starts_the_game_at_once(c, at)),
        ),
        (
            "stale values",
            Box::pin(values_go_when_analysis_is_off(c, at)),
        ),
        ("walk", Box::pin(back_forward_and_jump(c, at))),
        (
            "chart",
            Box::pin(the_chart_has_a_point_per_ply_and_goes_there(c, at)),
        ),
        (
            "cylinder",
            Box::pin(a_cylinder_game_won_through_the_wall(c, at)),
        ),
        (
            "coach",
            Box::pin(the_take_even_reply_shown_is_played(c, at)),
        ),
        (
            "quarto",
            Box::pin(a_quarto_game_against_a_seeded_bot(c, at)),
        ),
        (
            "bad addresses",
            Box::pin(bad_addresses_still_give_a_board(c, at)),
        ),
        (
            "keys",
            Box::pin(keys_play_every_column_and_moves_are_read_out(c, at)),
        ),
        (
            "contrast",
            Box::pin(focus_ring_and_values_are_readable(c, at)),
        ),
        ("phones", Box::pin(phones_never_scroll_sideways(c, at))),
        ("screenshots", Box::pin(documentation_screenshots(c, at))),
    ]
}

/// The human (P1) clicks the leftmost column with room, every turn, against the `easy` bot
/// with seed 7, on normal 7x6, until the game ends; then the page must show the reason and
/// ring exactly the cells the API gives for the line.
async fn whole_game_against_a_seeded_bot(client: &Client, base: &str) {
    open(
        client,
        base,
        "/?rules=normal&k=4&width=7&height=6&opponent=easy&first=me&seed=7",
    )
    .await;
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
            "const t = document.getElementById('notation').textContent; return t !== {before:?} && t !== '(none)';"
        );
        wait_for(client, &changed, 10).await;
        // The bot's move is read out.
        if !run(client, "return document.getElementById('result').hidden;")
            .await
            .as_bool()
            .unwrap()
        {
            break;
        }
        let heard = wait_for(
            client,
            "const a = document.getElementById('announce').textContent; \
             return /^easy played column \\d+|^Game over/.test(a) && a;",
            20,
        )
        .await;
        assert!(heard.as_str().is_some(), "{heard}");
    }
    let reason = wait_for(
        client,
        "const r = document.getElementById('result'); return !r.hidden && r.dataset.reason;",
        20,
    )
    .await;
    let moves = notation(client).await;
    let state = api(base, &format!("/api/state?moves={moves}")).await;
    assert_eq!(
        reason,
        json!("line"),
        "the game {moves} should end with a line"
    );
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
    assert_eq!(ringed(client).await, sorted(&state["winning_cells"]));
    screenshot(client, "game-over.png").await;
    let heard = run(
        client,
        "return document.getElementById('announce').textContent;",
    )
    .await;
    assert!(heard.as_str().unwrap().starts_with("Game over."), "{heard}");
    // Play has stopped: a click changes nothing.
    click_column(client, 7).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(notation(client).await, moves);
}

/// The ringed cells of the board's columns, as sorted `[column, row]` from the bottom left.
async fn ringed(client: &Client) -> Vec<Value> {
    let shown = run(
        client,
        "return [...document.querySelectorAll('.col .cell.win')].map(c => \
         [Number(c.parentElement.dataset.col) - 1, Number(c.dataset.row)]);",
    )
    .await;
    sorted(&shown)
}

fn sorted(cells: &Value) -> Vec<Value> {
    let mut cells = cells.as_array().unwrap().clone();
    cells.sort_by_key(|c| c.to_string());
    cells
}

/// Two people at one screen fill column 1 of a 4x3 board; a fourth click there is refused
/// visibly, with the library's message, and the game does not change.
async fn full_column_is_refused(client: &Client, base: &str) {
    open(client, base, "/?rules=misere&k=4&width=4&height=3").await;
    for n in 1..=3 {
        click_column(client, 1).await;
        wait_moves(client, &"1".repeat(n)).await;
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

/// Normal 6x5 after "3434" on a server that stops each search after 20,000 nodes: the first
/// request for outcomes leaves column 4 unknown, and so does the one for exact values after it;
/// the page asks again for outcomes until every column's is shown.
async fn analysis_asks_again(client: &Client, base: &str) {
    open(
        client,
        base,
        "/?rules=normal&k=4&width=6&height=5&moves=3434&analysis=1",
    )
    .await;
    let every_value_shown = "const v = [...document.querySelectorAll('[data-testid=column-value]')]; \
         return v.length === 6 && v.every(s => ['win', 'draw', 'loss'].includes(s.dataset.kind)) && \
         !document.getElementById('thinking').classList.contains('busy') && v.map(s => s.dataset.kind);";
    let shown = wait_for(client, every_value_shown, 40).await;
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
    let kept = run(
        client,
        &format!("return localStorage.getItem('connectk-room-{id}');"),
    )
    .await;
    assert_eq!(kept, json!(token));
}

/// Choosing an opponent starts a game against it at once: a click is answered. Resign waits
/// for the first move.
async fn a_change_of_opponent_starts_the_game_at_once(client: &Client, base: &str) {
    open(client, base, "/?width=5&height=4").await;
    assert_eq!(
        run(client, "return document.getElementById('resign').disabled;").await,
        json!(true),
        "nothing to resign on an empty board"
    );
    client
        .find(Locator::Id("opponent"))
        .await
        .unwrap()
        .select_by_value("easy")
        .await
        .unwrap();
    wait_for(
        client,
        "return document.getElementById('status').textContent.includes('your move') && location.search.includes('opponent=easy');",
        10,
    )
    .await;
    click_column(client, 3).await;
    wait_for(
        client,
        "return document.getElementById('notation').textContent.length === 2;",
        20,
    )
    .await;
    assert_eq!(
        run(client, "return document.getElementById('resign').disabled;").await,
        json!(false)
    );
}

/// With the analysis off, the column values are gone, and stay gone while the game goes on;
/// on again, they are the new position's.
async fn values_go_when_analysis_is_off(client: &Client, base: &str) {
    open(
        client,
        base,
        "/?rules=normal&k=4&width=5&height=4&analysis=1",
    )
    .await;
    let settled = "const v = [...document.querySelectorAll('[data-testid=column-value]')]; \
         return v.length === 5 && v.every(s => ['win', 'draw', 'loss'].includes(s.dataset.kind) && /\\d/.test(s.textContent)) \
         && v.map(s => s.dataset.kind + ' ' + s.querySelector('.n').textContent);";
    wait_for(client, settled, 30).await;
    click(client, "#analysis").await;
    let gone = "const v = document.getElementById('values'); \
         return v.hidden && getComputedStyle(v).display === 'none' && document.getElementById('chart').getBoundingClientRect().height === 0;";
    wait_for(client, gone, 5).await;
    for (i, column) in [1, 2, 3].into_iter().enumerate() {
        click_column(client, column).await;
        wait_moves(client, &"123"[..=i]).await;
        wait_for(client, gone, 5).await;
    }
    click(client, "#analysis").await;
    let shown = wait_for(client, settled, 30).await;
    // The API's values of the position after "123", P2 to move.
    let answer = api(base, "/api/solve?k=4&width=5&height=4&moves=123&analyze=1").await;
    let expected: Vec<String> = answer["move_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let kind = match m["outcome"].as_str().unwrap() {
                "Draw" => "draw",
                "P2" => "win",
                _ => "loss",
            };
            format!("{kind} {}", m["remoteness"])
        })
        .collect();
    assert_eq!(shown, json!(expected));
}

/// Back, forward, first, last, a jump from the move list, keys; a move played in the past
/// replaces the rest of the game, the same move as the game's next keeps it (a redo).
async fn back_forward_and_jump(client: &Client, base: &str) {
    open(client, base, "/?k=4&width=5&height=4&moves=33221").await;
    let at = |ply: u32, of: u32| {
        format!("return document.getElementById('ply').textContent === 'move {ply} of {of}';")
    };
    click(client, "#back").await;
    click(client, "#back").await;
    wait_moves(client, "332").await;
    click(client, "#forward").await;
    wait_moves(client, "3322").await;
    click(client, "#first").await;
    wait_moves(client, "").await;
    click(client, "#last").await;
    wait_moves(client, "33221").await;
    // "last", disabled at the last move, hands the focus to "first", not to the page's top.
    wait_for(client, "return document.activeElement.id === 'first';", 5).await;
    // The keys go to the page, not to a button that has the focus.
    run(client, "document.activeElement.blur();").await;
    press(client, "u").await;
    wait_moves(client, "3322").await;
    press(client, "r").await;
    wait_moves(client, "33221").await;
    press(client, "\u{E011}").await; // Home
    wait_moves(client, "").await;
    click(client, "[data-testid=move-list] button[data-ply=\"2\"]").await;
    wait_moves(client, "33").await;
    wait_for(client, &at(2, 5), 5).await;
    // The game's own next move: a redo, the rest kept.
    click_column(client, 2).await;
    wait_moves(client, "332").await;
    wait_for(client, &at(3, 5), 5).await;
    // Another move: the rest of the game replaced.
    click_column(client, 5).await;
    wait_moves(client, "3325").await;
    wait_for(client, &at(4, 4), 5).await;
    assert!(
        client
            .current_url()
            .await
            .unwrap()
            .as_str()
            .contains("moves=3325")
    );
}

/// The chart has one point per position from the empty board on, marks the moves that threw a
/// value away, and a click on a point goes to that position.
async fn the_chart_has_a_point_per_ply_and_goes_there(client: &Client, base: &str) {
    open(
        client,
        base,
        "/?rules=normal&k=4&width=5&height=4&moves=3322144&analysis=1&end=1",
    )
    .await;
    let known = "const p = [...document.querySelectorAll('[data-testid=history-chart] .point')]; \
         return p.length === 8 && p.every(e => !e.classList.contains('unknown') && !e.classList.contains('inexact')) && p.length;";
    wait_for(client, known, 60).await;
    let mistakes = run(
        client,
        "return [...document.querySelectorAll('[data-testid=history-chart] .point.mistake')].map(p => Number(p.dataset.ply));",
    )
    .await;
    // 3: P1 threw a draw away; 4: P2 a win; 5: P1 a win (plain minimax agrees, tests/serve_api.rs).
    assert_eq!(mistakes, json!([3, 4, 5]));
    click(client, "[data-testid=history-chart] .point[data-ply=\"3\"]").await;
    wait_moves(client, "332").await;
    // The game's end under perfect play from ply 3, as the API's value says.
    let value = api(base, "/api/solve?k=4&width=5&height=4&moves=332").await;
    let end = 3 + value["remoteness"].as_u64().unwrap();
    let said = format!(
        "const t = document.getElementById('game-end').textContent; return t.includes('ends on move {end}:') && t;"
    );
    wait_for(client, &said, 30).await;
}

/// On a cylinder (chosen with the page's control) P1 makes a line through the wall: 6, 7, 1,
/// 2 of the bottom row. Both edges ring their cells, and so do the ghosts of the edge columns;
/// before the last move, the analysis sees that win.
async fn a_cylinder_game_won_through_the_wall(client: &Client, base: &str) {
    open(client, base, "/?k=4&width=7&height=6").await;
    client
        .find(Locator::Css("[data-testid=topology]"))
        .await
        .unwrap()
        .select_by_value("cylinder")
        .await
        .unwrap();
    wait_for(
        client,
        "return location.search.includes('topology=cylinder') && document.querySelectorAll('#board .ghost').length === 2;",
        10,
    )
    .await;
    let mut moves = String::new();
    for column in [6, 6, 7, 7, 1, 1] {
        click_column(client, column).await;
        moves.push_str(&column.to_string());
        wait_moves(client, &moves).await;
    }
    click(client, "#analysis").await;
    let win_now = wait_for(
        client,
        "const b = document.querySelector('[data-testid=column-value][data-col=\"2\"]'); \
         return b && b.dataset.kind === 'win' && b.querySelector('.n').textContent;",
        30,
    )
    .await;
    assert_eq!(
        win_now,
        json!("1"),
        "column 2 wins at once through the wall"
    );
    click_column(client, 2).await;
    wait_moves(client, "6677112").await;
    let state = api(base, "/api/state?topology=cylinder&moves=6677112").await;
    assert_eq!(state["reason"], "line");
    assert_eq!(
        ringed(client).await,
        sorted(&json!([[5, 0], [6, 0], [0, 0], [1, 0]]))
    );
    assert_eq!(ringed(client).await, sorted(&state["winning_cells"]));
    let ghosts = run(
        client,
        "return [...document.querySelectorAll('.ghost .cell.win')].map(c => c.parentElement.dataset.of + ':' + c.dataset.row);",
    )
    .await;
    assert_eq!(
        ghosts,
        json!(["7:0", "1:0"]),
        "the ghost of column 7 on the left, of 1 on the right"
    );
    screenshot(client, "cylinder-desktop.png").await;
    click(client, "#analysis").await;
}

/// Against take-even, the page shows its reply to each move (take-even's plan, from the
/// library); pointing at column 3 explains it; playing column 3 gets that reply.
async fn the_take_even_reply_shown_is_played(client: &Client, base: &str) {
    open(
        client,
        base,
        "/?rules=misere&opponent=take-even&first=me&seed=2&moves=44",
    )
    .await;
    wait_for(
        client,
        "return document.getElementById('coach').value === 'take-even:P2' && \
         document.querySelectorAll('[data-testid=plan-reply]').length === 7;",
        10,
    )
    .await;
    run(
        client,
        "document.querySelector('.col[data-col=\"3\"]').dispatchEvent(new MouseEvent('mouseenter'));",
    )
    .await;
    let why = wait_for(
        client,
        "const w = document.querySelector('[data-testid=plan-why][data-col=\"3\"]'); return w && w.textContent;",
        5,
    )
    .await;
    assert!(
        why.as_str()
            .unwrap()
            .contains("take-even answers column 3, row 2"),
        "{why}"
    );
    let marked = run(
        client,
        "const c = document.querySelector('.cell[data-mark=\"plan-p2\"]'); return [Number(c.parentElement.dataset.col), Number(c.dataset.row)];",
    )
    .await;
    assert_eq!(marked, json!([3, 1]), "the reply's cell, above P1's");
    let shown = run(
        client,
        "return Number(document.querySelector('[data-testid=plan-reply][data-col=\"3\"]').dataset.answer);",
    )
    .await;
    screenshot(client, "take-even-plan-desktop.png").await;
    click_column(client, 3).await;
    wait_moves(client, &format!("443{shown}")).await;
}

/// A whole Quarto game: P1 (this screen) hands over the first piece by keyboard, then each turn
/// places on the first empty cell and hands over the first piece left, against `careful` with
/// seed 5, until careful completes a line; the line is ringed and the reason shown.
async fn a_quarto_game_against_a_seeded_bot(client: &Client, base: &str) {
    open(
        client,
        base,
        "/quarto?opponent=careful&first=me&seed=5&analysis=1",
    )
    .await;
    let pieces = run(
        client,
        "return document.querySelectorAll('[data-testid=quarto-piece]').length;",
    )
    .await;
    assert_eq!(pieces, json!(16));
    // The opening hand-over by keyboard.
    run(
        client,
        "document.querySelector('[data-testid=quarto-piece]').focus();",
    )
    .await;
    press(client, ENTER).await;
    let state = "const r = document.getElementById('result'); if (!r.hidden) return 'over'; \
         const s = document.getElementById('status').textContent; \
         if (s.includes('thinking') || s.includes('chooses')) return ''; \
         if (s.includes('choose')) return 'give'; if (s.includes('place')) return 'place'; return '';";
    for _ in 0..40 {
        match wait_for(client, state, 30).await.as_str().unwrap() {
            "over" => break,
            "give" => click(client, "[data-testid=quarto-piece]").await,
            _ => click(client, ".q-cell:not(:has(svg))").await,
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let record = run(
        client,
        "return document.getElementById('notation').textContent;",
    )
    .await;
    let query = format!(
        "/api/quarto/state?moves={}",
        record.as_str().unwrap().replace(' ', ",")
    );
    let state = api(base, &query).await;
    assert_eq!(state["reason"], "line", "{state}");
    let result = run(
        client,
        "const r = document.getElementById('result'); return [r.dataset.reason, r.textContent];",
    )
    .await;
    assert_eq!(result[0], "line");
    let text = result[1].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{} wins: ", state["winner"].as_str().unwrap()))
            && text.contains("completed a line at"),
        "{text}"
    );
    let mut ringed: Vec<Value> = run(
        client,
        "return [...document.querySelectorAll('.q-cell.win')].map(c => c.dataset.cell);",
    )
    .await
    .as_array()
    .unwrap()
    .clone();
    ringed.sort_by_key(|c| c.to_string());
    assert_eq!(json!(ringed), state["line"]);
    screenshot(client, "quarto-desktop.png").await;
}

/// Bad addresses leave a board to play on and say what was wrong, in one line each.
async fn bad_addresses_still_give_a_board(client: &Client, base: &str) {
    for (path, columns, says) in [
        ("/?width=0", 7, "width = 0 is out of range"),
        ("/?k=999", 7, "k = 999 is out of range"),
        ("/?rules=foo", 7, "unknown rules \"foo\""),
        ("/?moves=abc", 7, "moves=abc: move 1: bad character"),
        ("/?width=10&moves=10", 10, "moves=10: move 2: no column 0"),
        ("/?opponent=foo", 7, "unknown opponent \"foo\""),
        (
            "/?opponent=take-even",
            7,
            "take-even does not apply to normal",
        ),
    ] {
        open(client, base, path).await;
        let shown = wait_for(
            client,
            "const e = document.getElementById('error'); return !e.hidden && \
             [document.querySelectorAll('.col').length, e.textContent];",
            10,
        )
        .await;
        assert_eq!(shown[0], columns, "{path}");
        let error = shown[1].as_str().unwrap();
        assert!(error.contains(says), "{path}: {error}");
        // The board plays: a human at this screen, P1 first.
        click_column(client, 1).await;
        wait_moves(client, if columns > 9 { "1," } else { "1" }).await;
    }
    open(client, base, "/?width=10&moves=10,").await;
    wait_moves(client, "10,").await;
    // A full board says "Draw" once.
    open(client, base, "/?k=3&width=2&height=2&moves=1212").await;
    let result = run(
        client,
        "return document.getElementById('result').textContent;",
    )
    .await;
    assert_eq!(result, json!("Draw: the board is full."));
}

/// Columns past 9 by their number's digits, any column by arrows and Enter; the bot's move is
/// read out.
async fn keys_play_every_column_and_moves_are_read_out(client: &Client, base: &str) {
    open(
        client,
        base,
        "/?width=12&height=4&opponent=easy&first=me&seed=3",
    )
    .await;
    // The keys go to the page, not to a button that has the focus.
    run(client, "document.activeElement.blur();").await;
    press(client, "12").await;
    wait_for(
        client,
        "return document.getElementById('notation').textContent.startsWith('12,');",
        10,
    )
    .await;
    let heard = wait_for(
        client,
        "const a = document.getElementById('announce').textContent; return /^easy played column \\d+$/.test(a) && a;",
        20,
    )
    .await;
    let bot = heard
        .as_str()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    wait_moves(client, &format!("12,{bot}")).await;
    run(
        client,
        "document.querySelector('.col[data-col=\"5\"]').focus();",
    )
    .await;
    press(client, "\u{E014}").await; // ArrowRight
    press(client, ENTER).await;
    wait_for(
        client,
        &format!(
            "return document.getElementById('notation').textContent.startsWith('12,{bot},6');"
        ),
        10,
    )
    .await;
}

/// The relative luminance contrast of two CSS `rgb(...)` colours.
fn contrast(a: &str, b: &str) -> f64 {
    let luminance = |css: &str| {
        let numbers: Vec<f64> = css
            .trim_start_matches("rgba(")
            .trim_start_matches("rgb(")
            .trim_end_matches(')')
            .split(',')
            .take(3)
            .map(|n| n.trim().parse::<f64>().unwrap() / 255.0)
            .collect();
        let linear = |c: f64| {
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(numbers[0]) + 0.7152 * linear(numbers[1]) + 0.0722 * linear(numbers[2])
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The focus ring on the board stands out from it (3:1), and the values' text is 14 px or more
/// with 4.5:1 against its badge.
async fn focus_ring_and_values_are_readable(client: &Client, base: &str) {
    open(
        client,
        base,
        "/?rules=normal&k=4&width=5&height=4&moves=3322144&analysis=1",
    )
    .await;
    wait_for(
        client,
        "return [...document.querySelectorAll('[data-testid=column-value]')].some(b => b.dataset.kind === 'win');",
        30,
    )
    .await;
    // A key press first, so that the browser shows focus as it does for keyboard users.
    // The keys go to the page, not to a button that has the focus.
    run(client, "document.activeElement.blur();").await;
    press(client, "\u{E004}").await; // Tab
    run(
        client,
        "document.querySelector('.col[data-col=\"2\"]').focus();",
    )
    .await;
    let colours = run(
        client,
        "const c = document.querySelector('.col[data-col=\"2\"]'); \
         return [getComputedStyle(c).outlineColor, getComputedStyle(document.getElementById('board')).backgroundColor, getComputedStyle(c).outlineStyle];",
    )
    .await;
    let ring = contrast(colours[0].as_str().unwrap(), colours[1].as_str().unwrap());
    assert!(ring >= 3.0, "focus ring {colours}: {ring:.2}:1");
    assert_eq!(colours[2], "solid");
    let badges = run(
        client,
        "return [...document.querySelectorAll('.badge.win, .badge.draw, .badge.loss')].map(b => { \
         const s = getComputedStyle(b); const bg = s.backgroundColor === 'rgba(0, 0, 0, 0)' ? 'rgb(255, 255, 255)' : s.backgroundColor; \
         return [parseFloat(s.fontSize), s.color, bg, b.dataset.kind]; });",
    )
    .await;
    for badge in badges.as_array().unwrap() {
        assert!(badge[0].as_f64().unwrap() >= 14.0, "{badge}");
        let ratio = contrast(badge[1].as_str().unwrap(), badge[2].as_str().unwrap());
        assert!(ratio >= 4.5, "{badge}: {ratio:.2}:1");
    }
}

/// At 360 and 390 pixels wide nothing scrolls sideways (the page, a 12-column board, the
/// analysis and its chart, Quarto), and a finished game's ringed line is in view.
async fn phones_never_scroll_sideways(client: &Client, base: &str) {
    for width in [360, 390] {
        client.set_window_size(width, 800).await.unwrap();
        let inner = run(client, "return window.innerWidth;").await;
        assert_eq!(inner, json!(width), "the window is a phone's");
        for path in [
            "/?rules=misere&moves=4453&analysis=1&end=1&opponent=take-even&first=me",
            "/?width=12&height=4&analysis=1",
            "/quarto?analysis=1",
            "/quarto?size=3&attributes=3&moves=LSR,a1:DTQ",
        ] {
            open(client, base, path).await;
            tokio::time::sleep(Duration::from_millis(400)).await;
            let wide = run(
                client,
                "return [document.documentElement.scrollWidth, window.innerWidth];",
            )
            .await;
            assert!(
                wide[0].as_u64() <= wide[1].as_u64(),
                "{path} at {width} px: the page is {} px wide",
                wide[0]
            );
        }
        open(client, base, "/?moves=1212121").await;
        let line = run(
            client,
            "return [...document.querySelectorAll('.cell.win')].every(c => { \
             const r = c.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth; });",
        )
        .await;
        assert_eq!(
            line,
            json!(true),
            "the ringed line is in view at {width} px"
        );
    }
    client.set_window_size(1280, 1000).await.unwrap();
}

/// Connect Four with the analysis, its chart and the game's end, on a desktop and a phone, and
/// Quarto on a phone, for the documentation (only when `CONNECTK_SCREENSHOTS` is set).
async fn documentation_screenshots(client: &Client, base: &str) {
    if browser::screenshot_dir().is_none() {
        return;
    }
    let settled = "return !document.getElementById('thinking').classList.contains('busy') && \
         !document.querySelector('.badge.thinking, .badge.pending') && \
         document.querySelectorAll('[data-testid=history-chart] .point').length > 0;";
    let game = "/?moves=4444332&analysis=1&end=1&opponent=hard&first=me&seed=1";
    // A window tall enough for the board and the chart.
    client.set_window_size(1280, 1180).await.unwrap();
    open(client, base, game).await;
    wait_for(client, settled, 90).await;
    history_filled(client).await;
    screenshot(client, "connect4-analysis-desktop.png").await;
    client.set_window_size(390, 844).await.unwrap();
    open(client, base, game).await;
    wait_for(client, settled, 90).await;
    screenshot(client, "connect4-phone.png").await;
    let quarto = "/quarto?size=3&attributes=4&moves=LTQH,a1:LSRF,a3:LSQH,b1:DSQF&analysis=1";
    open(client, base, quarto).await;
    wait_for(
        client,
        "return !document.getElementById('thinking').classList.contains('busy') && \
         document.querySelector('.q-value.win, .q-value.loss, .q-value.draw');",
        60,
    )
    .await;
    screenshot(client, "quarto-phone.png").await;
    client.set_window_size(1280, 1000).await.unwrap();
    open(client, base, quarto).await;
    click(client, "[data-cell=\"c2\"]").await;
    wait_for(
        client,
        "return !document.getElementById('thinking').classList.contains('busy') && \
         document.querySelector('.q-piece .q-value.win, .q-piece .q-value.loss, .q-piece .q-value.draw');",
        60,
    )
    .await;
    screenshot(client, "quarto-analysis-desktop.png").await;
}

/// Waits (up to a minute) for the chart to know every position it will learn; the early 7x6
/// positions may stay unknown past the budget, and the screenshot is taken all the same.
async fn history_filled(client: &Client) {
    for _ in 0..600 {
        let left = run(
            client,
            "return document.querySelectorAll('[data-testid=history-chart] .point.unknown').length;",
        )
        .await;
        if left == json!(0) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The figures of `docs/page.md`: from a click to the bot's answer and to every column's
/// settled value, on 7x6 under both rules at plies 0 to 21 against `perfect` (each side once),
/// and on standard Quarto against `perfect`, on a server as `connectk serve` starts by default
/// (the opening books of `books/`, 2 s per search). A measurement that asserts nothing and
/// takes minutes, so CI skips it and it runs on request:
/// `cargo test --release --test serve serve_browser::timings -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check: run on request"]
async fn timings() {
    let Some((chromium, chromedriver)) = tools() else {
        return;
    };
    let (base, stop) = serve(Config {
        port: 0,
        books: committed_books(),
        ..Config::default()
    })
    .await;
    let profile = std::env::temp_dir().join(format!("connectk-timings-{}", std::process::id()));
    let driver = start_driver(&chromedriver).await;
    let client = open_browser(&driver, &chromium, &profile, (1280, 1000)).await;
    for rules in ["normal", "misere"] {
        let mut bot = Vec::new();
        let mut values = Vec::new();
        for first in ["me", "bot"] {
            let path = format!("/?rules={rules}&opponent=perfect&first={first}&seed=11&analysis=1");
            let (b, v) = timed_game(&client, &base, &path, 21).await;
            bot.extend(b);
            values.extend(v);
        }
        report(&format!("{rules} 7x6, bot's answer"), &bot);
        report(&format!("{rules} 7x6, every column settled"), &values);
    }
    let (bot, values) = timed_quarto(&client, &base).await;
    report("Quarto 4x4, perfect's answer", &bot);
    report("Quarto 4x4, every choice settled", &values);
    let _ = client.close().await;
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);
    let _ = stop.send(());
}

/// Plays the game of `path` to `plies` plies (or its end), this screen clicking a best column
/// the analysis stars, and returns the page's measures: (the bot's answers, the values settled), each as
/// (ply, milliseconds, settled).
async fn timed_game(
    client: &Client,
    base: &str,
    path: &str,
    plies: usize,
) -> (Vec<(u64, f64, bool)>, Vec<(u64, f64, bool)>) {
    open(client, base, path).await;
    let mut choice = 3usize;
    // Idle: this screen's turn, the bot and the analysis done; or the game over.
    let idle = "if (!document.getElementById('result').hidden) return 'over'; \
         const s = document.getElementById('status').textContent; \
         return s.includes('your move') && !document.getElementById('thinking').classList.contains('busy') && \
         !document.querySelector('.badge.thinking, .badge.pending') && 'idle';";
    loop {
        let state = wait_for(client, idle, 120).await;
        let moves = notation(client).await;
        if state == json!("over") || moves.len() >= plies {
            break;
        }
        // A starred best move when there is one (so the game lasts), else one of a fixed
        // sequence.
        let open_columns = run(
            client,
            "const best = [...document.querySelectorAll('[data-testid=best-move]')].map(b => Number(b.dataset.col)); \
             return best.length ? best : [...document.querySelectorAll('.col:not(.full)')].map(c => Number(c.dataset.col));",
        )
        .await;
        let open_columns = open_columns.as_array().unwrap();
        choice = (choice * 5 + 3) % 7;
        let column = open_columns[choice % open_columns.len()].as_u64().unwrap() as u32;
        click_column(client, column).await;
        wait_for(
            client,
            &format!(
                "return document.getElementById('notation').textContent.length > {};",
                moves.len()
            ),
            20,
        )
        .await;
    }
    let measures = |name: &str| {
        format!(
            "return performance.getEntriesByName('{name}').map(m => [m.detail.ply, m.duration, m.detail.settled !== false]);"
        )
    };
    let parse = |v: Value| -> Vec<(u64, f64, bool)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m[0].as_u64().unwrap(),
                    m[1].as_f64().unwrap(),
                    m[2].as_bool().unwrap(),
                )
            })
            .collect()
    };
    (
        parse(run(client, &measures("bot-answer")).await),
        parse(run(client, &measures("values-settled")).await),
    )
}

/// A standard Quarto game against `perfect` with the analysis on, this screen placing on the
/// first empty cell and handing over the first piece, for 10 turns or to the end.
async fn timed_quarto(
    client: &Client,
    base: &str,
) -> (Vec<(u64, f64, bool)>, Vec<(u64, f64, bool)>) {
    open(
        client,
        base,
        "/quarto?opponent=perfect&first=me&seed=3&analysis=1",
    )
    .await;
    let state = "const r = document.getElementById('result'); if (!r.hidden) return 'over'; \
         const s = document.getElementById('status').textContent; \
         if (s.includes('thinking') || document.getElementById('thinking').classList.contains('busy') || \
             document.querySelector('.q-value.thinking')) return ''; \
         if (s.includes('choose')) return 'give'; if (s.includes('place')) return 'place'; return '';";
    for _ in 0..10 {
        match wait_for(client, state, 120).await.as_str().unwrap() {
            "over" => break,
            "give" => click(client, "[data-testid=quarto-piece]").await,
            _ => click(client, ".q-cell:not(:has(svg))").await,
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let measures = |name: &str| {
        format!(
            "return performance.getEntriesByName('{name}').map(m => [m.detail.plies, m.duration, m.detail.settled ?? m.detail.complete]);"
        )
    };
    let parse = |v: Value| -> Vec<(u64, f64, bool)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m[0].as_u64().unwrap(),
                    m[1].as_f64().unwrap(),
                    m[2].as_bool().unwrap_or(false),
                )
            })
            .collect()
    };
    (
        parse(run(client, &measures("quarto-bot-answer")).await),
        parse(run(client, &measures("quarto-values-settled")).await),
    )
}

/// One line of figures: count, median, worst (and at which ply), and how many were left
/// unsettled (or, for a bot, chosen without knowing every value).
fn report(what: &str, measures: &[(u64, f64, bool)]) {
    if measures.is_empty() {
        eprintln!("{what}: no measures");
        return;
    }
    let mut times: Vec<f64> = measures.iter().map(|m| m.1).collect();
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let worst = measures.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    let unsettled = measures.iter().filter(|m| !m.2).count();
    eprintln!(
        "{what}: {} measures, median {:.0} ms, worst {:.0} ms (ply {}), {} not settled/complete; each: {:?}",
        measures.len(),
        median,
        worst.1,
        worst.0,
        unsettled,
        measures
            .iter()
            .map(|m| (m.0, m.1.round() as u64, m.2))
            .collect::<Vec<_>>()
    );
}
