//! The progress bar of a long count: subtrees done, nodes/s and time left, on stderr,
//! drawn only once a count has run for a second (short counts stay quiet) and only on a
//! terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Counts shorter than this show no bar.
const QUIET: Duration = Duration::from_secs(1);

/// A bar that appears after a second; a no-op when hidden.
pub struct CountBar {
    bar: Option<ProgressBar>,
    start: Instant,
    shown: Mutex<bool>,
}

impl CountBar {
    /// A bar on stderr when `wanted` (not JSON) and stderr is a terminal.
    pub fn new(wanted: bool) -> CountBar {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let style =
                ProgressStyle::with_template("{bar:40} {pos}/{len} subtrees {msg} eta {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar());
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden()).with_style(style)
        });
        CountBar {
            bar,
            start: Instant::now(),
            shown: Mutex::new(false),
        }
    }

    /// Hears one finished subtree (see `perft::Progress`).
    pub fn update(&self, done: usize, total: usize, nodes: u64) {
        let Some(bar) = &self.bar else { return };
        let elapsed = self.start.elapsed();
        if elapsed < QUIET {
            return;
        }
        if let Ok(mut shown) = self.shown.lock() {
            if !*shown {
                bar.set_draw_target(ProgressDrawTarget::stderr());
                *shown = true;
            }
        }
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        let nps = nodes as f64 / elapsed.as_secs_f64();
        bar.set_message(format!("{:.1} Mnodes/s", nps / 1e6));
    }

    /// Removes the bar before the result is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// True when a bar may be drawn (a terminal, not JSON).
    pub fn active(&self) -> bool {
        self.bar.is_some()
    }
}
