-- A change counter per season, bumped by triggers on every write to a season's data (rules, players
-- and their fees, nights, the draw, rounds, results, fines, player renames). The server keeps each
-- season's checked model and standings in memory and compares its counter with this one on every
-- read, so any write — from any page, the command line or another process — invalidates exactly the
-- seasons it touched.

create table season_versions (
    year     integer primary key,
    version  integer not null default 0
);

insert into season_versions (year) select year from seasons;

-- (No `insert or ignore` in triggers: the outer statement's conflict clause, e.g. an upsert on
-- seasons, would override it.)
create trigger season_versions_seasons_ins after insert on seasons begin
    insert into season_versions (year) select new.year
    where not exists (select 1 from season_versions where year = new.year);
    update season_versions set version = version + 1 where year = new.year;
end;
create trigger season_versions_seasons_upd after update on seasons begin
    insert into season_versions (year) select new.year
    where not exists (select 1 from season_versions where year = new.year);
    update season_versions set version = version + 1 where year in (old.year, new.year);
end;
create trigger season_versions_seasons_del after delete on seasons begin
    update season_versions set version = version + 1 where year = old.year;
end;

create trigger season_versions_sp_ins after insert on season_players begin
    update season_versions set version = version + 1 where year = new.season;
end;
create trigger season_versions_sp_upd after update on season_players begin
    update season_versions set version = version + 1 where year in (old.season, new.season);
end;
create trigger season_versions_sp_del after delete on season_players begin
    update season_versions set version = version + 1 where year = old.season;
end;

create trigger season_versions_players_upd after update on players begin
    update season_versions set version = version + 1
    where year in (select season from season_players where player_id in (old.id, new.id));
end;

create trigger season_versions_nights_ins after insert on nights begin
    update season_versions set version = version + 1 where year = new.season;
end;
create trigger season_versions_nights_upd after update on nights begin
    update season_versions set version = version + 1 where year in (old.season, new.season);
end;
create trigger season_versions_nights_del after delete on nights begin
    update season_versions set version = version + 1 where year = old.season;
end;

create trigger season_versions_np_ins after insert on night_participants begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = new.night_id);
end;
create trigger season_versions_np_upd after update on night_participants begin
    update season_versions set version = version + 1
    where year in (select season from nights where id in (old.night_id, new.night_id));
end;
create trigger season_versions_np_del after delete on night_participants begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = old.night_id);
end;

create trigger season_versions_rounds_ins after insert on rounds begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = new.night_id);
end;
create trigger season_versions_rounds_upd after update on rounds begin
    update season_versions set version = version + 1
    where year in (select season from nights where id in (old.night_id, new.night_id));
end;
create trigger season_versions_rounds_del after delete on rounds begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = old.night_id);
end;

create trigger season_versions_results_ins after insert on results begin
    update season_versions set version = version + 1
    where year = (select n.season from rounds r join nights n on n.id = r.night_id
                  where r.id = new.round_id);
end;
create trigger season_versions_results_upd after update on results begin
    update season_versions set version = version + 1
    where year in (select n.season from rounds r join nights n on n.id = r.night_id
                   where r.id in (old.round_id, new.round_id));
end;
create trigger season_versions_results_del after delete on results begin
    update season_versions set version = version + 1
    where year = (select n.season from rounds r join nights n on n.id = r.night_id
                  where r.id = old.round_id);
end;

create trigger season_versions_fines_ins after insert on fines begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = new.night_id);
end;
create trigger season_versions_fines_upd after update on fines begin
    update season_versions set version = version + 1
    where year in (select season from nights where id in (old.night_id, new.night_id));
end;
create trigger season_versions_fines_del after delete on fines begin
    update season_versions set version = version + 1
    where year = (select season from nights where id = old.night_id);
end;

-- The rename trigger above finds a player's seasons by this.
create index if not exists season_players_player on season_players(player_id);
