# Sourced by the install tests (tests/consumers/test_installed.sh,
# tests/bindings/run_cargo.sh --pkgconfig): install_destdir BUILD_DIR TMP
# installs the build into TMP/root and points pkg-config at that install
# (the .pc file names the final prefix; PKG_CONFIG_SYSROOT_DIR maps it into
# the DESTDIR). Sets pc (the installed libtoggle.pc).
install_destdir() {
    # Not --no-rebuild: `meson test` builds only what tests need; the callers
    # run alone (is_parallel: false).
    meson install -C "$1" --quiet --destdir "$2/root" >"$2/install.log" 2>&1 \
        || { cat "$2/install.log"; exit 1; }
    pc=$(find "$2/root" -name libtoggle.pc | head -n 1)
    [ -n "$pc" ] || { echo "libtoggle.pc was not installed"; exit 1; }
    echo "installed: $pc"
    PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR="$2/root" PKG_CONFIG_LIBDIR=$(dirname "$pc")
    export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
}
