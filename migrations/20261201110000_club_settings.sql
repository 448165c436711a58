-- The club's settings, one row (the admin's settings page): the account for the GiroCode of the
-- money card (name, IBAN, BIC), an optional PayPal.me name, and "Kasse nur für Mitglieder"
-- (money_private: the Kasse, open fines and money cards only for logged-in accounts).

create table club_settings (
    id             integer primary key check (id = 1),
    account_name   text    not null default '',
    iban           text    not null default '',
    bic            text    not null default '',
    paypal_me      text    not null default '',
    money_private  integer not null default 0,
    version        integer not null default 0
);

insert into club_settings (id) values (1);
