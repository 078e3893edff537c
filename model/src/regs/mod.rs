//! The register table (stub; filled in by the register-table work).
