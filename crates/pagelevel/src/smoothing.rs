//! The bridge to isotonic smoothing (`chaff-smooth`), in the form the page model needs: the
//! tree is already contracted (small nodes hidden into their parent, counted by
//! multiplicity), so the exact solver runs on it directly.

/// Smooths `raw` scores on the tree given by `parent` (indices into the same arrays, in
/// pre-order, the root first), with per-node multiplicities and penalties; returns one value
/// per node with `y(parent) <= y(child)`, or the solver's reason for refusing the input (it
/// checks that scores lie in [0, 1]).
pub fn smooth(
    parent: &[u32],
    raw: &[f32],
    multiplicity: &[u32],
    gamma: &[f64],
) -> Result<Vec<f32>, chaff_smooth::SmoothError> {
    let problem = chaff_smooth::Problem {
        parent,
        score: raw,
        multiplicity,
        penalty: gamma,
    };
    chaff_smooth::solve(&problem).map(|solution| solution.value)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_refused_input_is_an_error_not_a_silent_fallback() {
        let ok = super::smooth(&[0, 0], &[0.2, 0.9], &[1, 1], &[0.0, 0.0]).unwrap();
        assert_eq!(ok.len(), 2);
        assert!(ok[0] <= ok[1]);
        let bad = super::smooth(&[0, 0], &[0.2, 1.5], &[1, 1], &[0.0, 0.0]);
        assert!(bad.unwrap_err().to_string().contains("outside [0, 1]"));
    }
}
