//! What the server keeps between requests (play sessions, rollout jobs):
//! numbered from 1, at most a fixed number, the oldest dropped first, so
//! no client can make the server hold more and more.

use super::ApiError;
use std::collections::BTreeMap;
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
    max: usize,
    next: Mutex<u64>,
    items: Mutex<BTreeMap<u64, Arc<T>>>,
}

impl<T> Held<T> {
    pub fn new(route: &'static str, max: usize) -> Held<T> {
        Held {
            route,
            max: max.max(1),
            next: Mutex::new(0),
            items: Mutex::new(BTreeMap::new()),
        }
    }

    /// Keeps `item` under a new id, handing back those dropped to make room.
    pub fn insert(&self, item: Arc<T>) -> (u64, Vec<Arc<T>>) {
        let id = {
            let mut next = lock(&self.next);
            *next += 1;
            *next
        };
        let mut items = lock(&self.items);
        let mut dropped = Vec::new();
        while items.len() >= self.max {
            dropped.extend(items.pop_first().map(|(_, old)| old));
        }
        items.insert(id, item);
        (id, dropped)
    }

    pub fn get(&self, id: u64) -> Result<Arc<T>, ApiError> {
        lock(&self.items)
            .get(&id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(&format!("{}/{id}", self.route)))
    }
}
