//! Match statistics: Elo with a 95% error bar, likelihood of superiority, and the SPRT
//! on the pentanomial model (game pairs played from the same opening with colours
//! swapped, scored 0, ½, 1, 1½ or 2), as in Fishtest's GSPRT approximation.

/// Expected score of a player `elo` points stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score: infinite at 0 and 1 (a clean sweep says the
/// gap is beyond measure, and is printed so, as cutechess-cli does).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// [`elo_of_score`] kept finite, for the ends of an error bar.
fn bounded_elo(score: f64) -> f64 {
    elo_of_score(score.clamp(1e-6, 1.0 - 1e-6))
}

/// Win/loss/draw counts from the first player's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Wld {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Wld {
    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// Elo estimate and the half-width of its 95% interval (trinomial model).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.losses as f64 * s.powi(2)
            + self.draws as f64 * (0.5 - s).powi(2))
            / n;
        let elo = elo_of_score(s);
        if elo.is_infinite() {
            return (elo, f64::NAN);
        }
        let dev = (var / n).sqrt();
        let lo = bounded_elo(s - 1.96 * dev);
        let hi = bounded_elo(s + 1.96 * dev);
        (elo, (hi - lo) / 2.0)
    }

    /// Likelihood of superiority: the probability that the first player is stronger.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Counts of game pairs by pair score 0, ½, 1, 1½, 2 (index = half points).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Penta(pub [u32; 5]);

impl Penta {
    /// Adds a pair from its two game scores (each 0, 0.5 or 1, first player's view).
    pub fn add(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SprtVerdict {
    /// Keep playing.
    Continue,
    /// H1 accepted (the gain is real).
    AcceptH1,
    /// H0 accepted (no gain of elo1).
    AcceptH0,
}

/// Why an `--sprt` specification was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    /// A word without `=`.
    #[error("--sprt: \"{0}\" is not key=value")]
    NotKeyValue(String),
    /// A value that is not a number.
    #[error("--sprt: \"{0}\" is not a number")]
    NotNumber(String),
    /// A key other than elo0, elo1, alpha and beta.
    #[error("--sprt: unknown key \"{0}\" (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    /// alpha or beta outside (0, 0.5).
    #[error("--sprt: alpha and beta must lie in (0, 0.5)")]
    Rates,
    /// elo0 not below elo1.
    #[error("--sprt: elo0 must be below elo1")]
    Order,
    /// elo0 or elo1 not a number within ±1000.
    #[error("--sprt: elo0 and elo1 must lie within ±1000")]
    EloRange,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (space or comma separated).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for kv in text.split([' ', ',']).filter(|x| !x.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(kv.to_string()))?;
            let x: f64 = v.parse().map_err(|_| SprtError::NotNumber(v.to_string()))?;
            match k {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => return Err(SprtError::UnknownKey(k.to_string())),
            }
        }
        if !(0.0 < s.alpha && s.alpha < 0.5 && 0.0 < s.beta && s.beta < 0.5) {
            return Err(SprtError::Rates);
        }
        // Beyond this an expected score rounds to 0 or 1 and no ratio can be formed.
        if !(s.elo0.abs() <= 1000.0 && s.elo1.abs() <= 1000.0) {
            return Err(SprtError::EloRange);
        }
        if s.elo0 >= s.elo1 {
            return Err(SprtError::Order);
        }
        Ok(s)
    }

    /// Lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised log-likelihood ratio of the pentanomial counts, as fishtest
    /// computes it: the pair-score distributions most likely for the counts under each
    /// hypothesis' mean ([`nearest_with_mean`]), compared on the counts. Not the normal
    /// approximation by the observed variance: that cannot move where every pair ends
    /// alike, and leaps to a verdict where nearly every one does.
    pub fn llr(&self, p: &Penta) -> f64 {
        if p.pairs() < 2 {
            return 0.0;
        }
        // An outcome never seen counts a thousandth of a pair (fishtest's regularisation):
        // no score is impossible for the fitted distributions.
        let counts = p.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / n);
        let p0 = nearest_with_mean(&freq, expected_score(self.elo0));
        let p1 = nearest_with_mean(&freq, expected_score(self.elo1));
        n * (0..5).map(|i| freq[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    /// The decision for these counts after `before`: a bound once crossed stops the
    /// match, and the games still in play then count but cannot take the verdict back
    /// (fishtest's rule; the last of them can pull the ratio back inside the bounds).
    pub fn judge(&self, p: &Penta, before: SprtVerdict) -> SprtVerdict {
        match before {
            SprtVerdict::Continue => self.verdict(p),
            decided => decided,
        }
    }

    /// The decision for these counts.
    pub fn verdict(&self, p: &Penta) -> SprtVerdict {
        let llr = self.llr(p);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// The distribution over the pair scores 0, ¼, ½, ¾, 1 whose mean is `t` and that is the
/// most likely for observed frequencies `freq`: `freq[i] / (1 + λ(aᵢ − t))`, with λ the
/// root of the mean condition, found by bisection (fishtest's `MLE_expected`).
fn nearest_with_mean(freq: &[f64; 5], t: f64) -> [f64; 5] {
    let a = |i: usize| i as f64 / 4.0;
    // λ keeps every denominator positive: between −1/(1 − t) and 1/t.
    let (mut lo, mut hi) = (-1.0 / (1.0 - t), 1.0 / t);
    // The mean of the reweighted distribution less `t` falls as λ grows.
    let excess = |l: f64| -> f64 {
        (0..5)
            .map(|i| freq[i] * (a(i) - t) / (1.0 + l * (a(i) - t)))
            .sum()
    };
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if excess(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    std::array::from_fn(|i| freq[i] / (1.0 + l * (a(i) - t)))
}

/// The error function (Abramowitz–Stegun 7.1.26; |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_sweep_is_an_infinite_elo_not_a_number() {
        let lost_all = Wld {
            wins: 0,
            losses: 10,
            draws: 0,
        };
        let (elo, err) = lost_all.elo();
        assert_eq!(elo, f64::NEG_INFINITY);
        assert!(err.is_nan());
        assert_eq!(format!("{elo:+.1}"), "-inf");
        assert_eq!(
            Wld {
                wins: 3,
                losses: 0,
                draws: 0
            }
            .elo()
            .0,
            f64::INFINITY
        );
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-400.0, -50.0, 0.0, 35.0, 300.0] {
            assert!((elo_of_score(expected_score(e)) - e).abs() < 1e-6);
        }
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn elo_error_shrinks_with_games() {
        let small = Wld {
            wins: 6,
            losses: 4,
            draws: 10,
        };
        let big = Wld {
            wins: 60,
            losses: 40,
            draws: 100,
        };
        let (e1, d1) = small.elo();
        let (e2, d2) = big.elo();
        assert!((e1 - e2).abs() < 1e-9 && e1 > 0.0);
        assert!(d2 < d1 && d2 > 0.0);
        // 55% is about +35 Elo.
        assert!((e2 - 34.86).abs() < 0.1, "{e2}");
    }

    #[test]
    fn los_is_symmetric_and_sensible() {
        let a = Wld {
            wins: 30,
            losses: 10,
            draws: 0,
        };
        let b = Wld {
            wins: 10,
            losses: 30,
            draws: 0,
        };
        assert!((a.los() + b.los() - 1.0).abs() < 1e-6);
        assert!(a.los() > 0.99);
        assert_eq!(Wld::default().los(), 0.5);
    }

    #[test]
    fn sprt_accepts_h1_for_a_clearly_stronger_player_and_h0_for_equal() {
        let s = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        // Pair scores skewed to wins: mean 0.6 per game.
        let strong = Penta([20, 80, 200, 160, 40]);
        assert_eq!(s.verdict(&strong), SprtVerdict::AcceptH1);
        let equal = Penta([100, 400, 1000, 400, 100]);
        assert_eq!(s.verdict(&equal), SprtVerdict::AcceptH0);
        let few = Penta([0, 1, 2, 1, 0]);
        assert_eq!(s.verdict(&few), SprtVerdict::Continue);
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01);
    }

    #[test]
    fn a_crossed_bound_stands_when_games_still_in_play_pull_the_ratio_back() {
        // A real run (2026-12-03, chess): H0 crossed at 1,439 games (LLR -2.95), the pair
        // in play when it stopped came in after it, and the ratio was back at -2.91.
        let s = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let crossed = Penta([94, 147, 260, 148, 70]);
        let after = Penta([94, 147, 260, 149, 70]);
        assert_eq!(
            s.judge(&crossed, SprtVerdict::Continue),
            SprtVerdict::AcceptH0
        );
        assert_eq!(s.verdict(&after), SprtVerdict::Continue);
        assert_eq!(
            s.judge(&after, SprtVerdict::AcceptH0),
            SprtVerdict::AcceptH0
        );
        assert_eq!(
            s.judge(&after, SprtVerdict::Continue),
            SprtVerdict::Continue
        );
    }

    #[test]
    fn sprt_decides_a_match_where_every_pair_ends_alike() {
        // One side wins every game: the ratio grows by ln(s1/s0) a pair, so elo1 = 10
        // against elo0 = 0 is accepted after 104 pairs (the ratio stayed 0 before).
        let s = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        assert_eq!(s.verdict(&Penta([0, 0, 0, 0, 42])), SprtVerdict::Continue);
        assert_eq!(s.verdict(&Penta([0, 0, 0, 0, 110])), SprtVerdict::AcceptH1);
        assert_eq!(s.verdict(&Penta([110, 0, 0, 0, 0])), SprtVerdict::AcceptH0);
        // Every pair drawn: equal players, no gain of elo1.
        assert_eq!(s.verdict(&Penta([0, 0, 400, 0, 0])), SprtVerdict::AcceptH0);
        // Nearly every pair won is no more evidence than every pair won.
        assert_eq!(s.verdict(&Penta([0, 0, 0, 2, 40])), SprtVerdict::Continue);
    }

    #[test]
    fn the_ratio_agrees_with_fishtests_on_ordinary_counts() {
        // The same counts through a Python transcription of fishtest's LLRcalc
        // (regularised, the most likely distribution under each hypothesis).
        let s = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let cases = [
            ([100, 179, 404, 194, 141], 2.978),
            ([100, 400, 1000, 400, 100], -4.130),
            ([0, 0, 0, 0, 104], 2.950),
        ];
        for (counts, want) in cases {
            let got = s.llr(&Penta(counts));
            assert!(
                (got - want).abs() < 2e-3,
                "{counts:?}: {got} against {want}"
            );
        }
    }

    #[test]
    fn sprt_parse_errors_name_the_problem() {
        assert_eq!(Sprt::parse("elo0=5 elo1=0"), Err(SprtError::Order));
        assert_eq!(Sprt::parse("alpha=0.7"), Err(SprtError::Rates));
        assert_eq!(Sprt::parse("elo1=5000"), Err(SprtError::EloRange));
        assert_eq!(Sprt::parse("elo0=NaN"), Err(SprtError::EloRange));
        assert_eq!(Sprt::parse("elo0=-inf"), Err(SprtError::EloRange));
        assert_eq!(
            Sprt::parse("elo2=1").unwrap_err().to_string(),
            "--sprt: unknown key \"elo2\" (elo0, elo1, alpha, beta)"
        );
        assert_eq!(
            Sprt::parse("alpha=x").unwrap_err().to_string(),
            "--sprt: \"x\" is not a number"
        );
        assert_eq!(
            Sprt::parse("elo0").unwrap_err().to_string(),
            "--sprt: \"elo0\" is not key=value"
        );
    }

    #[test]
    fn pair_scores_land_in_the_right_bin() {
        let mut p = Penta::default();
        p.add(1.0, 1.0);
        p.add(0.5, 0.0);
        p.add(1.0, 0.0);
        assert_eq!(p.0, [0, 1, 1, 0, 1]);
    }
}
