//! One HTTP connection's state as the server watches it: whether a request is being answered,
//! since when it has been idle and since when a request head has been arriving, so that idle
//! and slow clients can be closed (see [`super::listen`]); and the connection's socket, wrapped
//! to note when bytes arrive and to give hyper's own error answers a JSON body.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// Marks a time that is not set in the atomics below.
const UNSET: u64 = u64::MAX;

/// What the server knows of one open connection.
#[derive(Debug)]
pub(crate) struct ConnState {
    /// When the server started: the times below are milliseconds since then.
    epoch: Instant,
    /// When the connection was opened.
    pub opened: Instant,
    /// Requests being answered.
    in_flight: AtomicUsize,
    /// Since when no request has been under way (opening, or the end of the last answer).
    idle_since: AtomicU64,
    /// When the first byte of the next request arrived ([`UNSET`] until one does).
    head_since: AtomicU64,
    /// Wakes the connection's task to close it.
    pub close: Notify,
}

/// Why a connection is due to close.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overdue {
    /// A request head has been arriving for longer than the header timeout.
    SlowHeader,
    /// No request for longer than the idle timeout.
    Idle,
}

impl ConnState {
    /// A connection opened now, on a server started at `epoch`.
    pub(crate) fn new(epoch: Instant) -> ConnState {
        let state = ConnState {
            epoch,
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            head_since: AtomicU64::new(UNSET),
            close: Notify::new(),
        };
        state.idle_since.store(state.now(), Ordering::Relaxed);
        state
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Whether no request is being answered.
    pub(crate) fn is_idle(&self) -> bool {
        self.in_flight.load(Ordering::Relaxed) == 0
    }

    /// Milliseconds since the server's start at which the connection became idle (for
    /// choosing the longest idle one); `u64::MAX` while a request is being answered.
    pub(crate) fn idle_key(&self) -> u64 {
        if self.is_idle() {
            self.idle_since.load(Ordering::Relaxed)
        } else {
            u64::MAX
        }
    }

    /// A request's head has arrived and its answer begins; the answer ends when the returned
    /// guard is dropped (also when the client hangs up first).
    pub(crate) fn begin(self: &std::sync::Arc<Self>) -> Answering {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.head_since.store(UNSET, Ordering::Relaxed);
        Answering(std::sync::Arc::clone(self))
    }

    /// Bytes arrived: when no request is being answered, they start the next request's head.
    fn bytes_arrived(&self) {
        if self.is_idle() && self.head_since.load(Ordering::Relaxed) == UNSET {
            self.head_since.store(self.now(), Ordering::Relaxed);
        }
    }

    /// Whether the connection has overstayed: a head arriving for longer than `header`, or no
    /// request for longer than `idle`. Never while a request is being answered.
    pub(crate) fn overdue(&self, header: Duration, idle: Duration) -> Option<Overdue> {
        if !self.is_idle() {
            return None;
        }
        let now = self.now();
        let head = self.head_since.load(Ordering::Relaxed);
        if head != UNSET {
            let late = now.saturating_sub(head) >= header.as_millis() as u64;
            return late.then_some(Overdue::SlowHeader);
        }
        let since = self.idle_since.load(Ordering::Relaxed);
        (now.saturating_sub(since) >= idle.as_millis() as u64).then_some(Overdue::Idle)
    }
}

/// A request being answered on a connection (see [`ConnState::begin`]).
pub(crate) struct Answering(std::sync::Arc<ConnState>);

impl Drop for Answering {
    fn drop(&mut self) {
        let state = &self.0;
        if state.in_flight.fetch_sub(1, Ordering::Relaxed) == 1 {
            state.idle_since.store(state.now(), Ordering::Relaxed);
        }
    }
}

/// A connection's socket as hyper sees it: reads are noted in the connection's state, and the
/// answers hyper writes on its own for requests it cannot parse (400, 414, 431, with an empty
/// body) are replaced by the same status with the API's JSON error body.
pub(crate) struct ConnIo<S> {
    inner: S,
    state: std::sync::Arc<ConnState>,
    /// The replacement answer still to be written, and how much of it has been.
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> ConnIo<S> {
    /// `inner`, watched for `state`.
    pub(crate) fn new(inner: S, state: std::sync::Arc<ConnState>) -> ConnIo<S> {
        ConnIo {
            inner,
            state,
            pending: None,
        }
    }
}

impl<S: AsyncWrite + Unpin> ConnIo<S> {
    /// Writes what is left of the replacement answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for ConnIo<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.state.bytes_arrived();
        }
        poll
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for ConnIo<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        if let Some(answer) = json_for_bare_error(buf) {
            // The whole of hyper's answer counts as written: the replacement goes instead.
            this.pending = Some((answer, 0));
            let _ = this.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

/// The JSON answer that replaces `written` when it is an error answer with no body type: one
/// that hyper wrote itself for a request it could not read (every answer of the API and the
/// page names its type). `None` for anything else.
fn json_for_bare_error(written: &[u8]) -> Option<Vec<u8>> {
    let rest = written.strip_prefix(b"HTTP/1.1 ")?;
    let status: u16 = std::str::from_utf8(rest.get(..3)?).ok()?.parse().ok()?;
    if !(400..600).contains(&status) {
        return None;
    }
    let end = written.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&written[..end]).to_ascii_lowercase();
    if head.contains("\r\ncontent-type:") {
        return None;
    }
    let message = match status {
        414 => "the address is too long: keep the path and query under 4 KiB".to_string(),
        431 => "the request's headers are too large: keep them under 8 KiB".to_string(),
        400 => "the request could not be read as HTTP/1.1: check its request line and headers"
            .to_string(),
        other => format!("the request could not be answered (HTTP {other})"),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    let reason = match status {
        400 => "Bad Request",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        _ => "Error",
    };
    Some(
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_errors_get_a_json_body_and_answers_with_a_type_are_kept() {
        let bare =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(json_for_bare_error(bare).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
        let body = answer.split("\r\n\r\n").nth(1).unwrap();
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(
            value["error"]
                .as_str()
                .unwrap()
                .contains("headers are too large")
        );
        let typed = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n\r\n{}";
        assert_eq!(json_for_bare_error(typed), None);
        assert_eq!(json_for_bare_error(b"HTTP/1.1 200 OK\r\n\r\n"), None);
        assert_eq!(json_for_bare_error(b"{\"HTTP/1.1 400\"}"), None);
    }

    #[test]
    fn a_connection_is_overdue_only_while_idle() {
        let state = std::sync::Arc::new(ConnState::new(Instant::now()));
        let long = Duration::from_secs(60);
        assert_eq!(state.overdue(long, Duration::ZERO), Some(Overdue::Idle));
        state.bytes_arrived();
        assert_eq!(
            state.overdue(Duration::ZERO, long),
            Some(Overdue::SlowHeader)
        );
        let answering = state.begin();
        assert_eq!(state.overdue(Duration::ZERO, Duration::ZERO), None);
        assert_eq!(state.idle_key(), u64::MAX);
        drop(answering);
        assert_eq!(state.overdue(long, long), None);
        assert_eq!(state.overdue(long, Duration::ZERO), Some(Overdue::Idle));
    }
}
