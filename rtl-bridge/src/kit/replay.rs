//! The replay testbench of a stage, as data: how a stage bundle's files map onto the stage
//! top's ports.
//!
//! A stage bundle (`pica vectors gen --stage S`, written by `vectors/src/stage_S.rs`) holds an
//! operation file (`ops.hex`: register writes and input items, one record a line), the
//! expected output beats (a `pica_chan_pkg` struct a line) and, for a stage with a side port,
//! what the side port serves (memory images, the early-depth buffer) and what it must hold
//! after the run. A [`Replay`] row says how each of those reaches the top; the generator
//! ([`crate::kit::gen_tb`]) writes the plain-SV testbench `rtl-bridge/tb/pica_S_replay_tb.sv`
//! from it and owns every line of SV the testbenches share (clock and reset, plusargs,
//! `$readmemh`, the op loop, backpressure, the side port's response queue and latency, the
//! field comparison, the verdict).
//!
//! Messages are templates: `{expr}` prints the SV expression `expr` with `%0d`, `{expr|08h}`
//! with `%08h` (any `$sformatf` conversion). The expressions may name the testbench's
//! variables: `i` (the operation), `k` (the item being checked), `b` (its beat), `e` (that
//! expected beat, the channel's struct), `line` (its raw bits), `got` (items taken so far),
//! `nexp` (items expected), `nops`, `nbeats`, the kinds' counters ([`OpKind::counter`]), the
//! side model's counters, `cyc` (clocks since reset, with a side model), the streams
//! ([`Stream::name`]) and the ports by name.

/// Where an input or configuration port takes its value from, for one operation kind.
#[derive(Clone, Copy, Debug)]
pub enum Src {
    /// The next field of the record: the record's fields are the ports marked so, in the
    /// order listed, packed most significant first and ending at bit 0.
    Record,
    /// The kind's item counter before this item (the index the testbench gives the item).
    Index,
    /// A constant SV expression.
    Const(&'static str),
}

/// One port an operation sets.
#[derive(Clone, Copy, Debug)]
pub struct Set {
    /// The port, by its name in the stage description.
    pub port: &'static str,
    /// Its value.
    pub src: Src,
    /// What the field holds, for the header (empty: the port's name says it).
    pub doc: &'static str,
}

/// A port set from the next record field.
pub const fn rec(port: &'static str, doc: &'static str) -> Set {
    Set {
        port,
        src: Src::Record,
        doc,
    }
}

/// What one kind of operation does.
#[derive(Clone, Copy, Debug)]
pub enum Action {
    /// A register write: waits until the stage is idle (`idle_o`), then one clock of `cfg_we`
    /// with these ports set.
    Config(&'static [Set]),
    /// An input item: these ports set, held on the input (`in_valid`) until taken (`in_ready`
    /// as sampled at the edge).
    Item {
        /// The ports it sets.
        set: &'static [Set],
        /// The message when it is never taken (template).
        never_taken: &'static str,
    },
}

/// One kind of operation of `ops.hex` (the kind byte on top of the record).
#[derive(Clone, Copy, Debug)]
pub struct OpKind {
    /// The kind byte.
    pub code: u8,
    /// What it is (`register write`, `fragment`).
    pub name: &'static str,
    /// The counter (an SV `int`) of operations of this kind fed so far.
    pub counter: &'static str,
    /// What it does.
    pub action: Action,
    /// More on it for the header (empty: nothing).
    pub doc: &'static str,
}

/// The operation file.
#[derive(Clone, Copy, Debug)]
pub struct Ops {
    /// The most operations a bundle may hold (the testbench's array).
    pub max: u32,
    /// The kinds, by kind byte.
    pub kinds: &'static [OpKind],
    /// The message when a register write finds the stage never idle (template).
    pub never_idle: &'static str,
    /// The message for an unknown kind byte `kind` (template).
    pub unknown: &'static str,
}

/// One field comparison of an expected beat with the stage's outputs.
#[derive(Clone, Copy, Debug)]
pub struct Cmp {
    /// The field's name in messages (template; may use [`Cmp::each`]'s variable).
    pub name: &'static str,
    /// The expected value (SV expression, at most 32 bits).
    pub exp: &'static str,
    /// The actual value (SV expression, at most 32 bits).
    pub act: &'static str,
    /// Compared for each `var` in `0..count` (arrays of lanes).
    pub each: Option<(&'static str, u32)>,
    /// Compared only when this SV condition holds (an optional stream).
    pub when: Option<&'static str>,
}

/// A plain field comparison: `name` expects `exp`, the stage shows `act`.
pub const fn cmp(name: &'static str, exp: &'static str, act: &'static str) -> Cmp {
    Cmp {
        name,
        exp,
        act,
        each: None,
        when: None,
    }
}

/// A field compared for each `var` in `0..count` (the lanes of a wide field).
pub const fn each(
    name: &'static str,
    exp: &'static str,
    act: &'static str,
    lanes: (&'static str, u32),
) -> Cmp {
    Cmp {
        name,
        exp,
        act,
        each: Some(lanes),
        when: None,
    }
}

/// A further expected file with one line per expected item (compared by [`Cmp`] rows naming
/// its array).
#[derive(Clone, Copy, Debug)]
pub struct Stream {
    /// Plusarg (`+NAME=FILE`) and the SV array (`NAME[k]`); `has_NAME` says it was given.
    pub name: &'static str,
    /// Bits per line.
    pub width: u32,
    /// For the header.
    pub doc: &'static str,
}

/// The expected output beats: the stage description's output channel, one struct a line.
#[derive(Clone, Copy, Debug)]
pub struct Expect {
    /// Plusarg of the file (`+NAME=FILE`); its count is `+nNAME=M`.
    pub plusarg: &'static str,
    /// The file in the bundle, for the header.
    pub file: &'static str,
    /// The most beats a bundle may hold.
    pub max: u32,
    /// Beats per output item (TEV: six stages per fragment).
    pub per_item: u32,
    /// When set, the beats must be `per_item` × the items of `ops.hex` (message template,
    /// `nitems` the items).
    pub items_check: Option<&'static str>,
    /// More on the beats for the header.
    pub doc: &'static str,
    /// Further per-item files.
    pub streams: &'static [Stream],
    /// Compared for every beat of an item.
    pub fields: &'static [Cmp],
    /// Compared once per item, with its last beat.
    pub item_fields: &'static [Cmp],
    /// Where a mismatch is (template, before `: field F expected … actual …`).
    pub at: &'static str,
    /// The `$sformatf` conversion of the values (`08h`, `0h`).
    pub value_fmt: &'static str,
    /// The message for an item beyond the expected ones (template).
    pub extra: &'static str,
}

/// A second expected stream beside the items' results: the beats a monitor port of the stage
/// reports (a beat each clock its valid port is high, no handshake), compared in order, field
/// by field, whatever the number of beats per item (TEX: the texel reads, `fetch_*`, against the
/// expected `texel` beats). The testbench fails on the first beat that differs, on a beat
/// beyond the expected ones, and at the end when fewer came.
#[derive(Clone, Copy, Debug)]
pub struct SideStream {
    /// Plusarg of the file (`+NAME=FILE`, required) and the SV array `NAME`; its count is
    /// `+nNAME=M` (SV `nNAME`), the beats seen so far `NAME_seen`.
    pub plusarg: &'static str,
    /// The file in the bundle, for the header.
    pub file: &'static str,
    /// The model channel its lines carry (one `pica_chan_pkg` struct a line).
    pub channel: pica_model::beat::Channel,
    /// The most beats a bundle may hold.
    pub max: u32,
    /// The monitor's valid port.
    pub valid: &'static str,
    /// Compared for every beat: `t` is the expected beat (the channel's struct), `j` its index.
    pub fields: &'static [Cmp],
    /// Where a mismatch is (template, before `: field F expected … actual …`).
    pub at: &'static str,
    /// The message for a beat beyond the expected ones (template).
    pub extra: &'static str,
    /// The message when fewer beats came by the end (template).
    pub missing: &'static str,
    /// More on the beats for the header.
    pub doc: &'static str,
}

/// The latency model of a side port's response queue (shared by every side model): responses
/// in request order, each `+latency=N` clocks after the earliest (the clock after the request
/// handshake), or a random 0..`+lat_max` (xorshift32 seeded `+lat_seed`) with the request side
/// not-ready about one clock in four.
#[derive(Clone, Copy, Debug)]
pub struct SideModel {
    /// The side port ([`crate::kit::desc::SidePort::name`]): `<port>_req_*`, `<port>_rsp_*`,
    /// or an AXI4 port's `<port>_aw*` … `<port>_r*` (the description's `SideKind`).
    pub port: &'static str,
    /// What it is in messages and the header (`memory`, `early-depth`).
    pub noun: &'static str,
    /// Responses in flight at most.
    pub queue: u32,
    /// The response data port (`<port>_rsp_…`, without the prefix; a request/response port
    /// only: an AXI4 port's signals are fixed by the protocol).
    pub rsp_data: &'static str,
    /// The response error port, if the port has one (request/response ports).
    pub rsp_err: Option<&'static str>,
    /// What the data port shows between responses (SV literal; request/response ports).
    pub idle_data: &'static str,
    /// What serves the requests.
    pub store: Store,
}

/// What a side port's requests are served from.
#[derive(Clone, Copy, Debug)]
pub enum Store {
    /// Word memory from up to `images` images (`+memK=FILE +memK_base=HEX +memK_words=N`,
    /// expected contents after the run `+finalK=FILE`). A request is performed in the clock
    /// it is accepted; `mapped` ranges outside every image read 0 and ignore writes, other
    /// addresses answer err.
    Images {
        /// Images at most.
        images: u32,
        /// Words of all images together at most.
        words: u32,
        /// The mapped byte ranges `[start, end)`, by name.
        mapped: &'static [(&'static str, u32, u32)],
    },
    /// One value per pixel of a `width` × `height` buffer with read (op 0), write (op 1) and
    /// clear (op 2: every pixel) requests, loaded from `+early_before` and checked against
    /// `+early_after` (line 0 the clear value, then `x | y | value` lines of the other pixels).
    PixelBuffer {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// Bits per value.
        bits: u32,
        /// Lines of a buffer file at most.
        lines: u32,
    },
}

/// An expected outcome besides the beats: the stage may stop on a hang (`hang_o` and the
/// `hang_*` fields), named by `+outcome=finished|hang`.
#[derive(Clone, Copy, Debug)]
pub struct HangOutcome {
    /// `hang_kind` values by name: `(name, code, the detail port that kind reports, whether
    /// that detail is hex)`.
    pub kinds: &'static [(&'static str, u32, &'static str, bool)],
    /// The port (and plusarg) that says where the hang happened (`hang_buffer`: which
    /// buffer; `hang_unit`: which texture unit).
    pub which: &'static str,
    /// Its values by name, from 0.
    pub buffers: &'static [&'static str],
}

/// What the run waits for once every operation is fed.
#[derive(Clone, Copy, Debug)]
pub enum Until {
    /// `nexp` items taken.
    Results,
    /// `idle_o`.
    Idle,
    /// `idle_o`, or `grace` clocks of `hang_o` (a stage that stops on a hang never goes idle;
    /// the results ahead of the hanging item leave within the grace).
    IdleOrHang {
        /// Clocks after the hang.
        grace: u32,
    },
}

/// How the run ends once every operation is fed: wait, then settle.
#[derive(Clone, Copy, Debug)]
pub struct Drain {
    /// What it waits for.
    pub until: Until,
    /// The message when it never comes (template).
    pub timeout: &'static str,
    /// Clocks after.
    pub settle: u32,
}

/// The replay testbench of one stage.
#[derive(Clone, Copy, Debug)]
pub struct Replay {
    /// What it replays, for the header (the module name goes first).
    pub about: &'static str,
    /// The operation file.
    pub ops: Ops,
    /// The expected beats.
    pub expect: Expect,
    /// A second expected stream, from a monitor port, if the stage has one.
    pub side_stream: Option<SideStream>,
    /// The side port's model, if the stage has one.
    pub side: Option<SideModel>,
    /// The hang outcome, if the stage can hang.
    pub hang: Option<HangOutcome>,
    /// The output backpressure: `(plusarg, default seed)`; seed 0 is always ready, another a
    /// 16-bit LFSR holding ready low about one clock in four.
    pub ready_seed: (&'static str, u32),
    /// `+max_cycles=N` and its default, or the fixed guard of every wait without the plusarg.
    pub max_cycles: (bool, u64),
    /// Stop the run once more than max_cycles clocks pass in all (not only per wait).
    pub global_limit: bool,
    /// How the run ends.
    pub drain: Drain,
    /// When the items taken differ from `nexp` after the drain (template).
    pub count_mismatch: &'static str,
    /// The verdict (template).
    pub pass: &'static str,
    /// Further header paragraphs (the sequence, the side model), free text.
    pub notes: &'static [&'static str],
}

const CFG_REGWRITE: OpKind = OpKind {
    code: 0,
    name: "register write",
    counter: "nwr",
    action: Action::Config(&[rec("cfg_id", "ID"), rec("cfg_data", "value")]),
    doc: "",
};

/// TEV: fragments in, six combiner beats (one per stage) out.
pub const TEV: Replay = Replay {
    about: "replays a TEV stage bundle (manifest kind \"stage:tev\", written by \
            pica_vectors::stage_tev: `pica fuzz --target tev`, `pica vectors gen --stage tev`) \
            on pica_tev_top and compares every expected combiner beat with what the stage \
            produces. `scripts/replay BUNDLE` reads the manifest into these plusargs.",
    ops: Ops {
        max: 1 << 17,
        kinds: &[
            CFG_REGWRITE,
            OpKind {
                code: 1,
                name: "fragment",
                counter: "nfrag",
                action: Action::Item {
                    set: &[
                        rec("in_tag", "tag = x | y << 16"),
                        rec("in_primary", "primary"),
                        rec("in_frag_primary", "fragment primary"),
                        rec("in_frag_secondary", "fragment secondary"),
                        rec("in_tex", "textures 3..0"),
                    ],
                    never_taken: "op {i}: input never accepted",
                },
                doc: "",
            },
        ],
        never_idle: "op {i}: pipeline never drained",
        unknown: "op {i}: unknown kind 0x{kind|02h}",
    },
    expect: Expect {
        plusarg: "beats",
        file: "combiner.hex",
        max: 6 << 17,
        per_item: 6,
        items_check: Some(
            "{nbeats} combiner beats for {nitems} fragments (6 per fragment expected)",
        ),
        doc: "six per fragment (stages 0..5) in fragment order; compared field by field (all \
              but `cycle`, which is the fragment index: the stage promises transactions, not \
              cycles): x and y against the tag the stage passed through, `stage` against the \
              beat's position, `color` and `buffer` against the stage's outputs; the final \
              colour against stage 5's",
        streams: &[],
        fields: &[
            cmp("x", "e.x", "out_tag[15:0]"),
            cmp("y", "e.y", "out_tag[31:16]"),
            cmp("stage", "e.stage", "b"),
            cmp("color", "e.color", "out_stage_color[32*b +: 32]"),
            cmp("buffer", "e.buffer", "out_stage_buffer[32*b +: 32]"),
        ],
        item_fields: &[cmp("color (final colour)", "e.color", "out_color")],
        at: "fragment {k} (x {e.x}, y {e.y}) stage {b}",
        value_fmt: "08h",
        extra: "fragment {got}: an extra result (tag 0x{out_tag|08h}; {nexp} fragments expected)",
    },
    side_stream: None,
    side: None,
    hang: None,
    ready_seed: ("seed", 1),
    max_cycles: (false, 10_000),
    global_limit: false,
    drain: Drain {
        until: Until::Results,
        timeout: "fragment {got}: no result (expected {nexp} fragments)",
        settle: 8,
    },
    count_mismatch: "{got} results, expected {nexp}",
    pass: "PASS: {nops} operations, {nfrag} fragments, {nbeats} combiner beats",
    notes: &[
        "Register writes wait until the pipeline is empty (pica_tev_top's rule); \
              fragments go in as the input port allows; the output's ready follows an LFSR so \
              the stall path is exercised.",
    ],
};

/// FOP: fragments in, pixel beats out, the framebuffer behind the memory port; may hang.
pub const FOP: Replay = Replay {
    about: "replays a FOP stage bundle (kind \"stage:fop\"; the FOP contract, \
            vectors/src/stage/fop.rs) on pica_fop_top and compares the pixel beats, the \
            outcome (hang) and the final memory with the model's.",
    ops: Ops {
        max: 1 << 18,
        kinds: &[
            CFG_REGWRITE,
            OpKind {
                code: 1,
                name: "fragment",
                counter: "nfrag",
                action: Action::Item {
                    set: &[
                        Set {
                            port: "in_tag",
                            src: Src::Index,
                            doc: "",
                        },
                        rec("in_x", "x"),
                        rec("in_y", "y"),
                        rec("in_depth", "depth"),
                        rec("in_color", "colour r | g<<8 | b<<16 | a<<24"),
                    ],
                    never_taken: "op {i}: fragment {nfrag} never taken",
                },
                doc: "its tag is its index",
            },
        ],
        never_idle: "op {i}: stage never idle",
        unknown: "op {i}: unknown kind {kind}",
    },
    expect: Expect {
        plusarg: "pixels",
        file: "pixel.hex",
        max: 1 << 18,
        per_item: 1,
        items_check: None,
        doc: "compared in order, every field but cycle (the tag the testbench gives each \
              fragment, its index, is checked too)",
        streams: &[],
        fields: &[
            cmp("tag", "k", "out_tag"),
            cmp("x", "e.x", "out_x"),
            cmp("y", "e.y", "out_y"),
            cmp("color_addr", "e.color_addr", "out_color_addr"),
            cmp("color", "e.color", "out_color"),
            cmp("depth_addr", "e.depth_addr", "out_depth_addr"),
            cmp("depth_stencil", "e.depth_stencil", "out_depth_stencil"),
            cmp("flags", "e.flags", "out_flags"),
        ],
        item_fields: &[],
        at: "pixel beat {k} (x {e.x}, y {e.y})",
        value_fmt: "0h",
        extra: "pixel beat {got} (x {out_x}, y {out_y}): extra beat (expected {nexp})",
    },
    side_stream: None,
    side: Some(SideModel {
        port: "mem",
        noun: "memory",
        queue: 256,
        // An AXI4 port (the stage description's `SideKind::Axi`): no response ports to name.
        rsp_data: "",
        rsp_err: None,
        idle_data: "",
        store: Store::Images {
            images: 4,
            words: 1 << 22,
            mapped: &[
                ("VRAM", 0x1800_0000, 0x1860_0000),
                ("FCRAM", 0x2000_0000, 0x2800_0000),
            ],
        },
    }),
    hang: Some(HangOutcome {
        kinds: &[
            ("unmapped", 1, "hang_addr", true),
            ("reserved_format", 2, "hang_value", false),
        ],
        which: "hang_buffer",
        buffers: &["color", "depth"],
    }),
    ready_seed: ("ready_seed", 0),
    max_cycles: (true, 10_000_000),
    global_limit: false,
    drain: Drain {
        until: Until::Idle,
        timeout: "stage never idle at the end ({got} beats)",
        settle: 4,
    },
    count_mismatch: "pixel beat {got}: missing beat ({got} beats, expected {nexp}; hang {hang})",
    pass: "PASS: {nops} ops, {nfrag} fragments, {got} pixel beats, {outcome|s}, {nimg} images; \
           {n_reads} read bursts, {n_writes} write bursts, {cyc} cycles",
    notes: &[
        "Sequence: reset; the operations in order: a register write waits for idle_o, a \
              fragment is held on the input until taken. After a hang no further operation is \
              fed. At the end the testbench waits for idle_o, then checks the number of beats, \
              the outcome and hang fields, and every image against its +finalK file.",
    ],
};

/// TEX: fragments in, texture-unit colours out, the textures behind the AXI4 port; may hang.
pub const TEX: Replay = Replay {
    about: "replays a TEX stage bundle (kind \"stage:tex\"; the TEX contract, \
            vectors/src/stage/tex.rs) on pica_tex_top and compares the colours of texture \
            units 0-2 of every fragment and the outcome (hang) with the model's.",
    ops: Ops {
        max: 1 << 18,
        kinds: &[
            CFG_REGWRITE,
            OpKind {
                code: 1,
                name: "fragment",
                counter: "nfrag",
                action: Action::Item {
                    set: &[
                        Set {
                            port: "in_tag",
                            src: Src::Index,
                            doc: "",
                        },
                        rec("in_flush", "invalidate the texel cache first"),
                        rec("in_tc0", "texcoord0 u, v, w (f24 lanes, u lowest)"),
                        rec("in_tc1", "texcoord1 u, v"),
                        rec("in_tc2", "texcoord2 u, v"),
                        rec("in_d0", "set 0's du/dx, dv/dx, du/dy, dv/dy"),
                        rec("in_d1", "set 1's derivatives"),
                        rec("in_d2", "set 2's derivatives"),
                    ],
                    never_taken: "op {i}: fragment {nfrag} never taken",
                },
                doc: "its tag is its index",
            },
        ],
        never_idle: "op {i}: stage never idle",
        unknown: "op {i}: unknown kind {kind}",
    },
    expect: Expect {
        plusarg: "colors",
        file: "tex_color.hex",
        max: 1 << 18,
        per_item: 1,
        items_check: None,
        doc: "compared in order: the tag the testbench gives each fragment (its index) and the \
              colours of units 0-2 (unit 3, the procedural texture, is the model's)",
        streams: &[],
        fields: &[
            cmp("tag", "k", "out_tag"),
            cmp("unit0", "e.unit0", "out_tex[31:0]"),
            cmp("unit1", "e.unit1", "out_tex[63:32]"),
            cmp("unit2", "e.unit2", "out_tex[95:64]"),
        ],
        item_fields: &[],
        at: "fragment {k} (x {e.x}, y {e.y})",
        value_fmt: "08h",
        extra: "fragment {got}: an extra result (tag {out_tag}; expected {nexp})",
    },
    side_stream: Some(SideStream {
        plusarg: "texels",
        file: "texel.hex",
        channel: pica_model::beat::Channel::Texel,
        max: 1 << 20,
        valid: "fetch_valid",
        fields: &[
            cmp("fragment", "t.cycle", "fetch_tag"),
            cmp("unit", "t.unit", "fetch_unit"),
            cmp("addr", "t.addr", "fetch_addr"),
            // Icarus takes no variable part-select of a struct member: a shift.
            each(
                "raw[{w}]",
                "t.raw >> (32 * w)",
                "fetch_raw[32*w +: 32]",
                ("w", 4),
            ),
            cmp("rgba", "t.rgba", "fetch_rgba"),
        ],
        at: "texel read {j} (fragment {t.cycle}, unit {t.unit}, address {t.addr|08h})",
        extra: "texel read {texels_seen}: an extra read (fragment {fetch_tag}, unit {fetch_unit}, \
                address {fetch_addr|08h}; expected {ntexels})",
        missing: "texel read {texels_seen}: missing ({texels_seen} reads, expected {ntexels})",
        doc: "the fetch_* monitor's reads, compared in order (the model's: fragment by fragment, \
              units 0, 1, 2, the finer level first, texels (i, j), (i+1, j), (i, j+1), \
              (i+1, j+1)): the fragment (its tag, the testbench's index), unit, address, the \
              bytes read and the decoded colour",
    }),
    side: Some(SideModel {
        port: "mem",
        noun: "memory",
        queue: 256,
        rsp_data: "",
        rsp_err: None,
        idle_data: "",
        store: Store::Images {
            images: 32,
            words: 1 << 22,
            mapped: &[
                ("VRAM", 0x1800_0000, 0x1860_0000),
                ("FCRAM", 0x2000_0000, 0x2800_0000),
            ],
        },
    }),
    hang: Some(HangOutcome {
        kinds: &[("unmapped", 1, "hang_addr", true)],
        which: "hang_unit",
        buffers: &["unit0", "unit1", "unit2"],
    }),
    ready_seed: ("ready_seed", 0),
    max_cycles: (true, 10_000_000),
    global_limit: false,
    drain: Drain {
        until: Until::IdleOrHang { grace: 16 },
        timeout: "stage never idle at the end ({got} results)",
        settle: 4,
    },
    count_mismatch: "fragment {got}: missing result ({got} results, expected {nexp}; hang {hang})",
    pass: "PASS: {nops} ops, {nfrag} fragments, {got} results, {texels_seen} texel reads, \
           {outcome|s}, {nimg} images; {n_reads} read bursts, {cyc} cycles",
    notes: &[
        "Sequence: reset; the operations in order: a register write waits for idle_o, a \
              fragment is held on the input until taken. After a hang no further operation is \
              fed. At the end the testbench waits for idle_o, then checks the number of \
              results, the texel reads and the outcome and hang fields. Each texel read the \
              fetch_* monitor reports is compared with the next expected texel beat as it \
              happens, so a read order that differs from the model's fails even where the \
              colours agree.",
    ],
};

/// RAST: triangles in, fragments out, the early-depth buffer behind its port.
pub const RAST: Replay = Replay {
    about: "replays a RAST stage bundle (kind \"stage:rast\"; the RAST contract, \
            vectors/src/stage/rast.rs) on pica_rast_top (CLIP -> RAST) and compares every \
            fragment and the early-depth buffer after the run with the model's.",
    ops: Ops {
        max: 1 << 14,
        kinds: &[
            CFG_REGWRITE,
            OpKind {
                code: 1,
                name: "early-depth clear",
                counter: "nclr",
                action: Action::Config(&[
                    Set {
                        port: "cfg_id",
                        src: Src::Const("10'(pica_regs_pkg::REG_EARLYDEPTH_CLEAR)"),
                        doc: "",
                    },
                    Set {
                        port: "cfg_data",
                        src: Src::Const("32'd1"),
                        doc: "",
                    },
                ]),
                doc: "written as GPUREG_EARLYDEPTH_CLEAR = 1",
            },
            OpKind {
                code: 2,
                name: "triangle",
                counter: "ntri",
                action: Action::Item {
                    set: &[
                        rec("in_seq", "seq"),
                        rec("in_v", "vertex k semantic s at [24*(24*k + s) +: 24]"),
                    ],
                    never_taken: "op {i}: triangle {ntri} never taken",
                },
                doc: "",
            },
        ],
        never_idle: "op {i}: stage never idle",
        unknown: "op {i}: unknown kind {kind}",
    },
    expect: Expect {
        plusarg: "fragments",
        file: "fragment.hex",
        max: 1 << 18,
        per_item: 1,
        items_check: None,
        doc: "compared in order, every field but cycle",
        streams: &[Stream {
            name: "tex_deriv",
            width: 288,
            doc: "tex_deriv.hex: per fragment the 288-bit out_tex_deriv_o (texcoord t \
                  component c at [24*(4*t + c) +: 24]); compared when given",
        }],
        fields: &[
            cmp("tri", "e.tri_f", "out_tri"),
            cmp("x", "e.x", "out_x"),
            cmp("y", "e.y", "out_y"),
            cmp("depth", "e.depth", "out_depth"),
            cmp("color", "e.color", "out_color"),
            // attr is the struct's last member: semantic s at bits [24*s +: 24] of the line.
            each(
                "attr[{s}]",
                "line[24*s +: 24]",
                "out_attr[24*s +: 24]",
                ("s", 24),
            ),
            Cmp {
                name: "tex_deriv[{c / 4}][{c % 4}]",
                exp: "tex_deriv[k][24*c +: 24]",
                act: "out_tex_deriv[24*c +: 24]",
                each: Some(("c", 12)),
                when: Some("has_tex_deriv"),
            },
        ],
        item_fields: &[],
        at: "fragment {k} (x {e.x}, y {e.y})",
        value_fmt: "0h",
        extra: "fragment {got} (x {out_x}, y {out_y}): extra fragment (expected {nexp})",
    },
    side_stream: None,
    side: Some(SideModel {
        port: "ed",
        noun: "early-depth",
        queue: 64,
        rsp_data: "data",
        rsp_err: None,
        idle_data: "24'hDEADBE",
        store: Store::PixelBuffer {
            width: 2048,
            height: 1024,
            bits: 24,
            lines: 1 << 18,
        },
    }),
    hang: None,
    ready_seed: ("ready_seed", 0),
    max_cycles: (true, 100_000_000),
    global_limit: true,
    drain: Drain {
        until: Until::Idle,
        timeout: "the end: stage never idle",
        settle: 4,
    },
    count_mismatch: "fragment {got}: missing fragment ({got} fragments, expected {nexp})",
    pass: "PASS: {nops} ops ({ntri} triangles, {nwr} register writes, {nclr} clears), {got} \
           fragments; early depth {n_reads} reads, {n_writes} writes, {n_clears} clears; \
           {cyc} cycles",
    notes: &[
        "Sequence: reset; the operations in order: a register write and a clear wait for \
              idle_o, a triangle is held on the input until taken. At the end the testbench \
              waits for idle_o, then checks the number of fragments and the buffer against \
              +early_after (its clear value, every listed pixel, and that no other pixel \
              differs from the clear value).",
    ],
};
