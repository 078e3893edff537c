//! The `pica` command-line tool.
fn main() {}
