-- The club's time zone (issue 23, interchange.md "Running it for a club"): an IANA name such as
-- Europe/Berlin; empty means the default (Europe/Berlin). `--timezone` on the command line wins.

alter table club_settings add column timezone text not null default '';
