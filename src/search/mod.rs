//! Expectiminimax search over the dice, in GNU Backgammon's ply convention.
//!
//! - **0-ply** is the static evaluation: a move is judged by evaluating the
//!   position it leads to (from the opponent's side, on roll, then inverted).
//! - **n-ply** judges a position with the opponent on roll by averaging, over
//!   the 21 distinct rolls with their probabilities (1/36 for doubles, 2/36
//!   otherwise), the value of the opponent's best play of that roll, each play
//!   judged at (n-1)-ply. So 1-ply looks at every reply of the opponent and
//!   evaluates statically after it.
//!
//! Every static evaluation goes through [`static_evaluation`]: finished games
//! are scored exactly and bear-offs come from the exact tables; a position
//! whose evaluation is exact is never searched deeper.
//!
//! **Move filters**, in the manner of GNU Backgammon: before a play is judged
//! at n-ply (n >= 1), all plays of the roll are judged at 0-ply and only the
//! best `keep` within `margin` equity of the best go on to n-ply. The root has
//! its own, wider filter. **Cache**: each worker keeps a direct-mapped cache
//! of static evaluations. **Parallelism**: the root candidates (or, to
//! evaluate a position, the 21 rolls) are shared out over threads, each with
//! its own move generator and cache. **Node count**: every static evaluation
//! the search asks for counts one node, cache hits included, so the count
//! depends only on the position, the plies and the filters, not on threads.
//!
//! Gul bara: a position does not know how many rolls the game has seen, so
//! the search is told (`rolls`, by default past the first rolls): a double
//! that cascades is one choice of the mover among the distinct results of
//! its part of the cascade, and the opponent's among the results of its
//! share ([`crate::cascade`]). At the root every part is listed (up to
//! `cascade_width` states a number); inside the tree parts and shares are
//! pruned to the inner filter's width step by step.
//!
//! **Cancellation**: a search given a [`Cancel`] (in its config) checks it
//! at every node it would expand; once the cancel is set (by another thread,
//! or by its deadline passing) no node is expanded any more, so the search
//! ends within moments with a result that means nothing, and the caller
//! asks [`Cancel::is_cancelled`] before using it (the Python bindings raise
//! `tavla.Cancelled`). The HTTP service cancels a search past its time limit
//! this way, so the worker is free at once.

pub mod cubeful;

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cascade::{cascades, pruned_parts, CascadePart};
use crate::dice::rolls as all_rolls;
use crate::eval::{exact_evaluation, static_evaluation, Evaluation, Evaluator, Source};
use crate::movegen::{Move, MoveGen};
use crate::parallel::par_map_states;
use crate::position::Position;

/// Keep the best `min` plays, and more up to `keep` while they are within
/// `margin` equity of the best one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    pub min: usize,
    pub keep: usize,
    pub margin: f32,
}

/// A way to stop searches early: a flag any thread may set with
/// [`Cancel::cancel`], and an optional deadline. Clones share the flag. The
/// default cancels nothing (and costs one branch a node).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Option<Arc<CancelState>>);

#[derive(Debug)]
struct CancelState {
    flag: AtomicBool,
    deadline: Option<Instant>,
}

impl Cancel {
    /// A cancel that is set by [`Cancel::cancel`], or by itself once `after`
    /// has passed (from now), where given (a time past what the clock can
    /// hold is no deadline).
    pub fn new(after: Option<Duration>) -> Cancel {
        let deadline = after.and_then(|d| Instant::now().checked_add(d));
        Cancel(Some(Arc::new(CancelState { flag: AtomicBool::new(false), deadline })))
    }

    /// Stops every search that holds this cancel (or a clone of it).
    pub fn cancel(&self) {
        if let Some(state) = &self.0 {
            state.flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether it has been cancelled or its deadline has passed.
    pub fn is_cancelled(&self) -> bool {
        match &self.0 {
            None => false,
            Some(state) => {
                if state.flag.load(Ordering::Relaxed) {
                    return true;
                }
                let late = state.deadline.is_some_and(|d| Instant::now() >= d);
                if late {
                    state.flag.store(true, Ordering::Relaxed);
                }
                late
            }
        }
    }
}

/// Two cancels are equal when they are the same one (or both none): a
/// config's equality is about what it searches, and a cancel changes no
/// result that is used.
impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// 0 = static evaluation of each play's result.
    pub ply: u8,
    /// Filter on the root's plays before the deep search.
    pub root_filter: Filter,
    /// Filter on every play choice inside the tree.
    pub inner_filter: Filter,
    /// Use the exact bear-off tables.
    pub use_bearoff: bool,
    /// Worker threads; 0 = all cores.
    pub threads: usize,
    /// log2 of the evaluation cache slots per worker.
    pub cache_bits: u8,
    /// Gul bara: search a cascading double as one decision of the mover
    /// and one of the opponent ([`crate::cascade`]); off, a double is
    /// searched as an ordinary double (the engine before cascades were
    /// searched, for comparisons).
    pub whole_cascades: bool,
    /// Gul bara, the root of a cascade: the most states kept after each
    /// number (the rest pruned by 0-ply); with enough of them the hint lists
    /// every distinct outcome of the mover's part.
    pub cascade_width: usize,
    /// Stops the search early (see the module doc); none by default.
    pub cancel: Cancel,
    /// At the leaves (a roll's plays judged at 0-ply, the mover taking the
    /// best): when the roll has more plays than this and the evaluator has
    /// a pruning network ([`Evaluator::prune_scores`]), only the best
    /// `prune` by that network get the full evaluation. 0: never prune.
    pub prune: usize,
    /// Inside the tree, before the inner filter's 0-ply pass (a roll's
    /// plays judged `ply` >= 1 deep, no cascade): when the roll has more
    /// plays than this and the evaluator has a pruning network, only its
    /// best `prune_filter` are judged at 0-ply (gnubg's pruning nets do
    /// the same), so the full network never sees the rest. 0: never.
    pub prune_filter: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            ply: 1,
            root_filter: Filter { min: 3, keep: 8, margin: 0.16 },
            inner_filter: Filter { min: 1, keep: 2, margin: 0.04 },
            use_bearoff: true,
            threads: 0,
            cache_bits: 16,
            whole_cascades: true,
            cascade_width: 2_000,
            cancel: Cancel::default(),
            prune: DEFAULT_PRUNE,
            prune_filter: DEFAULT_PRUNE_FILTER,
        }
    }
}

/// [`SearchConfig::prune`] by default (see benches/README.md, "Search speed").
pub const DEFAULT_PRUNE: usize = 6;
/// [`SearchConfig::prune_filter`] by default (see benches/README.md, "Search speed").
pub const DEFAULT_PRUNE_FILTER: usize = 8;

impl SearchConfig {
    fn thread_count(&self) -> usize {
        crate::threads_or_all_cores(self.threads)
    }
}

/// One play of the root with its evaluation (the mover's view, after the play).
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The play; for a gul bara cascade its last step, with the position
    /// after the mover's whole part (the part itself in `cascade`).
    pub play: Move,
    /// A cascade: every step of the mover's part and what it hands over.
    pub cascade: Option<Arc<CascadePart>>,
    pub evaluation: Evaluation,
    pub equity: f32,
    /// The ply it was judged at (plays cut by the root filter keep 0).
    pub ply: u8,
}

/// The root's plays, best first, and the nodes searched.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub candidates: Vec<Candidate>,
    pub nodes: u64,
}

/// A direct-mapped cache of static evaluations. Its slots come from a
/// pool kept per thread (a deep search's cache is megabytes: zeroing a new
/// one for every decision cost more than a 1-ply search): each cache has a
/// generation of its own, and a slot written by an older one reads as empty.
struct EvalCache {
    slots: Vec<Slot>,
    mask: usize,
    generation: u64,
}

#[derive(Clone, Copy)]
struct Slot {
    generation: u64,
    pos: Position,
    evaluation: Evaluation,
    exact: bool,
}

thread_local! {
    /// Slot arrays of dropped caches, for the next ones on this thread.
    static SLOT_POOL: std::cell::RefCell<Vec<Vec<Slot>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Every cache's generation is new (0: a slot never written).
static NEXT_GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Slot arrays kept per thread.
const POOLED: usize = 2;

impl Drop for EvalCache {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        // A thread being torn down has no pool left to return to: the slots are freed.
        let _ = SLOT_POOL.try_with(|pool| {
            let mut pool = pool.borrow_mut();
            if pool.len() < POOLED {
                pool.push(slots);
            }
        });
    }
}

/// A small multiply-rotate hasher: the cache needs speed, not resistance.
#[derive(Default)]
struct QuickHasher(u64);

impl Hasher for QuickHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

impl EvalCache {
    fn new(bits: u8) -> EvalCache {
        let size = 1usize << bits;
        let pooled = SLOT_POOL.try_with(|pool| {
            let mut pool = pool.borrow_mut();
            let k = pool.iter().position(|v| v.len() == size)?;
            Some(pool.swap_remove(k))
        });
        let slots = pooled.ok().flatten().unwrap_or_else(|| {
            let empty = Slot {
                generation: 0,
                pos: Position::start(crate::variant::Rules::backgammon()),
                evaluation: Evaluation::default(),
                exact: false,
            };
            vec![empty; size]
        });
        let generation = NEXT_GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        EvalCache { slots, mask: size - 1, generation }
    }

    fn slot(&self, pos: &Position) -> usize {
        let mut h = QuickHasher::default();
        pos.hash(&mut h);
        (h.finish() >> 7) as usize & self.mask
    }

    /// Asks the memory for `slot` ahead of [`EvalCache::get_at`]: the slots
    /// of a deep search's cache are megabytes, mostly out of the processor's
    /// caches, so a batch's slots are fetched together. A hint only.
    #[inline]
    fn prefetch(&self, slot: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let first = &self.slots[slot] as *const Slot as *const i8;
            // SAFETY: SSE is part of every x86_64 processor, and a prefetch
            // is a hint that reads nothing and faults on no address. A slot
            // spans two cache lines (its position, then its evaluation).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(64));
            }
        }
    }

    /// The cached evaluation of `pos` and whether it is exact, or on a miss
    /// the slot to [`EvalCache::put`] it in.
    fn get(&self, pos: &Position) -> std::result::Result<(Evaluation, bool), usize> {
        self.get_at(self.slot(pos), pos)
    }

    /// [`EvalCache::get`] with `pos`'s slot known.
    #[inline]
    fn get_at(&self, slot: usize, pos: &Position) -> std::result::Result<(Evaluation, bool), usize> {
        let s = &self.slots[slot];
        if s.generation == self.generation && s.pos == *pos {
            Ok((s.evaluation, s.exact))
        } else {
            Err(slot)
        }
    }

    fn put(&mut self, slot: usize, pos: &Position, e: Evaluation, exact: bool) {
        self.slots[slot] = Slot { generation: self.generation, pos: *pos, evaluation: e, exact };
    }
}

/// One worker's tools: its move generator, cache and node count.
struct Worker<'a> {
    evaluator: &'a dyn Evaluator,
    config: &'a SearchConfig,
    movegen: MoveGen,
    cache: EvalCache,
    nodes: u64,
    /// Buffers of [`Worker::leaf_value`] and [`Worker::static_evals`].
    slots: Vec<usize>,
    plays: Vec<Move>,
    replies: Vec<Position>,
    scores: Vec<f32>,
}

impl<'a> Worker<'a> {
    /// A worker whose cache is sized for the search's depth: a 1-ply search
    /// meets few positions twice, and zeroing a large cache for it costs more
    /// than it saves (the cache changes no value and no node count).
    fn new(evaluator: &'a dyn Evaluator, config: &'a SearchConfig) -> Worker<'a> {
        let bits = if config.ply == 0 { 4 } else { config.cache_bits.min(10 + 3 * config.ply) };
        Worker::with_cache_bits(evaluator, config, bits)
    }

    /// The root's worker: it judges only the root's plays at 0-ply (the deep
    /// search runs on [`parallel`]'s workers, each with its own cache).
    fn root(evaluator: &'a dyn Evaluator, config: &'a SearchConfig) -> Worker<'a> {
        Worker::with_cache_bits(evaluator, config, config.cache_bits.min(12))
    }

    fn with_cache_bits(evaluator: &'a dyn Evaluator, config: &'a SearchConfig, bits: u8) -> Worker<'a> {
        Worker {
            evaluator,
            config,
            movegen: MoveGen::new(),
            cache: EvalCache::new(bits),
            nodes: 0,
            slots: Vec::new(),
            plays: Vec::new(),
            replies: Vec::new(),
            scores: Vec::new(),
        }
    }

    /// Static evaluation for the player on roll; `true` when it is exact.
    fn static_eval(&mut self, pos: &Position) -> (Evaluation, bool) {
        self.nodes += 1;
        let slot = match self.cache.get(pos) {
            Ok(hit) => return hit,
            Err(slot) => slot,
        };
        let (e, source) = static_evaluation(self.evaluator, pos, self.config.use_bearoff);
        let exact = source != Source::Evaluator;
        self.cache.put(slot, pos, e, exact);
        (e, exact)
    }

    /// [`Worker::static_eval`] of every position, with the evaluator's share
    /// (positions neither cached nor exact) asked for in one batch.
    fn static_evals(&mut self, positions: &[Position]) -> Vec<(Evaluation, bool)> {
        let mut out = Vec::with_capacity(positions.len());
        let mut missing = Vec::new();
        let mut slots = std::mem::take(&mut self.slots);
        slots.clear();
        slots.extend(positions.iter().map(|p| self.cache.slot(p)));
        for &slot in &slots {
            self.cache.prefetch(slot);
        }
        for (k, pos) in positions.iter().enumerate() {
            self.nodes += 1;
            let slot = match self.cache.get_at(slots[k], pos) {
                Ok(hit) => {
                    out.push(hit);
                    continue;
                }
                Err(slot) => slot,
            };
            if let Some((e, _)) = exact_evaluation(pos, self.config.use_bearoff) {
                self.cache.put(slot, pos, e, true);
                out.push((e, true));
                continue;
            }
            out.push((Evaluation::default(), false));
            missing.push((k, slot));
        }
        if !missing.is_empty() {
            let batch: Vec<Position> = missing.iter().map(|&(k, _)| positions[k]).collect();
            let mut evaluations = Vec::with_capacity(batch.len());
            self.evaluator.evaluate_batch(&batch, &mut evaluations);
            assert_eq!(evaluations.len(), batch.len(), "an evaluator answers every position of a batch");
            for (&(k, slot), e) in missing.iter().zip(evaluations) {
                let e = e.possible_in(&positions[k]);
                self.cache.put(slot, &positions[k], e, false);
                out[k] = (e, false);
            }
        }
        self.slots = slots;
        out
    }

    /// The value of `pos` for the player on roll, searched `plies` deep;
    /// `rolls` rolls of the game are already made (gul bara: whether a
    /// double cascades).
    fn value(&mut self, pos: &Position, plies: u8, rolls: u32) -> Evaluation {
        let (e, exact) = self.static_eval(pos);
        // A cancelled search expands no more nodes (its result is thrown away).
        if plies == 0 || exact || self.config.cancel.is_cancelled() {
            return e;
        }
        let mut sum = Evaluation::default();
        for (d1, d2, p) in all_rolls() {
            sum.add_scaled(&self.best_play_value(pos, d1, d2, plies - 1, rolls), p as f32);
        }
        sum
    }

    /// What the mover may do with d1-d2: one choice per distinct play, or
    /// per distinct result of its part of a gul bara cascade, each with the
    /// positions where the opponent rolls next (from its side): one, or one
    /// per result of the opponent's share of the cascade, its choice.
    ///
    /// `exact` (the root) lists every distinct part, each first with the
    /// opponent's share left unplayed; [`Worker::resolve_shares`] then plays
    /// the shares of the parts that matter. Inside the tree the parts and
    /// the shares are pruned step by step to the inner filter's width, each
    /// state judged at 0-ply as if the turn ended there.
    fn roll_choices(&mut self, pos: &Position, d1: u8, d2: u8, rolls: u32, exact: bool) -> Vec<RollChoice> {
        if !(self.config.whole_cascades && cascades(pos.rules(), rolls, d1, d2)) {
            let mut plays = Vec::with_capacity(32);
            self.movegen.legal_moves(pos, d1, d2, &mut plays);
            return plays.into_iter().map(RollChoice::of_play).collect();
        }
        let mut movegen = std::mem::take(&mut self.movegen);
        let keep = self.config.inner_filter.keep.max(2);
        // The root lists every part, unless a number's states run past the
        // configured width (early in a game, with most checkers still
        // together): then the best of them by 0-ply go on, so a hint stays quick.
        let width = if exact { self.config.cascade_width.max(1) } else { keep };
        let parts = {
            let mut score = |positions: &[Position]| self.mover_scores(positions);
            pruned_parts(&mut movegen, pos, d1, width, &mut score)
        };
        let mut choices: Vec<RollChoice> = parts
            .into_iter()
            .map(|part| {
                let last = *part.steps.last().expect("a part plays at least one step");
                let resolved = part.finished() || part.handover.is_empty();
                RollChoice {
                    play: Move { position: part.position, ..last },
                    replies: vec![part.position.flip()],
                    part: Some(Arc::new(part)),
                    resolved,
                    rolls_again: false,
                }
            })
            .collect();
        if !exact {
            for c in &mut choices {
                if !c.resolved {
                    let part = c.part.clone().expect("a cascade part");
                    let mut score = |positions: &[Position]| self.mover_scores(positions);
                    let shares = crate::cascade::pruned_shares(&mut movegen, &part.position.flip(), &part.handover, keep, &mut score);
                    c.replies = shares.into_iter().map(|s| s.position).collect();
                    c.resolved = true;
                }
            }
        }
        self.movegen = movegen;
        choices
    }

    /// The results of a share (at most `width` states kept after each
    /// number, by 0-ply), as positions where its player rolls next.
    fn share_positions(&mut self, pos: &Position, handover: &[(u8, u8)], width: usize) -> Vec<Position> {
        let mut movegen = std::mem::take(&mut self.movegen);
        let mut score = |positions: &[Position]| self.mover_scores(positions);
        let shares = crate::cascade::pruned_shares(&mut movegen, pos, handover, width, &mut score);
        self.movegen = movegen;
        shares.into_iter().map(|s| s.position).collect()
    }

    /// Each position's 0-ply equity for its mover as if its turn ended there.
    /// The distinct results of a cascade's handover for the player who
    /// plays the share (`pos` from its side), each number's states pruned to
    /// the cascade width by 0-ply.
    fn handover_shares(&mut self, pos: &Position, handover: &[(u8, u8)]) -> Vec<crate::cascade::Share> {
        let mut movegen = std::mem::take(&mut self.movegen);
        let width = self.config.cascade_width;
        let mut score = |positions: &[Position]| self.mover_scores(positions);
        let shares = crate::cascade::pruned_shares(&mut movegen, pos, handover, width, &mut score);
        self.movegen = movegen;
        shares
    }

    fn mover_scores(&mut self, positions: &[Position]) -> Vec<f32> {
        let flipped: Vec<Position> = positions.iter().map(|p| p.flip()).collect();
        self.static_evals(&flipped).into_iter().map(|(e, _)| -e.equity()).collect()
    }

    /// Plays the opponent's shares of the best root parts: the choices are
    /// valued with their shares unplayed, then the best `keep` of them (by
    /// the current values) get every result of their share, and again until
    /// the best `keep` are all resolved. Returns the final 0-ply values.
    fn resolve_shares(&mut self, choices: &mut [RollChoice], keep: usize) -> Vec<(Evaluation, Vec<Evaluation>)> {
        let mut values = self.choice_values(choices);
        loop {
            let mut order: Vec<usize> = (0..choices.len()).collect();
            order.sort_by(|&a, &b| values[b].0.equity().total_cmp(&values[a].0.equity()));
            let open: Vec<usize> = order.into_iter().take(keep).filter(|&k| !choices[k].resolved).collect();
            if open.is_empty() {
                return values;
            }
            for k in open {
                let part = choices[k].part.clone().expect("an unresolved choice is a cascade part");
                choices[k].replies = self.share_positions(&part.position.flip(), &part.handover, self.config.cascade_width);
                choices[k].resolved = true;
                values[k] = self.choice_values(std::slice::from_ref(&choices[k])).remove(0);
            }
        }
    }

    /// Every choice's value for the mover at 0-ply (the opponent picking its
    /// best reply) and the replies' own 0-ply evaluations, batched.
    fn choice_values(&mut self, choices: &[RollChoice]) -> Vec<(Evaluation, Vec<Evaluation>)> {
        let all: Vec<Position> = choices.iter().flat_map(|c| c.replies.iter().copied()).collect();
        let mut evaluations = self.static_evals(&all).into_iter().map(|(e, _)| e);
        choices
            .iter()
            .map(|c| {
                let theirs: Vec<Evaluation> = evaluations.by_ref().take(c.replies.len()).collect();
                let best = theirs.iter().copied().max_by(|a, b| a.equity().total_cmp(&b.equity())).expect("a reply");
                (c.for_mover(best), theirs)
            })
            .collect()
    }

    /// The value of a choice for the mover when its replies are searched
    /// `plies` deep: the opponent's best few by 0-ply (the inner filter),
    /// searched, the opponent taking the best of them (after a 1-2 that
    /// rolls again, the mover's own next roll searched).
    fn deep_choice_value(&mut self, choice: &RollChoice, theirs: &[Evaluation], plies: u8, rolls: u32) -> Evaluation {
        let mut order: Vec<usize> = (0..choice.replies.len()).collect();
        order.sort_by(|&a, &b| theirs[b].equity().total_cmp(&theirs[a].equity()));
        let kept = filtered(&order, self.config.inner_filter, |&k| theirs[k].equity());
        let best = order[..kept]
            .iter()
            .map(|&k| self.value(&choice.replies[k], plies, rolls + 1))
            .max_by(|a, b| a.equity().total_cmp(&b.equity()))
            .expect("a reply");
        choice.for_mover(best)
    }

    /// The mover's evaluation after its best play of d1-d2 at 0-ply (no
    /// cascade): [`Worker::best_play_value`]'s leaves, the same values as
    /// through [`Worker::choice_values`], in buffers kept by the worker. When
    /// the pruning network may cut the plays (see [`SearchConfig::prune`]),
    /// only its best `prune` are evaluated.
    fn leaf_value(&mut self, pos: &Position, d1: u8, d2: u8) -> Evaluation {
        let mut plays = std::mem::take(&mut self.plays);
        let mut replies = std::mem::take(&mut self.replies);
        self.movegen.legal_moves(pos, d1, d2, &mut plays);
        replies.clear();
        replies.extend(plays.iter().map(Move::next_roller_view));
        let again = plays.iter().any(|m| m.rolls_again);
        // The pruning network ranks positions with the opponent on roll: a
        // roll with plays that roll again is judged in full.
        if let Some(order) = if again { None } else { self.pruned_order(&replies, self.config.prune) } {
            let kept: Vec<Position> = order.iter().map(|&k| replies[k]).collect();
            replies.clear();
            replies.extend(kept);
        }
        let best = self
            .static_evals(&replies)
            .into_iter()
            .enumerate()
            .map(|(k, (e, _))| if again && plays[k].rolls_again { e } else { e.invert() })
            .max_by(|a, b| a.equity().total_cmp(&b.equity()))
            .expect("a roll has at least one play");
        (self.plays, self.replies) = (plays, replies);
        best
    }

    /// The indices of the best `keep` of a roll's `replies` (positions after
    /// the mover's plays, the opponent on roll) by the pruning network, best
    /// first; `None` when nothing is pruned (`keep` 0, no more replies than
    /// `keep`, or no pruning network for these positions).
    fn pruned_order(&mut self, replies: &[Position], keep: usize) -> Option<Vec<usize>> {
        let mut scores = std::mem::take(&mut self.scores);
        let pruned = keep > 0 && replies.len() > keep && self.evaluator.prune_scores(replies, &mut scores);
        let order = pruned.then(|| {
            // The opponent's lowest equities are the mover's best plays; stable,
            // so ties keep the move generator's order.
            let mut order: Vec<usize> = (0..replies.len()).collect();
            order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
            order.truncate(keep);
            order
        });
        self.scores = scores;
        order
    }

    /// The best `keep` of a roll's choices by the pruning network, best
    /// first ([`Worker::pruned_order`]); all of them, in order, where
    /// nothing is pruned or a choice is more than one plain play (a cascade
    /// part, or a 1-2 that rolls again: the pruner ranks positions with the
    /// opponent on roll).
    fn pruned_choices(&mut self, choices: Vec<RollChoice>, keep: usize) -> Vec<RollChoice> {
        if !choices.iter().all(|c| c.part.is_none() && !c.rolls_again && c.replies.len() == 1) {
            return choices;
        }
        let replies: Vec<Position> = choices.iter().map(|c| c.replies[0]).collect();
        match self.pruned_order(&replies, keep) {
            Some(order) => {
                let mut all: Vec<Option<RollChoice>> = choices.into_iter().map(Some).collect();
                order.iter().map(|&k| all[k].take().expect("each play kept once")).collect()
            }
            None => choices,
        }
    }

    /// The mover's evaluation after its best play of d1-d2, each play judged
    /// at `plies` (after a 0-ply filter when `plies` >= 1).
    fn best_play_value(&mut self, pos: &Position, d1: u8, d2: u8, plies: u8, rolls: u32) -> Evaluation {
        if plies == 0 && !(self.config.whole_cascades && cascades(pos.rules(), rolls, d1, d2)) {
            return self.leaf_value(pos, d1, d2);
        }
        let mut choices = self.roll_choices(pos, d1, d2, rolls, false);
        if plies >= 1 {
            choices = self.pruned_choices(choices, self.config.prune_filter);
        }
        let values = self.choice_values(&choices);
        if plies == 0 {
            return values.into_iter().map(|(e, _)| e).max_by(|a, b| a.equity().total_cmp(&b.equity())).unwrap();
        }
        let mut scored: Vec<(Evaluation, usize)> = values.iter().enumerate().map(|(k, (e, _))| (*e, k)).collect();
        sort_by_equity(&mut scored, |s| s.0.equity());
        let kept = filtered(&scored, self.config.inner_filter, |s| s.0.equity());
        scored[..kept]
            .iter()
            .map(|&(_, k)| self.deep_choice_value(&choices[k], &values[k].1, plies, rolls))
            .max_by(|a, b| a.equity().total_cmp(&b.equity()))
            .unwrap()
    }
}

/// One thing the mover may do with a roll, and where the opponent then rolls.
pub(crate) struct RollChoice {
    pub play: Move,
    pub part: Option<Arc<CascadePart>>,
    /// Positions with the opponent to roll, from its side: the opponent's
    /// choice among them (more than one only after a cascade's handover).
    /// After an acey-deucey 1-2 played in full ([`RollChoice::rolls_again`])
    /// the one position where the mover rolls again, from the mover's side.
    pub replies: Vec<Position>,
    /// Whether `replies` include the opponent's share (always, except for
    /// root cascade parts not yet resolved).
    pub resolved: bool,
    /// The mover rolls again after this play (acey-deucey's 1-2 played in
    /// full): its reply is valued as the mover's own, not turned over.
    pub rolls_again: bool,
}

impl RollChoice {
    /// The choice of one ordinary play: where the next roll is made, seen by
    /// whoever makes it.
    fn of_play(m: Move) -> RollChoice {
        RollChoice { play: m, part: None, replies: vec![m.next_roller_view()], resolved: true, rolls_again: m.rolls_again }
    }

    /// A reply's value (for whoever rolls there) as the mover's.
    pub(crate) fn for_mover(&self, reply: Evaluation) -> Evaluation {
        if self.rolls_again {
            reply
        } else {
            reply.invert()
        }
    }
}

/// How many of the root's cascade parts get their share played in full.
fn root_share_keep(config: &SearchConfig) -> usize {
    (4 * config.root_filter.keep).max(32)
}

fn sort_by_equity<T>(items: &mut [T], equity: impl Fn(&T) -> f32) {
    // Stable, best first: ties keep the move generator's order.
    items.sort_by(|a, b| equity(b).total_cmp(&equity(a)));
}

/// How many of the sorted `items` pass the filter (at least one).
fn filtered<T>(items: &[T], filter: Filter, equity: impl Fn(&T) -> f32) -> usize {
    let best = equity(&items[0]);
    let within = items.iter().take(filter.keep.max(1)).take_while(|s| best - equity(s) <= filter.margin).count();
    within.max(filter.min).max(1).min(items.len())
}

/// Runs `job(worker, k)` for k in 0..n on the configured threads, each
/// thread with its own worker; returns the results in order and the nodes.
fn parallel<T: Send>(
    evaluator: &dyn Evaluator,
    config: &SearchConfig,
    n: usize,
    job: impl Fn(&mut Worker, usize) -> T + Sync,
) -> (Vec<T>, u64) {
    let (results, workers) = par_map_states(n, config.thread_count(), || Worker::new(evaluator, config), job);
    (results, workers.iter().map(|w| w.nodes).sum())
}

/// The value of `pos` for the player on roll at `config.ply`, past the
/// first rolls of the game (gul bara doubles cascade).
pub fn evaluate(evaluator: &dyn Evaluator, config: &SearchConfig, pos: &Position) -> (Evaluation, u64) {
    evaluate_at(evaluator, config, pos, crate::cascade::LATE)
}

/// [`evaluate`] with `rolls` rolls of the game already made.
pub fn evaluate_at(evaluator: &dyn Evaluator, config: &SearchConfig, pos: &Position, rolls: u32) -> (Evaluation, u64) {
    let mut root = Worker::with_cache_bits(evaluator, config, 4);
    let (e, exact) = root.static_eval(pos);
    if config.ply == 0 || exact {
        return (e, root.nodes);
    }
    let all = all_rolls();
    let (values, nodes) = parallel(evaluator, config, all.len(), |w, k| w.best_play_value(pos, all[k].0, all[k].1, config.ply - 1, rolls));
    let mut sum = Evaluation::default();
    for (v, &(_, _, p)) in values.iter().zip(all.iter()) {
        sum.add_scaled(v, p as f32);
    }
    (sum, nodes + root.nodes)
}

/// Every play of d1-d2 judged: all at 0-ply, the best ones (root filter) at
/// `config.ply`; best first. Past the game's first rolls, so a gul bara
/// double is a cascade.
pub fn analyze(evaluator: &dyn Evaluator, config: &SearchConfig, pos: &Position, d1: u8, d2: u8) -> SearchResult {
    analyze_at(evaluator, config, pos, d1, d2, crate::cascade::LATE)
}

/// [`analyze`] with `rolls` rolls of the game already made: a gul bara
/// double that cascades gives one candidate per distinct result of the
/// mover's part, judged with the opponent's best play of its share.
pub fn analyze_at(evaluator: &dyn Evaluator, config: &SearchConfig, pos: &Position, d1: u8, d2: u8, rolls: u32) -> SearchResult {
    let mut root = Worker::root(evaluator, config);
    let mut choices = root.roll_choices(pos, d1, d2, rolls, true);
    let values = root.resolve_shares(&mut choices, root_share_keep(config));
    let mut order: Vec<usize> = (0..choices.len()).collect();
    let mut candidates: Vec<Candidate> = choices
        .iter()
        .zip(&values)
        .map(|(c, (e, _))| Candidate { play: c.play, cascade: c.part.clone(), evaluation: *e, equity: e.equity(), ply: 0 })
        .collect();
    // Stable, best first, keeping each candidate's choice alongside.
    order.sort_by(|&a, &b| candidates[b].equity.total_cmp(&candidates[a].equity));
    candidates = order.iter().map(|&k| candidates[k].clone()).collect();
    let mut nodes = root.nodes;
    if config.ply > 0 && candidates.len() > 1 {
        let kept = filtered(&candidates, config.root_filter, |c| c.equity);
        let (deep, n) = parallel(evaluator, config, kept, |w, k| {
            let j = order[k];
            w.deep_choice_value(&choices[j], &values[j].1, config.ply, rolls)
        });
        nodes += n;
        for (c, e) in candidates.iter_mut().zip(deep) {
            c.evaluation = e;
            c.equity = e.equity();
            c.ply = config.ply;
        }
        // The deep ones first, by their deep equity; the rest after, by 0-ply.
        candidates[..kept].sort_by(|a, b| b.equity.total_cmp(&a.equity));
    }
    SearchResult { candidates, nodes }
}

/// The best way to play a cascade's handover for the player who plays it
/// (`pos` from its side): every distinct result of the share judged at 0-ply
/// as a position where that player rolls next, the root filter's best at
/// `config.ply`.
pub fn best_share(evaluator: &dyn Evaluator, config: &SearchConfig, pos: &Position, handover: &[(u8, u8)]) -> (crate::cascade::Share, u64) {
    let mut root = Worker::root(evaluator, config);
    let shares = root.handover_shares(pos, handover);
    let positions: Vec<Position> = shares.iter().map(|s| s.position).collect();
    let mut scored: Vec<(f32, usize)> = root.static_evals(&positions).into_iter().enumerate().map(|(k, (e, _))| (e.equity(), k)).collect();
    sort_by_equity(&mut scored, |s| s.0);
    let mut nodes = root.nodes;
    if config.ply > 0 && scored.len() > 1 {
        let kept = filtered(&scored, config.root_filter, |s| s.0);
        let (deep, n) =
            parallel(evaluator, config, kept, |w, j| w.value(&positions[scored[j].1], config.ply, crate::cascade::LATE).equity());
        nodes += n;
        for (s, e) in scored.iter_mut().zip(deep) {
            s.0 = e;
        }
        scored[..kept].sort_by(|a, b| b.0.total_cmp(&a.0));
    }
    (shares[scored[0].1].clone(), nodes)
}

/// The best play of d1-d2 at `config.ply`.
pub fn best_move(evaluator: &dyn Evaluator, config: &SearchConfig, pos: &Position, d1: u8, d2: u8) -> Move {
    analyze(evaluator, config, pos, d1, d2).candidates[0].play
}

/// A searching player as a [`crate::turn::Chooser`]: each play (or whole
/// gul bara cascade part and share, with `whole_cascades`) is the search's
/// best at `config.ply`; a cascade step played one by one is judged by the
/// static value of its result with the opponent to move. The duel harness's
/// engine players and the rollouts' players are these.
pub struct SearchChooser<'a> {
    pub evaluator: &'a dyn Evaluator,
    pub config: &'a SearchConfig,
}

impl crate::turn::Chooser for SearchChooser<'_> {
    fn choose_play(&mut self, pos: &Position, dice: [u8; 2], rolls_before: u32, plays: &[Move]) -> usize {
        if plays.len() == 1 {
            return 0;
        }
        let r = analyze_at(self.evaluator, self.config, pos, dice[0], dice[1], rolls_before);
        let best = r.candidates[0].play.position;
        plays.iter().position(|m| m.position == best).expect("the search's best play is a legal play")
    }
    fn choose_step(&mut self, _: &Position, _: (u8, u8), steps: &[Move]) -> usize {
        // Mid-cascade the position is not a turn boundary: judge each step by
        // the static value of its result with the opponent to move.
        let value = |m: &Move| static_evaluation(self.evaluator, &m.position.flip(), self.config.use_bearoff).0.invert().equity();
        (0..steps.len()).max_by(|&a, &b| value(&steps[a]).total_cmp(&value(&steps[b]))).expect("a step list is never empty")
    }
    fn plan_cascade(&mut self, pos: &Position, d: u8, rolls_before: u32) -> Option<Vec<Move>> {
        if !self.config.whole_cascades {
            return None;
        }
        let r = analyze_at(self.evaluator, self.config, pos, d, d, rolls_before);
        r.candidates.into_iter().next().and_then(|c| c.cascade).map(|part| part.steps.clone())
    }
    fn plan_share(&mut self, pos: &Position, handover: &[(u8, u8)]) -> Option<Vec<Move>> {
        self.config.whole_cascades.then(|| best_share(self.evaluator, self.config, pos, handover).0.steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::fake::PipCount;
    use crate::eval::heuristic::Heuristic;
    use crate::movegen::legal_moves;
    use crate::variant::{Rules, Variant};

    fn config(ply: u8, threads: usize) -> SearchConfig {
        SearchConfig { ply, threads, ..SearchConfig::default() }
    }

    fn wide(ply: u8) -> SearchConfig {
        let all = Filter { min: 1000, keep: 1000, margin: 1000.0 };
        SearchConfig { ply, root_filter: all, inner_filter: all, threads: 1, ..SearchConfig::default() }
    }

    #[test]
    fn one_ply_is_the_average_over_rolls_of_the_best_zero_ply_reply() {
        let pos = Position::start(Rules::backgammon());
        let ev = Heuristic::new(Variant::Backgammon);
        let (one_ply, _) = evaluate(&ev, &wide(1), &pos);
        // By hand: for each of the 36 rolls, the best play by 0-ply.
        let mut sum = 0.0f64;
        let mut win = 0.0f64;
        for d1 in 1..=6 {
            for d2 in 1..=6 {
                let best = legal_moves(&pos, d1, d2)
                    .unwrap()
                    .iter()
                    .map(|m| {
                        let p = m.position.flip();
                        ev.evaluate(&p).possible_in(&p).invert()
                    })
                    .max_by(|a, b| a.equity().total_cmp(&b.equity()))
                    .unwrap();
                sum += best.equity() as f64 / 36.0;
                win += best.win as f64 / 36.0;
            }
        }
        assert!((one_ply.equity() as f64 - sum).abs() < 1e-4, "{} vs {sum}", one_ply.equity());
        assert!((one_ply.win as f64 - win).abs() < 1e-5);
    }

    /// An acey-deucey position a few plays in, with checkers on the board
    /// and in reserve on both sides.
    pub(super) fn acey_deucey_middle() -> Position {
        let mut pos = Position::start(Rules::acey_deucey());
        for (d1, d2) in [(6, 5), (4, 3), (6, 6), (5, 2)] {
            let plays = legal_moves(&pos, d1, d2).unwrap();
            pos = plays[plays.len() / 2].position.flip();
        }
        pos
    }

    #[test]
    fn a_one_two_played_in_full_is_valued_with_the_mover_rolling_again() {
        // RULES.md 5.2: after the 1, the 2 and the named number the same
        // player rolls again, so the search values such a play from the
        // mover's side, not as the opponent's roll.
        let pos = acey_deucey_middle();
        let ev = Heuristic::new(Variant::AceyDeucey);
        let plays = legal_moves(&pos, 1, 2).unwrap();
        assert!(plays.iter().any(|m| m.rolls_again));
        let next_roller_value = |m: &Move| {
            if m.rolls_again {
                ev.evaluate(&m.position).possible_in(&m.position)
            } else {
                let p = m.position.flip();
                ev.evaluate(&p).possible_in(&p).invert()
            }
        };
        let r = analyze(&ev, &config(0, 1), &pos, 1, 2);
        assert_eq!(r.candidates.len(), plays.len());
        for c in &r.candidates {
            assert!((c.equity - next_roller_value(&c.play).equity()).abs() < 1e-6);
        }
        // The 1-ply value averages the mover's best of every roll, the 1-2
        // valued as above.
        let (one_ply, _) = evaluate(&ev, &wide(1), &pos);
        let mut sum = 0.0f64;
        for (d1, d2, p) in crate::dice::rolls() {
            let best =
                legal_moves(&pos, d1.into(), d2.into()).unwrap().iter().map(next_roller_value).map(|e| e.equity()).fold(f32::MIN, f32::max);
            sum += p * best as f64;
        }
        assert!((one_ply.equity() as f64 - sum).abs() < 1e-4, "{} vs {sum}", one_ply.equity());
        // Deeper, the extra roll is the mover's chance node: a 1-ply look at
        // a rolls-again play is the 0-ply average of the mover's own rolls.
        let wide1 = wide(1);
        let deep = analyze(&ev, &wide1, &pos, 1, 2);
        let searched: Vec<_> = deep.candidates.iter().filter(|c| c.play.rolls_again && c.ply == 1).collect();
        assert!(searched.len() > 10);
        for c in searched {
            let (own, _) = evaluate(&ev, &wide1, &c.play.position);
            assert!((c.equity - own.equity()).abs() < 1e-5, "{} vs {}", c.equity, own.equity());
        }
    }

    #[test]
    fn zero_ply_analysis_ranks_by_static_evaluation() {
        let pos = Position::start(Rules::backgammon());
        let r = analyze(&PipCount, &config(0, 1), &pos, 6, 5);
        // Pip count alone cannot tell plays of the same pips apart, but every
        // candidate's equity is the inverted static value of its result.
        for c in &r.candidates {
            let e = PipCount.evaluate(&c.play.position.flip()).invert();
            assert!((c.equity - e.equity()).abs() < 1e-6);
        }
        assert_eq!(r.nodes as usize, r.candidates.len());
    }

    #[test]
    fn batched_static_evaluations_match_one_at_a_time() {
        // Plays of a bear-off race (exact tables), a game-ending roll, and the
        // same positions again (cache hits), through both paths.
        let bg = Rules::backgammon();
        let mut m = [0i64; 25];
        let mut t = [0i64; 25];
        m[0] = 1;
        m[1] = 1;
        t[5] = 3;
        t[12] = 2;
        let race = Position::from_arrays(bg, &m, &t).unwrap();
        let mut positions = Vec::new();
        for (pos, d1, d2) in [(Position::start(bg), 6, 1), (race, 2, 1), (race, 5, 3)] {
            positions.extend(legal_moves(&pos, d1, d2).unwrap().iter().map(|m| m.position.flip()));
        }
        positions.extend(positions.clone());
        let ev = Heuristic::new(Variant::Backgammon);
        let cfg = config(1, 1);
        let mut batched = Worker::new(&ev, &cfg);
        let mut single = Worker::new(&ev, &cfg);
        let a = batched.static_evals(&positions);
        let b: Vec<(Evaluation, bool)> = positions.iter().map(|p| single.static_eval(p)).collect();
        assert_eq!(a, b);
        assert_eq!(batched.nodes, single.nodes);
        assert!(a.iter().any(|&(_, exact)| exact) && a.iter().any(|&(_, exact)| !exact));
    }

    #[test]
    fn node_count_is_deterministic_across_threads() {
        for rules in [Rules::backgammon(), Rules::nardy()] {
            let pos = Position::start(rules);
            let ev = Heuristic::new(rules.variant);
            let a = analyze(&ev, &config(1, 1), &pos, 3, 1);
            let b = analyze(&ev, &config(1, 4), &pos, 3, 1);
            assert_eq!(a.nodes, b.nodes);
            assert_eq!(a.candidates[0].play, b.candidates[0].play);
            assert!((a.candidates[0].equity - b.candidates[0].equity).abs() < 1e-6);
        }
    }

    /// The heuristic with a "pruning network" of its own: its exact
    /// equities, or their negation (ranking the worst plays first).
    struct SelfPruned {
        inner: Heuristic,
        reversed: bool,
    }

    impl Evaluator for SelfPruned {
        fn name(&self) -> String {
            "self-pruned".into()
        }
        fn evaluate(&self, pos: &Position) -> Evaluation {
            self.inner.evaluate(pos)
        }
        fn prune_scores(&self, positions: &[Position], out: &mut Vec<f32>) -> bool {
            out.clear();
            out.extend(positions.iter().map(|p| {
                let e = static_evaluation(&self.inner, p, true).0.equity();
                if self.reversed {
                    -e
                } else {
                    e
                }
            }));
            true
        }
    }

    #[test]
    fn pruning_keeps_the_best_plays_at_the_leaves() {
        let pos = crate::bench::bench_positions(Variant::Backgammon)[2].0;
        let exact = SelfPruned { inner: Heuristic::new(Variant::Backgammon), reversed: false };
        let worst = SelfPruned { inner: Heuristic::new(Variant::Backgammon), reversed: true };
        for (d1, d2) in [(3, 1), (6, 6), (5, 2)] {
            let unpruned = analyze(&exact, &SearchConfig { prune: 0, ..config(1, 1) }, &pos, d1, d2);
            // A pruner that ranks by the evaluation itself always keeps each
            // roll's best play: the same values, from fewer evaluations.
            let pruned = analyze(&exact, &SearchConfig { prune: 2, ..config(1, 1) }, &pos, d1, d2);
            let equities = |r: &SearchResult| r.candidates.iter().map(|c| (c.play.position, c.equity)).collect::<Vec<_>>();
            assert_eq!(equities(&pruned), equities(&unpruned));
            assert!(pruned.nodes < unpruned.nodes, "{} {}", pruned.nodes, unpruned.nodes);
            // One that keeps the worst plays makes the opponent's replies worse,
            // so the root's best looks better; pruning with the heuristic, which
            // has no pruner, changes nothing at all.
            let bad = analyze(&worst, &SearchConfig { prune: 2, ..config(1, 1) }, &pos, d1, d2);
            assert!(
                bad.candidates[0].equity > unpruned.candidates[0].equity + 1e-3,
                "{} {}",
                bad.candidates[0].equity,
                unpruned.candidates[0].equity
            );
            let plain = analyze(&exact.inner, &SearchConfig { prune: 2, ..config(1, 1) }, &pos, d1, d2);
            assert_eq!(equities(&plain), equities(&unpruned));
            assert_eq!(plain.nodes, unpruned.nodes);
        }
    }

    #[test]
    fn pruning_before_the_inner_filter_keeps_what_the_filter_keeps() {
        // A pruner that ranks by the 0-ply evaluation itself and keeps at least
        // the inner filter's width hands the filter the plays it would keep:
        // the same values at 2 ply, from fewer evaluations.
        let pos = crate::bench::bench_positions(Variant::Backgammon)[2].0;
        let exact = SelfPruned { inner: Heuristic::new(Variant::Backgammon), reversed: false };
        let plain = SearchConfig { prune: 0, prune_filter: 0, ..config(2, 1) };
        let unpruned = analyze(&exact, &plain, &pos, 3, 1);
        let pruned = analyze(&exact, &SearchConfig { prune_filter: plain.inner_filter.keep, ..plain.clone() }, &pos, 3, 1);
        let equities = |r: &SearchResult| r.candidates.iter().map(|c| (c.play.position, c.equity)).collect::<Vec<_>>();
        assert_eq!(equities(&pruned), equities(&unpruned));
        assert!(pruned.nodes < unpruned.nodes, "{} {}", pruned.nodes, unpruned.nodes);
    }

    /// The shipped backgammon pruning network at 1 ply keeps the unpruned
    /// choice in at least 36 of 40 fixed decisions (see
    /// benches/README.md for 2-ply and the equity lost).
    #[test]
    fn the_shipped_pruner_keeps_the_unpruned_choices() {
        let net = crate::eval::neural::Network::shipped(Variant::Backgammon);
        let bg = Rules::backgammon();
        let mut rng = crate::dice::Dice::duel(31);
        let mut movegen = MoveGen::new();
        let mut plays = Vec::new();
        let (mut same, mut total, mut fewer) = (0, 0, 0);
        let mut pos = Position::start(bg);
        while total < 40 {
            let (d1, d2) = (rng.die(), rng.die());
            movegen.legal_moves(&pos, d1, d2, &mut plays);
            if plays.len() > 1 && !pos.is_race() {
                let pruned = analyze(&net, &config(1, 1), &pos, d1, d2);
                let unpruned = analyze(&net, &SearchConfig { prune: 0, ..config(1, 1) }, &pos, d1, d2);
                same += (pruned.candidates[0].play.position == unpruned.candidates[0].play.position) as usize;
                fewer += (pruned.nodes < unpruned.nodes) as usize;
                total += 1;
            }
            let next = plays[rng.below(plays.len())].position;
            pos = if crate::eval::game_result(&next).is_some() { Position::start(bg) } else { next.flip() };
        }
        assert!(same >= 36, "{same} of {total}");
        assert!(fewer >= 30, "{fewer} of {total}");
    }

    #[test]
    fn deeper_search_sees_exact_bearoff_values() {
        // A bear-off: every ply gives the table's exact answer.
        let mut mine = [0i64; 25];
        let mut theirs = [0i64; 25];
        mine[0] = 2;
        mine[5] = 1;
        theirs[2] = 3;
        let pos = Position::from_arrays(Rules::backgammon(), &mine, &theirs).unwrap();
        let ev = Heuristic::new(Variant::Backgammon);
        let (e0, n0) = evaluate(&ev, &config(0, 1), &pos);
        let (e2, _) = evaluate(&ev, &config(2, 1), &pos);
        assert_eq!(n0, 1);
        assert_eq!(e0, e2);
        // ... and 1-ply of a bear-off position without the shortcut agrees with the table.
        let pos2 = pos.flip();
        let w = Worker::new(&ev, &wide(1)).value(&pos2, 0, crate::cascade::LATE);
        assert!(w.win > 0.0 && w.win < 1.0);
    }

    #[test]
    fn a_cancelled_search_stops_at_once() {
        let pos = Position::start(Rules::backgammon());
        let ev = Heuristic::new(Variant::Backgammon);
        let full = analyze(&ev, &config(2, 1), &pos, 3, 1);
        // Cancelled before it starts: the root's plays are judged at 0-ply and nothing is expanded.
        let cancel = Cancel::new(None);
        cancel.cancel();
        let cut = analyze(&ev, &SearchConfig { cancel: cancel.clone(), ..config(2, 1) }, &pos, 3, 1);
        assert!(cancel.is_cancelled());
        assert!(cut.nodes * 20 < full.nodes, "{} nodes cancelled, {} in full", cut.nodes, full.nodes);
        // A cancel that is never set changes nothing.
        let kept = analyze(&ev, &SearchConfig { cancel: Cancel::new(None), ..config(2, 1) }, &pos, 3, 1);
        assert_eq!((kept.nodes, kept.candidates[0].equity), (full.nodes, full.candidates[0].equity));
        // Clones share the flag; configs with the same cancel are equal, with another one not.
        let other = Cancel::new(None);
        assert!(!other.is_cancelled() && other.clone() == other && other != cancel && Cancel::default() == Cancel::default());
    }

    #[test]
    fn a_deadline_ends_a_deep_search_in_time() {
        // A 4-ply evaluation takes minutes; with a 50 ms deadline it is back at once, on any thread count.
        let pos = Position::start(Rules::backgammon());
        let ev = Heuristic::new(Variant::Backgammon);
        for threads in [1, 3] {
            let cancel = Cancel::new(Some(Duration::from_millis(50)));
            let start = Instant::now();
            evaluate(&ev, &SearchConfig { cancel: cancel.clone(), ..config(4, threads) }, &pos);
            assert!(cancel.is_cancelled());
            assert!(start.elapsed() < Duration::from_secs(2), "{threads} threads: {:?}", start.elapsed());
            // A cubeful search too.
            let met = crate::cube::default_met(Variant::Backgammon);
            let cancel = Cancel::new(Some(Duration::from_millis(50)));
            let start = Instant::now();
            let state = crate::cube::CubeState::money();
            cubeful::cube_decision(&ev, &SearchConfig { cancel, ..config(4, threads) }, met, &pos, &state);
            assert!(start.elapsed() < Duration::from_secs(2), "cubeful, {threads} threads: {:?}", start.elapsed());
        }
        // A deadline past what the clock holds is none.
        assert!(!Cancel::new(Some(Duration::MAX)).is_cancelled());
    }
}
