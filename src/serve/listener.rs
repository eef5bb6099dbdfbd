//! The server's listener: TCP, with a guard on each connection's first
//! request line. hyper answers a URI past its own limit with a 414 and an
//! empty body, before any handler or layer sees the request; the guard
//! answers an over-long line first, with the JSON error every other
//! refusal has, so a client's error handling has one shape to read.

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The longest first request line (method, target, version) let through:
/// far above any real request (a match ID, a board of 26 points in
/// wildbg's query) and below hyper's own limit.
pub const MAX_REQUEST_LINE: usize = 16 << 10;

/// Accepts TCP connections and guards their first request line.
pub struct GuardedListener(pub TcpListener);

/// The client's address, for the handlers that count what each client
/// holds.
#[derive(Clone, Copy, Debug)]
pub struct Client(pub SocketAddr);

impl Connected<IncomingStream<'_, GuardedListener>> for Client {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> Client {
        Client(*stream.remote_addr())
    }
}

impl Listener for GuardedListener {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        let (stream, addr) = Listener::accept(&mut self.0).await;
        (Guarded::new(stream), addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }
}

/// Where a guarded connection stands.
enum Stage {
    /// Collecting the first line.
    Reading,
    /// The line was short: hand hyper what was read, then the stream.
    Passing { from: usize },
    /// The line was too long: writing the 414, then end of stream.
    Refusing { written: usize },
    /// The 414 is out and our side shut: what the client still sends is
    /// read and dropped (up to a bound), so that closing with unread data
    /// does not reset the connection before the client reads the 414.
    Draining { left: usize },
    /// hyper reads the end of the stream.
    Closed,
}

/// A connection whose first request line is checked before hyper reads
/// it.
pub struct Guarded {
    inner: TcpStream,
    stage: Stage,
    head: Vec<u8>,
}

impl Guarded {
    fn new(inner: TcpStream) -> Guarded {
        Guarded {
            inner,
            stage: Stage::Reading,
            head: Vec::new(),
        }
    }
}

/// The whole 414 answer: status, headers and JSON body, made once.
static REFUSAL: LazyLock<Vec<u8>> = LazyLock::new(refusal);

fn refusal() -> Vec<u8> {
    let body = format!(
        "{{\"error\":\"the request line is longer than {MAX_REQUEST_LINE} bytes; no request of this server needs so much\"}}"
    );
    format!(
        "HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            match this.stage {
                Stage::Reading => {
                    let mut chunk = [0u8; 4096];
                    let mut buf = ReadBuf::new(&mut chunk);
                    match Pin::new(&mut this.inner).poll_read(cx, &mut buf) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                        Poll::Ready(Ok(())) => {
                            let got = buf.filled();
                            let ended = got.is_empty();
                            this.head.extend_from_slice(got);
                            let line_ends = this.head.windows(2).any(|w| w == b"\r\n");
                            if line_ends || ended {
                                this.stage = Stage::Passing { from: 0 };
                            } else if this.head.len() > MAX_REQUEST_LINE {
                                this.stage = Stage::Refusing { written: 0 };
                            }
                        }
                    }
                }
                Stage::Passing { from } if from < this.head.len() => {
                    let n = out.remaining().min(this.head.len() - from);
                    out.put_slice(&this.head[from..from + n]);
                    this.stage = Stage::Passing { from: from + n };
                    if from + n == this.head.len() {
                        this.head = Vec::new();
                    }
                    return Poll::Ready(Ok(()));
                }
                Stage::Passing { .. } => return Pin::new(&mut this.inner).poll_read(cx, out),
                Stage::Refusing { written } => {
                    let answer = &*REFUSAL;
                    if written == answer.len() {
                        match Pin::new(&mut this.inner).poll_shutdown(cx) {
                            Poll::Pending => return Poll::Pending,
                            Poll::Ready(_) => this.stage = Stage::Draining { left: 1 << 20 },
                        }
                        continue;
                    }
                    match Pin::new(&mut this.inner).poll_write(cx, &answer[written..]) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Err(_)) | Poll::Ready(Ok(0)) => this.stage = Stage::Closed,
                        Poll::Ready(Ok(n)) => {
                            this.stage = Stage::Refusing {
                                written: written + n,
                            }
                        }
                    }
                }
                Stage::Draining { left } => {
                    let mut chunk = [0u8; 4096];
                    let mut buf = ReadBuf::new(&mut chunk);
                    match Pin::new(&mut this.inner).poll_read(cx, &mut buf) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Ok(())) if !buf.filled().is_empty() => {
                            let n = buf.filled().len();
                            this.stage = if n >= left {
                                Stage::Closed
                            } else {
                                Stage::Draining { left: left - n }
                            };
                        }
                        Poll::Ready(_) => this.stage = Stage::Closed,
                    }
                }
                Stage::Closed => return Poll::Ready(Ok(())),
            }
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
