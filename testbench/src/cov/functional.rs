//! `pica cov`: functional coverage ([`pica_model::cov`]) over a fuzz campaign, a corpus of
//! bundles, one bundle or the scene library; the reports (text, JSON, a self-contained HTML
//! page) and the coverage ratchet of the test suite (`vectors/coverage/baseline.json`).

use pica_model::cov::{self, CoverageDb, Hits};
use pica_vectors::bundle::Bundle;
use pica_vectors::case::Case;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The corpus the ratchet and `pica cov report corpus` read (relative to the repository).
pub const CORPUS_DIR: &str = "vectors/corpus";
/// The recorded figures of the ratchet (relative to the repository).
pub const BASELINE: &str = "vectors/coverage/baseline.json";
/// Set to re-record the ratchet's figures.
pub const BLESS_ENV: &str = "PICA_BLESS";

/// Runs `case` on the model with coverage sampling: its hits.
pub fn run_case(case: &Case) -> Result<Hits, String> {
    let mut gpu = case.gpu().map_err(|e| e.to_string())?;
    gpu.set_coverage(true);
    // Every step of a sequence (each submission after the previous one finished).
    let outcome = case
        .run_steps(&mut gpu, case.max_cycles)
        .map_err(|e| e.to_string())?
        .outcome;
    gpu.coverage(Some(&outcome))
        .ok_or_else(|| "coverage sampling was not on".to_string())
}

/// The coverage database file written beside a fuzz report (`shard-0.json` →
/// `shard-0.cov.json`).
pub fn db_path_beside(report: &Path) -> PathBuf {
    report.with_extension("cov.json")
}

/// Reads a coverage database file.
pub fn read_db(path: &Path) -> Result<CoverageDb, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    CoverageDb::from_json(&v).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a coverage database file.
pub fn write_db(path: &Path, db: &CoverageDb) -> Result<(), String> {
    let text = serde_json::to_string_pretty(&db.to_json()).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Coverage of the scene library (first cases named `scene NAME`: `pica scene render NAME
/// --vectors DIR` writes its bundle).
pub fn scenes_db() -> Result<CoverageDb, String> {
    let scenes = pica_vectors::scenes::try_scenes().map_err(|(n, e)| format!("scene {n}: {e}"))?;
    let mut db = CoverageDb::new("scenes");
    for s in &scenes {
        let hits = run_case(&s.case).map_err(|e| format!("scene {}: {e}", s.name()))?;
        db.add(&hits, &format!("scene {}", s.name()));
    }
    Ok(db)
}

/// Coverage of one bundle directory or a directory of bundles (each a first case by its
/// path). Stage bundles (one stage's streams, `dut` in the manifest) are skipped: coverage
/// samples whole-GPU runs. Returns the database and the stage bundles skipped.
pub fn bundles_db(dir: &Path) -> Result<(CoverageDb, usize), String> {
    let mut db = CoverageDb::new(&dir.display().to_string());
    let mut skipped = 0;
    let one = |d: &Path, db: &mut CoverageDb, skipped: &mut usize| -> Result<(), String> {
        if is_stage_bundle(d) {
            *skipped += 1;
            return Ok(());
        }
        let b = Bundle::load(d).map_err(|e| e.to_string())?;
        let case = b.case().map_err(|e| e.to_string())?;
        let hits = run_case(&case).map_err(|e| format!("{}: {e}", d.display()))?;
        db.add(&hits, &d.display().to_string());
        Ok(())
    };
    if dir.join("manifest.json").is_file() {
        if is_stage_bundle(dir) {
            return Err(format!(
                "{}: a stage bundle (one stage's streams): coverage samples whole-GPU runs",
                dir.display()
            ));
        }
        one(dir, &mut db, &mut skipped)?;
        return Ok((db, skipped));
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("manifest.json").is_file())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(format!(
            "{}: neither a bundle nor a directory of bundles (no manifest.json)",
            dir.display()
        ));
    }
    for d in &dirs {
        one(d, &mut db, &mut skipped)?;
    }
    Ok((db, skipped))
}

fn is_stage_bundle(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("manifest.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v.get("dut").is_some())
}

/// The coverage of `source`: `scenes` (the scene library), `corpus` (vectors/corpus), a
/// bundle directory or a directory of bundles, a coverage database (`*.cov.json`), or a fuzz
/// report whose database sits beside it. A note (stage bundles skipped) may come with it.
pub fn collect(source: &str) -> Result<(CoverageDb, Option<String>), String> {
    match source {
        "scenes" => return scenes_db().map(|d| (d, None)),
        "corpus" => return collect(CORPUS_DIR),
        _ => {}
    }
    let p = Path::new(source);
    if p.is_dir() {
        let (db, skipped) = bundles_db(p)?;
        let note = (skipped > 0).then(|| {
            format!("{skipped} stage bundle(s) skipped (coverage samples whole-GPU runs)")
        });
        return Ok((db, note));
    }
    if !p.is_file() {
        return Err(format!(
            "{source}: no such file or directory (SOURCE is a fuzz report, a coverage database, \
             a bundle or a directory of bundles, `corpus` or `scenes`)"
        ));
    }
    let text = std::fs::read_to_string(p).map_err(|e| format!("{source}: cannot read: {e}"))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{source}: not JSON: {e}"))?;
    if v.get("format").and_then(|f| f.as_str()) == Some(cov::DB_FORMAT) {
        return CoverageDb::from_json(&v)
            .map(|d| (d, None))
            .map_err(|e| format!("{source}: {e}"));
    }
    if v.get("cases_run").is_some() {
        let beside = db_path_beside(p);
        if !beside.is_file() {
            return Err(format!(
                "{source}: a fuzz report without its coverage database ({} missing; `pica fuzz \
                 --report` writes it for --target regs)",
                beside.display()
            ));
        }
        return read_db(&beside).map(|d| (d, None));
    }
    Err(format!(
        "{source}: neither a coverage database (\"format\": \"{}\") nor a fuzz report",
        cov::DB_FORMAT
    ))
}

/// Writes a bundle under `dir` for every first case that is not one already (`fuzz 0xSEED`
/// of the register fuzzer, `scene NAME`) and names it in `db` instead: every covered bin then
/// names a bundle a user can replay (`pica vectors check`, `pica lockstep --bundle`,
/// `scripts/replay`). Returns the bundles written.
pub fn write_first_bundles(db: &mut CoverageDb, dir: &Path) -> Result<usize, String> {
    let mut made: BTreeMap<String, String> = BTreeMap::new();
    for f in db.first.iter_mut().flatten() {
        if let Some(path) = made.get(f.as_str()) {
            f.clone_from(path);
            continue;
        }
        let out = if let Some(seed) = f.strip_prefix("fuzz 0x") {
            let seed =
                u64::from_str_radix(seed, 16).map_err(|_| format!("bad first case '{f}'"))?;
            let list = crate::fuzz::regs::generate(seed)
                .ok_or_else(|| format!("{f}: the strategy could not generate it"))?;
            let name = format!("fuzz-{seed:016x}");
            crate::fuzz::regs::save(&list, dir, &name, Some(seed))?
        } else if let Some(name) = f.strip_prefix("scene ") {
            let s =
                pica_vectors::scenes::scene(name).ok_or_else(|| format!("{f}: no such scene"))?;
            let out = dir.join(name.replace('/', "__"));
            let run = s.case.run_model().map_err(|e| e.to_string())?;
            pica_vectors::bundle::write_bundle(&out, &s.case, &run, &crate::generator())
                .map_err(|e| format!("{}: {e}", out.display()))?;
            out
        } else {
            continue;
        };
        let path = out.display().to_string();
        made.insert(f.clone(), path.clone());
        *f = path;
    }
    Ok(made.len())
}

fn pct(c: usize, t: usize) -> f64 {
    if t == 0 {
        100.0
    } else {
        100.0 * c as f64 / t as f64
    }
}

/// The text report: the total, percent per group, and up to `max_uncovered` uncovered bins
/// per group (all with `usize::MAX`).
pub fn text_report(db: &CoverageDb, max_uncovered: usize) -> String {
    let m = cov::model();
    let (c, t) = db.total();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "coverage of {} ({} case(s)): {c}/{t} bins ({:.1}%)",
        db.source,
        db.cases,
        pct(c, t)
    );
    let w = m.groups().iter().map(|g| g.name.len()).max().unwrap_or(0);
    for f in db.figures() {
        let _ = writeln!(
            o,
            "  {:w$}  {:>5}/{:<5} {:>5.1}%",
            f.name,
            f.covered_bins,
            f.total_bins,
            pct(f.covered_bins, f.total_bins)
        );
    }
    for g in m.groups() {
        let missing: Vec<usize> = g.bins.clone().filter(|&i| !db.is_hit(i)).collect();
        if missing.is_empty() {
            continue;
        }
        let _ = writeln!(o, "uncovered in {} ({}):", g.name, missing.len());
        for &i in missing.iter().take(max_uncovered) {
            match cov::unreachable(i) {
                Some(why) => {
                    let _ = writeln!(o, "    {}  (unreachable: {why})", m.bins()[i]);
                }
                None => {
                    let _ = writeln!(o, "    {}", m.bins()[i]);
                }
            }
        }
        if missing.len() > max_uncovered {
            let _ = writeln!(
                o,
                "    ... {} more (--json / --html list every bin)",
                missing.len() - max_uncovered
            );
        }
    }
    o
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// How to replay a first case: a bundle path as it is, `scene NAME` and `fuzz 0xSEED` with
/// the command that makes their bundle.
fn replay_hint(first: &str) -> String {
    if let Some(name) = first.strip_prefix("scene ") {
        format!("pica scene render {name} --png out.png --vectors DIR")
    } else if first.starts_with("guided ") {
        "a guided mutant (it depends on the cases before it): rerun the campaign with \
         --keep-new DIR to have it as a bundle"
            .to_string()
    } else if let Some(seed) = first.strip_prefix("fuzz ") {
        format!("pica fuzz --replay {seed}")
    } else {
        format!("pica vectors check {first}")
    }
}

/// A self-contained HTML page (no scripts or resources from the network): the total, one bar
/// per group, the uncovered bins, and each covered bin with its hits and first case.
pub fn html_report(db: &CoverageDb) -> String {
    let m = cov::model();
    let (c, t) = db.total();
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>pica coverage: {src}</title><style>\
         body{{font:14px system-ui,sans-serif;margin:2em;color:#222}}\
         table{{border-collapse:collapse}}td,th{{padding:2px 8px;text-align:left}}\
         .bar{{width:240px;height:12px;background:#e4e4e4;display:inline-block}}\
         .bar i{{display:block;height:12px;background:#3a7}}\
         .miss{{color:#a22}}code{{font-size:12px}}details{{margin:.3em 0}}\
         </style></head><body>\n<h1>Functional coverage</h1>\n\
         <p>Source <b>{src}</b>, {cases} case(s): <b>{c}/{t}</b> bins ({p:.1}%).</p>\n\
         <table><tr><th>group</th><th>covered</th><th></th><th>%</th></tr>\n",
        src = esc(&db.source),
        cases = db.cases,
        p = pct(c, t)
    );
    for f in db.figures() {
        let p = pct(f.covered_bins, f.total_bins);
        let _ = writeln!(
            o,
            "<tr><td><a href=\"#{n}\">{n}</a></td><td>{}/{}</td>\
             <td><span class=\"bar\"><i style=\"width:{p:.1}%\"></i></span></td><td>{p:.1}</td></tr>",
            f.covered_bins,
            f.total_bins,
            n = esc(&f.name)
        );
    }
    o.push_str("</table>\n");
    for g in m.groups() {
        let (hit, miss): (Vec<usize>, Vec<usize>) = g.bins.clone().partition(|&i| db.is_hit(i));
        let _ = writeln!(
            o,
            "<h2 id=\"{n}\">{n}</h2><p>{d}: {}/{}</p>",
            hit.len(),
            g.bins.len(),
            n = esc(&g.name),
            d = esc(&g.description)
        );
        if !miss.is_empty() {
            let _ = writeln!(
                o,
                "<details open><summary class=\"miss\">uncovered ({})</summary><ul>",
                miss.len()
            );
            for i in miss {
                let why = cov::unreachable(i)
                    .map(|w| format!(" <em>(unreachable: {})</em>", esc(w)))
                    .unwrap_or_default();
                let _ = writeln!(o, "<li class=\"miss\">{}{why}</li>", esc(&m.bins()[i]));
            }
            o.push_str("</ul></details>\n");
        }
        if !hit.is_empty() {
            let _ = writeln!(
                o,
                "<details><summary>covered ({}): hits and the first case</summary>\
                 <table><tr><th>bin</th><th>hits</th><th>first case</th><th>replay</th></tr>",
                hit.len()
            );
            for i in hit {
                let first = db.first[i].as_deref().unwrap_or("");
                let _ = writeln!(
                    o,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                    esc(&m.bins()[i]),
                    db.counts[i],
                    esc(first),
                    esc(&replay_hint(first))
                );
            }
            o.push_str("</table></details>\n");
        }
    }
    o.push_str("</body></html>\n");
    o
}

/// Merges the coverage databases beside the shard reports `reports` (in shard order) and
/// writes the result beside `out` when given. `Ok(None)` when no shard has a database; an
/// error when only some have.
pub fn merge_beside(
    reports: &[(u64, PathBuf)],
    out: Option<&Path>,
) -> Result<Option<CoverageDb>, String> {
    let mut sorted: Vec<&(u64, PathBuf)> = reports.iter().collect();
    sorted.sort_by_key(|(i, _)| *i);
    let have: Vec<bool> = sorted
        .iter()
        .map(|(_, p)| db_path_beside(p).is_file())
        .collect();
    if !have.iter().any(|&h| h) {
        return Ok(None);
    }
    let mut merged: Option<CoverageDb> = None;
    for (_, p) in sorted {
        let d = read_db(&db_path_beside(p)).map_err(|e| {
            format!(
                "{e} (the coverage database of shard report {})",
                p.display()
            )
        })?;
        match &mut merged {
            Some(m) => m.merge(&d),
            None => merged = Some(d),
        }
    }
    if let (Some(m), Some(o)) = (&merged, out) {
        write_db(&db_path_beside(o), m)?;
    }
    Ok(merged)
}

/// Covered bins per group, for one source of the ratchet.
pub type Figures = BTreeMap<String, usize>;

/// The figures of a database: covered bins per group.
pub fn figures(db: &CoverageDb) -> Figures {
    db.figures()
        .into_iter()
        .map(|f| (f.name, f.covered_bins))
        .collect()
}

/// What the ratchet found.
#[derive(Clone, Debug, Default)]
pub struct Ratchet {
    /// The report: per source and group, recorded and current covered bins.
    pub text: String,
    /// Groups that dropped below the recorded figure (`source group: recorded -> now`).
    pub drops: Vec<String>,
    /// Groups above the recorded figure (re-record with PICA_BLESS=1).
    pub rises: Vec<String>,
}

/// Computes the coverage of the corpus (`corpus`) and the scene library, compares it with
/// the recorded figures in `baseline` (JSON `{"corpus": {group: covered}, "scenes": {...}}`)
/// and, with `bless`, records the current figures there.
pub fn ratchet(corpus: &Path, baseline: &Path, bless: bool) -> Result<Ratchet, String> {
    let (corpus_db, _) = bundles_db(corpus)?;
    let current: BTreeMap<String, Figures> = [
        ("corpus".to_string(), figures(&corpus_db)),
        ("scenes".to_string(), figures(&scenes_db()?)),
    ]
    .into_iter()
    .collect();
    let recorded: BTreeMap<String, Figures> = if baseline.is_file() {
        let t = std::fs::read_to_string(baseline)
            .map_err(|e| format!("{}: cannot read: {e}", baseline.display()))?;
        serde_json::from_str(&t).map_err(|e| format!("{}: {e}", baseline.display()))?
    } else if bless {
        BTreeMap::new()
    } else {
        return Err(format!(
            "{}: no recorded figures (record them with {BLESS_ENV}=1)",
            baseline.display()
        ));
    };
    let m = cov::model();
    let mut r = Ratchet::default();
    let _ = writeln!(
        r.text,
        "coverage ratchet ({}): covered bins per group, recorded -> now",
        baseline.display()
    );
    for (src, now) in &current {
        let rec = recorded.get(src);
        for g in m.groups() {
            let n = now.get(&g.name).copied().unwrap_or(0);
            let was = rec.and_then(|r| r.get(&g.name)).copied();
            let mark = match was {
                Some(w) if n < w => {
                    r.drops.push(format!("{src} {}: {w} -> {n}", g.name));
                    "  DROPPED"
                }
                Some(w) if n > w => {
                    r.rises.push(format!("{src} {}: {w} -> {n}", g.name));
                    "  rose"
                }
                Some(_) => "",
                None => {
                    r.rises.push(format!("{src} {}: (none) -> {n}", g.name));
                    "  new"
                }
            };
            let _ = writeln!(
                r.text,
                "  {src:7} {:26} {:>5} -> {n:>5} / {:<5} {:>5.1}%{mark}",
                g.name,
                was.map_or("-".to_string(), |w| w.to_string()),
                g.bins.len(),
                pct(n, g.bins.len())
            );
        }
    }
    if bless {
        if let Some(dir) = baseline.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(&current).map_err(|e| e.to_string())?;
        std::fs::write(baseline, text + "\n")
            .map_err(|e| format!("{}: cannot write: {e}", baseline.display()))?;
        let _ = writeln!(r.text, "recorded -> {}", baseline.display());
        r.drops.clear();
        r.rises.clear();
    } else if !r.rises.is_empty() {
        let _ = writeln!(
            r.text,
            "coverage rose in {} group(s): record it with {BLESS_ENV}=1",
            r.rises.len()
        );
    }
    Ok(r)
}

/// The greedy choice of `pica cov select`: bundles of `candidates` in the order they were
/// chosen, each with the bins it adds and the covered total after it; stops at `max` or when
/// no bundle adds a bin.
pub fn select(
    candidates: &Path,
    base: &str,
    max: usize,
) -> Result<Vec<(PathBuf, usize, usize)>, String> {
    let (mut db, _) = collect(base)?;
    let entries = std::fs::read_dir(candidates)
        .map_err(|e| format!("{}: cannot read: {e}", candidates.display()))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("manifest.json").is_file() && !is_stage_bundle(p))
        .collect();
    dirs.sort();
    let mut runs: Vec<(PathBuf, Hits)> = Vec::new();
    for d in dirs {
        let b = Bundle::load(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        let case = b.case().map_err(|e| format!("{}: {e}", d.display()))?;
        let hits = run_case(&case).map_err(|e| format!("{}: {e}", d.display()))?;
        runs.push((d, hits));
    }
    let mut chosen = Vec::new();
    while chosen.len() < max {
        let gain = |h: &Hits| h.iter().filter(|&(b, _)| !db.is_hit(b)).count();
        let Some((k, g)) = runs
            .iter()
            .enumerate()
            .map(|(k, (_, h))| (k, gain(h)))
            .max_by_key(|&(k, g)| (g, std::cmp::Reverse(k)))
        else {
            break;
        };
        if g == 0 {
            break;
        }
        let (d, h) = runs.remove(k);
        db.add(&h, &d.display().to_string());
        chosen.push((d, g, db.total().0));
    }
    Ok(chosen)
}

/// Copies a bundle directory (its files; bundles have no subdirectories).
pub(crate) fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: cannot create: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("{}: cannot read: {e}", from.display()))?;
    for e in entries.flatten() {
        let p = e.path();
        if p.is_file() {
            let dst = to.join(e.file_name());
            std::fs::copy(&p, &dst).map_err(|e| format!("{}: cannot copy: {e}", dst.display()))?;
        }
    }
    Ok(())
}
