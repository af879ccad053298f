//! Short partisan games in canonical form, the arithmetic that adds up independent pieces.
//!
//! A game is its two lists of options: the positions Left can move to and those Right can move
//! to; a player who cannot move loses. Two games are equal when adding the negative of one to
//! the other gives a second-player win, and every game equals exactly one game in canonical
//! form, which has no dominated option (one worse for its player than another) and no
//! reversible option (one whose opponent's answer leaves a position at least as good for that
//! opponent as the game itself, so the answer's own options may stand in for it). Canonical
//! forms are kept once each, so two canonical games are equal exactly when their ids are. (The
//! theory: Berlekamp, Conway and Guy, *Winning Ways*, chapter 2; Siegel, *Combinatorial Game
//! Theory*, II.2.)

use rustc_hash::FxHashMap;

/// A game kept by [`Games`]: its index there.
pub(crate) type GameId = u32;

/// A game's Left and Right options, sorted: how a canonical game is looked up.
type OptionLists = (Box<[GameId]>, Box<[GameId]>);

/// One game's options.
struct Node {
    left: Box<[GameId]>,
    right: Box<[GameId]>,
}

/// The games met so far, each canonical form once, with the comparisons and sums computed.
pub(crate) struct Games {
    nodes: Vec<Node>,
    /// Each canonical game's id, by its options (sorted).
    canonical: FxHashMap<OptionLists, GameId>,
    /// Whether the first game is at most the second (better or equal for Right).
    at_most: FxHashMap<(GameId, GameId), bool>,
    /// The keys of `at_most` that name the game being made canonical, dropped with it.
    scratch_keys: Vec<(GameId, GameId)>,
    sums: FxHashMap<(GameId, GameId), GameId>,
    negatives: FxHashMap<GameId, GameId>,
}

impl Games {
    /// The game with no options, which the player to move loses.
    pub(crate) const ZERO: GameId = 0;

    /// A store holding zero alone.
    pub(crate) fn new() -> Games {
        let mut games = Games {
            nodes: Vec::new(),
            canonical: FxHashMap::default(),
            at_most: FxHashMap::default(),
            scratch_keys: Vec::new(),
            sums: FxHashMap::default(),
            negatives: FxHashMap::default(),
        };
        let zero = games.canonical_game(Vec::new(), Vec::new());
        debug_assert_eq!(zero, Games::ZERO);
        games
    }

    /// How many games (canonical forms) are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.canonical.len()
    }

    /// How many comparisons and sums are remembered, the bulk of the memory.
    pub(crate) fn remembered(&self) -> usize {
        self.at_most.len() + self.sums.len()
    }

    /// The canonical game whose Left options are equal to `left` and Right options to `right`
    /// (each given as kept canonical games).
    pub(crate) fn game(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        let (left, right) = self.simplified(left, right);
        self.canonical_game(left, right)
    }

    /// The options of `g` for Left (when `left`) or Right.
    pub(crate) fn options(&self, g: GameId, left: bool) -> Vec<GameId> {
        let node = &self.nodes[g as usize];
        if left {
            node.left.to_vec()
        } else {
            node.right.to_vec()
        }
    }

    /// Whether Left, moving first in `g`, wins.
    pub(crate) fn left_wins_first(&mut self, g: GameId) -> bool {
        !self.at_most(g, Games::ZERO)
    }

    /// Whether Right, moving first in `g`, wins.
    pub(crate) fn right_wins_first(&mut self, g: GameId) -> bool {
        !self.at_most(Games::ZERO, g)
    }

    /// The sum of `g` and `h`: the two played side by side, each move in one of them.
    pub(crate) fn add(&mut self, g: GameId, h: GameId) -> GameId {
        if g == Games::ZERO {
            return h;
        }
        if h == Games::ZERO {
            return g;
        }
        let key = (g.min(h), g.max(h));
        if let Some(&sum) = self.sums.get(&key) {
            return sum;
        }
        let mut left = Vec::new();
        let mut right = Vec::new();
        for (a, b) in [(g, h), (h, g)] {
            for i in 0..self.nodes[a as usize].left.len() {
                let option = self.nodes[a as usize].left[i];
                left.push(self.add(option, b));
            }
            for i in 0..self.nodes[a as usize].right.len() {
                let option = self.nodes[a as usize].right[i];
                right.push(self.add(option, b));
            }
        }
        let sum = self.game(left, right);
        self.sums.insert(key, sum);
        sum
    }

    /// The negative of `g`: the same game with the players' roles swapped. The negative of a
    /// canonical game is canonical (swapping roles keeps options undominated and irreversible).
    pub(crate) fn negative(&mut self, g: GameId) -> GameId {
        if let Some(&known) = self.negatives.get(&g) {
            return known;
        }
        let node = &self.nodes[g as usize];
        let (left, right) = (node.right.clone(), node.left.clone());
        let mut negate = |options: Box<[GameId]>| {
            let mut negated: Vec<GameId> = options.iter().map(|&o| self.negative(o)).collect();
            negated.sort_unstable();
            negated
        };
        let (left, right) = (negate(left), negate(right));
        let negative = self.canonical_game(left, right);
        self.negatives.insert(g, negative);
        self.negatives.insert(negative, g);
        negative
    }

    /// Whether `g <= h`: no Left option of `g` is at least `h`, and no Right option of `h` is
    /// at most `g`.
    fn at_most(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if let Some(&known) = self.at_most.get(&(g, h)) {
            return known;
        }
        let mut holds = true;
        for i in 0..self.nodes[g as usize].left.len() {
            let option = self.nodes[g as usize].left[i];
            if self.at_most(h, option) {
                holds = false;
                break;
            }
        }
        if holds {
            for i in 0..self.nodes[h as usize].right.len() {
                let option = self.nodes[h as usize].right[i];
                if self.at_most(option, g) {
                    holds = false;
                    break;
                }
            }
        }
        let scratch = self.scratch_id();
        if Some(g) == scratch || Some(h) == scratch {
            self.scratch_keys.push((g, h));
        }
        self.at_most.insert((g, h), holds);
        holds
    }

    /// The id of the game being made canonical, while there is one: always the last node, not
    /// among the canonical ones.
    fn scratch_id(&self) -> Option<GameId> {
        let last = self.nodes.len().checked_sub(1)? as GameId;
        (self.canonical.len() < self.nodes.len()).then_some(last)
    }

    /// The options of a game equal to `{left | right}` with no reversible and no dominated
    /// option (which makes it canonical, as its options are).
    fn simplified(
        &mut self,
        mut left: Vec<GameId>,
        mut right: Vec<GameId>,
    ) -> (Vec<GameId>, Vec<GameId>) {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        // Reversibility is judged against the game as given, which each step leaves equal.
        let whole = self.nodes.len() as GameId;
        self.nodes.push(Node {
            left: left.clone().into(),
            right: right.clone().into(),
        });
        while self.bypass_one(&mut left, &mut right, whole) {}
        for key in std::mem::take(&mut self.scratch_keys) {
            self.at_most.remove(&key);
        }
        self.nodes.pop();
        self.drop_dominated(&mut left, true);
        self.drop_dominated(&mut right, false);
        (left, right)
    }

    /// Replaces one reversible option of `whole` (if any) by the options its reversing answer
    /// offers the same player; whether there was one.
    fn bypass_one(
        &mut self,
        left: &mut Vec<GameId>,
        right: &mut Vec<GameId>,
        whole: GameId,
    ) -> bool {
        for i in 0..left.len() {
            let answers = self.nodes[left[i] as usize].right.clone();
            if let Some(&answer) = answers.iter().find(|&&a| self.at_most(a, whole)) {
                left.swap_remove(i);
                left.extend(self.nodes[answer as usize].left.iter());
                left.sort_unstable();
                left.dedup();
                return true;
            }
        }
        for i in 0..right.len() {
            let answers = self.nodes[right[i] as usize].left.clone();
            if let Some(&answer) = answers.iter().find(|&&a| self.at_most(whole, a)) {
                right.swap_remove(i);
                right.extend(self.nodes[answer as usize].right.iter());
                right.sort_unstable();
                right.dedup();
                return true;
            }
        }
        false
    }

    /// Drops each option another one beats for the player who takes it (Left prefers larger
    /// games, Right smaller); `options` are distinct canonical games, so no two are equal.
    fn drop_dominated(&mut self, options: &mut Vec<GameId>, for_left: bool) {
        let all = options.clone();
        options.retain(|&o| {
            !all.iter().any(|&other| {
                other != o
                    && if for_left {
                        self.at_most(o, other)
                    } else {
                        self.at_most(other, o)
                    }
            })
        });
    }

    /// The kept id of the canonical game with these (sorted, canonical) options.
    fn canonical_game(&mut self, left: Vec<GameId>, right: Vec<GameId>) -> GameId {
        let key = (left.into_boxed_slice(), right.into_boxed_slice());
        if let Some(&id) = self.canonical.get(&key) {
            return id;
        }
        let id = GameId::try_from(self.nodes.len()).expect("fewer than 2^32 games");
        self.nodes.push(Node {
            left: key.0.clone(),
            right: key.1.clone(),
        });
        self.canonical.insert(key, id);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers and their sums: 1 = {0|}, 2 = {1|}, -1 = {|0}; 1 + 1 = 2, 1 + (-1) = 0.
    #[test]
    fn integers_add_up() {
        let mut games = Games::new();
        let one = games.game(vec![Games::ZERO], vec![]);
        let two = games.game(vec![one], vec![]);
        let minus_one = games.game(vec![], vec![Games::ZERO]);
        assert_eq!(games.add(one, one), two);
        assert_eq!(games.add(one, minus_one), Games::ZERO);
        assert!(games.left_wins_first(one) && !games.right_wins_first(one));
        assert!(games.right_wins_first(minus_one) && !games.left_wins_first(minus_one));
    }

    /// Star is its own negative, a first-player win; up plus star is a first-player win too,
    /// while up alone is Left's; {0, * | 0} is the canonical form of up plus star.
    #[test]
    fn star_and_up_behave_as_the_theory_says() {
        let mut games = Games::new();
        let star = games.game(vec![Games::ZERO], vec![Games::ZERO]);
        assert_eq!(games.add(star, star), Games::ZERO);
        assert!(games.left_wins_first(star) && games.right_wins_first(star));
        let up = games.game(vec![Games::ZERO], vec![star]);
        assert!(games.left_wins_first(up) && !games.right_wins_first(up));
        let up_star = games.add(up, star);
        assert_eq!(
            up_star,
            games.game(vec![Games::ZERO, star], vec![Games::ZERO])
        );
        assert!(games.left_wins_first(up_star) && games.right_wins_first(up_star));
        let down = games.negative(up);
        assert_eq!(games.add(up, down), Games::ZERO);
        assert_eq!(down, games.game(vec![star], vec![Games::ZERO]));
        assert_eq!(games.negative(star), star);
    }

    /// Dominated and reversible options go: in {0, 1 | } the 0 is dominated, leaving 2; in
    /// {-1 | 1} both options reverse through 0 and leave nothing: the game is 0, the simplest
    /// number between -1 and 1.
    #[test]
    fn dominated_and_reversible_options_are_removed() {
        let mut games = Games::new();
        let one = games.game(vec![Games::ZERO], vec![]);
        let two = games.game(vec![one], vec![]);
        let minus_one = games.game(vec![], vec![Games::ZERO]);
        assert_eq!(games.game(vec![Games::ZERO, one], vec![]), two);
        assert_eq!(games.game(vec![minus_one], vec![one]), Games::ZERO);
        assert_eq!(games.len(), 4, "0, 1, 2 and -1, each kept once");
    }
}
