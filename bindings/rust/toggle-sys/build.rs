//! Find libtoggle: TOGGLE_LIB_DIR (an uninstalled build tree's lib/ folder),
//! else `pkg-config libtoggle` (an installed library, in any prefix), else
//! plain -ltoggle. Plain std only: pkg-config is run as a command.
//!
//! The library's directory (TOGGLE_LIB_DIR, or each -L of pkg-config; none
//! when pkg-config prints no -L, that is for a directory the linker and the
//! loader search anyway) becomes an rpath of this crate's binaries and,
//! through `DEP_TOGGLE_LIB_DIR`, of the `toggle` crate's, so tests and
//! programs load libtoggle.so.1 without LD_LIBRARY_PATH. TOGGLE_NO_RPATH=1
//! turns the rpath off (for packagers whose binaries must not carry one).
//! Under docs.rs (DOCS_RS set) nothing is linked.

use std::env;
use std::path::Path;
use std::process::Command;

fn pkg_config(args: &[&str]) -> Option<String> {
    let exe = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let out = Command::new(exe).args(args).arg("libtoggle").output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout).ok()
}

fn main() {
    println!("cargo:rerun-if-env-changed=TOGGLE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_SYSROOT_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_LIBDIR");
    println!("cargo:rerun-if-env-changed=TOGGLE_NO_RPATH");
    // docs.rs builds the docs without libtoggle: nothing to link.
    if env::var_os("DOCS_RS").is_some() {
        return;
    }
    let rpath = env::var("TOGGLE_NO_RPATH").map_or(true, |v| v.is_empty() || v == "0");
    println!("cargo:rerun-if-changed=build.rs");

    if let Ok(dir) = env::var("TOGGLE_LIB_DIR") {
        if !Path::new(&dir).is_dir() {
            panic!("TOGGLE_LIB_DIR={} is not a directory", dir);
        }
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:rustc-link-lib=dylib=toggle");
        // Seen by dependents' build scripts as DEP_TOGGLE_LIB_DIR, so they
        // can add the rpath for their own tests and examples.
        println!("cargo:lib_dir={}", dir);
        if rpath {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
        return;
    }
    if let Some(libs) = pkg_config(&["--libs"]) {
        for flag in libs.split_whitespace() {
            if let Some(dir) = flag.strip_prefix("-L") {
                println!("cargo:rustc-link-search=native={}", dir);
                println!("cargo:lib_dir={}", dir);
                if rpath {
                    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
                }
            } else if let Some(name) = flag.strip_prefix("-l") {
                println!("cargo:rustc-link-lib=dylib={}", name);
            }
        }
        return;
    }
    println!("cargo:warning=libtoggle not found by pkg-config and TOGGLE_LIB_DIR is unset; trying -ltoggle");
    println!("cargo:rustc-link-lib=dylib=toggle");
}
