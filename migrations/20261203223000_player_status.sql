-- Who still plays (issue 36.4): a player's status in a season. No row = aktiv; 'pausiert', or
-- 'ausgetreten' with the day he left. Only the order of the attendance and Zusage lists reads it:
-- no figure of the table, the money or the history does.
create table player_status (
    season    integer not null references seasons(year) on delete cascade,
    player_id integer not null references players(id) on delete cascade,
    status    text not null check (status in ('pausiert', 'ausgetreten')),
    day       text check (day is null or day glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    check ((status = 'ausgetreten') = (day is not null)),
    primary key (season, player_id)
);
