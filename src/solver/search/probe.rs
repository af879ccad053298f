//! Which null-window question to ask next when searching for an exact score.
//!
//! An exact score is found by a sequence of null-window searches, each asking "is the score
//! above `probe`?" and each narrowing the bounds. What a question costs depends on where it
//! asks: one near zero (does the game end late, or at all?) is a deep search, costly whatever
//! its answer; one far from zero (does the game end within a few plies?) is a shallow one,
//! since no line can end the game sooner than its plies allow. Games end late far more often
//! than early when both sides play well, yet in an early position with a quick win the deep
//! questions are the whole cost.
//!
//! So questions come from three fronts. The near front asks next to the bound closest to zero:
//! first the sign, then one achievable score past that bound (MTD(f), Plaat et al. 1996), which
//! settles the late end of a whole game in one or two questions. The two far fronts ask from
//! the quickest win and the quickest loss inwards, in steps that double, which settles a quick
//! end in a few shallow questions. The far fronts go first while their questions stay cheap;
//! after that, each question goes to the front whose last question cost the fewest nodes.

use crate::engine::rules::Variant;

use crate::solver::score::{Achievable, Score};

/// Far questions that cost fewer nodes than this are asked before the sign: below it a
/// question is negligible next to any search worth the name.
const CHEAP: u64 = 2_000;

/// A front's state: how far its next question lies from its end, and what its last one cost.
#[derive(Clone, Copy, Debug)]
struct Front {
    /// Distance of the next question from the front's bound, in achievable steps (of two).
    steps: Score,
    /// Nodes of the front's last question (`None` before its first).
    cost: Option<u64>,
}

impl Front {
    const NEW: Front = Front {
        steps: 1,
        cost: None,
    };
}

/// Which front a question comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrontName {
    /// Next to the bound closest to zero.
    Near,
    /// Inwards from the quickest win.
    High,
    /// Inwards from the quickest loss.
    Low,
}

/// The bounds on a score being searched for, and the questions' costs so far.
#[derive(Clone, Debug)]
pub(crate) struct ScoreSearch {
    achievable: Achievable,
    lower: Score,
    upper: Score,
    near: Front,
    high: Front,
    low: Front,
}

impl ScoreSearch {
    /// The search for the score of a position with `empty` empty cells under `variant`, known
    /// to lie in `lower ..= upper` (bounds past what the empty cells allow are taken as
    /// those ends).
    pub(crate) fn within(empty: u32, variant: Variant, lower: Score, upper: Score) -> ScoreSearch {
        let achievable = Achievable::new(empty, variant);
        let span = empty as Score;
        ScoreSearch {
            achievable,
            lower: achievable.at_least(lower.max(-span)),
            upper: achievable.at_most(upper.min(span)),
            near: Front::NEW,
            high: Front::NEW,
            low: Front::NEW,
        }
    }

    /// The score, once the bounds meet.
    pub(crate) fn settled(&self) -> Option<Score> {
        (self.lower >= self.upper).then_some(self.lower)
    }

    /// The bounds known so far: the score lies in `lower ..= upper`.
    pub(crate) fn bounds(&self) -> (Score, Score) {
        (self.lower, self.upper)
    }

    /// The near front's question: the sign while it is unknown, else whether the score passes
    /// the bound closest to zero by one achievable step.
    fn near_probe(&self) -> Score {
        if self.lower >= 0 {
            self.lower
        } else if self.upper <= 0 {
            self.achievable.at_most(self.upper - 1)
        } else {
            0
        }
    }

    /// The far fronts' questions, when they still lie strictly beyond the near one.
    fn far_probe(&self, front: FrontName) -> Option<Score> {
        let near = self.near_probe();
        match front {
            FrontName::High => {
                let probe = self.achievable.at_most(self.upper - 2 * self.high.steps);
                (probe > near && probe >= self.lower).then_some(probe)
            }
            FrontName::Low => {
                let probe = self.achievable.at_least(self.lower + 2 * self.low.steps) - 1;
                (probe < near && probe < self.upper).then_some(probe)
            }
            FrontName::Near => Some(near),
        }
    }

    fn front(&self, name: FrontName) -> &Front {
        match name {
            FrontName::Near => &self.near,
            FrontName::High => &self.high,
            FrontName::Low => &self.low,
        }
    }

    /// The next question, "is the score above `probe`?", and its front; `None` once settled.
    /// Always `lower <= probe < upper`, so every answer narrows the bounds.
    pub(crate) fn next(&self) -> Option<(FrontName, Score)> {
        self.settled().is_none().then_some(())?;
        let far = [FrontName::High, FrontName::Low]
            .into_iter()
            .filter_map(|f| self.far_probe(f).map(|p| (f, p)))
            .min_by_key(|(f, _)| self.front(*f).cost.unwrap_or(0));
        let near = (FrontName::Near, self.near_probe());
        let take_far = |(front, _): &(FrontName, Score)| {
            let far_cost = self.front(*front).cost.unwrap_or(0);
            match self.near.cost {
                None => far_cost < CHEAP,
                Some(near_cost) => far_cost < near_cost,
            }
        };
        let (front, probe) = far.filter(take_far).unwrap_or(near);
        Some((front, self.achievable.toward_zero(probe)))
    }

    /// Records the answer `r` (fail-soft, from a null window at `probe`) of a question of
    /// `front`, which cost `cost` nodes.
    pub(crate) fn record(&mut self, front: FrontName, probe: Score, r: Score, cost: u64) {
        if r <= probe {
            self.upper = self.achievable.at_most(r);
        } else {
            self.lower = self.achievable.at_least(r);
        }
        let state = match front {
            FrontName::Near => &mut self.near,
            FrontName::High => &mut self.high,
            FrontName::Low => &mut self.low,
        };
        state.cost = Some(cost);
        if front != FrontName::Near {
            state.steps *= 2;
        }
    }
}

/// Which of an outcome's two questions to ask first: "is it a win?" (a null window at 0) or
/// "is it a loss?" (at -1), from how the outcomes this search found before ended, by the
/// parity of the position's plies (the side to move).
///
/// Either order settles a win or a loss with one question when its fail-soft answer is
/// decisive, but the question asked first does most of the work, and the second one is
/// needed whenever the first answers at zero, as it often does after the opponent's strategy
/// bounds (which prove "at most a draw"): a loss asked "is it a win?" first needs both. So the
/// question likelier to be answered "yes" goes first, as the sides to move of one parity
/// mostly win or mostly lose together (misère 7x6: the first player to move loses 31 of 40
/// random positions of ply 10; of 38 of ply 11, the second player wins 31).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OutcomeOrder {
    /// Outcomes found, by parity of the plies: losses for the side to move.
    losses: [u32; 2],
    /// Wins and draws for the side to move.
    others: [u32; 2],
}

impl OutcomeOrder {
    /// Whether a position after `plies` plies is asked "is it a loss?" first: when the side to
    /// move at that parity has lost more of the outcomes found so far than not.
    pub(crate) fn loss_first(&self, plies: u32) -> bool {
        let parity = (plies % 2) as usize;
        self.losses[parity] > self.others[parity]
    }

    /// Records the outcome `sign` (its sign: win, draw or loss) of a position after `plies`.
    pub(crate) fn record(&mut self, plies: u32, sign: Score) {
        let parity = (plies % 2) as usize;
        let count = if sign < 0 {
            &mut self.losses[parity]
        } else {
            &mut self.others[parity]
        };
        *count = count.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loss_question_goes_first_where_the_side_to_move_has_lost_most() {
        let mut order = OutcomeOrder::default();
        assert!(!order.loss_first(0) && !order.loss_first(1));
        order.record(4, -1);
        assert!(order.loss_first(10), "one loss at even plies");
        assert!(!order.loss_first(9), "odd plies have their own count");
        order.record(6, 0);
        assert!(!order.loss_first(2), "a draw counts against: one each");
        order.record(8, -3);
        assert!(order.loss_first(0));
        order.record(3, 1);
        order.record(5, -1);
        assert!(!order.loss_first(7), "a tie keeps the win question first");
    }

    /// Against an oracle that answers every question with the weakest fail-soft bound (the
    /// probe itself, or one above it) and charges more for questions near zero, the search
    /// settles on the true score from every achievable score, under both variants, each
    /// question inside the bounds and narrowing them, and asked at the probe nearest zero of
    /// those that ask the same (see [`ScoreSearch::toward_zero`]): below zero, the one just
    /// under an achievable score.
    #[test]
    fn every_score_is_found() {
        for variant in [Variant::Normal, Variant::Misere] {
            for empty in 1..=42u32 {
                let achievable = Achievable::new(empty, variant);
                let span = empty as Score;
                for truth in (-span..=span).filter(|&s| achievable.contains(s)) {
                    let mut search = ScoreSearch::within(empty, variant, -Score::MAX, Score::MAX);
                    let mut questions = 0;
                    while let Some((front, probe)) = search.next() {
                        assert!(search.lower <= probe && probe < search.upper);
                        assert!(probe >= 0 || achievable.contains(probe + 1), "{probe}");
                        let r = if truth > probe { probe + 1 } else { probe };
                        let cost = 1 + (span - probe.abs()) as u64 * 100;
                        search.record(front, probe, r, cost);
                        questions += 1;
                        assert!(questions <= empty + 2, "{variant:?} {empty} {truth}");
                    }
                    assert_eq!(search.settled(), Some(truth), "{variant:?} {empty}");
                }
            }
        }
    }

    /// A search resumed from bounds an earlier one reached (any achievable pair holding the
    /// score, the sign known or not) asks only inside them and settles on the same score.
    #[test]
    fn a_search_resumed_from_known_bounds_settles_within_them() {
        for variant in [Variant::Normal, Variant::Misere] {
            let empty = 17u32;
            let achievable = Achievable::new(empty, variant);
            let span = empty as Score;
            let scores: Vec<Score> = (-span..=span).filter(|&s| achievable.contains(s)).collect();
            for (i, &truth) in scores.iter().enumerate() {
                for &lower in &scores[..=i] {
                    for &upper in &scores[i..] {
                        let mut search = ScoreSearch::within(empty, variant, lower, upper);
                        assert_eq!(search.bounds(), (lower, upper));
                        while let Some((front, probe)) = search.next() {
                            assert!(lower <= probe && probe < upper, "{lower} {probe} {upper}");
                            let r = if truth > probe { probe + 1 } else { probe };
                            search.record(front, probe, r, 1);
                        }
                        assert_eq!(search.settled(), Some(truth), "{variant:?} {lower} {upper}");
                    }
                }
            }
        }
    }
}
