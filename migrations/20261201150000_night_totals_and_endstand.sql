-- A club's old seasons (issue 24): nights recorded as totals per player instead of rounds (the
-- club's spreadsheet of night totals), and seasons kept only as their final table (Endstand).
-- A night has rounds or totals rows, never both (checked by Season::from_file on every write and
-- load). Writes count as changes of the season; a closed night's totals change only as a
-- Korrektur, like its rounds.

create table night_totals (
    night_id   integer not null references nights(id) on delete cascade,
    player_id  integer not null references players(id),
    position   integer not null,                   -- row order of the night
    table_no   integer not null,
    rounds     integer not null,
    outs       integer not null,
    hand_outs  integer not null,
    julen      integer not null,
    points     integer not null,                   -- counted Outs without Julen (Joker included)
    lost       integer not null,
    primary key (night_id, player_id)
);

create table season_endstand (
    season       integer not null references seasons(year) on delete cascade,
    player_id    integer not null references players(id),
    position     integer not null,                 -- line order of the final table as given
    liga         text    not null check (liga in ('1. Liga', '2. Liga', 'Kreisliga')),
    rounds       integer not null,
    counted_outs integer not null,
    paid_rounds  integer not null,
    lost_rounds  integer not null,
    thrown_outs  integer not null,
    hand_outs    integer not null,
    julen        integer not null,
    primary key (season, player_id)
);

create index night_totals_player on night_totals(player_id);
create index season_endstand_player on season_endstand(player_id);

create trigger season_versions_night_totals_ins after insert on night_totals begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = new.night_id);
end;
create trigger season_versions_night_totals_upd after update on night_totals begin
    update season_versions set version = version + 1
    where year in (select season from nights where id in (old.night_id, new.night_id));
end;
create trigger season_versions_night_totals_del after delete on night_totals begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = old.night_id);
end;

create trigger season_versions_endstand_ins after insert on season_endstand begin
    update season_versions set version = version + 1 where year = new.season;
end;
create trigger season_versions_endstand_upd after update on season_endstand begin
    update season_versions set version = version + 1 where year in (old.season, new.season);
end;
create trigger season_versions_endstand_del after delete on season_endstand begin
    update season_versions set version = version + 1 where year = old.season;
end;

create trigger night_totals_closed_insert before insert on night_totals
when (select closed from nights where id = new.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = new.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger night_totals_closed_update before update on night_totals
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger night_totals_closed_delete before delete on night_totals
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
