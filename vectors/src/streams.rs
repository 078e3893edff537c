//! The pipeline channels of a bundle: `primitive`, `fragment`, `pixel`, `texel` and
//! `combiner` beats, packed for `$readmemh` and as JSON lines, plus the final memory images.
//!
//! The packing, field names and JSON keys all come from the model's channel table
//! (`pica_model::chan`, `docs/channels.md`): every packed line is the concatenation of the
//! payload's fields, most significant first, as listed in the manifest's `fields` (name, lsb,
//! width), zero-extended to whole hex digits. f24 values are their 24-bit patterns; nothing is a
//! host float.

use crate::case::{MemImage, PipelineCapture};
use pica_model::beat::Channel;
use pica_model::chan::Payload;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

// One entry of a stream's `fields` in `manifest.json` (`crate::bundle::Stream`, which
// re-exports it as `crate::bundle::Field`). Its doc comment below is the manifest schema's
// description (`vectors/schema/`), so it stays as it was.
/// A field of a packed beat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// Field name.
    pub name: String,
    /// Least significant bit.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
}

/// A channel's beats as packed fields and JSON.
pub struct ChannelData {
    /// Channel name (`primitive`).
    pub channel: &'static str,
    /// Field layout, most significant first (from the channel table).
    pub fields: Vec<Field>,
    /// Packed width of a line in bits.
    pub width: u32,
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
        self.width
    }

    /// The manifest's field list.
    pub fn fields(&self) -> Vec<Field> {
        self.fields.clone()
    }
}

/// The `.jsonl` line of a beat: `{"channel": …, fields…}` (keys and rendering from the table).
pub fn json_line<B: Payload>(channel: Channel, b: &B) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("channel".into(), Value::String(channel.name().into()));
    m.extend(b.json_fields());
    Value::Object(m)
}

/// One channel's files from its beats.
pub fn channel<B: Payload>(channel: Channel, beats: &[B]) -> ChannelData {
    let spec = B::SPEC;
    ChannelData {
        channel: channel.name(),
        fields: spec
            .layout()
            .into_iter()
            .map(|(name, lsb, width)| Field { name, lsb, width })
            .collect(),
        width: spec.width(),
        hex: beats
            .iter()
            .map(|b| format!("{}\n", b.hex_line()))
            .collect(),
        jsonl: beats
            .iter()
            .map(|b| format!("{}\n", json_line(channel, b)))
            .collect(),
        beats: beats.len(),
    }
}

/// The six pipeline channels of a capture (primitive, fragment, pixel, texel, combiner,
/// texture colours).
pub fn channels(p: &PipelineCapture) -> Vec<ChannelData> {
    vec![
        channel(Channel::Primitive, &p.primitive),
        channel(Channel::Fragment, &p.fragment),
        channel(Channel::Pixel, &p.pixel),
        channel(Channel::Texel, &p.texel),
        channel(Channel::Combiner, &p.combiner),
        channel(Channel::TexColor, &p.tex_color),
    ]
}

/// File name of a final memory image.
pub fn final_memory_file(im: &MemImage) -> String {
    format!("final_mem_{:08x}.hex", im.base)
}

#[cfg(test)]
mod tests {
    use super::*;

    use pica_model::beat::PixelBeat;
    use pica_model::chan::pack_hex;

    #[test]
    fn streams_pack_msb_first_and_pad_left() {
        let f = vec![("a".to_string(), 3, 0b101), ("b".to_string(), 8, 0xC3)];
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
