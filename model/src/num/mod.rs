//! Bit-exact PICA200 number formats (stub; filled in by the number-types work).

/// float1.7.16: the shader and vertex-attribute float format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct F24(u32);

impl F24 {
    /// Wraps raw bits; bits above 23 are dropped.
    pub const fn from_bits(bits: u32) -> Self {
        Self(bits & 0xFF_FFFF)
    }
    /// The raw 24-bit pattern.
    pub const fn bits(self) -> u32 {
        self.0
    }
}
