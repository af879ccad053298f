//! Progress bars on stderr for long runs: redrawn in place on a terminal, and written as a
//! line now and then when stderr is a log file or a pipe (a run in the background, under
//! `nohup`, in a job array), where a bar would show nothing at all.

use std::fmt::Debug;
use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// How long a run goes before it first writes its progress when stderr is not a terminal: a
/// short run writes nothing, as its bar on a terminal would be gone at the end.
const LOG_FIRST: Duration = Duration::from_secs(10);

/// How often progress is written after that.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// A bar counting `len` finished `units` (boards, lines, games...), with the elapsed time, an
/// estimate of the time left and a message. When stderr is not a terminal, the same figures
/// are written as a line of their own once the run has gone on for ten seconds, and then at
/// most once a minute.
pub fn bar(len: u64, units: &str) -> anyhow::Result<ProgressBar> {
    let figures = format!("{{pos}}/{{len}} {units}, eta {{eta}}  {{msg}}");
    if io::stderr().is_terminal() {
        let template = format!("{{elapsed_precise}} [{{bar:40}}] {figures}");
        Ok(ProgressBar::new(len)
            .with_style(ProgressStyle::with_template(&template)?.progress_chars("=> ")))
    } else {
        let template = format!("{{elapsed_precise}} {figures}");
        let log = LogLines::new(io::stderr(), Instant::now() + LOG_FIRST);
        let target = ProgressDrawTarget::term_like_with_hz(Box::new(log), 1);
        Ok(ProgressBar::with_draw_target(Some(len), target)
            .with_style(ProgressStyle::with_template(&template)?))
    }
}

/// Where a bar draws when stderr is not a terminal: each drawing is collected as text (the
/// cursor moves a terminal needs are ignored), and written to `out` as one line when it is
/// due.
#[derive(Debug)]
struct LogLines<W: Write + Debug + Send> {
    state: Mutex<LogState<W>>,
}

/// Where the lines go, the drawing under way, and when the next line is due.
#[derive(Debug)]
struct LogState<W> {
    out: W,
    drawing: String,
    due: Instant,
}

impl<W: Write + Debug + Send> LogLines<W> {
    /// Lines to `out`, the first one due at `first`.
    fn new(out: W, first: Instant) -> LogLines<W> {
        LogLines {
            state: Mutex::new(LogState {
                out,
                drawing: String::new(),
                due: first,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, LogState<W>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<W: Write + Debug + Send> TermLike for LogLines<W> {
    fn width(&self) -> u16 {
        // Wide enough that no line is cut; the padding a bar adds is trimmed away.
        400
    }

    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.write_str(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.state().drawing.push_str(s);
        Ok(())
    }

    fn clear_line(&self) -> io::Result<()> {
        self.state().drawing.clear();
        Ok(())
    }

    fn flush(&self) -> io::Result<()> {
        let mut state = self.state();
        let drawing = std::mem::take(&mut state.drawing);
        // The carriage return that starts a drawing is whitespace too.
        let line = drawing.trim();
        let now = Instant::now();
        if now >= state.due && !line.is_empty() {
            state.due = now + LOG_EVERY;
            writeln!(state.out, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws `text` as indicatif does on a terminal: back to the line's start, the text, the
    /// padding to the terminal's width, then a flush.
    fn draw(log: &LogLines<Vec<u8>>, text: &str) {
        log.clear_line().unwrap();
        log.write_str("\r").unwrap();
        log.write_str(text).unwrap();
        log.write_str(&" ".repeat(30)).unwrap();
        log.flush().unwrap();
    }

    fn written(log: &LogLines<Vec<u8>>) -> String {
        String::from_utf8(log.state().out.clone()).unwrap()
    }

    #[test]
    fn a_due_drawing_becomes_one_line_and_the_next_waits_a_minute() {
        let log = LogLines::new(Vec::new(), Instant::now());
        draw(&log, "00:00:12 3/40 boards, eta 2m  k=4 7x6");
        draw(&log, "00:00:13 4/40 boards, eta 2m  k=4 6x7");
        assert_eq!(written(&log), "00:00:12 3/40 boards, eta 2m  k=4 7x6\n");
    }

    #[test]
    fn nothing_is_written_before_the_first_line_is_due() {
        let log = LogLines::new(Vec::new(), Instant::now() + LOG_FIRST);
        draw(&log, "00:00:00 1/40 boards, eta 1m");
        assert_eq!(written(&log), "");
    }
}
