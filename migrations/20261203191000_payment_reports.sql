-- "Ich habe bezahlt" from the player's card (issue 34.4): a player reports a payment (amount,
-- how, the club's day he reported it); the Kassenwart books it on the Zahlungen page as a
-- payment of that amount and day ('gebucht') or marks it 'nicht_gefunden'. A payment booked
-- later for the same player and amount (by hand or from a bank statement) settles the oldest
-- open report of that amount (db::card::settle_open_report). Reports are transient: they are
-- not season data (no season version, not in the season file) and go with their season.
create table payment_reports (
    id          integer primary key,
    season      integer not null references seasons(year) on delete cascade,
    player_id   integer not null references players(id),
    cents       integer not null check (cents > 0 and cents <= 100000),
    how         text    not null check (how in ('ueberweisung', 'paypal', 'bar')),
    reported_on text    not null,
    state       text    not null default 'open'
                        check (state in ('open', 'gebucht', 'nicht_gefunden')),
    decided_by  text,
    decided_on  text
);
create index payment_reports_of_player on payment_reports (player_id, state);
create index payment_reports_of_season on payment_reports (season, state);
