-- Every change to results, players, fees (season_players) and fines is written to audit_log by the
-- database itself (who, when, before, after as JSON), whatever code path made it. "Who" is the
-- login name the write transaction set in audit_actor (AppState::begin_write_as); begin_write
-- clears it, so unnamed writes show "?". A bulk write (season import) sets bulk = 1 and writes one
-- summary row instead (service::import_as).

create table audit_actor (
    id    integer primary key check (id = 1),
    user  text    not null,
    bulk  integer not null default 0
);

create trigger results_audit_insert after insert on results
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Ergebnis eingetragen',
        null,
        json_object('night', (select n.date from rounds x join nights n on n.id = x.night_id where x.id = new.round_id),
            'table', (select table_no from rounds where id = new.round_id),
            'round', (select number from rounds where id = new.round_id),
            'player', (select name from players where id = new.player_id),
            'outs', new.outs, 'hand_outs', new.hand_outs, 'julen', new.julen,
            'joker', new.joker, 'lost', new.lost));
end;

create trigger results_audit_update after update on results
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Ergebnis geändert',
        json_object('night', (select n.date from rounds x join nights n on n.id = x.night_id where x.id = old.round_id),
            'table', (select table_no from rounds where id = old.round_id),
            'round', (select number from rounds where id = old.round_id),
            'player', (select name from players where id = old.player_id),
            'outs', old.outs, 'hand_outs', old.hand_outs, 'julen', old.julen,
            'joker', old.joker, 'lost', old.lost),
        json_object('night', (select n.date from rounds x join nights n on n.id = x.night_id where x.id = new.round_id),
            'table', (select table_no from rounds where id = new.round_id),
            'round', (select number from rounds where id = new.round_id),
            'player', (select name from players where id = new.player_id),
            'outs', new.outs, 'hand_outs', new.hand_outs, 'julen', new.julen,
            'joker', new.joker, 'lost', new.lost));
end;

create trigger results_audit_delete after delete on results
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Ergebnis gelöscht',
        json_object('night', (select n.date from rounds x join nights n on n.id = x.night_id where x.id = old.round_id),
            'table', (select table_no from rounds where id = old.round_id),
            'round', (select number from rounds where id = old.round_id),
            'player', (select name from players where id = old.player_id),
            'outs', old.outs, 'hand_outs', old.hand_outs, 'julen', old.julen,
            'joker', old.joker, 'lost', old.lost),
        null);
end;

create trigger fines_audit_insert after insert on fines
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Strafe eingetragen',
        null,
        json_object('id', new.id, 'night', (select date from nights where id = new.night_id),
            'player', (select name from players where id = new.player_id),
            'kind', new.kind, 'amount_cents', new.amount_cents, 'paid', new.paid));
end;

create trigger fines_audit_update after update on fines
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Strafe geändert',
        json_object('id', old.id, 'night', (select date from nights where id = old.night_id),
            'player', (select name from players where id = old.player_id),
            'kind', old.kind, 'amount_cents', old.amount_cents, 'paid', old.paid),
        json_object('id', new.id, 'night', (select date from nights where id = new.night_id),
            'player', (select name from players where id = new.player_id),
            'kind', new.kind, 'amount_cents', new.amount_cents, 'paid', new.paid));
end;

create trigger fines_audit_delete after delete on fines
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Strafe gelöscht',
        json_object('id', old.id, 'night', (select date from nights where id = old.night_id),
            'player', (select name from players where id = old.player_id),
            'kind', old.kind, 'amount_cents', old.amount_cents, 'paid', old.paid),
        null);
end;

create trigger season_players_audit_insert after insert on season_players
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Spieler in Saison aufgenommen',
        null,
        json_object('season', new.season, 'player', (select name from players where id = new.player_id),
            'fee_paid_on', new.fee_paid_on, 'fee_cents', new.fee_cents));
end;

create trigger season_players_audit_update after update on season_players
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Jahresbeitrag/Saisonspieler geändert',
        json_object('season', old.season, 'player', (select name from players where id = old.player_id),
            'fee_paid_on', old.fee_paid_on, 'fee_cents', old.fee_cents),
        json_object('season', new.season, 'player', (select name from players where id = new.player_id),
            'fee_paid_on', new.fee_paid_on, 'fee_cents', new.fee_cents));
end;

create trigger season_players_audit_delete after delete on season_players
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Spieler aus Saison entfernt',
        json_object('season', old.season, 'player', (select name from players where id = old.player_id),
            'fee_paid_on', old.fee_paid_on, 'fee_cents', old.fee_cents),
        null);
end;

create trigger players_audit_insert after insert on players
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Spieler angelegt',
        null,
        json_object('id', new.id, 'name', new.name));
end;

create trigger players_audit_update after update on players
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Spieler geändert',
        json_object('id', old.id, 'name', old.name),
        json_object('id', new.id, 'name', new.name));
end;

create trigger players_audit_delete after delete on players
when coalesce((select bulk from audit_actor where id = 1), 0) = 0
begin
    insert into audit_log (at, user, action, before_json, after_json) values (
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
        coalesce((select user from audit_actor where id = 1), '?'),
        'Spieler gelöscht',
        json_object('id', old.id, 'name', old.name),
        null);
end;
