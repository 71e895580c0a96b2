//! The fuzz corpus, replayed in `cargo test` without AFL: every file under
//! `fuzz/corpus/<target>/` (the seeds, and the inputs that once crashed a
//! target, kept as regressions) goes through that target's function, the
//! same code AFL runs (`fuzz/src/targets.rs`, compiled here as a module; the
//! fuzz crate itself is not built). Deterministic, and well under a second.

#[allow(dead_code)]
#[path = "../fuzz/src/targets.rs"]
mod targets;

use std::path::Path;
use std::time::Instant;

#[test]
fn every_corpus_file_replays_through_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let start = Instant::now();
    let mut dirs: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    let names: Vec<String> = dirs.iter().map(|d| d.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for (name, _) in targets::TARGETS {
        assert!(names.iter().any(|n| n == name), "target {name} has no corpus in {}", root.display());
    }
    let mut failures = Vec::new();
    let mut replayed = 0;
    for (dir, name) in dirs.iter().zip(&names) {
        let target = targets::target(name).unwrap_or_else(|| panic!("{} is no target's corpus", dir.display()));
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        assert!(!files.is_empty(), "{} is empty", dir.display());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                failures.push(file.display().to_string());
            }
            replayed += 1;
        }
    }
    assert!(failures.is_empty(), "these corpus files panic their targets: {failures:#?}");
    println!("{replayed} corpus files replayed in {:.2} s", start.elapsed().as_secs_f64());
}
