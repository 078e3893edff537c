//! What a stage did in a run, for throughput figures: clocks, busy clocks, items in, results
//! out, backpressure, side-port (memory) traffic and the most items inside at once. Every
//! generic stage wrapper keeps one ([`Tally`], `throughput()`); the lockstep report turns it
//! into `fragments_per_clock`, `clocks_per_triangle`, … per RTL stage.

/// Counts of one stage since reset. The nouns come from the stage's protocol rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// What the input port takes ("triangles", "fragments").
    pub items_noun: &'static str,
    /// What the output port gives ("fragments", "pixels").
    pub results_noun: &'static str,
    /// What the side port's requests are called, and whether the stage has one.
    pub side_noun: Option<&'static str>,
    /// Clocks run.
    pub clocks: u64,
    /// Clocks that began with work in the stage: an item queued or inside (counted, or by
    /// `idle_o`), or a side-port response owed. Throughput is counted against these, so a
    /// stage waiting for its producer is not charged.
    pub busy_clocks: u64,
    /// Items the input port took.
    pub items: u64,
    /// Results the output port gave.
    pub results: u64,
    /// Clocks in which the stage offered a result that the consumer did not take.
    pub out_stall_clocks: u64,
    /// Side-port requests taken.
    pub side_requests: u64,
    /// Bytes those requests moved (the port's data width per request: no bursts on these
    /// ports).
    pub side_bytes: u64,
    /// The most side-port responses owed at once (requests in flight).
    pub max_side_outstanding: u64,
    /// The most items inside at once (taken, result not yet given) for a stage with one result
    /// per item; `None` for one whose items yield any number of results (RAST).
    pub max_in_flight: Option<u64>,
}
