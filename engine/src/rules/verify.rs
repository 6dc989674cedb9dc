//! (being written) independent re-proof of rules by enumeration.
