-- Scorer links (issue 11.2): one link per table of a night lets its holder, without an account,
-- enter and correct that table's rounds until the night is closed or the link is revoked. Only
-- the SHA-256 of the random token is stored (SECURITY.md "Scorer links"); a new link of the same
-- table revokes the older one.

create table scorer_links (
    id          integer primary key,
    night_id    integer not null references nights(id) on delete cascade,
    table_no    integer not null,
    token_hash  text    not null unique,
    created_by  text    not null,
    created_at  text    not null,
    revoked     integer not null default 0
);

create index scorer_links_night on scorer_links(night_id, table_no);
