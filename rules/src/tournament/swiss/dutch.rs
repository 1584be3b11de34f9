//! The Dutch system's pairing of one round (FIDE Handbook C.04.3), bracket by bracket.
//!
//! The round is a graph: one vertex a player, an edge between two who may meet (C.1, C.3),
//! weighted so that a matching of greatest weight keeps the completion criterion (C.4: the
//! rest of the round can still be paired, the bye to someone who may have it) and then the
//! quality criteria in their order (C.5–C.19, see [`Dutch::weight`]). The brackets are paired
//! from the top score down. In each, the matching first decides which moved-down players
//! (MDPs) are paired and with whom, then which residents are exchanged between the halves S1
//! and S2 (as few, and as near the boundary, as possible: section D), and last which S2 player
//! each S1 player meets — the first in S2's order that still allows a best pairing (the
//! transpositions of D.1). Every pair decided is fixed for the rest of the round, and the
//! players of the bracket left unpaired float down into the next.

use super::super::Field;
use super::players::{Float, Player};
use super::weight::{Big, Graph, Wide, bit, bits};

/// The players of `field`'s next round by pairing order (score, then pairing number), and
/// the games between them as pairs of indices in that order, with the index of the player
/// who has the bye. `None`: no pairing keeps the absolute criteria. With `colours` false the
/// absolute colour criterion (C.3) is left out.
pub(super) fn pair(
    field: &Field,
    mut players: Vec<Player>,
    colours: bool,
) -> Option<(Vec<Player>, Games)> {
    players.sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    let n = players.len();
    if n < 2 {
        return None;
    }
    let layout = Layout::of(&players, field.rounds.len());
    // The sum of a round's weights, with room for the matching's own arithmetic.
    let need = layout.width + bits(n) + 8;
    let (pairs, bye) = match need {
        0..=126 => Dutch::<i128>::new(field, &players, colours, layout).run()?,
        127..=254 => Dutch::<Big<4>>::new(field, &players, colours, layout).run()?,
        255..=510 => Dutch::<Big<8>>::new(field, &players, colours, layout).run()?,
        511..=1022 => Dutch::<Big<16>>::new(field, &players, colours, layout).run()?,
        _ => Dutch::<Big<64>>::new(field, &players, colours, layout).run()?,
    };
    Some((players, (pairs, bye)))
}

/// The games of a round as pairs of indices in the pairing order, and the index of the player
/// who has the bye.
pub(super) type Games = (Vec<(usize, usize)>, Option<usize>);

/// The widths of the weights' fields.
#[derive(Clone, Debug)]
struct Layout {
    /// Bits that hold the size of the largest score group.
    group: u32,
    /// One field a score group, each as wide as its size needs: a score's place in them.
    shift: Vec<u32>,
    /// The width of those fields together.
    scores: u32,
    /// The whole weight's width.
    width: u32,
    /// Rounds played.
    rounds: usize,
}

impl Layout {
    fn of(players: &[Player], rounds: usize) -> Layout {
        let top = players.iter().map(|p| p.score).max().unwrap_or(0) as usize;
        let mut shift = vec![0; top + 1];
        let mut size = vec![0usize; top + 1];
        for p in players {
            size[p.score as usize] += 1;
        }
        let mut scores = 0;
        for (score, &s) in size.iter().enumerate() {
            if s > 0 {
                shift[score] = scores;
                scores += bits(s);
            }
        }
        let group = bits(size.iter().copied().max().unwrap_or(1));
        let back = rounds.min(2) as u32;
        let width = 2
            + 2 * (group + scores)
            + 2 * group
            + 4 * group
            + back * 2 * (group + scores)
            + 3 * group
            + 1;
        Layout {
            group,
            shift,
            scores,
            width,
            rounds,
        }
    }
}

struct Dutch<'a, W> {
    field: &'a Field,
    p: &'a [Player],
    /// Met over the board, by index.
    met: Vec<Vec<bool>>,
    colours: bool,
    layout: Layout,
    /// The score of the player who will have the bye (an odd field).
    bye_score: u32,
    /// Whether the bye's player is the only one left of his bracket (then C.9, the fewest
    /// unplayed games for him, is weighed).
    single: bool,
    /// By games played, a rank that is higher for fewer games (C.9).
    unplayed_rank: Vec<u64>,
    _weight: std::marker::PhantomData<W>,
}

/// An edge's weight within the bracket, and the place of one player of the remainder.
type Base<W> = Vec<Vec<W>>;

impl<'a, W: Wide> Dutch<'a, W> {
    fn new(field: &'a Field, p: &'a [Player], colours: bool, layout: Layout) -> Self {
        let n = p.len();
        let index: Vec<Option<usize>> = {
            let mut index = vec![None; field.entrants()];
            for (i, x) in p.iter().enumerate() {
                index[x.id] = Some(i);
            }
            index
        };
        let mut met = vec![vec![false; n]; n];
        for round in &field.rounds {
            for (e, entry) in round.iter().enumerate() {
                if let (Some(a), Some((o, _))) = (index.get(e).copied().flatten(), entry.played())
                    && let Some(b) = index.get(o).copied().flatten()
                {
                    met[a][b] = true;
                    met[b][a] = true;
                }
            }
        }
        Dutch {
            field,
            p,
            met,
            colours,
            layout,
            bye_score: 0,
            single: false,
            unplayed_rank: Vec::new(),
            _weight: std::marker::PhantomData,
        }
    }

    /// Whether `a` and `b` may meet: C.1 (not met over the board) and C.3 (not the same
    /// absolute colour preference, unless one is a topscorer in the last round).
    fn compatible(&self, a: usize, b: usize) -> bool {
        if self.met[a][b] {
            return false;
        }
        let (x, y) = (&self.p[a], &self.p[b]);
        let last = self.field.rounds.len() + 1 >= self.field.total_rounds;
        let top = |p: &Player| p.score > self.field.rounds.len() as u32;
        !self.colours
            || !x.absolute()
            || !y.absolute()
            || x.preference != y.preference
            || (last && (top(x) || top(y)))
    }

    /// Whether `v` may be the one left for the bye (C.2), at the bye's score.
    fn bye_candidate(&self, v: usize) -> bool {
        self.p[v].bye_eligible && self.p[v].score <= self.bye_score
    }

    fn shift(&self, v: usize) -> u32 {
        self.layout.shift[self.p[v].score as usize]
    }

    /// The weight of `h` (ranked higher) meeting `l`, with `l` in the bracket being paired
    /// (`current`) or in the next one (`next`). Fields, most important first:
    /// - compatibility and completion (C.1–C.4, the bye to a candidate);
    /// - pairs in this bracket, and the scores paired in it (C.5, C.6: as many MDPs as
    ///   possible, the highest first);
    /// - the same for the next bracket (C.7, the look-ahead);
    /// - fewest unplayed games for the bye's player when he is his bracket's only one left
    ///   (C.9);
    /// - colours: absolute imbalances, absolute preferences, preferences, strong preferences
    ///   (C.10–C.13);
    /// - floats: downfloaters and upfloaters of the last round, then of the round before, by
    ///   number and then by score (C.14–C.21);
    /// - room for the choices of exchanges and transpositions (section D).
    fn weight(&self, h: usize, l: usize, current: bool, next: bool) -> W {
        if !self.compatible(h, l) {
            return W::ZERO;
        }
        let Layout {
            group,
            scores,
            rounds,
            ..
        } = self.layout;
        let (ph, pl) = (&self.p[h], &self.p[l]);
        let n = |b: bool| W::small(u64::from(b));
        let mut acc =
            W::small(1 + u64::from(!self.bye_candidate(h)) + u64::from(!self.bye_candidate(l)));
        acc = acc.shl(group) + n(current);
        acc = acc.shl(scores) + if current { bit(self.shift(h)) } else { W::ZERO };
        acc = acc.shl(group) + n(next);
        acc = acc.shl(scores) + if next { bit(self.shift(h)) } else { W::ZERO };
        acc = acc.shl(2 * group);
        if self.single {
            for x in [ph, pl] {
                if x.score == self.bye_score {
                    acc += W::small(self.unplayed_rank[x.played]);
                }
            }
        }
        let same = pl.preference == ph.preference;
        let absolute_imbalances = !pl.absolute_imbalance() || !ph.absolute_imbalance() || !same;
        let absolute = !pl.absolute()
            || !ph.absolute()
            || !same
            || if pl.imbalance == ph.imbalance {
                pl.repeated.is_none() || pl.repeated != ph.repeated
            } else {
                let smaller = if pl.imbalance > ph.imbalance { ph } else { pl };
                smaller.repeated != pl.preference.map(|c| !c)
            };
        let preferences = !same || pl.preference.is_none() || ph.preference.is_none();
        let strong = (!pl.strong && !pl.absolute())
            || (!ph.strong && !ph.absolute())
            || (pl.absolute() && ph.absolute())
            || !same;
        for c in [absolute_imbalances, absolute, preferences, strong] {
            acc = acc.shl(group) + n(current && c);
        }
        let down = |x: &Player, back| x.float(back) == Float::Down;
        let up_now = |back| ph.score > pl.score && pl.float(back) == Float::Up;
        for back in 1..=rounds.min(2) {
            acc = acc.shl(group);
            if current {
                acc += n(down(pl, back)) + n(ph.score <= pl.score && down(ph, back));
            }
            acc = acc.shl(group) + n(current && !up_now(back));
        }
        for back in 1..=rounds.min(2) {
            acc = acc.shl(scores);
            if current {
                if down(pl, back) {
                    acc += bit(self.shift(l));
                }
                if down(ph, back) {
                    acc += bit(self.shift(h));
                }
            }
            acc = acc.shl(scores);
            if current && !up_now(back) {
                acc += bit(self.shift(h));
            }
        }
        acc.shl(3 * group + 1)
    }

    /// The weight the first matching uses in an odd field to find the bye's score: the
    /// completion, then the lowest score left over.
    fn bye_weight(&self, a: usize, b: usize) -> W {
        if !self.compatible(a, b) {
            return W::ZERO;
        }
        let Layout { group, scores, .. } = self.layout;
        let (pa, pb) = (&self.p[a], &self.p[b]);
        let acc = W::small(1 + u64::from(!pa.bye_eligible) + u64::from(!pb.bye_eligible));
        let acc = acc.shl(scores) + W::small(u64::from(self.shift(a) + self.shift(b)));
        acc.shl(group) + W::small(u64::from(pa.score >= self.p[0].score))
    }

    fn run(mut self) -> Option<Games> {
        let n = self.p.len();
        let odd = n % 2 == 1;
        let mut g = Graph::<W>::new(n);
        for a in 0..n {
            for b in 0..a {
                let w = if odd {
                    self.bye_weight(a, b)
                } else {
                    self.weight(b, a, false, false)
                };
                g.set(a, b, w);
            }
        }
        let mut mate = g.solve();
        // C.4: everybody paired but at most one, who may have the bye.
        let left: Vec<usize> = (0..n).filter(|v| mate[*v].is_none()).collect();
        if left.len() > 1 || left.iter().any(|v| !self.p[*v].bye_eligible) {
            return None;
        }
        let top = self.p[0].score;
        if let Some(&bye) = left.first() {
            self.bye_score = self.p[bye].score;
            self.single = self.bye_score >= top
                && (0..n)
                    .take_while(|v| self.p[*v].score >= top)
                    .all(|v| mate[v].is_none_or(|m| self.p[m].score >= top));
            let mut played: Vec<usize> = (0..n)
                .filter(|v| self.p[*v].score == self.bye_score)
                .map(|v| self.p[v].played)
                .collect();
            played.sort_by(|a, b| b.cmp(a));
            self.unplayed_rank = vec![0; self.field.rounds.len() + 1];
            for (rank, games) in played.into_iter().enumerate() {
                self.unplayed_rank[games] = rank as u64;
            }
            for a in 0..n {
                for b in 0..a {
                    g.set(a, b, self.weight(b, a, false, false));
                }
            }
        }
        let mut paired: Vec<Option<usize>> = vec![None; n];
        let mut matched = vec![false; n];
        let mut bracket: Vec<usize> = (0..n).take_while(|v| self.p[*v].score >= top).collect();
        let mut pos = bracket.len();
        let mut mdps = 0;
        let mut group_begin = 0;
        while bracket.len() > 1 || pos < n {
            let end = bracket.len();
            let group_end = group_begin + (end - mdps);
            let next_begin = pos;
            while pos < n && self.p[pos].score >= self.p[next_begin].score {
                bracket.push(pos);
                pos += 1;
            }
            let len = bracket.len();
            let mut base: Base<W> = vec![vec![W::ZERO; len]; len];
            for l in mdps..len {
                for s in 0..l {
                    let w = self.weight(bracket[s], bracket[l], l < end, l >= end);
                    base[l][s] = w;
                    g.set(bracket[l], bracket[s], w);
                }
            }
            mate = g.solve();
            let in_group = |m: Option<usize>| m.is_some_and(|x| x >= group_begin && x < group_end);
            let in_s1 = |mate: &[Option<usize>], v: usize| matches!(mate[v], Some(x) if x > v && x < group_end);

            // C.6: which MDPs are paired here, the highest scores first.
            let (mut score, mut remaining, mut pairable) = (0, 0usize, 0usize);
            for i in 0..mdps {
                let v = bracket[i];
                if i == 0 || self.p[v].score < score {
                    score = self.p[v].score;
                    remaining = 0;
                    pairable = 0;
                    for &u in bracket[i..]
                        .iter()
                        .take_while(|u| self.p[**u].score >= score)
                    {
                        remaining += 1;
                        pairable += usize::from(in_group(mate[u]));
                    }
                }
                if pairable == 0 {
                    continue;
                }
                if remaining <= pairable {
                    matched[v] = true;
                    continue;
                }
                remaining -= 1;
                if !in_group(mate[v]) {
                    for o in mdps..end {
                        if base[o][i] != W::ZERO {
                            g.set(v, bracket[o], base[o][i] + W::ONE);
                        }
                    }
                    mate = g.solve();
                }
                if in_group(mate[v]) {
                    matched[v] = true;
                    pairable -= 1;
                    let add = W::small((end - mdps) as u64 + 1);
                    for o in mdps..end {
                        if base[o][i] != W::ZERO {
                            g.set(v, bracket[o], base[o][i] + add);
                        }
                    }
                }
            }
            // Each paired MDP meets the first resident, in order, that keeps the best pairing.
            for i in 0..mdps {
                let v = bracket[i];
                if !matched[v] {
                    continue;
                }
                let mut add = len as u64;
                for o in (mdps..end).rev() {
                    let u = bracket[o];
                    if !matched[u] && base[o][i] != W::ZERO {
                        g.set(v, u, base[o][i] + W::small(add));
                        add += 1;
                    }
                }
                mate = g.solve();
                let m = mate[v]?;
                matched[m] = true;
                g.fix(v, m);
            }

            // The remainder: residents not paired with an MDP, in order; its first `pairs`
            // are S1.
            let mut rem = Vec::new();
            let mut pairs = 0;
            for (idx, &v) in bracket.iter().enumerate().take(end).skip(mdps) {
                if mate[v].is_some_and(|x| x < group_begin) {
                    continue;
                }
                rem.push(idx);
                pairs += usize::from(mate[v].is_some_and(|x| x < v));
            }
            // Section D: as few exchanges as possible, then the smallest differences of the
            // exchanged players' numbers.
            let exchanged = |base: &Base<W>, s: usize, l: usize, place: usize| -> W {
                let w = base[l][s];
                if w == W::ZERO {
                    return w;
                }
                let add = (W::small(u64::from(place < pairs)).shl(2 * self.layout.group)
                    - W::small(place as u64))
                .shl(1);
                w + add
            };
            for (oi, &o) in rem.iter().enumerate() {
                for (si, &s) in rem[..oi].iter().enumerate() {
                    g.set(bracket[s], bracket[o], exchanged(&base, s, o, si));
                }
            }
            mate = g.solve();
            let exchanges = rem[..pairs]
                .iter()
                .filter(|s| !in_s1(&mate, bracket[**s]))
                .count();
            // Which of S1, from its last, leave it.
            let mut left = exchanges;
            let mut k = pairs;
            while k > 0 && left > 0 {
                k -= 1;
                let (s, v) = (rem[k], bracket[rem[k]]);
                if in_s1(&mate, v) {
                    for &o in &rem[k + 1..] {
                        let w = exchanged(&base, s, o, k);
                        if w != W::ZERO {
                            g.set(v, bracket[o], w - W::ONE);
                        }
                    }
                    mate = g.solve();
                }
                let exchange = !in_s1(&mate, v);
                left -= usize::from(exchange);
                for &o in &rem[k + 1..] {
                    if exchange {
                        base[o][s] = W::ZERO;
                    }
                    g.set(v, bracket[o], exchanged(&base, s, o, k));
                }
            }
            // Which of S2, from its first, join S1.
            let mut left = exchanges;
            for k in pairs..rem.len() {
                if left <= 1 {
                    break;
                }
                let (s, v) = (rem[k], bracket[rem[k]]);
                let already = in_s1(&mate, v);
                if !already {
                    for &o in &rem[k + 1..] {
                        let w = exchanged(&base, s, o, k);
                        if w != W::ZERO {
                            g.set(v, bracket[o], w + W::ONE);
                        }
                    }
                    mate = g.solve();
                }
                if in_s1(&mate, v) {
                    left -= 1;
                    for &o in &rem[..k] {
                        base[s][o] = W::ZERO;
                        g.set(v, bracket[o], W::ZERO);
                    }
                    for o in end..len {
                        base[o][s] = W::ZERO;
                        g.set(v, bracket[o], W::ZERO);
                    }
                }
                if !already {
                    for &o in &rem[k + 1..] {
                        g.set(v, bracket[o], exchanged(&base, s, o, k));
                    }
                }
            }
            // S1 and S2 as decided: S1 players meet only later S2 players.
            for (pi, &s) in rem.iter().enumerate() {
                let v = bracket[s];
                for &o in &rem[pi + 1..] {
                    let u = bracket[o];
                    if !in_s1(&mate, v) || in_s1(&mate, u) {
                        base[o][s] = W::ZERO;
                    }
                    g.set(v, u, base[o][s]);
                }
            }
            // D.1: each S1 player, in order, meets the first of S2 that keeps the best pairing.
            for &s in &rem {
                let v = bracket[s];
                if !in_s1(&mate, v) {
                    continue;
                }
                let mut add = 0u64;
                for &o in rem.iter().rev() {
                    let u = bracket[o];
                    if o <= s || matched[u] {
                        continue;
                    }
                    if base[o][s] != W::ZERO {
                        g.set(v, u, base[o][s] + W::small(add));
                    }
                    add += 1;
                }
                mate = g.solve();
                let m = mate[v]?;
                matched[v] = true;
                matched[m] = true;
                g.fix(v, m);
            }

            // The unpaired float down into the next bracket.
            let next_score = self.p.get(next_begin).map(|p| p.score);
            let mut single = odd && next_score.is_some_and(|s| self.bye_score >= s);
            let mut rest = Vec::new();
            mdps = 0;
            for (idx, &v) in bracket.iter().enumerate() {
                if idx < end && matched[v] {
                    let m = mate[v]?;
                    paired[v] = Some(m);
                    paired[m] = Some(v);
                } else {
                    rest.push(v);
                    mdps += usize::from(idx < end);
                    if single && next_score.is_some_and(|s| self.p[mate[v].unwrap_or(v)].score < s)
                    {
                        single = false;
                    }
                }
            }
            self.single = single;
            // Nothing paired and nothing left to add: the round cannot be completed.
            if rest.len() == end && pos == next_begin {
                return None;
            }
            bracket = rest;
            group_begin = group_end;
        }
        let mut games = Vec::new();
        let mut bye = None;
        for (v, m) in paired.iter().enumerate() {
            match *m {
                Some(m) if v < m => games.push((v, m)),
                Some(_) => {}
                None if bye.is_none() && odd => bye = Some(v),
                None => return None,
            }
        }
        Some((games, bye))
    }
}
