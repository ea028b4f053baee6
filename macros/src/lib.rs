//! Proc-macro (under construction).
