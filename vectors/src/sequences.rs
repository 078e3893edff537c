//! Cases of several steps ([`crate::case`] "Steps"): command lists submitted one after
//! another with the GPU state carried across, memory fills between them, a transfer recorded.
//!
//! Two draw sequences, built with the [`Builder`] and cut into lists where a driver would
//! submit them (citro3d / citro2d split a frame into several `GX_ProcessCommandList`s, the
//! later relying on registers the earlier set):
//!
//! - [`state_carried`]: the first list sets everything up (framebuffer, vertex shader,
//!   viewport, attribute buffers) and draws nothing; the second only draws. The second alone,
//!   on a fresh GPU, draws nothing: its triangle exists only with the first list's state.
//! - [`two_targets`]: a memory fill clears render target A (as `C3D_RenderTargetClear` queues
//!   one ahead of the lists), the first list draws a triangle into A, a fill clears render
//!   target B (another format), the second list switches to B and draws another triangle, and
//!   a display transfer of A is recorded (not modelled). Both targets end up with a triangle
//!   over their fill colour.
//!
//! And two front-end sequences for the corpus (no draws; what `pica_top` runs):
//! [`regs_carried`] (a float-uniform vec4 sent half in one list and half in the next, a list
//! that ends in a CMDBUF jump followed by one read from the stream again, fills and a
//! transfer between them) and [`hang_ends_sequence`] (the second list hangs, the third never
//! runs).
//!
//! [`library`](crate::library) lists all four with `pipeline` off (front-end cases, replayed
//! by the RTL testbenches); tests run the draw sequences with the pipeline on.

use crate::builder::{
    BuildError, Builder, Clear, ColorFormat, DepthFormat, FbConfig, FramebufferDesc, Vertex,
    COLOR_BASE, DEPTH_BASE,
};
use crate::case::{Case, MemImage, Step, Transfer, TransferKind, DEFAULT_LIST_ADDR};
use crate::scenes::{BG, BLUE, GREEN, RED, WHITE, YELLOW};
use pica_model::cmdlist::CommandList;
use pica_model::psc::{FillWidth, MemoryFill};
use pica_model::regs::{id, PrimitiveConfigMode};
use std::collections::BTreeMap;

/// Where the second list of a draw sequence lives: 512 KiB after the first.
pub const LIST2_ADDR: u32 = DEFAULT_LIST_ADDR + 0x8_0000;

/// Render target B of [`two_targets`]: its colour buffer (RGB565, 32×32).
pub const TARGET_B_COLOR: u32 = 0x1810_0000;
/// Render target B's depth buffer (D16, 32×32).
pub const TARGET_B_DEPTH: u32 = 0x1818_0000;
/// What the fill before the first list clears target A (RGBA8) to: `0xRRGGBBAA`, stored
/// little-endian as the colour buffer holds RGBA8.
pub const TARGET_A_CLEAR: u32 = 0x4060_80FF;
/// What the fill between the lists clears target B (RGB565) to: pure red.
pub const TARGET_B_CLEAR: u16 = 0xF800;
/// Where the recorded display transfer of [`two_targets`] would write (not modelled).
pub const TRANSFER_OUT: u32 = 0x1850_0000;

/// `words` ended with a FINALIZE on a 16-byte boundary (`words` is whole commands, an even
/// number of words).
fn finalized(mut words: Vec<u32>) -> Vec<u32> {
    if words.len() % 4 == 2 {
        // A zero-mask write (a NOP) so that the NOP + FINALIZE pair below ends on 16 bytes.
        words.extend(CommandList::new().command(0, 0, false, &[0]).words());
    }
    let mut fin = CommandList::new();
    fin.finalize();
    words.extend(fin.into_words());
    words
}

/// Cuts the single list of `case` (its first image, at [`DEFAULT_LIST_ADDR`]) after its first
/// `n` words: the first list is those words plus a FINALIZE, the second the rest (which ends
/// with the builder's FINALIZE) placed at [`LIST2_ADDR`] and submitted after the first
/// finished.
fn split(case: &mut Case, n: usize) -> Result<(), BuildError> {
    // Builder::finish puts the list first, at DEFAULT_LIST_ADDR.
    let whole = case
        .images
        .first()
        .map(|im| im.words.clone())
        .unwrap_or_default();
    let first = finalized(whole.get(..n).unwrap_or_default().to_vec());
    let second = whole.get(n..).unwrap_or_default().to_vec();
    let limit = LIST2_ADDR - DEFAULT_LIST_ADDR;
    if first.len() * 4 > limit as usize {
        return Err(BuildError::TooBig {
            what: "first command list",
            bytes: first.len() as u64 * 4,
            limit: limit.into(),
        });
    }
    case.submit_size = (first.len() * 4) as u32;
    case.images[0].words = first;
    case.more.push(Step::Submit {
        addr: LIST2_ADDR,
        size: (second.len() * 4) as u32,
    });
    case.images.push(MemImage {
        base: LIST2_ADDR,
        words: second,
    });
    Ok(())
}

/// The triangle both lists' scenes draw first.
fn triangle_a() -> [Vertex; 3] {
    [
        Vertex::xy(-0.75, -0.75, RED),
        Vertex::xy(0.75, -0.75, GREEN),
        Vertex::xy(0.0, 0.75, BLUE),
    ]
}

/// [`state_carried`]'s name.
pub const STATE_CARRIED: &str = "seq/state_carried";

/// The first list sets up everything (framebuffer, shader, viewport, attribute buffers), the
/// second only draws (pipeline on; see the module docs). Returns the case and its
/// framebuffer.
pub fn state_carried() -> Result<(Case, FramebufferDesc), BuildError> {
    let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color(BG))?;
    b.vertex_array(&triangle_a());
    let n = b.words().len();
    b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    let scene = b.finish(
        STATE_CARRIED,
        "two lists: the first sets up framebuffer, shader, viewport and attribute buffers, the second only draws a triangle (state carried across)",
    )?;
    let mut case = scene.case;
    split(&mut case, n)?;
    Ok((case, scene.fb))
}

/// [`two_targets`]' name.
pub const TWO_TARGETS: &str = "seq/two_targets";

/// A fill clears target A, the first list draws into A, a fill clears target B, the second
/// list draws into B, a display transfer of A is recorded (pipeline on; see the module docs).
/// Returns the case and both render targets (A: RGBA8 / D24S8 at the scenes' addresses, B:
/// RGB565 / D16 at [`TARGET_B_COLOR`] / [`TARGET_B_DEPTH`]).
pub fn two_targets() -> Result<(Case, [FramebufferDesc; 2]), BuildError> {
    let mut b = Builder::standard(FbConfig::new(32, 32), Clear::color(BG))?;
    b.vertex_array(&triangle_a());
    b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    let n = b.words().len();
    b.render_target(
        TARGET_B_COLOR,
        TARGET_B_DEPTH,
        32,
        32,
        ColorFormat::Rgb565,
        DepthFormat::D16,
    )?;
    b.vertex_array(&[
        Vertex::xy(-0.5, 0.75, YELLOW),
        Vertex::xy(-0.5, -0.5, WHITE),
        Vertex::xy(0.75, 0.0, BLUE),
    ]);
    b.draw_arrays(PrimitiveConfigMode::Triangles, 0, 3);
    let scene = b.finish(
        TWO_TARGETS,
        "fill A, a list draws into render target A (RGBA8), fill B, a list switches to target B (RGB565) and draws, a display transfer of A (recorded, not modelled)",
    )?;
    let a = scene.fb;
    let bdesc = FramebufferDesc {
        color_addr: TARGET_B_COLOR,
        color_format: ColorFormat::Rgb565,
        depth_addr: TARGET_B_DEPTH,
        depth_format: DepthFormat::D16,
        ..a
    };
    let mut case = scene.case;
    split(&mut case, n)?;
    // Target B's buffers as images (zero: the fill clears the colour buffer before the second
    // list), so a bundle's final memory holds its picture.
    for (base, bytes) in [
        (TARGET_B_COLOR, bdesc.color_bytes()),
        (TARGET_B_DEPTH, bdesc.depth_bytes()),
    ] {
        case.images.push(MemImage {
            base,
            words: vec![0; (bytes / 4) as usize],
        });
    }
    case.before.push(Step::Fill(MemoryFill {
        start: COLOR_BASE,
        end: COLOR_BASE + a.color_bytes(),
        value: TARGET_A_CLEAR,
        width: FillWidth::W32,
    }));
    // Between the lists: B's colour (16-bit fill) and depth (far plane), as a clear of the
    // second render target queued before its list.
    let second = case.more.pop();
    case.more.push(Step::Fill(MemoryFill {
        start: TARGET_B_COLOR,
        end: TARGET_B_COLOR + bdesc.color_bytes(),
        value: u32::from(TARGET_B_CLEAR),
        width: FillWidth::W16,
    }));
    case.more.push(Step::Fill(MemoryFill {
        start: TARGET_B_DEPTH,
        end: TARGET_B_DEPTH + bdesc.depth_bytes(),
        value: 0xFFFF,
        width: FillWidth::W16,
    }));
    case.more.extend(second);
    case.more.push(Step::Transfer(Transfer {
        kind: TransferKind::Display,
        input: COLOR_BASE,
        output: TRANSFER_OUT,
        params: BTreeMap::from([
            ("input_dim".to_string(), (32 << 16) | 32),
            ("output_dim".to_string(), (32 << 16) | 32),
        ]),
    }));
    debug_assert_eq!(DEPTH_BASE, a.depth_addr);
    Ok((case, [a, bdesc]))
}

/// A list of `words` at `base` with a FINALIZE, as an image.
fn list_image(base: u32, mut l: CommandList) -> (MemImage, u32) {
    l.finalize();
    let words = l.into_words();
    let size = (words.len() * 4) as u32;
    (MemImage { base, words }, size)
}

/// Front end: a float-uniform vec4 half sent by one list and completed by the next, a list
/// ending in a CMDBUF jump (the next one is read from the stream again), a masked write that
/// merges into the value an earlier list left, fills and a transfer between the lists.
pub fn regs_carried() -> Case {
    let (l1_addr, l2_addr, l3_addr) = (DEFAULT_LIST_ADDR, LIST2_ADDR, LIST2_ADDR + 0x1000);
    let jump_target = 0x1801_0000;
    let mut l1 = CommandList::new();
    l1.write(id::VSH_FLOATUNIFORM_INDEX, 0x8000_0005); // c5, float32 mode
    l1.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &[0x3F80_0000, 0x4000_0000]); // w, z
    l1.write(id::FOG_COLOR, 0x0011_2233);
    l1.write(id::GAS_LUT_INDEX, 3);
    let mut l2 = CommandList::new();
    l2.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &[0x4040_0000, 0x4080_0000]); // y, x: c5 done
    l2.write(id::GAS_LUT_DATA, 0x00AB_CDEF); // gas LUT entry 3: the index list 1 set
    l2.write(id::CMDBUF_ADDR0, jump_target >> 3);
    l2.write(id::CMDBUF_SIZE0, 0x10 >> 3);
    l2.write(id::CMDBUF_JUMP0, 1);
    let mut j = CommandList::new();
    j.write_masked(id::FOG_COLOR, 0x4, 0x00CC_0000);
    let mut l3 = CommandList::new();
    l3.write_masked(id::FOG_COLOR, 0x1, 0x0000_00EE); // merges into list 1's and j's bytes
    l3.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &[0x3F00_0000]); // a new partial vec4 at c6
    let (i1, s1) = list_image(l1_addr, l1);
    let (i2, s2) = list_image(l2_addr, l2);
    let (ij, _) = list_image(jump_target, j);
    let (i3, s3) = list_image(l3_addr, l3);
    let mut case = Case::from_list(
        "seq/regs_carried",
        "three lists: a uniform vec4 half sent in one list and finished in the next, a list ending in a CMDBUF jump, then one read from the stream again; fills and a transfer between them",
        Vec::new(),
    );
    case.images = vec![i1, i2, ij, i3];
    case.submit_addr = l1_addr;
    case.submit_size = s1;
    case.before.push(Step::Fill(MemoryFill {
        start: 0x1800_0000,
        end: 0x1800_0100,
        value: 0x0102_0304,
        width: FillWidth::W24,
    }));
    case.more = vec![
        Step::Fill(MemoryFill {
            start: 0x1800_0100,
            end: 0x1800_0200,
            value: 0xDEAD_BEEF,
            width: FillWidth::W32,
        }),
        Step::Submit {
            addr: l2_addr,
            size: s2,
        },
        Step::Transfer(Transfer {
            kind: TransferKind::TextureCopy,
            input: 0x1800_0000,
            output: 0x1800_0400,
            params: BTreeMap::from([("size".to_string(), 0x100)]),
        }),
        Step::Submit {
            addr: l3_addr,
            size: s3,
        },
        Step::Fill(MemoryFill {
            start: 0x1800_0200,
            end: 0x1800_0210,
            value: 0x5A5A,
            width: FillWidth::W16,
        }),
    ];
    case
}

/// Front end: the first list finishes, the second has no FINALIZE and hangs, so the third
/// never runs: the sequence's outcome is the second list's hang.
pub fn hang_ends_sequence() -> Case {
    let mut l1 = CommandList::new();
    l1.write(id::FOG_COLOR, 0x0000_0011);
    let (i1, s1) = list_image(DEFAULT_LIST_ADDR, l1);
    let mut l2 = CommandList::new();
    l2.write(id::FOG_COLOR, 0x0000_2200);
    l2.write(id::FOG_COLOR, 0x0000_2201);
    let w2 = l2.into_words();
    let s2 = (w2.len() * 4) as u32;
    let mut l3 = CommandList::new();
    l3.write(id::FOG_COLOR, 0x0033_0000);
    let (i3, s3) = list_image(LIST2_ADDR + 0x1000, l3);
    let mut case = Case::from_list(
        "seq/hang_ends_sequence",
        "the second of three lists has no FINALIZE and hangs: the third never runs",
        Vec::new(),
    );
    case.images = vec![
        i1,
        MemImage {
            base: LIST2_ADDR,
            words: w2,
        },
        i3,
    ];
    case.submit_size = s1;
    case.more = vec![
        Step::Submit {
            addr: LIST2_ADDR,
            size: s2,
        },
        Step::Submit {
            addr: LIST2_ADDR + 0x1000,
            size: s3,
        },
    ];
    case
}

/// The library's sequence cases, front-end (pipeline off), in a stable order; a draw sequence
/// that does not build is left out (none does: tested).
pub fn library_cases() -> Vec<Case> {
    let mut out = Vec::new();
    if let Ok((c, _)) = state_carried() {
        out.push(c);
    }
    if let Ok((c, _)) = two_targets() {
        out.push(c);
    }
    for c in &mut out {
        c.pipeline = false;
    }
    out.push(regs_carried());
    out.push(hang_ends_sequence());
    out
}
