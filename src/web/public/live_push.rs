//! The live board pushed (issue 26.4): `GET /live/{date}/ereignisse` is a stream of Server-Sent
//! Events. Each write that touched the night (a round stored, a Schockbesteck Wurfrunde, the draw,
//! a fine, the closing) sends one event `stand` with the night's date; `static/live.js` then reads
//! the board again. A write that adds a Schock Out, Hand-Out or Jule sends an event `moment` first
//! (id: the moment's key; data: `{"text": "Schock Out! Anna", …}`), which the page shows for a
//! few seconds (issue 38.4); moments there were when the stream opened are never sent. Browsers
//! without JavaScript keep the page's 5-second reload and its line "Zuletzt: …".
//!
//! At most [`crate::service::live::MAX_LISTENERS`] streams are open at once (past that 503 with a
//! German reason), at most [`crate::service::live::MAX_PER_CLIENT`] of one client (past that 429:
//! the client as `kit::client` names it, behind a trusted proxy the one it forwards for); a comment every [`KEEP_ALIVE`] keeps proxies from cutting the stream, and a
//! stream without an event for [`IDLE`] is ended (the browser's `EventSource` connects again by
//! itself, a phone that went away gives its place back). `Cache-Control: no-store`: the page cache
//! never holds a stream.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use std::collections::HashSet;

use crate::service::live::Full;
use crate::service::League;
use crate::web::kit::client::ClientAddr;
use crate::web::kit::AtNight;
use crate::web::public::live::night_moments;

/// Between two keep-alive comments of an open stream.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A stream without an event for this long is ended (the browser connects again).
pub const IDLE: Duration = Duration::from_secs(10 * 60);

/// How long a browser waits before it connects again (the `retry` field), in milliseconds.
const RETRY: Duration = Duration::from_secs(3);

/// The German answer when all places for live listeners are taken.
pub const FULL: &str =
    "Zu viele offene Live-Tafeln: bitte in einer Minute noch einmal. Die Seite selbst lädt sich weiter alle 5 Sekunden neu.";

/// The German answer when one client holds all its places.
pub const FULL_HERE: &str =
    "Zu viele offene Live-Tafeln von diesem Anschluss: bitte eine schließen oder in einer Minute noch einmal. Die Seite selbst lädt sich weiter alle 5 Sekunden neu.";

/// `GET /live/{date}/ereignisse`: `text/event-stream`; first an event `hallo` (with the reconnect
/// delay), then an event `stand` (data: the date, `YYYY-MM-DD`) after every write of that night.
/// Unknown night: 404; every place taken: 503 [`FULL`], every place of this client taken: 429
/// [`FULL_HERE`], both with `Retry-After: 60`.
pub async fn events(State(league): State<League>, client: ClientAddr, at: AtNight) -> Response {
    let listener = match league.listen_live(at.date, client.key()) {
        Ok(listener) => listener,
        Err(full) => {
            let (status, text) = match full {
                Full::All => (StatusCode::SERVICE_UNAVAILABLE, FULL),
                Full::Client => (StatusCode::TOO_MANY_REQUESTS, FULL_HERE),
            };
            return (
                status,
                [
                    (header::RETRY_AFTER, "60"),
                    (header::CACHE_CONTROL, "no-store"),
                    (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                ],
                text,
            )
                .into_response();
        }
    };
    let date = at.date.to_string();
    let hello = Event::default().event("hallo").retry(RETRY).data(&date);
    // The moments there are now are not news: a reload or a reconnect (whatever its
    // Last-Event-ID) shows none of them again; only those a write adds while connected.
    let known: HashSet<String> = night_moments(&league, at.date)
        .await
        .into_iter()
        .map(|m| m.key)
        .collect();
    let changes = futures_util::stream::unfold(
        (listener, known, league),
        |(mut listener, mut known, league)| async move {
            match tokio::time::timeout(IDLE, listener.changed()).await {
                Ok(Ok(())) => {}
                // Idle, or the server stops: the stream ends and its place is free again.
                Ok(Err(_)) | Err(_) => return None,
            }
            let date = listener.date();
            let mut events: Vec<Event> = night_moments(&league, date)
                .await
                .into_iter()
                .filter(|m| known.insert(m.key.clone()))
                .map(|m| {
                    let data = serde_json::json!({ "text": m.shout(), "player": m.player,
                                                   "round": m.round, "table": m.table });
                    Event::default()
                        .event("moment")
                        .id(m.key.as_str())
                        .data(data.to_string())
                })
                .collect();
            events.push(Event::default().event("stand").data(date.to_string()));
            Some((
                futures_util::stream::iter(events),
                (listener, known, league),
            ))
        },
    )
    .flatten();
    let stream = futures_util::stream::once(async move { hello })
        .chain(changes)
        .map(Ok::<Event, Infallible>);
    (
        [(header::CACHE_CONTROL, "no-store")],
        Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)),
    )
        .into_response()
}
