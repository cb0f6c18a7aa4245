//! A question to a referee (`strategikon referee`, the browser's referee page): each rule set
//! with a referee answers it or says what is wrong with it, as `strategikon referee` does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strategikon_fuzz::within;

fuzz_target!(|data: &[u8]| {
    let Ok(question) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    for id in strategikon::registry::REFEREES {
        let _ = within(1.0, || strategikon::registry::referee(id, &question));
    }
});
