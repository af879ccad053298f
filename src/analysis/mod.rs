//! Records of a position for other programs: its game state (who is to move, or how the game
//! ended and the cells of the line) and its solved value, as `connectk show --json`,
//! `connectk solve --json` and the web API print them.

mod columns;
mod solve;
mod state;

pub use columns::{ColumnValues, column_values, perfect_values, values_from_book};
pub use solve::{MoveRecord, SolveRecord};
pub use state::GameState;
