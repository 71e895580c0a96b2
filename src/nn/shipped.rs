//! The trained networks, compiled into the library from `weights/`.
//!
//! All of them are produced by the training package outside the engine
//! (`coach/`): `python -m tavla_train rebuild --scale full` runs the recipe
//! from nothing (docs/training.md has its stages, seeds and sizes).

use crate::nn::Mlp;
use crate::variant::Variant;
use std::sync::OnceLock;

static BACKGAMMON: &[u8] = include_bytes!("../../weights/backgammon.tnn");
static NARDY: &[u8] = include_bytes!("../../weights/nardy.tnn");
static GULBARA: &[u8] = include_bytes!("../../weights/gulbara.tnn");
/// The reserve games' networks (their encoding adds each side's reserve).
static DUTCH: &[u8] = include_bytes!("../../weights/dutch.tnn");
static ACEY_DEUCEY: &[u8] = include_bytes!("../../weights/acey_deucey.tnn");
/// Backgammon's race network, from `python -m tavla_train race`.
static BACKGAMMON_RACE: &[u8] = include_bytes!("../../weights/backgammon-race.tnn");
/// The pruning networks, from `python -m tavla_train prune`.
static BACKGAMMON_PRUNE: &[u8] = include_bytes!("../../weights/backgammon-prune.tnn");
static NARDY_PRUNE: &[u8] = include_bytes!("../../weights/nardy-prune.tnn");
static GULBARA_PRUNE: &[u8] = include_bytes!("../../weights/gulbara-prune.tnn");

/// The shipped network for a variant (parsed once): every variant has one.
pub fn network(variant: Variant) -> &'static Mlp {
    static NETS: OnceLock<[Mlp; 5]> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        [BACKGAMMON, NARDY, GULBARA, DUTCH, ACEY_DEUCEY].map(|bytes| Mlp::from_bytes(bytes).expect("shipped weights are valid"))
    });
    match variant {
        Variant::Backgammon => &nets[0],
        Variant::Nardy => &nets[1],
        Variant::GulBara => &nets[2],
        Variant::Dutch => &nets[3],
        Variant::AceyDeucey => &nets[4],
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
