//! The generic core of a stage wrapper: one Verilated model of a described stage, found by
//! variant name, created, switched to a mutant, traced and clocked. `RtlTev`, `RtlFop`,
//! `RtlRast` and `RtlSh` each hold one and keep only their protocol.

use super::handle::{Fns, Handle};
use crate::error::RtlError;
use std::path::Path;

/// One model of a stage top, with its clock count and trace state.
pub(crate) struct Core<I: 'static, O: 'static, H: 'static> {
    /// The shim handle (its coverage counters are read through it).
    pub(crate) handle: Handle<I, O, H>,
    cycles: u64,
    tracing: bool,
}

// By hand: a derive would ask the shim's opaque types for `Debug`.
impl<I, O, H> std::fmt::Debug for Core<I, O, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("handle", &self.handle)
            .field("cycles", &self.cycles)
            .field("tracing", &self.tracing)
            .finish()
    }
}

impl<I: Copy, O: Copy + Default, H> Core<I, O, H> {
    /// Names of the variants compiled into the shim: the description's builds, then the mutant
    /// and coverage models.
    pub(crate) fn variants(fns: &'static Fns<I, O, H>) -> Vec<String> {
        Handle::names(fns)
    }

    /// A new, reset model of the variant the shim calls `name`, switched to mutant `mutant` of
    /// a mutant model.
    pub(crate) fn open(
        fns: &'static Fns<I, O, H>,
        name: &'static str,
        mutant: Option<u16>,
    ) -> Result<Self, RtlError> {
        let names = Handle::names(fns);
        let index = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| RtlError::MissingVariant(name, names.join(", ")))?;
        let mut handle = Handle::new(fns, index).ok_or(RtlError::Create(name))?;
        if let Some(k) = mutant {
            if !handle.set_mutant(k) {
                return Err(RtlError::Mutant(name, k));
            }
        }
        Ok(Self {
            handle,
            cycles: 0,
            tracing: false,
        })
    }

    /// Applies `inp`, settles, and reads the outputs (the clock stays where it is).
    pub(crate) fn eval(&mut self, inp: &I) -> O {
        self.handle.eval(inp)
    }

    /// The outputs as the last clock edge left them.
    pub(crate) fn peek(&mut self) -> O {
        self.handle.peek()
    }

    /// One clock; returns the outputs it produced.
    pub(crate) fn clock(&mut self) -> O {
        self.handle.clock();
        self.cycles += 1;
        self.handle.peek()
    }

    /// Clocks run through [`Core::clock`] since reset.
    pub(crate) fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Clock cycles since reset as the shim counts them (reset included).
    pub(crate) fn shim_cycles(&self) -> u64 {
        self.handle.cycles()
    }

    /// Starts writing a VCD of every following clock edge to `path`.
    pub(crate) fn trace_vcd(&mut self, path: &Path) -> Result<(), RtlError> {
        let p = path.to_string_lossy().into_owned();
        if !self.handle.trace_open(&p) {
            return Err(RtlError::Trace(p));
        }
        self.tracing = true;
        Ok(())
    }

    /// Stops tracing and closes the VCD, if one is open.
    pub(crate) fn trace_off(&mut self) {
        if self.tracing {
            self.handle.trace_close();
            self.tracing = false;
        }
    }
}
