//! The learning curve: one row per measurement, kept in the checkpoint and
//! written out as CSV and as a labelled PNG chart after every measurement.

use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub games: u64,
    pub seconds: f64,
    pub loss_contact: f64,
    pub loss_race: f64,
    pub ppg_pubeval: f64,
    pub se_pubeval: f64,
    pub ppg_previous: f64,
    pub se_previous: f64,
    /// Mean error on the dev set in millipoints; NaN when no set was given.
    pub dev_mp: f64,
    /// NaN when the model has no crashed network.
    pub loss_crashed: f64,
}

impl CurvePoint {
    /// The strength figures as a progress line shows them.
    /// Figures that were not measured (NaN) are left out.
    pub fn strength(&self) -> String {
        let mut parts = Vec::new();
        if self.ppg_pubeval.is_finite() {
            parts.push(format!(
                "vs PubEval {:+.3} ± {:.3} ppg",
                self.ppg_pubeval, self.se_pubeval
            ));
        }
        if self.ppg_previous.is_finite() {
            parts.push(format!(
                "vs previous {:+.3} ± {:.3}",
                self.ppg_previous, self.se_previous
            ));
        }
        if self.dev_mp.is_finite() {
            parts.push(format!("dev {:.2} mp", self.dev_mp));
        }
        if parts.is_empty() {
            "no strength measured".into()
        } else {
            parts.join(", ")
        }
    }
}

pub fn to_csv(points: &[CurvePoint]) -> String {
    let mut s = String::from(
        "games,seconds,loss_contact,loss_race,ppg_pubeval,se_pubeval,ppg_previous,se_previous,dev_mp,loss_crashed\n",
    );
    for p in points {
        let _ = writeln!(
            s,
            "{},{:.1},{:.6},{:.6},{:.4},{:.4},{:.4},{:.4},{:.3},{:.6}",
            p.games,
            p.seconds,
            p.loss_contact,
            p.loss_race,
            p.ppg_pubeval,
            p.se_pubeval,
            p.ppg_previous,
            p.se_previous,
            p.dev_mp,
            p.loss_crashed
        );
    }
    s
}

/// The points of a `curve.csv` (the columns [`to_csv`] writes; `NaN` where
/// nothing was measured).
pub fn from_csv(text: &str) -> Result<Vec<CurvePoint>, String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("an empty curve file")?;
    if header != to_csv(&[]).trim_end() {
        return Err(format!("unknown curve columns {header:?}"));
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let v: Vec<f64> = line
                .split(',')
                .map(|x| x.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|e| format!("curve line {}: {e}", i + 2))?;
            let [games, seconds, lc, lr, ppg, se, ppgp, sep, dev, lcr] = v[..] else {
                return Err(format!("curve line {}: {} columns, not 10", i + 2, v.len()));
            };
            Ok(CurvePoint {
                games: games as u64,
                seconds,
                loss_contact: lc,
                loss_race: lr,
                ppg_pubeval: ppg,
                se_pubeval: se,
                ppg_previous: ppgp,
                se_previous: sep,
                dev_mp: dev,
                loss_crashed: lcr,
            })
        })
        .collect()
}

/// Writes `curve.csv` and `curve.png` into `dir`.
pub fn write(dir: &Path, points: &[CurvePoint]) -> std::io::Result<()> {
    crate::atomic_file::write(&dir.join("curve.csv"), to_csv(points).as_bytes())?;
    let png = chart(points).map_err(std::io::Error::other)?;
    crate::atomic_file::write(&dir.join("curve.png"), &png)
}

const W: u32 = 900;
/// What the x axis counts: a self-play run measures every so many games,
/// a distillation after every epoch.
const X_DESC: &str = "games played (epochs in a distillation)";
const H: u32 = 900;

/// The font every chart's text is drawn in (DejaVu Sans, under the
/// Bitstream Vera licence in `fonts/`), compiled in so that a chart looks
/// the same on any machine, with or without system fonts.
static FONT: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");

fn register_font() {
    use std::sync::Once;
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Registration only fails on a malformed font; the one compiled in
        // is not.
        let _ =
            plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, FONT);
    });
}

/// The learning curve as a PNG: three panels over the games played, each
/// with its title, axis labels and values: the points per game against
/// PubEval with ± one standard error (rising is better), the dev set's
/// mean error in millipoints (falling is better), and each network's
/// training loss. Exact values are in the CSV.
pub fn chart(points: &[CurvePoint]) -> Result<Vec<u8>, String> {
    use plotters::prelude::*;
    register_font();
    let mut rgb = vec![255u8; (W * H * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (W, H)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled("kotra-ai learning curve", ("sans-serif", 26))
            .map_err(|e| e.to_string())?;
        let panels = root.split_evenly((3, 1));
        let games_max = points.iter().map(|p| p.games).max().unwrap_or(1).max(1) as f64;
        let finite = |v: &[f64]| -> Option<(f64, f64)> {
            let v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (!v.is_empty()).then(|| {
                let pad = ((hi - lo) * 0.1).max(1e-6);
                (lo - pad, hi + pad)
            })
        };
        // Points per game against PubEval, with error bars.
        let ppg: Vec<&CurvePoint> = points
            .iter()
            .filter(|p| p.ppg_pubeval.is_finite())
            .collect();
        let bounds: Vec<f64> = ppg
            .iter()
            .flat_map(|p| [p.ppg_pubeval - p.se_pubeval, p.ppg_pubeval + p.se_pubeval])
            .collect();
        let (lo, hi) = finite(&bounds).unwrap_or((-1.0, 1.0));
        let mut c = panel(
            &panels[0],
            "points per game against PubEval (± 1 SE)",
            games_max,
            (lo, hi),
            "ppg",
        )?;
        c.draw_series(LineSeries::new(
            ppg.iter().map(|p| (p.games as f64, p.ppg_pubeval)),
            &BLUE,
        ))
        .map_err(|e| e.to_string())?;
        c.draw_series(ppg.iter().map(|p| {
            ErrorBar::new_vertical(
                p.games as f64,
                p.ppg_pubeval - p.se_pubeval,
                p.ppg_pubeval,
                p.ppg_pubeval + p.se_pubeval,
                BLUE.filled(),
                6,
            )
        }))
        .map_err(|e| e.to_string())?;
        // Dev-set error.
        let dev: Vec<(f64, f64)> = points
            .iter()
            .filter(|p| p.dev_mp.is_finite())
            .map(|p| (p.games as f64, p.dev_mp))
            .collect();
        let (lo, hi) = finite(&dev.iter().map(|d| d.1).collect::<Vec<_>>()).unwrap_or((0.0, 1.0));
        let mut c = panel(
            &panels[1],
            "dev set: mean move error (mp, gnubg 2-ply labels)",
            games_max,
            (lo, hi),
            "mp",
        )?;
        c.draw_series(LineSeries::new(dev.iter().copied(), &RED))
            .map_err(|e| e.to_string())?;
        c.draw_series(dev.iter().map(|&p| Circle::new(p, 3, RED.filled())))
            .map_err(|e| e.to_string())?;
        // Training losses, one line per network.
        let losses: [LossLine; 3] = [
            ("contact", BLUE, series(points, |p| p.loss_contact)),
            ("race", GREEN, series(points, |p| p.loss_race)),
            ("crashed", MAGENTA, series(points, |p| p.loss_crashed)),
        ];
        let all: Vec<f64> = losses
            .iter()
            .flat_map(|l| l.2.iter().map(|p| p.1))
            .collect();
        let (lo, hi) = finite(&all).unwrap_or((0.0, 1.0));
        let mut c = panel(
            &panels[2],
            "training loss (mean squared error) per network",
            games_max,
            (lo.max(0.0), hi),
            "loss",
        )?;
        for (name, colour, line) in losses.iter().filter(|l| !l.2.is_empty()) {
            let colour = *colour;
            c.draw_series(LineSeries::new(line.iter().copied(), colour))
                .map_err(|e| e.to_string())?
                .label(*name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], colour));
        }
        c.configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    encode_png(&rgb)
}

/// One panel's chart over the games, with its caption, grid, axis names
/// and values.
fn panel<'a, 'b>(
    area: &'a plotters::drawing::DrawingArea<
        plotters::backend::BitMapBackend<'b>,
        plotters::coord::Shift,
    >,
    caption: &str,
    games_max: f64,
    (lo, hi): (f64, f64),
    y_desc: &str,
) -> Result<
    plotters::chart::ChartContext<
        'a,
        plotters::backend::BitMapBackend<'b>,
        plotters::coord::cartesian::Cartesian2d<
            plotters::coord::types::RangedCoordf64,
            plotters::coord::types::RangedCoordf64,
        >,
    >,
    String,
> {
    use plotters::prelude::*;
    let mut c = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..games_max, lo..hi)
        .map_err(|e| e.to_string())?;
    // Small values (losses) in scientific notation, the rest plainly.
    let small = hi.abs().max(lo.abs()) < 0.01;
    c.configure_mesh()
        .x_desc(X_DESC)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc(y_desc)
        .y_label_formatter(&|v| {
            if small {
                format!("{v:.1e}")
            } else {
                format!("{v:.2}")
            }
        })
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(c)
}

/// A network's name, colour and (x, loss) points.
type LossLine = (&'static str, plotters::style::RGBColor, Vec<(f64, f64)>);

/// The finite values of one column, against the games.
fn series(points: &[CurvePoint], value: impl Fn(&CurvePoint) -> f64) -> Vec<(f64, f64)> {
    points
        .iter()
        .filter(|p| value(p).is_finite())
        .map(|p| (p.games as f64, value(p)))
        .collect()
}

/// An RGB buffer of the chart's size as a PNG file's bytes.
fn encode_png(rgb: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, W, H);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_is_a_png_of_its_size() {
        let point = |games: u64, ppg: f64, dev: f64| CurvePoint {
            games,
            seconds: 1.0,
            loss_contact: 2e-3 / games as f64,
            loss_race: 1e-3,
            ppg_pubeval: ppg,
            se_pubeval: 0.02,
            ppg_previous: f64::NAN,
            se_previous: f64::NAN,
            dev_mp: dev,
            loss_crashed: f64::NAN,
        };
        let png = chart(&[point(1000, 0.2, 9.0), point(2000, 0.4, 6.0)]).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width and height, big-endian, after the 8-byte signature
        // and the chunk's length and type.
        assert_eq!(
            &png[16..24],
            &[&W.to_be_bytes()[..], &H.to_be_bytes()[..]].concat()[..]
        );
        // Nothing measured yet still draws (empty panels).
        assert!(chart(&[]).is_ok());
    }

    #[test]
    fn the_csv_reads_back() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/kotra-v29-curve.csv"
        ))
        .unwrap();
        let points = from_csv(&text).unwrap();
        assert!(points.len() > 10);
        assert_eq!(to_csv(&points), text);
        assert!(from_csv("games,seconds\n1,2\n").is_err());
    }

    /// Redraws the shipped network's chart from its CSV:
    /// `cargo test --release redraw_the_shipped_curve -- --ignored`.
    #[test]
    #[ignore]
    fn redraw_the_shipped_curve() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/models/");
        let text = std::fs::read_to_string(format!("{dir}kotra-v29-curve.csv")).unwrap();
        let png = chart(&from_csv(&text).unwrap()).unwrap();
        std::fs::write(format!("{dir}kotra-v29-curve.png"), png).unwrap();
    }

    #[test]
    fn the_progress_line_leaves_out_what_was_not_measured() {
        let point = CurvePoint {
            games: 1,
            seconds: 1.0,
            loss_contact: 1e-4,
            loss_race: f64::NAN,
            ppg_pubeval: 0.61,
            se_pubeval: 0.01,
            ppg_previous: f64::NAN,
            se_previous: f64::NAN,
            dev_mp: 4.38,
            loss_crashed: f64::NAN,
        };
        assert_eq!(
            point.strength(),
            "vs PubEval +0.610 ± 0.010 ppg, dev 4.38 mp"
        );
        let nothing = CurvePoint {
            ppg_pubeval: f64::NAN,
            se_pubeval: f64::NAN,
            dev_mp: f64::NAN,
            ..point
        };
        assert_eq!(nothing.strength(), "no strength measured");
    }
}
