//! Runs inputs through the targets without AFL: `replay` replays the whole
//! corpus (`fuzz/corpus/<target>/*`); `replay TARGET FILE...` runs those
//! files (a crash AFL saved, say) through one target, so its panic message
//! and backtrace show.
use std::path::Path;
use std::time::Instant;

use tavla_fuzz::targets::{target, TARGETS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [name, files @ ..] = args.as_slice() {
        let t = target(name).unwrap_or_else(|| panic!("no target {name:?}"));
        for f in files {
            eprintln!("{name} <- {f}");
            t(&std::fs::read(f).unwrap());
        }
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for (name, t) in TARGETS {
        let start = Instant::now();
        let mut n = 0;
        let mut files: Vec<_> = std::fs::read_dir(root.join(name)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            t(&std::fs::read(&f).unwrap());
            n += 1;
        }
        println!("{name}: {n} files in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    }
}
