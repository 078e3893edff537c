//! Coverage: functional coverage of the model ([`functional`]: the bins of
//! [`pica_model::cov`] over campaigns, bundles and scenes, the reports and the ratchet) and
//! code coverage of the RTL ([`rtl`]: Verilator's line, branch and toggle points).

pub mod functional;
pub mod rtl;
