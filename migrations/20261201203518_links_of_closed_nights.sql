-- Closing a night revokes its scorer links in the same transaction (issue 22.1, db::change): before
-- this, a closed night's links stayed `revoked = 0` and worked again once the night was reopened.
-- The links of nights closed before this version are revoked here, so no reopening revives them.
update scorer_links set revoked = 1
where revoked = 0 and night_id in (select id from nights where closed = 1);
