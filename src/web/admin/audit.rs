//! The audit log (SECURITY.md "Audit"): every change of league data and accounts with its author,
//! before and after, for the admin. Times are the club's (`ClubClock::stamp_de`); on a phone it is
//! a list of entries a page at a time (issue 21.9), filtered by author, kind of change or night,
//! each entry's before and after folded and shown field by field (German names, euros, dates)
//! instead of raw JSON.

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Query, State};
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::Value;

use crate::league::model::format::{date_de, format_cents};
use crate::league::money::reminder::percent_encode;
use crate::service::accounts::{AuditFilter, AuditKind};
use crate::service::League;
use crate::web::kit::{AppError, Layout};

/// One field of an entry's before and after, as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldLine {
    /// The field's German name ("Spieler", "Betrag"), or its stored key when unknown.
    pub name: String,
    /// Before ("" when the entry has no before or not this field).
    pub before: String,
    /// After ("" when the entry has no after or not this field).
    pub after: String,
    /// Before and after differ.
    pub changed: bool,
}

/// One audit row, formatted.
pub struct AuditLine {
    /// The club's German wall-clock time ("29.11.2026 15:20:07").
    pub at: String,
    /// Who.
    pub user: String,
    /// What.
    pub action: String,
    /// Before and after field by field (objects); empty when neither is an object.
    pub fields: Vec<FieldLine>,
    /// Before and after as plain text when they are no objects (lists, numbers): (before, after).
    pub plain: Option<(String, String)>,
    /// How many fields changed (the fold's summary).
    pub changed: usize,
}

/// One choice of a filter's `<select>`: (value, label, selected).
pub type Choice = (String, String, bool);

/// The audit page.
#[derive(Template, WebTemplate)]
#[template(path = "admin/audit.html")]
pub struct AuditPage {
    layout: Layout,
    lines: Vec<AuditLine>,
    /// The link to the next (older) page, with the filter.
    older: Option<String>,
    /// The authors to filter by.
    users: Vec<Choice>,
    /// The kinds to filter by.
    kinds: Vec<Choice>,
    /// The night filtered by (`YYYY-MM-DD`), as typed.
    night: String,
    /// A filter is set (the page offers „alle Einträge“).
    filtered: bool,
    /// A filter that could not be read (German).
    error: Option<String>,
}

/// The audit page's query: the filter and the page.
#[derive(Deserialize, Default)]
pub struct AuditQuery {
    /// Page on: rows older than this id.
    pub vor: Option<i64>,
    /// Only this author.
    #[serde(default)]
    pub wer: String,
    /// Only this kind ([`AuditKind::key`]).
    #[serde(default)]
    pub art: String,
    /// Only this night (`YYYY-MM-DD`).
    #[serde(default)]
    pub abend: String,
}

/// Rows per audit page.
const AUDIT_PAGE: i64 = 50;

/// The order in which an entry's fields are shown: where and who first, then what.
const FIELD_ORDER: [&str; 18] = [
    "season",
    "night",
    "date",
    "table",
    "round",
    "player",
    "username",
    "id",
    "outs",
    "hand_outs",
    "julen",
    "joker",
    "lost",
    "kind",
    "amount_cents",
    "paid",
    "paid_on",
    "closed",
];

/// The German name of a stored field of the audit's before/after JSON.
fn field_name(key: &str) -> &str {
    match key {
        "night" => "Abend",
        "night_id" => "Abend (Nr.)",
        "date" => "Datum",
        "season" => "Saison",
        "table" => "Tisch",
        "round" => "Runde",
        "player" => "Spieler",
        "outs" => "Outs",
        "hand_outs" => "Hand-Outs",
        "julen" => "Julen",
        "joker" => "Joker",
        "lost" => "verloren",
        "kind" => "Art",
        "amount_cents" => "Betrag",
        "paid" => "bezahlt",
        "paid_on" => "bezahlt am",
        "fee_paid_on" => "Beitrag bezahlt am",
        "fee_cents" => "Beitrag",
        "fines" => "Strafen",
        "closed" => "abgeschlossen",
        "draw" => "Auslosung",
        "rounds" => "Runden",
        "results" => "Ergebnisse",
        "nights" => "Abende",
        "username" => "Konto",
        "role" => "Rolle",
        "disabled" => "gesperrt",
        "sessions_ended" => "Sitzungen beendet",
        "account_name" => "Kontoinhaber",
        "iban" => "IBAN",
        "bic" => "BIC",
        "paypal_me" => "PayPal.me",
        "money_private" => "Kasse nur für Mitglieder",
        "timezone" => "Zeitzone",
        "active" => "gültig",
        "correction" => "Korrektur",
        "link" => "Link",
        "name" => "Name",
        "id" => "Nr.",
        "players" => "Spieler",
        "valid_hours" => "gültig (Stunden)",
        "rules" => "Regeln",
        "endstand" => "Endstand",
        "liga" => "Liga",
        "counted_outs" => "gewertete Outs",
        "thrown_outs" => "geworfene Outs",
        "paid_rounds" => "bezahlte Runden",
        "lost_rounds" => "verlorene Runden",
        "wurfrunden" => "Wurfrunden",
        "recorded_as_totals" => "als Summen eingetragen",
        "replaced" => "Abende ersetzt",
        "netted" => "verrechnet",
        other => other,
    }
}

/// A stored value as a page shows it: text as is, `true`/`false` as „ja“/„nein“, an ISO date as
/// „09.01.2026“, a `…_cents` field in euros, lists and objects as compact JSON, `null` as „–“.
fn value_text(key: &str, v: &Value) -> String {
    match v {
        Value::Null => "–".to_string(),
        Value::Bool(true) => "ja".to_string(),
        Value::Bool(false) => "nein".to_string(),
        Value::Number(n) if key.ends_with("_cents") => {
            n.as_i64().map_or_else(|| n.to_string(), format_cents)
        }
        Value::Number(n) => n.to_string(),
        Value::String(s) => match NaiveDate::parse_from_str(s, "%Y-%m-%d") {
            Ok(d) if s.len() == 10 => date_de(d),
            _ => s.clone(),
        },
        other => other.to_string(),
    }
}

/// Before and after of one entry as shown: field by field when either is an object (every key of
/// both, in [`FIELD_ORDER`], the others by name), else both as plain text. Text that is no JSON is
/// shown as it is.
pub fn compare(
    before: Option<&str>,
    after: Option<&str>,
) -> (Vec<FieldLine>, Option<(String, String)>) {
    let parse = |t: Option<&str>| -> Option<Result<Value, String>> {
        t.map(|t| serde_json::from_str::<Value>(t).map_err(|_| t.to_string()))
    };
    let (b, a) = (parse(before), parse(after));
    let object = |x: &Option<Result<Value, String>>| match x {
        Some(Ok(Value::Object(m))) => Some(m.clone()),
        _ => None,
    };
    let plain = |x: &Option<Result<Value, String>>| match x {
        None => String::new(),
        Some(Ok(v)) => value_text("", v),
        Some(Err(raw)) => raw.clone(),
    };
    let (bo, ao) = (object(&b), object(&a));
    let neither_other = |x: &Option<Result<Value, String>>,
                         o: &Option<serde_json::Map<String, Value>>| {
        x.is_none() || o.is_some()
    };
    if (bo.is_some() || ao.is_some()) && neither_other(&b, &bo) && neither_other(&a, &ao) {
        let empty = serde_json::Map::new();
        let (bm, am) = (bo.as_ref().unwrap_or(&empty), ao.as_ref().unwrap_or(&empty));
        let mut keys: Vec<&String> = bm.keys().collect();
        keys.extend(am.keys().filter(|k| !bm.contains_key(*k)));
        // The known fields in the order of [`FIELD_ORDER`], then the others by name.
        keys.sort_by_key(|k| {
            (
                FIELD_ORDER
                    .iter()
                    .position(|o| o == k)
                    .unwrap_or(FIELD_ORDER.len()),
                k.as_str(),
            )
        });
        let fields = keys
            .into_iter()
            .map(|k| {
                let bv = bm.get(k);
                let av = am.get(k);
                FieldLine {
                    name: field_name(k).to_string(),
                    before: bv.map(|v| value_text(k, v)).unwrap_or_default(),
                    after: av.map(|v| value_text(k, v)).unwrap_or_default(),
                    changed: bo.is_some() && ao.is_some() && bv != av,
                }
            })
            .collect();
        return (fields, None);
    }
    if b.is_none() && a.is_none() {
        return (Vec::new(), None);
    }
    (Vec::new(), Some((plain(&b), plain(&a))))
}

/// `GET /verwaltung/protokoll`: the audit log, newest first, [`AUDIT_PAGE`] entries at a time;
/// `?wer=` an author, `?art=` a kind ([`AuditKind::key`]), `?abend=YYYY-MM-DD` a night, `?vor=`
/// the page (rows older than that id). A filter that cannot be read is said at the top and left
/// out.
pub async fn get(
    State(league): State<League>,
    layout: Layout,
    Query(q): Query<AuditQuery>,
) -> Result<AuditPage, AppError> {
    let mut error = None;
    let kind = match q.art.trim() {
        "" => None,
        key => {
            let k = AuditKind::parse(key);
            if k.is_none() {
                error = Some(format!(
                    "Art „{key}“ gibt es nicht: sie wird nicht beachtet."
                ));
            }
            k
        }
    };
    let night = match q.abend.trim() {
        "" => None,
        text => match NaiveDate::parse_from_str(text, "%Y-%m-%d") {
            Ok(d) => Some(d),
            Err(_) => {
                error = Some(format!(
                    "Abend „{text}“ ist kein Datum (JJJJ-MM-TT): er wird nicht beachtet."
                ));
                None
            }
        },
    };
    let user = Some(q.wer.trim().to_string()).filter(|u| !u.is_empty());
    let filter = AuditFilter {
        user: user.clone(),
        action_like: kind
            .map(|k| k.patterns().iter().map(|p| p.to_string()).collect())
            .unwrap_or_default(),
        night,
    };
    let rows = league.audit_search(&filter, q.vor, AUDIT_PAGE).await?;
    let mut query = Vec::new();
    if let Some(u) = &user {
        query.push(format!("wer={}", percent_encode(u)));
    }
    if let Some(k) = kind {
        query.push(format!("art={}", k.key()));
    }
    if let Some(d) = night {
        query.push(format!("abend={d}"));
    }
    let filtered = !query.is_empty();
    let older = (rows.len() as i64 == AUDIT_PAGE)
        .then(|| rows.last().map(|r| r.id))
        .flatten()
        .map(|id| {
            let mut parts = query.clone();
            parts.push(format!("vor={id}"));
            format!("/verwaltung/protokoll?{}", parts.join("&"))
        });
    let clock = league.clock();
    let lines = rows
        .into_iter()
        .map(|r| {
            let (fields, plain) = compare(r.before_json.as_deref(), r.after_json.as_deref());
            AuditLine {
                at: clock.stamp_de(&r.at),
                user: r.user,
                action: r.action,
                changed: fields.iter().filter(|f| f.changed).count(),
                fields,
                plain,
            }
        })
        .collect();
    let mut users: Vec<Choice> = league
        .audit_users()
        .await?
        .into_iter()
        .map(|u| {
            let selected = user.as_deref() == Some(u.as_str());
            (u.clone(), u, selected)
        })
        .collect();
    if let Some(u) = user.as_ref().filter(|u| !users.iter().any(|c| &c.0 == *u)) {
        users.push((u.clone(), u.clone(), true));
    }
    let kinds = AuditKind::ALL
        .into_iter()
        .map(|k| (k.key().to_string(), k.label().to_string(), Some(k) == kind))
        .collect();
    Ok(AuditPage {
        layout,
        lines,
        older,
        users,
        kinds,
        night: night.map(|d| d.to_string()).unwrap_or_default(),
        filtered,
        error,
    })
}

#[cfg(test)]
mod tests;
