//! Name conversions shared by the build script (`#[path]`-included there) and the generators,
//! so generated identifiers and the names the docs and SV package print cannot drift apart.

/// `TexunitParam` -> `TEXUNIT_PARAM`, `NDotH` -> `N_DOT_H`, `Texcoord0U` -> `TEXCOORD0_U`.
pub(crate) fn upper_snake(camel: &str) -> String {
    let cs: Vec<char> = camel.chars().collect();
    let mut out = String::new();
    for (i, &c) in cs.iter().enumerate() {
        if i > 0 && c.is_ascii_uppercase() {
            let prev = cs[i - 1];
            let next_lower = cs.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}
