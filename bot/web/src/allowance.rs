//! How many of something — connections, live streams — each address and everyone together may
//! hold at once. An IPv6 client owns a whole /64 (one home or machine is given one), so its
//! addresses are counted as one; an IPv4 address given as IPv6 (`::ffff:a.b.c.d`) is that IPv4
//! address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};

/// The address under which `ip` is counted: itself for IPv4, its /64 for IPv6.
pub fn counted_as(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
    }
}

/// An allowance: at most `per_address` for each address, at most `overall` in all.
pub struct Allowance {
    per_address: usize,
    overall: usize,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    by_address: HashMap<IpAddr, usize>,
    all: usize,
}

/// One place of an allowance, held until dropped.
pub struct Place {
    allowance: Arc<Allowance>,
    address: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = self.allowance.lock();
        held.all = held.all.saturating_sub(1);
        if let Some(n) = held.by_address.get_mut(&self.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.by_address.remove(&self.address);
            }
        }
    }
}

/// Why no place was given.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Full {
    /// The address holds all it may.
    Address,
    /// Everyone together holds all there is.
    Overall,
}

impl Allowance {
    /// Nothing held yet.
    pub fn new(per_address: usize, overall: usize) -> Arc<Allowance> {
        Arc::new(Allowance {
            per_address,
            overall,
            held: Mutex::default(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for `ip`, unless its address or everyone holds all allowed.
    pub fn take(self: &Arc<Self>, ip: IpAddr) -> Result<Place, Full> {
        let address = counted_as(ip);
        let mut held = self.lock();
        if held.all >= self.overall {
            return Err(Full::Overall);
        }
        let n = held.by_address.entry(address).or_insert(0);
        if *n >= self.per_address {
            return Err(Full::Address);
        }
        *n += 1;
        held.all += 1;
        Ok(Place {
            allowance: Arc::clone(self),
            address,
        })
    }

    /// How many places are held, in all.
    pub fn held(&self) -> usize {
        self.lock().all
    }

    /// How many each address may hold, and everyone together.
    pub fn limits(&self) -> (usize, usize) {
        (self.per_address, self.overall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_and_everyone_are_held_to_their_allowance_and_places_come_back() {
        let a = Allowance::new(2, 3);
        let one: IpAddr = "192.0.2.1".parse().unwrap();
        let two: IpAddr = "192.0.2.2".parse().unwrap();
        let first = a.take(one).unwrap();
        let _second = a.take(one).unwrap();
        assert_eq!(a.take(one).err(), Some(Full::Address));
        let _third = a.take(two).unwrap();
        assert_eq!(a.take(two).err(), Some(Full::Overall));
        drop(first);
        let _fourth = a.take(two).unwrap();
        assert_eq!(a.held(), 3);
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64_and_a_mapped_ipv4_as_itself() {
        let a = Allowance::new(1, 10);
        let _held = a.take("2001:db8:1:2::1".parse().unwrap()).unwrap();
        assert_eq!(
            a.take("2001:db8:1:2:ffff:ffff:ffff:ffff".parse().unwrap())
                .err(),
            Some(Full::Address)
        );
        assert!(a.take("2001:db8:1:3::1".parse().unwrap()).is_ok());
        let _v4 = a.take("192.0.2.9".parse().unwrap()).unwrap();
        assert_eq!(
            a.take("::ffff:192.0.2.9".parse().unwrap()).err(),
            Some(Full::Address)
        );
    }
}
