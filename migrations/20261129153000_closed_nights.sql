-- A closed Spielabend changes only through an explicit correction (SECURITY.md "Closed nights").
-- The triggers refuse every insert, update and delete of its participants, rounds, results and fines
-- while the night is closed, unless an active correction row for it exists; the correction is
-- opened and ended inside the same transaction as the change (db::closing). Deleting the night
-- itself (season --replace) is allowed: its children then no longer find a closed night.

create table night_corrections (
    id        integer primary key,
    night_id  integer not null references nights(id) on delete cascade,
    at        text    not null,
    user      text    not null,
    reason    text    not null,
    active    integer not null default 1
);

create index night_corrections_night on night_corrections(night_id);

create trigger night_participants_closed_insert before insert on night_participants
when (select closed from nights where id = new.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = new.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger night_participants_closed_update before update on night_participants
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger night_participants_closed_delete before delete on night_participants
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;

create trigger rounds_closed_insert before insert on rounds
when (select closed from nights where id = new.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = new.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger rounds_closed_update before update on rounds
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger rounds_closed_delete before delete on rounds
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;

create trigger fines_closed_insert before insert on fines
when (select closed from nights where id = new.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = new.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger fines_closed_update before update on fines
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger fines_closed_delete before delete on fines
when (select closed from nights where id = old.night_id) = 1
 and not exists (select 1 from night_corrections c where c.night_id = old.night_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;

create trigger results_closed_insert before insert on results
when (select n.closed from rounds r join nights n on n.id = r.night_id where r.id = new.round_id) = 1
 and not exists (select 1 from rounds r join night_corrections c on c.night_id = r.night_id
                 where r.id = new.round_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger results_closed_update before update on results
when (select n.closed from rounds r join nights n on n.id = r.night_id where r.id = old.round_id) = 1
 and not exists (select 1 from rounds r join night_corrections c on c.night_id = r.night_id
                 where r.id = old.round_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
create trigger results_closed_delete before delete on results
when (select n.closed from rounds r join nights n on n.id = r.night_id where r.id = old.round_id) = 1
 and not exists (select 1 from rounds r join night_corrections c on c.night_id = r.night_id
                 where r.id = old.round_id and c.active = 1)
begin select raise(abort, 'Spielabend ist abgeschlossen: Änderung nur als Korrektur'); end;
