-- The Schockbesteck (live scoring): a Runde in progress at a table of a night, stored as the rules
-- engine's record (players in seat order, rules, the applied Wurfrunden as JSON), so it survives a
-- page reload and a server restart. The state is always rebuilt by replaying the Wurfrunden. The row
-- is deleted when the Runde's result is confirmed into `rounds`/`results`.
create table besteck_runden (
    night_id     integer not null references nights(id) on delete cascade,
    table_no     integer not null,
    number       integer not null,
    record_json  text    not null,
    updated_at   text    not null,
    primary key (night_id, table_no, number)
);
