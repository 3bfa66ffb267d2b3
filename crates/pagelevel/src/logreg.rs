//! L2-regularised logistic regression, fitted by Newton's method.
//!
//! Features are standardised (mean 0, standard deviation 1 over the training rows; constant
//! features get scale 1) and the penalty `λ/2·|w|²` applies to the weights, not the intercept.
//! Each Newton step solves the `(d+1)×(d+1)` system by Cholesky and is damped by halving until
//! the objective falls, so the fit is deterministic and converges for any data, separable
//! included (the penalty keeps the optimum finite).

use serde::{Deserialize, Serialize};

/// A fitted model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogReg {
    /// Mean of each feature over the training rows.
    pub mean: Vec<f64>,
    /// Scale of each feature (standard deviation, or 1 when constant).
    pub scale: Vec<f64>,
    /// Weight of each standardised feature.
    pub weight: Vec<f64>,
    /// Intercept.
    pub intercept: f64,
}

/// Fitting parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// L2 penalty λ (on standardised weights, summed over rows as in the objective).
    pub lambda: f64,
    /// Newton iterations at most.
    pub max_iter: usize,
    /// Stop when the objective improves by less than this share.
    pub tol: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            lambda: 1.0,
            max_iter: 50,
            tol: 1e-9,
        }
    }
}

fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// `ln(1 + e^z)` without overflow.
fn softplus(z: f64) -> f64 {
    if z > 30.0 {
        z
    } else if z < -30.0 {
        z.exp()
    } else {
        z.exp().ln_1p()
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (row-major, `n×n`) by Cholesky.
/// Returns `None` when `a` is not positive definite.
fn cholesky_solve(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[i * n + j];
            for k in 0..j {
                sum -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if sum <= 0.0 || !sum.is_finite() {
                    return None;
                }
                l[i * n + i] = sum.sqrt();
            } else {
                l[i * n + j] = sum / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut sum = b[i];
        for k in 0..i {
            sum -= l[i * n + k] * y[k];
        }
        y[i] = sum / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut sum = y[i];
        for k in i + 1..n {
            sum -= l[k * n + i] * x[k];
        }
        x[i] = sum / l[i * n + i];
    }
    Some(x)
}

impl LogReg {
    /// Fits a model to rows of features with 0/1 labels and per-row weights.
    ///
    /// With no rows, or rows of one class only, the model predicts the (smoothed) base rate.
    pub fn fit(rows: &[Vec<f64>], labels: &[bool], weights: &[f64], opts: FitOptions) -> LogReg {
        let d = rows.first().map_or(0, Vec::len);
        let m = rows.len().min(labels.len()).min(weights.len());
        let wsum: f64 = weights[..m].iter().sum();
        let mut mean = vec![0.0; d];
        let mut scale = vec![1.0; d];
        if wsum > 0.0 {
            for (r, &w) in rows[..m].iter().zip(weights) {
                for (mu, &x) in mean.iter_mut().zip(r) {
                    *mu += w * x;
                }
            }
            for mu in &mut mean {
                *mu /= wsum;
            }
            let mut var = vec![0.0; d];
            for (r, &w) in rows[..m].iter().zip(weights) {
                for ((v, &x), mu) in var.iter_mut().zip(r).zip(&mean) {
                    *v += w * (x - mu) * (x - mu);
                }
            }
            for (s, v) in scale.iter_mut().zip(var) {
                let sd = (v / wsum).sqrt();
                *s = if sd > 1e-12 { sd } else { 1.0 };
            }
        }
        let pos: f64 = labels[..m]
            .iter()
            .zip(weights)
            .filter(|&(&l, _)| l)
            .map(|(_, &w)| w)
            .sum();
        let base = (pos + 0.5) / (wsum + 1.0);
        let mut model = LogReg {
            mean,
            scale,
            weight: vec![0.0; d],
            intercept: (base / (1.0 - base)).ln(),
        };
        if m == 0 || pos <= 0.0 || pos >= wsum {
            return model;
        }
        let z: Vec<Vec<f64>> = rows[..m].iter().map(|r| model.standardise(r)).collect();
        let n = d + 1;
        let objective = |w: &[f64], b: f64| -> f64 {
            let mut f = 0.0;
            for ((x, &y), &c) in z.iter().zip(labels).zip(weights) {
                let s = b + x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
                f += c * (softplus(s) - if y { s } else { 0.0 });
            }
            f + 0.5 * opts.lambda * w.iter().map(|v| v * v).sum::<f64>()
        };
        let mut f = objective(&model.weight, model.intercept);
        for _ in 0..opts.max_iter {
            // Gradient and Hessian over (w, b), b last.
            let mut g = vec![0.0; n];
            let mut h = vec![0.0; n * n];
            for ((x, &y), &c) in z.iter().zip(labels).zip(weights) {
                let s =
                    model.intercept + x.iter().zip(&model.weight).map(|(a, b)| a * b).sum::<f64>();
                let p = sigmoid(s);
                let r = c * (p - if y { 1.0 } else { 0.0 });
                let q = c * p * (1.0 - p);
                for i in 0..d {
                    g[i] += r * x[i];
                    let qi = q * x[i];
                    for j in 0..=i {
                        h[i * n + j] += qi * x[j];
                    }
                    h[d * n + i] += qi;
                }
                g[d] += r;
                h[d * n + d] += q;
            }
            for i in 0..n {
                for j in 0..i {
                    h[j * n + i] = h[i * n + j];
                }
            }
            for i in 0..d {
                g[i] += opts.lambda * model.weight[i];
                h[i * n + i] += opts.lambda;
            }
            h[d * n + d] += 1e-9;
            let Some(step) = cholesky_solve(&h, &g, n) else {
                break;
            };
            let mut t = 1.0;
            let mut improved = false;
            for _ in 0..30 {
                let w: Vec<f64> = model
                    .weight
                    .iter()
                    .zip(&step)
                    .map(|(w, s)| w - t * s)
                    .collect();
                let b = model.intercept - t * step[d];
                let nf = objective(&w, b);
                if nf.is_finite() && nf <= f {
                    let gain = f - nf;
                    model.weight = w;
                    model.intercept = b;
                    improved = gain > opts.tol * f.abs().max(1.0);
                    f = nf;
                    break;
                }
                t *= 0.5;
            }
            if !improved {
                break;
            }
        }
        model
    }

    fn standardise(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .map(|((x, m), s)| (x - m) / s)
            .collect()
    }

    /// The probability of the positive class for a row of raw features.
    pub fn predict(&self, row: &[f32]) -> f64 {
        let mut s = self.intercept;
        for (((&x, m), sc), w) in row
            .iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .zip(&self.weight)
        {
            s += w * ((f64::from(x) - m) / sc);
        }
        sigmoid(s)
    }

    /// Whether the stored vectors agree in length with `features` features and are finite.
    pub fn is_valid(&self, features: usize) -> bool {
        self.mean.len() == features
            && self.scale.len() == features
            && self.weight.len() == features
            && self.intercept.is_finite()
            && self.mean.iter().chain(&self.weight).all(|v| v.is_finite())
            && self.scale.iter().all(|s| s.is_finite() && *s > 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_a_small_system() {
        // [[4,2],[2,3]] x = [2,1]  =>  x = [0.5, 0]
        let x = cholesky_solve(&[4.0, 2.0, 2.0, 3.0], &[2.0, 1.0], 2).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12);
        assert!(cholesky_solve(&[1.0, 2.0, 2.0, 1.0], &[1.0, 1.0], 2).is_none());
    }

    #[test]
    fn intercept_only_fit_is_the_log_odds() {
        // One constant feature: the optimum predicts the base rate 3/4 (λ acts on w only).
        let rows = vec![vec![1.0]; 4];
        let m = LogReg::fit(
            &rows,
            &[true, true, true, false],
            &[1.0; 4],
            FitOptions::default(),
        );
        assert!(
            (m.predict(&[1.0]) - 0.75).abs() < 1e-6,
            "{}",
            m.predict(&[1.0])
        );
    }

    #[test]
    fn separable_data_is_fitted_finitely_and_ordered() {
        let rows: Vec<Vec<f64>> = (0..20).map(|i| vec![f64::from(i)]).collect();
        let labels: Vec<bool> = (0..20).map(|i| i >= 10).collect();
        let m = LogReg::fit(&rows, &labels, &[1.0; 20], FitOptions::default());
        assert!(m.is_valid(1));
        assert!(m.predict(&[0.0]) < 0.1 && m.predict(&[19.0]) > 0.9);
        assert!(m.predict(&[9.0]) < m.predict(&[10.0]));
    }

    #[test]
    fn the_gradient_vanishes_at_the_optimum() {
        // Noisy 2-d data: the fitted weights satisfy the penalised normal equations.
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        let mut s = 7u64;
        for _ in 0..200 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = (s >> 11) as f64 / (1u64 << 53) as f64;
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let b = (s >> 11) as f64 / (1u64 << 53) as f64;
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            rows.push(vec![a, b]);
            labels.push(u < sigmoid(3.0 * a - 2.0 * b));
        }
        let opts = FitOptions::default();
        let m = LogReg::fit(&rows, &labels, &vec![1.0; 200], opts);
        let mut g = [0.0; 3];
        for (r, &y) in rows.iter().zip(&labels) {
            let z = m.standardise(r);
            let p = sigmoid(m.intercept + z[0] * m.weight[0] + z[1] * m.weight[1]);
            let e = p - if y { 1.0 } else { 0.0 };
            g[0] += e * z[0];
            g[1] += e * z[1];
            g[2] += e;
        }
        g[0] += opts.lambda * m.weight[0];
        g[1] += opts.lambda * m.weight[1];
        assert!(g.iter().all(|v| v.abs() < 1e-6), "{g:?}");
        assert!(m.weight[0] > 0.0 && m.weight[1] < 0.0);
    }

    #[test]
    fn one_class_or_no_rows_gives_the_base_rate() {
        let m = LogReg::fit(&[], &[], &[], FitOptions::default());
        assert!((m.predict(&[]) - 0.5).abs() < 1e-9);
        let m = LogReg::fit(
            &[vec![1.0], vec![2.0]],
            &[true, true],
            &[1.0, 1.0],
            FitOptions::default(),
        );
        assert!(m.predict(&[1.0]) > 0.8);
    }
}
