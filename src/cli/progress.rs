//! Progress bars on stderr for long runs.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting `len` finished `units` (boards, lines, games...), with the elapsed time, an
/// estimate of the time left and a message.
pub fn bar(len: u64, units: &str) -> anyhow::Result<ProgressBar> {
    let template =
        format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {units}, eta {{eta}}  {{msg}}");
    Ok(ProgressBar::new(len)
        .with_style(ProgressStyle::with_template(&template)?.progress_chars("=> ")))
}
