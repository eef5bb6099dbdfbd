//! What the server keeps between requests (play sessions, rollout jobs):
//! each under an id of 128 random bits, so that no client can reach
//! another's game or job by guessing (ids counted from 1 let anyone move,
//! resign or cancel them); at most a fixed number, the oldest dropped
//! first, so no client can make the server hold more and more; and at
//! most a tenth of that for one client (by address), whose own oldest
//! goes first, so one client's flood cannot push out everyone else's
//! games. A dropped id answers 410 with the reason, not a bare 404, so
//! the player whose game went knows why.

use super::ApiError;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The guarded value even if a holder panicked: one failed request may
/// leave its session odd, but must not turn every later request on it
/// into a panic and a dropped connection.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

pub struct Held<T> {
    /// Where a missing id's 404 says it looked (`/api/play`).
    route: &'static str,
    /// What is held, in words (`games`), for the 410's reason.
    what: &'static str,
    max: usize,
    per_client: usize,
    items: Mutex<Items<T>>,
}

/// Why an id was dropped.
#[derive(Clone, Copy)]
enum Dropped {
    /// The server was full and this was its oldest.
    ServerFull,
    /// Its client held its quota and this was the client's oldest.
    ClientFull,
}

/// The held values by id with their client's address, their ids oldest
/// first, and the ids dropped lately with why.
struct Items<T> {
    by_id: HashMap<String, (IpAddr, Arc<T>)>,
    order: VecDeque<String>,
    dropped: HashMap<String, Dropped>,
    dropped_order: VecDeque<String>,
}

/// A new id: 128 bits from the thread's generator (ChaCha, seeded by
/// the operating system), as 32 hex digits.
fn new_id() -> String {
    format!("{:032x}", rand::random::<u128>())
}

impl<T> Items<T> {
    /// Drops `id`, remembering why (the memory is bounded: the oldest
    /// reasons are forgotten first, and their ids then answer 404).
    fn drop_id(&mut self, id: &str, why: Dropped, remembered: usize) -> Option<Arc<T>> {
        let (_, item) = self.by_id.remove(id)?;
        self.order.retain(|i| i != id);
        while self.dropped_order.len() >= remembered {
            let Some(old) = self.dropped_order.pop_front() else {
                break;
            };
            self.dropped.remove(&old);
        }
        self.dropped.insert(id.to_string(), why);
        self.dropped_order.push_back(id.to_string());
        Some(item)
    }
}

impl<T> Held<T> {
    pub fn new(route: &'static str, what: &'static str, max: usize) -> Held<T> {
        let max = max.max(1);
        Held {
            route,
            what,
            max,
            per_client: (max / 10).max(1),
            items: Mutex::new(Items {
                by_id: HashMap::new(),
                order: VecDeque::new(),
                dropped: HashMap::new(),
                dropped_order: VecDeque::new(),
            }),
        }
    }

    /// Keeps `item` of `client` under a new id, handing back those
    /// dropped to make room: the client's own oldest when it holds its
    /// quota, else the server's oldest when the server is full.
    pub fn insert(&self, client: IpAddr, item: Arc<T>) -> (String, Vec<Arc<T>>) {
        let mut items = lock(&self.items);
        let remembered = self.max * 4;
        let id = loop {
            let id = new_id();
            if !items.by_id.contains_key(&id) && !items.dropped.contains_key(&id) {
                break id;
            }
        };
        let mut dropped = Vec::new();
        // The client's own, oldest first (a scan of at most `max` ids).
        let mut mine = items
            .order
            .iter()
            .filter(|i| items.by_id.get(*i).is_some_and(|(c, _)| *c == client));
        let oldest = mine.next().cloned();
        let held = usize::from(oldest.is_some()) + mine.count();
        if let Some(old) = oldest.filter(|_| held >= self.per_client) {
            dropped.extend(items.drop_id(&old, Dropped::ClientFull, remembered));
        }
        while items.order.len() >= self.max {
            let Some(old) = items.order.front().cloned() else {
                break;
            };
            dropped.extend(items.drop_id(&old, Dropped::ServerFull, remembered));
        }
        items.order.push_back(id.clone());
        items.by_id.insert(id.clone(), (client, item));
        (id, dropped)
    }

    pub fn get(&self, id: &str) -> Result<Arc<T>, ApiError> {
        let items = lock(&self.items);
        if let Some((_, item)) = items.by_id.get(id) {
            return Ok(item.clone());
        }
        let why = match items.dropped.get(id) {
            Some(Dropped::ServerFull) => format!(
                "this one was dropped to make room: the server holds at most {} {} and it was the oldest",
                self.max, self.what
            ),
            Some(Dropped::ClientFull) => format!(
                "this one was dropped to make room: one client holds at most {} {} and it was your oldest",
                self.per_client, self.what
            ),
            None => {
                // The id is the client's text: quote a bounded part of it.
                let shown: String = id.chars().take(40).collect();
                return Err(ApiError::not_found(&format!("{}/{shown}", self.route)));
            }
        };
        Err(ApiError::gone(why))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn client(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    #[test]
    fn a_client_past_its_quota_loses_its_own_oldest_not_anyone_elses() {
        let held: Held<u32> = Held::new("/api/play", "games", 20);
        let (theirs, _) = held.insert(client(1), Arc::new(0));
        let mine: Vec<String> = (0..3)
            .map(|i| held.insert(client(2), Arc::new(i)).0)
            .collect();
        // Quota 2: the third dropped my first.
        let e = held.get(&mine[0]).unwrap_err();
        assert_eq!(e.status, StatusCode::GONE);
        assert!(e.message.contains("your oldest"), "{}", e.message);
        assert_eq!(*held.get(&mine[2]).unwrap(), 2);
        assert_eq!(*held.get(&theirs).unwrap(), 0);
        let e = held.get("0123").unwrap_err();
        assert_eq!(e.status, StatusCode::NOT_FOUND);
    }

    #[test]
    fn a_full_server_drops_its_oldest_and_says_so() {
        let held: Held<u32> = Held::new("/api/rollout", "rollouts", 10);
        let ids: Vec<String> = (0..11)
            .map(|i| held.insert(client(i as u8), Arc::new(i)).0)
            .collect();
        let e = held.get(&ids[0]).unwrap_err();
        assert_eq!(e.status, StatusCode::GONE);
        assert!(e.message.contains("at most 10 rollouts"), "{}", e.message);
        assert!(ids[1..].iter().all(|id| held.get(id).is_ok()));
    }
}
