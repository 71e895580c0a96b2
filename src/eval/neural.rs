//! The shipped neural network of a variant as an [`Evaluator`]: in backgammon
//! and the nardy games a contact network and a race network, the race one
//! judging every position where contact is broken for good, and in backgammon
//! a third for crashed positions ([`Position::is_crashed`]).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::eval::{Evaluation, Evaluator};
use crate::nn::encoding::{encode_sparse, raw_difference, raw_input_count, RawBase, SIDE_POINT_INPUTS};
use crate::nn::player::{NetClass, Nets};
use crate::nn::quantized::QuantizedFirstLayer;
use crate::nn::{shipped, Mlp};
use crate::position::Position;
use crate::variant::Variant;

pub struct Network {
    net: Mlp,
    /// The network for pure races, where the variant has one (backgammon, the nardy games).
    race: Option<Mlp>,
    /// The network for crashed positions, where the variant has one (backgammon).
    crashed: Option<Mlp>,
    /// The pruning network ranking contact plays, where the variant has one
    /// (the shipped networks; see [`Evaluator::prune_scores`]).
    pruner: Option<Mlp>,
    /// The contact network's first layer in int16 ([`QuantizedFirstLayer`]),
    /// used in its place when set (`network-int16`; off by default).
    quantized: Option<QuantizedFirstLayer>,
    name: String,
    /// Names these weights in the thread's [`Prefixes`] (new for every
    /// network built, so a prefix is never taken for another network's).
    id: u64,
}

/// The source of [`Network::id`].
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

fn new_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl Network {
    pub fn shipped(variant: Variant) -> Network {
        Network {
            net: shipped::network(variant).clone(),
            race: shipped::race_network(variant).cloned(),
            crashed: shipped::crashed_network(variant).cloned(),
            pruner: shipped::prune_network(variant).filter(|p| p.inputs == raw_input_count(variant)).cloned(),
            quantized: None,
            name: "network".into(),
            id: new_id(),
        }
    }

    /// The same networks with the contact network's first layer in int16
    /// ([`QuantizedFirstLayer`]): values within the tolerance stated in
    /// benches/README.md ("Search speed") of the float pass, not the same bits.
    pub fn with_int16(self) -> Network {
        let quantized = Some(QuantizedFirstLayer::new(&self.net));
        Network { quantized, name: format!("{}-int16", self.name), id: new_id(), ..self }
    }

    /// A network being trained, under a name of its own.
    pub fn from_mlp(net: Mlp, name: &str) -> Network {
        Network { net, race: None, crashed: None, pruner: None, quantized: None, name: name.into(), id: new_id() }
    }

    /// The same network with `race` (if any) judging every pure race.
    pub fn with_race(self, race: Option<Mlp>) -> Network {
        Network { race, id: new_id(), ..self }
    }

    /// The same network with `crashed` (if any) judging every crashed position.
    pub fn with_crashed(self, crashed: Option<Mlp>) -> Network {
        Network { crashed, id: new_id(), ..self }
    }

    /// A network from a weights file (for comparing training runs), checked
    /// against the variant's input encoding; `CONTACT.tnn,RACE.tnn` adds a
    /// network for pure races, `CONTACT.tnn,RACE.tnn,CRASHED.tnn` one for
    /// crashed positions too.
    pub fn from_file(path: &str, variant: Variant) -> Result<Network> {
        let mut files = path.split(',');
        let contact = files.next().unwrap_or_default();
        let mut next = || files.next().map(|file| read_network(file, variant)).transpose();
        let (race, crashed) = (next()?, next()?);
        if files.next().is_some() {
            return Err(Error::new(format!(
                "network files {path:?}: at most three, contact, race and crashed (CONTACT.tnn,RACE.tnn,CRASHED.tnn)"
            )));
        }
        Ok(Network {
            net: read_network(contact, variant)?,
            race,
            crashed,
            pruner: None,
            quantized: None,
            name: format!("network={path}"),
            id: new_id(),
        })
    }

    /// The network that judges `pos` and its class (the same rule as self-play's players).
    #[inline]
    fn net_for(&self, pos: &Position) -> (NetClass, &Mlp) {
        Nets { contact: &self.net, race: self.race.as_ref(), crashed: self.crashed.as_ref() }.judge(pos)
    }
}

fn read_network(path: &str, variant: Variant) -> Result<Mlp> {
    let bytes = std::fs::read(path).map_err(|e| Error::new(format!("cannot read network file {path:?}: {e}")))?;
    let net = Mlp::from_bytes(&bytes)?;
    crate::nn::encoding::check_inputs(&net, variant, &format!("network file {path:?}"))?;
    Ok(net)
}

/// [`Network::prune_scores`]'s buffers (see `PRUNE_BUFFERS`).
type PruneBuffers = (Vec<(u32, f32)>, Vec<f32>);

/// The hidden sums of the player on roll's point inputs (the encoding's
/// first, [`SIDE_POINT_INPUTS`]) of recent evaluations on a thread: every
/// play of the opponent under a node of the search (a roll's plays, and the
/// 21 rolls' plays below a chance node) leaves the player then on roll's
/// checkers where they were, unless it hits, so their share of the first
/// layer is added once. The sums carried on are the ones the whole pass
/// would make ([`Mlp::evaluate_sparse_after`]): the same bits.
#[derive(Default)]
struct Prefixes {
    slots: [Prefix; 2],
    /// The slot the next new prefix replaces.
    next: usize,
}

/// One prefix: whose it is ([`Network::id`], and which of its networks),
/// its inputs and their hidden sums (float, or the int16 layer's
/// integers where the network has one).
#[derive(Default)]
struct Prefix {
    owner: Option<(u64, NetClass)>,
    inputs: Vec<(u32, f32)>,
    sums: Vec<f32>,
    quantized: Vec<i32>,
}

impl Prefixes {
    /// The prefix of `head` for `owner`'s network, kept or made by `fill`.
    fn get(&mut self, owner: (u64, NetClass), head: &[(u32, f32)], fill: impl FnOnce(&mut Prefix)) -> &Prefix {
        let k = match self.slots.iter().position(|p| p.owner == Some(owner) && p.inputs.as_slice() == head) {
            Some(k) => k,
            None => {
                let k = self.next;
                self.next = (k + 1) % self.slots.len();
                let p = &mut self.slots[k];
                p.owner = Some(owner);
                p.inputs.clear();
                p.inputs.extend_from_slice(head);
                fill(p);
                k
            }
        };
        &self.slots[k]
    }
}

thread_local! {
    /// The sparse inputs, reused by every evaluation on a thread.
    static BUFFER: RefCell<Vec<(u32, f32)>> = const { RefCell::new(Vec::new()) };
    /// The network evaluations' shared prefixes of hidden sums.
    static PREFIXES: RefCell<Prefixes> = RefCell::new(Prefixes::default());
    /// The pruning network's: inputs (the first sibling's, then each one's
    /// difference to it) and the first one's hidden sums.
    static PRUNE_BUFFERS: RefCell<PruneBuffers> = const { RefCell::new((Vec::new(), Vec::new())) };
}

impl Evaluator for Network {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        let mut out = Evaluation::default();
        self.evaluate_each(std::slice::from_ref(pos), |e| out = e);
        out
    }

    /// The pruning network's equities, for contact positions only (races
    /// are judged by the race network, which the pruner was not trained on).
    /// The positions are a roll's plays, so the hidden sums of each come
    /// from those of the first and the raw inputs that differ
    /// ([`Mlp::outputs_from_sums_plus`], one fused pass each): a
    /// deterministic function of the batch, within 1e-5 of evaluating each
    /// on its own.
    fn prune_scores(&self, positions: &[Position], out: &mut Vec<f32>) -> bool {
        let Some(pruner) = &self.pruner else { return false };
        if positions.iter().any(|p| p.is_race()) {
            return false;
        }
        out.clear();
        PRUNE_BUFFERS.with(|b| {
            let (inputs, base) = &mut *b.borrow_mut();
            let Some(first) = positions.first() else { return };
            encode_sparse(first, pruner.inputs, inputs);
            pruner.hidden_sums(inputs, base);
            out.push(Evaluation::new(pruner.outputs_from_sums(base)).equity());
            let first = RawBase::new(first);
            for pos in &positions[1..] {
                raw_difference(&first, pos, inputs);
                out.push(Evaluation::new(pruner.outputs_from_sums_plus(base, inputs)).equity());
            }
        });
        true
    }

    fn evaluate_batch(&self, positions: &[Position], out: &mut Vec<Evaluation>) {
        out.clear();
        self.evaluate_each(positions, |e| out.push(e));
    }
}

impl Network {
    /// Evaluates each position in turn, giving `put` each evaluation: the
    /// player on roll's point inputs from the thread's [`Prefixes`], the
    /// rest of the pass from there.
    fn evaluate_each(&self, positions: &[Position], mut put: impl FnMut(Evaluation)) {
        BUFFER.with(|b| {
            PREFIXES.with(|p| {
                let (active, prefixes) = (&mut *b.borrow_mut(), &mut *p.borrow_mut());
                for pos in positions {
                    let (class, net) = self.net_for(pos);
                    encode_sparse(pos, net.inputs, active);
                    let (head, rest) = active.split_at(active.partition_point(|&(i, _)| (i as usize) < SIDE_POINT_INPUTS));
                    let out = match &self.quantized {
                        Some(q) if class == NetClass::Contact => {
                            let prefix = prefixes.get((self.id, class), head, |p| {
                                p.quantized.clear();
                                p.quantized.resize(net.hidden, 0);
                                q.add_sums(head, &mut p.quantized);
                            });
                            q.evaluate_after(net, &prefix.quantized, rest)
                        }
                        _ => net.evaluate_sparse_after(
                            &prefixes.get((self.id, class), head, |p| net.hidden_sums(head, &mut p.sums)).sums,
                            rest,
                        ),
                    };
                    put(Evaluation::new(out));
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Rules;
    use crate::Variant;

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
    fn the_race_network_judges_races_and_only_races() {
        let bg = Rules::backgammon();
        let contact = shipped::network(Variant::Backgammon).clone();
        let race_net = Mlp::new(contact.inputs, 8, 5);
        let net = Network {
            net: contact.clone(),
            race: Some(race_net.clone()),
            crashed: None,
            pruner: None,
            quantized: None,
            name: "test".into(),
            id: new_id(),
        };
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[8] = 10;
        mine[2] = 5;
        theirs[10] = 15;
        let race = Position::from_arrays(bg, &mine, &theirs).unwrap();
        assert!(race.is_race());
        let start = Position::start(bg);
        let mut x = Vec::new();
        let mut by = |mlp: &Mlp, pos: &Position| {
            encode_sparse(pos, mlp.inputs, &mut x);
            Evaluation::new(mlp.evaluate_sparse(&x))
        };
        assert_eq!(net.evaluate(&race), by(&race_net, &race));
        assert_eq!(net.evaluate(&start), by(&contact, &start));
        let mut batch = Vec::new();
        net.evaluate_batch(&[start, race], &mut batch);
        assert_eq!(batch, vec![net.evaluate(&start), net.evaluate(&race)]);
        // The shipped engine has one for backgammon and the nardy games, each on its variant's
        // inputs; the reserve games' one network judges their races too.
        for variant in [Variant::Backgammon, Variant::Nardy, Variant::GulBara] {
            let shipped_race = shipped::race_network(variant).unwrap();
            crate::nn::encoding::check_inputs(shipped_race, variant, "the shipped race network").unwrap();
            assert!(Network::shipped(variant).race.is_some());
        }
        assert!(Network::shipped(Variant::Dutch).race.is_none() && Network::shipped(Variant::AceyDeucey).race.is_none());
    }

    #[test]
    fn the_search_evaluation_is_the_training_pass_within_a_millionth() {
        use crate::nn::encoding::encode;
        for rules in [Rules::backgammon(), Rules::nardy(), Rules::gulbara()] {
            let net = Network::shipped(rules.variant);
            let mut plays = Vec::new();
            crate::movegen::MoveGen::new().legal_moves(&Position::start(rules), 6, 4, &mut plays);
            for m in &plays {
                let pos = m.position.flip();
                let mut x = vec![0.0; net.net.inputs];
                encode(&pos, &mut x);
                let (a, b) = (net.evaluate(&pos).to_array(), net.net_for(&pos).1.evaluate(&x));
                for k in 0..5 {
                    assert!((a[k] - b[k]).abs() <= 1e-6, "{:?} {k}: {} vs {}", rules.variant, a[k], b[k]);
                }
            }
        }
    }

    /// Of the bench positions' decisions with more than six contact plays (every roll of each),
    /// how many keep the full network's best play among the pruner's best six, and how many there are.
    fn best_among_pruned_six(net: &Network, variant: Variant) -> (usize, usize) {
        let (mut kept, mut decisions) = (0, 0);
        let mut movegen = crate::movegen::MoveGen::new();
        let mut plays = Vec::new();
        let mut scores = Vec::new();
        for (pos, _, _) in crate::bench::bench_positions(variant) {
            for d1 in 1..=6u8 {
                for d2 in 1..=d1 {
                    plays.clear();
                    movegen.legal_moves(&pos, d1, d2, &mut plays);
                    let children: Vec<Position> = plays.iter().map(|m| m.position.flip()).collect();
                    if children.len() <= 6 || !net.prune_scores(&children, &mut scores) {
                        continue;
                    }
                    let full: Vec<f32> = children.iter().map(|c| net.evaluate(c).equity()).collect();
                    let best = (0..full.len()).min_by(|&a, &b| full[a].total_cmp(&full[b])).unwrap();
                    decisions += 1;
                    kept += usize::from(scores.iter().filter(|&&s| s < scores[best]).count() < 6);
                }
            }
        }
        (kept, decisions)
    }

    #[test]
    fn pruning_scores_are_the_pruner_s_equities() {
        for variant in [Variant::Backgammon, Variant::Nardy, Variant::GulBara] {
            let net = Network::shipped(variant);
            let pruner = net.pruner.as_ref().expect("every variant ships a pruner");
            let mut plays = Vec::new();
            crate::movegen::MoveGen::new().legal_moves(&crate::bench::bench_positions(variant)[2].0, 1, 1, &mut plays);
            let children: Vec<Position> = plays.iter().map(|m| m.position.flip()).collect();
            assert!(children.len() > 10 && children.iter().all(|c| !c.is_race()), "{variant:?}");
            let mut scores = Vec::new();
            assert!(net.prune_scores(&children, &mut scores));
            let mut x = Vec::new();
            for (c, s) in children.iter().zip(&scores) {
                encode_sparse(c, pruner.inputs, &mut x);
                let alone = Evaluation::new(pruner.evaluate_sparse(&x)).equity();
                assert!((s - alone).abs() <= 1e-5, "{variant:?}: {s} vs {alone}");
            }
            // It ranks like the full network: on the bench positions' contact decisions, the full
            // network's best play is among the pruner's best six in most of them (the search keeps six).
            let (kept, decisions) = best_among_pruned_six(&net, variant);
            assert!(decisions >= 20 && kept * 10 >= decisions * 9, "{variant:?}: {kept} of {decisions}");
        }
        // No pruning of races.
        let bg = Rules::backgammon();
        let mut race = [0i64; 25];
        race[3] = 15;
        let race = Position::from_arrays(bg, &race, &race).unwrap();
        let mut scores = Vec::new();
        assert!(!Network::shipped(bg.variant).prune_scores(&[race], &mut scores));
    }

    #[test]
    fn the_crashed_network_judges_crashed_positions_and_only_those() {
        let bg = Rules::backgammon();
        let contact = shipped::network(Variant::Backgammon);
        let crashed_net = Mlp::new(contact.inputs, 8, 7);
        let net = Network::shipped(Variant::Backgammon).with_crashed(Some(crashed_net.clone()));
        // I have ten checkers off and five on my 2 and 3 points; the opponent
        // keeps an anchor on my 1 point (their 24), so contact lasts.
        let mut mine = [0i64; 25];
        mine[1] = 3;
        mine[2] = 2;
        let mut theirs = [0i64; 25];
        theirs[23] = 2;
        theirs[5] = 13;
        let crashed = Position::from_arrays(bg, &mine, &theirs).unwrap();
        assert!(crashed.is_crashed() && !crashed.is_race());
        let (start, mut x) = (Position::start(bg), Vec::new());
        let mut by = |mlp: &Mlp, pos: &Position| {
            encode_sparse(pos, mlp.inputs, &mut x);
            Evaluation::new(mlp.evaluate_sparse(&x))
        };
        assert_eq!(net.evaluate(&crashed), by(&crashed_net, &crashed));
        assert_eq!(net.evaluate(&start), by(contact, &start));
        let mut batch = Vec::new();
        net.evaluate_batch(&[crashed, start, crashed.flip()], &mut batch);
        assert_eq!(batch, vec![by(&crashed_net, &crashed), by(contact, &start), by(&crashed_net, &crashed.flip())]);
        // Only backgammon ships one, on its own inputs.
        crate::nn::encoding::check_inputs(shipped::crashed_network(Variant::Backgammon).unwrap(), Variant::Backgammon, "crashed").unwrap();
        for variant in [Variant::Nardy, Variant::GulBara, Variant::Dutch, Variant::AceyDeucey] {
            assert!(Network::shipped(variant).crashed.is_none(), "{variant:?}");
        }
    }

    #[test]
    fn a_file_pair_names_a_contact_and_a_race_network() {
        let dir = std::env::temp_dir().join(format!("tavla-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.tnn");
        std::fs::write(&path, shipped::network(Variant::Backgammon).to_bytes()).unwrap();
        let p = path.to_str().unwrap();
        let pair = Network::from_file(&format!("{p},{p}"), Variant::Backgammon).unwrap();
        assert!(pair.race.is_some() && pair.crashed.is_none());
        let three = Network::from_file(&format!("{p},{p},{p}"), Variant::Backgammon).unwrap();
        assert!(three.race.is_some() && three.crashed.is_some());
        let err = Network::from_file(&format!("{p},{p},{p},{p}"), Variant::Backgammon).err().unwrap().to_string();
        assert!(err.contains("at most three"), "{err}");
        assert!(Network::from_file(p, Variant::Backgammon).unwrap().race.is_none());
        let err = Network::from_file(&format!("{p},{p}.missing"), Variant::Backgammon).err().unwrap().to_string();
        assert!(err.contains("c.tnn.missing"), "{err}");
        let err = Network::from_file(p, Variant::Nardy).err().unwrap().to_string();
        assert!(err.contains("c.tnn"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shared_prefixes_give_the_bits_of_a_whole_pass() {
        // The plays of every roll below a few nodes (in backgammon hits among
        // them, which change the prefix), alternating with a second network
        // of the same shape (and in backgammon the race network) on the same
        // thread: each evaluation is its network's whole pass, bit for bit.
        let whole = |mlp: &Mlp, pos: &Position| {
            let mut x = Vec::new();
            encode_sparse(pos, mlp.inputs, &mut x);
            mlp.evaluate_sparse(&x).map(f32::to_bits)
        };
        let mut movegen = crate::movegen::MoveGen::new();
        for variant in [Variant::Backgammon, Variant::Nardy, Variant::GulBara] {
            let net = Network::shipped(variant);
            let other = Network::from_mlp(Mlp::new(net.net.inputs, net.net.hidden, 3), "other");
            // The int16 layer's prefixes too: its whole pass's bits (the race network stays float).
            let int16 = Network::shipped(variant).with_int16();
            let q = int16.quantized.as_ref().expect("an int16 layer");
            let whole_int16 = |pos: &Position| {
                let mut x = Vec::new();
                let (class, judge) = int16.net_for(pos);
                encode_sparse(pos, judge.inputs, &mut x);
                match class {
                    NetClass::Contact => q.evaluate_after(&int16.net, &vec![0; int16.net.hidden], &x).map(f32::to_bits),
                    _ => judge.evaluate_sparse(&x).map(f32::to_bits),
                }
            };
            let (mut plays, mut seen, mut hits) = (Vec::new(), 0, 0);
            for (node, _, _) in crate::bench::bench_positions(variant).into_iter().take(4) {
                for (d1, d2, _) in crate::dice::ROLLS {
                    movegen.legal_moves(&node, d1, d2, &mut plays);
                    let replies: Vec<Position> = plays.iter().map(|m| m.position.flip()).collect();
                    let (mut batch, mut batch_int16) = (Vec::new(), Vec::new());
                    net.evaluate_batch(&replies, &mut batch);
                    int16.evaluate_batch(&replies, &mut batch_int16);
                    for ((pos, e), q) in replies.iter().zip(&batch).zip(&batch_int16) {
                        assert_eq!(q.to_array().map(f32::to_bits), whole_int16(pos), "{variant:?}");
                        assert_eq!(e.to_array().map(f32::to_bits), whole(net.net_for(pos).1, pos), "{variant:?}");
                        assert_eq!(other.evaluate(pos).to_array().map(f32::to_bits), whole(&other.net, pos), "{variant:?}");
                        assert_eq!(net.evaluate(pos), *e);
                        seen += 1;
                        hits += (pos.bar(crate::position::ME) > node.flip().bar(crate::position::ME)) as usize;
                    }
                }
            }
            assert!(seen > 300, "{variant:?}: {seen} plays");
            assert!(variant != Variant::Backgammon || hits > 10, "{hits} hits");
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
