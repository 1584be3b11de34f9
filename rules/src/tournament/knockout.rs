//! A knockout on a standard seeded bracket: the bracket's size is the next power of two, seed 1
//! meets the lowest seed, and the seeds are spread so that the top two can meet only in the
//! final, the top four only in the semi-finals, and so on (1 v 16, 8 v 9, 4 v 13, 5 v 12, …).
//! Places beyond the field are byes, which fall to the top seeds.

/// The bracket's slots, top to bottom, as seeds from 0 (seed 1 is 0): consecutive slots meet
/// in the first round. Its length is the next power of two at or above `entrants` (at least 2).
pub fn bracket(entrants: usize) -> Vec<usize> {
    let size = entrants.max(2).next_power_of_two();
    let mut order = vec![0usize];
    while order.len() < size {
        let next = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, next - 1 - s]).collect();
    }
    order
}

/// The first round of a knockout of `entrants`: each slot pair as `(higher seed, lower seed)`,
/// the lower `None` where it is a bye (the higher seed goes through without playing).
pub fn first_round(entrants: usize) -> Vec<(usize, Option<usize>)> {
    bracket(entrants)
        .chunks(2)
        .map(|pair| {
            let (a, b) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            (a, (b < entrants).then_some(b))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_seeds_meet_as_the_standard_bracket_has_it() {
        let games: Vec<(usize, usize)> = first_round(16)
            .into_iter()
            .map(|(a, b)| (a + 1, b.map_or(0, |b| b + 1)))
            .collect();
        assert_eq!(
            games,
            [
                (1, 16),
                (8, 9),
                (4, 13),
                (5, 12),
                (2, 15),
                (7, 10),
                (3, 14),
                (6, 11)
            ]
        );
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        // Six entrants in a bracket of eight: seeds 1 and 2 go through, 3 v 6 and 4 v 5 play.
        let games = first_round(6);
        assert_eq!(games.len(), 4);
        let byes: Vec<usize> = games
            .iter()
            .filter(|g| g.1.is_none())
            .map(|g| g.0)
            .collect();
        assert_eq!(byes, [0, 1]);
        assert!(games.contains(&(2, Some(5))));
        assert!(games.contains(&(3, Some(4))));
    }

    #[test]
    fn the_top_seeds_can_meet_only_in_the_late_rounds() {
        for n in 2..=64 {
            let order = bracket(n);
            let size = order.len();
            assert!(size.is_power_of_two() && size >= n && size < 2 * n.max(2));
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..size).collect::<Vec<_>>(), "every slot once");
            // In every block of the bracket (the part that produces one player of a later
            // round), the best seed there is among the top `size / block` seeds: the top two
            // are in different halves, the top four in different quarters, and so on.
            let mut block = size;
            while block >= 2 {
                for part in order.chunks(block) {
                    let best = *part.iter().min().unwrap();
                    assert!(best < size / block, "n={n}: block {block} led by {best}");
                }
                block /= 2;
            }
            // Byes only against seeds that exist, never two byes together.
            for (a, b) in first_round(n) {
                assert!(a < n);
                if b.is_none() {
                    assert!(a < size - n, "n={n}: a bye for seed {a}");
                }
            }
        }
    }
}
