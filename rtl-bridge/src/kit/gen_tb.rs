//! The plain-SV replay testbenches (`rtl-bridge/tb/pica_<stage>_replay_tb.sv`), generated
//! from each stage's description ([`crate::kit::desc`]) and replay row
//! ([`crate::kit::replay`]) by `pica gen rtl`.
//!
//! Every line of SV the testbenches share lives here once: clock and reset, plusargs,
//! `$readmemh`, the prescan of `ops.hex`, the op loop (register writes after the stage drains,
//! items held until taken), the output backpressure LFSR, the side port's response queue with
//! its latency model, the field comparison and the verdict. A row only says which files,
//! fields, ports and messages its stage has. The testbenches run under Icarus
//! (`iverilog -g2012`) and Verilator (`--binary --timing`); `scripts/replay` builds them.

use std::fmt::Write as _;

use crate::kit::desc::{Dir, Port, Role, SideKind, Stage, STAGES};
use crate::kit::replay::{Action, Cmp, Drain, Replay, SideModel, SideStream, Src, Store, Until};
use pica_model::beat::Channel;

/// The repository path of `stage`'s replay testbench.
pub fn path(stage: &Stage) -> String {
    format!("rtl-bridge/tb/pica_{}_replay_tb.sv", stage.name)
}

/// Every generated testbench: `(repository path, text)`, for the stages with a replay row.
pub fn files() -> Vec<(String, String)> {
    STAGES
        .iter()
        .filter_map(|s| testbench(s).map(|t| (path(s), t)))
        .collect()
}

/// A `$sformatf` format and its arguments from a message template (`{expr}` → `%0d`,
/// `{expr|08h}` → `%08h`; see [`crate::kit::replay`]).
fn template(t: &str) -> (String, Vec<String>) {
    let mut fmt = String::new();
    let mut args = Vec::new();
    let mut rest = t;
    while let Some(p) = rest.find('{') {
        fmt.push_str(&rest[..p].replace('%', "%%"));
        let end = p + rest[p..]
            .find('}')
            .expect("unclosed { in a replay template");
        let inner = &rest[p + 1..end];
        let (expr, conv) = inner.split_once('|').unwrap_or((inner, "0d"));
        fmt.push('%');
        fmt.push_str(conv);
        args.push(expr.trim().to_string());
        rest = &rest[end + 1..];
    }
    fmt.push_str(&rest.replace('%', "%%"));
    (fmt, args)
}

/// A template as an SV string expression.
fn sfmt(t: &str) -> String {
    let (f, a) = template(t);
    if a.is_empty() {
        format!("\"{f}\"")
    } else {
        format!("$sformatf(\"{f}\", {})", a.join(", "))
    }
}

/// A template as it reads in the header (`{expr}` → `N`).
fn shown(t: &str) -> String {
    let (f, _) = template(t);
    f.replace("%%", "\u{0}")
        .replace("%0d", "N")
        .replace("%08h", "HHHHHHHH")
        .replace("%02h", "HH")
        .replace("%0h", "H")
        .replace("%s", "S")
        .replace('\u{0}', "%")
}

/// `text` wrapped to 100 columns after `first` (first line) / `rest` (other lines).
fn wrap(out: &mut String, first: &str, rest: &str, text: &str) {
    let mut line = first.to_string();
    let mut empty = true;
    for w in text.split_whitespace() {
        if !empty && line.len() + 1 + w.len() > 100 {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(w);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// SV statements on lines of at most 100 columns, broken between statements.
fn statements(out: &mut String, ind: &str, stmts: &[String]) {
    let mut line = ind.to_string();
    for s in stmts {
        if line.len() > ind.len() && line.len() + 1 + s.len() > 100 {
            out.push_str(&line);
            out.push('\n');
            line = ind.to_string();
        }
        if line.len() > ind.len() {
            line.push(' ');
        }
        line.push_str(s);
    }
    out.push_str(&line);
    out.push('\n');
}

/// One header row `//   +plusargs   doc`.
fn plusarg_row(out: &mut String, args: &str, doc: &str) {
    const COL: usize = 31;
    if doc.is_empty() {
        out.push_str(&format!("//   {args}\n"));
        return;
    }
    if args.len() + 5 < COL {
        let rest = format!("//{}", " ".repeat(COL - 2));
        wrap(out, &format!("//   {args:<w$}", w = COL - 5), &rest, doc);
    } else {
        out.push_str(&format!("//   {args}\n"));
        wrap(
            out,
            &format!("//{}", " ".repeat(COL - 2)),
            &format!("//{}", " ".repeat(COL - 2)),
            doc,
        );
    }
}

fn port<'a>(stage: &'a Stage, name: &str) -> &'a Port {
    stage
        .ports
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{}: no port {name}", stage.name))
}

fn decl(bits: u32) -> String {
    if bits == 1 {
        "logic".into()
    } else {
        format!("logic [{}:0]", bits - 1)
    }
}

/// The handshake port of `role` ending in `suffix` (`in_valid`, `out_ready`).
fn handshake(stage: &Stage, role: Role, suffix: &str) -> &'static str {
    stage
        .ports_of(role)
        .find(|p| p.name.ends_with(suffix))
        .map(|p| p.name)
        .unwrap_or_else(|| panic!("{}: no {suffix} port", stage.name))
}

/// `(port, SV value)` of each port an operation sets: record fields packed most significant
/// first, ending at bit 0, and the record's payload width.
fn fields(
    stage: &Stage,
    set: &[crate::kit::replay::Set],
    counter: &str,
) -> (Vec<(String, String, String)>, u32) {
    let width: u32 = set
        .iter()
        .filter(|s| matches!(s.src, Src::Record))
        .map(|s| port(stage, s.port).shape.bits())
        .sum();
    let mut hi = width;
    let mut out = Vec::new();
    for s in set {
        let (v, doc) = match s.src {
            Src::Record => {
                let w = port(stage, s.port).shape.bits();
                let r = format!("op[{}:{}]", hi - 1, hi - w);
                let d = format!(
                    "[{}:{}] {}",
                    hi - 1,
                    hi - w,
                    if s.doc.is_empty() { s.port } else { s.doc }
                );
                hi -= w;
                (r, d)
            }
            Src::Index => (counter.to_string(), String::new()),
            Src::Const(c) => (c.to_string(), String::new()),
        };
        out.push((s.port.to_string(), v, doc));
    }
    (out, width)
}

/// The record width of `ops.hex`: the kind byte over the widest payload.
fn ops_width(stage: &Stage, r: &Replay) -> u32 {
    8 + r
        .ops
        .kinds
        .iter()
        .map(|k| match k.action {
            Action::Config(set) | Action::Item { set, .. } => fields(stage, set, k.counter).1,
        })
        .max()
        .unwrap_or(0)
}

/// `stage`'s replay testbench, if it has a replay row.
pub fn testbench(stage: &Stage) -> Option<String> {
    let r = stage.replay?;
    let mut o = String::new();
    header(&mut o, stage, r);
    body(&mut o, stage, r);
    Some(o)
}

fn header(o: &mut String, stage: &Stage, r: &Replay) {
    let tb = format!("pica_{}_replay_tb", stage.name);
    o.push_str("// Generated by `pica gen rtl` from rtl-bridge/src/kit/desc.rs + replay.rs (the generator:\n");
    o.push_str("// rtl-bridge/src/kit/gen_tb.rs) — do not edit; change the stage's row and regenerate.\n//\n");
    wrap(o, &format!("// {tb}: "), "// ", r.about);
    o.push_str(
        "//\n// Plain SystemVerilog, no DPI: runs under Icarus (iverilog -g2012) and Verilator\n",
    );
    o.push_str("// (--binary --timing). Plusargs:\n//\n");
    let w = ops_width(stage, r);
    let mut kinds = String::new();
    for (n, k) in r.ops.kinds.iter().enumerate() {
        let (set, _) = match k.action {
            Action::Config(set) | Action::Item { set, .. } => (set, ()),
        };
        let (f, _) = fields(stage, set, k.counter);
        let docs: Vec<String> = f
            .iter()
            .map(|x| x.2.clone())
            .filter(|d| !d.is_empty())
            .collect();
        let mut s = format!("{} {}", k.code, k.name);
        if !k.doc.is_empty() {
            s += &format!(" ({})", k.doc);
        }
        if !docs.is_empty() {
            s += &format!(": {}", docs.join(", "));
        }
        if n > 0 {
            kinds.push_str("; ");
        }
        kinds.push_str(&s);
    }
    plusarg_row(
        o,
        "+ops=FILE +nops=N",
        &format!(
            "ops.hex: N operations, {w} bits each: [{}:{}] kind ({kinds})",
            w - 1,
            w - 8
        ),
    );
    let e = &r.expect;
    // An expected-beat file: `+NAME=FILE +nNAME=M`.
    let beats_row = |o: &mut String, plusarg: &str, file: &str, ch: Channel, doc: &str| {
        plusarg_row(
            o,
            &format!("+{plusarg}=FILE +n{plusarg}=M"),
            &format!(
                "{file}: the M expected {} beats (pica_chan_pkg::{} lines), {doc}",
                ch.name(),
                ch.payload().sv_type()
            ),
        );
    };
    beats_row(o, e.plusarg, e.file, stage.output, e.doc);
    for s in e.streams {
        plusarg_row(o, &format!("+{}=FILE", s.name), s.doc);
    }
    if let Some(ss) = &r.side_stream {
        beats_row(o, ss.plusarg, ss.file, ss.channel, ss.doc);
    }
    if let Some(side) = &r.side {
        match side.store {
            Store::Images { images, .. } => {
                plusarg_row(
                    o,
                    "+memK=FILE +memK_base=HEX +memK_words=N",
                    &format!(
                        "initial memory image K (K = 0..{}, up to {images}, from 0 up without gaps): N \
                         32-bit little-endian words from byte address HEX (4-aligned)",
                        images - 1
                    ),
                );
                plusarg_row(
                    o,
                    "+finalK=FILE",
                    "expected words of image K after the run (optional per image)",
                );
            }
            Store::PixelBuffer { bits, .. } => {
                plusarg_row(o, "+early_before=FILE +nearly_before=N", "");
                plusarg_row(
                    o,
                    "+early_after=FILE +nearly_after=N",
                    &format!(
                        "the early-depth buffer before / after the run: line 0 the clear value \
                         (bits [{}:0]), then one {}-bit line per pixel holding another value: x \
                         [{}:{}], y [{}:{}], value [{}:0]",
                        bits - 1,
                        bits + 32,
                        bits + 31,
                        bits + 16,
                        bits + 15,
                        bits,
                        bits - 1
                    ),
                );
            }
        }
    }
    if let Some(h) = &r.hang {
        plusarg_row(
            o,
            "+outcome=finished|hang",
            "expected outcome (default finished)",
        );
        let kinds: Vec<String> = h.kinds.iter().map(|k| k.0.to_string()).collect();
        let codes: Vec<String> = h.kinds.iter().map(|k| k.1.to_string()).collect();
        let bufs: Vec<String> = (0..h.buffers.len()).map(|i| i.to_string()).collect();
        let details: Vec<String> = h
            .kinds
            .iter()
            .map(|k| format!("+{}={} ({})", k.2, if k.3 { "HEX" } else { "N" }, k.0))
            .collect();
        plusarg_row(
            o,
            &format!(
                "+hang_kind={} (or {})  +{}={} (or {})",
                kinds.join("|"),
                codes.join("|"),
                h.which,
                h.buffers.join("|"),
                bufs.join("|")
            ),
            &details.join(" "),
        );
    }
    if let Some(side) = &r.side {
        let stalls = match axi_port(stage, side) {
            Some(_) => format!(
                "{0}_awready_i, {0}_wready_i and {0}_arready_i each low about 1 clock in 4",
                side.port
            ),
            None => format!("{}_req_ready_i low about 1 clock in 4", side.port),
        };
        plusarg_row(
            o,
            "+latency=N",
            &format!(
                "{}: every response N clocks after the earliest (default 0: valid the clock after \
                 the request handshake)",
                side.noun
            ),
        );
        if axi_port(stage, side).is_some() {
            plusarg_row(
                o,
                "+late_writes=N",
                &format!(
                    "{}: a write lands when its response is taken, not at its data beat, and \
                     that response comes N clocks later (what --mem-reorder ids|interleave do to \
                     writes in the harness; responses here stay in order); default 0",
                    side.noun
                ),
            );
        }
        plusarg_row(
            o,
            "+lat_max=N +lat_seed=S",
            &format!(
                "{}: random latency 0..N per request (xorshift32 seeded S, S != 0), and {stalls}",
                side.noun
            ),
        );
    }
    let (seed, dflt) = r.ready_seed;
    plusarg_row(
        o,
        &format!("+{seed}=S"),
        &format!(
            "output backpressure: {}_i from a 16-bit LFSR seeded S (about 3/4 of the clocks); 0 = \
             always ready (default {dflt})",
            handshake(stage, Role::Output, "ready")
        ),
    );
    if r.max_cycles.0 {
        plusarg_row(
            o,
            "+max_cycles=N",
            &format!("give up after N clocks (default {})", r.max_cycles.1),
        );
    }
    plusarg_row(
        o,
        "+stall_cycles=N",
        &format!(
            "fail as stalled when the stage is not idle and no port handshakes for N clocks \
             (default {STALL_CYCLES}; 0 = off)"
        ),
    );
    o.push_str("//\n");
    if let Some(side) = &r.side {
        let text = match side.store {
            Store::Images { mapped, .. } if axi_port(stage, side).is_some() => {
                let m: Vec<String> = mapped
                    .iter()
                    .map(|(n, a, b)| format!("{n} 0x{a:08X}-0x{:08X}", b - 1))
                    .collect();
                format!(
                    "Memory model: word arrays per image behind an AXI4 subordinate on the {}_* \
                     port (32-bit data; INCR, FIXED and WRAP bursts). A write beat changes the \
                     bytes under its strobes when its burst's address is known (with \
                     +late_writes=N, when the burst's response is taken); a read takes its \
                     words at the address handshake; the responses leave in order after the \
                     latency. Mapped addresses ({}) outside every image read 0 and ignore writes; \
                     unmapped addresses answer DECERR (nothing written). A word in several images \
                     is written in all of them and read from the first. The testbench fails on a \
                     reserved burst type, a size wider than the bus or a WLAST in the wrong place \
                     (the Rust harness checks every AXI4 rule).",
                    side.port,
                    m.join(", ")
                )
            }
            Store::Images { mapped, .. } => {
                let m: Vec<String> = mapped
                    .iter()
                    .map(|(n, a, b)| format!("{n} 0x{a:08X}-0x{:08X}", b - 1))
                    .collect();
                format!(
                    "Memory model: word arrays per image. A request is performed in the clock it \
                     is accepted (reads take the word then, writes change the bytes under be \
                     then) and answered in order after the latency. Mapped addresses ({}) outside \
                     every image read 0 and ignore writes; unmapped addresses answer err (nothing \
                     written). A word in several images is written in all of them and read from \
                     the first.",
                    m.join(", ")
                )
            }
            Store::PixelBuffer {
                width,
                height,
                bits,
                ..
            } => format!(
                "Early-depth memory: one {bits}-bit value per pixel (x < {width}, y < {height}), \
                 served in the clock a request is accepted (a read takes the value then, a write \
                 stores it then, a clear sets every pixel) and answered in order after the \
                 latency; a pixel keeps a generation tag, so a clear costs nothing."
            ),
        };
        wrap(o, "// ", "// ", &text);
        o.push_str("//\n");
    }
    for n in r.notes {
        wrap(o, "// ", "// ", n);
        o.push_str("//\n");
    }
    wrap(
        o,
        "// ",
        "// ",
        &format!(
            "Prints `{}`, or `FAIL: {}: field F expected … actual …` (or another `FAIL: …` line) \
             and stops with $fatal (non-zero exit in both simulators).",
            shown(r.pass),
            shown(r.expect.at)
        ),
    );
}

/// Replaces `@NAME@` tokens (SV is full of braces, so no `format!`).
fn sub(text: &str, vars: &[(&str, String)]) -> String {
    let mut t = text.to_string();
    for (k, v) in vars {
        t = t.replace(&format!("@{k}@"), v);
    }
    t
}

fn body(o: &mut String, stage: &Stage, r: &Replay) {
    let tb = format!("pica_{}_replay_tb", stage.name);
    let beat_t = stage.output.payload().sv_type();
    let beat_w = format!("{}_W", beat_t.trim_end_matches("_t").to_uppercase());
    let ow = ops_width(stage, r);
    let in_valid = handshake(stage, Role::Input, "valid");
    let in_ready = handshake(stage, Role::Input, "ready");
    let out_valid = handshake(stage, Role::Output, "valid");
    let out_ready = handshake(stage, Role::Output, "ready");
    let e = &r.expect;

    o.push_str("`timescale 1ns / 1ps\n");
    let _ = writeln!(o, "module {tb};");
    o.push_str(
        "  // Icarus 11 aborts on a scoped package type (pica_chan_pkg::..._beat_t): import.\n",
    );
    o.push_str("  import pica_chan_pkg::*;\n\n");
    let _ = writeln!(o, "  localparam int MaxOps   = {};", r.ops.max);
    let _ = writeln!(o, "  localparam int MaxBeats = {};", e.max);
    if let Some(ss) = &r.side_stream {
        let _ = writeln!(
            o,
            "  localparam int MaxSide  = {};  // expected +{} beats",
            ss.max, ss.plusarg
        );
    }
    if let Some(side) = &r.side {
        let _ = writeln!(
            o,
            "  localparam int QDepth   = {};  // responses in flight",
            side.queue
        );
        match side.store {
            Store::Images { images, words, .. } => {
                let _ = writeln!(
                    o,
                    "  localparam int MaxMem   = {words};  // words of all images together"
                );
                let _ = writeln!(o, "  localparam int MaxImg   = {images};");
            }
            Store::PixelBuffer {
                width,
                height,
                lines,
                ..
            } => {
                let _ = writeln!(
                    o,
                    "  localparam int MaxEd    = {lines};  // lines of an early-depth file"
                );
                let _ = writeln!(o, "  localparam int EdW      = {width};");
                let _ = writeln!(o, "  localparam int EdH      = {height};");
                o.push_str("  localparam int EdPix    = EdW * EdH;\n");
            }
        }
    }
    o.push_str(
        "\n  logic clk = 1'b0;\n  logic rst_ni = 1'b0;\n  always #5 clk = ~clk;\n\n  // ---- DUT\n",
    );
    // Ports the testbench drives from always blocks start at their idle value.
    for p in stage.ports {
        let init = if p.dir == Dir::Out {
            ""
        } else if p.name == out_ready || p.name.ends_with("_req_ready") {
            " = 1'b1"
        } else if matches!(p.role, Role::Side(_)) {
            " = '0"
        } else {
            ""
        };
        let _ = writeln!(o, "  {:<14} {}{init};", decl(p.shape.bits()), p.name);
    }
    let _ = writeln!(o, "\n  {} dut (", stage.top);
    let mut conns = vec![".clk_i(clk)".to_string(), ".rst_ni".to_string()];
    for p in stage.ports {
        let sfx = if p.dir == Dir::In { "i" } else { "o" };
        conns.push(format!(".{}_{sfx}({})", p.name, p.name));
    }
    let mut line = "   ".to_string();
    let n = conns.len();
    for (k, c) in conns.into_iter().enumerate() {
        let c = if k + 1 < n { format!("{c},") } else { c };
        if line.len() + 1 + c.len() > 100 {
            o.push_str(&line);
            o.push('\n');
            line = "   ".into();
        }
        line.push(' ');
        line.push_str(&c);
    }
    o.push_str(&line);
    o.push_str("\n  );\n\n  // ---- Bundle contents\n");
    let _ = writeln!(o, "  logic [{}:0] ops [MaxOps];", ow - 1);
    let _ = writeln!(o, "  logic [{beat_w}-1:0] beats [MaxBeats];");
    for s in e.streams {
        let _ = writeln!(o, "  logic [{}:0] {} [MaxBeats];", s.width - 1, s.name);
    }
    o.push_str("  string       f_ops, f_beats;\n");
    for s in e.streams {
        let _ = writeln!(
            o,
            "  string       f_{};\n  bit          has_{};",
            s.name, s.name
        );
    }
    o.push_str("  int          nops, nbeats, nitems, nexp, got, ready_seed;\n");
    if let Some(ss) = &r.side_stream {
        let (p, w) = (ss.plusarg, side_width(ss));
        let _ = writeln!(
            o,
            "  logic [{w}-1:0] {p} [MaxSide];\n  string       f_{p};\n  int          n{p}, {p}_seen;"
        );
    }
    let counters: Vec<&str> = r.ops.kinds.iter().map(|k| k.counter).collect();
    let _ = writeln!(o, "  int          {};", counters.join(", "));
    o.push_str("  longint      max_cycles;\n  logic [15:0] lfsr;\n  int          low_run = 0;\n\n");
    let _ = writeln!(
        o,
        "{}",
        sub(
            r#"  task automatic fail(input string msg);
    $display("FAIL: %s", msg);
    $fatal(1, "@TB@: FAIL");
  endtask

  task automatic tick;
    @(posedge clk);
    #1;
  endtask
"#,
            &[("TB", tb.clone())]
        )
    );
    if let Some(side) = &r.side {
        side_model(o, stage, r, side);
    }
    // Output backpressure.
    let _ = writeln!(
        o,
        "{}",
        sub(
            r#"  // Output backpressure: ready from a 16-bit LFSR (about 3/4 of the clocks), or always;
  // now and then (LFSR bits 9:2 all 0, about one clock in 256) a run of 16-79 clocks not
  // ready, which fills a pipelined stage's output FIFO (RAST's credit check, FOP's stalls).
  always @(posedge clk) begin
    #1;
    lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
    if (ready_seed == 0) begin
      @OUT_READY@ = 1'b1;
    end else if (low_run != 0) begin
      low_run = low_run - 1;
      @OUT_READY@ = 1'b0;
    end else if (lfsr[9:2] == 8'h00) begin
      low_run = 15 + lfsr[15:10];
      @OUT_READY@ = 1'b0;
    end else begin
      @OUT_READY@ = (lfsr[1:0] != 2'b00);
    end
  end
"#,
            &[("OUT_READY", out_ready.to_string())]
        )
    );
    check(o, e, &beat_t, &beat_w, out_valid, out_ready);
    if let Some(ss) = &r.side_stream {
        side_check(o, ss);
    }
    watchdog(o, stage);
    main(o, stage, r, in_valid, in_ready);
    let _ = writeln!(o, "endmodule : {tb}");
}

/// The default of `+stall_cycles=N`: far above any wait the testbench itself makes (its
/// backpressure runs are at most 79 clocks, its memory latencies what `+lat` says).
pub const STALL_CYCLES: u64 = 100_000;

/// Every handshake of the stage's ports: a `…valid` port with its `…ready` partner, a `…valid`
/// port without one (a response or a monitor: valid alone is the transfer), the register
/// write strobe.
fn handshakes(stage: &Stage) -> Vec<String> {
    let mut hs = Vec::new();
    for p in stage.ports {
        if let Some(stem) = p.name.strip_suffix("valid") {
            let ready = format!("{stem}ready");
            if stage.ports.iter().any(|q| q.name == ready) {
                hs.push(format!("({} && {ready})", p.name));
            } else {
                hs.push(p.name.to_string());
            }
        } else if p.name.ends_with("_we") {
            hs.push(p.name.to_string());
        }
    }
    hs
}

/// The stall watchdog: a stage that is not idle and makes no handshake on any port for
/// `+stall_cycles` clocks has stalled, and the testbench says so then, naming the last clock
/// anything moved, instead of waiting out `max_cycles` (10^7 clocks: minutes under Icarus)
/// and blaming the wait it happened to be in. (The bridge has its own in lockstep: 20,000 clocks
/// without a handshake, `kit::stage`.)
fn watchdog(o: &mut String, stage: &Stage) {
    let hs = handshakes(stage);
    let mut line = String::new();
    wrap(
        &mut line,
        "  assign progress = ",
        "                    ",
        &(hs.join(" || ") + ";"),
    );
    let _ = writeln!(
        o,
        "  // Stall watchdog (+stall_cycles=N, 0 = off): not idle and no handshake on any port for\n  \
         // N clocks is a stall, reported at once with the last clock anything moved.\n  \
         longint stall_cycles, stall_run = 0, clocks = 0, last_move = 0;\n  \
         logic   progress;\n{line}  always @(posedge clk) begin\n    clocks++;\n    \
         if (!rst_ni || idle || progress) begin\n      stall_run = 0;\n      last_move = clocks;\n    \
         end else begin\n      stall_run++;\n      if (stall_cycles != 0 && stall_run > stall_cycles)\n        \
         fail($sformatf(\"stalled: not idle and no handshake on any port for %0d clocks (the \
         last at clock %0d; +stall_cycles=N sets the limit)\", stall_cycles, last_move));\n    \
         end\n  end\n"
    );
}

/// The SV test of whether byte address `a` is in one of the `mapped` ranges.
fn mapped_test(mapped: &[(&str, u32, u32)]) -> String {
    let ranges: Vec<String> = mapped
        .iter()
        .map(|(_, a, b)| {
            format!(
                "(a >= 32'h{:04X}_{:04X} && a < 32'h{:04X}_{:04X})",
                a >> 16,
                a & 0xFFFF,
                b >> 16,
                b & 0xFFFF
            )
        })
        .collect();
    ranges.join(" || ")
}

/// The stage's side port of the replay's side model, if it is an AXI4 port: its ID width.
fn axi_port(stage: &Stage, side: &SideModel) -> Option<u32> {
    stage
        .side_ports
        .iter()
        .find(|sp| sp.name == side.port)
        .and_then(|sp| match sp.kind {
            SideKind::Axi { id_bits } => Some(id_bits),
            SideKind::ReqRsp => None,
        })
}

fn side_model(o: &mut String, stage: &Stage, r: &Replay, side: &SideModel) {
    if let Some(id_bits) = axi_port(stage, side) {
        axi_side_model(o, r, side, id_bits);
        return;
    }
    let p = side.port;
    let data_w = port(stage, &format!("{p}_rsp_{}", side.rsp_data))
        .shape
        .bits();
    let mut vars = vec![
        ("P", p.to_string()),
        ("NOUN", side.noun.to_string()),
        ("DW", (data_w - 1).to_string()),
        ("DATA", format!("{p}_rsp_{}", side.rsp_data)),
        ("IDLE", side.idle_data.to_string()),
    ];
    let (decls, pre, perform) = match side.store {
        Store::Images { mapped, .. } => {
            vars.push(("MAPPED", mapped_test(mapped)));
            let hang = if r.hang.is_some() {
                "        if (hang) fail($sformatf(\"@NOUN@ request at 0x%08h after the hang\", @P@_req_addr));\n"
            } else {
                ""
            };
            (
                IMAGES_DECLS,
                format!("{hang}        if (@P@_req_addr[1:0] != 2'b00) fail($sformatf(\"unaligned @NOUN@ request at 0x%08h\", @P@_req_addr));\n"),
                IMAGES_PERFORM,
            )
        }
        Store::PixelBuffer { bits, .. } => {
            vars.push(("BW", (bits - 1).to_string()));
            vars.push(("BL", (bits + 31).to_string()));
            (
                PIXBUF_DECLS,
                "        int ix;\n".to_string(),
                PIXBUF_PERFORM,
            )
        }
    };
    let (err_q, err_set, err_rsp, err_idle) = match side.rsp_err {
        Some(err) => (
            "  bit          q_err [QDepth];\n".to_string(),
            String::new(),
            format!("      {p}_rsp_{err} = q_err[q_head % QDepth];\n"),
            format!("      {p}_rsp_{err} = 1'b0;\n"),
        ),
        None => Default::default(),
    };
    let global = if r.global_limit {
        "      if (cyc > max_cycles) fail($sformatf(\"no end after %0d cycles\", cyc));\n"
    } else {
        ""
    };
    let text = format!(
        "{decls}{}",
        r#"
  // Response queue (in request order), @NOUN@ port latency and its request-side stalls.
  logic [@DW@:0] q_data [QDepth];
@ERRQ@  longint      q_due [QDepth];
  int          q_head, q_tail;
@LATSTATE@
  always @(posedge clk) begin
    if (rst_ni) begin
      if (@P@_rsp_valid && @P@_rsp_ready) q_head = q_head + 1;
      if (@P@_req_valid && @P@_req_ready) begin
        longint lat;
@PRE@        if (q_tail - q_head >= QDepth) fail("more than QDepth @NOUN@ requests in flight");
        if (lat_seed != 0) begin
          rng = xorshift(rng);
          lat = (lat_max > 0) ? longint'(rng % (lat_max + 1)) : 0;
        end else begin
          lat = longint'(latency);
        end
        q_data[q_tail % QDepth] = '0;
@ERRSET@        q_due[q_tail % QDepth]  = cyc + 1 + lat;
@PERFORM@        q_tail = q_tail + 1;
      end
      cyc = cyc + 1;
@GLOBAL@    end
    #1;
    if (q_head != q_tail && q_due[q_head % QDepth] <= cyc) begin
      @P@_rsp_valid = 1'b1;
      @DATA@ = q_data[q_head % QDepth];
@ERRRSP@    end else begin
      @P@_rsp_valid = 1'b0;
      @DATA@ = @IDLE@;
@ERRIDLE@    end
    if (lat_seed != 0) begin
      rng = xorshift(rng);
      @P@_req_ready = (rng[1:0] != 2'b00);
    end else begin
      @P@_req_ready = 1'b1;
    end
  end
"#
    );
    let text = text
        .replace("@PRE@", &pre)
        .replace("@PERFORM@", perform)
        .replace("@ERRQ@", &err_q)
        .replace("@ERRSET@", &err_set)
        .replace("@ERRRSP@", &err_rsp)
        .replace("@ERRIDLE@", &err_idle)
        .replace("@GLOBAL@", global)
        .replace("@LATSTATE@", LATENCY_STATE);
    let _ = writeln!(o, "{}", sub(&text, &vars));
}

/// The AXI4 subordinate of a [`SideKind::Axi`] port over the images (the only store an AXI4
/// port has): write bursts applied beat by beat once their address is known, reads performed
/// at the address handshake, responses in order after the latency, the READYs of the three
/// request channels dropped at random under `+lat_seed`. It checks the rules a plain testbench
/// can see on the fly (burst type, size, WLAST, the queues' bounds); the full AXI4 rule set is
/// the Rust harness's `AxiChecker`.
fn axi_side_model(o: &mut String, r: &Replay, side: &SideModel, id_bits: u32) {
    let Store::Images { mapped, .. } = side.store else {
        panic!("an AXI4 port is served from memory images");
    };
    // After the hang no request: an address the master held when the stage hung still goes
    // out, but once a channel's VALID has been low it stays low.
    let hang = if r.hang.is_some() {
        "      if (hang) begin
        if (!@P@_arvalid) ar_quiet = 1'b1;
        else if (ar_quiet) fail($sformatf(\"@NOUN@ read at 0x%08h after the hang\", @P@_araddr));
        if (!@P@_awvalid) aw_quiet = 1'b1;
        else if (aw_quiet) fail($sformatf(\"@NOUN@ write at 0x%08h after the hang\", @P@_awaddr));
      end
"
    } else {
        ""
    };
    let global = if r.global_limit {
        "      if (cyc > max_cycles) fail($sformatf(\"no end after %0d cycles\", cyc));\n"
    } else {
        ""
    };
    let vars = [
        ("P", side.port.to_string()),
        ("NOUN", side.noun.to_string()),
        ("MAPPED", mapped_test(mapped)),
        ("IW", (id_bits - 1).to_string()),
    ];
    let text = format!("{IMAGES_DECLS}{AXI_MODEL}")
        .replace("@HANG@", hang)
        .replace("@GLOBAL@", global)
        .replace("@LATSTATE@", LATENCY_STATE);
    let _ = writeln!(o, "{}", sub(&text, &vars));
}

/// The side models' clock count and latency state: the fixed latency, or the random one's
/// bound and xorshift32 generator (shared by the request/response and the AXI4 models).
const LATENCY_STATE: &str = r#"  longint      cyc;
  logic [31:0] rng, lat_seed;
  int          latency, lat_max;

  function automatic logic [31:0] xorshift(input logic [31:0] x);
    logic [31:0] y;
    y = x ^ (x << 13);
    y = y ^ (y >> 17);
    xorshift = y ^ (y << 5);
  endfunction
"#;

const AXI_MODEL: &str = r#"
  // ---- AXI4 subordinate on the @NOUN@ port (ARM IHI 0022): 32-bit data, INCR / FIXED / WRAP
  // bursts of up to 256 beats. Write data is applied beat by beat once its burst's address is
  // known (AXI4 lets data come first); a read takes its data at the address handshake. Every
  // response leaves in order, `latency` (or a random 0..lat_max) clocks after the earliest.
  localparam int RDepth = QDepth * 16;   // read beats owed
  logic [31:0] aw_addr [QDepth];
  logic [7:0]  aw_len [QDepth];
  logic [2:0]  aw_size [QDepth];
  logic [1:0]  aw_burst [QDepth];
  logic [@IW@:0] aw_id [QDepth];
  int          aw_head = 0, aw_tail = 0, w_beat = 0;
  logic [31:0] wq_data [QDepth];
  logic [3:0]  wq_strb [QDepth];
  bit          wq_last [QDepth];
  int          wq_head = 0, wq_tail = 0;
  bit          w_err = 1'b0;
  bit          ar_quiet = 1'b0, aw_quiet = 1'b0;   // since the hang
  // +late_writes=N: a write burst's beats wait in a log until its response is taken, and that
  // response comes N clocks later than a read's would (a write buffer that drains slowly: what
  // the harness's --mem-reorder ids|interleave do to writes; responses here stay in order).
  localparam int LDepth = QDepth * 16;
  logic [31:0] lw_addr [LDepth];
  logic [31:0] lw_data [LDepth];
  logic [3:0]  lw_strb [LDepth];
  int          lw_tail = 0, w_lo = 0;
  int          b_lo [QDepth];
  int          b_hi [QDepth];
  int          late_writes;
  initial if (!$value$plusargs("late_writes=%d", late_writes)) late_writes = 0;
  logic [@IW@:0] b_id [QDepth];
  bit          b_err [QDepth];
  longint      b_due [QDepth];
  int          b_head = 0, b_tail = 0;
  logic [@IW@:0] r_id [RDepth];
  logic [31:0] r_data [RDepth];
  bit          r_err [RDepth];
  bit          r_last [RDepth];
  longint      r_due [RDepth];
  int          q_head, q_tail;   // the read beats owed
@LATSTATE@
  // Byte address of beat n of a burst (A3.4.1: INCR adds the size, WRAP wraps at the
  // burst's total, FIXED stays).
  function automatic logic [31:0] beat_addr(input logic [31:0] a, input logic [7:0] len,
                                            input logic [2:0] size, input logic [1:0] burst,
                                            input int n);
    logic [31:0] bytes, total, lower;
    bytes = 32'd1 << size;
    total = bytes * (32'(len) + 1);
    if (n == 0 || burst == 2'b00) beat_addr = a;
    else if (burst == 2'b10) begin
      lower = a & ~(total - 1);
      beat_addr = lower + (((a & ~(bytes - 1)) - lower + 32'(n) * bytes) % total);
    end else beat_addr = (a & ~(bytes - 1)) + 32'(n) * bytes;
  endfunction

  function automatic longint draw_latency;
    if (lat_seed != 0) begin
      rng = xorshift(rng);
      draw_latency = (lat_max > 0) ? longint'(rng % (lat_max + 1)) : 0;
    end else draw_latency = longint'(latency);
  endfunction

  always @(posedge clk) begin
    if (rst_ni) begin
@HANG@      if (@P@_bvalid && @P@_bready) begin
        if (late_writes != 0)
          for (int k = b_lo[b_head % QDepth]; k < b_hi[b_head % QDepth]; k++)
            mem_write(lw_addr[k % LDepth], lw_strb[k % LDepth], lw_data[k % LDepth]);
        b_head = b_head + 1;
      end
      if (@P@_rvalid && @P@_rready) q_head = q_head + 1;
      if (@P@_awvalid && @P@_awready) begin
        if (@P@_awburst == 2'b11) fail($sformatf("reserved AWBURST at 0x%08h", @P@_awaddr));
        if (@P@_awsize > 3'd2) fail($sformatf("AWSIZE %0d wider than the 32-bit bus", @P@_awsize));
        if (aw_tail - aw_head >= QDepth) fail("more than QDepth write bursts in flight");
        aw_addr[aw_tail % QDepth]  = @P@_awaddr;
        aw_len[aw_tail % QDepth]   = @P@_awlen;
        aw_size[aw_tail % QDepth]  = @P@_awsize;
        aw_burst[aw_tail % QDepth] = @P@_awburst;
        aw_id[aw_tail % QDepth]    = @P@_awid;
        aw_tail = aw_tail + 1;
      end
      if (@P@_wvalid && @P@_wready) begin
        if (wq_tail - wq_head >= QDepth) fail("more than QDepth write beats ahead of their address");
        wq_data[wq_tail % QDepth] = @P@_wdata;
        wq_strb[wq_tail % QDepth] = @P@_wstrb;
        wq_last[wq_tail % QDepth] = @P@_wlast;
        wq_tail = wq_tail + 1;
      end
      // Apply the data beats whose burst address is known.
      while (wq_head != wq_tail && aw_head != aw_tail) begin
        logic [31:0] a;
        int h;
        h = aw_head % QDepth;
        a = beat_addr(aw_addr[h], aw_len[h], aw_size[h], aw_burst[h], w_beat);
        if (w_beat == 0) w_lo = lw_tail;
        if (!mapped(a)) w_err = 1'b1;
        else if (late_writes != 0) begin
          if (b_head != b_tail && lw_tail - b_lo[b_head % QDepth] >= LDepth)
            fail("more than LDepth write beats waiting for their responses");
          lw_addr[lw_tail % LDepth] = {a[31:2], 2'b00};
          lw_data[lw_tail % LDepth] = wq_data[wq_head % QDepth];
          lw_strb[lw_tail % LDepth] = wq_strb[wq_head % QDepth];
          lw_tail = lw_tail + 1;
        end else mem_write({a[31:2], 2'b00}, wq_strb[wq_head % QDepth], wq_data[wq_head % QDepth]);
        if (wq_last[wq_head % QDepth] != (w_beat == int'(aw_len[h])))
          fail($sformatf("WLAST %0d on beat %0d of a %0d-beat write burst at 0x%08h",
                         wq_last[wq_head % QDepth], w_beat, int'(aw_len[h]) + 1, aw_addr[h]));
        wq_head = wq_head + 1;
        if (w_beat == int'(aw_len[h])) begin
          if (b_tail - b_head >= QDepth) fail("more than QDepth write responses owed");
          b_id[b_tail % QDepth]  = aw_id[h];
          b_err[b_tail % QDepth] = w_err;
          b_due[b_tail % QDepth] = cyc + 1 + draw_latency() + longint'(late_writes);
          b_lo[b_tail % QDepth]  = w_lo;
          b_hi[b_tail % QDepth]  = lw_tail;
          b_tail = b_tail + 1;
          aw_head = aw_head + 1;
          w_beat = 0;
          w_err = 1'b0;
          n_writes++;
        end else w_beat = w_beat + 1;
      end
      if (@P@_arvalid && @P@_arready) begin
        longint due;
        logic [31:0] a;
        if (@P@_arburst == 2'b11) fail($sformatf("reserved ARBURST at 0x%08h", @P@_araddr));
        if (@P@_arsize > 3'd2) fail($sformatf("ARSIZE %0d wider than the 32-bit bus", @P@_arsize));
        if (q_tail - q_head + int'(@P@_arlen) + 1 > RDepth) fail("more than RDepth read beats owed");
        due = cyc + 1 + draw_latency();
        for (int n = 0; n <= int'(@P@_arlen); n++) begin
          a = beat_addr(@P@_araddr, @P@_arlen, @P@_arsize, @P@_arburst, n);
          r_id[q_tail % RDepth]   = @P@_arid;
          r_data[q_tail % RDepth] = mapped(a) ? mem_read({a[31:2], 2'b00}) : 32'd0;
          r_err[q_tail % RDepth]  = !mapped(a);
          r_last[q_tail % RDepth] = (n == int'(@P@_arlen));
          r_due[q_tail % RDepth]  = due;
          q_tail = q_tail + 1;
        end
        n_reads++;
      end
      cyc = cyc + 1;
@GLOBAL@    end
    #1;
    if (b_head != b_tail && b_due[b_head % QDepth] <= cyc) begin
      @P@_bvalid = 1'b1;
      @P@_bid    = b_id[b_head % QDepth];
      @P@_bresp  = b_err[b_head % QDepth] ? 2'b11 : 2'b00;  // DECERR : OKAY
    end else begin
      @P@_bvalid = 1'b0;
      @P@_bid    = '0;
      @P@_bresp  = 2'b00;
    end
    if (q_head != q_tail && r_due[q_head % RDepth] <= cyc) begin
      @P@_rvalid = 1'b1;
      @P@_rid    = r_id[q_head % RDepth];
      @P@_rdata  = r_data[q_head % RDepth];
      @P@_rresp  = r_err[q_head % RDepth] ? 2'b11 : 2'b00;
      @P@_rlast  = r_last[q_head % RDepth];
    end else begin
      @P@_rvalid = 1'b0;
      @P@_rid    = '0;
      @P@_rdata  = 32'hDEAD_BEEF;
      @P@_rresp  = 2'b00;
      @P@_rlast  = 1'b0;
    end
    if (lat_seed != 0) begin
      rng = xorshift(rng);
      @P@_awready = (rng[1:0] != 2'b00);
      @P@_wready  = (rng[3:2] != 2'b00);
      @P@_arready = (rng[5:4] != 2'b00);
    end else begin
      @P@_awready = 1'b1;
      @P@_wready  = 1'b1;
      @P@_arready = 1'b1;
    end
  end
"#;

const IMAGES_DECLS: &str = r#"  // ---- Memory model: the images back to back in `mem`.
  bit   [31:0] mem [MaxMem];
  bit   [31:0] fin [MaxMem];     // expected final words, same layout
  int          nimg;
  logic [31:0] img_base [MaxImg];
  int          img_words [MaxImg];
  int          img_off [MaxImg];
  bit          img_has_final [MaxImg];
  longint      n_reads, n_writes, n_probes;

  function automatic bit mapped(input logic [31:0] a);
    mapped = @MAPPED@;
  endfunction

  // Index of word `a` in `mem` for image k, or -1.
  function automatic int index_in(input int k, input logic [31:0] a);
    logic [32:0] lo, hi;
    lo = {1'b0, img_base[k]};
    hi = lo + 33'(img_words[k]) * 33'd4;
    if ({1'b0, a} >= lo && {1'b0, a} < hi) index_in = img_off[k] + int'((a - img_base[k]) >> 2);
    else index_in = -1;
  endfunction

  function automatic logic [31:0] mem_read(input logic [31:0] a);
    int ix;
    mem_read = 32'd0;
    for (int k = nimg - 1; k >= 0; k--) begin
      ix = index_in(k, a);
      if (ix >= 0) mem_read = mem[ix];
    end
  endfunction

  task automatic mem_write(input logic [31:0] a, input logic [3:0] be, input logic [31:0] d);
    int ix;
    logic [31:0] w;
    for (int k = 0; k < nimg; k++) begin
      ix = index_in(k, a);
      if (ix >= 0) begin
        w = mem[ix];
        for (int b = 0; b < 4; b++) if (be[b]) w[8*b +: 8] = d[8*b +: 8];
        mem[ix] = w;
      end
    end
  endtask
"#;

const IMAGES_PERFORM: &str = r#"        q_err[q_tail % QDepth] = !mapped(@P@_req_addr);
        if (mapped(@P@_req_addr)) begin
          if (@P@_req_we) mem_write(@P@_req_addr, @P@_req_be, @P@_req_wdata);
          else q_data[q_tail % QDepth] = mem_read(@P@_req_addr);
        end
        if (@P@_req_we) n_writes++;
        else if (@P@_req_be == 4'd0) n_probes++;
        else n_reads++;
"#;

const PIXBUF_DECLS: &str = r#"  // ---- Early-depth memory: a value per pixel with a generation tag (a clear costs nothing).
  logic [@BL@:0] ed_lines [MaxEd];
  string       f_eb, f_ea;
  int          neb, nea;
  bit [@BW@:0]   ed_val [EdPix];
  int          ed_gen [EdPix];      // the value is current when its tag is cur_gen
  int          cur_gen;
  bit [@BW@:0]   clear_val;
  int          written [$];         // pixels written since the last clear (each once)
  longint      n_reads, n_writes, n_clears;

  function automatic bit [@BW@:0] ed_get(input int ix);
    ed_get = (ed_gen[ix] == cur_gen) ? ed_val[ix] : clear_val;
  endfunction

  task automatic ed_put(input int ix, input bit [@BW@:0] v);
    if (ed_gen[ix] != cur_gen) written.push_back(ix);
    ed_gen[ix] = cur_gen;
    ed_val[ix] = v;
  endtask

  task automatic ed_clear(input bit [@BW@:0] v);
    cur_gen = cur_gen + 1;
    clear_val = v;
    written.delete();
  endtask
"#;

const PIXBUF_PERFORM: &str = r#"        if (@P@_req_op != 2'd2 && (@P@_req_x >= 16'(EdW) || @P@_req_y >= 16'(EdH)))
          fail($sformatf("@NOUN@ request outside the buffer: op %0d x %0d y %0d", @P@_req_op,
                         @P@_req_x, @P@_req_y));
        ix = int'(@P@_req_y) * EdW + int'(@P@_req_x);
        unique case (@P@_req_op)
          2'd0: begin
            q_data[q_tail % QDepth] = ed_get(ix);
            n_reads++;
          end
          2'd1: begin
            ed_put(ix, @P@_req_data);
            n_writes++;
          end
          2'd2: begin
            ed_clear(@P@_req_data);
            n_clears++;
          end
          default: fail("@NOUN@ request with op 3");
        endcase
"#;

/// The comparison call of `c`: `task(lead, name, expected, actual)`.
fn cmp_lines(o: &mut String, c: &Cmp, ind: &str, task: &str, lead: &str) {
    let call = format!(
        "{task}({lead}, {}, 32'({}), 32'({}));",
        sfmt(c.name),
        c.exp,
        c.act
    );
    let (open, close, ind2) = match (c.when, c.each) {
        (None, None) => (String::new(), String::new(), ind.to_string()),
        (w, each) => {
            let mut open = String::new();
            let mut close = String::new();
            let mut i2 = ind.to_string();
            if let Some(w) = w {
                open += &format!("{i2}if ({w}) begin\n");
                close = format!("{i2}end\n") + &close;
                i2 += "  ";
            }
            if let Some((v, n)) = each {
                open += &format!("{i2}for (int {v} = 0; {v} < {n}; {v}++)\n");
                i2 += "  ";
            }
            (open, close, i2)
        }
    };
    o.push_str(&open);
    let _ = writeln!(o, "{ind2}{call}");
    o.push_str(&close);
}

fn check(
    o: &mut String,
    e: &crate::kit::replay::Expect,
    beat_t: &str,
    beat_w: &str,
    out_valid: &str,
    out_ready: &str,
) {
    field_task(
        o,
        &FieldTask {
            head: "Beat check",
            what: "One field of item k's beat b (expected beat e)",
            name: "field",
            index: "k",
            // The beat's position only where an item has several.
            beat_arg: e.per_item > 1,
            var: "e",
            ty: beat_t,
            at: e.at,
            fmt: e.value_fmt,
        },
    );
    let _ = writeln!(
        o,
        "  // Item k against its {} expected beat{}.\n  task automatic check_item(input int k);\n    \
         {beat_t} e;\n    logic [{beat_w}-1:0] line;\n    \
         for (int b = 0; b < {}; b++) begin\n      line = beats[{}k + b];\n      e = line;",
        e.per_item,
        if e.per_item == 1 { "" } else { "s" },
        e.per_item,
        if e.per_item == 1 { String::new() } else { format!("{} * ", e.per_item) }
    );
    let lead = if e.per_item > 1 { "k, b, e" } else { "k, e" };
    for c in e.fields {
        cmp_lines(o, c, "      ", "field", lead);
    }
    o.push_str("    end\n");
    if !e.item_fields.is_empty() {
        let _ = writeln!(
            o,
            "    // The item as a whole, with its last beat.\n    begin\n      int b;\n      b = {};\n      line = beats[{}k + b];\n      e = line;",
            e.per_item - 1,
            if e.per_item == 1 { String::new() } else { format!("{} * ", e.per_item) }
        );
        for c in e.item_fields {
            cmp_lines(o, c, "      ", "field", lead);
        }
        o.push_str("    end\n");
    }
    o.push_str("  endtask\n\n");
    let _ = writeln!(
        o,
        "  // Output side: check each item taken (valid && ready at the edge).\n  always @(posedge clk) begin\n    \
         if (rst_ni && {out_valid} && {out_ready}) begin\n      \
         if (got >= nexp)\n        fail({});\n      check_item(got);\n      got <= got + 1;\n    end\n  end\n",
        sfmt(e.extra)
    );
}

/// A field-comparison task of the testbench: `name(index, [b,] var, name, ev, av)` fails with
/// the `at` template when `ev !== av`.
struct FieldTask<'a> {
    /// The section comment.
    head: &'a str,
    /// What it compares, for its comment.
    what: &'a str,
    /// The task's name.
    name: &'a str,
    /// The item's (or beat's) index argument.
    index: &'a str,
    /// Whether it takes the beat's position within its item (`b`).
    beat_arg: bool,
    /// The expected beat's argument.
    var: &'a str,
    /// Its SV type.
    ty: &'a str,
    /// Where a mismatch is (template).
    at: &'a str,
    /// The `$sformatf` conversion of the values.
    fmt: &'a str,
}

fn field_task(o: &mut String, f: &FieldTask<'_>) {
    let (at, at_args) = template(f.at);
    let task = r#"  // ---- @HEAD@
  // @WHAT@: fails naming it when they differ.
  task automatic @NAME@(input int @I@,@BARG@ input @T@ @V@, input string name,
                       input logic [31:0] ev, input logic [31:0] av);
    if (ev !== av)
      fail($sformatf("@AT@: field %s expected 0x%@F@ actual 0x%@F@",
                     @ARGS@, name, ev, av));
  endtask
"#;
    let barg = if f.beat_arg { " input int b," } else { "" };
    let _ = writeln!(
        o,
        "{}",
        sub(
            task,
            &[
                ("HEAD", f.head.to_string()),
                ("WHAT", f.what.to_string()),
                ("NAME", f.name.to_string()),
                ("I", f.index.to_string()),
                ("BARG", barg.to_string()),
                ("T", f.ty.to_string()),
                ("V", f.var.to_string()),
                ("AT", at),
                ("F", f.fmt.to_string()),
                ("ARGS", at_args.join(", ")),
            ]
        )
    );
}

/// The SV width constant of a side stream's beat (`TEXEL_BEAT_W`).
fn side_width(ss: &SideStream) -> String {
    let t = ss.channel.payload().sv_type();
    format!("{}_W", t.trim_end_matches("_t").to_uppercase())
}

/// The side stream's check: each beat its monitor reports (valid high at the edge) against the
/// next expected one, field by field.
fn side_check(o: &mut String, ss: &SideStream) {
    let (p, t) = (ss.plusarg, ss.channel.payload().sv_type());
    field_task(
        o,
        &FieldTask {
            head: &format!("Side stream: {p} ({})", ss.valid),
            what: &format!("One field of expected {p} beat j (t)"),
            name: &format!("{p}_field"),
            index: "j",
            beat_arg: false,
            var: "t",
            ty: &t,
            at: ss.at,
            fmt: "08h",
        },
    );
    let _ = writeln!(
        o,
        "  // The monitor's beat against expected {p} beat j.\n  task automatic check_{p}(input int j);\n    \
         {t} t;\n    t = {p}[j];"
    );
    for c in ss.fields {
        cmp_lines(o, c, "    ", &format!("{p}_field"), "j, t");
    }
    o.push_str("  endtask\n\n");
    let _ = writeln!(
        o,
        "  // Every beat the monitor reports, in order.\n  always @(posedge clk) begin\n    \
         if (rst_ni && {}) begin\n      if ({p}_seen >= n{p})\n        fail({});\n      \
         check_{p}({p}_seen);\n      {p}_seen <= {p}_seen + 1;\n    end\n  end\n",
        ss.valid,
        sfmt(ss.extra)
    );
}

/// A wait for `idle` that fails with the `msg` template after max_cycles clocks.
fn wait_idle(o: &mut String, ind: &str, msg: &str) {
    wait_until(o, ind, "idle", msg);
}

/// A wait for the SV condition `cond` (a name or parenthesised) that fails with the `msg` template after max_cycles
/// clocks.
fn wait_until(o: &mut String, ind: &str, cond: &str, msg: &str) {
    let _ = writeln!(
        o,
        "{ind}guard = 0;\n{ind}while (!{cond}) begin\n{ind}  tick;\n{ind}  guard++;\n{ind}  \
         if (guard > max_cycles) fail({});\n{ind}end",
        sfmt(msg)
    );
}

fn main(o: &mut String, stage: &Stage, r: &Replay, in_valid: &str, in_ready: &str) {
    let e = &r.expect;
    let ow = ops_width(stage, r);
    let kind_bits = format!("[{}:{}]", ow - 1, ow - 8);
    o.push_str("  // ---- Main\n");
    let _ = writeln!(o, "  logic [{}:0] op;", ow - 1);
    o.push_str("  logic [7:0]  kind;\n  longint      guard;\n  logic        taken, stop;\n");
    if matches!(r.drain.until, Until::IdleOrHang { .. }) {
        o.push_str("  int          hung;\n");
    }
    if let Some(h) = &r.hang {
        o.push_str("  string       outcome, s_kind, s_buf;\n  int          exp_hang_kind, exp_hang_which;\n");
        for k in h.kinds {
            if k.3 {
                let _ = writeln!(
                    o,
                    "  {:<12} exp_{};",
                    decl(port(stage, k.2).shape.bits()),
                    k.2
                );
            } else {
                let _ = writeln!(o, "  int          exp_{};", k.2);
            }
        }
    }
    if let Some(SideModel {
        store: Store::Images { .. },
        ..
    }) = &r.side
    {
        o.push_str("  string       key, fname;\n");
    }
    o.push_str("\n  initial begin\n");
    // Inputs the op loop drives start at zero.
    let mut zero: Vec<String> = stage
        .ports
        .iter()
        .filter(|p| p.dir == Dir::In && matches!(p.role, Role::Config | Role::Input))
        .map(|p| format!("{} = '0;", p.name))
        .collect();
    zero.push("got = 0;".into());
    if let Some(ss) = &r.side_stream {
        zero.push(format!("{}_seen = 0;", ss.plusarg));
    }
    zero.extend(r.ops.kinds.iter().map(|k| format!("{} = 0;", k.counter)));
    if let Some(side) = &r.side {
        for v in ["q_head", "q_tail", "cyc", "n_reads", "n_writes"] {
            zero.push(format!("{v} = 0;"));
        }
        zero.push(match side.store {
            Store::Images { .. } => "n_probes = 0;".into(),
            Store::PixelBuffer { .. } => "n_clears = 0;".into(),
        });
    }
    statements(o, "    ", &zero);
    o.push('\n');
    let plus = |o: &mut String, arg: &str, conv: &str, var: &str, what: &str| {
        let _ = writeln!(
            o,
            "    if (!$value$plusargs(\"{arg}=%{conv}\", {var})) fail(\"missing +{arg}={what}\");"
        );
    };
    plus(o, "ops", "s", "f_ops", "FILE");
    plus(o, "nops", "d", "nops", "N");
    plus(o, e.plusarg, "s", "f_beats", "FILE");
    plus(o, &format!("n{}", e.plusarg), "d", "nbeats", "M");
    if let Some(ss) = &r.side_stream {
        let p = ss.plusarg;
        plus(o, p, "s", &format!("f_{p}"), "FILE");
        plus(o, &format!("n{p}"), "d", &format!("n{p}"), "M");
    }
    for s in e.streams {
        let _ = writeln!(
            o,
            "    has_{} = $value$plusargs(\"{}=%s\", f_{});",
            s.name, s.name, s.name
        );
    }
    if let Some(SideModel {
        store: Store::PixelBuffer { .. },
        ..
    }) = &r.side
    {
        plus(o, "early_before", "s", "f_eb", "FILE");
        plus(o, "nearly_before", "d", "neb", "N");
        plus(o, "early_after", "s", "f_ea", "FILE");
        plus(o, "nearly_after", "d", "nea", "N");
    }
    if r.hang.is_some() {
        o.push_str("    if (!$value$plusargs(\"outcome=%s\", outcome)) outcome = \"finished\";\n");
    }
    if r.side.is_some() {
        o.push_str(
            "    if (!$value$plusargs(\"latency=%d\", latency)) latency = 0;\n    \
             if (!$value$plusargs(\"lat_max=%d\", lat_max)) lat_max = 0;\n    \
             if (!$value$plusargs(\"lat_seed=%d\", lat_seed)) lat_seed = 0;\n",
        );
    }
    let (seed, dflt) = r.ready_seed;
    let _ = writeln!(
        o,
        "    if (!$value$plusargs(\"{seed}=%d\", ready_seed)) ready_seed = {dflt};"
    );
    let _ = writeln!(
        o,
        "    if (!$value$plusargs(\"stall_cycles=%d\", stall_cycles)) stall_cycles = {STALL_CYCLES};"
    );
    if r.max_cycles.0 {
        let _ = writeln!(
            o,
            "    if (!$value$plusargs(\"max_cycles=%d\", max_cycles)) max_cycles = {};",
            r.max_cycles.1
        );
    } else {
        let _ = writeln!(
            o,
            "    max_cycles = {};  // every wait's guard",
            r.max_cycles.1
        );
    }
    o.push_str("    if (nops < 0 || nops > MaxOps) fail($sformatf(\"nops %0d exceeds %0d\", nops, MaxOps));\n");
    let _ = writeln!(
        o,
        "    if (nbeats < 0 || nbeats > MaxBeats)\n      fail($sformatf(\"n{} %0d exceeds %0d\", nbeats, MaxBeats));",
        e.plusarg
    );
    if let Some(ss) = &r.side_stream {
        let _ = writeln!(
            o,
            "    if (n{0} < 0 || n{0} > MaxSide)\n      fail($sformatf(\"n{0} %0d exceeds %0d\", n{0}, MaxSide));",
            ss.plusarg
        );
    }
    if let Some(SideModel {
        store: Store::PixelBuffer { .. },
        ..
    }) = &r.side
    {
        o.push_str(
            "    if (neb < 1 || neb > MaxEd || nea < 1 || nea > MaxEd)\n      \
             fail($sformatf(\"early-depth files of %0d / %0d lines (1 to %0d)\", neb, nea, MaxEd));\n",
        );
    }
    if let Some(h) = &r.hang {
        hang_plusargs(o, h);
    }
    if r.side.is_some() {
        o.push_str("    rng  = lat_seed;\n");
    }
    o.push_str("    lfsr = 16'(ready_seed) | 16'h1;\n\n");
    if let Some(SideModel {
        store: Store::Images { .. },
        ..
    }) = &r.side
    {
        o.push_str(IMAGES_LOAD);
    }
    o.push_str("    if (nops > 0) $readmemh(f_ops, ops, 0, nops - 1);\n");
    o.push_str("    if (nbeats > 0) $readmemh(f_beats, beats, 0, nbeats - 1);\n");
    if let Some(ss) = &r.side_stream {
        let _ = writeln!(
            o,
            "    if (n{0} > 0) $readmemh(f_{0}, {0}, 0, n{0} - 1);",
            ss.plusarg
        );
    }
    for s in e.streams {
        let _ = writeln!(
            o,
            "    if (nbeats > 0 && has_{0}) $readmemh(f_{0}, {0}, 0, nbeats - 1);",
            s.name
        );
    }
    if let Some(SideModel {
        store: Store::PixelBuffer { bits, .. },
        ..
    }) = &r.side
    {
        o.push_str(
            &PIXBUF_LOAD
                .replace("@BW@", &(bits - 1).to_string())
                .replace("@B@", &bits.to_string())
                .replace("@B15@", &(bits + 15).to_string())
                .replace("@B16@", &(bits + 16).to_string())
                .replace("@B31@", &(bits + 31).to_string()),
        );
    }
    // Prescan: every kind known; the items the expected beats are for.
    o.push_str("\n    // Every operation of a known kind; count the items.\n    nitems = 0;\n");
    let _ = writeln!(o, "    for (int i = 0; i < nops; i++) begin\n      kind = ops[i]{kind_bits};\n      unique case (kind)");
    for k in r.ops.kinds {
        let act = if matches!(k.action, Action::Item { .. }) {
            "nitems++;"
        } else {
            "begin end"
        };
        let _ = writeln!(o, "        8'd{}: {act}", k.code);
    }
    let _ = writeln!(
        o,
        "        default: fail({});\n      endcase\n    end",
        sfmt(r.ops.unknown)
    );
    if let Some(msg) = e.items_check {
        let _ = writeln!(
            o,
            "    if (nbeats != {} * nitems)\n      fail({});",
            e.per_item,
            sfmt(msg)
        );
    }
    if e.per_item == 1 {
        o.push_str("    nexp = nbeats;\n");
    } else {
        let _ = writeln!(o, "    nexp = nbeats / {};", e.per_item);
    }
    o.push_str("\n    repeat (2) @(posedge clk);\n    #1;\n    rst_ni = 1'b1;\n\n");
    // The op loop.
    let hang = r.hang.is_some();
    o.push_str(
        "    stop = 1'b0;\n    for (int i = 0; i < nops && !stop; i++) begin\n      op = ops[i];\n",
    );
    let _ = writeln!(o, "      kind = op{kind_bits};");
    for (n, k) in r.ops.kinds.iter().enumerate() {
        let _ = writeln!(
            o,
            "      {}if (kind == 8'd{}) begin  // {}",
            if n == 0 { "" } else { "end else " },
            k.code,
            k.name
        );
        let mut ind = "        ".to_string();
        let (set, item) = match k.action {
            Action::Config(set) => (set, None),
            Action::Item { set, never_taken } => (set, Some(never_taken)),
        };
        if item.is_none() {
            if matches!(r.drain.until, Until::IdleOrHang { .. }) {
                // A hung stage never goes idle: the hang stops the operations below.
                o.push_str("        // Waits for the stage to be idle (or hung).\n");
                wait_until(o, &ind, "(idle || hang)", r.ops.never_idle);
            } else {
                o.push_str("        // Waits for the stage to be idle.\n");
                wait_idle(o, &ind, r.ops.never_idle);
            }
        }
        if hang {
            let _ = writeln!(
                o,
                "{ind}if (hang) begin\n{ind}  stop = 1'b1;\n{ind}end else begin"
            );
            ind += "  ";
        }
        let (f, _) = fields(stage, set, k.counter);
        let assigns: Vec<String> = f.iter().map(|(p, v, _)| format!("{p} = {v};")).collect();
        match item {
            None => {
                let _ = writeln!(o, "{ind}cfg_we = 1'b1;");
                statements(o, &ind, &assigns);
                let _ = writeln!(o, "{ind}tick;\n{ind}cfg_we = 1'b0;");
            }
            Some(never) => {
                let _ = writeln!(o, "{ind}{in_valid} = 1'b1;");
                statements(o, &ind, &assigns);
                let _ = writeln!(
                    o,
                    "{ind}// Held until taken ({in_ready} as sampled at the edge){}.\n\
                     {ind}guard = 0;\n{ind}taken = 1'b0;\n{ind}while (!taken && !stop) begin\n\
                     {ind}  @(posedge clk);\n{ind}  taken = {in_ready};",
                    if hang { " or the stage hangs" } else { "" }
                );
                if hang {
                    let _ = writeln!(o, "{ind}  if (!taken && hang) stop = 1'b1;");
                }
                let _ = writeln!(
                    o,
                    "{ind}  guard++;\n{ind}  if (guard > max_cycles) fail({});\n{ind}end\n{ind}#1;\n{ind}{in_valid} = 1'b0;",
                    sfmt(never)
                );
            }
        }
        let _ = writeln!(o, "{ind}{}++;", k.counter);
        if hang {
            let _ = writeln!(o, "        end");
        }
    }
    o.push_str("      end\n    end\n\n    // Drain.\n");
    let Drain {
        until,
        timeout,
        settle,
    } = r.drain;
    match until {
        Until::Results => {
            let _ = writeln!(
                o,
                "    guard = 0;\n    while (got < nexp) begin\n      tick;\n      guard++;\n      \
                 if (guard > max_cycles) fail({});\n    end",
                sfmt(timeout)
            );
        }
        Until::Idle => wait_idle(o, "    ", timeout),
        Until::IdleOrHang { grace } => {
            let _ = writeln!(
                o,
                "    // Until idle, or {grace} clocks into a hang (the results ahead of the hanging \
                 item leave\n    // meanwhile; a hung stage never goes idle).\n    guard = 0;\n    \
                 hung = 0;\n    while (!idle && hung < {grace}) begin\n      tick;\n      guard++;\n      \
                 if (hang) hung++;\n      if (guard > max_cycles) fail({});\n    end",
                sfmt(timeout)
            );
        }
    }
    let _ = writeln!(o, "    repeat ({settle}) tick;");
    let _ = writeln!(
        o,
        "\n    if (got != nexp)\n      fail({});",
        sfmt(r.count_mismatch)
    );
    if let Some(ss) = &r.side_stream {
        let _ = writeln!(
            o,
            "    if ({0}_seen != n{0})\n      fail({1});",
            ss.plusarg,
            sfmt(ss.missing)
        );
    }
    if let Some(h) = &r.hang {
        hang_check(o, stage, h);
    }
    match &r.side {
        Some(SideModel {
            store: Store::Images { .. },
            ..
        }) => o.push_str(IMAGES_CHECK),
        Some(SideModel {
            store: Store::PixelBuffer { bits, .. },
            ..
        }) => o.push_str(
            &PIXBUF_CHECK
                .replace("@BW@", &(bits - 1).to_string())
                .replace("@B@", &bits.to_string())
                .replace("@B15@", &(bits + 15).to_string())
                .replace("@B16@", &(bits + 16).to_string())
                .replace("@B31@", &(bits + 31).to_string())
                .replace("@HEX@", &format!("{:02}", bits.div_ceil(4))),
        ),
        None => {}
    }
    let (f, a) = template(r.pass);
    let _ = writeln!(o, "\n    $display(\"{f}\",");
    wrap(
        o,
        "             ",
        "             ",
        &format!("{});", a.join(", ")),
    );
    o.push_str("    $finish;\n  end\n\n");
}

fn hang_plusargs(o: &mut String, h: &crate::kit::replay::HangOutcome) {
    o.push_str(
        "    if (outcome != \"finished\" && outcome != \"hang\")\n      \
         fail($sformatf(\"unknown outcome '%s' (finished or hang)\", outcome));\n",
    );
    let mut z = vec![
        "exp_hang_kind = 0;".to_string(),
        "exp_hang_which = 0;".to_string(),
    ];
    for k in h.kinds {
        z.push(format!("exp_{} = {};", k.2, if k.3 { "'0" } else { "0" }));
    }
    let _ = writeln!(o, "    {}", z.join(" "));
    o.push_str("    if (outcome == \"hang\") begin\n      if (!$value$plusargs(\"hang_kind=%s\", s_kind)) fail(\"missing +hang_kind= for outcome hang\");\n");
    for (n, k) in h.kinds.iter().enumerate() {
        let _ = writeln!(
            o,
            "      {}if (s_kind == \"{}\" || s_kind == \"{}\") exp_hang_kind = {};",
            if n == 0 { "" } else { "else " },
            k.0,
            k.1,
            k.1
        );
    }
    o.push_str("      else fail($sformatf(\"unknown hang_kind '%s'\", s_kind));\n");
    let w = h.which;
    let _ = writeln!(
        o,
        "      if (!$value$plusargs(\"{w}=%s\", s_buf)) fail(\"missing +{w}=\");"
    );
    for (n, b) in h.buffers.iter().enumerate() {
        let _ = writeln!(
            o,
            "      {}if (s_buf == \"{b}\" || s_buf == \"{n}\") exp_hang_which = {n};",
            if n == 0 { "" } else { "else " }
        );
    }
    let _ = writeln!(
        o,
        "      else fail($sformatf(\"unknown {w} '%s'\", s_buf));"
    );
    for k in h.kinds {
        let (conv, what) = if k.3 { ("h", "HEX") } else { ("d", "N") };
        let _ = writeln!(
            o,
            "      if (exp_hang_kind == {} && !$value$plusargs(\"{}=%{conv}\", exp_{}))\n        fail(\"missing +{}={what}\");",
            k.1, k.2, k.2, k.2
        );
    }
    o.push_str("    end\n");
}

fn hang_check(o: &mut String, stage: &Stage, h: &crate::kit::replay::HangOutcome) {
    let which = h.which.trim_start_matches("hang_");
    let mut fmt = format!("outcome: expected finished, actual hang kind %0d {which} %0d");
    let mut args = vec!["hang_kind".to_string(), h.which.to_string()];
    for k in h.kinds {
        let short = k.2.trim_start_matches("hang_");
        let conv = if k.3 {
            format!("0x%0{}h", port(stage, k.2).shape.bits().div_ceil(4))
        } else {
            "%0d".into()
        };
        fmt += &format!(" {short} {conv}");
        args.push(k.2.to_string());
    }
    let _ = writeln!(
        o,
        "    if (outcome == \"finished\") begin\n      if (hang)\n        fail($sformatf(\"{fmt}\",\n                       {}));\n    end else begin\n      \
         if (!hang) fail(\"outcome: expected hang, actual finished\");\n      \
         if (int'(hang_kind) != exp_hang_kind)\n        fail($sformatf(\"hang: field kind expected %0d actual %0d\", exp_hang_kind, hang_kind));\n      \
         if (int'({w}) != exp_hang_which)\n        fail($sformatf(\"hang: field {which} expected %0d actual %0d\", exp_hang_which, {w}));",
        args.join(", "),
        w = h.which,
    );
    for k in h.kinds {
        let short = k.2.trim_start_matches("hang_");
        if k.3 {
            let d = port(stage, k.2).shape.bits().div_ceil(4);
            let _ = writeln!(
                o,
                "      if (exp_hang_kind == {} && {} !== exp_{})\n        fail($sformatf(\"hang: field {short} expected 0x%0{d}h actual 0x%0{d}h\", exp_{}, {}));",
                k.1, k.2, k.2, k.2, k.2
            );
        } else {
            let _ = writeln!(
                o,
                "      if (exp_hang_kind == {} && int'({}) != exp_{})\n        fail($sformatf(\"hang: field {short} expected %0d actual %0d\", exp_{}, {}));",
                k.1, k.2, k.2, k.2, k.2
            );
        }
    }
    o.push_str("    end\n");
}

const IMAGES_LOAD: &str = r#"    // Images.
    nimg = 0;
    for (int k = 0; k < MaxImg && nimg == k; k++) begin
      int words;
      logic [31:0] base;
      key = $sformatf("mem%0d=%%s", k);
      if ($value$plusargs(key, fname)) begin
        key = $sformatf("mem%0d_base=%%h", k);
        if (!$value$plusargs(key, base)) fail($sformatf("missing +mem%0d_base=HEX", k));
        key = $sformatf("mem%0d_words=%%d", k);
        if (!$value$plusargs(key, words)) fail($sformatf("missing +mem%0d_words=N", k));
        if (base[1:0] != 2'b00) fail($sformatf("image %0d base 0x%08h is not 4-aligned", k, base));
        img_base[k]  = base;
        img_words[k] = words;
        img_off[k]   = (k == 0) ? 0 : img_off[k-1] + img_words[k-1];
        if (words < 0 || img_off[k] + words > MaxMem)
          fail($sformatf("images exceed %0d words", MaxMem));
        if (words > 0) $readmemh(fname, mem, img_off[k], img_off[k] + words - 1);
        key = $sformatf("final%0d=%%s", k);
        img_has_final[k] = $value$plusargs(key, fname);
        if (img_has_final[k] && words > 0) $readmemh(fname, fin, img_off[k], img_off[k] + words - 1);
        nimg = k + 1;
      end
    end
"#;

const IMAGES_CHECK: &str = r#"
    for (int k = 0; k < nimg; k++) begin
      if (img_has_final[k]) begin
        for (int w = 0; w < img_words[k]; w++) begin
          if (mem[img_off[k] + w] !== fin[img_off[k] + w])
            fail($sformatf("final memory image %0d word 0x%08h: expected 0x%08h actual 0x%08h",
                           k, img_base[k] + 32'(4 * w), fin[img_off[k] + w], mem[img_off[k] + w]));
        end
      end
    end
"#;

const PIXBUF_LOAD: &str = r#"
    // The buffer before the run.
    cur_gen = 1;
    $readmemh(f_eb, ed_lines, 0, neb - 1);
    clear_val = ed_lines[0][@BW@:0];
    for (int i = 1; i < neb; i++) begin
      if (ed_lines[i][@B31@:@B16@] >= 16'(EdW) || ed_lines[i][@B15@:@B@] >= 16'(EdH))
        fail($sformatf("early_before line %0d: pixel (%0d, %0d) outside the buffer", i,
                       ed_lines[i][@B31@:@B16@], ed_lines[i][@B15@:@B@]));
      ed_put(int'(ed_lines[i][@B15@:@B@]) * EdW + int'(ed_lines[i][@B31@:@B16@]), ed_lines[i][@BW@:0]);
    end
"#;

const PIXBUF_CHECK: &str = r#"
    // The buffer after the run.
    $readmemh(f_ea, ed_lines, 0, nea - 1);
    if (clear_val !== ed_lines[0][@BW@:0])
      fail($sformatf("early-depth buffer: clear value expected 0x%@HEX@h actual 0x%@HEX@h",
                     ed_lines[0][@BW@:0], clear_val));
    for (int i = 1; i < nea; i++) begin
      int ix;
      ix = int'(ed_lines[i][@B15@:@B@]) * EdW + int'(ed_lines[i][@B31@:@B16@]);
      if (ed_get(ix) !== ed_lines[i][@BW@:0])
        fail($sformatf("early-depth buffer: pixel (%0d, %0d) expected 0x%@HEX@h actual 0x%@HEX@h",
                       ed_lines[i][@B31@:@B16@], ed_lines[i][@B15@:@B@], ed_lines[i][@BW@:0], ed_get(ix)));
    end
    begin
      int ndiff;
      ndiff = 0;
      // A plain for: Icarus 11 can loop forever on foreach over an empty queue.
      for (int j = 0; j < written.size(); j++) if (ed_val[written[j]] != clear_val) ndiff++;
      if (ndiff != nea - 1)
        fail($sformatf("early-depth buffer: %0d pixels differ from the clear value, expected %0d",
                       ndiff, nea - 1));
    end
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::desc::{FOP, RAST, TEV, TEX};

    #[test]
    fn templates_become_sformatf_calls() {
        assert_eq!(
            sfmt("op {i}: kind 0x{kind|02h}, 5% done"),
            "$sformatf(\"op %0d: kind 0x%02h, 5%% done\", i, kind)"
        );
        assert_eq!(sfmt("no arguments"), "\"no arguments\"");
        assert_eq!(shown("fragment {k} (x {e.x}) {s|s}"), "fragment N (x N) S");
    }

    #[test]
    fn records_pack_the_ports_like_the_bundle_writers() {
        // ops.hex record widths of vectors/src/stage_{tev,fop,rast,tex}.rs.
        for (s, w) in [(&TEV, 264), (&FOP, 96), (&RAST, 1768), (&TEX, 465)] {
            assert_eq!(ops_width(s, s.replay.unwrap()), w, "{}", s.name);
        }
        let (f, w) = fields(&FOP, &[crate::kit::replay::rec("in_x", "x")], "n");
        assert_eq!((f[0].1.as_str(), w), ("op[15:0]", 16));
    }

    #[test]
    fn every_replay_row_writes_its_testbench() {
        let files = files();
        assert_eq!(files.len(), 4);
        for (path, text) in &files {
            let name = path
                .trim_start_matches("rtl-bridge/tb/")
                .trim_end_matches(".sv");
            assert!(text.starts_with("// Generated by `pica gen rtl`"), "{path}");
            assert!(text.contains(&format!("module {name};")), "{path}");
            assert!(text.contains(&format!("endmodule : {name}\n")), "{path}");
            assert!(text.contains("$display(\"PASS: "), "{path}");
            let token = text
                .split('@')
                .skip(1)
                .any(|t| t.starts_with(|c: char| c.is_ascii_uppercase()));
            assert!(!token, "{path}: an unreplaced @TOKEN@");
        }
    }
}
