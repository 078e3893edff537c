//! The stage description: what the harness needs to know about one RTL stage top, declared once.
//!
//! Like the register table (`pica_model::regs`) and the channel table (`pica_model::beat`),
//! everything else about a stage's harness is derived from one [`Stage`] row of [`STAGES`]:
//! the C++ shim around its Verilated top, the Rust FFI declarations, the `build.rs` model rows
//! (the as-written build, the injected-bug builds, the coverage build, the mutant build) and the
//! plain-SV replay testbench of its bundles. A contributor adding a stage writes its RTL, its
//! model adapter, its case generator and one row here (the chapter "Adding an RTL stage" of the
//! guide walks through it).
//!
//! The description names ports exactly as the top declares them, minus the `_i` / `_o` suffix
//! (lowRISC style: the direction says which); `clk_i` and `rst_ni` are implied.

use pica_model::beat::Channel;

/// Which way a port points, seen from the stage top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Driven by the harness (`<name>_i`).
    In,
    /// Driven by the stage (`<name>_o`).
    Out,
}

/// How a port's bits travel through the C ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Up to 32 bits, one `uint32_t` (the shim masks inputs to the width).
    Bits(u32),
    /// Up to 32 bits read as a two's-complement value (`int32_t` in the ABI).
    Signed(u32),
    /// A wide port cut into `count` lanes of `lane` bits each (lane `k` at bits
    /// `lane*k +: lane`), one `uint32_t` per lane: f24 vectors (`lane` 24) or raw 32-bit words
    /// (`lane` 32).
    Lanes {
        /// Bits per lane (at most 32).
        lane: u32,
        /// Number of lanes.
        count: u32,
    },
}

impl Shape {
    /// The port's width in bits.
    pub const fn bits(self) -> u32 {
        match self {
            Shape::Bits(b) | Shape::Signed(b) => b,
            Shape::Lanes { lane, count } => lane * count,
        }
    }
}

/// What a port is for: the generic harness finds the interfaces by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The configuration interface (register writes, or a stage's own configuration bus).
    Config,
    /// The input channel (valid/ready handshake plus payload).
    Input,
    /// The output channel (valid/ready handshake plus payload).
    Output,
    /// A side port (memory, early depth, commit trace…), by [`SidePort::name`].
    Side(&'static str),
    /// Status: idle, hang reports.
    Status,
}

/// One port of a stage top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Port {
    /// The port's name without `_i` / `_o`.
    pub name: &'static str,
    /// Its direction.
    pub dir: Dir,
    /// Its width and how it crosses the ABI.
    pub shape: Shape,
    /// What it is for.
    pub role: Role,
}

const fn port(name: &'static str, dir: Dir, shape: Shape, role: Role) -> Port {
    Port {
        name,
        dir,
        shape,
        role,
    }
}
const fn i(name: &'static str, bits: u32, role: Role) -> Port {
    port(name, Dir::In, Shape::Bits(bits), role)
}
const fn o(name: &'static str, bits: u32, role: Role) -> Port {
    port(name, Dir::Out, Shape::Bits(bits), role)
}

/// How the stage takes its configuration.
#[derive(Clone, Copy, Debug)]
pub enum Config {
    /// Register writes on `cfg_we` / `cfg_id` (10 bits) / `cfg_data` while the stage is idle,
    /// of the registers `ids()` lists (IDs of the register table, in the stage's slot order).
    Regs {
        /// The registers the stage stores.
        ids: fn() -> Vec<u16>,
    },
    /// A stage-specific configuration bus (the SH stage's code, descriptor and uniform loads):
    /// the stage's Rust wrapper drives the [`Role::Config`] ports itself.
    Bus,
}

/// What protocol a side port speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideKind {
    /// A request/response port: `<name>_req_*` (stage → harness: valid, payload) and
    /// `<name>_rsp_*` (harness → stage), one request per handshake, the responses in request
    /// order; served by [`crate::kit::side::SideServer`].
    ReqRsp,
    /// An AXI4 master port with a 32-bit data bus (ARM IHI 0022): the five channels
    /// `<name>_aw*`, `<name>_w*`, `<name>_b*`, `<name>_ar*`, `<name>_r*` with the signal names of
    /// the specification in lower case (declared by `axi_ports!`); served by
    /// [`crate::axi::AxiServer`] (latency, backpressure, reordering across IDs) and checked on
    /// every beat by [`crate::axi::AxiChecker`].
    Axi {
        /// Width of the ID signals.
        id_bits: u32,
    },
}

/// The signals of an AXI4 master port named `name` with `id_bits`-bit IDs and a 32-bit data
/// bus, in channel order (AW, W, B, AR, R), as [`Port`]s of [`Role::Side`]`(name)`, followed by
/// the ports `$post`. The stage top declares them in the same order as `<name>_<signal>_i/_o`.
macro_rules! axi_ports {
    ([$($pre:expr),* $(,)?], $name:literal, $id:literal, [$($post:expr),* $(,)?]) => {
        &[
            $($pre,)*
            o(concat!($name, "_awvalid"), 1, Role::Side($name)),
            i(concat!($name, "_awready"), 1, Role::Side($name)),
            o(concat!($name, "_awid"), $id, Role::Side($name)),
            o(concat!($name, "_awaddr"), 32, Role::Side($name)),
            o(concat!($name, "_awlen"), 8, Role::Side($name)),
            o(concat!($name, "_awsize"), 3, Role::Side($name)),
            o(concat!($name, "_awburst"), 2, Role::Side($name)),
            o(concat!($name, "_wvalid"), 1, Role::Side($name)),
            i(concat!($name, "_wready"), 1, Role::Side($name)),
            o(concat!($name, "_wdata"), 32, Role::Side($name)),
            o(concat!($name, "_wstrb"), 4, Role::Side($name)),
            o(concat!($name, "_wlast"), 1, Role::Side($name)),
            i(concat!($name, "_bvalid"), 1, Role::Side($name)),
            o(concat!($name, "_bready"), 1, Role::Side($name)),
            i(concat!($name, "_bid"), $id, Role::Side($name)),
            i(concat!($name, "_bresp"), 2, Role::Side($name)),
            o(concat!($name, "_arvalid"), 1, Role::Side($name)),
            i(concat!($name, "_arready"), 1, Role::Side($name)),
            o(concat!($name, "_arid"), $id, Role::Side($name)),
            o(concat!($name, "_araddr"), 32, Role::Side($name)),
            o(concat!($name, "_arlen"), 8, Role::Side($name)),
            o(concat!($name, "_arsize"), 3, Role::Side($name)),
            o(concat!($name, "_arburst"), 2, Role::Side($name)),
            i(concat!($name, "_rvalid"), 1, Role::Side($name)),
            o(concat!($name, "_rready"), 1, Role::Side($name)),
            i(concat!($name, "_rid"), $id, Role::Side($name)),
            i(concat!($name, "_rdata"), 32, Role::Side($name)),
            i(concat!($name, "_rresp"), 2, Role::Side($name)),
            i(concat!($name, "_rlast"), 1, Role::Side($name)),
            $($post,)*
        ]
    };
}

/// A side port the harness serves from the model's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SidePort {
    /// Name; its ports are named after it ([`SideKind`]) with [`Role::Side`] of this name.
    pub name: &'static str,
    /// Its protocol.
    pub kind: SideKind,
    /// What the harness serves it from, for the docs.
    pub doc: &'static str,
    /// Whether every request gets a response beat (a memory read and write both answer) or
    /// only some (`false`: the port says which in its request, e.g. early-depth reads).
    pub every_request_answered: bool,
}

/// One build of a stage top: the RTL as written, or with an injected bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The name the shim reports (`default`, `inject_…`).
    pub name: &'static str,
    /// The `build.rs` model row (Verilator prefix `Vpica_{row}`).
    pub row: &'static str,
    /// `-D` defines of this build.
    pub defines: &'static [&'static str],
    /// Top parameter overrides (`NAME=VALUE`).
    pub params: &'static [&'static str],
    /// Also takes the defines of `PICA_RTL_DEFINES` (the as-written build does).
    pub user_defines: bool,
    /// What the injected bug does (empty for the as-written build).
    pub doc: &'static str,
}

/// The mutant build of a stage top (`pica mutate`, Yosys `mutate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mutants {
    /// The `build.rs` row.
    pub row: &'static str,
    /// How many mutants (`mutate -list N`).
    pub count: u32,
    /// `mutate -seed`.
    pub seed: u32,
    /// Built without `PICA_MUTANTS` naming it.
    pub default: bool,
}

/// A top parameter that implements a model knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KnobParam {
    /// The SV parameter.
    pub param: &'static str,
    /// The knob's name in the knob table (`pica_model::knobs`).
    pub knob: &'static str,
}

/// A group of output ports that crosses the C ABI as one nested struct shared with another
/// shim (the SH stage's commit record is the shader unit's `PicaShCommit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The Out struct's field holding it (`commit`); a port's field in the record is its name
    /// without `{field}_`.
    pub field: &'static str,
    /// The C type (declared in [`Record::header`]).
    pub c_type: &'static str,
    /// The hand-written C header that declares it.
    pub header: &'static str,
    /// The Rust `#[repr(C)]` mirror, as a path from the crate root.
    pub rust_type: &'static str,
    /// The ports it holds, in the record's field order (contiguous in [`Stage::ports`]).
    pub ports: &'static [&'static str],
}

/// A header of port-moving macros shared with another shim: `pica_shim.cpp` drives the SH
/// stage's ports inside `pica_top` (named with a prefix, `sh_`) through the same In / Out
/// structs, so it includes this generated header rather than a copy of the port list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SharedPorts {
    /// The header's file name under `csrc/`.
    pub header: &'static str,
    /// The macro prefix: `{macro}_IN(t, in, P)` moves every non-[`Role::Config`] input,
    /// `{macro}_OUT(t, out, P)` every non-[`Role::Config`] output (`P`: the port-name prefix).
    pub macro_prefix: &'static str,
}

/// One RTL stage top, declared once.
#[derive(Clone, Copy, Debug)]
pub struct Stage {
    /// Short name (`tev`, `fop`, `rast`, `sh`): `--rtl-stages`, `pica fuzz --target`,
    /// `pica vectors gen --stage`.
    pub name: &'static str,
    /// The SV top module.
    pub top: &'static str,
    /// The C ABI's function prefix (`pica_tev`) and handle type (`PicaTev`).
    pub c_prefix: &'static str,
    /// The C handle type.
    pub c_type: &'static str,
    /// The shim's file stem under `csrc/` (`pica_tev_shim`: `.h` and `.cpp`, generated).
    pub shim: &'static str,
    /// The order of the In struct's fields where it is not the ports' order (empty: port
    /// order). The SH stage's `PicaShsIn` predates the description and is shared with
    /// `pica_top`'s `sh_` ports, so its layout is kept byte for byte.
    pub in_order: &'static [&'static str],
    /// Output ports that travel as one nested struct.
    pub record: Option<Record>,
    /// A port-macro header shared with another shim.
    pub shared_ports: Option<SharedPorts>,
    /// One line on what the stage is.
    pub doc: &'static str,
    /// Its configuration interface.
    pub config: Config,
    /// The model channel its input port carries.
    pub input: Channel,
    /// The model channel its output port carries (and the replay testbench compares).
    pub output: Channel,
    /// Every port but `clk_i` / `rst_ni`, in the top's order.
    pub ports: &'static [Port],
    /// Its side ports.
    pub side_ports: &'static [SidePort],
    /// Its builds: the first is the as-written one.
    pub variants: &'static [Variant],
    /// The coverage build's row, if it has one.
    pub coverage: Option<&'static str>,
    /// The mutant build, if it has one.
    pub mutants: Option<Mutants>,
    /// Top parameters that implement model knobs.
    pub knob_params: &'static [KnobParam],
    /// A Verilator configuration file under `csrc/` (public signals for a backdoor).
    pub vlt: Option<&'static str>,
    /// Its plain-SV replay testbench of stage bundles (`rtl-bridge/tb/pica_<name>_replay_tb.sv`,
    /// generated by [`crate::kit::gen_tb`]), if it has one.
    pub replay: Option<&'static crate::kit::replay::Replay>,
}

impl Stage {
    /// The ports of `role`.
    pub fn ports_of(&self, role: Role) -> impl Iterator<Item = &Port> {
        self.ports.iter().filter(move |p| p.role == role)
    }

    /// The variant called `name`.
    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }
}

const fn as_written(row: &'static str) -> Variant {
    Variant {
        name: "default",
        row,
        defines: &[],
        params: &[],
        user_defines: true,
        doc: "",
    }
}

const fn inject(
    name: &'static str,
    row: &'static str,
    define: &'static [&'static str],
    doc: &'static str,
) -> Variant {
    Variant {
        name,
        row,
        defines: define,
        params: &[],
        user_defines: false,
        doc,
    }
}

use Role::{Config as C, Input as I, Output as O, Status as S};

/// The six texture combiners (`rtl/pica_tev.sv`).
pub const TEV: Stage = Stage {
    name: "tev",
    top: "pica_tev_top",
    c_prefix: "pica_tev",
    c_type: "PicaTev",
    shim: "pica_tev_shim",
    in_order: &[],
    record: None,
    shared_ports: None,
    doc: "the six texture combiners and the combiner buffer as an 18-deep pipeline (three clocks per combiner)",
    config: Config::Regs {
        ids: crate::kit::regs::tev,
    },
    input: Channel::Combiner,
    output: Channel::Combiner,
    ports: &[
        i("cfg_we", 1, C),
        i("cfg_id", 10, C),
        i("cfg_data", 32, C),
        i("in_valid", 1, I),
        o("in_ready", 1, I),
        i("in_tag", 32, I),
        i("in_primary", 32, I),
        i("in_frag_primary", 32, I),
        i("in_frag_secondary", 32, I),
        port("in_tex", Dir::In, Shape::Lanes { lane: 32, count: 4 }, I),
        o("out_valid", 1, O),
        i("out_ready", 1, O),
        o("out_tag", 32, O),
        o("out_color", 32, O),
        port(
            "out_stage_color",
            Dir::Out,
            Shape::Lanes { lane: 32, count: 6 },
            O,
        ),
        port(
            "out_stage_buffer",
            Dir::Out,
            Shape::Lanes { lane: 32, count: 6 },
            O,
        ),
        o("idle", 1, S),
    ],
    side_ports: &[],
    variants: &[
        as_written("tev"),
        inject(
            "inject_tev_scale_sat",
            "tev_inject_scale_sat",
            &["INJECT_TEV_SCALE_SAT"],
            "the 4x scale wraps (low 8 bits of x << 2) instead of saturating",
        ),
        inject(
            "inject_tev_buffer",
            "tev_inject_buffer",
            &["INJECT_TEV_BUFFER"],
            "stages 1-4 take the RGB buffer-input bit of the next stage",
        ),
    ],
    coverage: Some("cov_tev"),
    mutants: Some(Mutants {
        row: "tev_mut",
        count: 256,
        seed: 1,
        default: true,
    }),
    knob_params: &[],
    vlt: None,
    replay: Some(&crate::kit::replay::TEV),
};

/// The fragment operations (`rtl/pica_fop.sv`): alpha, stencil and depth tests, blending and
/// logic ops, the framebuffer behind an AXI4 master port.
pub const FOP: Stage = Stage {
    name: "fop",
    top: "pica_fop_top",
    c_prefix: "pica_fop",
    c_type: "PicaFop",
    shim: "pica_fop_shim",
    in_order: &[],
    record: None,
    shared_ports: None,
    doc: "the fragment operations with the framebuffer behind an AXI4 master port",
    config: Config::Regs {
        ids: crate::kit::regs::fop,
    },
    input: Channel::Combiner,
    output: Channel::Pixel,
    ports: axi_ports!(
        [
            i("cfg_we", 1, C),
            i("cfg_id", 10, C),
            i("cfg_data", 32, C),
            i("in_valid", 1, I),
            o("in_ready", 1, I),
            i("in_tag", 32, I),
            i("in_x", 16, I),
            i("in_y", 16, I),
            i("in_depth", 24, I),
            i("in_color", 32, I),
            o("out_valid", 1, O),
            i("out_ready", 1, O),
            o("out_tag", 32, O),
            o("out_x", 16, O),
            o("out_y", 16, O),
            o("out_color_addr", 32, O),
            o("out_color", 32, O),
            o("out_depth_addr", 32, O),
            o("out_depth_stencil", 32, O),
            o("out_flags", 8, O),
        ],
        "mem",
        3,
        [
            o("hang", 1, S),
            o("hang_kind", 2, S),
            o("hang_buffer", 1, S),
            o("hang_addr", 32, S),
            o("hang_value", 3, S),
            o("idle", 1, S),
        ]
    ),
    side_ports: &[SidePort {
        name: "mem",
        kind: SideKind::Axi { id_bits: 3 },
        doc: "an AXI4 master (single-beat bursts of the colour and depth buffers' words, eight \
              transactions in flight), served from the model's memory",
        every_request_answered: true,
    }],
    variants: &[
        as_written("fop"),
        inject(
            "inject_fop_blend_factor",
            "fop_inject_blend_factor",
            &["INJECT_FOP_BLEND_FACTOR"],
            "the blend factor ONE_MINUS_SRC_ALPHA uses the destination alpha",
        ),
        inject(
            "inject_fop_stencil_zfail",
            "fop_inject_stencil_zfail",
            &["INJECT_FOP_STENCIL_ZFAIL"],
            "stencil pass with depth fail runs the z-pass action",
        ),
        inject(
            "inject_fop_tile32",
            "fop_inject_tile32",
            &["INJECT_FOP_TILE32"],
            "an off-by-one in the 32x32 block tiling address",
        ),
        inject(
            "inject_fop_axi_no_hazard",
            "fop_inject_axi_no_hazard",
            &["INJECT_AXI_NO_HAZARD"],
            "the AXI4 master's same-word rule left out: a read may pass the posted write to \
             its word (a pipelined design's read-after-write hazard)",
        ),
        inject(
            "inject_fop_axi_drop_b",
            "fop_inject_axi_drop_b",
            &["INJECT_AXI_DROP_B"],
            "the AXI4 master loses a write response that arrives in the same clock as a read \
             response (a dropped out-of-order response: the port stops)",
        ),
        inject(
            "inject_fop_pipe_hazard",
            "fop_inject_pipe_hazard",
            &["INJECT_FOP_PIPE_HAZARD"],
            "the fast path's same-pixel rule leaves out the fragment right ahead: a fragment \
             may read a word the one before it is about to write (a missed read-after-write \
             hazard)",
        ),
        inject(
            "inject_fop_pipe_evict",
            "fop_inject_pipe_evict",
            &["INJECT_FOP_PIPE_EVICT"],
            "a cache miss replaces its line without writing the victim's dirty words back",
        ),
        inject(
            "inject_fop_hang_moves",
            "fop_inject_hang_moves",
            &["INJECT_FOP_HANG_MOVES"],
            "the hang's address and value move a clock after hang_o rises (a protocol breach \
             the bridge catches: the fields must hold with hang_o)",
        ),
    ],
    coverage: Some("cov_fop"),
    mutants: Some(Mutants {
        row: "fop_mut",
        count: 256,
        seed: 1,
        default: true,
    }),
    knob_params: &[],
    vlt: None,
    replay: Some(&crate::kit::replay::FOP),
};

/// CLIP and RAST (`rtl/pica_clip_pipe.sv` with `rtl/pica_clip.sv`, `rtl/pica_rast.sv`) with the
/// early-depth port.
pub const RAST: Stage = Stage {
    name: "rast",
    top: "pica_rast_top",
    c_prefix: "pica_rast",
    c_type: "PicaRast",
    shim: "pica_rast_shim",
    in_order: &[],
    record: None,
    shared_ports: None,
    doc: "clipping, triangle setup and rasterization with the early-depth port",
    config: Config::Regs {
        ids: crate::kit::regs::rast,
    },
    input: Channel::Primitive,
    output: Channel::Fragment,
    ports: &[
        i("cfg_we", 1, C),
        i("cfg_id", 10, C),
        i("cfg_data", 32, C),
        i("in_valid", 1, I),
        o("in_ready", 1, I),
        i("in_seq", 32, I),
        port(
            "in_v",
            Dir::In,
            Shape::Lanes {
                lane: 24,
                count: 72,
            },
            I,
        ),
        o("out_valid", 1, O),
        i("out_ready", 1, O),
        o("out_tri", 32, O),
        o("out_x", 16, O),
        o("out_y", 16, O),
        o("out_depth", 24, O),
        o("out_color", 32, O),
        port(
            "out_attr",
            Dir::Out,
            Shape::Lanes {
                lane: 24,
                count: 24,
            },
            O,
        ),
        port(
            "out_tex_deriv",
            Dir::Out,
            Shape::Lanes {
                lane: 24,
                count: 12,
            },
            O,
        ),
        o("ed_req_valid", 1, Role::Side("ed")),
        i("ed_req_ready", 1, Role::Side("ed")),
        o("ed_req_op", 2, Role::Side("ed")),
        o("ed_req_x", 16, Role::Side("ed")),
        o("ed_req_y", 16, Role::Side("ed")),
        o("ed_req_data", 24, Role::Side("ed")),
        i("ed_rsp_valid", 1, Role::Side("ed")),
        o("ed_rsp_ready", 1, Role::Side("ed")),
        i("ed_rsp_data", 24, Role::Side("ed")),
        o("idle", 1, S),
    ],
    side_ports: &[SidePort {
        name: "ed",
        kind: SideKind::ReqRsp,
        doc: "early-depth buffer reads, writes and clears, served from the model's \
              EarlyDepthBuffer",
        every_request_answered: true,
    }],
    variants: &[
        as_written("rast"),
        inject(
            "inject_rast_fill_rule",
            "rast_inject_fill_rule",
            &["INJECT_RAST_FILL_RULE"],
            "the top-left tie broken the wrong way",
        ),
        inject(
            "inject_rast_persp",
            "rast_inject_persp",
            &["INJECT_RAST_PERSP"],
            "texcoord0.u interpolated linearly in screen space (no perspective correction)",
        ),
        inject(
            "inject_clip_plane_order",
            "rast_inject_clip_plane_order",
            &["INJECT_CLIP_PLANE_ORDER"],
            "the z <= 0 and z >= -w planes clipped in swapped order",
        ),
        inject(
            "inject_clip_fast_overwrite",
            "rast_inject_clip_fast_overwrite",
            &["INJECT_CLIP_FAST_OVERWRITE"],
            "CLIP's fast path hands an unclipped triangle to its output register while that \
             still holds one (the held triangle is lost)",
        ),
        inject(
            "inject_clip_fast_order",
            "rast_inject_clip_fast_order",
            &["INJECT_CLIP_FAST_ORDER"],
            "CLIP's general path starts on a clipped triangle while the fast path still holds \
             an older one, and its output goes first (triangles out of order)",
        ),
        inject(
            "inject_rast_slot_early",
            "rast_inject_slot_early",
            &["INJECT_RAST_SLOT_EARLY"],
            "RAST frees a triangle slot when its walk ends, not when its last pixel is issued \
             (the next set-up overwrites attributes queued pixels still read)",
        ),
        inject(
            "inject_rast_credit",
            "rast_inject_credit",
            &["INJECT_RAST_CREDIT"],
            "RAST's output FIFO credit check off by one (under backpressure a fragment is \
             written over the oldest one queued)",
        ),
        Variant {
            name: "lanes7",
            row: "rast_lanes7",
            defines: &[],
            params: &["Lanes=7"],
            user_defines: false,
            doc: "the RTL as written with 7 interpolation lanes instead of 13 (the area knob \
                  of the whole-GPU budget)",
        },
    ],
    coverage: Some("cov_rast"),
    mutants: Some(Mutants {
        row: "rast_mut",
        count: 256,
        seed: 1,
        default: true,
    }),
    knob_params: &[],
    vlt: None,
    replay: Some(&crate::kit::replay::RAST),
};

/// The four shader units as the SH stage (`rtl/pica_sh.sv`): three vertex units and the unit
/// that runs either the vertex or the geometry shader.
pub const SH: Stage = Stage {
    name: "sh",
    top: "pica_sh_top",
    c_prefix: "pica_shs",
    c_type: "PicaShs",
    shim: "pica_sh_stage_shim",
    in_order: &[
        "cfg_valid",
        "cfg_bank",
        "cfg_kind",
        "cfg_addr",
        "cfg_data",
        "in_valid",
        "in_seq",
        "in_attr",
        "in_last",
        "in_kind",
        "in_data",
        "out_ready",
        "commit_ready",
    ],
    record: Some(Record {
        field: "commit",
        c_type: "PicaShCommit",
        header: "pica_sh_shim.h",
        rust_type: "crate::kit::record::PicaShCommit",
        ports: &[
            "commit_pc",
            "commit_word",
            "commit_dst",
            "commit_mask",
            "commit_result",
            "commit_cmp",
            "commit_a0x",
            "commit_a0y",
            "commit_al",
            "commit_next_pc",
            "commit_emit",
            "commit_hang",
            "commit_end",
        ],
    }),
    shared_ports: Some(SharedPorts {
        header: "pica_sh_ports.h",
        macro_prefix: "PICA_SH_PORTS",
    }),
    doc: "the four shader units: vertex shading and the geometry shader",
    config: Config::Bus,
    input: Channel::ShaderIn,
    output: Channel::ShaderOut,
    ports: &[
        i("cfg_valid", 1, C),
        o("cfg_ready", 1, C),
        i("cfg_bank", 2, C),
        i("cfg_kind", 4, C),
        i("cfg_addr", 12, C),
        port("cfg_data", Dir::In, Shape::Lanes { lane: 32, count: 3 }, C),
        i("in_valid", 1, I),
        o("in_ready", 1, I),
        i("in_kind", 2, I),
        i("in_seq", 32, I),
        i("in_attr", 5, I),
        i("in_last", 1, I),
        port("in_data", Dir::In, Shape::Lanes { lane: 32, count: 3 }, I),
        o("out_valid", 1, O),
        i("out_ready", 1, O),
        o("out_kind", 2, O),
        o("out_id", 32, O),
        o("out_reg", 6, O),
        port("out_data", Dir::Out, Shape::Lanes { lane: 32, count: 3 }, O),
        o("out_last", 1, O),
        o("out_vtx_id", 2, O),
        o("out_winding", 1, O),
        o("out_prim", 1, O),
        o("commit_valid", 1, Role::Side("commit")),
        i("commit_ready", 1, Role::Side("commit")),
        o("commit_unit", 2, Role::Side("commit")),
        o("commit_seq", 32, Role::Side("commit")),
        o("commit_pc", 12, Role::Side("commit")),
        o("commit_word", 32, Role::Side("commit")),
        o("commit_dst", 8, Role::Side("commit")),
        o("commit_mask", 4, Role::Side("commit")),
        port(
            "commit_result",
            Dir::Out,
            Shape::Lanes { lane: 24, count: 4 },
            Role::Side("commit"),
        ),
        o("commit_cmp", 2, Role::Side("commit")),
        port("commit_a0x", Dir::Out, Shape::Signed(32), Role::Side("commit")),
        port("commit_a0y", Dir::Out, Shape::Signed(32), Role::Side("commit")),
        port("commit_al", Dir::Out, Shape::Signed(32), Role::Side("commit")),
        o("commit_next_pc", 12, Role::Side("commit")),
        o("commit_emit", 1, Role::Side("commit")),
        o("commit_hang", 3, Role::Side("commit")),
        o("commit_end", 1, Role::Side("commit")),
        o("hang", 1, S),
        o("hang_unit", 2, S),
        o("hang_pc", 12, S),
        o("hang_word", 32, S),
        o("hang_code", 3, S),
        o("idle", 1, S),
    ],
    side_ports: &[SidePort {
        name: "commit",
        kind: SideKind::ReqRsp,
        doc: "one record per retired instruction (the commit trace lockstep compares); \
              stage → harness only",
        every_request_answered: false,
    }],
    variants: &[
        as_written("sh_stage"),
        inject(
            "inject_sh_add_round",
            "sh_stage_inject_add_round",
            &["INJECT_SH_ADD_ROUND"],
            "ADD sets its result's lowest mantissa bit when the exponents differ, in all four units",
        ),
        inject(
            "inject_sh_loop_extra",
            "sh_stage_inject_loop_extra",
            &["INJECT_SH_LOOP_EXTRA"],
            "a LOOP runs one iteration too many, in all four units",
        ),
    ],
    coverage: Some("cov_sh"),
    mutants: None,
    knob_params: &[
        KnobParam {
            param: "MaxNegInf",
            knob: "max-neg-inf",
        },
        KnobParam {
            param: "Cmp67True",
            knob: "cmp67",
        },
        KnobParam {
            param: "CmpUsesMask",
            knob: "cmp-uses-mask",
        },
        KnobParam {
            param: "IntZSigned",
            knob: "int-z",
        },
        KnobParam {
            param: "PcOverflowWrap",
            knob: "pc-overflow",
        },
        KnobParam {
            param: "UnknownOpNop",
            knob: "unknown-op",
        },
        KnobParam {
            param: "LoopAlRestore",
            knob: "loop-al",
        },
        KnobParam {
            param: "MovFlush",
            knob: "mov-subnormal",
        },
        KnobParam {
            param: "LoopEndAll",
            knob: "loop-shared-end",
        },
    ],
    vlt: None,
    replay: None,
};

/// Texture units 0-2 (`rtl/pica_tex_top.sv` with the `pica_tex_*` blocks) with the texel cache
/// behind an AXI4 master port; unit 3 (the procedural texture) stays in the model.
pub const TEX: Stage = Stage {
    name: "tex",
    top: "pica_tex_top",
    c_prefix: "pica_tex",
    c_type: "PicaTex",
    shim: "pica_tex_shim",
    in_order: &[],
    record: None,
    shared_ports: None,
    doc: "texture units 0-2 (every format, filter, wrap mode, mipmaps, cube, projection and \
          shadow textures) over a texel cache behind an AXI4 master port",
    config: Config::Regs {
        ids: crate::kit::regs::tex,
    },
    input: Channel::Fragment,
    output: Channel::TexColor,
    ports: axi_ports!(
        [
            i("cfg_we", 1, C),
            i("cfg_id", 10, C),
            i("cfg_data", 32, C),
            i("in_valid", 1, I),
            o("in_ready", 1, I),
            i("in_tag", 32, I),
            i("in_flush", 1, I),
            port("in_tc0", Dir::In, Shape::Lanes { lane: 24, count: 3 }, I),
            port("in_tc1", Dir::In, Shape::Lanes { lane: 24, count: 2 }, I),
            port("in_tc2", Dir::In, Shape::Lanes { lane: 24, count: 2 }, I),
            port("in_d0", Dir::In, Shape::Lanes { lane: 24, count: 4 }, I),
            port("in_d1", Dir::In, Shape::Lanes { lane: 24, count: 4 }, I),
            port("in_d2", Dir::In, Shape::Lanes { lane: 24, count: 4 }, I),
            o("out_valid", 1, O),
            i("out_ready", 1, O),
            o("out_tag", 32, O),
            port("out_tex", Dir::Out, Shape::Lanes { lane: 32, count: 3 }, O),
        ],
        "mem",
        2,
        [
            o("fetch_valid", 1, S),
            o("fetch_tag", 32, S),
            o("fetch_unit", 2, S),
            o("fetch_addr", 32, S),
            port(
                "fetch_raw",
                Dir::Out,
                Shape::Lanes { lane: 32, count: 4 },
                S
            ),
            o("fetch_rgba", 32, S),
            o("hang", 1, S),
            o("hang_kind", 2, S),
            o("hang_unit", 2, S),
            o("hang_addr", 32, S),
            o("idle", 1, S),
        ]
    ),
    side_ports: &[SidePort {
        name: "mem",
        kind: SideKind::Axi { id_bits: 2 },
        doc: "an AXI4 master, reads only (the texel cache's line fills: four-beat INCR bursts \
              of 16-byte lines), served from the model's memory",
        every_request_answered: true,
    }],
    variants: &[
        as_written("tex"),
        inject(
            "inject_tex_cache_beat",
            "tex_inject_cache_beat",
            &["INJECT_TEX_CACHE_BEAT"],
            "a texel-cache line fill stores beats 0/1 and 2/3 swapped",
        ),
        inject(
            "inject_tex_job_order",
            "tex_inject_job_order",
            &["INJECT_TEX_JOB_ORDER"],
            "a linear level's texels (i+1, j) and (i, j+1) are fetched swapped",
        ),
        inject(
            "inject_tex_morton",
            "tex_inject_morton",
            &["INJECT_TEX_MORTON"],
            "the Morton order inside an 8x8 tile swaps two bits",
        ),
        inject(
            "inject_tex_lod_round",
            "tex_inject_lod_round",
            &["INJECT_TEX_LOD_ROUND"],
            "the level of detail rounds one step the wrong way",
        ),
        Variant {
            name: "knobs_alt",
            row: "tex_knobs_alt",
            defines: &[],
            params: &[
                "AlphaWhite=1'b1",
                "ReservedZero=1'b1",
                "MinOne=1'b1",
                "Truncate=1'b1",
                "UnmappedZero=1'b1",
                "ReservedTypeDisabled=1'b1",
            ],
            user_defines: false,
            doc: "every tex-* knob the stage implements at its other value",
        },
        Variant {
            name: "jobs_bram",
            row: "tex_jobs_bram",
            defines: &["PICA_TEX_JOBS_BRAM"],
            params: &[],
            user_defines: false,
            doc: "the RTL with its 206-bit job FIFO in block RAM with a registered head \
                  (pica_bram_fifo) instead of LUT RAM: the FPGA build (scripts/fpga tex \
                  --define PICA_TEX_JOBS_BRAM)",
        },
    ],
    coverage: Some("cov_tex"),
    mutants: Some(Mutants {
        row: "tex_mut",
        count: 256,
        seed: 1,
        default: true,
    }),
    knob_params: &[
        KnobParam {
            param: "AlphaWhite",
            knob: "tex-alpha-only-colour",
        },
        KnobParam {
            param: "ReservedZero",
            knob: "tex-reserved-format",
        },
        KnobParam {
            param: "MinOne",
            knob: "tex-min-level-size",
        },
        KnobParam {
            param: "Truncate",
            knob: "tex-filter-rounding",
        },
        KnobParam {
            param: "UnmappedZero",
            knob: "tex-unmapped",
        },
        KnobParam {
            param: "ReservedTypeDisabled",
            knob: "tex-reserved-type",
        },
    ],
    vlt: None,
    replay: Some(&crate::kit::replay::TEX),
};

/// Every stage on the kit, in pipeline order.
pub const STAGES: &[Stage] = &[SH, RAST, TEX, TEV, FOP];

/// The stage called `name`.
pub fn stage(name: &str) -> Option<&'static Stage> {
    STAGES.iter().find(|s| s.name == name)
}
