-- A bank's entry reference is not unique across statements (hostile trial): some banks write the
-- placeholder NONREF, others number each statement's entries from 1. A reference identifies a
-- booked credit only together with its day and amount, so it is no longer a unique key.
drop index statement_entries_ref;
create index statement_entries_ref_day on statement_entries (bank_ref, date, cents) where bank_ref is not null;
