//! `--knob NAME=VALUE`: the one syntax every command that runs the model uses to pick its
//! answers to the disputed hardware cases (the `UNVERIFIED(hw)` knobs of
//! [`pica_model::knobs::Knobs`]: the shader units' and every other stage's), and `pica knobs`,
//! which lists them.
//!
//! Commands flatten [`KnobArgs`] into their arguments. A bad name or value is a clap error
//! (exit status 2) that lists every knob with its values.

use pica_model::knobs::Knobs;

/// One `--knob NAME=VALUE`, checked against [`Knobs::NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnobSetting {
    /// Knob name (`max-neg-inf`).
    pub name: &'static str,
    /// Its value (`neg-inf`).
    pub value: &'static str,
}

impl KnobSetting {
    /// Applies the setting to `k`.
    pub fn apply(&self, k: &mut Knobs) {
        // Checked by `parse_knob`: this cannot fail.
        let _ = k.set(&format!("{}={}", self.name, self.value));
    }
}

impl std::fmt::Display for KnobSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.name, self.value)
    }
}

/// The knobs and their values, one `NAME=V1|V2` per knob (defaults first), comma-separated.
pub fn known_text() -> String {
    Knobs::NAMES
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses `NAME=VALUE` into a [`KnobSetting`]; the error names every knob and its values.
pub fn parse_knob(s: &str) -> Result<KnobSetting, String> {
    let Some((name, value)) = s.split_once('=') else {
        return Err(format!(
            "'{s}': expected NAME=VALUE; the knobs (default first): {}",
            known_text()
        ));
    };
    let Some((kn, values)) = Knobs::NAMES.iter().find(|(n, _)| *n == name) else {
        return Err(format!(
            "unknown knob '{name}'; the knobs (default first): {}",
            known_text()
        ));
    };
    let Some(v) = values.split('|').find(|v| *v == value) else {
        return Err(format!(
            "knob {name}: '{value}' is not one of {values}; the knobs (default first): {}",
            known_text()
        ));
    };
    Ok(KnobSetting { name: kn, value: v })
}

/// The `--knob` option, shared by `pica run`, `pica scene render|render-all`, `pica shader
/// run|bundle`, `pica lockstep`, `pica fuzz` and `pica vectors gen`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct KnobArgs {
    /// A disputed hardware case (UNVERIFIED(hw)), NAME=VALUE, repeatable, a later one winning:
    /// `pica knobs` lists every knob with its values (default first) and what it decides.
    #[arg(long = "knob", value_name = "NAME=VALUE", value_parser = parse_knob)]
    pub knobs: Vec<KnobSetting>,
}

impl KnobArgs {
    /// Parses a list of `NAME=VALUE` strings (for library callers and tests).
    pub fn parse_all<S: AsRef<str>>(items: &[S]) -> Result<Self, String> {
        Ok(Self {
            knobs: items
                .iter()
                .map(|s| parse_knob(s.as_ref()))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The knobs: the defaults with every setting applied in order.
    pub fn knobs(&self) -> Knobs {
        let mut k = Knobs::default();
        self.apply(&mut k);
        k
    }

    /// Applies the settings, in order, over `k` (a bundle's recorded knobs, say).
    pub fn apply(&self, k: &mut Knobs) {
        for s in &self.knobs {
            s.apply(k);
        }
    }

    /// The shader units' knobs, for commands that run one shader unit alone (`pica shader
    /// run|bundle`); a knob of another stage is an error naming it (it would have no effect).
    pub fn shader_knobs(&self) -> Result<pica_model::knobs::ShaderKnobs, String> {
        // The units' knobs only: the SH stage's area knobs (`gs-new-draw`) act around the
        // units, which one unit alone does not have.
        let unit_knob = |n: &str| {
            pica_model::knobs::ShaderKnobs::NAMES
                .iter()
                .any(|(k, _)| *k == n)
        };
        if let Some(s) = self.knobs.iter().find(|s| !unit_knob(s.name)) {
            let names: Vec<&str> = pica_model::knobs::ShaderKnobs::NAMES
                .iter()
                .map(|(n, _)| *n)
                .collect();
            let stage = match pica_model::knobs::stage_of(s.name) {
                Some("sh") => "sh (around the units: the GS input assembler)",
                Some(st) => st,
                None => "?",
            };
            return Err(format!(
                "--knob {s}: a knob of stage {stage}, which one shader unit does not run; the \
                 shader units' knobs are {}",
                names.join(", ")
            ));
        }
        Ok(self.knobs().shader)
    }

    /// Whether no knob was given.
    pub fn is_empty(&self) -> bool {
        self.knobs.is_empty()
    }
}

/// The ledger's fact behind knob `name` (`pica_model::facts`: the one fact whose status names
/// the knob), so `pica knobs` and `pica facts` say the same thing.
fn fact_of(name: &str) -> Option<&'static pica_model::facts::Fact> {
    pica_model::facts::all().iter().find(|f| {
        matches!(f.status, pica_model::facts::Status::Unverified { knob: Some(k), .. } if k == name)
    })
}

/// `pica knobs`: one line per knob (name, values, default, what it decides: the summary of its
/// fact in the ledger), or with `json` a list of `{name, values, default, about, fact}`.
pub fn list(json: bool) -> String {
    let about = |n: &str| fact_of(n).map_or("", |f| f.summary);
    let fact = |n: &str| fact_of(n).map_or("", |f| f.id);
    let defaults = Knobs::default().values();
    let default = |n: &str| {
        defaults
            .iter()
            .find(|(a, _)| *a == n)
            .map_or("", |(_, v)| *v)
    };
    if json {
        let v: Vec<serde_json::Value> = Knobs::NAMES
            .iter()
            .map(|(n, vals)| {
                serde_json::json!({
                    "name": n,
                    "values": vals.split('|').collect::<Vec<_>>(),
                    "default": default(n),
                    "stage": pica_model::knobs::stage_of(n).unwrap_or(""),
                    "about": about(n),
                    "fact": fact(n),
                })
            })
            .collect();
        return format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default());
    }
    let mut out = format!(
        "{:<23} {:<6} {:<30} {:<10} what (all UNVERIFIED(hw); `pica facts` has each one's sources)\n",
        "knob", "stage", "values", "default"
    );
    for (n, vals) in Knobs::NAMES {
        out.push_str(&format!(
            "{n:<23} {:<6} {vals:<30} {:<10} {}\n",
            pica_model::knobs::stage_of(n).unwrap_or(""),
            default(n),
            about(n)
        ));
    }
    out.push_str(
        "\n--knob NAME=VALUE (repeatable) on pica run, scene render|render-all, shader run|bundle \
         (shader knobs only), lockstep, fuzz and vectors gen; bundles record the non-default ones \
         in manifest.json (knobs). An RTL stage that does not implement a non-default knob of its \
         own stage is refused (exit 2).\n",
    );
    out
}

/// The shader knobs of `k` an RTL build implementing `rtl` cannot follow, as `name=value` (the
/// model's value), empty when they agree.
pub fn unfollowed(
    k: &pica_model::knobs::ShaderKnobs,
    rtl: &pica_model::knobs::ShaderKnobs,
) -> Vec<String> {
    k.values()
        .into_iter()
        .zip(rtl.values())
        .filter(|(a, b)| a != b)
        .map(|((n, v), _)| format!("{n}={v}"))
        .collect()
}
