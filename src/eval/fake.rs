//! A deterministic stand-in evaluator for tests: the odds follow the pip
//! counts only, so search results can be checked by hand.

use super::{sigmoid, Evaluation, Evaluator};
use crate::position::{Position, ME, THEM};

/// Win chance `sigmoid((their pips - my pips) / 20)`, no gammons.
pub struct PipCount;

impl Evaluator for PipCount {
    fn name(&self) -> String {
        "pips".into()
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        let p = pos.pips();
        let win = sigmoid((p[THEM] as f32 - p[ME] as f32) / 20.0);
        Evaluation { win, ..Evaluation::default() }
    }
}
