//! Progress bars on stderr for long runs: redrawn in place on a terminal, and written as a
//! line now and then when stderr is a log file or a pipe (a run in the background, under
//! `nohup`, in a job array), where a bar would show nothing at all.

use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// How often progress is written when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// A bar counting `len` finished `units` (boards, lines, games...), with the elapsed time, an
/// estimate of the time left and a message. When stderr is not a terminal, the same figures
/// are written as a line of their own at the first update and then at most once a minute.
pub fn bar(len: u64, units: &str) -> anyhow::Result<ProgressBar> {
    let figures = format!("{{pos}}/{{len}} {units}, eta {{eta}}  {{msg}}");
    if io::stderr().is_terminal() {
        let template = format!("{{elapsed_precise}} [{{bar:40}}] {figures}");
        Ok(ProgressBar::new(len)
            .with_style(ProgressStyle::with_template(&template)?.progress_chars("=> ")))
    } else {
        let template = format!("{{elapsed_precise}} {figures}");
        let target = ProgressDrawTarget::term_like_with_hz(Box::new(LogLines::default()), 1);
        Ok(ProgressBar::with_draw_target(Some(len), target)
            .with_style(ProgressStyle::with_template(&template)?))
    }
}

/// Where a bar draws when stderr is not a terminal: each drawing is collected as text (the
/// cursor moves a terminal needs are ignored), and written to stderr as one line when
/// [`LOG_EVERY`] has passed since the last one written.
#[derive(Debug, Default)]
struct LogLines {
    state: Mutex<LogState>,
}

/// The drawing under way and when the last line was written.
#[derive(Debug, Default)]
struct LogState {
    drawing: String,
    written: Option<Instant>,
}

impl LogLines {
    fn state(&self) -> std::sync::MutexGuard<'_, LogState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl TermLike for LogLines {
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
        let line = drawing.trim_matches(|c: char| c == '\r' || c.is_whitespace());
        let due = state.written.is_none_or(|at| at.elapsed() >= LOG_EVERY);
        if due && !line.is_empty() {
            state.written = Some(Instant::now());
            writeln!(io::stderr(), "{line}")?;
        }
        Ok(())
    }
}
