fn main() {
    let args: Vec<String> = std::env::args().collect();
    let enc = textcodec::Encoding::for_label(args[1].as_bytes()).unwrap();
    let bytes = textcodec::encode(&args[2], enc).0.into_owned();
    let mut d = textcodec::detect::Detector::new();
    d.feed(&bytes, true);
    for (e, l, c) in d.probe_costs().iter().take(6) {
        println!("{e} {l} {c}");
    }
    println!("{:?}", &d.probe_best()[..4]);
    let c = d.candidates(None, false);
    println!("{:?}", &c[..c.len().min(3)]);
}
#[allow(dead_code)]
fn x() {}
