//! `tenfold match --plot FILE.svg`: the first engine's Elo with its 95% band and, with
//! `--sprt`, the LLR between its bounds, against games played. The match's progress
//! callback feeds [`MatchPlot::record`] after each game and the file is rewritten.

use super::svg::{num, Svg};
use crate::arena::stats::Sprt;
use crate::arena::MatchResult;

/// One point per finished game.
#[derive(Clone, Copy, Debug)]
struct Point {
    games: u32,
    elo: f64,
    err: f64,
    llr: Option<f64>,
}

/// The series a match plot draws, grown a game at a time.
#[derive(Clone, Debug, Default)]
pub struct MatchPlot {
    title: String,
    bounds: Option<(f64, f64)>,
    points: Vec<Point>,
}

/// Elo at a 0% or 100% score is infinite; the axis stops here so a first lost game
/// does not flatten the rest of the curve.
const ELO_CAP: f64 = 800.0;

const W: f64 = 640.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const PANEL: f64 = 200.0;

/// A round step of about `span / 5`: 1, 2 or 5 times a power of ten.
fn tick_step(span: f64) -> f64 {
    let raw = (span / 5.0).max(1e-9);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

/// Text for a tick value, without a trailing `.0`.
fn tick_label(x: f64) -> String {
    num(x)
}

impl MatchPlot {
    /// An empty plot titled `title`, with the SPRT's bounds when one runs.
    pub fn new(title: &str, sprt: Option<&Sprt>) -> MatchPlot {
        MatchPlot {
            title: title.to_string(),
            bounds: sprt.map(Sprt::bounds),
            points: Vec::new(),
        }
    }

    /// Adds the state after the latest game: the first engine against all the others,
    /// as the progress line counts it.
    pub fn record(&mut self, r: &MatchResult) {
        let w = r.first_vs_rest();
        let (elo, err) = w.elo();
        self.points.push(Point {
            games: w.games(),
            elo: elo.clamp(-ELO_CAP, ELO_CAP),
            err,
            llr: r.sprt.map(|(llr, _)| llr),
        });
    }

    /// Number of points recorded.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True before the first game.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The plot as a standalone SVG document.
    pub fn svg(&self) -> String {
        let panels = if self.bounds.is_some() { 2.0 } else { 1.0 };
        let h = 40.0 + panels * (PANEL + 40.0);
        let mut svg = Svg::new(W, h);
        svg.rect(0.0, 0.0, W, h, "fill:#fff");
        svg.text_anchored(
            LEFT,
            18.0,
            14.0,
            "start",
            "fill:#222;font-weight:bold",
            &self.title,
        );
        let max_games = self
            .points
            .iter()
            .map(|p| p.games)
            .max()
            .unwrap_or(0)
            .max(10) as f64;
        let elo: Vec<(f64, f64, f64)> = self
            .points
            .iter()
            .map(|p| (p.games as f64, p.elo, p.err.min(ELO_CAP)))
            .collect();
        let lo = elo
            .iter()
            .map(|e| e.1 - e.2)
            .fold(-10.0, f64::min)
            .max(-ELO_CAP);
        let hi = elo
            .iter()
            .map(|e| e.1 + e.2)
            .fold(10.0, f64::max)
            .min(ELO_CAP);
        let top = 40.0;
        let axes = Axes {
            top,
            x_max: max_games,
            y_min: lo,
            y_max: hi,
        };
        axes.draw(&mut svg, "Elo ± 95%");
        let band: Vec<(f64, f64)> = elo
            .iter()
            .map(|e| axes.at(e.0, (e.1 + e.2).min(hi)))
            .chain(elo.iter().rev().map(|e| axes.at(e.0, (e.1 - e.2).max(lo))))
            .collect();
        if band.len() >= 4 {
            svg.poly(true, &band, "fill:#4a90d9;fill-opacity:0.25;stroke:none");
        }
        let line: Vec<(f64, f64)> = elo.iter().map(|e| axes.at(e.0, e.1)).collect();
        svg.poly(false, &line, "fill:none;stroke:#1f4f8f;stroke-width:2");
        if let Some((blo, bhi)) = self.bounds {
            let llr: Vec<(f64, f64)> = self
                .points
                .iter()
                .filter_map(|p| Some((p.games as f64, p.llr?)))
                .collect();
            let y_min = llr.iter().map(|p| p.1).fold(blo, f64::min) - 0.3;
            let y_max = llr.iter().map(|p| p.1).fold(bhi, f64::max) + 0.3;
            let axes = Axes {
                top: top + PANEL + 40.0,
                x_max: max_games,
                y_min,
                y_max,
            };
            axes.draw(&mut svg, "SPRT log-likelihood ratio");
            for (b, colour, label) in [(bhi, "#2e8b3a", "H1"), (blo, "#d0201a", "H0")] {
                let (a, z) = (axes.at(0.0, b), axes.at(max_games, b));
                svg.line(
                    a,
                    z,
                    &format!("stroke:{colour};stroke-width:1.5;stroke-dasharray:6,4"),
                );
                let style = format!("fill:{colour};font-weight:bold");
                svg.text_anchored(
                    z.0 - 4.0,
                    z.1 - 9.0,
                    11.0,
                    "end",
                    &style,
                    &format!("{label} {b:.2}"),
                );
            }
            let pts: Vec<(f64, f64)> = llr.iter().map(|p| axes.at(p.0, p.1)).collect();
            svg.poly(false, &pts, "fill:none;stroke:#6a1b9a;stroke-width:2");
        }
        svg.finish()
    }
}

/// A panel: games across, one quantity up.
struct Axes {
    top: f64,
    x_max: f64,
    y_min: f64,
    y_max: f64,
}

impl Axes {
    /// Pixel position of (games, value).
    fn at(&self, x: f64, y: f64) -> (f64, f64) {
        let w = W - LEFT - RIGHT;
        let span = (self.y_max - self.y_min).max(1e-9);
        (
            LEFT + x / self.x_max * w,
            self.top + PANEL - (y - self.y_min) / span * PANEL,
        )
    }

    /// The frame, grid, ticks, zero line and labels.
    fn draw(&self, svg: &mut Svg, label: &str) {
        let w = W - LEFT - RIGHT;
        svg.rect(
            LEFT,
            self.top,
            w,
            PANEL,
            "fill:#fbfbfb;stroke:#999;stroke-width:1",
        );
        let step = tick_step(self.y_max - self.y_min);
        let mut y = (self.y_min / step).ceil() * step;
        while y <= self.y_max + 1e-9 {
            let (a, b) = (self.at(0.0, y), self.at(self.x_max, y));
            let style = if y.abs() < 1e-9 {
                "stroke:#555;stroke-width:1.2"
            } else {
                "stroke:#e3e3e3;stroke-width:1"
            };
            svg.line(a, b, style);
            svg.text_anchored(LEFT - 6.0, a.1, 11.0, "end", "fill:#444", &tick_label(y));
            y += step;
        }
        let step = tick_step(self.x_max).max(1.0).round();
        let mut x = 0.0;
        while x <= self.x_max + 1e-9 {
            let p = self.at(x, self.y_min);
            svg.line(p, (p.0, p.1 + 4.0), "stroke:#999;stroke-width:1");
            svg.text(p.0, p.1 + 12.0, 11.0, "fill:#444", &tick_label(x));
            x += step;
        }
        svg.text_anchored(
            LEFT + 4.0,
            self.top - 8.0,
            12.0,
            "start",
            "fill:#222",
            label,
        );
        let end = self.at(self.x_max, self.y_min);
        svg.text_anchored(end.0, end.1 + 26.0, 11.0, "end", "fill:#444", "games");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(100.0), 20.0);
        assert_eq!(tick_step(7.0), 2.0);
        assert_eq!(tick_step(0.9), 0.2);
    }

    #[test]
    fn an_empty_plot_is_still_a_picture() {
        let p = MatchPlot::new("A vs B", Sprt::parse("elo0=0 elo1=5").ok().as_ref());
        let s = p.svg();
        assert!(
            p.is_empty() && s.starts_with("<?xml") && s.contains("H1 2.94"),
            "{s}"
        );
    }
}
