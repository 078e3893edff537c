//! Measured hardware tables: a loader for `../shared/hw-data/*.tsv`, for tests.
//!
//! A hardware table is what a test on a real 3DS measured, kept as plain text so that a test
//! can check the model against every measured point (`model/tests/hw_dot3.rs` is the first).
//! The format:
//!
//! ```text
//! # Comment lines (provenance: which hardware test, which source, what each column means).
//! # They may appear anywhere; blank lines are skipped too.
//! config<TAB>a_r<TAB>a_g<TAB>a_b<TAB>b_r<TAB>b_g<TAB>b_b<TAB>hw
//! 1<TAB>0<TAB>0<TAB>0<TAB>0<TAB>0<TAB>0<TAB>255
//! ```
//!
//! - `#` starts a comment line; the comments are kept as [`Table::provenance`].
//! - The first other line is the header: tab-separated column names (unique, non-empty).
//! - Every following line is one row: as many tab-separated integers as there are columns,
//!   decimal (optionally signed) or `0x` hexadecimal.
//!
//! Every error names the file and the line ([`HwDataError`]).
//!
//! This module lives in the model crate so that every crate's tests reach it (`pica-vectors`,
//! `pica-rtl-bridge` and `pica-testbench` all depend on `pica-model`; a `#[cfg(test)]` module
//! would be invisible to integration tests and to other crates). [`Table::parse`] is pure;
//! [`Table::load`] and [`Table::load_shared`] are the model crate's only file reads, and are
//! meant for tests: nothing on the model's simulation path calls them.

use std::path::{Path, PathBuf};

/// A malformed or unreadable hardware table: `file:line: message` (line 0 when the error is
/// not on one line, e.g. the file cannot be read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct HwDataError {
    /// The file (or the source name given to [`Table::parse`]).
    pub file: String,
    /// 1-based line number; 0 when the error concerns the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// One data row of a [`Table`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 1-based line number in the file (for messages: [`Table::at`]).
    pub line: usize,
    /// One value per column, in header order.
    pub values: Vec<i64>,
}

/// A parsed hardware table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Where it came from (the path, or the name given to [`Table::parse`]).
    pub source: String,
    /// The comment lines, without the leading `#` and one following space.
    pub provenance: Vec<String>,
    /// Column names, from the header row.
    pub columns: Vec<String>,
    /// The data rows, in file order.
    pub rows: Vec<Row>,
}

/// The shared measured-data folder: `<workspace>/../shared/hw-data` (`shared/` sits beside the
/// repository on developers' machines and in CI).
pub fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/hw-data")
}

impl Table {
    /// Parses `text`; `source` names it in errors.
    pub fn parse(source: &str, text: &str) -> Result<Self, HwDataError> {
        let err = |line: usize, message: String| HwDataError {
            file: source.to_string(),
            line,
            message,
        };
        let mut provenance = Vec::new();
        let mut columns: Option<Vec<String>> = None;
        let mut rows = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let l = raw.strip_suffix('\r').unwrap_or(raw);
            if let Some(c) = l.strip_prefix('#') {
                provenance.push(c.strip_prefix(' ').unwrap_or(c).to_string());
                continue;
            }
            if l.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = l.split('\t').map(str::trim).collect();
            let Some(cols) = &columns else {
                let mut names: Vec<String> = Vec::new();
                for f in &fields {
                    if f.is_empty() {
                        return Err(err(line, "empty column name in the header".into()));
                    }
                    if names.iter().any(|n| n == f) {
                        return Err(err(line, format!("column `{f}` named twice")));
                    }
                    names.push((*f).to_string());
                }
                columns = Some(names);
                continue;
            };
            if fields.len() != cols.len() {
                return Err(err(
                    line,
                    format!(
                        "{} fields, the header has {} columns",
                        fields.len(),
                        cols.len()
                    ),
                ));
            }
            let mut values = Vec::with_capacity(fields.len());
            for (f, name) in fields.iter().zip(cols) {
                let v = parse_int(f).ok_or_else(|| {
                    err(line, format!("column `{name}`: `{f}` is not an integer"))
                })?;
                values.push(v);
            }
            rows.push(Row { line, values });
        }
        let columns = columns.ok_or_else(|| err(0, "no header row".into()))?;
        Ok(Self {
            source: source.to_string(),
            provenance,
            columns,
            rows,
        })
    }

    /// Reads and parses the file at `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, HwDataError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| HwDataError {
            file: name.clone(),
            line: 0,
            message: format!("cannot read: {e}"),
        })?;
        Self::parse(&name, &text)
    }

    /// Reads and parses `name` (e.g. `"dot3-rgb.tsv"`) from [`shared_dir`].
    pub fn load_shared(name: &str) -> Result<Self, HwDataError> {
        Self::load(shared_dir().join(name))
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Result<usize, HwDataError> {
        self.columns
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| HwDataError {
                file: self.source.clone(),
                line: 0,
                message: format!("no column `{name}` (columns: {})", self.columns.join(", ")),
            })
    }

    /// The rows as `(line, [value of each named column])`, columns in the order of `names`:
    /// `for (line, [x, y, hw]) in table.select(["x", "y", "hw"])? { ... }`.
    pub fn select<const N: usize>(
        &self,
        names: [&str; N],
    ) -> Result<Vec<(usize, [i64; N])>, HwDataError> {
        let mut idx = [0usize; N];
        for (i, n) in idx.iter_mut().zip(names) {
            *i = self.column(n)?;
        }
        Ok(self
            .rows
            .iter()
            .map(|r| (r.line, idx.map(|i| r.values[i])))
            .collect())
    }

    /// `file:line`, for a test's message about one row.
    pub fn at(&self, line: usize) -> String {
        format!("{}:{line}", self.source)
    }
}

/// An integer field: decimal with an optional sign, or `0x` hexadecimal.
fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) if !h.is_empty() && !h.starts_with(['+', '-']) => {
            i64::from_str_radix(h, 16).ok()?
        }
        Some(_) => return None,
        None if !body.is_empty() && !body.starts_with(['+', '-']) => body.parse().ok()?,
        None => return None,
    };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hwdata_parses_comments_header_rows() {
        let t = Table::parse(
            "t.tsv",
            "# source: a test\n#bare\nx\ty\n\n1\t-2\n# mid\n0x10\t+3\r\n",
        )
        .expect("valid table");
        assert_eq!(t.provenance, ["source: a test", "bare", "mid"]);
        assert_eq!(t.columns, ["x", "y"]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(
            t.rows[0],
            Row {
                line: 5,
                values: vec![1, -2]
            }
        );
        assert_eq!(t.rows[1].values, [16, 3]);
        assert_eq!(
            t.select(["y", "x"]).expect("columns exist")[1],
            (7, [3, 16])
        );
        assert_eq!(t.at(7), "t.tsv:7");
    }

    #[test]
    fn hwdata_errors_name_file_and_line() {
        let e = Table::parse("f.tsv", "# c\na\tb\n1\t2\n1\tz\n").expect_err("bad value");
        assert_eq!(e.to_string(), "f.tsv:4: column `b`: `z` is not an integer");
        let e = Table::parse("f.tsv", "a\tb\n1\n").expect_err("short row");
        assert_eq!(e.to_string(), "f.tsv:2: 1 fields, the header has 2 columns");
        let e = Table::parse("f.tsv", "a\ta\n").expect_err("duplicate column");
        assert_eq!(e.line, 1);
        let e = Table::parse("f.tsv", "# only comments\n").expect_err("no header");
        assert_eq!(e.to_string(), "f.tsv:0: no header row");
        let t = Table::parse("f.tsv", "a\n").expect("empty table");
        assert!(t
            .column("b")
            .expect_err("no such column")
            .message
            .contains("`b`"));
        assert!(Table::parse("f.tsv", "a\n0x\n").is_err());
        assert!(Table::parse("f.tsv", "a\n--1\n").is_err());
        let e = Table::load("/nonexistent/x.tsv").expect_err("missing file");
        assert_eq!((e.file.as_str(), e.line), ("/nonexistent/x.tsv", 0));
    }
}
