//! Give this crate's own tests and examples the rpath of the library that
//! toggle-sys found (TOGGLE_LIB_DIR or pkg-config's -L), so they run without
//! LD_LIBRARY_PATH. (Link flags of a dependency's build script do not reach
//! our binaries.) TOGGLE_NO_RPATH=1 turns it off, as in toggle-sys.
fn main() {
    println!("cargo:rerun-if-env-changed=TOGGLE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=TOGGLE_NO_RPATH");
    let off = std::env::var("TOGGLE_NO_RPATH").map_or(false, |v| !v.is_empty() && v != "0");
    if off {
        return;
    }
    if let Ok(dir) = std::env::var("DEP_TOGGLE_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
}
