//! The bridge to isotonic smoothing (`chaff-smooth`), in the form the page model needs: the
//! tree is already contracted (small nodes hidden into their parent, counted by
//! multiplicity), so the exact solver runs on it directly.

/// Smooths `raw` scores on the tree given by `parent` (indices into the same arrays, in
/// pre-order, the root first), with per-node multiplicities and penalties; returns one value
/// per node with `y(parent) <= y(child)`. Should the solver refuse the input (it checks that
/// scores lie in [0, 1]), the raw scores are returned unchanged.
pub fn smooth(parent: &[u32], raw: &[f32], multiplicity: &[u32], gamma: &[f64]) -> Vec<f32> {
    let problem = chaff_smooth::Problem {
        parent,
        score: raw,
        multiplicity,
        penalty: gamma,
    };
    match chaff_smooth::solve(&problem) {
        Ok(solution) => solution.value,
        Err(_) => raw.to_vec(),
    }
}
