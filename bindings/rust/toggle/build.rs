//! For an uninstalled libtoggle (TOGGLE_LIB_DIR), give this crate's own
//! tests and examples an rpath, so they run without LD_LIBRARY_PATH.
//! (Link flags of a dependency's build script do not reach our binaries.)
fn main() {
    println!("cargo:rerun-if-env-changed=TOGGLE_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_TOGGLE_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
}
