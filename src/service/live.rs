//! The live board's pushes (issue 26.4): after a write that touched a night (a round stored,
//! changed or removed, a Schockbesteck Wurfrunde, the draw, a fine, the closing) the league tells
//! every listener of that night. The web turns a [`Listener`] into Server-Sent Events.
//!
//! Listeners are capped ([`MAX_LISTENERS`], and [`MAX_PER_CLIENT`] for one client): past it
//! [`League::listen_live`] says no, so an open page per phone cannot hold the server's
//! connections and memory without bound, and one client cannot take every place.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use tokio::sync::{broadcast, OwnedSemaphorePermit, Semaphore};

use super::League;

/// Live listeners at most at once (the TV and the phones of a club night need a few dozen).
pub const MAX_LISTENERS: usize = 500;

/// Live listeners of one client at most at once (the web's client: an address, an IPv6 /64): a
/// whole club behind the bar's Wi-Fi shares one address, so a few dozen phones and the TV fit.
pub const MAX_PER_CLIENT: usize = 50;

/// Pushes kept for a listener that is slow to read; one that falls further behind skips to the
/// newest (a push only says "read the board again").
const BACKLOG: usize = 64;

/// The push channel and the listener cap of one league.
#[derive(Debug)]
pub(crate) struct Live {
    sender: broadcast::Sender<NaiveDate>,
    slots: Arc<Semaphore>,
    /// Open listeners per client (only clients with one).
    clients: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            sender: broadcast::channel(BACKLOG).0,
            slots: Arc::new(Semaphore::new(MAX_LISTENERS)),
            clients: Arc::default(),
        }
    }
}

/// One listener of the live pushes: the night it follows and its places under the caps (given
/// back when it is dropped).
#[derive(Debug)]
pub struct Listener {
    date: NaiveDate,
    receiver: broadcast::Receiver<NaiveDate>,
    _slot: OwnedSemaphorePermit,
    _client: ClientSlot,
}

/// A client's place under [`MAX_PER_CLIENT`]: given back when dropped.
#[derive(Debug)]
struct ClientSlot {
    client: IpAddr,
    clients: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl ClientSlot {
    /// A place for `client` in `clients`, or `None` when it holds [`MAX_PER_CLIENT`] already.
    fn take(clients: &Arc<Mutex<HashMap<IpAddr, usize>>>, client: IpAddr) -> Option<ClientSlot> {
        let mut open = clients.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(client).or_insert(0);
        if *n >= MAX_PER_CLIENT {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            client,
            clients: clients.clone(),
        })
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// Why [`League::listen_live`] gave no listener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// [`MAX_LISTENERS`] are listening.
    All,
    /// This client holds [`MAX_PER_CLIENT`] listeners.
    Client,
}

/// Why a push did not come: the league is gone (the server stops).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("Der Server wird beendet.")]
pub struct Closed;

impl Listener {
    /// The night this listener follows.
    pub fn date(&self) -> NaiveDate {
        self.date
    }

    /// Waits for the next write that touched this listener's night (a listener that fell behind
    /// gets one push for all it missed). Errors: [`Closed`] when the league is gone.
    pub async fn changed(&mut self) -> Result<(), Closed> {
        loop {
            match self.receiver.recv().await {
                Ok(date) if date == self.date => return Ok(()),
                Ok(_) => continue,
                Err(broadcast::error::RecvError::Lagged(_)) => return Ok(()),
                Err(broadcast::error::RecvError::Closed) => return Err(Closed),
            }
        }
    }
}

impl League {
    /// A listener of the pushes for the night of `date` for `client` (the key its listeners are
    /// counted under: the web's client address). Errors: [`Full::Client`] when that client holds
    /// [`MAX_PER_CLIENT`] listeners, [`Full::All`] when [`MAX_LISTENERS`] are listening.
    pub fn listen_live(&self, date: NaiveDate, client: IpAddr) -> Result<Listener, Full> {
        let live = &self.inner.live;
        let mine = ClientSlot::take(&live.clients, client).ok_or(Full::Client)?;
        let slot = live
            .slots
            .clone()
            .try_acquire_owned()
            .map_err(|_| Full::All)?;
        Ok(Listener {
            date,
            receiver: live.sender.subscribe(),
            _slot: slot,
            _client: mine,
        })
    }

    /// How many live listeners are open now.
    pub fn live_listeners(&self) -> usize {
        MAX_LISTENERS - self.inner.live.slots.available_permits()
    }

    /// Tells the listeners of the night of `date` that it changed (nobody listening is fine).
    pub(crate) fn night_changed(&self, date: NaiveDate) {
        let _ = self.inner.live.sender.send(date);
    }

    /// Tells the listeners of the night with storage id `night` (looked up in the snapshot).
    pub(crate) fn night_id_changed(&self, night: i64) {
        let snapshot = self.snapshot();
        let date = snapshot.seasons().find_map(|view| {
            view.ids
                .nights
                .iter()
                .find(|(_, id)| **id == night)
                .map(|(date, _)| *date)
        });
        if let Some(date) = date {
            self.night_changed(date);
        }
    }
}
