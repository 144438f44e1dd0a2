//! The `encoding_rs` feature: `&'static textcodec::Encoding` to and from
//! `&'static encoding_rs::Encoding`, each to the encoding of the same name, both ways, for all
//! 40; what crates built on encoding_rs answer (chardetng's guess) plugs into textcodec.
//! Runs with `--all-features` (`.ci/run`).
#![cfg(feature = "encoding_rs")]

use textcodec::Encoding;

#[test]
fn every_encoding_both_ways() {
    assert_eq!(Encoding::all().len(), 40);
    let mut seen = Vec::new();
    for &ours in Encoding::all() {
        let theirs: &'static encoding_rs::Encoding = ours.into();
        assert_eq!(theirs.name(), ours.name());
        assert_eq!(ours.to_encoding_rs(), theirs);
        let back: &'static Encoding = theirs.into();
        assert_eq!(back, ours);
        assert_eq!(Encoding::from_encoding_rs(theirs), ours);
        // encoding_rs's own registry agrees: every label of ours names that encoding there.
        for label in ours.labels() {
            assert_eq!(
                encoding_rs::Encoding::for_label(label.as_bytes()),
                Some(theirs),
                "{label}"
            );
        }
        assert!(!seen.contains(&theirs.name()));
        seen.push(theirs.name());
    }
}

#[test]
fn results_of_encoding_rs_crates_plug_in() {
    use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
    let sjis = encoding_rs::SHIFT_JIS
        .encode("日本語のテキストです。文字コードを当てる。")
        .0;
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(&sjis, true);
    let guess: &'static Encoding = detector.guess(None, Utf8Detection::Allow).into();
    assert_eq!(guess, textcodec::SHIFT_JIS);
    assert_eq!(
        guess.decode(&sjis).0,
        "日本語のテキストです。文字コードを当てる。"
    );
    // And back, for an API that takes encoding_rs's.
    let theirs: &'static encoding_rs::Encoding = textcodec::EUC_KR.into();
    assert_eq!(theirs.decode(b"\xC7\xD1").0, "한");
}
