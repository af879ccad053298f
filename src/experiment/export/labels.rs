//! Outcomes in result rows, for `#[serde(with = ...)]`: spelt `P1`, `P2` or `Draw`
//! ([`GameResult::label`]) in CSV, where [`GameResult`]'s own serde form (for JSON) is another,
//! and refused, with what is allowed, when a file read back holds anything else.

use serde::{Deserialize, Deserializer, Serializer};

use crate::engine::outcome::GameResult;

/// The outcome `text` spells; `or` names what else the field allows.
fn parse<E: serde::de::Error>(text: &str, or: &str) -> Result<GameResult, E> {
    GameResult::from_label(text)
        .ok_or_else(|| E::custom(format!("not an outcome: expected P1, P2 or Draw{or}")))
}

/// A [`GameResult`]: `P1`, `P2` or `Draw`.
pub(crate) mod outcome {
    use super::*;

    /// Writes the label.
    ///
    /// # Errors
    /// The serializer's.
    pub(crate) fn serialize<S: Serializer>(
        result: &GameResult,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(result.label())
    }

    /// Reads a label.
    ///
    /// # Errors
    /// For anything but `P1`, `P2` or `Draw`.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<GameResult, D::Error> {
        parse(&String::deserialize(deserializer)?, "")
    }
}

/// An optional [`GameResult`]: `P1`, `P2`, `Draw`, or empty for none.
pub(crate) mod optional_outcome {
    use super::*;

    /// Writes the label, or nothing.
    ///
    /// # Errors
    /// The serializer's.
    pub(crate) fn serialize<S: Serializer>(
        result: &Option<GameResult>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match result {
            Some(result) => serializer.serialize_some(result.label()),
            None => serializer.serialize_none(),
        }
    }

    /// Reads a label, or nothing.
    ///
    /// # Errors
    /// For anything but `P1`, `P2`, `Draw` or an empty field.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<GameResult>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|text| parse(&text, " (or nothing)"))
            .transpose()
    }
}

/// The outcome of a solve that may stop at its node limit: `P1`, `P2`, `Draw`, or
/// `unfinished` for none. Only Quarto's sweeps stop at a node limit.
#[cfg(feature = "quarto")]
pub(crate) mod outcome_or_unfinished {
    use super::*;

    /// The word for a solve stopped by its node limit.
    const UNFINISHED: &str = "unfinished";

    /// Writes the label, or `unfinished`.
    ///
    /// # Errors
    /// The serializer's.
    pub(crate) fn serialize<S: Serializer>(
        result: &Option<GameResult>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(result.map_or(UNFINISHED, GameResult::label))
    }

    /// Reads a label, or `unfinished`.
    ///
    /// # Errors
    /// For anything but `P1`, `P2`, `Draw` or `unfinished`.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<GameResult>, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text == UNFINISHED {
            return Ok(None);
        }
        parse(&text, " (or unfinished)").map(Some)
    }
}
