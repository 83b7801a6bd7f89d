//! The Texel fit: the expected score of a position is `σ(K·e/400)` with
//! `σ(x) = 1 / (1 + 10^-x)` and `e` its evaluation for White; the loss is the mean squared
//! difference from the game results. `K` is fitted first with the starting weights held,
//! then Adam moves every weight, with a pull toward the starting weights so that rarely
//! seen features (a square a piece seldom visits) stay where the derivation put them.

use crate::eval::trace::{Offsets, Trace};

/// One training position: its features and the game's result for White (1, ½, 0).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position's features.
    pub trace: Trace,
    /// The result for White.
    pub result: f32,
}

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Passes over the training positions at most.
    pub epochs: usize,
    /// Adam step in centipawns.
    pub lr: f64,
    /// Positions per Adam step.
    pub batch: usize,
    /// Pull toward the starting weights: this times the squared distance is added to
    /// the loss.
    pub reg: f64,
    /// Stop after this many epochs without a better validation loss.
    pub patience: usize,
    /// Threads computing the gradient.
    pub threads: usize,
    /// Seed of the batch order.
    pub seed: u64,
    /// Per weight: false holds it at its starting value (empty: every weight moves).
    pub trainable: Vec<bool>,
}

/// One epoch's losses (mean squared error of the expected score).
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// Epoch number, from 1.
    pub n: usize,
    /// On the training positions.
    pub train: f64,
    /// On the held-out positions.
    pub validation: f64,
}

/// `σ(K·e/400)`.
#[inline]
pub fn expected(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of the samples under weights `p` and scale `k`.
pub fn loss(samples: &[Sample], p: &[f64], o: &Offsets, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let sum: f64 = std::thread::scope(|s| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|c| {
                s.spawn(move || {
                    c.iter()
                        .map(|x| {
                            let d = expected(k, x.trace.score(p, o)) - x.result as f64;
                            d * d
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        parts.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    sum / samples.len() as f64
}

/// The `K` that minimises the loss with the weights held (golden-section search).
pub fn fit_k(samples: &[Sample], p: &[f64], o: &Offsets, threads: usize) -> f64 {
    golden_min(|k| loss(samples, p, o, k, threads))
}

/// The K under which `σ(K·score/400)` best predicts the results (least squares): the
/// scale of another engine's scores, which need not be the evaluation's.
pub fn fit_score_k(samples: &[Sample], scores: &[i32]) -> f64 {
    golden_min(|k| {
        samples
            .iter()
            .zip(scores)
            .map(|(s, &e)| (s.result as f64 - expected(k, e as f64)).powi(2))
            .sum::<f64>()
    })
}

/// The minimum of `f` over K in (0.01, 10) by golden-section search (the loss is
/// unimodal in K).
fn golden_min(f: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// The gradient of the summed squared error over `batch` (not yet divided by its size).
fn gradient(batch: &[&Sample], p: &[f64], o: &Offsets, k: f64, threads: usize) -> Vec<f64> {
    let chunk = batch.len().div_ceil(threads.max(1)).max(1);
    let c = k * std::f64::consts::LN_10 / 400.0;
    std::thread::scope(|s| {
        let parts: Vec<_> = batch
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut g = vec![0.0; o.len()];
                    for x in part {
                        let e = x.trace.score(p, o);
                        let sig = expected(k, e);
                        let dl = 2.0 * (sig - x.result as f64) * sig * (1.0 - sig) * c;
                        x.trace.add_gradient(p, o, dl, &mut g);
                    }
                    g
                })
            })
            .collect();
        let mut total = vec![0.0; o.len()];
        for h in parts {
            if let Ok(g) = h.join() {
                for (t, x) in total.iter_mut().zip(g) {
                    *t += x;
                }
            }
        }
        total
    })
}

/// Per weight, how far a step goes relative to `lr`: the danger curve's parameters are
/// on smaller scales than centipawns.
fn step_scale(o: &Offsets, i: usize) -> f64 {
    if i >= o.scale() {
        0.5
    } else if i >= o.attack(0) {
        0.1
    } else {
        1.0
    }
}

/// Adam over every weight from `start`; returns the weights of the best validation
/// loss and the epoch they come from (0: no epoch beat `start`). `report` hears each
/// epoch.
pub fn adam(
    train: &[Sample],
    validation: &[Sample],
    start: &[f64],
    o: &Offsets,
    k: f64,
    opt: &FitOptions,
    mut report: impl FnMut(Epoch),
) -> (Vec<f64>, usize) {
    let n = start.len();
    let mut p = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut t = 0i32;
    let mut best = (loss(validation, &p, o, k, opt.threads), p.clone(), 0);
    let mut since_best = 0;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = opt.seed ^ 0x9E37_79B9_7F4A_7C15 | 1;
    for epoch in 1..=opt.epochs {
        // Fisher-Yates with xorshift: the batch order depends on the seed alone.
        for i in (1..order.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        for idx in order.chunks(opt.batch.max(1)) {
            let batch: Vec<&Sample> = idx.iter().map(|&i| &train[i]).collect();
            let mut g = gradient(&batch, &p, o, k, opt.threads);
            let scale = 1.0 / batch.len() as f64;
            for i in 0..n {
                g[i] = if opt.trainable.get(i) == Some(&false) {
                    0.0
                } else {
                    g[i] * scale + 2.0 * opt.reg * (p[i] - start[i])
                };
            }
            t += 1;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            for i in 0..n {
                m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                let step = opt.lr * step_scale(o, i) * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                p[i] -= step;
            }
            // The danger curve's scale and cap and the attack weights stay meaningful.
            for x in &mut p[o.attack(0)..] {
                *x = x.max(0.0);
            }
        }
        let e = Epoch {
            n: epoch,
            train: loss(train, &p, o, k, opt.threads),
            validation: loss(validation, &p, o, k, opt.threads),
        };
        report(e);
        if e.validation < best.0 {
            best = (e.validation, p.clone(), epoch);
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= opt.patience {
                break;
            }
        }
    }
    (best.1, best.2)
}
