//! Bounded channels between stages with hardware-like timing.
//!
//! A [`Link`] is a bounded FIFO whose capacity is the hardware FIFO depth: a ring buffer
//! ([`VecDeque`], allocated once at its capacity) owned by the GPU, which ticks every stage on
//! one thread. (It was a `crossbeam-channel` bounded channel; the channel's atomics and
//! wakers cost more than most stages' work per cycle, and nothing ever crossed a thread.) Two rules make results independent of the order in which stages
//! are ticked within a cycle (design.md "Channels"):
//!
//! - **visibility**: an item pushed in cycle N can be popped no earlier than cycle N+1. The
//!   consumer may pop at most as many items as were in the FIFO when the cycle began.
//! - **registered full**: the producer may push only while the occupancy at the start of the
//!   cycle plus what it pushed this cycle is below capacity; space freed by a pop in the same
//!   cycle is seen next cycle (a registered `ready`, as in RTL).
//!
//! [`Link::begin_cycle`] must be called once per cycle, before any stage ticks.

use std::collections::VecDeque;

/// A bounded, cycle-timed FIFO between two stages.
#[derive(Debug)]
pub struct Link<T> {
    name: &'static str,
    queue: VecDeque<T>,
    capacity: usize,
    occupancy_at_start: usize,
    pushed: usize,
    popped: usize,
    total: u64,
}

/// A push into a full link: a model bug, reported as an error instead of a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("internal: push into full link {0}")]
pub struct LinkFull(pub &'static str);

impl<T> Link<T> {
    /// A link of `capacity` entries named `name` (used in traces and errors).
    pub fn new(name: &'static str, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Self {
            name,
            queue: VecDeque::with_capacity(capacity),
            capacity,
            occupancy_at_start: 0,
            pushed: 0,
            popped: 0,
            total: 0,
        }
    }

    /// The link's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Latches the start-of-cycle occupancy. Call once per cycle before any stage ticks.
    #[inline]
    pub fn begin_cycle(&mut self) {
        self.occupancy_at_start = self.queue.len();
        self.pushed = 0;
        self.popped = 0;
    }

    /// Whether the producer may push this cycle (registered `ready`).
    #[inline]
    pub fn can_push(&self) -> bool {
        self.occupancy_at_start + self.pushed < self.capacity
    }

    /// Pushes an item; it becomes visible to the consumer next cycle.
    #[inline]
    pub fn push(&mut self, item: T) -> Result<(), LinkFull> {
        // `can_push` also bounds the queue: occupancy never exceeds the capacity.
        if !self.can_push() || self.queue.len() >= self.capacity {
            return Err(LinkFull(self.name));
        }
        self.queue.push_back(item);
        self.pushed += 1;
        self.total += 1;
        Ok(())
    }

    /// Pops the oldest item that was already in the FIFO when this cycle began.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.popped >= self.occupancy_at_start {
            return None;
        }
        let item = self.queue.pop_front()?;
        self.popped += 1;
        Some(item)
    }

    /// The item [`Link::pop`] would return, without taking it.
    #[inline]
    pub fn peek(&self) -> Option<&T> {
        if self.popped >= self.occupancy_at_start {
            return None;
        }
        self.queue.front()
    }

    /// The item [`Link::pop`] would return, mutable, without taking it: a stage that only
    /// fills in fields works on the item where it lies and then hands it on with
    /// [`Link::pass`], instead of moving a large item out and back in.
    #[inline]
    pub fn peek_mut(&mut self) -> Option<&mut T> {
        if self.popped >= self.occupancy_at_start {
            return None;
        }
        self.queue.front_mut()
    }

    /// Takes the item [`Link::pop`] would return and drops it (after [`Link::peek`]); whether
    /// there was one.
    #[inline]
    pub fn skip(&mut self) -> bool {
        self.pop().is_some()
    }

    /// Drops the item most recently pushed this cycle (`false`: none was), as if it had
    /// never been pushed: a stage that builds its output in place in the link takes it back
    /// when the computation fails.
    #[inline]
    pub fn unpush(&mut self) -> bool {
        if self.pushed == 0 || self.queue.pop_back().is_none() {
            return false;
        }
        self.pushed -= 1;
        self.total -= 1;
        true
    }

    /// The item most recently pushed this cycle, mutable (`None`: none was).
    #[inline]
    pub fn last_pushed_mut(&mut self) -> Option<&mut T> {
        if self.pushed == 0 {
            return None;
        }
        self.queue.back_mut()
    }

    /// Items pushed since the link was made (a statistic; [`Link::clear`] keeps it).
    pub fn total_pushed(&self) -> u64 {
        self.total
    }

    /// Items currently queued (including ones pushed this cycle).
    #[inline]
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is queued.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Drops every queued item (reset).
    pub fn clear(&mut self) {
        self.queue.clear();
        self.occupancy_at_start = 0;
        self.pushed = 0;
        self.popped = 0;
    }
}

impl<T: Copy> Link<T> {
    /// Moves the item [`Link::pop`] would return into `out` ([`Link::push`]); `Ok(false)` when
    /// there is none. An item `out` refuses stays here. The item is copied once, from slot to
    /// slot (a pop and a push would copy it out to the stack and back).
    #[inline]
    pub fn pass(&mut self, out: &mut Link<T>) -> Result<bool, LinkFull> {
        if self.popped >= self.occupancy_at_start {
            return Ok(false);
        }
        let Some(&item) = self.queue.front() else {
            return Ok(false);
        };
        out.push(item)?;
        self.queue.pop_front();
        self.popped += 1;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_item_visible_next_cycle_only() {
        let mut l = Link::new("t", 2);
        l.begin_cycle();
        l.push(1).unwrap();
        assert_eq!(l.pop(), None, "same-cycle pop must not see the push");
        l.begin_cycle();
        assert_eq!(l.pop(), Some(1));
        assert_eq!(l.pop(), None);
    }

    #[test]
    fn link_full_is_registered() {
        let mut l = Link::new("t", 1);
        l.begin_cycle();
        l.push(1).unwrap();
        assert!(!l.can_push());
        assert_eq!(l.push(2), Err(LinkFull("t")));
        l.begin_cycle();
        assert_eq!(l.pop(), Some(1));
        // The slot freed this cycle is seen by the producer next cycle.
        assert!(!l.can_push());
        l.begin_cycle();
        assert!(l.can_push());
    }

    #[test]
    fn link_order_independent_of_tick_order() {
        // Consumer first or producer first within a cycle: same observable sequence.
        for consumer_first in [false, true] {
            let mut l = Link::new("t", 2);
            let mut seen = vec![];
            for cycle in 0..6u32 {
                l.begin_cycle();
                if consumer_first {
                    seen.extend(l.pop().map(|v| (cycle, v)));
                    if l.can_push() {
                        l.push(cycle).unwrap();
                    }
                } else {
                    if l.can_push() {
                        l.push(cycle).unwrap();
                    }
                    seen.extend(l.pop().map(|v| (cycle, v)));
                }
            }
            assert_eq!(seen, vec![(1, 0), (2, 1), (3, 2), (4, 3), (5, 4)]);
        }
    }
}
