//! The money of a season (league.md §5–§8, §11): the Jahresabschluss's places, pot and carry
//! (`payouts`), the treasurer's Kasse, the pot night by night and the carry chain (`kasse`), a
//! player's open items and payments against them (`items`), the netting of the Jahresabschluss
//! (`netting`), the GiroCode of a transfer (`girocode`), the ISO 11649 creditor reference of a
//! player's payments (`reference`) and payment reminders (`reminder`).
//! Names the model and the table.
pub mod girocode;
pub mod items;
pub mod kasse;
pub mod netting;
pub mod payouts;
pub mod reference;
pub mod reminder;
