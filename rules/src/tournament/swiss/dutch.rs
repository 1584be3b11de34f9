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

    /// Pairs the round: a first matching settles the bye (C.4), then the brackets are paired
    /// from the top score down, each in the phases the module's doc describes. `None`: no
    /// pairing keeps the absolute criteria.
    fn run(mut self) -> Option<Games> {
        let n = self.p.len();
        let odd = n % 2 == 1;
        let mut g = Graph::<W>::new(n);
        if odd {
            self.weigh_round(&mut g, |a, b| self.bye_weight(a, b));
        } else {
            self.weigh_round(&mut g, |a, b| self.weight(b, a, false, false));
        }
        let mate = g.solve();
        // C.4: everybody paired but at most one, who may have the bye.
        let left: Vec<usize> = (0..n).filter(|v| mate[*v].is_none()).collect();
        if left.len() > 1 || left.iter().any(|v| !self.p[*v].bye_eligible) {
            return None;
        }
        let top = self.p[0].score;
        if let Some(&bye) = left.first() {
            self.settle_bye(bye, &mate);
            self.weigh_round(&mut g, |a, b| self.weight(b, a, false, false));
        }
        let mut m = Matching {
            g,
            mate,
            matched: vec![false; n],
            paired: vec![None; n],
        };
        let mut carry: Vec<usize> = (0..n).take_while(|v| self.p[*v].score >= top).collect();
        let mut pos = carry.len();
        let mut mdps = 0;
        let mut group_begin = 0;
        while carry.len() > 1 || pos < n {
            let mut b = self.open_bracket(&mut m, carry, mdps, group_begin, &mut pos);
            self.choose_mdps(&b, &mut m);
            self.pair_mdps(&b, &mut m)?;
            let rem = b.remainder(&m);
            self.exchange(&mut b, &mut m, &rem);
            self.transpose(&b, &mut m, &rem)?;
            let (rest, floaters) = self.float_down(&b, &mut m, odd)?;
            // Nothing paired and nothing left to add: the round cannot be completed.
            if rest.len() == b.end && pos == b.next_begin {
                return None;
            }
            carry = rest;
            mdps = floaters;
            group_begin = b.group_end;
        }
        games(&m.paired, odd)
    }

    /// Sets every edge of the round's graph to `weight(a, b)`, for `b` ranked above `a`.
    fn weigh_round(&self, g: &mut Graph<W>, weight: impl Fn(usize, usize) -> W) {
        for a in 0..self.p.len() {
            for b in 0..a {
                g.set(a, b, weight(a, b));
            }
        }
    }

    /// With `bye` the one the first matching left over: the bye's score, whether its player is
    /// the only one left of his bracket, and the ranks of the games played at that score (C.9).
    fn settle_bye(&mut self, bye: usize, mate: &[Option<usize>]) {
        let n = self.p.len();
        let top = self.p[0].score;
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
    }

    /// The next bracket: `v`, the players carried over (the first `mdps` of them MDPs, the
    /// rest the score group's residents), then the next group's players (from `pos` on, which
    /// is moved past them); its edges weighed and the matching solved anew.
    fn open_bracket(
        &self,
        m: &mut Matching<W>,
        mut v: Vec<usize>,
        mdps: usize,
        group_begin: usize,
        pos: &mut usize,
    ) -> Bracket<W> {
        let n = self.p.len();
        let end = v.len();
        let next_begin = *pos;
        while *pos < n && self.p[*pos].score >= self.p[next_begin].score {
            v.push(*pos);
            *pos += 1;
        }
        let len = v.len();
        let mut base: Base<W> = vec![vec![W::ZERO; len]; len];
        for l in mdps..len {
            for s in 0..l {
                let w = self.weight(v[s], v[l], l < end, l >= end);
                base[l][s] = w;
                m.g.set(v[l], v[s], w);
            }
        }
        m.solve();
        Bracket {
            v,
            mdps,
            end,
            group_begin,
            group_end: group_begin + (end - mdps),
            next_begin,
            base,
        }
    }

    /// C.6: which MDPs are paired in the bracket, the highest scores first (they are marked
    /// `matched`, and their edges to the residents raised to keep them paired).
    fn choose_mdps(&self, b: &Bracket<W>, m: &mut Matching<W>) {
        let (mdps, end) = (b.mdps, b.end);
        let (mut score, mut remaining, mut pairable) = (0, 0usize, 0usize);
        for i in 0..mdps {
            let v = b.v[i];
            if i == 0 || self.p[v].score < score {
                score = self.p[v].score;
                remaining = 0;
                pairable = 0;
                for &u in b.v[i..].iter().take_while(|u| self.p[**u].score >= score) {
                    remaining += 1;
                    pairable += usize::from(b.in_group(m.mate[u]));
                }
            }
            if pairable == 0 {
                continue;
            }
            if remaining <= pairable {
                m.matched[v] = true;
                continue;
            }
            remaining -= 1;
            if !b.in_group(m.mate[v]) {
                for o in mdps..end {
                    if b.base[o][i] != W::ZERO {
                        m.g.set(v, b.v[o], b.base[o][i] + W::ONE);
                    }
                }
                m.solve();
            }
            if b.in_group(m.mate[v]) {
                m.matched[v] = true;
                pairable -= 1;
                let add = W::small((end - mdps) as u64 + 1);
                for o in mdps..end {
                    if b.base[o][i] != W::ZERO {
                        m.g.set(v, b.v[o], b.base[o][i] + add);
                    }
                }
            }
        }
    }

    /// Each paired MDP meets the first resident, in order, that keeps the best pairing.
    /// `None`: the matching left one of them unpaired.
    fn pair_mdps(&self, b: &Bracket<W>, m: &mut Matching<W>) -> Option<()> {
        for i in 0..b.mdps {
            let v = b.v[i];
            if !m.matched[v] {
                continue;
            }
            let mut add = b.v.len() as u64;
            for o in (b.mdps..b.end).rev() {
                let u = b.v[o];
                if !m.matched[u] && b.base[o][i] != W::ZERO {
                    m.g.set(v, u, b.base[o][i] + W::small(add));
                    add += 1;
                }
            }
            m.solve();
            let x = m.mate[v]?;
            m.matched[x] = true;
            m.g.fix(v, x);
        }
        Some(())
    }

    /// Section D: as few exchanges as possible, then the smallest differences of the
    /// exchanged players' numbers; which players leave S1 and which join it, and then S1 and
    /// S2 as decided (S1 players meet only later S2 players).
    fn exchange(&self, b: &mut Bracket<W>, m: &mut Matching<W>, rem: &Remainder) {
        let places = &rem.places;
        for (oi, &o) in places.iter().enumerate() {
            for (si, &s) in places[..oi].iter().enumerate() {
                m.g.set(b.v[s], b.v[o], self.exchanged(&b.base, rem, s, o, si));
            }
        }
        m.solve();
        let exchanges = places[..rem.pairs]
            .iter()
            .filter(|s| !b.in_s1(&m.mate, b.v[**s]))
            .count();
        self.leave_s1(b, m, rem, exchanges);
        self.join_s1(b, m, rem, exchanges);
        for (pi, &s) in places.iter().enumerate() {
            let v = b.v[s];
            for &o in &places[pi + 1..] {
                let u = b.v[o];
                if !b.in_s1(&m.mate, v) || b.in_s1(&m.mate, u) {
                    b.base[o][s] = W::ZERO;
                }
                m.g.set(v, u, b.base[o][s]);
            }
        }
    }

    /// The weight of the remainder's `s` meeting its `l`, with `s` at `place` in it: the
    /// bracket's weight, raised for `s` staying in S1 and the more the nearer it is to the
    /// boundary (section D).
    fn exchanged(&self, base: &Base<W>, rem: &Remainder, s: usize, l: usize, place: usize) -> W {
        let w = base[l][s];
        if w == W::ZERO {
            return w;
        }
        let add = (W::small(u64::from(place < rem.pairs)).shl(2 * self.layout.group)
            - W::small(place as u64))
        .shl(1);
        w + add
    }

    /// Which of S1, from its last, leave it: `exchanges` of them, each the last that can.
    fn leave_s1(&self, b: &mut Bracket<W>, m: &mut Matching<W>, rem: &Remainder, exchanges: usize) {
        let places = &rem.places;
        let mut left = exchanges;
        let mut k = rem.pairs;
        while k > 0 && left > 0 {
            k -= 1;
            let (s, v) = (places[k], b.v[places[k]]);
            if b.in_s1(&m.mate, v) {
                for &o in &places[k + 1..] {
                    let w = self.exchanged(&b.base, rem, s, o, k);
                    if w != W::ZERO {
                        m.g.set(v, b.v[o], w - W::ONE);
                    }
                }
                m.solve();
            }
            let exchange = !b.in_s1(&m.mate, v);
            left -= usize::from(exchange);
            for &o in &places[k + 1..] {
                if exchange {
                    b.base[o][s] = W::ZERO;
                }
                m.g.set(v, b.v[o], self.exchanged(&b.base, rem, s, o, k));
            }
        }
    }

    /// Which of S2, from its first, join S1: each the first that can, while more than one
    /// exchange is left to decide.
    fn join_s1(&self, b: &mut Bracket<W>, m: &mut Matching<W>, rem: &Remainder, exchanges: usize) {
        let places = &rem.places;
        let mut left = exchanges;
        for k in rem.pairs..places.len() {
            if left <= 1 {
                break;
            }
            let (s, v) = (places[k], b.v[places[k]]);
            let already = b.in_s1(&m.mate, v);
            if !already {
                for &o in &places[k + 1..] {
                    let w = self.exchanged(&b.base, rem, s, o, k);
                    if w != W::ZERO {
                        m.g.set(v, b.v[o], w + W::ONE);
                    }
                }
                m.solve();
            }
            if b.in_s1(&m.mate, v) {
                left -= 1;
                for &o in &places[..k] {
                    b.base[s][o] = W::ZERO;
                    m.g.set(v, b.v[o], W::ZERO);
                }
                for o in b.end..b.v.len() {
                    b.base[o][s] = W::ZERO;
                    m.g.set(v, b.v[o], W::ZERO);
                }
            }
            if !already {
                for &o in &places[k + 1..] {
                    m.g.set(v, b.v[o], self.exchanged(&b.base, rem, s, o, k));
                }
            }
        }
    }

    /// D.1: each S1 player, in order, meets the first of S2 that keeps the best pairing.
    /// `None`: the matching left one of them unpaired.
    fn transpose(&self, b: &Bracket<W>, m: &mut Matching<W>, rem: &Remainder) -> Option<()> {
        for &s in &rem.places {
            let v = b.v[s];
            if !b.in_s1(&m.mate, v) {
                continue;
            }
            let mut add = 0u64;
            for &o in rem.places.iter().rev() {
                let u = b.v[o];
                if o <= s || m.matched[u] {
                    continue;
                }
                if b.base[o][s] != W::ZERO {
                    m.g.set(v, u, b.base[o][s] + W::small(add));
                }
                add += 1;
            }
            m.solve();
            let x = m.mate[v]?;
            m.matched[v] = true;
            m.matched[x] = true;
            m.g.fix(v, x);
        }
        Some(())
    }

    /// The bracket's decided pairs recorded in `paired`; the unpaired float down into the next
    /// bracket: they are returned, with how many of them are MDPs there (the bracket's own).
    /// Notes whether the bye's player is then the only one left of his bracket (C.9).
    fn float_down(
        &mut self,
        b: &Bracket<W>,
        m: &mut Matching<W>,
        odd: bool,
    ) -> Option<(Vec<usize>, usize)> {
        let next_score = self.p.get(b.next_begin).map(|p| p.score);
        let mut single = odd && next_score.is_some_and(|s| self.bye_score >= s);
        let mut rest = Vec::new();
        let mut mdps = 0;
        for (idx, &v) in b.v.iter().enumerate() {
            if idx < b.end && m.matched[v] {
                let x = m.mate[v]?;
                m.paired[v] = Some(x);
                m.paired[x] = Some(v);
            } else {
                rest.push(v);
                mdps += usize::from(idx < b.end);
                if single && next_score.is_some_and(|s| self.p[m.mate[v].unwrap_or(v)].score < s) {
                    single = false;
                }
            }
        }
        self.single = single;
        Some((rest, mdps))
    }
}

/// The round's games from each player's opponent: `None` if anyone is left without one but the
/// bye of an odd field.
fn games(paired: &[Option<usize>], odd: bool) -> Option<Games> {
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

/// The matching as the round is paired: the graph, its latest solution, and what is decided.
struct Matching<W> {
    g: Graph<W>,
    /// Each player's opponent in the latest matching.
    mate: Vec<Option<usize>>,
    /// Whether a player's pair in the bracket being paired is decided (then fixed in `g`).
    matched: Vec<bool>,
    /// Each player's opponent, once his bracket is paired.
    paired: Vec<Option<usize>>,
}

impl<W: Wide> Matching<W> {
    /// Solves the matching anew.
    fn solve(&mut self) {
        self.mate = self.g.solve();
    }
}

/// One bracket being paired, its players as indices in the pairing order.
struct Bracket<W> {
    /// The MDPs (`..mdps`), the residents (`mdps..end`), then the next score group's players
    /// (`end..`, the look-ahead of C.7).
    v: Vec<usize>,
    mdps: usize,
    end: usize,
    /// The residents' score group, as indices in the pairing order.
    group_begin: usize,
    group_end: usize,
    /// Where the next score group begins in the pairing order.
    next_begin: usize,
    /// The edges' weights within the bracket, by place in `v` (the lower place second).
    base: Base<W>,
}

impl<W: Wide> Bracket<W> {
    /// Whether a player matched with `m` is matched with one of the score group's residents.
    fn in_group(&self, m: Option<usize>) -> bool {
        m.is_some_and(|x| x >= self.group_begin && x < self.group_end)
    }

    /// Whether `v` is in S1 in the matching `mate`: matched with a later resident.
    fn in_s1(&self, mate: &[Option<usize>], v: usize) -> bool {
        matches!(mate[v], Some(x) if x > v && x < self.group_end)
    }

    /// The remainder: the residents not paired with an MDP, in order.
    fn remainder(&self, m: &Matching<W>) -> Remainder {
        let mut places = Vec::new();
        let mut pairs = 0;
        for (idx, &v) in self.v.iter().enumerate().take(self.end).skip(self.mdps) {
            if m.mate[v].is_some_and(|x| x < self.group_begin) {
                continue;
            }
            places.push(idx);
            pairs += usize::from(m.mate[v].is_some_and(|x| x < v));
        }
        Remainder { places, pairs }
    }
}

/// A bracket's remainder: the residents not paired with an MDP, as places in the bracket, in
/// order; its first `pairs` are S1.
struct Remainder {
    places: Vec<usize>,
    pairs: usize,
}
