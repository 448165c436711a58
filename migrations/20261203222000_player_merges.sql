-- Merging players (issue 36.2, 36.3): one row per merge of player `gone_id` into `kept_id`, with who,
-- when and why, and what it moved (`moved_json`: per table the keys of the rows whose player it
-- changed, the rows it removed where both had one, the kept player's Jahresbeitrag before) so that
-- "Trennen" restores both exactly. The merged-away player keeps his `players` row (his name answers
-- with a redirect, his card link with a notice). A merge is undone by setting `undone_at`; while
-- not undone, a player is merged away at most once.
create table player_merges (
    id          integer primary key,
    kept_id     integer not null references players(id),
    gone_id     integer not null references players(id),
    reason      text    not null,
    user        text    not null,
    at          text    not null,
    moved_json  text    not null,
    undone_at   text,
    undone_by   text,
    undone_reason text
);

create unique index player_merges_gone on player_merges(gone_id) where undone_at is null;
create index player_merges_kept on player_merges(kept_id, undone_at);
