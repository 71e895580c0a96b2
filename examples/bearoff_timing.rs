fn main() {
    use tavla::bearoff::*;
    for rule in [BearoffRule::Standard, BearoffRule::Cascade] {
        let t = std::time::Instant::now();
        let _ = OneSided::build(rule);
        let a = t.elapsed();
        let _ = TwoSided::build(rule);
        println!("{rule:?}: one-sided {:?}, two-sided {:?}", a, t.elapsed() - a);
    }
}
