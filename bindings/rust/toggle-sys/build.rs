//! Find libtoggle: TOGGLE_LIB_DIR (an uninstalled build tree's lib/ folder,
//! also added as an rpath), else `pkg-config libtoggle`, else plain -ltoggle.
//! Plain std only: pkg-config is run as a command.

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
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        return;
    }
    if let Some(libs) = pkg_config(&["--libs"]) {
        for flag in libs.split_whitespace() {
            if let Some(dir) = flag.strip_prefix("-L") {
                println!("cargo:rustc-link-search=native={}", dir);
                println!("cargo:lib_dir={}", dir);
            } else if let Some(name) = flag.strip_prefix("-l") {
                println!("cargo:rustc-link-lib=dylib={}", name);
            }
        }
        return;
    }
    println!("cargo:warning=libtoggle not found by pkg-config and TOGGLE_LIB_DIR is unset; trying -ltoggle");
    println!("cargo:rustc-link-lib=dylib=toggle");
}
