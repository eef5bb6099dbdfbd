//! Progress bars for long runs (training, rollouts), on stderr.

/// A bar over `total` steps drawn with `template` (indicatif syntax), or a
/// hidden one when not `visible`.
pub fn bar(visible: bool, total: u64, template: &str) -> indicatif::ProgressBar {
    if !visible {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .expect("templates are written in the code")
            .progress_chars("=> "),
    );
    bar
}
