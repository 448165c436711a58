-- The Kassenbuch (issue 35.1, docs/kassenbuch.md): the club's income and expenses booked by hand
-- beside what the league books by itself (fees, fines, payments, Guthaben, payouts). A booking
-- is never changed: a Storno is a new booking (storno_of, reason) with the opposite amount, and a
-- booking is cancelled at most once. Kassenstürze record the cash counted on a day. Both go with
-- their season (on delete cascade) and travel in the season file (docs/saisondatei.md).
create table kassenbuch (
    id          integer primary key,
    season      integer not null references seasons(year) on delete cascade,
    day         text    not null,
    cents       integer not null check (cents <> 0),
    konto       text    not null check (konto in ('bar', 'bank')),
    kategorie   text    not null check (kategorie in ('Beitrag', 'Strafe', 'Auszahlung',
                    'Guthaben', 'Anschaffung', 'Feier', 'Spende', 'Sonstiges')),
    text        text    not null,
    storno_of   integer references kassenbuch(id),
    reason      text    not null default '',
    created_by  text    not null,
    created_at  text    not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
create index kassenbuch_of_season on kassenbuch (season, id);
create unique index kassenbuch_storno_once on kassenbuch (storno_of) where storno_of is not null;

-- Never edited: only a Storno corrects a booking.
create trigger kassenbuch_no_update before update on kassenbuch
begin
    select raise(abort, 'Kassenbuch: eine Buchung wird nicht geändert, nur storniert');
end;

create table kassenstuerze (
    id             integer primary key,
    season         integer not null references seasons(year) on delete cascade,
    day            text    not null,
    counted_cents  integer not null check (counted_cents >= 0),
    counted_by     text    not null,
    created_at     text    not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
create index kassenstuerze_of_season on kassenstuerze (season, day);

-- The season's change counter (20261129150000_season_versions) counts them as the season's data
-- (the season file carries them).
create trigger season_versions_kassenbuch_ins after insert on kassenbuch begin
    update season_versions set version = version + 1 where year = new.season;
end;
create trigger season_versions_kassenbuch_del after delete on kassenbuch begin
    update season_versions set version = version + 1 where year = old.season;
end;
create trigger season_versions_kassenstuerze_ins after insert on kassenstuerze begin
    update season_versions set version = version + 1 where year = new.season;
end;
create trigger season_versions_kassenstuerze_del after delete on kassenstuerze begin
    update season_versions set version = version + 1 where year = old.season;
end;
