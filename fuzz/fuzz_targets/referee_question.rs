//! A question to a referee (`strategikon referee`, the browser's referee page): each rule set
//! with a referee answers it or says what is wrong with it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strategikon_fuzz::within;

fuzz_target!(|data: &[u8]| {
    let Ok(question) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let _ = within(1.0, || movement::referee::answer(&question));
    let _ = within(1.0, || wrg1969::referee::answer(&question));
});
