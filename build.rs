//! Rebuild when the embedded migrations change (`sqlx::migrate!()` embeds `migrations/`).
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
