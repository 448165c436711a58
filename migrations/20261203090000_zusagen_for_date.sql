-- A moved night keeps its Zusagen for the old day (issue 31.11): each answer remembers the day the
-- night was planned on when it was given. Until the player answers again for the new day, his
-- answer is shown apart ("für den alten Tag") and not counted. Answers stored before are for the
-- day their night is on now.
alter table zusagen add column for_date text not null default '';

update zusagen set for_date = (select n.date from planned_nights n where n.id = zusagen.planned_id);
