//! The binding covers the library: every symbol of lib/libtoggle.map (each
//! node, TOGGLE_1.0 and TOGGLE_1.1 and any later one) is declared in this
//! crate's `extern "C"` block and called by the safe crate (`sys::NAME` in
//! bindings/rust/toggle/src); every constant of abi/constants.txt is a
//! `pub const` here with the same value. Adding a function to the version
//! script without binding it fails this test.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

/// (node, symbol) for every global of the version script.
fn map_symbols() -> Vec<(String, String)> {
    let text = read(&repo().join("lib/libtoggle.map"));
    let mut node = String::new();
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = raw.split("/*").next().unwrap().trim();
        if let Some(name) = line.strip_suffix('{').map(str::trim) {
            node = name.to_string();
        } else if let Some(sym) = line.strip_suffix(';') {
            let sym = sym.trim();
            if sym.starts_with("toggle_") {
                out.push((node.clone(), sym.to_string()));
            }
        }
    }
    out
}

/// The names declared as `pub fn NAME(` in this crate's source.
fn declared(src: &str) -> Vec<String> {
    src.split("pub fn ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .map(|s| s.trim().to_string())
        .collect()
}

fn safe_crate_source() -> String {
    let dir = repo().join("bindings/rust/toggle/src");
    let mut all = String::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().map_or(false, |e| e == "rs") {
            all.push_str(&read(&p));
        }
    }
    all
}

#[test]
fn every_exported_function_is_bound() {
    let syms = map_symbols();
    assert!(syms.iter().any(|(n, _)| n == "TOGGLE_1.0"), "no TOGGLE_1.0 node read");
    assert!(syms.iter().any(|(n, _)| n == "TOGGLE_1.1"), "no TOGGLE_1.1 node read");
    let sys_src = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"));
    let decl = declared(&sys_src);
    let safe = safe_crate_source();
    let mut missing = Vec::new();
    for (node, sym) in &syms {
        if !decl.iter().any(|d| d == sym) {
            missing.push(format!("{} ({}): not declared in toggle-sys", sym, node));
        }
        let used = safe.match_indices(&format!("sys::{}", sym)).any(|(i, _)| {
            let after = &safe[i + 5 + sym.len()..];
            !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
        });
        if !used {
            missing.push(format!("{} ({}): not called by the safe crate", sym, node));
        }
    }
    // and nothing declared that the library does not export
    for d in &decl {
        if d.starts_with("toggle_") && !syms.iter().any(|(_, s)| s == d) {
            missing.push(format!("{}: declared in toggle-sys, not in lib/libtoggle.map", d));
        }
    }
    assert!(missing.is_empty(), "binding coverage:\n  {}", missing.join("\n  "));
}

/// Value of a `pub const` expression of this crate, resolving names.
fn eval(expr: &str, consts: &BTreeMap<String, String>, depth: usize) -> Option<i128> {
    let e = expr.trim();
    assert!(depth < 10, "constant cycle at {}", e);
    if let Some((a, b)) = e.split_once("<<") {
        return Some(eval(a, consts, depth + 1)? << eval(b, consts, depth + 1)?);
    }
    match e {
        "u64::MAX" | "usize::MAX" => return Some(-1), // constants.txt writes all ones as -1
        "i64::MAX as u64" => return Some(i64::MAX as i128),
        _ => {}
    }
    if let Some(hex) = e.strip_prefix("0x") {
        return i128::from_str_radix(hex, 16).ok();
    }
    if let Ok(v) = e.parse::<i128>() {
        return Some(v);
    }
    consts.get(e).and_then(|v| eval(v, consts, depth + 1))
}

#[test]
fn every_abi_constant_has_its_value() {
    let sys_src = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"));
    let mut consts = BTreeMap::new();
    for line in sys_src.lines() {
        if let Some(rest) = line.trim().strip_prefix("pub const ") {
            let (name, rest) = rest.split_once(':').unwrap();
            let value = rest.split_once('=').unwrap().1.trim().trim_end_matches(';');
            consts.insert(name.trim().to_string(), value.to_string());
        }
    }
    let table = read(&repo().join("abi/constants.txt"));
    let mut wrong = Vec::new();
    for line in table.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut it = line.split_whitespace();
        let (name, want) = (it.next().unwrap(), it.next().unwrap().parse::<i128>().unwrap());
        match consts.get(name) {
            None => wrong.push(format!("{}: missing", name)),
            Some(v) => {
                let got = eval(v, &consts, 0);
                if got != Some(want) {
                    wrong.push(format!("{} = {} ({:?}), the ABI says {}", name, v, got, want));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "constants:\n  {}", wrong.join("\n  "));
}
