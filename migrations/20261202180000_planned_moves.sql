-- A planned night moved to another day leaves its old day behind, and with it the links shared
-- for that day (the WhatsApp group, a calendar entry opened before the move): the old day's page
-- sends on to the night's page on its present day. One row per day left; a day left twice keeps
-- the night that left it last.
create table planned_moves (
    from_date   text    primary key,
    planned_id  integer not null references planned_nights(id) on delete cascade,
    moved_at    text    not null
);
