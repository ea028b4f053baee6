//! A progress bar on stderr for long runs, shown only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Runs shorter than this many steps get no bar (they end before it would be drawn).
const MIN_STEPS: u64 = 200_000;

/// The bar is advanced every this many steps, to keep its cost out of the loop.
pub const CHUNK: u64 = 4096;

/// A progress bar over the steps of a run, or nothing.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar for `steps` steps if stderr is a terminal and the run is long, else none.
    pub fn new(steps: u64) -> Progress {
        if steps < MIN_STEPS || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {human_pos}/{human_len} steps, ETA {eta}",
        );
        if let Ok(style) = style {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    /// Sets the number of steps done.
    #[inline]
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(done);
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
