//! `&'static Encoding` with serde: serialized as its name, deserialized from any label.
#![cfg(feature = "serde")]

use serde::{Deserialize, Serialize};
use textcodec::Encoding;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Config {
    input: &'static Encoding,
    output: Option<&'static Encoding>,
}

#[test]
fn names_round_trip_for_every_encoding() {
    for &encoding in Encoding::all() {
        let json = serde_json::to_string(&encoding).unwrap();
        assert_eq!(json, format!("\"{}\"", encoding.name()));
        let back: &'static Encoding = serde_json::from_str(&json).unwrap();
        assert_eq!(back, encoding);
    }
}

#[test]
fn every_label_deserializes() {
    for &encoding in Encoding::all() {
        for label in encoding.labels() {
            for variant in [
                label.to_string(),
                label.to_ascii_uppercase(),
                format!(" \t{label}\n"),
            ] {
                let json = serde_json::to_string(&variant).unwrap();
                let got: &'static Encoding = serde_json::from_str(&json).unwrap();
                assert_eq!(got, encoding, "{variant:?}");
            }
        }
    }
}

#[test]
fn in_a_struct() {
    let config: Config = serde_json::from_str(r#"{"input":"sjis","output":"latin1"}"#).unwrap();
    assert_eq!(
        config,
        Config {
            input: textcodec::SHIFT_JIS,
            output: Some(textcodec::WINDOWS_1252)
        }
    );
    assert_eq!(
        serde_json::to_string(&config).unwrap(),
        r#"{"input":"Shift_JIS","output":"windows-1252"}"#
    );
}

#[test]
fn unknown_labels_are_errors() {
    for bad in [r#""utf-9""#, r#""""#, "42", "null", r#""utf-8\u0000""#] {
        assert!(
            serde_json::from_str::<&'static Encoding>(bad).is_err(),
            "{bad}"
        );
    }
    let err = serde_json::from_str::<&'static Encoding>(r#""klingon""#).unwrap_err();
    assert!(err.to_string().contains("klingon"), "{err}");
    assert!(err.to_string().contains("encoding label"), "{err}");
}
