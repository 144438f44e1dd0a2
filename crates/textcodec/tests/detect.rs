//! Behaviour of `textcodec::detect::Detector`: chunking invariance, constant memory, the
//! UTF-8 and ASCII rules, the top-level-domain hint, a single non-ASCII word in each script,
//! and text drowned in HTML markup.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

mod support;
use support::{corpus_file as corpus, prefix as cut};
use textcodec::detect::Detector;
use textcodec::Encoding;

/// Counts the allocations of this test binary, to show that `feed` allocates nothing.
struct Counting;

thread_local! {
    /// This thread's allocations (tests run on several threads at once).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

fn count_one() {
    ALLOCATIONS.with(|c| c.set(c.get() + 1));
}

// SAFETY (test allocator): forwards to the system allocator unchanged, only counting calls.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    textcodec::encode(text, encoding).0.into_owned()
}

fn detect(bytes: &[u8], tld: Option<&[u8]>, allow_utf8: bool) -> &'static Encoding {
    let mut d = Detector::new();
    d.feed(bytes, true);
    d.guess(tld, allow_utf8)
}

/// Whether `guess` decodes `bytes` exactly as `truth` does (confusable encodings that decode
/// the input identically are right answers).
fn decodes_as(bytes: &[u8], guess: &'static Encoding, truth: &'static Encoding) -> bool {
    guess == truth || textcodec::decode(bytes, guess).0 == textcodec::decode(bytes, truth).0
}

fn assert_detects(bytes: &[u8], truth: &'static Encoding, tld: Option<&[u8]>, what: &str) {
    let guess = detect(bytes, tld, false);
    assert!(
        decodes_as(bytes, guess, truth),
        "{what}: guessed {guess:?} for {truth:?} (tld {:?})",
        tld.map(String::from_utf8_lossy)
    );
}

/// A deterministic split of `len` bytes into chunks of 0 to `max` bytes.
fn splits(len: usize, seed: u32, max: u32) -> Vec<usize> {
    let mut rng = support::Rng::new(seed as u64);
    let mut cuts = Vec::new();
    let mut at = 0;
    while at < len {
        at = (at + rng.below(max as usize + 1)).min(len);
        cuts.push(at);
    }
    cuts
}

#[test]
fn any_split_gives_the_same_candidates() {
    let samples: Vec<(Vec<u8>, &str)> = vec![
        (
            encode(cut(&corpus("ru.txt"), 3000), textcodec::KOI8_R),
            "ru",
        ),
        (
            encode(cut(&corpus("ja.txt"), 2000), textcodec::SHIFT_JIS),
            "ja",
        ),
        (
            encode(cut(&corpus("ja.txt"), 2000), textcodec::ISO_2022_JP),
            "ja",
        ),
        (
            encode(cut(&corpus("ja.txt"), 2000), textcodec::EUC_JP),
            "ja",
        ),
        (
            encode(cut(&corpus("zh_tw.txt"), 2000), textcodec::BIG5),
            "zh_tw",
        ),
        (
            encode(cut(&corpus("zh_cn.txt"), 2000), textcodec::GB18030),
            "zh_cn",
        ),
        (
            encode(cut(&corpus("ko.txt"), 2000), textcodec::EUC_KR),
            "ko",
        ),
        (
            encode(cut(&corpus("cs.txt"), 3000), textcodec::ISO_8859_2),
            "cs",
        ),
        (
            encode(cut(&corpus("th.txt"), 3000), textcodec::WINDOWS_874),
            "th",
        ),
        (
            // Elisions with the typographic apostrophe (l’, d’) at every chunk edge.
            encode(
                &cut(&corpus("fr.txt"), 3000).replace('\'', "\u{2019}"),
                textcodec::WINDOWS_1252,
            ),
            "fr elisions",
        ),
        (corpus("el.txt").as_bytes()[..3001].to_vec(), "el utf-8 cut"),
        (corpus("de.html").as_bytes()[..20000].to_vec(), "de html"),
    ];
    for (bytes, what) in &samples {
        let mut whole = Detector::new();
        whole.feed(bytes, true);
        for seed in 1..6 {
            for max in [1, 3, 17, 200] {
                let mut d = Detector::new();
                let mut from = 0;
                for to in splits(bytes.len(), seed, max) {
                    d.feed(&bytes[from..to], false);
                    from = to;
                }
                d.feed(&[], true);
                for tld in [None, Some(&b"com"[..]), Some(b"jp"), Some(b"ru")] {
                    for allow in [false, true] {
                        assert_eq!(
                            d.candidates(tld, allow),
                            whole.candidates(tld, allow),
                            "{what}: split {seed}/{max}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn feeding_allocates_nothing() {
    let bytes = encode(&corpus("ru.html"), textcodec::WINDOWS_1251);
    let jp = encode(&corpus("ja.html"), textcodec::EUC_JP);
    let mut d = Detector::new();
    let before = allocations();
    for _ in 0..4 {
        for chunk in bytes.chunks(4093).chain(jp.chunks(1000)) {
            d.feed(chunk, false);
        }
    }
    d.feed(&[], true);
    assert_eq!(allocations(), before);
    assert_eq!(std::mem::size_of_val(&d), std::mem::size_of::<Detector>());
}

#[test]
fn valid_utf8_with_non_ascii_is_utf8_when_allowed() {
    for name in [
        "ar.txt",
        "cs.txt",
        "de.txt",
        "el.txt",
        "fr.txt",
        "he.txt",
        "ja.txt",
        "ko.txt",
        "ru.txt",
        "th.txt",
        "tr.txt",
        "vi.txt",
        "zh_cn.txt",
        "zh_tw.txt",
        "en.html",
        "ja.html",
    ] {
        let text = corpus(name);
        for len in [12, 40, 300, text.len()] {
            let bytes = cut(&text, len).as_bytes();
            if bytes.is_ascii() {
                continue;
            }
            for tld in [None, Some(&b"jp"[..]), Some(b"ru"), Some(b"com")] {
                assert_eq!(detect(bytes, tld, true), textcodec::UTF_8, "{name} {len}");
            }
        }
    }
    // A single non-ASCII character is enough.
    assert_eq!(detect("naïve".as_bytes(), None, true), textcodec::UTF_8);
    // Invalid UTF-8 is not UTF-8, even when allowed.
    assert_ne!(detect(b"na\xefve", None, true), textcodec::UTF_8);
    // UTF-8 cut inside a character, not at the end: still a candidate until the end.
    let mut d = Detector::new();
    d.feed(&"é".as_bytes()[..1], false);
    assert_eq!(d.guess(None, true), textcodec::UTF_8);
}

#[test]
fn utf8_is_never_the_answer_when_not_allowed() {
    for name in ["ru.txt", "ja.txt", "de.txt", "zh_tw.txt"] {
        let text = corpus(name);
        for tld in [None, Some(&b"ru"[..]), Some(b"jp")] {
            let mut d = Detector::new();
            d.feed(text.as_bytes(), true);
            assert_ne!(d.guess(tld, false), textcodec::UTF_8);
            assert!(d
                .candidates(tld, false)
                .iter()
                .all(|&(e, _)| e != textcodec::UTF_8));
        }
    }
}

#[test]
fn ascii_is_utf8_when_allowed_else_windows_1252_or_the_tlds() {
    for bytes in [
        &b""[..],
        b"Hello, world",
        b"<!DOCTYPE html><html><head><title>x</title></head><body>plain</body></html>",
    ] {
        assert_eq!(detect(bytes, None, true), textcodec::UTF_8);
        assert_eq!(detect(bytes, Some(b"jp"), true), textcodec::UTF_8);
        assert_eq!(detect(bytes, None, false), textcodec::WINDOWS_1252);
        assert_eq!(detect(bytes, Some(b"com"), false), textcodec::WINDOWS_1252);
        assert_eq!(detect(bytes, Some(b"jp"), false), textcodec::SHIFT_JIS);
        assert_eq!(detect(bytes, Some(b"ru"), false), textcodec::WINDOWS_1251);
        assert_eq!(detect(bytes, Some(b"cz"), false), textcodec::WINDOWS_1250);
        assert_eq!(detect(bytes, Some(b"tw"), false), textcodec::BIG5);
        let mut d = Detector::new();
        assert!(!d.feed(bytes, true));
        assert_eq!(d.candidates(None, false)[0].0, textcodec::WINDOWS_1252);
    }
}

#[test]
fn iso_2022_jp_is_detected_in_seven_bit_input() {
    let text = "<p>火星は太陽系の惑星です。</p>";
    let bytes = encode(text, textcodec::ISO_2022_JP);
    assert!(bytes.is_ascii());
    assert_eq!(detect(&bytes, None, false), textcodec::ISO_2022_JP);
    assert_eq!(detect(&bytes, None, true), textcodec::ISO_2022_JP);
}

#[test]
fn scores_are_ranked_and_in_range() {
    let bytes = encode(cut(&corpus("he.txt"), 500), textcodec::WINDOWS_1255);
    let mut d = Detector::new();
    d.feed(&bytes, true);
    let c = d.candidates(None, false);
    assert!(!c.is_empty());
    assert_eq!(c[0].0, d.guess(None, false));
    for w in c.windows(2) {
        assert!(w[0].1 >= w[1].1);
    }
    assert!(c.iter().all(|&(_, s)| (0.0..=1.0).contains(&s)));
    // Every candidate decodes the input without error.
    for &(e, _) in &c {
        assert!(!textcodec::decode(&bytes, e).2, "{e:?} is not possible");
    }
}

#[test]
fn encodings_that_decode_the_input_alike_share_their_probability() {
    // Estonian "sõnastik": õ is 0xF5 in windows-1257, ISO-8859-4, ISO-8859-13 and
    // ISO-8859-15, which all decode it to the same text; each alone is less likely than
    // Vietnamese in windows-1258, together they are the answer.
    let bytes = encode("sõnastik", textcodec::WINDOWS_1257);
    assert_detects(&bytes, textcodec::WINDOWS_1257, None, "sõnastik");
    let mut d = Detector::new();
    d.feed(&bytes, true);
    let c = d.candidates(None, false);
    let score = |e: &'static Encoding| c.iter().find(|&&(x, _)| x == e).map(|&(_, s)| s);
    let alike = [
        textcodec::WINDOWS_1257,
        textcodec::ISO_8859_4,
        textcodec::ISO_8859_13,
        textcodec::ISO_8859_15,
    ];
    for e in alike {
        assert_eq!(score(e), score(textcodec::WINDOWS_1257), "{e:?}");
    }
    // They rank together, at the top.
    assert!(
        c[..alike.len()].iter().all(|(e, _)| alike.contains(e)),
        "{c:?}"
    );
    assert!(score(textcodec::WINDOWS_1258) < score(textcodec::WINDOWS_1257));
}

#[test]
fn the_tld_hint_decides_between_confusable_encodings() {
    // "Žluťoučký kůň" fits windows-1250; a short Latin word with one letter from the upper
    // half is what the hint is for: on .cz it is Czech in windows-1250.
    let bytes = encode("Příliš", textcodec::WINDOWS_1250);
    assert_detects(&bytes, textcodec::WINDOWS_1250, Some(b"cz"), "cz");
    let bytes = encode("Ελλάδα", textcodec::ISO_8859_7);
    assert_detects(&bytes, textcodec::ISO_8859_7, Some(b"gr"), "gr");
    let bytes = encode("Москва", textcodec::WINDOWS_1251);
    assert_detects(&bytes, textcodec::WINDOWS_1251, Some(b"ru"), "ru");
    let bytes = encode("東京", textcodec::SHIFT_JIS);
    assert_detects(&bytes, textcodec::SHIFT_JIS, Some(b"jp"), "jp");
    let bytes = encode("東京", textcodec::BIG5);
    assert_detects(&bytes, textcodec::BIG5, Some(b"tw"), "tw");
    let bytes = encode("北京", textcodec::GBK);
    assert_detects(&bytes, textcodec::GBK, Some(b"cn"), "cn");
}

#[test]
fn the_tld_hint_follows_the_encodings_of_the_countrys_pages() {
    // Byte 0xB9 is `š` in ISO-8859-2 and `č` in ISO-8859-16, where "bolničnica" reads as
    // well as "bolnišnica"; ISO-8859-16 was Romania's encoding, not Slovenia's.
    let bytes = encode("splošna bolnišnica v mestu", textcodec::ISO_8859_2);
    assert_detects(&bytes, textcodec::ISO_8859_2, Some(b"si"), "si");
}

#[test]
fn a_titles_ascii_words_tell_its_language() {
    // Byte 0xFE is Romanian `ţ` in windows-1250 and Lithuanian `ž` in windows-1257: the
    // ASCII words around it decide.
    let bytes = encode("pentru teritoriul care ţine de", textcodec::WINDOWS_1250);
    assert_detects(&bytes, textcodec::WINDOWS_1250, None, "ro");
    let bytes = encode("Lietuvos Respublikos žinios", textcodec::WINDOWS_1257);
    assert_detects(&bytes, textcodec::WINDOWS_1257, None, "lt");
}

#[test]
fn a_single_non_ascii_word_in_each_script() {
    let cases: &[(&str, &'static Encoding)] = &[
        ("Gr\u{fc}\u{df}e", textcodec::WINDOWS_1252),
        ("caf\u{e9}", textcodec::WINDOWS_1252),
        ("Kraków", textcodec::WINDOWS_1250),
        ("Москва", textcodec::WINDOWS_1251),
        ("Москва", textcodec::KOI8_R),
        ("Αθήνα", textcodec::WINDOWS_1253),
        ("İstanbul", textcodec::WINDOWS_1254),
        ("ירושלים", textcodec::WINDOWS_1255),
        ("القاهرة", textcodec::WINDOWS_1256),
        ("Lietuvoje", textcodec::WINDOWS_1257),
        ("กรุงเทพ", textcodec::WINDOWS_874),
        ("東京都", textcodec::SHIFT_JIS),
        ("東京都", textcodec::EUC_JP),
        ("서울특별시", textcodec::EUC_KR),
        ("北京市", textcodec::GBK),
        ("臺北市", textcodec::BIG5),
    ];
    for &(word, truth) in cases {
        let sentence = format!("The word {word} stands alone in this sentence.");
        let bytes = encode(&sentence, truth);
        assert_detects(&bytes, truth, None, word);
        // The same word in a paragraph of English and markup.
        let page = format!(
            "<html><head><title>Places</title></head><body><p>Some names are written in \
             their own script, and this page has one of them: <b>{word}</b>, which the \
             reader may know from the news. Everything else on the page is plain English \
             text in a paragraph.</p></body></html>"
        );
        let bytes = encode(&page, truth);
        assert_detects(&bytes, truth, None, word);
    }
}

#[test]
fn an_elision_is_an_apostrophe_not_a_letter() {
    // windows-1252's ’ (0x92) is macintosh's í: "d’aquest" is not "díaquest". The apostrophe
    // right after a word's first letter is costed as an elision, by the letter.
    for text in ["Parlem d\u{2019}aquest tema", "Il parle d\u{2019}abord"] {
        let bytes = encode(text, textcodec::WINDOWS_1252);
        assert_detects(&bytes, textcodec::WINDOWS_1252, None, text);
    }
}

#[test]
fn html_markup_does_not_drown_the_text() {
    for (name, truth) in [
        ("ru.html", textcodec::WINDOWS_1251),
        ("ja.html", textcodec::SHIFT_JIS),
        ("el.html", textcodec::ISO_8859_7),
        ("cs.html", textcodec::WINDOWS_1250),
        ("de.html", textcodec::WINDOWS_1252),
        ("ko.html", textcodec::EUC_KR),
    ] {
        let html = corpus(name);
        // The first 20 KB: mostly the head's markup, styles and scripts.
        let bytes = encode(cut(&html, 20_000), truth);
        assert_detects(&bytes, truth, None, name);
        let bytes = encode(&html, truth);
        assert_detects(&bytes, truth, None, name);
    }
}

#[test]
fn costs_do_not_overflow_on_long_input() {
    // 256 MB of Russian: the costs add up past 2^32 tenths of a nat (32-bit costs overflowed
    // here: a panic with overflow checks on).
    let chunk = encode(&corpus("ru.txt"), textcodec::WINDOWS_1251);
    let mut d = Detector::new();
    let mut fed = 0;
    while fed < 256 << 20 {
        d.feed(&chunk, false);
        fed += chunk.len();
    }
    d.feed(&[], true);
    assert_eq!(d.guess(None, false), textcodec::WINDOWS_1251);
    assert_eq!(d.candidates(None, false)[0].0, textcodec::WINDOWS_1251);
}

#[test]
fn ascii_runs_are_skipped_not_stepped_through() {
    // Markup and ASCII text between the few non-ASCII letters cost no per-byte work (the
    // detector's own count of candidate updates; no clock).
    for (name, encoding) in [
        ("en.html", textcodec::WINDOWS_1252),
        ("de.html", textcodec::WINDOWS_1252),
        ("cs.html", textcodec::WINDOWS_1250),
    ] {
        let bytes = encode(&corpus(name), encoding);
        let mut d = Detector::new();
        d.feed(&bytes, true);
        assert!(
            d.work() < bytes.len() as u64 / 2,
            "{name}: {} updates for {} bytes",
            d.work(),
            bytes.len()
        );
    }
}

#[test]
fn a_guillemet_opens_a_czech_quotation() {
    // ISO-8859-2's ť (0xBB) is windows-1250's »: "neboť" read as windows-1250 is "nebo»".
    // Czech quotes »like this« (» opens a quotation, after a space, not after a letter), so
    // that reading is not a word followed by a closing mark.
    for text in [
        "Přijdu brzy, neboť mám hlad.",
        "Zůstali doma, neboť venku bylo chladno.",
    ] {
        let bytes = encode(text, textcodec::ISO_8859_2);
        assert_detects(&bytes, textcodec::ISO_8859_2, None, text);
        assert_detects(&bytes, textcodec::ISO_8859_2, Some(b"cz"), text);
    }
    // And a quotation »like this« in windows-1250 is still Czech in windows-1250.
    for text in [
        "Řekl mi: »Přijdu zítra ráno.«",
        "Film »Obecná škola« má velký úspěch.",
    ] {
        let bytes = encode(text, textcodec::WINDOWS_1250);
        assert_detects(&bytes, textcodec::WINDOWS_1250, None, text);
        assert_detects(&bytes, textcodec::WINDOWS_1250, Some(b"cz"), text);
    }
}

#[test]
fn a_korean_title_citing_a_name_that_is_not_english() {
    // The ASCII words of a Korean title are foreign: English ones, or names and terms of any
    // other Latin-script language (Norwegian, German, Finnish, Polish, Latin). They must not
    // make the Korean syllables beside them read as a Latin-script language's rare letters
    // (EUC-KR's two bytes as windows-1252's "Å«", macintosh's, ISO-8859-16's).
    for text in [
        "큰(De Forente Nasjoner)",
        "조 Weitere Eisvorkommen Beobachtete",
        "는(Yhdistyneiden Kansakuntien)",
        "그(PRZETO ZGROMADZENIE)",
    ] {
        let bytes = encode(text, textcodec::EUC_KR);
        assert_detects(&bytes, textcodec::EUC_KR, Some(b"kr"), text);
    }
    for text in [
        "곳 Syrtis Major Planum",
        "조 Weitere Eisvorkommen Beobachtete",
    ] {
        let bytes = encode(text, textcodec::EUC_KR);
        assert_detects(&bytes, textcodec::EUC_KR, None, text);
    }
    // A Latin-script title whose words are its own is still its language's.
    for (text, encoding) in [
        (
            "De Forente Nasjoner og menneskerettighetene",
            textcodec::WINDOWS_1252,
        ),
        ("Die Wassereisschichten am Südpol", textcodec::WINDOWS_1252),
    ] {
        let bytes = encode(text, encoding);
        assert_detects(&bytes, encoding, None, text);
    }
}

#[test]
fn a_korean_domain_keeps_a_short_korean_title_korean() {
    // Two syllables are four bytes, which read about as well as Chinese in GBK, Russian in
    // ISO-8859-5 or Arabic in windows-1256; under `.kr` they are Korean unless the evidence
    // against EUC-KR is strong (the domain's multi-byte bonus). Each of these read as another
    // encoding with `.kr` before it.
    for text in ["벌벌", "별론", "현현", "케케"] {
        let bytes = encode(text, textcodec::EUC_KR);
        assert_detects(&bytes, textcodec::EUC_KR, Some(b"kr"), text);
    }
}

#[test]
fn a_multi_byte_domain_yields_to_strong_evidence() {
    // The rule's limit: under `.kr` a Latin-script title whose only non-ASCII bytes are one
    // pair that EUC-KR reads as a Hangul syllable (ISO-8859-2's "šč" is EUC-KR's 0xB9E8) is
    // EUC-KR: the few nats its letters give Slovene do not outweigh the domain's bonus. That
    // is the cost the cross-domain diagnostic counts (DETECTION.md).
    let title = "pravic in svoboščin, ki so";
    let bytes = encode(title, textcodec::ISO_8859_2);
    assert_detects(&bytes, textcodec::ISO_8859_2, None, title);
    assert_eq!(detect(&bytes, Some(b"kr"), false), textcodec::EUC_KR);
    // More text is more evidence, which overrules the domain, though EUC-KR still decodes
    // it ("š" before an ASCII letter is a syllable of EUC-KR's extension).
    let text = "pravic in svoboščin, ki so razglašene v tej deklaraciji";
    let bytes = encode(text, textcodec::ISO_8859_2);
    let mut d = Detector::new();
    d.feed(&bytes, true);
    assert!(d
        .candidates(Some(b"kr"), false)
        .iter()
        .any(|&(e, _)| e == textcodec::EUC_KR));
    assert_detects(&bytes, textcodec::ISO_8859_2, Some(b"kr"), text);
}
