-- Payment days of fines (league.md §6, the Kasse counts income by the day it came in) and the
-- netting of the Jahresabschluss (league.md §8: open fines paid out of a payee's share).
-- paid_on NULL on a paid fine = paid at the night (every fine stored before this migration).
-- Both columns pass the closed-night trigger: collecting a fine later is normal
-- (20261129180000_fines_paid_on_closed_night lists the columns that need a Korrektur).

alter table fines add column paid_on text;
alter table fines add column netted integer not null default 0;

drop trigger fines_audit_update;

create trigger fines_audit_update after update on fines
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Strafe geändert',
        json_object('id', old.id, 'night', (select date from nights where id = old.night_id),
            'player', (select name from players where id = old.player_id),
            'kind', old.kind, 'amount_cents', old.amount_cents, 'paid', old.paid,
            'paid_on', old.paid_on, 'netted', old.netted),
        json_object('id', new.id, 'night', (select date from nights where id = new.night_id),
            'player', (select name from players where id = new.player_id),
            'kind', new.kind, 'amount_cents', new.amount_cents, 'paid', new.paid,
            'paid_on', new.paid_on, 'netted', new.netted));
end;
