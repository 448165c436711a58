-- The entries of bank statements booked (issue 34.3): a statement read again books nothing
-- twice. An entry is known by the bank's own reference (CAMT NtryRef / AcctSvcrRef) when it has
-- one, and by its hash (SHA-256 of day, amount, the letters of purpose and reference, counterparty, its number among equal
-- entries of the file) always, so the same transfer from a CSV export (no reference) is found
-- too. Only booked credits are kept: a credit the Kassenwart left unassigned can be booked later.
create table statement_entries (
    id         integer primary key,
    season     integer not null references seasons(year) on delete cascade,
    bank_ref   text,
    hash       text    not null,
    date       text    not null,
    cents      integer not null check (cents > 0),
    player_id  integer not null references players(id),
    read_at    text    not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
create unique index statement_entries_ref on statement_entries (bank_ref) where bank_ref is not null;
create index statement_entries_hash on statement_entries (hash);
