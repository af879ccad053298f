//! The sweep's CSV rows: one per solved board, appended as boards finish.

use serde::{Deserialize, Serialize};

use super::grid::Board;
use crate::store::Record;

/// One solved board, as stored in `table1.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Always `misere` for Table I.
    pub rules: String,
    /// Line length.
    pub k: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// width * height.
    pub cells: u32,
    /// Table I's outcome (`P1`, `P2`, `Draw`), empty where the paper makes no claim.
    pub paper: Option<String>,
    /// The solver's outcome.
    pub solver: String,
    /// Whether they agree, empty where the paper makes no claim.
    pub agree: Option<bool>,
    /// Plies until the game ends under perfect play (for a draw: the number of cells); empty
    /// after an outcome-only (weak) sweep.
    pub remoteness: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Row {
    /// The board this row solved.
    pub fn board(&self) -> Board {
        Board {
            k: self.k,
            width: self.width,
            height: self.height,
        }
    }
}

impl Record for Row {
    type Key = Board;

    fn key(&self) -> Board {
        self.board()
    }
}

/// The sweep's store: one row per board.
pub type Store = crate::store::Store<Row>;

#[cfg(test)]
mod tests {
    use super::*;

    fn row(k: u32) -> Row {
        Row {
            rules: "misere".into(),
            k,
            width: 3,
            height: 1,
            cells: 3,
            paper: Some("Draw".into()),
            solver: "Draw".into(),
            agree: Some(true),
            remoteness: Some(3),
            nodes: 10,
            seconds: 0.5,
        }
    }

    #[test]
    fn appended_rows_survive_a_reopen() {
        let dir = std::env::temp_dir().join(format!("connectk-sweep-store-{}", std::process::id()));
        let path = dir.join("t.csv");
        let _ = std::fs::remove_file(&path);
        {
            let store = Store::open(&path).unwrap();
            assert!(store.is_empty());
            store.append(&row(3)).unwrap();
            store.append(&row(4)).unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.len(), 2);
        assert!(store.contains(&row(3).board()));
        assert!(!store.contains(&row(5).board()));
        assert_eq!(store.rows().unwrap(), vec![row(3), row(4)]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
