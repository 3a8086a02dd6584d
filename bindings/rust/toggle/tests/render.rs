//! Rendering: image sizes from the documented formula, PPM bytes parsed by
//! hand, every cell's pixel against the colour map.

use toggle::{render, render_file, render_size, Colormap, ErrorKind, ImageFormat, RenderOptions};

mod common;
use common::{seed, Lcg};

/// (width, height, pixels) of a binary PPM, parsed by this test.
fn parse_ppm(bytes: &[u8]) -> (usize, usize, &[u8]) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(std::str::from_utf8(&bytes[start..i]).unwrap().to_string());
    }
    assert_eq!(fields[0], "P6");
    assert_eq!(fields[3], "255");
    (fields[1].parse().unwrap(), fields[2].parse().unwrap(), &bytes[i + 1..])
}

#[test]
fn ppm_pixels_match_the_colour_map() {
    let (rows, cols, k) = (3usize, 5usize, 7u64);
    let mut rng = Lcg(seed(11));
    let cells: Vec<u64> = (0..rows * cols).map(|_| rng.below(k)).collect();
    let (cell, line, border, line_rgb) = (6usize, 2usize, 3usize, 0x12_34_56u32);
    let mut opts = RenderOptions::new().unwrap();
    opts.set_cell_size(cell as u64).unwrap();
    opts.set_grid_lines(line as u64).unwrap();
    opts.set_border(border as u64).unwrap();
    opts.set_colormap(Colormap::MAGMA).unwrap();
    opts.set_reversed(true).unwrap();
    opts.set_line_color(line_rgb).unwrap();
    assert_eq!(opts.get(toggle::sys::TOGGLE_RENDER_COLORMAP).unwrap(), Colormap::MAGMA.0 as u64);

    let want_w = 2 * border + cols * cell + (cols - 1) * line;
    let want_h = 2 * border + rows * cell + (rows - 1) * line;
    assert_eq!(render_size(Some(&opts), rows, cols).unwrap(), (want_w, want_h));

    let bytes = render(Some(&opts), ImageFormat::Ppm, &cells, rows, cols, k).unwrap();
    let (w, h, px) = parse_ppm(&bytes);
    assert_eq!((w, h), (want_w, want_h));
    assert_eq!(px.len(), w * h * 3);
    let pixel = |x: usize, y: usize| [px[(y * w + x) * 3], px[(y * w + x) * 3 + 1], px[(y * w + x) * 3 + 2]];
    for r in 0..rows {
        for c in 0..cols {
            let want = Colormap::MAGMA.color(true, cells[r * cols + c], k).unwrap();
            let (x0, y0) = (border + c * (cell + line), border + r * (cell + line));
            assert_eq!(pixel(x0, y0), want, "cell ({}, {})", r, c);
            assert_eq!(pixel(x0 + cell - 1, y0 + cell - 1), want);
        }
    }
    let line_px = [0x12, 0x34, 0x56];
    assert_eq!(pixel(0, 0), line_px); // border
    assert_eq!(pixel(border + cell, border), line_px); // line between columns 0 and 1

    // The same bytes through a file.
    let path = std::env::temp_dir().join(format!("toggle-rust-render-{}.ppm", std::process::id()));
    render_file(Some(&opts), ImageFormat::Ppm, &cells, rows, cols, k, &path).unwrap();
    let from_file = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(from_file, bytes);
}

#[test]
fn defaults_png_and_errors() {
    // Defaults: 8-pixel viridis cells, no lines, no border.
    assert_eq!(render_size(None, 2, 3).unwrap(), (24, 16));
    let cells = [0u64, 1, 0, 1, 0, 1];
    let bytes = render(None, ImageFormat::Ppm, &cells, 2, 3, 2).unwrap();
    let (w, h, px) = parse_ppm(&bytes);
    assert_eq!((w, h), (24, 16));
    assert_eq!(&px[..3], &Colormap::VIRIDIS.color(false, 0, 2).unwrap());
    assert_eq!(&px[8 * 3..9 * 3], &Colormap::VIRIDIS.color(false, 1, 2).unwrap());
    match render(None, ImageFormat::Png, &cells, 2, 3, 2) {
        Ok(png) => assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n"),
        Err(e) => assert_eq!(e.kind(), ErrorKind::Unsupported),
    }
    assert_eq!(render(None, ImageFormat::Ppm, &cells, 2, 2, 2).unwrap_err().kind(),
               ErrorKind::InvalidArgument); // 6 cells for a 2 x 2 board
    assert_eq!(render(None, ImageFormat::Ppm, &cells, 2, 3, 1).unwrap_err().kind(),
               ErrorKind::InvalidArgument); // k < 2
    assert_eq!(render(None, ImageFormat::Ppm, &[0, 2], 1, 2, 2).unwrap_err().kind(),
               ErrorKind::Range); // value >= k
    let dir = std::env::temp_dir().join("toggle-rust-no-such-dir").join("x.ppm");
    assert_eq!(render_file(None, ImageFormat::Ppm, &cells, 2, 3, 2, &dir).unwrap_err().kind(),
               ErrorKind::Io);
    let mut opts = RenderOptions::new().unwrap();
    assert_eq!(opts.set_cell_size(0).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(opts.set_colormap(Colormap(100000)).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(opts.get(toggle::sys::TOGGLE_RENDER_CELL_SIZE).unwrap(), 8);
}

#[test]
fn colour_maps() {
    let all = Colormap::all();
    assert!(all.len() >= 17);
    let names: Vec<&str> = all.iter().map(|m| m.name().unwrap()).collect();
    assert_eq!(names[0], "viridis");
    assert_eq!(Colormap::ACCENT.name(), Some(names[16]));
    assert_eq!(Colormap(-1).name(), None);
    for m in &all {
        assert_eq!(Colormap::from_name(m.name().unwrap()).unwrap(), (*m, false));
    }
    assert_eq!(Colormap::from_name("viridis_r").unwrap(), (Colormap::VIRIDIS, true));
    assert_eq!(Colormap::from_name("no-such-map").unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert!(Colormap::TAB10.is_qualitative().unwrap());
    assert!(!Colormap::VIRIDIS.is_qualitative().unwrap());
    assert_eq!(Colormap(-1).is_qualitative().unwrap_err().kind(), ErrorKind::InvalidArgument);
    // matplotlib's Greys runs from white to black.
    assert_eq!(Colormap::GREYS.color(false, 0, 2).unwrap(), [255, 255, 255]);
    assert_eq!(Colormap::GREYS.color(false, 1, 2).unwrap(), [0, 0, 0]);
    // Reversed v is plain k - 1 - v; a qualitative map of N colours repeats.
    for v in 0..5 {
        assert_eq!(Colormap::PLASMA.color(true, v, 5).unwrap(),
                   Colormap::PLASMA.color(false, 4 - v, 5).unwrap());
    }
    assert_eq!(Colormap::TAB10.color(false, 10, 12).unwrap(),
               Colormap::TAB10.color(false, 0, 12).unwrap());
    assert_eq!(Colormap::VIRIDIS.color(false, 2, 2).unwrap_err().kind(), ErrorKind::Range);
}
