use super::*;

/// A store whose saves fail with the given error text.
#[derive(Debug, Clone)]
struct Failing(&'static str);

#[async_trait]
impl SessionStore for Failing {
    async fn save(&self, _: &Record) -> session_store::Result<()> {
        Err(session_store::Error::Backend(self.0.to_string()))
    }
    async fn load(&self, _: &Id) -> session_store::Result<Option<Record>> {
        Ok(None)
    }
    async fn delete(&self, _: &Id) -> session_store::Result<()> {
        Ok(())
    }
}

fn record() -> Record {
    Record {
        id: Id::default(),
        data: Default::default(),
        expiry_date: time::OffsetDateTime::now_utc(),
    }
}

#[tokio::test]
async fn only_a_full_disk_is_let_pass_on_save() {
    // (error text of the store, save passes)
    let cases = [
        (
            "error returned from database: (code: 13) database or disk is full",
            true,
        ),
        ("database or disk is full", true),
        (
            "error returned from database: (code: 5) database is locked",
            false,
        ),
        (
            "error returned from database: (code: 8) attempt to write a readonly database",
            false,
        ),
    ];
    for (text, passes) in cases {
        let got = Tolerant(Failing(text)).save(&record()).await.is_ok();
        assert_eq!(got, passes, "{text}");
    }
    // A login (create) on a full disk stays an error: without a stored session it would not work.
    let mut r = record();
    assert!(Tolerant(Failing("(code: 13) database or disk is full"))
        .create(&mut r)
        .await
        .is_err());
}
