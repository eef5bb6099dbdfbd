//! What the server keeps between requests (play sessions, rollout jobs):
//! numbered from 1, at most a fixed number, the oldest dropped first, so
//! no client can make the server hold more and more.

use super::ApiError;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

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
            let mut next = self.next.lock().expect("not poisoned");
            *next += 1;
            *next
        };
        let mut items = self.items.lock().expect("not poisoned");
        let mut dropped = Vec::new();
        while items.len() >= self.max {
            dropped.extend(items.pop_first().map(|(_, old)| old));
        }
        items.insert(id, item);
        (id, dropped)
    }

    pub fn get(&self, id: u64) -> Result<Arc<T>, ApiError> {
        self.items
            .lock()
            .expect("not poisoned")
            .get(&id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(&format!("{}/{id}", self.route)))
    }
}
