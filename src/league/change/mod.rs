//! Every change of a season's data as one value ([`Change`]) and [`Season::apply`], which checks a
//! change exactly like an import: the change is made to the season file and the whole file goes
//! through [`Season::from_file`]. The round form, the Schockbesteck, the JSON API and the command
//! line all describe what they want as a `Change`; the rules of league.md live here, not in them.

use chrono::NaiveDate;

use crate::league::model::error::EntryError;
use crate::league::model::file::{ResultEntry, SeasonFile, SeatEntry};
use crate::league::model::season::Season;

mod corrections;
mod edit;
mod money;
mod nights;
mod players;
mod rounds;
mod settings;

pub use corrections::{check_reason, Korrektur};
pub use nights::{closed_in_time, closing_in_time};
use rounds::RoundAt;
pub use rounds::{
    changed_meanwhile, changed_meanwhile_by, entered_round, round_loser, round_outs,
    round_outs_short, round_version, Replace,
};

/// One change of a season (league.md §1, §5, §6, §9). Player names are as typed (they are
/// normalized and must name a player of the season); dates name a night of the season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Adds player `name` to the season (last in its list), without a Jahresbeitrag.
    AddPlayer {
        /// The new player's name.
        name: String,
    },
    /// Renames player `from` to `to` everywhere in the season: player list, draws, rows and fines.
    /// Names are league-wide: the service applies it to every season of the player.
    RenamePlayer {
        /// The current name.
        from: String,
        /// The new name.
        to: String,
    },
    /// Records the Jahresbeitrag of `player` paid on `paid_on` (the amount follows from the date,
    /// league.md §5), or removes it (`None`).
    SetFee {
        /// The player.
        player: String,
        /// The payment date, or `None` to remove the fee.
        paid_on: Option<NaiveDate>,
    },
    /// Sets kind `kind` of the Strafenkatalog to `cents` (adding it when new), or removes it
    /// (`None`; refused while a fine of that kind is booked). Booked fines keep their amount.
    SetFineKind {
        /// The kind, e.g. `late`.
        kind: String,
        /// Its amount in cents, or `None` to remove it.
        cents: Option<i64>,
    },
    /// Replaces the season's rule set (league.md §10) by `rules`: only before the season's first
    /// night (refused, German, naming the first night's date, once a night exists); the rules are
    /// checked as every load checks them (the refusal names the field).
    SetRules {
        /// The whole new rule set.
        rules: Box<crate::league::model::rules::SeasonRules>,
    },
    /// Adds the Spielabend on `date` (no participants yet).
    AddNight {
        /// The night's date, within the season.
        date: NaiveDate,
    },
    /// Replaces the draw of the night on `date` by `seats` (table by table in seat order; see
    /// [`crate::league::model::draw::by_lot`]). Only before the night's first round.
    SetDraw {
        /// The night.
        date: NaiveDate,
        /// The participants with their tables.
        seats: Vec<SeatEntry>,
    },
    /// Seats `player` at a running night on `date` ("Nachzügler", league.md §9): at `table`, or
    /// (`None`) at the table with fewer players (a tie: table 2). Nobody else moves; rounds may be
    /// entered already (he plays from the next one).
    SeatPlayer {
        /// The night.
        date: NaiveDate,
        /// The late arrival.
        player: String,
        /// The table the secretary chose, if any.
        table: Option<u32>,
    },
    /// Puts round `number` with `results` at `table` of the night on `date`.
    PutRound {
        /// The night.
        date: NaiveDate,
        /// Table 1 or 2.
        table: u32,
        /// Round number, 1..=`rounds_per_night`.
        number: u32,
        /// One row per player of the round.
        results: Vec<ResultEntry>,
        /// Whether an entered round of that number is replaced ([`Replace`]).
        replace: Replace,
        /// A player who is not in the night's draw yet is seated at `table` (the JSON API);
        /// without it, every row's player must be drawn to `table` (the form, the Schockbesteck).
        seat_newcomers: bool,
        /// The Runde as played in the Schockbesteck (its tallies must equal `results`); `None`
        /// for a round entered by hand, which drops the throws of a round it replaces.
        schockbesteck: Option<crate::rules::PlayedRunde>,
    },
    /// Books a fine of `kind` for `player` at the night on `date`, the amount from the season's
    /// current Strafenkatalog.
    BookFine {
        /// The night.
        date: NaiveDate,
        /// The fined player.
        player: String,
        /// A kind of the Strafenkatalog.
        kind: String,
        /// Paid at once.
        paid: bool,
        /// Booked although the player has a fine of this kind at this night already (a second
        /// one is refused unless asked for: a double tap is more likely than a second offence).
        again: bool,
    },
    /// Marks fine `index` (0-based, booking order) of the night on `date` paid or open.
    SetFinePaid {
        /// The night.
        date: NaiveDate,
        /// The fine's position among the night's fines.
        index: usize,
        /// Paid (true) or open.
        paid: bool,
    },
    /// Removes round `number` at `table` of the night on `date` (entered by mistake). Refused when
    /// that round is not entered, and (a conflict) when `if_version` names another version than
    /// the round as stored ([`round_version`]: the JSON API's `If-Match`), checked on the season
    /// as the write transaction reads it.
    RemoveRound {
        /// The night.
        date: NaiveDate,
        /// Table 1 or 2.
        table: u32,
        /// The round number.
        number: u32,
        /// Remove only this version of the round (`None`: whatever is there).
        if_version: Option<String>,
    },
    /// Moves round `number` from `table` to table `to` of the night on `date` (entered at the
    /// wrong table). Its players who have no other round at `table` are seated at `to`; refused
    /// when `to` has a round of that number or a player of the round is drawn to `table` and plays
    /// other rounds there.
    MoveRound {
        /// The night.
        date: NaiveDate,
        /// The table the round is entered at.
        table: u32,
        /// The round number.
        number: u32,
        /// The table it belongs to.
        to: u32,
    },
    /// Removes fine `index` (0-based, booking order) of the night on `date` (booked by mistake).
    RemoveFine {
        /// The night.
        date: NaiveDate,
        /// The fine's position among the night's fines.
        index: usize,
    },
    /// Removes the night on `date` with its draw, rounds and fines (a night entered by mistake).
    RemoveNight {
        /// The night.
        date: NaiveDate,
    },
    /// Closes the night on `date` ("Abend abschließen"): later changes only as a Korrektur.
    CloseNight {
        /// The night.
        date: NaiveDate,
    },
    /// Opens the closed night on `date` again (a night closed by mistake): a Korrektur with its
    /// reason ([`Change::needs_korrektur`]).
    ReopenNight {
        /// The night.
        date: NaiveDate,
    },
    /// Marks fine `index` (0-based, booking order) of the night on `date` paid on `paid_on` (the
    /// Kasse counts it on that day; not before the night), or open again (`None`).
    PayFine {
        /// The night.
        date: NaiveDate,
        /// The fine's position among the night's fines.
        index: usize,
        /// The payment day, or `None` for open.
        paid_on: Option<NaiveDate>,
    },
    /// A payment of `cents` by `player` on `paid_on`, kept as a payment and booked against his
    /// oldest open items: his open fines by night and booking order, then the Jahresbeitrag when
    /// it is due that day ([`crate::league::money::items::allocate`], issue 34.1: each item paid
    /// whole while the money covers it, the rest is his Guthaben).
    BookPayment {
        /// The paying player.
        player: String,
        /// The amount in cents.
        cents: i64,
        /// The payment day.
        paid_on: NaiveDate,
    },
    /// The whole Guthaben of `player` paid back to him ("Guthaben ausgezahlt") or carried to his
    /// next season (`carried`) on `on` (issue 34.1). Refused without Guthaben.
    SettleCredit {
        /// The player.
        player: String,
        /// The day of the booking.
        on: NaiveDate,
        /// Carried to his next season (there a [`Change::CarryCreditIn`]) instead of paid back.
        carried: bool,
    },
    /// `cents` of Guthaben of `player` brought from his previous season on `on` (issue 34.1);
    /// it pays his open items like a payment ([`crate::league::money::items::allocate`]).
    CarryCreditIn {
        /// The player.
        player: String,
        /// The amount in cents.
        cents: i64,
        /// The day it was carried.
        on: NaiveDate,
    },
    /// Books the netting of the Jahresabschluss on `paid_on` (league.md §8): each payee's open
    /// fines, oldest first and as far as his share covers them, become paid out of his share
    /// ([`crate::league::money::netting::netting_plan`]). Refused when there is nothing to net.
    NetPayouts {
        /// The day of the netting (the fines' payment day).
        paid_on: NaiveDate,
        /// The season's carry-in in cents (the previous season's carry-out, which the season
        /// itself does not know; the shares depend on it).
        carry_in_cents: i64,
    },
    /// Undoes the netting of the Jahresabschluss ("Verrechnung aufheben", league.md §11): a
    /// Korrektur with `reason` that puts every netted fine back to open, so that a change that
    /// moves places or the pot can be made and the netting booked again. Refused without a reason
    /// (1..=[`MAX_REASON_CHARS`] characters) or when no netting is booked.
    UndoNetting {
        /// Why the netting is undone (audited).
        reason: String,
    },
}

impl Change {
    /// The night this change touches, if any: a closed night takes it only as a Korrektur
    /// ([`Change::needs_korrektur`]).
    pub fn night(&self) -> Option<NaiveDate> {
        match self {
            Change::AddNight { date }
            | Change::SetDraw { date, .. }
            | Change::SeatPlayer { date, .. }
            | Change::PutRound { date, .. }
            | Change::BookFine { date, .. }
            | Change::SetFinePaid { date, .. }
            | Change::RemoveRound { date, .. }
            | Change::MoveRound { date, .. }
            | Change::RemoveFine { date, .. }
            | Change::RemoveNight { date }
            | Change::CloseNight { date }
            | Change::ReopenNight { date } => Some(*date),
            Change::AddPlayer { .. }
            | Change::RenamePlayer { .. }
            | Change::SetFee { .. }
            | Change::SetFineKind { .. }
            | Change::SetRules { .. } => None,
            Change::PayFine { date, .. } => Some(*date),
            Change::BookPayment { .. }
            | Change::SettleCredit { .. }
            | Change::CarryCreditIn { .. }
            | Change::NetPayouts { .. }
            | Change::UndoNetting { .. } => None,
        }
    }

    /// True when the change can move the places or the pot of the Jahresabschluss (league.md
    /// §8, §11): a night, its draw, rounds or fines, a payment, a fee or the rules. After the
    /// netting such a change waits for [`Change::UndoNetting`]; adding or renaming a player, the
    /// Strafenkatalog (booked fines keep their amount), closing a night, paying back or carrying a
    /// Guthaben (never part of the pot) and the netting itself move nothing.
    pub fn moves_payouts(&self) -> bool {
        !matches!(
            self,
            Change::AddPlayer { .. }
                | Change::RenamePlayer { .. }
                | Change::SetFineKind { .. }
                | Change::CloseNight { .. }
                | Change::SettleCredit { .. }
                | Change::NetPayouts { .. }
                | Change::UndoNetting { .. }
        )
    }

    /// True when the change alters a closed night and so needs a Korrektur: its draw, rounds or
    /// fines, removes it, or reopens it (issue 22.2: reopening is itself a Korrektur with a reason,
    /// recorded like the others; else reopen, change, close would get around the rule). Marking a
    /// fine paid (collecting later is normal) and closing do not.
    pub fn needs_korrektur(&self) -> bool {
        matches!(
            self,
            Change::ReopenNight { .. }
                | Change::SetDraw { .. }
                | Change::SeatPlayer { .. }
                | Change::PutRound { .. }
                | Change::BookFine { .. }
                | Change::RemoveRound { .. }
                | Change::MoveRound { .. }
                | Change::RemoveFine { .. }
                | Change::RemoveNight { .. }
        )
    }
}

impl Season {
    /// The season with `change` made, checked completely like an import ([`Season::from_file`],
    /// whose [`Season::limits`] only where the change breaks one); on a refusal nothing changes and the [`EntryError`] says where and why (German). A change
    /// that changes nothing (marking a paid fine paid, closing a closed night) gives an equal
    /// season.
    pub fn apply(&self, change: &Change) -> Result<Season, EntryError> {
        if change.moves_payouts() {
            if let Some(refusal) = crate::league::money::netting::netting_booked(self) {
                return Err(refusal);
            }
        }
        let mut file = self.to_file();
        // Every night's draw explicit: new rows are checked against it.
        for (entry, night) in file.nights.iter_mut().zip(&self.nights) {
            entry.draw = Some(night.draw.clone());
        }
        self.edit(&mut file, change)?;
        let next = Season::checked(&file)?;
        // Only the limits the change breaks: a season stored before a limit stays changeable.
        let before = self.limits();
        if let Some(e) = next.limits().into_iter().find(|e| !before.contains(e)) {
            return Err(e);
        }
        Ok(next)
    }

    /// Makes `change` to `file` (this season as a file with explicit draws, its closed nights and
    /// Korrekturen); the refusals that the file check cannot give. Only dispatches: each
    /// concern's edits are in its own file (`change/players.rs`, `settings.rs`, `nights.rs`,
    /// `rounds.rs`, `money.rs`, `corrections.rs`), one function per variant.
    fn edit(&self, file: &mut SeasonFile, change: &Change) -> Result<(), EntryError> {
        match change {
            Change::AddPlayer { name } => players::add(file, name),
            Change::RenamePlayer { from, to } => players::rename(self, file, from, to),
            Change::SetFee { player, paid_on } => players::set_fee(self, file, player, *paid_on),
            Change::SetRules { rules } => settings::set_rules(self, file, rules),
            Change::SetFineKind { kind, cents } => {
                settings::set_fine_kind(self, file, kind, *cents)
            }
            Change::AddNight { date } => nights::add(self, file, *date),
            Change::SetDraw { date, seats } => nights::set_draw(self, file, *date, seats),
            Change::SeatPlayer {
                date,
                player,
                table,
            } => nights::seat_player(file, *date, player, *table),
            Change::CloseNight { date } => nights::close(file, *date),
            Change::ReopenNight { date } => nights::reopen(file, *date),
            Change::PutRound {
                date,
                table,
                number,
                results,
                replace,
                seat_newcomers,
                schockbesteck,
            } => rounds::put(
                self,
                file,
                RoundAt::new(*date, *table, *number),
                results,
                replace,
                *seat_newcomers,
                schockbesteck.as_ref(),
            ),
            Change::BookFine {
                date,
                player,
                kind,
                paid,
                again,
            } => money::book_fine(self, file, *date, player, kind, *paid, *again),
            Change::SetFinePaid { date, index, paid } => {
                money::set_fine_paid(file, *date, *index, *paid)
            }
            Change::PayFine {
                date,
                index,
                paid_on,
            } => money::pay_fine(file, *date, *index, *paid_on),
            Change::BookPayment {
                player,
                cents,
                paid_on,
            } => money::book_payment(self, file, player, *cents, *paid_on),
            Change::SettleCredit {
                player,
                on,
                carried,
            } => money::settle_credit(self, file, player, *on, *carried),
            Change::CarryCreditIn { player, cents, on } => {
                money::carry_credit_in(self, file, player, *cents, *on)
            }
            Change::NetPayouts {
                paid_on,
                carry_in_cents,
            } => money::net_payouts(self, file, *paid_on, *carry_in_cents),
            Change::UndoNetting { reason } => money::undo_netting(file, reason),
            Change::RemoveRound {
                date,
                table,
                number,
                if_version,
            } => corrections::remove_round(
                self,
                file,
                RoundAt::new(*date, *table, *number),
                if_version.as_deref(),
            ),
            Change::MoveRound {
                date,
                table,
                number,
                to,
            } => corrections::move_round(file, RoundAt::new(*date, *table, *number), *to),
            Change::RemoveFine { date, index } => corrections::remove_fine(file, *date, *index),
            Change::RemoveNight { date } => corrections::remove_night(file, *date),
        }
    }
}

#[cfg(test)]
mod tests;
