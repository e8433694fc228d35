//! The computer players' learned estimate (`assets/estimate.toml`): the weights of a linear
//! model that predicts a seat's final score from features of the position as that seat sees it,
//! and the provenance of the fit (the command, seeds and games it was trained on, a hash of the
//! training positions, its error on held-out games). `skymines train` writes the file; the
//! players only read it.
//!
//! It is not component data: it is loaded beside the box but left out of the data hash, so a
//! retrained estimate never makes stored games look as if they were played with other data. A
//! data folder (`data_dir`) may hold its own `estimate.toml`; without one the built-in copy is
//! used. The file names its features; a file trained for other features than this build
//! computes is refused (retrain it).

use serde::{Deserialize, Serialize};

/// Why an estimate file was refused (`data::DataError` names the file around it).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EstimateError {
    #[error("estimate.toml: not valid data: {0}")]
    Parse(String),
    #[error("estimate.toml: field `{field}`: {message}")]
    Invalid { field: String, message: String },
}

/// The version of the file's format this build reads and writes (2: the weights predict the
/// points still to come, added to the score as it stands).
pub const SCHEMA_VERSION: u32 = 2;

/// The file's name in the data folder.
pub const FILE: &str = "estimate.toml";

/// The features of a position for one seat (what each means: `bots::features`). The last five
/// say how the seat was played in the training games (an exploring player's bias, its share of
/// random moves); they are 0 in play, where the estimate judges for a player that plays like the
/// normal one, so what those players' habits cost is not read into the position's features.
pub const BASE_FEATURES: &[&str] = &[
    "bias",
    "cash",
    "share_points",
    "share_headroom",
    "shares",
    "next_shares",
    "track_spaces",
    "track_bonuses",
    "tank_points",
    "tank_ahead_3",
    "tank_ahead_6",
    "tank_ahead_10",
    "research_points",
    "research_ahead_1",
    "research_ahead_2",
    "research_ahead_4",
    "plans_ahead",
    "plans_in_reach",
    "resource_units_owned",
    "energy_owned",
    "research_points_owned",
    "research_scientists_owned",
    "field_steps_owned",
    "hand_cards",
    "resource_units_now",
    "energy_now",
    "research_now",
    "field_now",
    "research_reach_now",
    "markers",
    "extra_slots",
    "dropped_out",
    "luna",
    "luna_level",
    "seats",
    "stations_headroom",
    "first_player_next",
    "tiles",
    "trained_tank_bias",
    "trained_research_bias",
    "trained_shares_bias",
    "trained_cash_bias",
    "trained_random_moves",
];

/// Points in time the weights are given for: with k/`KNOTS_LAST` of the game still to play,
/// k = 0..=KNOTS_LAST (one a round of the 7); between two, a feature's weight is interpolated.
pub const KNOTS_LAST: usize = 7;

/// How many weights a model has: one per base feature and point in time.
pub const FEATURE_COUNT: usize = (KNOTS_LAST + 1) * BASE_FEATURES.len();

/// The names of the weights, in order: `x@k` for each point in time k and base feature `x`
/// (the weight of `x` with k/7 of the game left).
pub fn feature_names() -> Vec<String> {
    let mut out = Vec::with_capacity(FEATURE_COUNT);
    for k in 0..=KNOTS_LAST {
        out.extend(BASE_FEATURES.iter().map(|b| format!("{b}@{k}")));
    }
    out
}

/// Where the weights came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct EstimateProvenance {
    /// The command that wrote the file.
    pub command: String,
    /// The seed of the first training game (game i uses seed + i).
    pub seed: u64,
    /// Games played for the training positions, in all.
    pub games: u64,
    /// Rounds of fitting (the first on exploring players' games, each later one adding games of
    /// the players using the previous fit).
    pub iterations: u32,
    /// Positions (seat views) fitted, and held out.
    pub positions: u64,
    pub held_out_positions: u64,
    /// SHA-256 (first 16 bytes, hex) of every training position's features and outcome, in order.
    pub training_hash: String,
    /// The component data hash the games were played with.
    pub component_data_hash: String,
    /// Root mean square error (points of final score) on the held-out games' positions: the
    /// seat's own estimate, the same positions judged by the hand-weighted estimate
    /// (`bots::value::handmade`), and the estimate of another seat from what is public.
    pub held_out_rmse_own: f64,
    pub held_out_rmse_handmade: f64,
    pub held_out_rmse_public: f64,
    /// The same error of a constant (the training positions' mean final score): the floor any
    /// estimate should beat.
    pub held_out_rmse_constant: f64,
    /// Ridge penalty (on standardized features).
    pub ridge: f64,
}

/// The learned estimate: one weight vector for the seat's own view (its hand and planned cards
/// known) and one for another seat judged from what is public.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct EstimateFile {
    pub schema_version: u32,
    pub provenance: EstimateProvenance,
    pub features: Vec<String>,
    pub own: Vec<f64>,
    pub public: Vec<f64>,
}

impl EstimateFile {
    /// Parses and checks the file's text.
    pub fn parse(text: &str) -> Result<EstimateFile, EstimateError> {
        let file: EstimateFile = toml::from_str(text)
            .map_err(|e| EstimateError::Parse(e.to_string().trim().replace('\n', " ")))?;
        file.check()?;
        Ok(file)
    }

    /// The features are this build's and every weight is a finite number.
    pub fn check(&self) -> Result<(), EstimateError> {
        let invalid = |field: &str, message: String| EstimateError::Invalid {
            field: field.to_string(),
            message,
        };
        if self.schema_version != SCHEMA_VERSION {
            return Err(invalid(
                "schema_version",
                format!(
                    "{} (this build reads {SCHEMA_VERSION}): retrain it with `skymines train`",
                    self.schema_version
                ),
            ));
        }
        if self.features != feature_names() {
            return Err(invalid(
                "features",
                "trained for other features than this build computes: retrain it with `skymines train`"
                    .to_string(),
            ));
        }
        for (name, weights) in [("own", &self.own), ("public", &self.public)] {
            if weights.len() != FEATURE_COUNT {
                return Err(invalid(
                    name,
                    format!("{} weights for {FEATURE_COUNT} features", weights.len()),
                ));
            }
            if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
                return Err(invalid(name, format!("weight {i} is not a number")));
            }
        }
        Ok(())
    }

    /// The file's text: a header that says what it is, then the provenance and the weights
    /// with their names beside them.
    pub fn to_text(&self) -> String {
        let p = &self.provenance;
        let mut out = String::new();
        out.push_str(
            "# estimate.toml — the computer players' learned estimate of a seat's final score.\n\
             # Written by `skymines train` (bots::train); not component data: it is not part of the\n\
             # data hash. Each weight multiplies one feature of the position as the seat sees it\n\
             # (bots::features); `own` judges the seat itself, `public` another seat from what is\n\
             # public. Retrain with the command in [provenance] (at the end) to reproduce these numbers.\n\n",
        );
        out.push_str(&format!("schema_version = {}\n\n", self.schema_version));
        out.push_str("features = [\n");
        for name in &self.features {
            out.push_str(&format!("    {name:?},\n"));
        }
        out.push_str("]\n");
        for (name, weights) in [("own", &self.own), ("public", &self.public)] {
            out.push_str(&format!("{name} = [\n"));
            for (w, f) in weights.iter().zip(&self.features) {
                out.push_str(&format!("    {}, # {f}\n", float(*w)));
            }
            out.push_str("]\n");
        }
        out.push_str("\n[provenance]\n");
        out.push_str(&format!("command = {:?}\n", p.command));
        out.push_str(&format!("seed = {}\n", p.seed));
        out.push_str(&format!("games = {}\n", p.games));
        out.push_str(&format!("iterations = {}\n", p.iterations));
        out.push_str(&format!("positions = {}\n", p.positions));
        out.push_str(&format!("held_out_positions = {}\n", p.held_out_positions));
        out.push_str(&format!("training_hash = {:?}\n", p.training_hash));
        out.push_str(&format!(
            "component_data_hash = {:?}\n",
            p.component_data_hash
        ));
        for (k, v) in [
            ("held_out_rmse_own", p.held_out_rmse_own),
            ("held_out_rmse_handmade", p.held_out_rmse_handmade),
            ("held_out_rmse_public", p.held_out_rmse_public),
            ("held_out_rmse_constant", p.held_out_rmse_constant),
            ("ridge", p.ridge),
        ] {
            out.push_str(&format!("{k} = {}\n", float(v)));
        }
        out
    }
}

/// A float as TOML reads it back exactly (Rust prints the shortest text that round-trips).
fn float(v: f64) -> String {
    let s = format!("{v:?}");
    if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}
