//! The mutation lists of the mutant models (`build.rs`, "Mutant models"): which Yosys
//! mutation each value of a mutant model's `mutsel` input turns on.
//!
//! Each list is Yosys' `mutate -list` output as build.rs applied it (one line per mutant,
//! `mutate -ctrl mutsel W k -mode M -module … -cell C -port P -portbit B [-ctrlbit K] -wire W
//! -wirebit I -src file:line.col-line.col …`), embedded at build time. It is empty when the
//! build found no Yosys.

/// One mutant model of build.rs's `MUTANT_MODELS`, as this build has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MutantModel {
    /// The model's name (`fe_mut`, `tev_mut`, ...): the shim's variant name.
    pub name: &'static str,
    /// The stage `pica mutate --stage` calls it (`fe`, `tev`, `fop`, `rast`, `sh`).
    pub stage: &'static str,
    /// The mutation list build.rs applied (empty when the model was not built).
    list: &'static str,
    /// Why the model was not built and how to build it (empty when it was).
    why: &'static str,
    /// The directory of the Yosys netlist the model was built from (empty when not built).
    dir: &'static str,
}

impl MutantModel {
    /// The mutations, `mutsel` 1, 2, ... in order; an error saying why and how to build the
    /// model when this build does not have it.
    pub fn mutations(&self) -> Result<Vec<Mutation>, String> {
        if !self.why.trim().is_empty() {
            return Err(self.why.trim().to_string());
        }
        parse(self.list)
    }

    /// Whether this build has the model.
    pub fn is_built(&self) -> bool {
        self.why.trim().is_empty()
    }

    /// The Yosys directory the model was built from (`design.il`: the stage top flattened,
    /// before mutation; `mutations.ys`; `netlist.v`), which `scripts/mutant-equiv --dir` reads;
    /// `None` when this build does not have the model.
    pub fn netlist_dir(&self) -> Option<&'static str> {
        Some(self.dir.trim()).filter(|d| !d.is_empty())
    }
}

/// A row of [`MODELS`]: name, stage, and the files build.rs wrote for it.
macro_rules! model {
    ($name:literal, $stage:literal) => {
        MutantModel {
            name: $name,
            stage: $stage,
            list: include_str!(concat!(env!("OUT_DIR"), "/mutants_", $name, ".ys")),
            why: include_str!(concat!(env!("OUT_DIR"), "/mutants_", $name, ".why")),
            dir: include_str!(concat!(env!("OUT_DIR"), "/mutants_", $name, ".dir")),
        }
    };
}

/// Every mutant model of build.rs's `MUTANT_MODELS`, built or not.
pub const MODELS: [MutantModel; 6] = [
    model!("fe_mut", "fe"),
    model!("tev_mut", "tev"),
    model!("fop_mut", "fop"),
    model!("rast_mut", "rast"),
    model!("sh_mut", "sh"),
    model!("tex_mut", "tex"),
];

/// The front-end mutant model's name (build.rs `MUTANT_MODELS`).
pub const FE_MODEL: &str = MODELS[0].name;
/// The TEV mutant model's name.
pub const TEV_MODEL: &str = MODELS[1].name;
/// The FOP mutant model's name.
pub const FOP_MODEL: &str = MODELS[2].name;
/// The CLIP + RAST mutant model's name.
pub const RAST_MODEL: &str = MODELS[3].name;
/// The shader-unit mutant model's name.
pub const SH_MODEL: &str = MODELS[4].name;
/// The TEX mutant model's name.
pub const TEX_MODEL: &str = MODELS[5].name;

/// The mutant number of a variant name `{model}#k` (`tev_mut#12`), as reports print a mutant.
pub fn parse_mutant(name: &str, model: &str) -> Option<u16> {
    name.strip_prefix(model)?.strip_prefix('#')?.parse().ok()
}

/// The mutant model of `stage` (`fe`, `tev`, ...), if there is a row for it.
pub fn model_of(stage: &str) -> Option<&'static MutantModel> {
    MODELS.iter().find(|m| m.stage == stage)
}

/// One mutation of a mutant model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// Its `mutsel` value (1, 2, ...).
    pub index: u16,
    /// `-mode`: `inv` (invert the bit), `const0` / `const1` (tie it), `cnot0` / `cnot1`
    /// (replace it by the (inverted) value of another bit of the same cell's input).
    pub mode: String,
    /// `-cell`: the Yosys cell whose port bit is mutated.
    pub cell: String,
    /// `-port` and `-portbit`.
    pub port: String,
    /// Bit of `port`.
    pub portbit: u32,
    /// `-ctrlbit` (for `cnot*`).
    pub ctrlbit: Option<u32>,
    /// `-wire` and `-wirebit`: the named signal the bit drives, when Yosys found one.
    pub wire: Option<(String, u32)>,
    /// `-src`: the source locations of the cell (`pica_regs.sv:495.16-495.23`) as Yosys lists
    /// them: the cell's own and those of the instances it was flattened out of, in no fixed
    /// order ([`Mutation::source`] picks one).
    pub src: Vec<String>,
    /// `-module`: the top module (its file is `{module}.sv`).
    pub module: String,
}

impl Mutation {
    /// One line for reports: `#12 inv u_cp.end_d[31] (pica_cp.sv:82.23-82.28)`.
    pub fn describe(&self) -> String {
        let what = match &self.wire {
            Some((w, b)) => format!("{w}[{b}]"),
            None => format!("{}.{}[{}]", self.cell, self.port, self.portbit),
        };
        let how = match self.ctrlbit {
            Some(c) => format!("{} (bit {c})", self.mode),
            None => self.mode.clone(),
        };
        let src = self.source().map_or(String::new(), |s| format!(" ({s})"));
        format!("#{} {how} {what}{src}", self.index)
    }

    /// The most telling source location: the first outside the top module's file (the top
    /// file's are mostly the instance a cell was flattened out of), else the first.
    pub fn source(&self) -> Option<&str> {
        let top = format!("{}.sv:", self.module);
        self.src
            .iter()
            .find(|s| !s.starts_with(&top))
            .or(self.src.first())
            .map(String::as_str)
    }
}

impl Mutation {
    /// The mutation's identity in the design, independent of its `mutsel` number:
    /// `mode cell port portbit ctrlbit` (`-` without a control bit). Yosys' cell names are
    /// stable while the RTL is; an RTL edit may rename them (and re-sample the list).
    pub fn key(&self) -> String {
        let c = self
            .ctrlbit
            .map_or_else(|| "-".to_string(), |c| c.to_string());
        format!(
            "{} {} {} {} {c}",
            self.mode, self.cell, self.port, self.portbit
        )
    }
}

/// Parses a mutation list; a line that is not a `mutate -ctrl` line is an error naming it.
pub fn parse(list: &str) -> Result<Vec<Mutation>, String> {
    let mut out = Vec::new();
    for (ln, line) in list.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = |what: &str| format!("mutation list line {}: {what}: {line}", ln + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"mutate") {
            return Err(bad("not a `mutate` command"));
        }
        let mut m = Mutation {
            index: 0,
            mode: String::new(),
            cell: String::new(),
            port: String::new(),
            portbit: 0,
            ctrlbit: None,
            wire: None,
            src: Vec::new(),
            module: String::new(),
        };
        let mut wire = None;
        let mut wirebit = None;
        let mut i = 1;
        let num = |s: Option<&&str>, what: &str| -> Result<u32, String> {
            s.and_then(|s| s.parse().ok())
                .ok_or_else(|| bad(&format!("{what} is not a number")))
        };
        while i < words.len() {
            let arg = words.get(i + 1);
            match words[i] {
                "-ctrl" => {
                    // -ctrl NAME WIDTH VALUE
                    m.index = u16::try_from(num(words.get(i + 3), "-ctrl value")?)
                        .map_err(|_| bad("-ctrl value too large"))?;
                    i += 4;
                    continue;
                }
                "-mode" => m.mode = arg.map(|s| s.to_string()).unwrap_or_default(),
                "-cell" => m.cell = arg.map(|s| s.to_string()).unwrap_or_default(),
                "-port" => m.port = arg.map(|s| s.to_string()).unwrap_or_default(),
                "-portbit" => m.portbit = num(arg, "-portbit")?,
                "-ctrlbit" => m.ctrlbit = Some(num(arg, "-ctrlbit")?),
                "-wire" => wire = arg.map(|s| s.to_string()),
                "-wirebit" => wirebit = Some(num(arg, "-wirebit")?),
                "-src" => m.src.extend(arg.map(|s| s.to_string())),
                "-module" => m.module = arg.map(|s| s.to_string()).unwrap_or_default(),
                other => return Err(bad(&format!("unknown option {other}"))),
            }
            i += 2;
        }
        if m.index == 0 || m.mode.is_empty() {
            return Err(bad("no -ctrl value or no -mode"));
        }
        m.wire = wire.zip(wirebit);
        out.push(m);
    }
    Ok(out)
}

/// The mutations of the front-end mutant model, `mutsel` 1, 2, ... in order; empty when the
/// build had no Yosys.
pub fn fe_mutations() -> Result<Vec<Mutation>, String> {
    parse(MODELS[0].list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_parse_a_yosys_line() {
        let l = "mutate -ctrl mutsel 10 3 -mode cnot0 -module pica_top -cell $flatten\\u_regs.$procmux$1 \
                 -port Y -portbit 31 -ctrlbit 26 -wire u_regs.fu_pend_d[3] -wirebit 31 \
                 -src pica_regs.sv:290.16-290.25 -src pica_top.sv:167.13-191.4";
        let m = parse(l).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].index, 3);
        assert_eq!(m[0].ctrlbit, Some(26));
        assert_eq!(
            m[0].describe(),
            "#3 cnot0 (bit 26) u_regs.fu_pend_d[3][31] (pica_regs.sv:290.16-290.25)"
        );
        assert!(parse("bogus").unwrap_err().contains("line 1"));
    }

    #[test]
    fn mutants_lists_are_numbered_from_one() {
        for model in MODELS.iter().filter(|m| m.is_built()) {
            let m = model.mutations().unwrap();
            for (i, x) in m.iter().enumerate() {
                assert_eq!(usize::from(x.index), i + 1, "{}", model.name);
            }
        }
    }

    #[test]
    fn mutants_an_unbuilt_model_says_how_to_build_it() {
        for model in MODELS.iter().filter(|m| !m.is_built()) {
            let e = model.mutations().unwrap_err();
            assert!(e.contains(model.name), "{e}");
        }
    }
}
