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
/// The race networks, from `python -m tavla_train race [--variant V]`.
static BACKGAMMON_RACE: &[u8] = include_bytes!("../../weights/backgammon-race.tnn");
static NARDY_RACE: &[u8] = include_bytes!("../../weights/nardy-race.tnn");
static GULBARA_RACE: &[u8] = include_bytes!("../../weights/gulbara-race.tnn");
/// The crashed-position network, from `python -m tavla_train race --class crashed`.
static BACKGAMMON_CRASHED: &[u8] = include_bytes!("../../weights/backgammon-crashed.tnn");
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

/// The shipped network for pure races ([`Position::is_race`]), where a variant
/// has one: backgammon, long nardy and gul bara (the reserve games' races are
/// judged by their one network).
///
/// [`Position::is_race`]: crate::position::Position::is_race
pub fn race_network(variant: Variant) -> Option<&'static Mlp> {
    static RACE: OnceLock<[Mlp; 3]> = OnceLock::new();
    without_reserve(&RACE, [BACKGAMMON_RACE, NARDY_RACE, GULBARA_RACE], variant)
}

/// The shipped network for crashed positions ([`Position::is_crashed`]):
/// backgammon's only (the class is the backgammon family's, and the reserve
/// games have one network for everything).
///
/// [`Position::is_crashed`]: crate::position::Position::is_crashed
pub fn crashed_network(variant: Variant) -> Option<&'static Mlp> {
    static CRASHED: OnceLock<Mlp> = OnceLock::new();
    (variant == Variant::Backgammon)
        .then(|| CRASHED.get_or_init(|| Mlp::from_bytes(BACKGAMMON_CRASHED).expect("shipped weights are valid")))
}

/// The shipped pruning network of a variant: a small network on the raw
/// inputs, trained on the full network's 0-ply values, that ranks the plays
/// of a roll inside a search.
pub fn prune_network(variant: Variant) -> Option<&'static Mlp> {
    static PRUNE: OnceLock<[Mlp; 3]> = OnceLock::new();
    without_reserve(&PRUNE, [BACKGAMMON_PRUNE, NARDY_PRUNE, GULBARA_PRUNE], variant)
}

/// The network of `variant` among one each for backgammon, long nardy and gul
/// bara (parsed into `cell` once); the reserve games have none of the kind.
fn without_reserve(cell: &'static OnceLock<[Mlp; 3]>, bytes: [&[u8]; 3], variant: Variant) -> Option<&'static Mlp> {
    let nets = cell.get_or_init(|| bytes.map(|b| Mlp::from_bytes(b).expect("shipped weights are valid")));
    Some(match variant {
        Variant::Backgammon => &nets[0],
        Variant::Nardy => &nets[1],
        Variant::GulBara => &nets[2],
        Variant::Dutch | Variant::AceyDeucey => return None,
    })
}
