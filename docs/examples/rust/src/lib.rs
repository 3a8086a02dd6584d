// Placeholder: the programs are the examples in Cargo.toml.
