-- The Kassenbuch as a stored journal (issue 35, trials; docs/kassenbuch.md "Belegnummern"): every
-- Beleg of a season, the league's (fees, fines, payments, Guthaben, payouts) and those booked by
-- hand, gets its number when it first enters the book and keeps it. `source` is the key of what
-- it books (`beitrag:Anna`, `strafe:2026-03-12:Anna:late:1`, `hand:…`, `storno:7` for an automatic
-- Storno of Beleg 7, `uebertrag:bar`); `gen` counts the Belege of one source (after a change: a
-- Storno and a new Beleg). Never changed; never deleted but with its season (on delete cascade).
-- Not season data: no season version, not in the season file.
create table kassenbelege (
    id          integer primary key,
    season      integer not null references seasons(year) on delete cascade,
    nr          integer not null check (nr > 0),
    source      text    not null,
    gen         integer not null default 0 check (gen >= 0),
    day         text    not null,
    cents       integer not null check (cents <> 0),
    konto       text    not null check (konto in ('bar', 'bank')),
    kategorie   text    not null check (kategorie in ('Beitrag', 'Strafe', 'Auszahlung',
                    'Guthaben', 'Anschaffung', 'Feier', 'Spende', 'Sonstiges')),
    text        text    not null,
    storno_of   integer,
    reason      text    not null default '',
    created_by  text    not null,
    created_at  text    not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    unique (season, nr),
    unique (season, source, gen)
);
create unique index kassenbelege_storno_once on kassenbelege (season, storno_of)
    where storno_of is not null;

create trigger kassenbelege_no_update before update on kassenbelege
begin
    select raise(abort, 'Kassenbuch: ein Beleg wird nicht geändert, nur storniert');
end;
-- Deleting is refused while the season exists (its own deletion cascades).
create trigger kassenbelege_no_delete before delete on kassenbelege
    when exists (select 1 from seasons where year = old.season)
begin
    select raise(abort, 'Kassenbuch: ein Beleg wird nicht gelöscht, nur storniert');
end;

-- The Anfangsbestand of a season as first booked (docs/kassenbuch.md "Übertrag"): a later change
-- of the previous season's Endbestand is a Beleg "Übertrag berichtigt", never a new figure here.
create table kassen_anfang (
    season      integer primary key references seasons(year) on delete cascade,
    bar_cents   integer not null,
    bank_cents  integer not null,
    created_at  text    not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
create trigger kassen_anfang_no_update before update on kassen_anfang
begin
    select raise(abort, 'Kassenbuch: der Anfangsbestand wird nicht geändert, nur berichtigt');
end;

-- A Kassensturz keeps the book's cash of its day as it stood at the count (NULL: stored before).
alter table kassenstuerze add column book_cents integer;

-- A Kassenprüfung records what it saw: the last Beleg number and the Endbestand (NULL: before).
alter table kassenpruefungen add column last_beleg integer;
alter table kassenpruefungen add column end_cents integer;
