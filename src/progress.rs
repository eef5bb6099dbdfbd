//! Progress bars for long runs (training, rollouts), on stderr.

use indicatif::{ProgressBar, ProgressDrawTarget, TermLike};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the bar's line is logged where stderr is not a terminal: a
/// training chunk or epoch takes minutes, so about one line each.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// A bar over `total` steps drawn with `template` (indicatif syntax), or a
/// hidden one when not `visible`.
///
/// indicatif draws nothing where stderr is not a terminal, and a training
/// run left for hours under `nohup` would log nothing until it ends; there
/// the bar's line is written as a plain line instead, at most once a
/// minute (`LogLines`, below).
pub fn bar(visible: bool, total: u64, template: &str) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::term_like(Box::new(LogLines::new(std::io::stderr(), LOG_EVERY)))
    };
    styled(ProgressBar::with_draw_target(Some(total), target), template)
}

fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .expect("templates are written in the code")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate(state.per_sec()));
                },
            )
            .progress_chars("=> "),
    );
    bar
}

/// Steps a second for a bar's `{rate}` key, with as many digits as a
/// reader can use. indicatif's own `{per_sec}` always prints four
/// decimals ("6,916.1233/s").
fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return "0/s".to_owned();
    }
    if per_sec >= 100.0 {
        return format!("{}/s", indicatif::HumanCount(per_sec.round() as u64));
    }
    let decimals = if per_sec >= 10.0 { 1 } else { 2 };
    format!("{per_sec:.decimals$}/s")
}

/// A "terminal" that turns each redraw of a bar into one plain line, and
/// keeps one redraw in `every` at most: a log gets a line now and then,
/// never a screenful of carriage returns.
#[derive(Debug)]
struct LogLines<W> {
    state: Mutex<LogState<W>>,
    every: Duration,
}

#[derive(Debug)]
struct LogState<W> {
    out: W,
    /// What the redraw in progress has written so far.
    pending: String,
    /// When the last line went out.
    last: Option<Instant>,
}

impl<W: Write> LogLines<W> {
    fn new(out: W, every: Duration) -> Self {
        LogLines {
            state: Mutex::new(LogState {
                out,
                pending: String::new(),
                last: None,
            }),
            every,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, LogState<W>> {
        // A writer that panicked mid-line leaves nothing worth guarding.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<W: Write + Send + std::fmt::Debug> TermLike for LogLines<W> {
    fn width(&self) -> u16 {
        // Wide enough that indicatif never wraps a line.
        200
    }

    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        let mut state = self.state();
        state.pending.push_str(s);
        state.pending.push('\n');
        Ok(())
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        if s != "\r" {
            self.state().pending.push_str(s);
        }
        Ok(())
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.state().pending.clear();
        Ok(())
    }

    fn flush(&self) -> std::io::Result<()> {
        let mut state = self.state();
        let line = std::mem::take(&mut state.pending);
        let line = line.trim_end();
        let due = state.last.is_none_or(|t| t.elapsed() >= self.every);
        if line.is_empty() || !due {
            return Ok(());
        }
        state.last = Some(Instant::now());
        writeln!(state.out, "{line}")?;
        state.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A writer whose bytes the test can read back.
    #[derive(Clone, Debug, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The lines a bar styled with `template` logs while `drive` moves it.
    fn drawn(
        every: Duration,
        steps: u64,
        template: &str,
        drive: impl FnOnce(&ProgressBar),
    ) -> Vec<String> {
        let out = Shared::default();
        let term = LogLines::new(out.clone(), every);
        let target = ProgressDrawTarget::term_like(Box::new(term));
        let bar = styled(ProgressBar::with_draw_target(Some(steps), target), template);
        drive(&bar);
        bar.finish();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    fn logged(every: Duration, steps: u64) -> Vec<String> {
        drawn(every, steps, "{pos}/{len} games {msg}", |bar| {
            for i in 0..steps {
                bar.set_message(format!("loss {i}"));
                bar.inc(1);
            }
        })
    }

    #[test]
    fn a_rate_keeps_the_digits_a_reader_uses() {
        assert_eq!(rate(6916.1233), "6,916/s");
        assert_eq!(rate(99.96), "100.0/s");
        assert_eq!(rate(42.04), "42.0/s");
        assert_eq!(rate(2.675), "2.67/s");
        assert_eq!(rate(0.0), "0/s");
        assert_eq!(rate(f64::INFINITY), "0/s");
    }

    #[test]
    fn a_bar_draws_its_rate_key() {
        let lines = drawn(Duration::ZERO, 4, "{pos}/{len} games ({rate})", |bar| {
            bar.inc(4)
        });
        let last = lines.last().unwrap();
        assert!(
            last.starts_with("4/4 games (") && last.ends_with("/s)"),
            "{last:?}"
        );
        assert!(!last.contains("{rate}"), "{last:?}");
    }

    #[test]
    fn each_logged_redraw_is_one_plain_line() {
        let lines = logged(Duration::ZERO, 3);
        assert!(lines.len() >= 3, "{lines:?}");
        assert_eq!(lines.last().unwrap(), "3/3 games loss 2");
        for line in &lines {
            assert!(!line.contains('\r') && line == line.trim_end(), "{line:?}");
            assert!(
                line.ends_with(" games") || line.contains(" games loss "),
                "{line:?}"
            );
        }
    }

    #[test]
    fn a_log_gets_at_most_one_line_an_interval() {
        let lines = logged(Duration::from_secs(3600), 50);
        assert_eq!(lines.len(), 1, "{lines:?}");
    }
}
