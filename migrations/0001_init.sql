-- The league's data (league.md §1–§9) and the accounts. Money in cents; dates ISO text.

create table seasons (
    year            integer primary key,
    rules_json      text    not null default '{}',   -- overrides of the year's defaults (league.md §10)
    carry_in_cents  integer not null default 0
);

create table players (
    id    integer primary key,
    name  text not null unique
);

create table season_players (
    season       integer not null references seasons(year) on delete cascade,
    player_id    integer not null references players(id),
    position     integer not null,                   -- order of the season file
    fee_paid_on  text,
    fee_cents    integer,
    primary key (season, player_id)
);

create table nights (
    id      integer primary key,
    season  integer not null references seasons(year) on delete cascade,
    date    text    not null unique,
    closed  integer not null default 0
);

-- The participants of a night and the table each was drawn to (league.md §9).
create table night_participants (
    night_id  integer not null references nights(id) on delete cascade,
    player_id integer not null references players(id),
    table_no  integer not null,
    seat      integer not null default 0,
    primary key (night_id, player_id)
);

create table rounds (
    id        integer primary key,
    night_id  integer not null references nights(id) on delete cascade,
    table_no  integer not null,
    number    integer not null,
    unique (night_id, table_no, number)
);

create table results (
    round_id   integer not null references rounds(id) on delete cascade,
    player_id  integer not null references players(id),
    position   integer not null,
    outs       integer not null,
    hand_outs  integer not null,
    julen      integer not null,
    joker      integer not null,
    lost       integer not null,
    primary key (round_id, player_id)
);

create table fines (
    id            integer primary key,
    night_id      integer not null references nights(id) on delete cascade,
    player_id     integer not null references players(id),
    kind          text    not null,
    amount_cents  integer not null,                  -- booked at the time; later catalogue changes do not alter it
    paid          integer not null
);

create table users (
    id             integer primary key,
    username       text    not null unique,
    password_hash  text    not null,
    role           text    not null check (role in ('admin', 'secretary')),
    disabled       integer not null default 0
);

-- The one-time token of the first-start setup link; gone once the first admin exists.
create table setup_token (
    token  text not null
);

create table audit_log (
    id           integer primary key,
    at           text not null,
    user         text not null,
    action       text not null,
    before_json  text,
    after_json   text
);

create index nights_season on nights(season);
create index rounds_night on rounds(night_id);
create index fines_night on fines(night_id);
