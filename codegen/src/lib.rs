//! Code generation (under construction).
