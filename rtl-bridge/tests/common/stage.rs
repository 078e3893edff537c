//! What the random stage tests with a side port (`fop_stage.rs`, `rast_stage.rs`) share: the
//! case count, the output backpressure and the injected-bug hunt.

use std::time::Instant;

/// Random cases per run: `env` if set to a number, else `default`.
pub fn cases_per_run(env: &str, default: u64) -> u64 {
    std::env::var(env)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// SplitMix64 for the output backpressure: ready three clocks in four.
pub struct Ready(pub u64);

impl Ready {
    pub fn next(&mut self) -> bool {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % 4 != 0
    }
}

/// Each of `variants` must be caught within 2,000 cases of each of the seeds 1..=`seeds`:
/// `campaign(variant, seed, 2000)` runs them and returns the first catch as (case index,
/// report). Logs per variant the case index of the first catch per seed and the first
/// `lines` lines of the first report.
pub fn catch_every_bug<V: Copy>(
    variants: &[V],
    name: impl Fn(V) -> &'static str,
    seeds: u64,
    lines: usize,
    mut campaign: impl FnMut(V, u64, u64) -> Option<(u64, String)>,
) {
    for &variant in variants {
        let t = Instant::now();
        let mut at = Vec::new();
        let mut first = String::new();
        for seed in 1..=seeds {
            let Some((i, msg)) = campaign(variant, seed, 2000) else {
                panic!("{} not caught in 2,000 cases of seed {seed}", name(variant));
            };
            if first.is_empty() {
                first = msg.lines().take(lines).collect::<Vec<_>>().join("\n");
            }
            at.push(i);
        }
        eprintln!(
            "{} caught at cases {at:?} of seeds 1-{seeds} ({:.2} s); first:\n{first}",
            name(variant),
            t.elapsed().as_secs_f64(),
        );
    }
}
