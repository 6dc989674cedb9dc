//! (being written) the binary rulebase file: magic, version, header, bincode payload, checksum.
