//! The trained networks, compiled into the library from `weights/`.
//!
//! All of them are produced by the training package outside the engine
//! (`coach/`): `python -m tavla_train rebuild --scale full` runs the recipe
//! from nothing (docs/training.md has its stages, seeds and sizes).

use crate::error::{Error, Result};
use crate::nn::Mlp;
use crate::variant::Variant;
use std::sync::OnceLock;

static BACKGAMMON: &[u8] = include_bytes!("../../weights/backgammon.tnn");
static NARDY: &[u8] = include_bytes!("../../weights/nardy.tnn");
static GULBARA: &[u8] = include_bytes!("../../weights/gulbara.tnn");
/// Backgammon's race network, from `python -m tavla_train race`.
static BACKGAMMON_RACE: &[u8] = include_bytes!("../../weights/backgammon-race.tnn");
/// The pruning networks, from `python -m tavla_train prune`.
static BACKGAMMON_PRUNE: &[u8] = include_bytes!("../../weights/backgammon-prune.tnn");
static NARDY_PRUNE: &[u8] = include_bytes!("../../weights/nardy-prune.tnn");
static GULBARA_PRUNE: &[u8] = include_bytes!("../../weights/gulbara-prune.tnn");

/// Whether a network is shipped for `variant`: not for Dutch backgammon and
/// acey-deucey, which nobody has trained yet.
pub fn require_network(variant: Variant) -> Result<()> {
    match variant {
        Variant::Backgammon | Variant::Nardy | Variant::GulBara => Ok(()),
        Variant::Dutch | Variant::AceyDeucey => {
            Err(Error::new(format!("no network is trained for {}: evaluate it with evaluator=\"heuristic\" (or \"pips\")", variant.name())))
        }
    }
}

/// The shipped network for a variant (parsed once). The caller has checked
/// [`require_network`]: every surface that reaches here does.
pub fn network(variant: Variant) -> &'static Mlp {
    static NETS: OnceLock<[Mlp; 3]> = OnceLock::new();
    let nets = NETS.get_or_init(|| [BACKGAMMON, NARDY, GULBARA].map(|bytes| Mlp::from_bytes(bytes).expect("shipped weights are valid")));
    match variant {
        Variant::Backgammon => &nets[0],
        Variant::Nardy => &nets[1],
        Variant::GulBara => &nets[2],
        Variant::Dutch | Variant::AceyDeucey => panic!("{}", require_network(variant).unwrap_err()),
    }
}

/// The shipped network for pure races, where a variant has one (backgammon:
/// the nardy games judge races well enough with their one network).
pub fn race_network(variant: Variant) -> Option<&'static Mlp> {
    static RACE: OnceLock<Mlp> = OnceLock::new();
    match variant {
        Variant::Backgammon => Some(RACE.get_or_init(|| Mlp::from_bytes(BACKGAMMON_RACE).expect("shipped weights are valid"))),
        Variant::Nardy | Variant::GulBara | Variant::Dutch | Variant::AceyDeucey => None,
    }
}

/// The shipped pruning network of a variant: a small network on the raw
/// inputs, trained on the full network's 0-ply values, that ranks the plays
/// of a roll inside a search.
pub fn prune_network(variant: Variant) -> Option<&'static Mlp> {
    static PRUNE: OnceLock<[Mlp; 3]> = OnceLock::new();
    let nets = PRUNE.get_or_init(|| {
        [BACKGAMMON_PRUNE, NARDY_PRUNE, GULBARA_PRUNE].map(|bytes| Mlp::from_bytes(bytes).expect("shipped weights are valid"))
    });
    Some(match variant {
        Variant::Backgammon => &nets[0],
        Variant::Nardy => &nets[1],
        Variant::GulBara => &nets[2],
        Variant::Dutch | Variant::AceyDeucey => return None,
    })
}
