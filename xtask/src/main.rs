//! `cargo xtask gen-tables`: regenerate `crates/textcodec/src/tables/` from `data/whatwg/`.
//! `cargo xtask gen-detect-model`: regenerate `crates/textcodec/src/detect/model.rs` from
//! `data/detect/train/` and `data/whatwg/`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen-tables") => {
            let root = xtask::repo_root();
            let files = match xtask::generate(&root.join("data/whatwg")) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("xtask: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let dir = root.join("crates/textcodec/src/tables");
            std::fs::create_dir_all(&dir).expect("create tables dir");
            for f in files {
                std::fs::write(dir.join(&f.name), f.contents).expect("write table");
                println!("wrote crates/textcodec/src/tables/{}", f.name);
            }
            ExitCode::SUCCESS
        }
        Some("gen-detect-model") => {
            let root = xtask::repo_root();
            let file = match xtask::detect_model::generate(&root) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("xtask: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let path = root.join("crates/textcodec/src/detect").join(&file.name);
            std::fs::write(&path, file.contents).expect("write model");
            println!("wrote {}", path.display());
            println!(
                "model tables: {} bytes",
                xtask::detect_model::table_bytes(&root).expect("model size")
            );
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: cargo xtask gen-tables | gen-detect-model");
            ExitCode::from(2)
        }
    }
}
