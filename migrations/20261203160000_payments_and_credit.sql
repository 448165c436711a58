-- Payments and Guthaben (issue 34.1, league.md §6): every payment that came in is kept (player,
-- day, cents); what it paid is marked on the items (fines.from_account, the Jahresbeitrag's
-- season_players.fee_from_account); what it did not pay is the player's Guthaben, owed to him
-- and never part of the pot. credit_bookings: Guthaben brought from the previous season
-- ('vortrag'), paid back ('ausgezahlt') or carried to the next season ('uebertragen').
-- fines.from_account passes the closed-night trigger like paid and paid_on (collecting later is
-- normal: 20261129180000_fines_paid_on_closed_night lists the columns that need a Korrektur).

alter table fines add column from_account integer not null default 0;
alter table season_players add column fee_from_account integer not null default 0;

create table payments (
    id         integer primary key,
    season     integer not null references seasons(year) on delete cascade,
    player_id  integer not null references players(id),
    date       text    not null,
    cents      integer not null check (cents > 0)
);
create index payments_of_season on payments (season, id);

create table credit_bookings (
    id         integer primary key,
    season     integer not null references seasons(year) on delete cascade,
    player_id  integer not null references players(id),
    kind       text    not null check (kind in ('vortrag', 'ausgezahlt', 'uebertragen')),
    date       text    not null,
    cents      integer not null check (cents > 0)
);
create index credit_bookings_of_season on credit_bookings (season, id);

create trigger payments_audit_insert after insert on payments
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Zahlung gebucht',
        null,
        json_object('id', new.id, 'season', new.season,
            'player', (select name from players where id = new.player_id),
            'date', new.date, 'cents', new.cents));
end;

create trigger credit_bookings_audit_insert after insert on credit_bookings
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Guthaben gebucht',
        null,
        json_object('id', new.id, 'season', new.season,
            'player', (select name from players where id = new.player_id),
            'kind', new.kind, 'date', new.date, 'cents', new.cents));
end;

-- The season's change counter (20261129150000_season_versions) counts them as the season's data.
create trigger season_versions_payments_ins after insert on payments begin
    update season_versions set version = version + 1 where year = new.season;
end;
create trigger season_versions_payments_del after delete on payments begin
    update season_versions set version = version + 1 where year = old.season;
end;
create trigger season_versions_credit_ins after insert on credit_bookings begin
    update season_versions set version = version + 1 where year = new.season;
end;
create trigger season_versions_credit_del after delete on credit_bookings begin
    update season_versions set version = version + 1 where year = old.season;
end;
