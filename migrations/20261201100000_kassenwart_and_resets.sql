-- The treasurer's role (kassenwart: fees, fines, payments, the Strafenkatalog and the
-- Jahresabschluss, no rounds), sessions that end when the password changes, and one-time reset
-- links (SECURITY.md "Accounts").
--
-- SQLite cannot change a CHECK: the users table is built anew with the new role and the session
-- epoch (a session remembers the epoch it logged in at; a changed password or a reset raises it,
-- which ends every other session of the account). No table refers to users yet.

create table users_new (
    id             integer primary key,
    username       text    not null unique,
    password_hash  text    not null,
    role           text    not null check (role in ('admin', 'secretary', 'kassenwart')),
    disabled       integer not null default 0,
    session_epoch  integer not null default 0
);

insert into users_new (id, username, password_hash, role, disabled)
    select id, username, password_hash, role, disabled from users;

drop table users;
alter table users_new rename to users;

-- A reset link's token is shown once (to the admin, or printed by `schockerliga user reset`);
-- only its SHA-256 is stored. Valid for 24 hours (expires_at, Unix seconds), used at most once.
create table password_resets (
    id          integer primary key,
    user_id     integer not null references users(id) on delete cascade,
    token_hash  text    not null unique,
    created_at  integer not null,
    expires_at  integer not null,
    used_at     integer,
    created_by  text    not null
);

create index password_resets_user on password_resets(user_id);
