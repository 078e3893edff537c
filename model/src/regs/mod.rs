//! The register table: every GPU register ID 0x000-0x2FF, its names, fields, aliases and side
//! effects, and everything derived from it.
//!
//! The one source is `model/regs/registers.toml` (imported from 3dbrew GPU/Internal_Registers,
//! seed 002 plus the corrections of seed 001, hand-maintained since). `model/build.rs` checks it
//! and generates from it:
//!
//! - [`REGISTERS`], indexed by ID, with [`info`], [`name`] and [`by_name`] on top;
//! - the [`id`] constants (`id::FINALIZE`, `id::VSH_FLOATUNIFORM_INDEX`, ...);
//! - one typed accessor struct per register layout (a family of IDs with the same layout shares
//!   one, e.g. [`TexunitParam`] for TEXUNIT0/1/2_PARAM), implementing [`Register`], and one enum
//!   per enumerated field type, with `Reserved(n)` for encodings the seed does not describe;
//! - [`LAYOUTS`], [`ENUMS`] and [`ALIAS_GROUPS`], which the generators below walk.
//!
//! From the same data come [`decode_fields`] (divergence reports), [`text_listing`] (`pica regs`),
//! [`to_json`], [`sv_package`] (`rtl-bridge/rtl/pica_regs_pkg.sv`) and [`markdown`]
//! (`docs/registers.md`).

mod decode;
mod gen;
mod naming;
#[cfg(test)]
mod tests;

pub use decode::{decode_fields, DecodedField};
pub use gen::{markdown, sv_package, text_for, text_listing, to_json};
pub use generated::*;

/// The generated part: statics, `id` constants, typed accessors (see the module docs). The build
/// script emits code that passes `clippy -D warnings` without any `allow` (no no-op shifts or
/// masks, every item documented); keep it that way when changing the generator.
mod generated {
    use super::{
        AliasGroup, EntryFormat, EnumInfo, EnumValue, FieldInfo, FieldKind, Fifo, LayoutInfo,
        RegInfo, Register, ShaderBlock, SideEffect, Trigger,
    };
    include!(concat!(env!("OUT_DIR"), "/regs_generated.rs"));

    /// The sorted name index, for [`super::by_name`].
    pub(super) fn name_index() -> &'static [(&'static str, u16)] {
        &NAME_INDEX
    }
}

/// Number of register IDs (0x000-0x2FF).
pub const REG_COUNT: usize = 0x300;

/// Which shader block a register of the 0x280-0x2DF range configures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ShaderBlock {
    /// The vertex shader block, 0x2B0-0x2DD (`GPUREG_VSH_*`): the units running the vertex shader.
    Vsh,
    /// The geometry shader block, 0x280-0x2AD (`GPUREG_GSH_*`): shader unit 3.
    Gsh,
}

/// A transfer FIFO: data written to its data registers goes to consecutive entries of a memory,
/// starting at the index set through its index register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Fifo {
    /// Float uniforms c0-c95 (`*_FLOATUNIFORM_INDEX` / `*_FLOATUNIFORM_DATAi`).
    FloatUniform(ShaderBlock),
    /// Shader program memory (`*_CODETRANSFER_INDEX` / `*_CODETRANSFER_DATAi`).
    Code(ShaderBlock),
    /// Operand descriptors (`*_OPDESCS_INDEX` / `*_OPDESCS_DATAi`).
    OpDesc(ShaderBlock),
    /// Procedural texture LUTs (`PROCTEX_LUT` / `PROCTEX_LUT_DATAi`).
    ProcTexLut,
    /// The fog LUT (`FOG_LUT_INDEX` / `FOG_LUT_DATAi`).
    FogLut,
    /// The fragment lighting LUTs (`LIGHTING_LUT_INDEX` / `LIGHTING_LUT_DATAi`).
    LightingLut,
    /// The gas LUT (`GAS_LUT_INDEX` / `GAS_LUT_DATA`).
    GasLut,
    /// Fixed vertex attributes and immediate-mode vertices (`FIXEDATTRIB_INDEX` /
    /// `FIXEDATTRIB_DATA0-2`).
    FixedAttrib,
}

/// An action started by a write to a trigger register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Trigger {
    /// `GPUREG_FINALIZE` (0x010): end of the command list, P3D interrupt.
    Finalize,
    /// `GPUREG_DRAWARRAYS` (0x22E).
    DrawArrays,
    /// `GPUREG_DRAWELEMENTS` (0x22F).
    DrawElements,
    /// `GPUREG_VTX_FUNC` (0x231): clear the post-vertex cache.
    VtxFunc,
    /// `GPUREG_VSH_CODETRANSFER_END` (0x2BF) / `GPUREG_GSH_CODETRANSFER_END` (0x28F).
    CodeTransferEnd(ShaderBlock),
    /// `GPUREG_CMDBUF_JUMP0` (0x23C) / `GPUREG_CMDBUF_JUMP1` (0x23D): the channel, 0 or 1.
    CmdbufJump(u8),
    /// `GPUREG_EARLYDEPTH_CLEAR` (0x063).
    EarlyDepthClear,
    /// `GPUREG_RESTART_PRIMITIVE` (0x25F).
    RestartPrimitive,
    /// `GPUREG_FRAMEBUFFER_FLUSH` (0x111).
    FramebufferFlush,
    /// `GPUREG_FRAMEBUFFER_INVALIDATE` (0x110).
    FramebufferInvalidate,
}

/// What a write to a register ID does besides storing the value.
///
/// Whether the written value matters (for instance "0 = idle, non-zero = trigger") is in the
/// description of the register's trigger field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum SideEffect {
    /// A plain configuration register.
    None,
    /// Sets the index (and for some the table) of a FIFO.
    FifoIndex(Fifo),
    /// Pushes a word into a FIFO.
    FifoData(Fifo),
    /// Starts an action.
    Trigger(Trigger),
}

/// The kind of a register field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum FieldKind {
    /// Unsigned integer.
    Unsigned,
    /// Two's complement integer.
    Signed,
    /// A 1-bit flag.
    Bool,
    /// float1.7.16 (24 bits).
    F24,
    /// float1.5.10 (16 bits).
    F16,
    /// float1.7.12 (20 bits).
    F20,
    /// float1.7.23 (bias 63) stored in bits 1-31 of the word (see `num::F31`).
    F31,
    /// Fixed point with `sign` sign bits (two's complement), `int` integer and `frac` fraction
    /// bits. A field narrower than `sign + int + frac` holds the most significant bits.
    Fixed {
        /// Sign bits (0 or 1).
        sign: u8,
        /// Integer bits.
        int: u8,
        /// Fraction bits.
        frac: u8,
    },
    /// An enumerated value; the encodings the seed describes.
    Enum(&'static [EnumValue]),
    /// Writing the register starts an action (see [`SideEffect`]).
    Trigger,
    /// Bits the seed gives a required constant value.
    Const(u32),
    /// Raw data (a FIFO word).
    Data,
}

/// One described encoding of an enumerated field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EnumValue {
    /// The field value.
    pub value: u32,
    /// The Rust variant name.
    pub name: &'static str,
    /// The seed's description.
    pub description: &'static str,
}

/// An enumerated field type of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EnumInfo {
    /// The Rust type name (`TexunitParamWrap`).
    pub name: &'static str,
    /// The name in UPPER_SNAKE_CASE, the prefix of its SystemVerilog localparams.
    pub key: &'static str,
    /// The seed's title of the value table.
    pub description: &'static str,
    /// The width of the fields of this type.
    pub width: u8,
    /// The described encodings.
    pub values: &'static [EnumValue],
}

/// One field of a register layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FieldInfo {
    /// snake_case name (the typed accessor's getter).
    pub name: &'static str,
    /// Lowest bit.
    pub lsb: u8,
    /// Width in bits (1-32).
    pub width: u8,
    /// What the bits hold.
    pub kind: FieldKind,
    /// For enum fields, the Rust type name of the enum.
    pub enum_type: Option<&'static str>,
    /// The seed's description.
    pub description: &'static str,
}

impl FieldInfo {
    /// Highest bit.
    pub const fn msb(&self) -> u8 {
        self.lsb + self.width - 1
    }

    /// The field's bits in place in the 32-bit word.
    pub const fn mask(&self) -> u32 {
        (u32::MAX >> (32 - self.width as u32)) << self.lsb
    }

    /// The field value (shifted down) of a register word.
    pub const fn extract(&self, word: u32) -> u32 {
        (word & self.mask()) >> self.lsb
    }
}

/// A group of consecutive IDs that all write the same transfer register, so that one
/// consecutive-mode command can stream data into it (3dbrew "Aliases").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AliasGroup {
    /// Group name (`VSH_FLOATUNIFORM_DATA`).
    pub name: &'static str,
    /// First ID.
    pub first: u16,
    /// Number of IDs.
    pub count: u16,
    /// What the IDs feed.
    pub description: &'static str,
}

impl AliasGroup {
    /// Whether `id` belongs to the group.
    pub const fn contains(&self, id: u16) -> bool {
        id >= self.first && id < self.first + self.count
    }
}

/// The format of one entry of a look-up table written through FIFO data registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EntryFormat {
    /// The seed's name of the table.
    pub name: &'static str,
    /// The Rust accessor type.
    pub struct_name: &'static str,
    /// The name in UPPER_SNAKE_CASE, the prefix of its SystemVerilog localparams.
    pub key: &'static str,
    /// Number of entries of the table.
    pub elements: u16,
    /// Which table this is.
    pub description: &'static str,
    /// The fields of one entry.
    pub fields: &'static [FieldInfo],
}

/// A register layout: one seed section, describing one ID or a family of IDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LayoutInfo {
    /// The seed heading (`GPUREG_TEXUNITi_PARAM`; `i` is the instance number).
    pub name: &'static str,
    /// The Rust accessor type (`TexunitParam`).
    pub struct_name: &'static str,
    /// The name in UPPER_SNAKE_CASE (`TEXUNIT_PARAM`), the prefix of its SystemVerilog
    /// localparams.
    pub key: &'static str,
    /// The IDs with this layout.
    pub ids: &'static [u16],
    /// The seed's description.
    pub description: &'static str,
    /// The fields.
    pub fields: &'static [FieldInfo],
    /// For LUT data registers: the formats of the LUT entries.
    pub entries: &'static [EntryFormat],
}

/// Everything the table says about one register ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RegInfo {
    /// The ID (0x000-0x2FF).
    pub id: u16,
    /// The 3dbrew name (`GPUREG_FINALIZE`; `GPUREG_0xxx` for IDs the seed does not name).
    pub name: &'static str,
    /// The official name (`PICA_REG_INTERRUPT`; two joined by " / " where the seed gives two;
    /// empty where it gives none).
    pub official: &'static str,
    /// The seed marks the official name as uncertain ("?").
    pub official_uncertain: bool,
    /// The fields (empty for IDs the seed does not describe).
    pub fields: &'static [FieldInfo],
    /// The alias group the ID belongs to.
    pub alias: Option<AliasGroup>,
    /// What a write does besides storing the value.
    pub effect: SideEffect,
    /// The seed's description (shared by a family) and note.
    pub description: &'static str,
    /// The Rust accessor type of the ID's layout.
    pub layout: Option<&'static str>,
}

impl RegInfo {
    /// Whether the seed names this ID (its name is not the `GPUREG_0xxx` placeholder).
    pub fn is_named(&self) -> bool {
        let rest = self.name.trim_start_matches("GPUREG_");
        !(rest.len() == 4 && rest.bytes().all(|b| b.is_ascii_hexdigit()))
    }
}

/// A typed view of one register layout (or LUT entry format): a `u32` newtype with a getter and
/// a `with_` builder per field.
pub trait Register: Copy {
    /// The seed heading of the layout (`GPUREG_TEXUNITi_PARAM`) or the LUT table name.
    const NAME: &'static str;
    /// The IDs the layout describes (for a LUT entry format: the data registers it is written
    /// through).
    const IDS: &'static [u16];
    /// The fields.
    const FIELDS: &'static [FieldInfo];
    /// Wraps a register word.
    fn from_raw(raw: u32) -> Self;
    /// The register word.
    fn raw(self) -> u32;
}

/// The table entry of `id`, or `None` above 0x2FF.
pub fn info(id: u32) -> Option<&'static RegInfo> {
    REGISTERS.get(usize::try_from(id).ok()?)
}

/// The 3dbrew name of `id` (`GPUREG_0xxx` for IDs the seed does not name), or
/// `GPUREG_1234 (beyond 0x2FF)` for IDs outside the register space.
pub fn name(id: u32) -> String {
    match info(id) {
        Some(r) => r.name.to_string(),
        None => format!("GPUREG_{id:04X} (beyond 0x2FF)"),
    }
}

/// The ID of a register name: the 3dbrew name with or without `GPUREG_`
/// (`GPUREG_FINALIZE`, `FINALIZE`, `GPUREG_0045`, `0045`), an official name
/// (`PICA_REG_INTERRUPT`; either half of a " / " pair), or a hex ID (`0x10`). Case-insensitive.
pub fn by_name(text: &str) -> Option<u16> {
    let key = text.trim().to_ascii_uppercase();
    let index = generated::name_index();
    if let Ok(i) = index.binary_search_by(|(k, _)| (*k).cmp(key.as_str())) {
        return Some(index[i].1);
    }
    let hex = key.strip_prefix("0X")?;
    let id = u16::from_str_radix(hex, 16).ok()?;
    (usize::from(id) < REG_COUNT).then_some(id)
}

/// The layout whose accessor type is `struct_name` (`"TexunitParam"`).
pub fn layout(struct_name: &str) -> Option<&'static LayoutInfo> {
    LAYOUTS.iter().find(|l| l.struct_name == struct_name)
}

/// The layout of `id`, if the seed describes it.
pub fn layout_of(id: u32) -> Option<&'static LayoutInfo> {
    info(id)?.layout.and_then(layout)
}

/// The enum type called `name` (`"TexunitParamWrap"`).
pub fn enum_info(name: &str) -> Option<&'static EnumInfo> {
    ENUMS.iter().find(|e| e.name == name)
}

/// The register that sets the index of `fifo`.
pub fn fifo_index_register(fifo: Fifo) -> Option<u16> {
    REGISTERS
        .iter()
        .find(|r| r.effect == SideEffect::FifoIndex(fifo))
        .map(|r| r.id)
}

/// The registers that push data into `fifo`, in ID order.
pub fn fifo_data_registers(fifo: Fifo) -> impl Iterator<Item = u16> {
    REGISTERS
        .iter()
        .filter(move |r| r.effect == SideEffect::FifoData(fifo))
        .map(|r| r.id)
}
