//! A FOP test bench shared by the fragment-operation tests (`fop.rs`, `gas.rs`, `shadow.rs`):
//! one FragmentOps with its register file, memory and input link, fed one fragment at a time.

// Each test crate uses a different part of the bench.
#![allow(dead_code)]

use pica_model::beat::PixelBeat;
use pica_model::fop::fb::{self, FbLayout};
use pica_model::fop::{FopHang, FopPorts, FragmentOps};
use pica_model::link::Link;
use pica_model::num::F24;
use pica_model::pipe::{Fragment, OutVertex, ShadedFragment};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::Memory;

/// Colour buffer address.
pub const CBUF: u32 = 0x1800_0000;
/// Depth-stencil buffer address.
pub const DBUF: u32 = 0x1801_0000;

/// A fragment at (x, y) with `depth` and primary colour `color`, every semantic 1.0.
pub fn frag(x: u16, y: u16, depth: u32, color: [u8; 4]) -> Fragment {
    Fragment {
        x,
        y,
        depth,
        color,
        attr: OutVertex::ONES.attr,
        tri: 0,
        tex_deriv: [[F24::ZERO; 4]; 3],
    }
}

/// One FOP with its register file, memory and input link.
pub struct Bench {
    /// The register file FOP reads.
    pub regs: RegFile,
    /// Colour and depth-stencil buffers.
    pub mem: Memory,
    /// The input link.
    pub input: Link<ShadedFragment>,
    /// The stage.
    pub fop: FragmentOps,
    /// Every pixel beat so far.
    pub beats: Vec<PixelBeat>,
    /// The next cycle.
    pub cycle: u64,
}

impl Bench {
    /// An 8×8 RGBA8 colour buffer at [`CBUF`] and D24S8 depth-stencil buffer at [`DBUF`],
    /// every buffer read and write enabled, `color_operation` in GPUREG_COLOR_OPERATION and
    /// `depth_color_mask` in GPUREG_DEPTH_COLOR_MASK.
    pub fn with(color_operation: u32, depth_color_mask: u32) -> Self {
        let mut b = Self {
            regs: RegFile::new(),
            mem: Memory::new(),
            input: Link::new("fog_to_fop", 4),
            fop: FragmentOps::new(),
            beats: Vec::new(),
            cycle: 0,
        };
        b.set(id::COLORBUFFER_LOC, CBUF >> 3);
        b.set(id::DEPTHBUFFER_LOC, DBUF >> 3);
        b.dims(8, 8);
        b.color_format(0);
        b.set(id::DEPTHBUFFER_FORMAT, 3);
        b.set(id::COLOR_OPERATION, color_operation);
        b.set(id::DEPTH_COLOR_MASK, depth_color_mask);
        b.set(id::COLORBUFFER_READ, 0xF);
        b.set(id::COLORBUFFER_WRITE, 0xF);
        b.set(id::DEPTHBUFFER_READ, 3);
        b.set(id::DEPTHBUFFER_WRITE, 3);
        b
    }

    /// Writes a register (full mask).
    pub fn set(&mut self, reg: u16, value: u32) {
        self.regs.write(reg, value);
    }

    /// GPUREG_FRAMEBUFFER_DIM for a `w` × `h` framebuffer.
    pub fn dims(&mut self, w: u32, h: u32) {
        self.set(id::FRAMEBUFFER_DIM, 1 << 24 | (h - 1) << 12 | w);
    }

    /// GPUREG_COLORBUFFER_FORMAT with the pixel size that goes with `format`.
    pub fn color_format(&mut self, format: u32) {
        let size = match format {
            0 => 2,
            1 => 1,
            _ => 0,
        };
        self.set(id::COLORBUFFER_FORMAT, format << 16 | size);
    }

    /// The buffer layout the registers describe.
    pub fn layout(&self) -> FbLayout {
        FbLayout::from_regs(&self.regs)
    }

    /// Stored colour bits at window (x, y).
    pub fn color(&self, x: u32, y: u32) -> u32 {
        let l = self.layout();
        let len = l.color_format.unwrap().bytes_per_pixel();
        fb::read_pixel(&self.mem, l.color_addr(x, y).unwrap(), len).unwrap()
    }

    /// Stores colour bits at window (x, y).
    pub fn set_color(&mut self, x: u32, y: u32, bits: u32) {
        let l = self.layout();
        let len = l.color_format.unwrap().bytes_per_pixel();
        fb::write_pixel(&mut self.mem, l.color_addr(x, y).unwrap(), bits, len).unwrap();
    }

    /// Stored depth-stencil bits at window (x, y).
    pub fn ds(&self, x: u32, y: u32) -> u32 {
        let l = self.layout();
        let len = l.depth_format.unwrap().bytes_per_pixel();
        fb::read_pixel(&self.mem, l.depth_addr(x, y).unwrap(), len).unwrap()
    }

    /// Stores depth-stencil bits at window (x, y).
    pub fn set_ds(&mut self, x: u32, y: u32, bits: u32) {
        let l = self.layout();
        let len = l.depth_format.unwrap().bytes_per_pixel();
        fb::write_pixel(&mut self.mem, l.depth_addr(x, y).unwrap(), bits, len).unwrap();
    }

    /// One FOP cycle.
    pub fn tick(&mut self) -> Result<(), FopHang> {
        self.input.begin_cycle();
        let r = self.fop.tick(
            self.cycle,
            FopPorts {
                regs: &self.regs,
                mem: &mut self.mem,
                input: &mut self.input,
                beats: Some(&mut self.beats),
            },
        );
        self.cycle += 1;
        r
    }

    /// Sends one fragment and ticks until FOP has taken it; the result of that tick.
    pub fn try_run(&mut self, f: Fragment) -> Result<(), FopHang> {
        self.input.begin_cycle();
        self.input.push(ShadedFragment::new(f)).unwrap();
        self.cycle += 1;
        self.tick()
    }

    /// Sends one fragment, returns its pixel beat.
    pub fn run(&mut self, f: Fragment) -> PixelBeat {
        let before = self.beats.len();
        self.try_run(f).unwrap();
        assert_eq!(self.beats.len(), before + 1, "one beat per fragment");
        *self.beats.last().unwrap()
    }
}
