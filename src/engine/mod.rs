//! Pure rules: state, decisions, legal actions, scoring. No IO, no clock.
