//! Three-component f24 vectors for fragment lighting, every operation through the shader ALU's
//! f24 arithmetic ([`crate::shader::alu`]: exact result truncated toward zero, subnormal inputs
//! and outputs flushed to +0), in a fixed, documented order of operations.
//!
//! The order matters because f24 addition is not associative; each function states it.
//!
//! The operations run through [`crate::shader::alu_fast`], which gives the bits of
//! [`crate::shader::alu`] on every input (the differential property
//! `model/tests/shader_fast.rs`) at a fraction of the cost: lighting does some two hundred
//! of them per fragment and light.

use crate::num::F24;
use crate::shader::alu_fast as alu;

/// A vector `[x, y, z]` of f24 values.
pub type Vec3 = [F24; 3];

/// A quaternion `[x, y, z, w]` of f24 values (the NORMQUAT semantic order).
pub type Quat = [F24; 4];

/// 1.0 as f24.
pub const ONE: F24 = F24::ONE;

/// The three lanes as the four of a shader instruction (the fourth 0).
#[inline(always)]
fn lanes4(v: Vec3) -> [F24; 4] {
    [v[0], v[1], v[2], F24::ZERO]
}

/// The first three lanes.
#[inline(always)]
fn lanes3(v: [F24; 4]) -> Vec3 {
    [v[0], v[1], v[2]]
}

/// `a + b`, lane by lane: the ADD instruction's lanes ([`alu::add4`] is [`alu::add`] on
/// every lane, an unused fourth lane of zeros included, so the three lanes are those of
/// three single additions; as one instruction they take its lane-parallel `f64` path).
#[inline]
pub fn add(a: Vec3, b: Vec3) -> Vec3 {
    lanes3(alu::add4(&lanes4(a), &lanes4(b)))
}

/// `a - b`, lane by lane (`a + (-b)`).
pub fn sub(a: Vec3, b: Vec3) -> Vec3 {
    add(a, [b[0].negate(), b[1].negate(), b[2].negate()])
}

/// `v * s`, lane by lane (the MUL instruction's lanes, as [`add`]).
#[inline]
pub fn scale(v: Vec3, s: F24) -> Vec3 {
    lanes3(alu::mul4(&lanes4(v), &[s; 4]))
}

/// `a · b` = `(a.x*b.x + a.y*b.y) + a.z*b.z` (products truncated, summed left to right: DP3).
#[inline]
pub fn dot(a: Vec3, b: Vec3) -> F24 {
    alu::dot3(
        &[a[0], a[1], a[2], F24::ZERO],
        &[b[0], b[1], b[2], F24::ZERO],
    )
}

/// `a × b`; each lane is `p + (-q)` with the two products truncated first:
/// `[a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x]`.
#[inline]
pub fn cross(a: Vec3, b: Vec3) -> Vec3 {
    // Two MULs and an ADD of the negated second products, lane by lane (as [`add`]).
    let p = alu::mul4(
        &[a[1], a[2], a[0], F24::ZERO],
        &[b[2], b[0], b[1], F24::ZERO],
    );
    let q = alu::mul4(
        &[a[2], a[0], a[1], F24::ZERO],
        &[b[1], b[2], b[0], F24::ZERO],
    );
    lanes3(alu::add4(&p, &q.map(F24::negate)))
}

/// `v / |v|` as `v * rsq(v·v)`, and the length `|v|` as `(v·v) * rsq(v·v)`.
///
/// A zero vector gives the zero vector and length 0 (rsq(0) = +inf and inf·0 = +0, the ALU's
/// rules), never NaN.
#[inline]
pub fn normalize(v: Vec3) -> (Vec3, F24) {
    let d = dot(v, v);
    let r = alu::rsq(d);
    (scale(v, r), alu::mul(d, r))
}

/// `v / |v|` of [`normalize`] without the length (the same bits: the length is one more
/// product of the same operands, which a caller that needs only the direction skips).
#[inline]
pub fn normalize_direction(v: Vec3) -> Vec3 {
    scale(v, alu::rsq(dot(v, v)))
}

/// The quaternion scaled to unit length: `q * rsq(q·q)` with `q·q` summed x, y, z, w left to
/// right. The zero quaternion stays zero.
#[inline]
pub fn normalize_quat(q: Quat) -> Quat {
    let r = alu::rsq(alu::dot4(&q, &q));
    alu::mul4(&q, &[r; 4])
}

/// Rotates `v` by the (unit) quaternion `q`: `v + 2·(u × (u × v + w·v))` with `u = q.xyz`
/// (Azahar `common/quaternion.h` QuaternionRotate: the same formula). Order: `t = u × v`,
/// `t = t + v·w` (lane products truncated first), `c = u × t`, `c = c + c` (exact doubling),
/// result `v + c`.
#[inline]
pub fn rotate(q: Quat, v: Vec3) -> Vec3 {
    let u = [q[0], q[1], q[2]];
    let t = add(cross(u, v), scale(v, q[3]));
    let c = cross(u, t);
    add(v, add(c, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> F24 {
        F24::from_f64_trunc(x)
    }

    #[test]
    fn light_vector_identity_quaternion_keeps_the_vector() {
        let q = [F24::ZERO, F24::ZERO, F24::ZERO, ONE];
        let v = [f(0.5), f(-0.25), f(0.75)];
        assert_eq!(rotate(q, v), v);
    }

    #[test]
    fn light_vector_quarter_turn_about_x_maps_z_to_minus_y() {
        // q = (sin 45°, 0, 0, cos 45°) with both components 0.5 exactly and then scaled by
        // sqrt(2) would be inexact; use the unnormalised (1, 0, 0, 1) / sqrt(2) formula's
        // integer version: (1,0,0,1) rotates z by 90° with a factor 2 = |q|².
        let q = [ONE, F24::ZERO, F24::ZERO, ONE];
        let r = rotate(q, [F24::ZERO, F24::ZERO, ONE]);
        // v + 2·(u × (u × v + w v)) with u = (1,0,0), w = 1: u×v = (0,-1,0), + v = (0,-1,1),
        // u × that = (0,-1,-1), doubled (0,-2,-2), + v = (0,-2,-1).
        assert_eq!(r, [F24::ZERO, f(-2.0), f(-1.0)]);
    }

    /// [`normalize_direction`] is the direction of [`normalize`] on special lanes (zeros,
    /// subnormals, infinities, NaN, the extremes) and on 20,000 random vectors.
    #[test]
    fn light_vector_normalize_direction_is_normalize() {
        let special = [
            0, 0x80_0000, 1, 0x00_FFFF, 0x01_0000, 0x3F_0000, 0xBF_0000, 0x7E_FFFF, 0x7F_0000,
            0xFF_0000, 0x7F_0001, 0x3E_8000, 0x5F_1234, 0x20_0001,
        ]
        .map(F24::from_bits);
        for &x in &special {
            for &y in &special {
                for &z in &special {
                    let v = [x, y, z];
                    assert_eq!(normalize_direction(v), normalize(v).0, "{v:?}");
                }
            }
        }
        let mut state = 0x1_9E37_79B9_u64;
        for _ in 0..20_000 {
            let v = [0; 3].map(|_: u32| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                // Exponents near 1.0 mostly (the lighting range), any bits sometimes.
                let bits = (state >> 40) as u32 & 0xFF_FFFF;
                F24::from_bits(if bits & 3 == 0 {
                    bits
                } else {
                    (bits & 0x83_FFFF) | 0x3C_0000
                })
            });
            assert_eq!(normalize_direction(v), normalize(v).0, "{v:?}");
        }
    }

    #[test]
    fn light_vector_normalize_zero_is_zero() {
        let (n, len) = normalize([F24::ZERO; 3]);
        assert_eq!(n, [F24::ZERO; 3]);
        assert_eq!(len, F24::ZERO);
    }

    #[test]
    fn light_vector_normalize_power_of_two_length_is_exact() {
        let (n, len) = normalize([F24::ZERO, F24::ZERO, f(4.0)]);
        assert_eq!(len, f(4.0));
        assert_eq!(n, [F24::ZERO, F24::ZERO, ONE]);
    }

    #[test]
    fn light_vector_length_of_non_square_truncates() {
        // 25 * trunc(1/5) < 5: the documented order gives the f24 just below 5.
        let (_, len) = normalize([f(3.0), F24::ZERO, f(4.0)]);
        assert_eq!(len, alu::mul(f(25.0), alu::rsq(f(25.0))));
        assert!(len.to_f64() < 5.0);
    }
}
