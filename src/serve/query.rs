//! Reading a request's query parameters: the board, the moves and the options, with the
//! library's own messages for what is wrong.

use std::collections::HashMap;
use std::str::FromStr;

use super::error::ApiError;
use crate::engine::notation;
use crate::engine::position::{Column, Position};
use crate::engine::rules::{Rules, Variant};

/// The parameters that name a position: `rules`, `k`, `width`, `height`, `moves`.
pub const BOARD: [&str; 5] = ["rules", "k", "width", "height", "moves"];

/// A request's query parameters, checked against the names its endpoint knows.
#[derive(Debug)]
pub struct Params(HashMap<String, String>);

impl Params {
    /// The parameters of `query`, refusing any name not in `known`.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] naming the unknown parameter and the known ones.
    pub fn new(query: HashMap<String, String>, known: &[&str]) -> Result<Params, ApiError> {
        let mut names: Vec<&String> = query.keys().collect();
        names.sort();
        match names
            .into_iter()
            .find(|name| !known.contains(&name.as_str()))
        {
            Some(name) => Err(ApiError::BadRequest(format!(
                "unknown parameter {name:?}: expected one of {}",
                known.join(", ")
            ))),
            None => Ok(Params(query)),
        }
    }

    /// The text of `name`, if given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// `name` parsed as `T`, or `default` when absent.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] when the text is not a `T`; `what` describes what is allowed.
    pub fn number<T: FromStr>(&self, name: &str, default: T, what: &str) -> Result<T, ApiError> {
        match self.text(name) {
            None => Ok(default),
            Some(text) => text.trim().parse().map_err(|_| {
                ApiError::BadRequest(format!(
                    "{name} = {text:?} is not a number: expected {what}"
                ))
            }),
        }
    }

    /// Whether the flag `name` is set: `1` or `true` (absent, `0` or `false`: not set).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for any other text.
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.text(name) {
            None | Some("0") | Some("false") => Ok(false),
            Some("1") | Some("true") | Some("") => Ok(true),
            Some(text) => Err(ApiError::BadRequest(format!(
                "{name} = {text:?} is not a flag: expected 1 or 0"
            ))),
        }
    }

    /// The rules named by `rules`, `k`, `width` and `height` (defaults: normal Connect Four on
    /// 7x6, as on the command line).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] with the library's message for unknown rules or a board out of
    /// range.
    pub fn rules(&self) -> Result<Rules, ApiError> {
        let variant = match self.text("rules") {
            None => Variant::Normal,
            Some(name) => name.parse::<Variant>().map_err(ApiError::bad)?,
        };
        let k = self.number("k", 4, "a line length from 1")?;
        let width = self.number("width", 7, "a whole number of columns")?;
        let height = self.number("height", 6, "a whole number of rows")?;
        Rules::new(k, width, height, variant).map_err(ApiError::bad)
    }

    /// The rules and the game after `moves` (default: no moves).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] with the library's message for bad rules or a bad move string.
    pub fn game(&self) -> Result<Game, ApiError> {
        let rules = self.rules()?;
        let text = self.text("moves").unwrap_or("");
        let (position, moves) = notation::parse(rules, text).map_err(ApiError::bad)?;
        Ok(Game {
            position,
            text: notation::format(rules, &moves),
            moves,
        })
    }
}

/// A game read from a request: the position and the moves that reached it.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position after the moves.
    pub position: Position,
    /// The moves, first to last.
    pub moves: Vec<Column>,
    /// The moves in the standard notation.
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Result<Params, ApiError> {
        let query = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Params::new(query, &BOARD)
    }

    fn message(error: ApiError) -> String {
        match error {
            ApiError::BadRequest(text) => text,
            other => panic!("expected a bad request, got {other:?}"),
        }
    }

    #[test]
    fn defaults_are_connect_four() {
        let game = params(&[]).unwrap().game().unwrap();
        assert_eq!(game.position.rules(), Rules::standard());
        assert_eq!(game.text, "");
    }

    #[test]
    fn bad_input_gets_the_librarys_message() {
        let rules_error =
            |pairs: &[(&str, &str)]| message(params(pairs).unwrap().rules().unwrap_err());
        let expected = "bogus".parse::<Variant>().unwrap_err().to_string();
        assert_eq!(rules_error(&[("rules", "bogus")]), expected);
        let expected = Rules::new(4, 0, 6, Variant::Normal)
            .unwrap_err()
            .to_string();
        assert_eq!(rules_error(&[("width", "0")]), expected);
        assert!(rules_error(&[("k", "four")]).starts_with("k = \"four\" is not a number"));
        let moves = |m: &str| message(params(&[("moves", m)]).unwrap().game().unwrap_err());
        let expected = notation::parse(Rules::standard(), "4444444")
            .unwrap_err()
            .to_string();
        assert_eq!(moves("4444444"), expected);
        assert!(moves("4x").starts_with("move 2: bad character"));
        let unknown = message(params(&[("colour", "red")]).unwrap_err());
        assert!(
            unknown.starts_with("unknown parameter \"colour\""),
            "{unknown}"
        );
    }

    #[test]
    fn flags_are_one_or_zero() {
        let flag = |v: &str| {
            Params::new([("weak".into(), v.into())].into(), &["weak"])
                .unwrap()
                .flag("weak")
        };
        assert_eq!(flag("1"), Ok(true));
        assert_eq!(flag("0"), Ok(false));
        assert!(flag("maybe").is_err());
    }
}
