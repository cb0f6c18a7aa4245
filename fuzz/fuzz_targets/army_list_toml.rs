//! A WRG 1969 army list or championship entry list, as `strategikon validate` reads it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use strategikon_fuzz::{text, within};
use tabletop::Source;
use wrg1969::data::Data;

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| Data::embedded().expect("the embedded data loads"))
}

fuzz_target!(|data_in: &[u8]| {
    let Some(text) = text(data_in) else { return };
    let source = Source::new("army.toml", text);
    let _ = within(1.0, || wrg1969::army::load(data(), &source));
    let _ = within(1.0, || wrg1969::championship::load(data(), &source));
});
