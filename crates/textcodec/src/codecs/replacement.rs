//! The replacement encoding's decoder ("replacement decoder"). It has no encoder: its output
//! encoding is UTF-8.

use super::driver::{DecodeHandler, Step};

/// "replacement error returned".
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ReplacementDecoder {
    error_returned: bool,
}

impl DecodeHandler for ReplacementDecoder {
    // "replacement decoder" handler: one error for a non-empty stream, then finished.
    fn handle(&mut self, _byte: u8) -> Step {
        if !self.error_returned {
            self.error_returned = true;
            return Step::ERROR;
        }
        Step::Finished
    }

    fn end(&mut self) -> Step {
        Step::Finished
    }

    fn held(&self) -> usize {
        0
    }
}
