-- The throws of a round confirmed from the Schockbesteck (issue 10.7, the Glücksfaktor): the rules
-- engine's record (players in seat order, rules, every Wurfrunde) as JSON, kept with the round it
-- produced. It belongs to that stored round: re-entering the round by hand (a new `rounds` row) or
-- removing it drops the throws with it; moving it to the other table keeps them. The season file
-- carries it as `rounds[].schockbesteck`. Writes count as changes of the round's season.

create table round_schockbesteck (
    round_id     integer primary key references rounds(id) on delete cascade,
    record_json  text    not null
);

create trigger season_versions_round_schockbesteck_ins after insert on round_schockbesteck begin
    update season_versions set version = version + 1
    where year = (select n.season from rounds r join nights n on n.id = r.night_id
                  where r.id = new.round_id);
end;
create trigger season_versions_round_schockbesteck_upd after update on round_schockbesteck begin
    update season_versions set version = version + 1
    where year in (select n.season from rounds r join nights n on n.id = r.night_id
                   where r.id in (old.round_id, new.round_id));
end;
create trigger season_versions_round_schockbesteck_del after delete on round_schockbesteck begin
    update season_versions set version = version + 1
    where year = (select n.season from rounds r join nights n on n.id = r.night_id
                  where r.id = old.round_id);
end;
