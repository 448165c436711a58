//! Feature routes (filled in below).

use axum::Router;

use super::AppState;

/// The routes of this feature.
pub fn router() -> Router<AppState> {
    Router::new()
}
