-- Sessions that keep their word (SECURITY.md "Sessions"): a session of a user ends for good when it
-- logged in at or before his cutoff. Disabling an account sets the cutoff to now, so enabling it
-- again does not bring the old sessions back; a password change may do the same.

create table session_cutoffs (
    user_id  integer primary key references users(id) on delete cascade,
    after    integer not null          -- Unix seconds: sessions that logged in at or before end
);
