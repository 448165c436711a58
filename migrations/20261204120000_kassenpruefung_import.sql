-- A Geprüft imported from a season file (issue 35.4, new-user trial: the club file lost the
-- Kassenprüfung): how many Belege came after it in the file. The journal of the importing
-- database numbers its Belege anew; once it has booked the season, the Prüfung's last Beleg is
-- its last number minus these, and the column is cleared (NULL: nothing pending).
alter table kassenpruefungen add column belege_after_import integer
    check (belege_after_import is null or belege_after_import >= 0);
