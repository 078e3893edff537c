//! The pipeline channels of a bundle: `primitive`, `fragment`, `pixel`, `texel` and
//! `combiner` beats, packed for `$readmemh` and as JSON lines, plus the final memory images.
//!
//! Every packed line is the concatenation of its fields, most significant first, as listed in
//! the manifest's `fields` (name, lsb, width), zero-padded on the left to whole hex digits.
//! f24 values are their 24-bit patterns; nothing is a host float.

use crate::bundle::Field;
use crate::case::{MemImage, PipelineCapture};
use pica_model::beat::{CombinerBeat, FragmentBeat, PixelBeat, PrimitiveBeat, TexelBeat};
use pica_model::pipe::NUM_SEMANTICS;
use serde_json::{json, Value};

/// One field of a packed beat: name, width in bits, value.
type Packed = Vec<(String, u32, u64)>;

/// A channel's beats as packed fields and JSON.
pub struct ChannelData {
    /// Channel name (`primitive`).
    pub channel: &'static str,
    /// Field layout, most significant first: (name, width).
    pub layout: Vec<(String, u32)>,
    /// `hex` file text.
    pub hex: String,
    /// `jsonl` file text.
    pub jsonl: String,
    /// Number of beats.
    pub beats: usize,
}

impl ChannelData {
    /// Total bits of a packed line.
    pub fn width(&self) -> u32 {
        self.layout.iter().map(|f| f.1).sum()
    }

    /// The manifest's field list (lsb computed from the layout).
    pub fn fields(&self) -> Vec<Field> {
        let mut lsb = self.width();
        self.layout
            .iter()
            .map(|(name, width)| {
                lsb -= width;
                Field {
                    name: name.clone(),
                    lsb,
                    width: *width,
                }
            })
            .collect()
    }
}

/// Packs fields, most significant first, into hex digits.
fn pack_hex(fields: &Packed) -> String {
    let total: u32 = fields.iter().map(|f| f.1).sum();
    let digits = total.div_ceil(4) as usize;
    let mut bits: Vec<bool> = vec![false; digits * 4 - total as usize];
    for (_, width, value) in fields {
        bits.extend((0..*width).rev().map(|i| value >> i & 1 == 1));
    }
    bits.chunks(4)
        .map(|c| {
            let n = c.iter().fold(0u32, |a, &b| a << 1 | u32::from(b));
            char::from_digit(n, 16).unwrap_or('0')
        })
        .collect()
}

fn semantics(prefix: &str, attr: &[u32; NUM_SEMANTICS], out: &mut Packed) {
    for (i, a) in attr.iter().enumerate() {
        out.push((
            format!("{prefix}attr[0x{i:02x}]"),
            24,
            u64::from(*a & 0xFF_FFFF),
        ));
    }
}

fn hex_attrs(attr: &[u32; NUM_SEMANTICS]) -> Value {
    json!(attr
        .iter()
        .map(|a| format!("0x{a:06x}"))
        .collect::<Vec<_>>())
}

fn primitive_fields(b: &PrimitiveBeat) -> Packed {
    let mut f: Packed = vec![
        ("cycle".into(), 32, b.cycle & 0xFFFF_FFFF),
        ("seq".into(), 32, u64::from(b.seq)),
    ];
    for (i, v) in b.v.iter().enumerate() {
        semantics(&format!("v{i}."), v, &mut f);
    }
    f
}

fn fragment_fields(b: &FragmentBeat) -> Packed {
    let mut f: Packed = vec![
        ("cycle".into(), 32, b.cycle & 0xFFFF_FFFF),
        ("tri".into(), 32, u64::from(b.tri)),
        ("x".into(), 16, u64::from(b.x)),
        ("y".into(), 16, u64::from(b.y)),
        ("depth".into(), 24, u64::from(b.depth & 0xFF_FFFF)),
        ("color".into(), 32, u64::from(b.color)),
    ];
    semantics("", &b.attr, &mut f);
    f
}

fn pixel_fields(b: &PixelBeat) -> Packed {
    vec![
        ("cycle".into(), 32, b.cycle & 0xFFFF_FFFF),
        ("x".into(), 16, u64::from(b.x)),
        ("y".into(), 16, u64::from(b.y)),
        ("color_addr".into(), 32, u64::from(b.color_addr)),
        ("color".into(), 32, u64::from(b.color)),
        ("depth_addr".into(), 32, u64::from(b.depth_addr)),
        ("depth_stencil".into(), 32, u64::from(b.depth_stencil)),
        ("flags".into(), 8, u64::from(b.flags)),
    ]
}

fn texel_fields(b: &TexelBeat) -> Packed {
    vec![
        ("cycle".into(), 32, b.cycle & 0xFFFF_FFFF),
        ("x".into(), 16, u64::from(b.x)),
        ("y".into(), 16, u64::from(b.y)),
        ("unit".into(), 8, u64::from(b.unit)),
        ("addr".into(), 32, u64::from(b.addr)),
        ("raw_hi".into(), 64, (b.raw >> 64) as u64),
        ("raw_lo".into(), 64, b.raw as u64),
        ("rgba".into(), 32, u64::from(b.rgba)),
    ]
}

fn combiner_fields(b: &CombinerBeat) -> Packed {
    vec![
        ("cycle".into(), 32, b.cycle & 0xFFFF_FFFF),
        ("x".into(), 16, u64::from(b.x)),
        ("y".into(), 16, u64::from(b.y)),
        ("stage".into(), 8, u64::from(b.stage)),
        ("color".into(), 32, u64::from(b.color)),
        ("buffer".into(), 32, u64::from(b.buffer)),
    ]
}

fn channel<B>(
    channel: &'static str,
    beats: &[B],
    fields: impl Fn(&B) -> Packed,
    empty: Packed,
    to_json: impl Fn(&B) -> Value,
) -> ChannelData {
    let layout = beats
        .first()
        .map_or(empty, &fields)
        .into_iter()
        .map(|(n, w, _)| (n, w))
        .collect();
    ChannelData {
        channel,
        layout,
        hex: beats
            .iter()
            .map(|b| format!("{}\n", pack_hex(&fields(b))))
            .collect(),
        jsonl: beats.iter().map(|b| format!("{}\n", to_json(b))).collect(),
        beats: beats.len(),
    }
}

/// The five pipeline channels of a capture (primitive, fragment, pixel, texel, combiner).
pub fn channels(p: &PipelineCapture) -> Vec<ChannelData> {
    let zero_prim = PrimitiveBeat {
        cycle: 0,
        seq: 0,
        v: [[0; NUM_SEMANTICS]; 3],
    };
    let zero_frag = FragmentBeat {
        cycle: 0,
        tri: 0,
        x: 0,
        y: 0,
        depth: 0,
        color: 0,
        attr: [0; NUM_SEMANTICS],
    };
    let zero_pix = PixelBeat {
        cycle: 0,
        x: 0,
        y: 0,
        color_addr: 0,
        color: 0,
        depth_addr: 0,
        depth_stencil: 0,
        flags: 0,
    };
    let zero_texel = TexelBeat {
        cycle: 0,
        x: 0,
        y: 0,
        unit: 0,
        addr: 0,
        raw: 0,
        rgba: 0,
    };
    let zero_comb = CombinerBeat {
        cycle: 0,
        x: 0,
        y: 0,
        stage: 0,
        color: 0,
        buffer: 0,
    };
    vec![
        channel(
            "primitive",
            &p.primitive,
            primitive_fields,
            primitive_fields(&zero_prim),
            |b| {
                json!({"channel": "primitive", "cycle": b.cycle, "seq": b.seq,
                       "v": b.v.iter().map(hex_attrs).collect::<Vec<_>>()})
            },
        ),
        channel(
            "fragment",
            &p.fragment,
            fragment_fields,
            fragment_fields(&zero_frag),
            |b| {
                json!({"channel": "fragment", "cycle": b.cycle, "tri": b.tri, "x": b.x, "y": b.y,
                       "depth": format!("0x{:06x}", b.depth), "color": format!("0x{:08x}", b.color),
                       "attr": hex_attrs(&b.attr)})
            },
        ),
        channel(
            "pixel",
            &p.pixel,
            pixel_fields,
            pixel_fields(&zero_pix),
            |b| {
                json!({"channel": "pixel", "cycle": b.cycle, "x": b.x, "y": b.y,
                       "color_addr": format!("0x{:08x}", b.color_addr),
                       "color": format!("0x{:08x}", b.color),
                       "depth_addr": format!("0x{:08x}", b.depth_addr),
                       "depth_stencil": format!("0x{:08x}", b.depth_stencil),
                       "flags": b.flags})
            },
        ),
        channel(
            "texel",
            &p.texel,
            texel_fields,
            texel_fields(&zero_texel),
            |b| {
                json!({"channel": "texel", "cycle": b.cycle, "x": b.x, "y": b.y, "unit": b.unit,
                       "addr": format!("0x{:08x}", b.addr), "raw": format!("0x{:032x}", b.raw),
                       "rgba": format!("0x{:08x}", b.rgba)})
            },
        ),
        channel(
            "combiner",
            &p.combiner,
            combiner_fields,
            combiner_fields(&zero_comb),
            |b| {
                json!({"channel": "combiner", "cycle": b.cycle, "x": b.x, "y": b.y,
                       "stage": b.stage, "color": format!("0x{:08x}", b.color),
                       "buffer": format!("0x{:08x}", b.buffer)})
            },
        ),
    ]
}

/// File name of a final memory image.
pub fn final_memory_file(im: &MemImage) -> String {
    format!("final_mem_{:08x}.hex", im.base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_pack_msb_first_and_pad_left() {
        let f: Packed = vec![("a".into(), 3, 0b101), ("b".into(), 8, 0xC3)];
        // 11 bits 101_1100_0011 → padded to 12: 0101_1100_0011.
        assert_eq!(pack_hex(&f), "5c3");
    }

    #[test]
    fn streams_fields_have_descending_lsbs() {
        let p = PipelineCapture {
            pixel: vec![PixelBeat {
                cycle: 7,
                x: 1,
                y: 2,
                color_addr: 0x1800_0000,
                color: 0xAABBCCDD,
                depth_addr: 0x1810_0000,
                depth_stencil: 0x12,
                flags: 3,
            }],
            ..Default::default()
        };
        let ch = channels(&p);
        let pix = &ch[2];
        assert_eq!(pix.width(), 200);
        let fields = pix.fields();
        assert_eq!(fields[0].name, "cycle");
        assert_eq!(fields[0].lsb, 168);
        assert_eq!(fields.last().map(|f| (f.lsb, f.width)), Some((0, 8)));
        assert_eq!(
            pix.hex,
            "000000070001000218000000aabbccdd181000000000001203\n"
        );
    }
}
