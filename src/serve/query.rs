//! Reading a request's query parameters: the board, the moves and the options, with the
//! library's own messages for what is wrong.

use std::collections::HashMap;
use std::str::FromStr;

use super::error::ApiError;
use crate::engine::notation;
use crate::engine::position::{Column, Position};
use crate::engine::rules::{Rules, Topology, Variant};

/// The parameters that name a position: `rules`, `k`, `width`, `height`, `topology`, `moves`.
pub(crate) const BOARD: [&str; 6] = ["rules", "k", "width", "height", "topology", "moves"];

/// A request's query parameters, checked against the names its endpoint knows.
#[derive(Debug)]
pub(crate) struct Params(HashMap<String, String>);

impl Params {
    /// The parameters of the raw query string `query` (absent: none), refusing a name given
    /// twice, text that is not UTF-8 once decoded, and any name not in `known`.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] naming the parameter and what is allowed.
    pub(crate) fn parse(query: Option<&str>, known: &[&str]) -> Result<Params, ApiError> {
        let mut pairs = HashMap::new();
        for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let (name, value) = (decode(name)?, decode(value)?);
            if pairs.contains_key(&name) {
                return Err(ApiError::BadRequest(format!(
                    "parameter {name:?} is given twice: give each parameter once"
                )));
            }
            pairs.insert(name, value);
        }
        Params::new(pairs, known)
    }

    /// The parameters of `query`, refusing any name not in `known`.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] naming the unknown parameter and the known ones.
    pub(crate) fn new(query: HashMap<String, String>, known: &[&str]) -> Result<Params, ApiError> {
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
    pub(crate) fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// `name` parsed as `T`, or `default` when absent.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] when the text is not a `T`; `what` describes what is allowed.
    pub(crate) fn number<T: FromStr>(
        &self,
        name: &str,
        default: T,
        what: &str,
    ) -> Result<T, ApiError> {
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
    pub(crate) fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.text(name) {
            None | Some("0") | Some("false") => Ok(false),
            Some("1") | Some("true") | Some("") => Ok(true),
            Some(text) => Err(ApiError::BadRequest(format!(
                "{name} = {text:?} is not a flag: expected 1 or 0"
            ))),
        }
    }

    /// The rules named by `rules`, `k`, `width`, `height` and `topology` (defaults: normal
    /// Connect Four on a flat 7x6, as on the command line).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] with the library's message for unknown rules or a board out of
    /// range.
    pub(crate) fn rules(&self) -> Result<Rules, ApiError> {
        let variant = match self.text("rules") {
            None => Variant::Normal,
            Some(name) => name.parse::<Variant>().map_err(ApiError::bad)?,
        };
        let k = self.number("k", 4, "a line length from 1")?;
        let width = self.number("width", 7, "a whole number of columns")?;
        let height = self.number("height", 6, "a whole number of rows")?;
        let topology = match self.text("topology") {
            None => Topology::Flat,
            Some(name) => name.parse::<Topology>().map_err(ApiError::bad)?,
        };
        Ok(Rules::new(k, width, height, variant)
            .map_err(ApiError::bad)?
            .with_topology(topology))
    }

    /// The rules and the game after `moves` (default: no moves).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] with the library's message for bad rules or a bad move string.
    pub(crate) fn game(&self) -> Result<Game, ApiError> {
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

/// One name or value of a query string, decoded (`+` is a space, `%XX` a byte).
///
/// # Errors
/// [`ApiError::BadRequest`] when the bytes it stands for are not UTF-8.
fn decode(text: &str) -> Result<String, ApiError> {
    let spaced = text.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map(|t| t.into_owned())
        .map_err(|_| {
            ApiError::BadRequest(format!(
                "query text {text:?} is not UTF-8 once decoded: send UTF-8 text, percent-encoded"
            ))
        })
}

/// A game read from a request: the position and the moves that reached it.
#[derive(Clone, Debug)]
pub(crate) struct Game {
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

    /// A cylinder is asked for by name and plays with its lines through the wall: on a 5x1
    /// ring, k = 3, P1's 5, 1 and 2 end the game.
    #[test]
    fn topology_names_a_cylinder() {
        let ring = [("k", "3"), ("width", "5"), ("height", "1")];
        let game = |topology: &str| {
            let pairs = [&ring[..], &[("topology", topology), ("moves", "53142")]].concat();
            params(&pairs).unwrap().game()
        };
        let cylinder = game("cylinder").unwrap();
        assert!(cylinder.position.rules().is_cylinder());
        let line = |g: &Game| {
            g.position
                .outcome()
                .is_some_and(|o| matches!(o.reason, crate::engine::outcome::Reason::Line { .. }))
        };
        assert!(line(&cylinder));
        let flat = game("flat").unwrap();
        assert!(!flat.position.rules().is_cylinder() && !line(&flat));
        let expected = "torus".parse::<Topology>().unwrap_err().to_string();
        assert_eq!(message(game("torus").unwrap_err()), expected);
    }

    #[test]
    fn a_query_string_is_decoded_and_each_name_given_once() {
        let known = ["moves", "rules"];
        let params = Params::parse(Some("moves=44%2C5&rules=mis%C3%A8re+x"), &known).unwrap();
        assert_eq!(params.text("moves"), Some("44,5"));
        assert_eq!(params.text("rules"), Some("misère x"));
        let twice = message(Params::parse(Some("moves=4&moves=5"), &known).unwrap_err());
        assert!(twice.contains("given twice"), "{twice}");
        let bytes = message(Params::parse(Some("moves=%ff%fe"), &known).unwrap_err());
        assert!(bytes.contains("not UTF-8"), "{bytes}");
        assert!(Params::parse(None, &known).unwrap().text("moves").is_none());
        assert!(Params::parse(Some("colour=red"), &known).is_err());
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
