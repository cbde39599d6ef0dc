//! The statistics the benchmarks report: quantiles of block ratios, and how far their median
//! can be trusted.

use std::fmt;

/// Resamples drawn to bound a median.
const RESAMPLES: usize = 10_000;
/// A fixed seed: the same blocks always give the same interval.
const SEED: u64 = 0x6d72_7472;

/// The value a `fraction` of the way through `values` sorted (the upper middle for a median
/// of an even count).
///
/// # Panics
/// If `values` is empty.
pub fn quantile(values: &[f64], fraction: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * fraction).round() as usize]
}

/// The upper middle of `values`.
///
/// # Panics
/// If `values` is empty.
pub fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

/// A 95% interval for the median of `values` (percentile bootstrap): the median of another
/// run of as many blocks would land inside it 95 times in 100, if the blocks are independent.
///
/// # Panics
/// If `values` is empty.
pub fn median_interval(values: &[f64]) -> [f64; 2] {
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut sample = vec![0.0; values.len()];
    let medians: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            sample.fill_with(|| values[rng.usize(..values.len())]);
            median(&sample)
        })
        .collect();
    [quantile(&medians, 0.025), quantile(&medians, 0.975)]
}

/// How a ratio's interval stands against a limit it must not exceed.
pub fn verdict(interval: [f64; 2], limit: f64) -> &'static str {
    match interval {
        [_, high] if high <= limit => "met",
        [low, _] if low > limit => "not met",
        _ => "not resolved: the interval spans the limit",
    }
}

/// A ratio from blocks: their median, and a 95% interval for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paired {
    pub ratio: f64,
    pub interval: [f64; 2],
}

/// One of the two sides [`Paired::alternating`] times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Base,
    Other,
}

impl Paired {
    /// The median of `ratios` and its interval.
    ///
    /// # Panics
    /// If `ratios` is empty.
    pub fn of(ratios: &[f64]) -> Self {
        Self {
            ratio: median(ratios),
            interval: median_interval(ratios),
        }
    }

    /// `Other`'s time over `Base`'s in `blocks` blocks, `time` timing one side once. Both run
    /// back to back in every block, first one and then the other in turn, so drift in the
    /// machine's speed falls on both.
    pub fn alternating(blocks: usize, mut time: impl FnMut(Side) -> f64) -> Self {
        let ratios: Vec<f64> = (0..blocks)
            .map(|block| match block % 2 {
                0 => {
                    let base = time(Side::Base);
                    time(Side::Other) / base
                }
                _ => {
                    let other = time(Side::Other);
                    other / time(Side::Base)
                }
            })
            .collect();
        Self::of(&ratios)
    }

    /// How the interval stands against `limit` (see [`verdict`]).
    pub fn verdict(&self, limit: f64) -> &'static str {
        verdict(self.interval, limit)
    }
}

impl fmt::Display for Paired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [low, high] = self.interval;
        write!(f, "{:.3} (95% interval {low:.3} to {high:.3})", self.ratio)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_pick_from_the_sorted_values() {
        let values = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(median(&values), 3.0);
        assert_eq!(quantile(&values, 0.0), 1.0);
        assert_eq!(quantile(&values, 0.25), 2.0);
        assert_eq!(quantile(&values, 1.0), 5.0);
        assert_eq!(median(&[1.0, 2.0]), 2.0);
    }

    #[test]
    fn the_interval_holds_the_median_and_narrows_with_more_blocks() {
        // Ratios spread evenly over 0.9..1.1: the median is 1.0.
        let spread = |count: usize| -> Vec<f64> {
            (0..count)
                .map(|i| 0.9 + 0.2 * i as f64 / (count - 1) as f64)
                .collect()
        };
        let [low, high] = median_interval(&spread(25));
        assert!(low < 1.0 && 1.0 < high, "{low} {high}");
        assert!(low > 0.9 && high < 1.1, "{low} {high}");
        let [low_100, high_100] = median_interval(&spread(101));
        assert!(high_100 - low_100 < high - low, "{low_100} {high_100}");
    }

    #[test]
    fn equal_blocks_leave_no_doubt() {
        assert_eq!(median_interval(&[1.02; 9]), [1.02, 1.02]);
        assert_eq!(median_interval(&[0.7]), [0.7, 0.7]);
    }

    #[test]
    fn the_same_blocks_give_the_same_interval() {
        let values = [0.97, 1.01, 1.04, 0.99, 1.0, 1.03, 0.98];
        assert_eq!(median_interval(&values), median_interval(&values));
    }

    #[test]
    fn verdicts_need_the_whole_interval_on_one_side() {
        assert_eq!(verdict([0.97, 0.995], 1.0), "met");
        assert_eq!(verdict([0.97, 1.0], 1.0), "met");
        assert_eq!(verdict([1.001, 1.02], 1.0), "not met");
        assert_eq!(
            verdict([0.99, 1.01], 1.0),
            "not resolved: the interval spans the limit"
        );
    }

    #[test]
    fn alternating_blocks_swap_the_order_and_divide_other_by_base() {
        let mut order = Vec::new();
        let paired = Paired::alternating(3, |side| {
            order.push(side);
            match side {
                Side::Base => 2.0,
                Side::Other => 3.0,
            }
        });
        use Side::{Base, Other};
        assert_eq!(order, [Base, Other, Other, Base, Base, Other]);
        assert_eq!(
            paired,
            Paired {
                ratio: 1.5,
                interval: [1.5, 1.5]
            }
        );
        assert_eq!(paired.to_string(), "1.500 (95% interval 1.500 to 1.500)");
        assert_eq!(paired.verdict(1.2), "not met");
    }
}
