//! Records that cross the C ABI as one nested struct ([`super::desc::Record`]), hand-written
//! because a hand-written shim declares them too.

/// `PicaShCommit` of `csrc/pica_sh_shim.h`: a commit record as the ports show it (the f24
/// lanes of `result` unpacked, lane 0 = x). The shader unit's shim fills it from its commit
/// port, the SH stage's generated shim from the `commit_*` ports.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct PicaShCommit {
    /// `commit_pc_o`.
    pub pc: u32,
    /// `commit_word_o`.
    pub word: u32,
    /// `commit_dst_o`.
    pub dst: u32,
    /// `commit_mask_o`.
    pub mask: u32,
    /// `commit_result_o`, four f24 lanes.
    pub result: [u32; 4],
    /// `commit_cmp_o`.
    pub cmp: u32,
    /// `commit_a0x_o`.
    pub a0x: i32,
    /// `commit_a0y_o`.
    pub a0y: i32,
    /// `commit_al_o`.
    pub al: i32,
    /// `commit_next_pc_o`.
    pub next_pc: u32,
    /// `commit_emit_o`.
    pub emit: u32,
    /// `commit_hang_o`.
    pub hang: u32,
    /// `commit_end_o`.
    pub end: u32,
}
