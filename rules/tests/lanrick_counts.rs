//! Exact counts of distinct legal turns from fixed positions (tests/data/lanrick-turns.txt).

mod common;

use common::at;
use muster_rules::Game;

#[test]
fn distinct_turn_counts_match_the_data_file() {
    let data = include_str!("data/lanrick-turns.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (count, position) = line.split_once(' ').expect("<count> <position>");
        let expected: usize = count.parse().expect("a count");
        let game = at(position);
        assert_eq!(game.legal_moves().len(), expected, "{position}");
        checked += 1;
    }
    assert!(checked >= 8, "the data file lists the positions");
}
