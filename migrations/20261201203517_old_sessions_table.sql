-- Sessions live in their own file beside the database (`<db>-sitzungen`, db::sessions_path) since
-- the session store moved out of the league's file; a database from before still holds the old
-- `tower_sessions` table with stale sessions (bearer secrets of logged-in users). It is dropped
-- (issue 22.12): nothing reads it, and a backup of the league's file no longer carries sessions.
drop table if exists tower_sessions;
