-- The Kassenprüfer (issue 35.3): a role `kassenpruefer` that reads every money page of the
-- Verwaltung and changes nothing, and his one action, *Geprüft* on a season's books.
--
-- SQLite cannot change a CHECK: the users table is built anew with the new role (as in
-- 20261201100000_kassenwart_and_resets.sql). password_resets refers to users with
-- `on delete cascade`, and the migration runs with foreign keys on: dropping users would delete
-- every reset link, so they are kept aside and put back (same ids, same users).

create temporary table password_resets_kept as select * from password_resets;

create table users_new (
    id             integer primary key,
    username       text    not null unique,
    password_hash  text    not null,
    role           text    not null
                   check (role in ('admin', 'secretary', 'kassenwart', 'kassenpruefer')),
    disabled       integer not null default 0,
    session_epoch  integer not null default 0
);

insert into users_new (id, username, password_hash, role, disabled, session_epoch)
    select id, username, password_hash, role, disabled, session_epoch from users;

drop table users;
alter table users_new rename to users;

insert into password_resets select * from password_resets_kept;
drop table password_resets_kept;

-- *Geprüft*: a Kassenprüfer checked the books of a season, on the club's day `day`
-- (`YYYY-MM-DD`), with an optional note (at most 500 characters); `created_at` is the club
-- clock's instant (UTC, RFC 3339). Each one also writes a Protokoll line. Not season data: not
-- in the season file and no season version (as payment_reports); it goes with its season.
create table kassenpruefungen (
    id          integer primary key,
    season      integer not null references seasons(year) on delete cascade,
    username    text    not null,
    day         text    not null,
    note        text    not null default '' check (length(note) <= 500),
    created_at  text    not null
);
create index kassenpruefungen_of_season on kassenpruefungen (season, id);
