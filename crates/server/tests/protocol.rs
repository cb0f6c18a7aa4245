//! The client's TypeScript protocol types are generated from the Rust types: this test
//! regenerates `client/protocol.d.ts` and fails if it changed, so they cannot drift.

use std::path::Path;

#[test]
fn protocol_d_ts_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("client/protocol.d.ts");
    let fresh = server::protocol::typescript();
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if old != fresh {
        std::fs::write(&path, &fresh).unwrap();
        panic!(
            "{} was out of date and has been regenerated from protocol.rs: review it and run \
             the tests again",
            path.display()
        );
    }
}
