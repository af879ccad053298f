//! Progress bars on stderr for long runs: redrawn in place on a terminal, and written as a
//! line now and then when stderr is a log file or a pipe (a run in the background, under
//! `nohup`, in a job array), where a bar would show nothing at all.

use std::fmt::Debug;
use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};

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
    let figures = format!("{{pos}}/{{len}} {units}, eta {{left}}  {{msg}}");
    progress(Some(len), &figures)
}

/// A counter of `units` whose total is not known in advance (entries of a certificate...),
/// with the elapsed time and a message, drawn and logged as [`bar`] is.
pub fn counter(units: &str) -> anyhow::Result<ProgressBar> {
    progress(None, &format!("{{pos}} {units}  {{msg}}"))
}

/// The elapsed time and a message, for a long run that counts nothing of its own (a
/// certificate's check), drawn and logged as [`bar`] is.
pub fn status() -> anyhow::Result<ProgressBar> {
    progress(None, "{msg}")
}

/// A progress display of `figures` after the elapsed time, with a bar of `len` on a terminal
/// when the total is known.
fn progress(len: Option<u64>, figures: &str) -> anyhow::Result<ProgressBar> {
    let style = |template: &str| -> anyhow::Result<ProgressStyle> {
        Ok(ProgressStyle::with_template(template)?
            .with_key("left", write_time_left)
            .progress_chars("=> "))
    };
    if io::stderr().is_terminal() {
        let template = match len {
            Some(_) => format!("{{elapsed_precise}} [{{bar:40}}] {figures}"),
            None => format!("{{elapsed_precise}} {figures}"),
        };
        let bar = len.map_or_else(ProgressBar::no_length, ProgressBar::new);
        let bar = bar.with_style(style(&template)?);
        // The elapsed time moves on while a long unit (a board of an hour) is under way.
        bar.enable_steady_tick(Duration::from_secs(1));
        Ok(bar)
    } else {
        let template = format!("{{elapsed_precise}} {figures}");
        let log = LogLines::new(io::stderr(), Instant::now() + LOG_FIRST);
        let target = ProgressDrawTarget::term_like_with_hz(Box::new(log), 1);
        let bar = ProgressBar::with_draw_target(len, target).with_style(style(&template)?);
        // The drawing a second that writes a due line (see `LogLines`), and a line a minute
        // even while one long unit is under way, to show the run is alive.
        bar.enable_steady_tick(Duration::from_secs(1));
        Ok(bar)
    }
}

/// Writes the bar's estimate of the time left (see [`time_left`]).
fn write_time_left(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let text = match time_left(state.pos(), state.len(), state.elapsed()) {
        Some(left) => short_duration(left),
        None => "unknown".to_string(),
    };
    let _ = out.write_str(&text);
}

/// The time left if the units still to do take as long on average as those done:
/// `None` before the first is done. indicatif's own estimate follows a recent rate, which
/// for units that take minutes or hours each swings to zero or to overflowed nonsense
/// (billions of years were seen on the cylinder sweep).
fn time_left(done: u64, len: Option<u64>, elapsed: Duration) -> Option<Duration> {
    let len = len?;
    if done == 0 {
        return None;
    }
    let each = elapsed.as_secs_f64() / done as f64;
    Some(Duration::from_secs_f64(
        each * len.saturating_sub(done) as f64,
    ))
}

/// A duration in its two largest units: `45s`, `12m05s`, `3h20m`, `2d04h`.
fn short_duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        3600..86400 => format!("{}h{:02}m", s / 3600, s / 60 % 60),
        _ => format!("{}d{:02}h", s / 86400, s / 3600 % 24),
    }
}

/// Where a bar draws when stderr is not a terminal: each drawing is collected as text (the
/// cursor moves a terminal needs are ignored), and written to `out` as one line when it is
/// due. A line falls due at a drawing, and the drawing after it is the one written: a caller
/// that sets a message and then a count draws twice in a row, and only the second drawing has
/// both (the bar's steady tick brings the next drawing within a second).
#[derive(Debug)]
struct LogLines<W: Write + Debug + Send> {
    state: Mutex<LogState<W>>,
}

/// Where the lines go, the drawing under way, when the next line is due, and whether it is.
#[derive(Debug)]
struct LogState<W> {
    out: W,
    drawing: String,
    due: Instant,
    armed: bool,
}

impl<W: Write + Debug + Send> LogLines<W> {
    /// Lines to `out`, the first one due at `first`.
    fn new(out: W, first: Instant) -> LogLines<W> {
        LogLines {
            state: Mutex::new(LogState {
                out,
                drawing: String::new(),
                due: first,
                armed: false,
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
        if line.is_empty() {
            return Ok(());
        }
        if state.armed {
            state.armed = false;
            state.due = now + LOG_EVERY;
            writeln!(state.out, "{line}")?;
        } else if now >= state.due {
            state.armed = true;
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
    fn the_drawing_after_a_line_falls_due_is_written_and_the_next_waits_a_minute() {
        let log = LogLines::new(Vec::new(), Instant::now());
        // A message set, then the count: the second drawing has both.
        draw(&log, "00:00:12 3/40 boards, eta 2m  k=4 6x7");
        draw(&log, "00:00:12 4/40 boards, eta 2m  k=4 6x7");
        draw(&log, "00:00:13 4/40 boards, eta 2m  k=4 7x6");
        draw(&log, "00:00:13 5/40 boards, eta 2m  k=4 7x6");
        assert_eq!(written(&log), "00:00:12 4/40 boards, eta 2m  k=4 6x7\n");
    }

    #[test]
    fn the_time_left_is_unknown_before_the_first_unit_and_then_the_average_pace() {
        let hour = Duration::from_secs(3600);
        assert_eq!(time_left(0, Some(161), hour), None);
        assert_eq!(time_left(1, None, hour), None);
        assert_eq!(time_left(1, Some(161), hour), Some(hour * 160));
        assert_eq!(time_left(4, Some(4), hour), Some(Duration::ZERO));
        assert_eq!(short_duration(hour * 160), "6d16h");
        assert_eq!(
            short_duration(Duration::from_secs(3 * 3600 + 20 * 60 + 7)),
            "3h20m"
        );
        assert_eq!(short_duration(Duration::from_secs(725)), "12m05s");
        assert_eq!(short_duration(Duration::from_secs(45)), "45s");
    }

    #[test]
    fn nothing_is_written_before_the_first_line_is_due() {
        let log = LogLines::new(Vec::new(), Instant::now() + LOG_FIRST);
        draw(&log, "00:00:00 1/40 boards, eta 1m");
        assert_eq!(written(&log), "");
    }
}
