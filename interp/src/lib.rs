//! Interpreter (under construction).
