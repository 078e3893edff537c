//! The post-vertex cache: which vertex indices of the current indexed draw were already sent
//! to the shader units, and under which sequence number.
//!
//! The cache holds tags only (vertex index → `seq`); the shaded vertex itself is kept by PA
//! under its `seq`. A hit makes VL send `PaCmd::Vertex(seq)` of the earlier shading instead of
//! shading the vertex again.

use crate::knobs::VlCachePolicy;
use serde_json::json;
use std::collections::VecDeque;

/// Tags of the post-vertex cache, replaced first in, first out.
///
/// UNVERIFIED(hw) [fact: vl-cache-policy]: FIFO replacement ("circular replacement", Azahar pica_core.cpp
/// `LoadVertices`; Azahar's cache has a fixed 64 entries, ours GPUREG_POST_VERTEX_CACHE_NUM) —
/// the hardware policy is not documented. A hit does not refresh the entry; with knob
/// `vl-cache-policy=lru` it does ([`PostVertexCache::set_policy`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostVertexCache {
    /// (vertex index, seq), oldest (least recently used) first.
    entries: VecDeque<(u32, u32)>,
    capacity: usize,
    /// Knob `vl-cache-policy`.
    policy: VlCachePolicy,
}

impl PostVertexCache {
    /// Empties the cache and sets its size for the draw that starts.
    pub fn reset(&mut self, capacity: usize) {
        self.entries.clear();
        self.capacity = capacity;
    }

    /// Sets the size, keeping the newest entries that fit.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        while self.entries.len() > capacity {
            self.entries.pop_front();
        }
    }

    /// Empties the cache (GPUREG_VTX_FUNC), keeping its size.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Sets the replacement policy (knob `vl-cache-policy`), keeping the entries.
    pub fn set_policy(&mut self, policy: VlCachePolicy) {
        self.policy = policy;
    }

    /// The `seq` the vertex with index `index` was shaded under, if cached.
    pub fn lookup(&self, index: u32) -> Option<u32> {
        self.entries
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, s)| *s)
    }

    /// [`PostVertexCache::lookup`] for a vertex of the draw: with policy
    /// [`VlCachePolicy::Lru`] a hit also makes the entry the newest (the last to be
    /// replaced); with [`VlCachePolicy::Fifo`] the entries stay as they are.
    pub fn hit(&mut self, index: u32) -> Option<u32> {
        let at = self.entries.iter().position(|(i, _)| *i == index)?;
        let entry = self.entries.get(at).copied()?;
        if self.policy == VlCachePolicy::Lru {
            self.entries.remove(at);
            self.entries.push_back(entry);
        }
        Some(entry.1)
    }

    /// Records that `index` was sent to shading as `seq`, dropping the oldest entry when full.
    pub fn insert(&mut self, index: u32, seq: u32) {
        if self.capacity == 0 {
            return;
        }
        while self.entries.len() >= self.capacity {
            self.entries.pop_front();
        }
        self.entries.push_back((index, seq));
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.entries.iter().copied()
    }

    /// Number of valid entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no entry is valid.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// State for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        json!({ "capacity": self.capacity, "entries": self.entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vl_cache_replaces_first_in_first_out() {
        let mut c = PostVertexCache::default();
        c.reset(2);
        c.insert(7, 0);
        c.insert(8, 1);
        assert_eq!(c.lookup(7), Some(0));
        // A hit does not refresh 7: it is still the oldest and goes first.
        c.insert(9, 2);
        assert_eq!(c.lookup(7), None);
        assert_eq!(c.entries().collect::<Vec<_>>(), [(8, 1), (9, 2)]);
        c.set_capacity(1);
        assert_eq!(c.entries().collect::<Vec<_>>(), [(9, 2)]);
        c.clear();
        assert!(c.is_empty());
    }

    #[test]
    fn vl_cache_lru_refreshes_on_a_hit() {
        let mut c = PostVertexCache::default();
        c.reset(2);
        c.set_policy(VlCachePolicy::Lru);
        c.insert(7, 0);
        c.insert(8, 1);
        assert_eq!(c.hit(7), Some(0));
        // 7 is now the newest: 8 goes first.
        c.insert(9, 2);
        assert_eq!(c.entries().collect::<Vec<_>>(), [(7, 0), (9, 2)]);
    }

    #[test]
    fn vl_cache_of_size_zero_holds_nothing() {
        let mut c = PostVertexCache::default();
        c.reset(0);
        c.insert(1, 1);
        assert_eq!(c.lookup(1), None);
    }
}
