#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    textcodec_fuzz::sniff::sniff_html_target(data);
});
