-- Between the nights (issue 27, interchange.md "Planned nights and a player's own card"):
-- nights planned ahead with their Zusagen, each player's own card (a capability link) and the
-- Kassenwart's reminders.

-- One row: the club's key in the calendar's UIDs (random, so that two clubs' calendars never
-- share a UID) and a change counter of the planned nights and their answers, bumped by the
-- triggers below; the server compares it on every refresh, as it does the season counters.
create table planning (
    id       integer primary key check (id = 1),
    uid_key  text    not null,
    version  integer not null default 0
);

insert into planning (id, uid_key) values (1, lower(hex(randomblob(8))));

-- A night planned ahead: its day, start time on the club's wall clock (HH:MM, the club's time
-- zone), place and note. Started once a Spielabend exists on its date (nothing stored here);
-- cancelled ones stay for the calendar (STATUS:CANCELLED). `sequence` is the calendar's
-- SEQUENCE: raised by every move, change of time or place, cancellation and revival.
create table planned_nights (
    id          integer primary key,
    date        text    not null,
    start_time  text    not null,
    place       text    not null default '',
    note        text    not null default '',
    cancelled   integer not null default 0,
    sequence    integer not null default 0,
    created_by  text    not null,
    created_at  text    not null,
    updated_at  text    not null
);

-- At most one night planned per day (a cancelled one may share its day with a new one).
create unique index planned_nights_day on planned_nights(date) where cancelled = 0;

-- One answer per player and planned night: coming (1) or not (0), who gave it ('ich' = "Das bin
-- ich", 'karte' = his own card, 'verwaltung:<login>' = the secretary for him), how often he
-- answered there (the abuse limit), and when (UTC).
create table zusagen (
    planned_id   integer not null references planned_nights(id) on delete cascade,
    player_id    integer not null references players(id) on delete cascade,
    coming       integer not null check (coming in (0, 1)),
    via          text    not null,
    changes      integer not null default 1,
    answered_at  text    not null,
    primary key (planned_id, player_id)
);

create trigger planning_planned_ins after insert on planned_nights begin
    update planning set version = version + 1 where id = 1;
end;
create trigger planning_planned_upd after update on planned_nights begin
    update planning set version = version + 1 where id = 1;
end;
create trigger planning_planned_del after delete on planned_nights begin
    update planning set version = version + 1 where id = 1;
end;
create trigger planning_zusagen_ins after insert on zusagen begin
    update planning set version = version + 1 where id = 1;
end;
create trigger planning_zusagen_upd after update on zusagen begin
    update planning set version = version + 1 where id = 1;
end;
create trigger planning_zusagen_del after delete on zusagen begin
    update planning set version = version + 1 where id = 1;
end;
-- A renamed player's answers show his new name.
create trigger planning_players_upd after update of name on players begin
    update planning set version = version + 1 where id = 1;
end;

-- Each player's own card (SECURITY.md "Player cards"): only the SHA-256 of the random token is
-- stored; a new link revokes the player's older ones; revoked links stay for the record.
create table card_links (
    id          integer primary key,
    player_id   integer not null references players(id) on delete cascade,
    token_hash  text    not null unique,
    created_by  text    not null,
    created_at  text    not null,
    revoked     integer not null default 0
);

create index card_links_player on card_links(player_id, revoked);

-- The Kassenwart's reminders ("Erinnern"): whom, for which season, the open sum and the due date
-- the text named, on which club day ("erinnert am") and by whom.
create table reminders (
    id           integer primary key,
    player_id    integer not null references players(id) on delete cascade,
    season       integer not null,
    open_cents   integer not null,
    due_on       text    not null,
    reminded_on  text    not null,
    created_by   text    not null,
    created_at   text    not null
);

create index reminders_player on reminders(season, player_id);
