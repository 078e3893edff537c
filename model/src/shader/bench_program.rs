//! The benchmark vertex shader: a typical transform-and-light program (4x4 transform, normal
//! transform and normalisation, one diffuse light, colour and texture coordinate: 20
//! instructions) with its uniforms and one vertex's inputs. The criterion benchmarks of the
//! interpreter (`model/benches/shader.rs`) and of the RTL SH stage (`testbench/benches/`) run
//! the same words, descriptors and f24 inputs, so their figures compare.

use crate::cmdlist::CommandList;
use crate::num::F24;
use crate::regfile::packer::pack_f24x3;
use crate::regs::id;
use crate::shader::interp::Vec4;
use crate::shader::isa::*;
use crate::{Gpu, Memory};

fn reg(name: &str) -> SrcReg {
    SrcReg::from_name(name).unwrap_or_default()
}

fn alu(op: Opcode, d: &str, s1: &str, s2: &str, desc: u8) -> u32 {
    encode(&Instruction::Alu {
        op,
        dst: DstReg::from_name(d).unwrap_or_default(),
        src1: reg(s1),
        src2: if s2.is_empty() {
            SrcReg::default()
        } else {
            reg(s2)
        },
        idx: RelIndex::None,
        desc,
    })
}

/// The program (20 instructions) and its descriptors: desc 0 = xyzw identity, 1..=4 = mask
/// x/y/z/w, 5 = xyz.
pub fn program() -> (Vec<u32>, Vec<u32>) {
    use Opcode::*;
    let mask = |m| OpDesc::new(DestMask(m), [(false, Swizzle::IDENTITY); 3]).0;
    let descs = vec![
        OpDesc::IDENTITY.0,
        mask(8),
        mask(4),
        mask(2),
        mask(1),
        mask(0xE),
    ];
    let code = vec![
        // position = MVP (c0-c3) · v0
        alu(Dp4, "o0", "c0", "v0", 1),
        alu(Dp4, "o0", "c1", "v0", 2),
        alu(Dp4, "o0", "c2", "v0", 3),
        alu(Dp4, "o0", "c3", "v0", 4),
        // normal = normal matrix (c4-c6) · v1, normalised
        alu(Dp3, "r0", "c4", "v1", 1),
        alu(Dp3, "r0", "c5", "v1", 2),
        alu(Dp3, "r0", "c6", "v1", 3),
        alu(Dp3, "r1", "r0", "r0", 0),
        alu(Rsq, "r1", "r1", "", 0),
        alu(Mul, "r0", "r0", "r1", 5),
        // diffuse = max(dot(n, light dir c7), 0) * light colour c8 + ambient c9
        alu(Dp3, "r2", "c7", "r0", 0),
        alu(Max, "r2", "c10", "r2", 0),
        alu(Mul, "r3", "c8", "r2", 0),
        alu(Add, "r3", "c9", "r3", 0),
        alu(Mul, "o1", "v2", "r3", 5),
        alu(Mov, "o1", "v2", "", 4),
        // texture coordinate and a passthrough
        alu(Mov, "o2", "v3", "", 0),
        alu(Mov, "o3", "v1", "", 0),
        alu(Nop, "o0", "v0", "", 0),
        encode(&Instruction::Plain(End)),
    ];
    (code, descs)
}

/// The float uniforms c0-c10 of [`program`].
pub fn uniforms() -> Vec<Vec4> {
    let f = F24::from_f64_trunc;
    let mut u = vec![[F24::ZERO; 4]; 11];
    for (i, row) in u.iter_mut().take(4).enumerate() {
        row[i] = f(1.5);
        row[3] = f(0.25);
    }
    for (i, row) in u.iter_mut().skip(4).take(3).enumerate() {
        row[i] = F24::ONE;
    }
    u[7] = [f(0.0), f(0.6), f(0.8), f(0.0)];
    u[8] = [f(1.0), f(0.9), f(0.8), f(1.0)];
    u[9] = [f(0.1); 4];
    u
}

/// One vertex: v0 position, v1 normal, v2 colour, v3 texture coordinate.
pub fn inputs() -> Vec<Vec4> {
    let f = F24::from_f64_trunc;
    vec![
        [f(1.0), f(2.0), f(3.0), F24::ONE],
        [f(0.0), f(0.6), f(0.8), F24::ZERO],
        [f(0.5), f(0.25), f(0.75), F24::ONE],
        [f(0.5), f(0.5), F24::ZERO, F24::ONE],
    ]
}

/// A GPU whose REGS holds the program in all four VS units (uploaded by a command list).
pub fn configured_gpu() -> Gpu {
    let (code, descs) = program();
    let mut l = CommandList::new();
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    l.write_repeat(id::VSH_CODETRANSFER_DATA0, &code);
    l.write(id::VSH_OPDESCS_INDEX, 0);
    l.write_repeat(id::VSH_OPDESCS_DATA0, &descs);
    l.write(id::VSH_FLOATUNIFORM_INDEX, 0);
    let words: Vec<u32> = uniforms().into_iter().flat_map(pack_f24x3).collect();
    l.write_repeat(id::VSH_FLOATUNIFORM_INDEX + 1, &words);
    l.write(id::VSH_OUTMAP_MASK, 0xF);
    l.write(id::VSH_INPUTBUFFER_CONFIG, 0xA000_0003);
    l.write(id::VSH_ATTRIBUTES_PERMUTATION_LOW, 0x3210);
    l.write(id::GSH_INPUTBUFFER_CONFIG, 0xA000_0003);
    l.write(id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0x3210);
    l.finalize();
    let mut mem = Memory::new();
    let _ = mem.write_words(0x2000_0000, l.words());
    let mut gpu = Gpu::new(mem);
    let _ = gpu.submit(0x2000_0000, (l.words().len() * 4) as u32);
    gpu.run(1_000_000);
    gpu
}
