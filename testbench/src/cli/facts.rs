//! `pica facts`: the hardware-facts ledger ([`pica_model::facts`]) as a readable listing or a
//! JSON array.

use pica_model::facts::{self, Fact, Status};
use serde_json::{json, Value};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `pica facts`.
#[derive(clap::Args, Debug, Clone)]
pub struct FactsArgs {
    /// Print a JSON array (one object per fact) instead of the listing.
    #[arg(long)]
    pub json: bool,
    /// Only facts of this area (cp, regs, vl, shader, pa, clip, rast, tex, lighting, tev, fog,
    /// gas, fop, timing).
    #[arg(long, value_name = "A")]
    pub area: Option<String>,
    /// Only facts with this status.
    #[arg(long, value_enum)]
    pub status: Option<StatusArg>,
}

/// A status to filter on.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusArg {
    /// Measured on a real 3DS.
    Measured,
    /// Documented by a public source.
    Documented,
    /// The model's choice (UNVERIFIED(hw)).
    Unverified,
}

impl StatusArg {
    fn name(self) -> &'static str {
        match self {
            StatusArg::Measured => "measured",
            StatusArg::Documented => "documented",
            StatusArg::Unverified => "unverified",
        }
    }
}

/// The facts `args` selects, in ledger order; an unknown area is an error.
pub fn select(args: &FactsArgs) -> Result<Vec<&'static Fact>, String> {
    if let Some(a) = &args.area {
        if !facts::AREAS.contains(&a.as_str()) {
            return Err(format!(
                "unknown area '{a}' (one of: {})",
                facts::AREAS.join(", ")
            ));
        }
    }
    Ok(facts::all()
        .iter()
        .filter(|f| args.area.as_deref().is_none_or(|a| f.area == a))
        .filter(|f| args.status.is_none_or(|s| f.status.name() == s.name()))
        .collect())
}

/// One fact as a JSON object.
pub fn to_json(f: &Fact) -> Value {
    let mut v = json!({
        "id": f.id,
        "area": f.area,
        "summary": f.summary,
        "status": f.status.name(),
        "sources": f.sources,
        "code": f.code,
    });
    match &f.status {
        Status::Measured { by } | Status::Documented { by } => v["by"] = json!(by),
        Status::Unverified {
            choice,
            alternatives,
            knob,
            no_knob,
            settle_by,
        } => {
            v["choice"] = json!(choice);
            v["alternatives"] = json!(alternatives);
            v["knob"] = json!(knob);
            v["no_knob"] = json!(no_knob);
            v["settle_by"] = json!(settle_by);
        }
    }
    v
}

/// The readable listing of `facts`, with the counts per status at the end.
pub fn listing(facts: &[&Fact]) -> String {
    let mut out = String::new();
    for f in facts {
        let status = match &f.status {
            Status::Measured { .. } => "measured",
            Status::Documented { .. } => "documented",
            Status::Unverified { .. } => "UNVERIFIED(hw)",
        };
        out.push_str(&format!("{} [{}] {}\n", f.id, f.area, status));
        out.push_str(&format!("  {}\n", f.summary));
        match &f.status {
            Status::Measured { by } | Status::Documented { by } => {
                out.push_str(&format!("  by: {by}\n"));
            }
            Status::Unverified {
                choice,
                alternatives,
                knob,
                no_knob,
                settle_by,
            } => {
                out.push_str(&format!("  choice: {choice}\n"));
                if alternatives.len() > 1 {
                    out.push_str(&format!("  alternatives: {}\n", alternatives.join(" | ")));
                }
                if let Some(k) = knob {
                    out.push_str(&format!("  knob: {k}\n"));
                }
                if let Some(r) = no_knob {
                    out.push_str(&format!("  {r}\n"));
                }
                out.push_str(&format!("  settle by: {settle_by}\n"));
            }
        }
        out.push_str(&format!("  sources: {}\n", f.sources.join("; ")));
        out.push_str(&format!("  code: {}\n\n", f.code.join(", ")));
    }
    let (m, d, u) = facts::counts(facts);
    out.push_str(&format!(
        "{} facts: {m} measured, {d} documented, {u} unverified\n",
        facts.len()
    ));
    out
}

/// Runs `pica facts`: 0 on success, 2 for an unknown area.
pub fn main(args: &FactsArgs) -> ExitCode {
    let facts = match select(args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let text = if args.json {
        serde_json::to_string_pretty(&Value::Array(facts.iter().map(|f| to_json(f)).collect()))
            .unwrap_or_default()
    } else {
        listing(&facts)
    };
    let mut out = std::io::stdout().lock();
    // A closed pipe (pica facts | head) is not an error worth reporting.
    let _ = writeln!(out, "{}", text.trim_end());
    ExitCode::SUCCESS
}
