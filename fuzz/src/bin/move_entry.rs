//! AFL entry point of the `move_entry` target (see src/targets.rs).
fn main() {
    tavla_fuzz::targets::warm_up();
    afl::fuzz!(|data: &[u8]| tavla_fuzz::targets::move_entry(data));
}
