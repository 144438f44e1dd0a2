//! The committed tables must be exactly what the generator makes from data/whatwg/.

#[test]
fn committed_tables_are_fresh() {
    let root = xtask::repo_root();
    let files = xtask::generate(&root.join("data/whatwg")).expect("generate");
    let dir = root.join("crates/textcodec/src/tables");
    let mut stale = Vec::new();
    for f in &files {
        let committed = std::fs::read_to_string(dir.join(&f.name)).unwrap_or_default();
        if committed != f.contents {
            stale.push(f.name.clone());
        }
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut expected: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    expected.sort();
    assert_eq!(
        on_disk, expected,
        "src/tables holds files the generator does not make"
    );
    assert!(
        stale.is_empty(),
        "stale tables {stale:?}: run `cargo xtask gen-tables`"
    );
}

#[test]
fn index_parsing_follows_the_spec() {
    let idx = xtask::parse_index("# comment\n\n  0\t0x0402\tЂ (CYRILLIC)\n127\t0x00A0\n").unwrap();
    assert_eq!(idx, vec![(0, 0x402), (127, 0xA0)]);
}

#[test]
fn committed_detect_model_is_fresh() {
    let root = xtask::repo_root();
    let file = xtask::detect_model::generate(&root).expect("generate");
    let path = root.join("crates/textcodec/src/detect").join(&file.name);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == file.contents,
        "stale {}: run `cargo xtask gen-detect-model`",
        path.display()
    );
}
