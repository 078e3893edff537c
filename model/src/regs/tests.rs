//! Self-tests of the register table: its shape, its consistency, spot checks against the seed
//! (3dbrew GPU/Internal_Registers, seed 002 + seed 001), the typed accessors and the decoder.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::*;

fn all_field_lists() -> Vec<(String, &'static [FieldInfo])> {
    let mut v: Vec<(String, &'static [FieldInfo])> = Vec::new();
    for l in LAYOUTS.iter() {
        v.push((l.name.to_string(), l.fields));
        for e in l.entries {
            v.push((format!("{} entry {}", l.name, e.name), e.fields));
        }
    }
    v
}

#[test]
fn regs_table_has_0x300_entries_indexed_by_id() {
    assert_eq!(REGISTERS.len(), 0x300);
    assert_eq!(REG_COUNT, 0x300);
    for (i, r) in REGISTERS.iter().enumerate() {
        assert_eq!(usize::from(r.id), i, "entry {i} has id {:#x}", r.id);
    }
}

#[test]
fn regs_unnamed_ids_use_the_placeholder_name_and_have_nothing_else() {
    for r in REGISTERS.iter().filter(|r| !r.is_named()) {
        assert_eq!(r.name, format!("GPUREG_{:04X}", r.id));
        assert!(
            r.fields.is_empty() && r.official.is_empty() && r.layout.is_none(),
            "{}",
            r.name
        );
        assert_eq!(r.effect, SideEffect::None);
        assert!(r.alias.is_none());
    }
}

#[test]
fn regs_named_ids_have_unique_names_and_a_layout() {
    let mut seen = BTreeMap::new();
    for r in REGISTERS.iter().filter(|r| r.is_named()) {
        if let Some(other) = seen.insert(r.name, r.id) {
            panic!("{} names both {other:#x} and {:#x}", r.name, r.id);
        }
        assert!(r.layout.is_some(), "{} has no layout", r.name);
        assert!(!r.fields.is_empty(), "{} has no fields", r.name);
    }
}

#[test]
fn regs_layout_ids_point_back_to_their_layout() {
    let mut covered = BTreeSet::new();
    for l in LAYOUTS.iter() {
        assert!(!l.ids.is_empty(), "{}", l.name);
        for &id in l.ids {
            assert!(covered.insert(id), "{id:#x} is in two layouts");
            let r = &REGISTERS[usize::from(id)];
            assert_eq!(r.layout, Some(l.struct_name), "{:#x}", id);
            assert_eq!(r.fields, l.fields, "{:#x}", id);
        }
    }
}

#[test]
fn regs_fields_fit_32_bits_and_do_not_overlap() {
    for (name, fields) in all_field_lists() {
        let mut used = 0u32;
        let mut names = BTreeSet::new();
        for f in fields {
            assert!(
                f.width >= 1 && u32::from(f.lsb) + u32::from(f.width) <= 32,
                "{name}.{}",
                f.name
            );
            assert_eq!(
                used & f.mask(),
                0,
                "{name}.{} overlaps another field",
                f.name
            );
            used |= f.mask();
            assert!(names.insert(f.name), "{name}.{} twice", f.name);
        }
    }
}

#[test]
fn regs_enum_values_fit_their_field_width() {
    for (name, fields) in all_field_lists() {
        for f in fields {
            if let FieldKind::Enum(values) = f.kind {
                let mut seen = BTreeSet::new();
                for v in values {
                    assert!(
                        f.width == 32 || v.value >> f.width == 0,
                        "{name}.{} value {}",
                        f.name,
                        v.value
                    );
                    assert!(
                        seen.insert(v.value),
                        "{name}.{} value {} twice",
                        f.name,
                        v.value
                    );
                }
                let e = enum_info(f.enum_type.unwrap_or(""))
                    .unwrap_or_else(|| panic!("{name}.{}", f.name));
                assert_eq!(e.width, f.width, "{name}.{}", f.name);
                assert_eq!(e.values, values);
            } else {
                assert!(f.enum_type.is_none());
            }
            if let FieldKind::Const(v) = f.kind {
                assert!(f.width == 32 || v >> f.width == 0, "{name}.{}", f.name);
            }
        }
    }
}

#[test]
fn regs_alias_groups_are_contiguous_and_consistent() {
    for a in ALIAS_GROUPS.iter() {
        assert!(a.count >= 2);
        let first = &REGISTERS[usize::from(a.first)];
        assert!(
            matches!(first.effect, SideEffect::FifoData(_)),
            "{}",
            a.name
        );
        for id in a.first..a.first + a.count {
            let r = &REGISTERS[usize::from(id)];
            assert_eq!(r.alias, Some(*a), "{:#x}", id);
            assert_eq!(r.effect, first.effect, "{:#x}", id);
            // FIXEDATTRIB_DATA0-2 are three words of one packed vec4, with three layouts; every
            // other group is one register seen through several IDs.
            if a.name != "FIXEDATTRIB_DATA" {
                assert_eq!(r.layout, first.layout, "{:#x}", id);
            }
        }
    }
    for r in REGISTERS.iter() {
        if let Some(a) = r.alias {
            assert!(a.contains(r.id), "{:#x}", r.id);
            assert!(ALIAS_GROUPS.contains(&a));
        }
    }
    let fixed: Vec<_> = (0x233u16..=0x235)
        .map(|i| REGISTERS[usize::from(i)].layout)
        .collect();
    assert_eq!(
        fixed,
        [
            Some("FixedattribData0"),
            Some("FixedattribData1"),
            Some("FixedattribData2")
        ]
    );
}

#[test]
fn regs_every_fifo_data_register_has_a_fifo_index_register() {
    let mut data_fifos = BTreeSet::new();
    for r in REGISTERS.iter() {
        if let SideEffect::FifoData(f) = r.effect {
            let index =
                fifo_index_register(f).unwrap_or_else(|| panic!("{:?} has no index register", f));
            assert!(
                index < r.id,
                "{:?}: index {index:#x} after data {:#x}",
                f,
                r.id
            );
            data_fifos.insert(format!("{f:?}"));
        }
    }
    // and every FIFO kind is fed
    assert_eq!(data_fifos.len(), 11, "{data_fifos:?}");
    assert_eq!(
        fifo_data_registers(Fifo::FloatUniform(ShaderBlock::Vsh)).collect::<Vec<_>>(),
        (0x2C1..=0x2C8).collect::<Vec<u16>>()
    );
}

#[test]
fn regs_seed_spot_check_misc_and_rasterizer() {
    let r = info(0x010).expect("0x010");
    assert_eq!(
        (r.name, r.official, r.official_uncertain),
        ("GPUREG_FINALIZE", "PICA_REG_INTERRUPT", false)
    );
    assert_eq!(r.effect, SideEffect::Trigger(Trigger::Finalize));
    assert_eq!(
        (r.fields[0].lsb, r.fields[0].width, r.fields[0].kind),
        (0, 32, FieldKind::Trigger)
    );

    let r = info(0x040).expect("0x040");
    assert_eq!(
        (r.name, r.official),
        ("GPUREG_FACECULLING_CONFIG", "PICA_REG_CULL_FACE")
    );
    assert_eq!(r.fields.len(), 1);
    assert_eq!(
        (r.fields[0].name, r.fields[0].lsb, r.fields[0].width),
        ("mode", 0, 2)
    );
    assert_eq!(r.fields[0].enum_type, Some("FacecullingConfigMode"));

    let r = info(0x047).expect("0x047");
    assert_eq!(
        (r.name, r.official, r.official_uncertain),
        ("GPUREG_FRAGOP_CLIP", "PICA_REG_FRAGOP_CLIP", true)
    );
    assert_eq!(
        info(0x04D).map(|r| r.description.starts_with("Seed note: As f24.")),
        Some(true)
    );
    assert_eq!(
        info(0x04F).map(|r| r.official),
        Some("PICA_REG_GS_OUT_REG_NUM0 / PICA_REG_VS_OUT_REG_NUM0")
    );
    assert_eq!(
        info(0x063).map(|r| r.effect),
        Some(SideEffect::Trigger(Trigger::EarlyDepthClear))
    );
    // seed 001: VIEWPORT_XY is signed
    let xy = info(0x068).expect("0x068");
    assert_eq!(
        xy.fields
            .iter()
            .map(|f| (f.name, f.lsb, f.width, f.kind))
            .collect::<Vec<_>>(),
        [
            ("x", 0, 10, FieldKind::Signed),
            ("y", 16, 10, FieldKind::Signed)
        ]
    );
    assert_eq!(ViewportXy(0x3FF).x(), -1);
    let invw = info(0x042).expect("0x042");
    assert_eq!(
        (
            invw.fields[0].lsb,
            invw.fields[0].width,
            invw.fields[0].kind
        ),
        (1, 31, FieldKind::F31)
    );
}

#[test]
fn regs_seed_spot_check_texturing() {
    for (id, unit) in [(0x083, 0), (0x093, 1), (0x09B, 2)] {
        let r = info(id).expect("param");
        assert_eq!(r.name, format!("GPUREG_TEXUNIT{unit}_PARAM"));
        assert_eq!(r.layout, Some("TexunitParam"));
    }
    let wrap = TexunitParam::FIELDS
        .iter()
        .find(|f| f.name == "wrap_s")
        .expect("wrap_s");
    assert_eq!((wrap.lsb, wrap.width), (12, 3));
    let FieldKind::Enum(values) = wrap.kind else {
        panic!("wrap_s is an enum")
    };
    let v: Vec<_> = values.iter().map(|v| (v.value, v.name)).collect();
    assert_eq!(
        v,
        [
            (0, "ClampToEdge"),
            (1, "ClampToBorder"),
            (2, "Repeat"),
            (3, "MirroredRepeat")
        ]
    );
    assert_eq!(TexunitParam(0x2000).wrap_s(), TexunitParamWrap::Repeat);
    assert_eq!(TexunitParam(0x4000).wrap_s(), TexunitParamWrap::Reserved(4));
    assert_eq!(
        TexunitParam(0x300).wrap_t(),
        TexunitParamWrap::MirroredRepeat
    );

    // TEXUNITi_ADDRi: the first address register holds 28 bits, the subsequent ones 22
    assert_eq!(info(0x085).map(|r| r.layout), Some(Some("TexunitAddr")));
    assert_eq!(info(0x095).map(|r| r.layout), Some(Some("TexunitAddr")));
    assert_eq!(info(0x09D).map(|r| r.layout), Some(Some("TexunitAddr")));
    assert_eq!(
        info(0x08A).map(|r| r.layout),
        Some(Some("TexunitAddrSubsequent"))
    );
    assert_eq!(TexunitAddr::FIELDS[0].width, 28);
    assert_eq!(TexunitAddrSubsequent::FIELDS[0].width, 22);

    // seed 001: shadow perspective bit is 0 = perspective
    assert!(TexunitShadow::FIELDS[0]
        .description
        .contains("0 = perspective, 1 = not perspective"));

    // TEXENV4/5 sit at 0x0F0/0x0F8, not at 0x0E0
    assert_eq!(
        TexenvSource::IDS,
        &[0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8]
    );
    assert_eq!(ProctexLut(0x0400).table(), ProctexLutTable::Color);
    assert_eq!(ProctexLut(0x0100).table(), ProctexLutTable::Reserved(1));
    assert_eq!(
        info(0x0AF).map(|r| r.effect),
        Some(SideEffect::FifoIndex(Fifo::ProcTexLut))
    );
}

#[test]
fn regs_seed_spot_check_framebuffer_and_lighting() {
    assert_eq!(
        info(0x110).map(|r| (r.name, r.effect)),
        Some((
            "GPUREG_FRAMEBUFFER_INVALIDATE",
            SideEffect::Trigger(Trigger::FramebufferInvalidate)
        ))
    );
    assert_eq!(
        info(0x111).map(|r| (r.name, r.effect)),
        Some((
            "GPUREG_FRAMEBUFFER_FLUSH",
            SideEffect::Trigger(Trigger::FramebufferFlush)
        ))
    );
    assert_eq!(
        info(0x124).map(|r| r.effect),
        Some(SideEffect::FifoData(Fifo::GasLut))
    );

    // seed 001: GAS_DELTAZ_DEPTH has a depth function, GAS_LIGHT_Z_COLOR a LUT input
    assert_eq!(
        GasDeltazDepth(3 << 24).depth_function(),
        GasDeltazDepthFunction::Less
    );
    assert_eq!(
        GasLightZColor(1 << 8).color_lut_input(),
        GasLightZColorLutInput::LightFactor
    );
    // seed 001: RB/RG/RR disable bits are single bits 20, 21, 22
    for (name, bit) in [
        ("rb_lut_disabled", 20),
        ("rg_lut_disabled", 21),
        ("rr_lut_disabled", 22),
    ] {
        let f = LightingConfig1::FIELDS
            .iter()
            .find(|f| f.name == name)
            .expect(name);
        assert_eq!((f.lsb, f.width, f.kind), (bit, 1, FieldKind::Bool));
    }

    // LIGHTING_LUT_INDEX: table 8-12, values 2 and 7 not described
    let r = info(0x1C5).expect("0x1C5");
    assert_eq!(r.effect, SideEffect::FifoIndex(Fifo::LightingLut));
    let t = LightingLutIndex::FIELDS
        .iter()
        .find(|f| f.name == "table")
        .expect("table");
    assert_eq!((t.lsb, t.width), (8, 5));
    assert_eq!(
        LightingLutIndexTable::from_bits(0),
        LightingLutIndexTable::D0
    );
    assert_eq!(
        LightingLutIndexTable::from_bits(3),
        LightingLutIndexTable::Fr
    );
    assert_eq!(
        LightingLutIndexTable::from_bits(2),
        LightingLutIndexTable::Reserved(2)
    );
    assert_eq!(
        LightingLutIndexTable::from_bits(7),
        LightingLutIndexTable::Reserved(7)
    );
    assert_eq!(
        LightingLutIndexTable::from_bits(8),
        LightingLutIndexTable::Sp0
    );
    assert_eq!(
        LightingLutIndexTable::from_bits(23),
        LightingLutIndexTable::Da7
    );
    assert_eq!(
        LightingLutIndexTable::from_bits(24),
        LightingLutIndexTable::Reserved(24)
    );
    assert_eq!(
        (0x1C8u16..=0x1CF)
            .map(|i| REGISTERS[usize::from(i)].effect)
            .collect::<std::collections::HashSet<_>>()
            .len(),
        1
    );
    // light 5 registers: 0x190..
    assert_eq!(by_name("GPUREG_LIGHT5_CONFIG"), Some(0x199));
    assert_eq!(LightConfig::IDS.len(), 8);
}

#[test]
fn regs_seed_spot_check_geometry_pipeline() {
    // 0x232-0x235: fixed attribute index and the three data words
    let r = info(0x232).expect("0x232");
    assert_eq!(
        (r.name, r.official, r.official_uncertain),
        ("GPUREG_FIXEDATTRIB_INDEX", "PICA_REG_VS_FIXED_ATTR", true)
    );
    assert_eq!(r.effect, SideEffect::FifoIndex(Fifo::FixedAttrib));
    for (id, n) in [(0x233, 0), (0x234, 1), (0x235, 2)] {
        let r = info(id).expect("data");
        assert_eq!(r.name, format!("GPUREG_FIXEDATTRIB_DATA{n}"));
        assert_eq!(r.official, format!("PICA_REG_VS_FIXED_ATTR_DATA{n}"));
        assert_eq!(r.effect, SideEffect::FifoData(Fifo::FixedAttrib));
        assert_eq!(
            r.alias.map(|a| (a.name, a.first, a.count)),
            Some(("FIXEDATTRIB_DATA", 0x233, 3))
        );
    }
    // seed 001 layout: DATA0 = Z[23:16] | W << 8, DATA1 = Y[23:8] | Z[15:0] << 16, DATA2 = X | Y[7:0] << 24
    let (x, y, z, w) = (0x3F_0000u32, 0x40_0000u32, 0x40_8000u32, 0x3E_0000u32);
    let d0 = FixedattribData0(0)
        .with_z_high(z >> 16)
        .with_w(crate::num::F24::from_bits(w));
    let d1 = FixedattribData1(0)
        .with_y_high(y >> 8)
        .with_z_low(z & 0xFFFF);
    let d2 = FixedattribData2(0)
        .with_x(crate::num::F24::from_bits(x))
        .with_y_low(y & 0xFF);
    assert_eq!(d0.raw(), (w << 8) | (z >> 16));
    assert_eq!(d1.raw(), ((z & 0xFFFF) << 16) | (y >> 8));
    assert_eq!(d2.raw(), ((y & 0xFF) << 24) | x);

    // 0x238-0x23D: command buffer channels
    assert_eq!(CmdbufSize::IDS, &[0x238, 0x239]);
    assert_eq!(CmdbufAddr::IDS, &[0x23A, 0x23B]);
    for (id, name, official) in [
        (
            0x23A,
            "GPUREG_CMDBUF_ADDR0",
            "PICA_REG_COMMAND_BUF_ADDR_CH0",
        ),
        (
            0x23B,
            "GPUREG_CMDBUF_ADDR1",
            "PICA_REG_COMMAND_BUF_ADDR_CH1",
        ),
        (
            0x23C,
            "GPUREG_CMDBUF_JUMP0",
            "PICA_REG_COMMAND_BUF_KICK_CH0",
        ),
        (
            0x23D,
            "GPUREG_CMDBUF_JUMP1",
            "PICA_REG_COMMAND_BUF_KICK_CH1",
        ),
    ] {
        assert_eq!(
            info(id).map(|r| (r.name, r.official)),
            Some((name, official))
        );
    }
    assert_eq!(
        info(0x23C).map(|r| r.effect),
        Some(SideEffect::Trigger(Trigger::CmdbufJump(0)))
    );
    assert_eq!(
        info(0x23D).map(|r| r.effect),
        Some(SideEffect::Trigger(Trigger::CmdbufJump(1)))
    );
    assert_eq!(info(0x23A).map(|r| r.effect), Some(SideEffect::None));
    assert_eq!(
        (CmdbufAddr::FIELDS[0].name, CmdbufAddr::FIELDS[0].width),
        ("addr", 29)
    );
    assert_eq!(
        (CmdbufSize::FIELDS[0].name, CmdbufSize::FIELDS[0].width),
        ("size", 21)
    );

    for (id, t) in [
        (0x22E, Trigger::DrawArrays),
        (0x22F, Trigger::DrawElements),
        (0x231, Trigger::VtxFunc),
        (0x25F, Trigger::RestartPrimitive),
    ] {
        assert_eq!(info(id).map(|r| r.effect), Some(SideEffect::Trigger(t)));
    }
    assert_eq!(
        GeostageConfig(2).gs_mode(),
        GeostageConfigGsMode::GeometryShader
    );
    assert_eq!(
        GeostageConfig(0).gs_mode(),
        GeostageConfigGsMode::VertexOnly
    );
    assert_eq!(
        GeostageConfig(1).gs_mode(),
        GeostageConfigGsMode::Reserved(1)
    );
    assert_eq!(
        info(0x25E).map(|r| r.official),
        Some("PICA_REG_GS_OUT_REG_NUM3 / PICA_REG_DRAW_MODE2 / PICA_REG_VS_OUT_REG_NUM3")
    );
}

#[test]
fn regs_seed_spot_check_shader_blocks() {
    let r = info(0x2C0).expect("0x2C0");
    assert_eq!(
        (r.name, r.official),
        ("GPUREG_VSH_FLOATUNIFORM_INDEX", "PICA_REG_VS_FLOAT_ADDR")
    );
    assert_eq!(
        r.effect,
        SideEffect::FifoIndex(Fifo::FloatUniform(ShaderBlock::Vsh))
    );
    assert_eq!(r.layout, Some("ShFloatuniformIndex"));
    for i in 0..8u16 {
        let r = &REGISTERS[usize::from(0x2C1 + i)];
        assert_eq!(r.name, format!("GPUREG_VSH_FLOATUNIFORM_DATA{i}"));
        assert_eq!(r.official, format!("PICA_REG_VS_FLOAT_DATA{i}"));
        assert_eq!(
            r.effect,
            SideEffect::FifoData(Fifo::FloatUniform(ShaderBlock::Vsh))
        );
        assert_eq!(
            r.alias.map(|a| (a.name, a.first, a.count)),
            Some(("VSH_FLOATUNIFORM_DATA", 0x2C1, 8))
        );
        assert_eq!(r.fields[0].kind, FieldKind::Data);
    }
    assert_eq!(
        info(0x290).map(|r| r.effect),
        Some(SideEffect::FifoIndex(Fifo::FloatUniform(ShaderBlock::Gsh)))
    );
    assert_eq!(
        info(0x29C).map(|r| r.effect),
        Some(SideEffect::FifoData(Fifo::Code(ShaderBlock::Gsh)))
    );
    assert_eq!(
        info(0x2D5).map(|r| r.effect),
        Some(SideEffect::FifoIndex(Fifo::OpDesc(ShaderBlock::Vsh)))
    );
    assert_eq!(
        info(0x2BF).map(|r| r.effect),
        Some(SideEffect::Trigger(Trigger::CodeTransferEnd(
            ShaderBlock::Vsh
        )))
    );
    assert_eq!(
        info(0x28F).map(|r| r.effect),
        Some(SideEffect::Trigger(Trigger::CodeTransferEnd(
            ShaderBlock::Gsh
        )))
    );
    // one SH_* description covers both blocks
    assert_eq!(ShEntrypoint::IDS, &[0x28A, 0x2BA]);
    assert_eq!(
        ShIntuniform::IDS,
        &[0x281, 0x282, 0x283, 0x284, 0x2B1, 0x2B2, 0x2B3, 0x2B4]
    );
    assert_eq!(ShFloatuniformData::IDS.len(), 16);
    // seed 001 (hardware findings) text on VSH_COM_MODE
    assert!(info(0x244)
        .map(|r| r
            .description
            .contains("propagated to the geometry shader unit"))
        .unwrap_or(false));
    assert_eq!(ShEntrypoint::CONST_MASK, 0xFFFF_0000);
    assert_eq!(ShEntrypoint::CONST_VALUE, 0x7FFF_0000);
}

#[test]
fn regs_required_accessor_names_round_trip() {
    let v = ShFloatuniformIndex(0)
        .with_index(95)
        .with_mode(ShFloatuniformIndexMode::F32);
    assert_eq!(
        (v.index(), v.mode(), v.raw()),
        (95, ShFloatuniformIndexMode::F32, 0x8000_005F)
    );
    assert_eq!(ShCodetransferIndex(0).with_offset(0xFFF).offset(), 0xFFF);
    assert_eq!(
        ShCodetransferIndex(0).with_offset(0x1FFF).offset(),
        0xFFF,
        "bits beyond the field are dropped"
    );
    assert_eq!(ShOpdescsIndex(0).with_offset(0x7F).offset(), 0x7F);
    assert_eq!(FixedattribIndex(0).with_index(0xF).index(), 0xF);
    let p = ProctexLut(0)
        .with_index(200)
        .with_table(ProctexLutTable::ColorDiff);
    assert_eq!(
        (p.index(), p.table(), p.raw()),
        (200, ProctexLutTable::ColorDiff, 0x5C8)
    );
    assert_eq!(FogLutIndex(0).with_index(0xFFFF).index(), 0xFFFF);
    let l = LightingLutIndex(0)
        .with_index(255)
        .with_table(LightingLutIndexTable::Da3);
    assert_eq!(
        (l.index(), l.table(), l.raw()),
        (255, LightingLutIndexTable::Da3, (19 << 8) | 255)
    );
    assert_eq!(GasLutIndex(0).with_index(15).index(), 15);
    assert_eq!(CmdbufSize(0).with_size(0x1F_FFFF).size(), 0x1F_FFFF);
    assert_eq!(CmdbufAddr(0).with_addr(0x1FFF_FFFF).addr(), 0x1FFF_FFFF);
    assert!(VshComMode(0)
        .with_gs_config_enabled(true)
        .gs_config_enabled());
    assert_eq!(VshComMode(0).with_gs_config_enabled(true).raw(), 1);
    let g = GeostageConfig(0).with_gs_mode(GeostageConfigGsMode::GeometryShader);
    assert_eq!(g.raw(), 2);
    assert_eq!(ShEntrypoint(0x7FFF_0000).with_entry(0x123).entry(), 0x123);
    assert_eq!(ShBooluniform(0).with_bools(0xA5A5).bools(), 0xA5A5);
    let i = ShIntuniform(0).with_x(1).with_y(2).with_z(3).with_w(4);
    assert_eq!(
        (i.x(), i.y(), i.z(), i.w(), i.raw()),
        (1, 2, 3, 4, 0x0403_0201)
    );
    let f = FacecullingConfig(0).with_mode(FacecullingConfigMode::BackCcw);
    assert_eq!(f.mode(), FacecullingConfigMode::BackCcw);
    let s = StencilTest(0).with_reference(-2);
    assert_eq!((s.reference(), s.raw()), (-2, 0x00FE_0000));
    let w = ViewportWidth(0).with_half_width(crate::num::F24::from_bits(0x3F_0000));
    assert_eq!(w.half_width().bits(), 0x3F_0000);
    // Register trait
    fn raw_of<R: Register>(v: u32) -> u32 {
        R::from_raw(v).raw()
    }
    assert_eq!(raw_of::<TexenvCombiner>(0xDEAD_BEEF), 0xDEAD_BEEF);
    assert_eq!(
        <TexenvCombiner as Register>::NAME,
        "GPUREG_TEXENVi_COMBINER"
    );
}

#[test]
fn regs_reserved_enum_encodings_decode_without_panic() {
    assert_eq!(
        FacecullingConfigMode::from_bits(3),
        FacecullingConfigMode::Reserved(3)
    );
    assert_eq!(FacecullingConfigMode::Reserved(3).bits(), 3);
    assert_eq!(
        FacecullingConfig(3).mode(),
        FacecullingConfigMode::Reserved(3)
    );
    assert_eq!(
        FacecullingConfig(0)
            .with_mode(FacecullingConfigMode::Reserved(0xFF))
            .raw(),
        3,
        "masked to the field"
    );
    assert_eq!(FacecullingConfigMode::BackCcw.to_string(), "BackCcw (2)");
    assert_eq!(
        FacecullingConfigMode::Reserved(3).to_string(),
        "Reserved (3)"
    );
    assert_eq!(
        LightingConfig0LightEnv::from_bits(8),
        LightingConfig0LightEnv::Config7
    );
    assert_eq!(
        LightingConfig0LightEnv::from_bits(7),
        LightingConfig0LightEnv::Reserved(7)
    );
    assert_eq!(
        ColorbufferFormatFormat::from_bits(1),
        ColorbufferFormatFormat::Reserved(1)
    );
    for e in ENUMS.iter() {
        assert!(!e.values.is_empty(), "{}", e.name);
    }
}

#[test]
fn regs_decode_fields_text() {
    let d = decode_fields(0x040, 2);
    assert_eq!(
        d,
        vec![DecodedField {
            name: "mode",
            bits: 2,
            text: "BackCcw (2)".into()
        }]
    );
    assert_eq!(decode_fields(0x040, 3)[0].text, "Reserved (3)");
    let d = decode_fields(0x041, 0x3F_0000);
    assert_eq!(
        (d[0].name, d[0].bits, d[0].text.as_str()),
        ("half_width", 0x3F_0000, "0x3f0000 (1)")
    );
    // undescribed bits are reported
    let d = decode_fields(0x040, 0x8000_0001);
    assert_eq!(d.len(), 2);
    assert_eq!(
        (d[1].name, d[1].bits, d[1].text.as_str()),
        ("undescribed_bits", 0x8000_0000, "0x80000000")
    );
    // an unnamed ID and an ID beyond the table decode as one raw value
    assert_eq!(
        decode_fields(0x000, 0x1234),
        vec![DecodedField {
            name: "value",
            bits: 0x1234,
            text: "0x1234 (4660)".into()
        }]
    );
    assert_eq!(decode_fields(0x1234, 7)[0].name, "value");
    let d = decode_fields(u32::from(id::SCISSORTEST_POS), (5 << 16) | 3);
    assert_eq!(
        d.iter().map(|f| f.text.as_str()).collect::<Vec<_>>(),
        ["3", "5"]
    );
    let d = decode_fields(u32::from(id::VIEWPORT_XY), 0x3FF);
    assert_eq!(d[0].text, "-1 (0x3ff)");
    let d = decode_fields(u32::from(id::GSH_ENTRYPOINT), 0x0000_0010);
    assert_eq!(d[1].text, "0x0 (must be 0x7fff)");
    let d = decode_fields(u32::from(id::TEXUNIT0_LOD), 0x1F00);
    assert_eq!(d[0].text, "0x1f00 (-1.0)");
    let d = decode_fields(u32::from(id::DEPTH_COLOR_MASK), 0x51);
    assert_eq!(d[0].text, "true");
    assert_eq!(d[1].text, "LessEqual (5)");
}

#[test]
fn regs_names_and_lookups() {
    assert_eq!(name(0x010), "GPUREG_FINALIZE");
    assert_eq!(name(0x045), "GPUREG_0045");
    assert_eq!(name(0x1234), "GPUREG_1234 (beyond 0x2FF)");
    assert_eq!(name(0x300), "GPUREG_0300 (beyond 0x2FF)");
    assert!(info(0x300).is_none());
    assert!(info(u32::MAX).is_none());
    assert_eq!(by_name("GPUREG_FINALIZE"), Some(0x010));
    assert_eq!(by_name("FINALIZE"), Some(0x010));
    assert_eq!(by_name("finalize"), Some(0x010));
    assert_eq!(by_name("PICA_REG_INTERRUPT"), Some(0x010));
    assert_eq!(by_name("PICA_REG_VS_OUT_ATTR0"), Some(0x050));
    assert_eq!(by_name("PICA_REG_GS_OUT_ATTR0"), Some(0x050));
    assert_eq!(by_name("PICA_REG_DRAW_MODE2"), Some(0x25E));
    assert_eq!(by_name("GPUREG_0045"), Some(0x045));
    assert_eq!(by_name("0x2c0"), Some(0x2C0));
    assert_eq!(by_name("0x300"), None);
    assert_eq!(by_name("NOT_A_REGISTER"), None);
    assert_eq!(by_name(""), None);
    assert_eq!(id::FINALIZE, 0x010);
    assert_eq!(id::VSH_FLOATUNIFORM_INDEX, 0x2C0);
    assert_eq!(id::VSH_FLOATUNIFORM_DATA0, 0x2C1);
    assert_eq!(id::GSH_OPDESCS_DATA7, 0x2AD);
    assert_eq!(id::FRAMEBUFFER_FLUSH, 0x111);
    for r in REGISTERS.iter().filter(|r| r.is_named()) {
        assert_eq!(by_name(r.name), Some(r.id));
        for o in r.official.split(" / ").filter(|o| !o.is_empty()) {
            assert_eq!(by_name(o), Some(r.id), "{o}");
        }
    }
    assert_eq!(
        layout_of(0x093).map(|l| l.name),
        Some("GPUREG_TEXUNITi_PARAM")
    );
}

#[test]
fn regs_generators_cover_the_table() {
    let json = to_json();
    assert_eq!(json["registers"].as_array().map(Vec::len), Some(0x300));
    assert_eq!(json["registers"][0x10]["name"], "GPUREG_FINALIZE");
    assert_eq!(
        json["layouts"].as_array().map(Vec::len),
        Some(LAYOUTS.len())
    );

    let listing = text_listing();
    assert!(listing.contains("0x040  GPUREG_FACECULLING_CONFIG  PICA_REG_CULL_FACE"));
    assert!(listing.contains("0x2FF  GPUREG_02FF"));
    assert!(text_for(0x300).is_none());

    let md = markdown();
    assert!(md.starts_with("<!-- Generated from model/regs/registers.toml"));
    assert!(md.contains("### FacecullingConfig"));
}

#[test]
fn regs_sv_package_identifiers_are_unique_and_ascii() {
    let sv = sv_package();
    assert!(sv.starts_with(
        "// Generated from model/regs/registers.toml by `pica gen rtl` — do not edit.\n"
    ));
    let mut seen = BTreeSet::new();
    for (n, line) in sv.lines().enumerate() {
        if n > 0 {
            assert!(line.is_ascii(), "line {}: {line}", n + 1);
        }
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("localparam ") {
            let name = rest
                .split('=')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .last()
                .unwrap_or("");
            assert!(
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
                "{line}"
            );
            assert!(seen.insert(name.to_string()), "duplicate localparam {name}");
        }
    }
    assert!(seen.contains("REG_FINALIZE"));
    assert!(seen.contains("FACECULLING_CONFIG_MODE_LSB"));
    assert!(seen.contains("FACECULLING_CONFIG_MODE_BACK_CCW"));
    assert!(sv.trim_end().ends_with("endpackage : pica_regs_pkg"));
}

proptest! {
    #[test]
    fn regs_decode_fields_never_panics(id in 0u32..0x300, value in any::<u32>()) {
        let d = decode_fields(id, value);
        prop_assert!(!d.is_empty());
        // the decoded fields re-assemble the word
        let info = info(id).expect("in range");
        let mut word = 0u32;
        for (f, df) in info.fields.iter().zip(&d) {
            prop_assert_eq!(f.name, df.name);
            word |= df.bits << f.lsb;
        }
        if let Some(last) = d.last().filter(|l| l.name == "undescribed_bits") {
            word |= last.bits;
        }
        if info.fields.is_empty() {
            word = d[0].bits;
        }
        prop_assert_eq!(word, value);
    }

    #[test]
    fn regs_decode_fields_never_panics_beyond_the_table(id in any::<u32>(), value in any::<u32>()) {
        prop_assert!(!decode_fields(id, value).is_empty());
        let _ = name(id);
    }

    #[test]
    fn regs_typed_accessors_round_trip(v in any::<u32>(), w in any::<u32>()) {
        if let Err(e) = generated::check_accessors(v, w) {
            prop_assert!(false, "{}", e);
        }
    }
}
