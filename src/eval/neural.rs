//! The shipped neural network of a variant as an [`Evaluator`].

use std::cell::RefCell;

use crate::error::{Error, Result};
use crate::eval::{Evaluation, Evaluator};
use crate::nn::encoding::encode;
use crate::nn::{shipped, Mlp};
use crate::position::Position;
use crate::variant::Variant;

pub struct Network {
    net: Mlp,
    name: String,
}

impl Network {
    pub fn shipped(variant: Variant) -> Network {
        Network { net: shipped::network(variant).clone(), name: "network".into() }
    }

    /// A network being trained, under a name of its own.
    pub fn from_mlp(net: Mlp, name: &str) -> Network {
        Network { net, name: name.into() }
    }

    /// A network from a weights file (for comparing training runs), checked
    /// against the variant's input encoding.
    pub fn from_file(path: &str, variant: Variant) -> Result<Network> {
        let bytes = std::fs::read(path).map_err(|e| Error::new(format!("cannot read network file {path:?}: {e}")))?;
        let net = Mlp::from_bytes(&bytes)?;
        crate::nn::encoding::check_inputs(&net, variant, &format!("network file {path:?}"))?;
        Ok(Network { net, name: format!("network={path}") })
    }
}

thread_local! {
    /// Input and hidden buffers, reused by every evaluation on a thread.
    static BUFFERS: RefCell<(Vec<f32>, Vec<f32>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

impl Evaluator for Network {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        BUFFERS.with(|b| {
            let (x, hidden) = &mut *b.borrow_mut();
            x.resize(self.net.inputs, 0.0);
            encode(pos, x);
            Evaluation::new(self.net.forward(x, hidden))
        })
    }

    fn evaluate_batch(&self, positions: &[Position], out: &mut Vec<Evaluation>) {
        out.clear();
        BUFFERS.with(|b| {
            let (x, hidden) = &mut *b.borrow_mut();
            x.resize(self.net.inputs, 0.0);
            out.extend(positions.iter().map(|pos| {
                encode(pos, x);
                Evaluation::new(self.net.forward(x, hidden))
            }));
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;

    #[test]
    fn shipped_networks_give_sensible_probabilities() {
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            let e = Network::shipped(rules.variant).evaluate(&Position::start(rules));
            // The player on roll at the start is a small favourite, never a certainty.
            assert!(e.win > 0.4 && e.win < 0.8, "{:?} {e:?}", rules.variant);
            assert!(e.win_gammon < e.win && e.lose_gammon < 1.0 - e.win + 0.05);
        }
    }

    #[test]
    fn a_batch_gives_the_same_bits_as_one_position_at_a_time() {
        let rules = Rules::backgammon();
        let start = Position::start(rules);
        let mut plays = Vec::new();
        crate::movegen::MoveGen::new().legal_moves(&start, 6, 4, &mut plays);
        let mut positions: Vec<Position> = plays.iter().map(|m| m.position.flip()).collect();
        positions.push(start);
        assert!(positions.len() > 10);
        let net = Network::shipped(rules.variant);
        let mut batch = vec![Evaluation::default(); 3];
        net.evaluate_batch(&positions, &mut batch);
        let one_by_one: Vec<Evaluation> = positions.iter().map(|p| net.evaluate(p)).collect();
        assert_eq!(batch, one_by_one);
    }
}
