//! Whether this thread is inside a question of the portfolio (`portfolio`): questions asked from within
//! one (by an interpreter's choice inside a search, or by a backend's own sub-searches) are nested, and
//! the portfolio neither races nor hands over their streams — that would be a thread and a translation
//! per search node. The racing lane's thread counts as inside its question too.

thread_local! {
    /// Inside a portfolio's question: questions asked now are nested in one of its searches.
    static NESTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks this thread as inside a portfolio's question until dropped.
pub(super) struct Nesting {
    saved: bool,
}

impl Nesting {
    pub(super) fn enter() -> Nesting {
        Nesting {
            saved: NESTED.replace(true),
        }
    }

    /// Whether this thread is inside a portfolio's question.
    pub(super) fn inside() -> bool {
        NESTED.get()
    }
}

impl Drop for Nesting {
    fn drop(&mut self) {
        NESTED.set(self.saved);
    }
}
