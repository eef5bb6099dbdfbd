//! What the server keeps between requests (play sessions, rollout jobs):
//! each under an id of 128 random bits, so that no client can reach
//! another's game or job by guessing (ids counted from 1 let anyone move,
//! resign or cancel them); at most a fixed number, the oldest dropped
//! first, so no client can make the server hold more and more.

use super::ApiError;
use std::collections::{HashMap, VecDeque};
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
    items: Mutex<Items<T>>,
}

/// The held values by id, and their ids oldest first.
struct Items<T> {
    by_id: HashMap<String, Arc<T>>,
    order: VecDeque<String>,
}

/// A new id: 128 bits from the thread's generator (ChaCha, seeded by
/// the operating system), as 32 hex digits.
fn new_id() -> String {
    format!("{:032x}", rand::random::<u128>())
}

impl<T> Held<T> {
    pub fn new(route: &'static str, max: usize) -> Held<T> {
        Held {
            route,
            max: max.max(1),
            items: Mutex::new(Items {
                by_id: HashMap::new(),
                order: VecDeque::new(),
            }),
        }
    }

    /// Keeps `item` under a new id, handing back those dropped to make room.
    pub fn insert(&self, item: Arc<T>) -> (String, Vec<Arc<T>>) {
        let mut items = lock(&self.items);
        let id = loop {
            let id = new_id();
            if !items.by_id.contains_key(&id) {
                break id;
            }
        };
        let mut dropped = Vec::new();
        while items.order.len() >= self.max {
            let Some(old) = items.order.pop_front() else {
                break;
            };
            dropped.extend(items.by_id.remove(&old));
        }
        items.order.push_back(id.clone());
        items.by_id.insert(id.clone(), item);
        (id, dropped)
    }

    pub fn get(&self, id: &str) -> Result<Arc<T>, ApiError> {
        lock(&self.items).by_id.get(id).cloned().ok_or_else(|| {
            // The id is the client's text: quote a bounded part of it.
            let shown: String = id.chars().take(40).collect();
            ApiError::not_found(&format!("{}/{shown}", self.route))
        })
    }
}
